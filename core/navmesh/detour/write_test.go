package detour

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"navviz/core/geom"
	"navviz/core/navmesh"
)

// TestEncodeLayout checks the bytes Encode writes for two hand tiles
// against Detour's structs field by field (docs/format.md §11): the MSET
// header and dtNavMeshParams, the tile entries, dtMeshHeader, the vertices
// with the off-mesh link's two, dtPoly records (walls 0, neighbours
// index+1, portals 0x8000|dir, the off-mesh polygon of type 1), the zeroed
// link slots, dtPolyDetail, the triangles, 2n BV nodes with the last zero,
// and dtOffMeshConnection.
func TestEncodeLayout(t *testing.T) {
	for _, ref64 := range []bool{false, true} {
		m := handMesh(t, 2)
		if err := m.SetPolyFlags(m.Tiles()[1].Poly(1), 0x8001); err != nil { // a run-time edit is written
			t.Fatal(err)
		}
		data, err := Encode(m, handOptions(ref64))
		if err != nil {
			t.Fatal(err)
		}
		le := binary.LittleEndian
		u32 := func(o int) uint32 { return le.Uint32(data[o:]) }
		f32 := func(o int) float32 { return math.Float32frombits(u32(o)) }
		want := func(what string, got, want any) {
			t.Helper()
			if got != want {
				t.Errorf("ref64 %v: %s = %v, want %v", ref64, what, got, want)
			}
		}
		want("magic", string(data[:4]), "TESM")
		want("version", u32(4), uint32(1))
		want("numTiles", u32(8), uint32(2))
		want("orig.x", f32(12), float32(0))
		want("tileWidth", f32(24), float32(6))
		want("tileHeight", f32(28), float32(6))
		want("maxTiles", u32(32), uint32(2))
		want("maxPolys", u32(36), uint32(4)) // nextPow2(2 polygons + 1 off-mesh)
		o := 40
		// 32-bit refs: 1 tile bit, 2 polygon bits; salt 1 above them.
		ref, hdr := uint64(u32(o)), 8
		wantRef := uint64(1) << 3
		if ref64 {
			ref, hdr, wantRef = le.Uint64(data[o:]), 16, 1<<48
		}
		want("tile 0 ref", ref, wantRef)
		size := int(u32(o + 4))
		if ref64 {
			size = int(u32(o + 8))
		}
		tile := data[o+hdr : o+hdr+size]
		d := tile
		tu32 := func(o int) uint32 { return le.Uint32(d[o:]) }
		tu16 := func(o int) uint16 { return le.Uint16(d[o:]) }
		tf32 := func(o int) float32 { return math.Float32frombits(tu32(o)) }
		want("tile magic", string(d[:4]), "VAND")
		want("tile version", tu32(4), uint32(7))
		want("x, y, layer", [3]uint32{tu32(8), tu32(12), tu32(16)}, [3]uint32{0, 0, 0})
		want("polyCount", tu32(24), uint32(3))
		want("vertCount", tu32(28), uint32(8))
		// 8 edges, 1 portal, 2 off-mesh ends inside: 8 + 2 + 2*2.
		want("maxLinkCount", tu32(32), uint32(14))
		want("detailMeshCount", tu32(36), uint32(2))
		want("detailVertCount", tu32(40), uint32(0))
		want("detailTriCount", tu32(44), uint32(4))
		want("bvNodeCount", tu32(48), uint32(4))
		want("offMeshConCount", tu32(52), uint32(1))
		want("offMeshBase", tu32(56), uint32(2))
		want("walkableClimb", tf32(68), float32(0.9))
		want("bmin", [3]float32{tf32(72), tf32(76), tf32(80)}, [3]float32{0, 0, 0})
		want("bmax", [3]float32{tf32(84), tf32(88), tf32(92)}, [3]float32{6, 5, 6})
		want("bvQuantFactor", tf32(96), float32(1/float32(0.3)))
		vo := 100
		want("off-mesh start vertex", [3]float32{tf32(vo + 72), tf32(vo + 76), tf32(vo + 80)}, [3]float32{1, 1, 1})
		po := vo + 8*12
		p0 := po
		want("poly 0 firstLink", tu32(p0), uint32(0))
		want("poly 0 verts", [6]uint16{tu16(p0 + 4), tu16(p0 + 6), tu16(p0 + 8), tu16(p0 + 10), tu16(p0 + 12), tu16(p0 + 14)}, [6]uint16{0, 1, 2, 3, 0, 0})
		want("poly 0 neis", [6]uint16{tu16(p0 + 16), tu16(p0 + 18), tu16(p0 + 20), tu16(p0 + 22), tu16(p0 + 24), tu16(p0 + 26)}, [6]uint16{0, 0, 2, 0, 0, 0})
		p1 := po + 32
		want("poly 1 neis", [3]uint16{tu16(p1 + 16), tu16(p1 + 18), tu16(p1 + 20)}, [3]uint16{1, 0, 0x8000})
		want("poly 1 flags, vertCount, areaAndtype", [3]uint16{tu16(p1 + 28), uint16(d[p1+30]), uint16(d[p1+31])}, [3]uint16{1, 4, 5})
		p2 := po + 64
		want("off-mesh poly verts", [2]uint16{tu16(p2 + 4), tu16(p2 + 6)}, [2]uint16{6, 7})
		want("off-mesh poly vertCount, areaAndtype", [2]uint8{d[p2+30], d[p2+31]}, [2]uint8{2, 7 | 1<<6})
		lo := po + 3*32
		linkSize := 12
		if ref64 {
			linkSize = 16
		}
		if !bytes.Equal(d[lo:lo+14*linkSize], make([]byte, 14*linkSize)) {
			t.Errorf("ref64 %v: link slots not zero", ref64)
		}
		do := lo + 14*linkSize
		want("detail 1", [4]uint32{tu32(do + 12), tu32(do + 16), uint32(d[do+20]), uint32(d[do+21])}, [4]uint32{0, 2, 0, 2})
		to := do + 2*12
		want("detail tri 1", [4]uint8(d[to+4:to+8]), [4]uint8{0, 2, 3, 0x14})
		bo := to + 4*4
		want("BV root", int32(tu32(bo+12)), int32(-3))
		want("BV leaf 0 box", [6]uint16{tu16(bo + 16), tu16(bo + 18), tu16(bo + 20), tu16(bo + 22), tu16(bo + 24), tu16(bo + 26)}, [6]uint16{0, 3, 0, 10, 3, 20}) // (v - bmin) * float32(1/0.3), truncated
		if !bytes.Equal(d[bo+48:bo+64], make([]byte, 16)) {
			t.Errorf("ref64 %v: the reserved last BV node is not zero", ref64)
		}
		oo := bo + 4*16
		want("off-mesh end", [3]float32{tf32(oo + 12), tf32(oo + 16), tf32(oo + 20)}, [3]float32{4, 1, 4})
		want("off-mesh rad, poly, flags, side, userId", [5]uint32{u32f(tf32(oo + 24)), uint32(tu16(oo + 28)), uint32(d[oo+30]), uint32(d[oo+31]), tu32(oo + 32)},
			[5]uint32{u32f(0.5), 2, 1, 0xff, 9})
		want("tile size", oo+36, len(tile))
		// Tile 1 carries the run-time flags of its polygon 1.
		o2 := o + hdr + size
		d = data[o2+hdr:]
		want("tile 1 x", tu32(8), uint32(1))
		want("tile 1 poly 1 flags (edited)", tu16(100+6*12+32+28), uint16(0x8001))
		want("tile 1 poly 0 neis", [3]uint16{tu16(100 + 6*12 + 16), tu16(100 + 6*12 + 18), tu16(100 + 6*12 + 20)}, [3]uint16{0x8004, 0, 2})
	}
}

func u32f(f float32) uint32 { return math.Float32bits(f) }

// TestEncodeRefuses: what Encode cannot write is an error naming why.
func TestEncodeRefuses(t *testing.T) {
	m := handMesh(t, 2)
	for _, c := range []struct {
		name string
		m    *navmesh.Mesh
		opt  Options
		want string
	}{
		{"nil mesh", nil, handOptions(false), "nil Mesh"},
		{"empty mesh", navmesh.NewMesh(), handOptions(false), "no tiles"},
		{"no tile size", m, Options{}, "tile size"},
		{"NaN bounds", m, Options{BoundsM: geom.Box3{Min: geom.V3(float32(math.NaN()), 0, 0)}, TileWidthM: 1, TileHeightM: 1}, "not finite"},
	} {
		if _, err := Encode(c.m, c.opt); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}
