package navmesh

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"

	"navviz/core/contour"
	"navviz/core/geom"
	"navviz/core/polymesh"
)

func TestBuildTileDataRoundTrip(t *testing.T) {
	m := twoColumns(3, -2, 10)
	m.Flags[1] = 0x8001
	m.Areas[0] = 5
	for _, tc := range []struct {
		name   string
		detail *polymesh.Detail
		extra  int
	}{{"fan", nil, 0}, {"detail", centreDetail(m, 0.1), 2}} {
		t.Run(tc.name, func(t *testing.T) {
			data := mustBuild(t, m, tc.detail, params(3, -2, 7))
			tile, err := DecodeTile(data)
			if err != nil {
				t.Fatal(err)
			}
			h := tile.Header
			if h.TileX != 3 || h.TileZ != -2 || h.Layer != 7 || h.NVP != 6 {
				t.Errorf("header position (%d, %d, %d) NVP %d, want (3, -2, 7) 6", h.TileX, h.TileZ, h.Layer, h.NVP)
			}
			if h.WalkableHeightM != 2 || h.WalkableRadiusM != 0.6 || h.WalkableClimbM != 0.9 || h.CellSizeM != testCS || h.CellHeightM != testCH {
				t.Errorf("header agent/cells %+v", h)
			}
			if want := float32(float32(10) * testCH); h.OriginY != want {
				t.Errorf("vertical origin %v, want %v", h.OriginY, want)
			}
			if len(tile.Verts) != 6 || len(tile.Polys) != 2 || len(tile.DetailVerts) != tc.extra || len(tile.BVTree) != 3 {
				t.Errorf("%d verts, %d polys, %d detail verts, %d BV nodes; want 6, 2, %d, 3",
					len(tile.Verts), len(tile.Polys), len(tile.DetailVerts), len(tile.BVTree), tc.extra)
			}
			for i := range tile.Verts {
				if tile.Verts[i] != m.VertM(i) {
					t.Errorf("vertex %d at %v, want %v", i, tile.Verts[i], m.VertM(i))
				}
			}
			p0, p1 := tile.Polys[0], tile.Polys[1]
			wantN0 := [6]uint16{ExtLink | DirNegX, ExtLink | DirPosZ, 1, ExtLink | DirNegZ, NullIndex, NullIndex}
			wantN1 := [6]uint16{0, ExtLink | DirPosZ, ExtLink | DirPosX, ExtLink | DirNegZ, NullIndex, NullIndex}
			if p0.Neis != wantN0 || p1.Neis != wantN1 {
				t.Errorf("neighbours %x / %x, want %x / %x", p0.Neis, p1.Neis, wantN0, wantN1)
			}
			if p0.Area != 5 || p1.Area != 63 || p0.Flags != 1 || p1.Flags != 0x8001 || p0.VertCount != 4 {
				t.Errorf("polygon fields %+v %+v", p0, p1)
			}
			if tc.detail != nil {
				// Local index 4 of polygon 1 is its centre.
				v, ok := tile.PolyDetailVert(1, 4)
				if want := tc.detail.Verts[9]; !ok || v != want {
					t.Errorf("polygon 1 detail vertex 4 = %v, %v; want %v", v, ok, want)
				}
				if tile.Header.BMax.Y != tc.detail.Verts[4].Y {
					t.Errorf("bounds max y %v, want the raised centre %v", tile.Header.BMax.Y, tc.detail.Verts[4].Y)
				}
			} else if tile.DetailTris[0] != [4]uint8{0, 1, 2, 1 | 4} || tile.DetailTris[1] != [4]uint8{0, 2, 3, 4 | 16} {
				t.Errorf("fan triangles %v", tile.DetailTris)
			}
			again, err := tile.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, data) {
				t.Errorf("re-encoded tile differs from the built one")
			}
			if ContentID(data) != xxhash.Sum64(data) {
				t.Errorf("ContentID is not xxhash64 of the bytes")
			}
			if d2 := mustBuild(t, m, tc.detail, params(3, -2, 7)); !bytes.Equal(d2, data) {
				t.Errorf("two builds differ")
			}
		})
	}
}

// The fan BuildTileData makes without a detail mesh is exactly what
// polymesh.BuildDetail gives without height sampling.
func TestBuildTileDataFanMatchesBuildDetail(t *testing.T) {
	m := twoRows(0, 0, 3)
	d, err := polymesh.BuildDetail(m, nil, nil, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	a := mustBuild(t, m, nil, params(0, 0, 0))
	b := mustBuild(t, m, d, params(0, 0, 0))
	if !bytes.Equal(a, b) {
		t.Errorf("fan tile and BuildDetail tile differ")
	}
}

func TestBuildTileDataHeaderLayout(t *testing.T) {
	m := twoColumns(-1, 4, 2)
	data := mustBuild(t, m, nil, params(-1, 4, 2))
	le := binary.LittleEndian
	f := func(off int) float32 { return math.Float32frombits(le.Uint32(data[off:])) }
	if string(data[:4]) != "NVTL" || le.Uint16(data[4:]) != 1 || data[6] != 2 || data[7] != 6 ||
		int32(le.Uint32(data[8:])) != -1 || int32(le.Uint32(data[12:])) != 4 ||
		le.Uint32(data[16:]) != 6 || le.Uint32(data[20:]) != 2 || le.Uint32(data[24:]) != 0 ||
		le.Uint32(data[28:]) != 4 || le.Uint32(data[32:]) != 3 {
		t.Errorf("header bytes % x", data[:36])
	}
	if f(36) != float32(2*testCH) || f(76) != testCS || f(80) != testCH || f(72) != 0.9 {
		t.Errorf("header floats: origin %v cs %v ch %v climb %v", f(36), f(76), f(80), f(72))
	}
	want := TileHeaderSize + 6*12 + 2*(4*6+4) + 2*12 + 0 + 4*4 + 3*16
	if len(data) != want {
		t.Errorf("%d bytes, want %d", len(data), want)
	}
	// First vertex: x = -10 cells, z = 40 cells on the level grid.
	if v := m.VertM(0); f(84) != v.X || f(88) != v.Y || f(92) != v.Z || v.X != -3 || v.Z != 12 {
		t.Errorf("first vertex at (%v, %v)", f(84), f(92))
	}
}

func TestBuildTileDataErrors(t *testing.T) {
	good := func() *polymesh.Mesh { return twoColumns(0, 0, 1) }
	for _, tc := range []struct {
		name   string
		edit   func(m *polymesh.Mesh, d **polymesh.Detail, p *TileParams)
		substr string
	}{
		{"nil mesh", nil, "nil mesh"},
		{"nvp", func(m *polymesh.Mesh, _ **polymesh.Detail, _ *TileParams) { m.NVP = 7 }, "NVP 7"},
		{"areas", func(m *polymesh.Mesh, _ **polymesh.Detail, _ *TileParams) { m.Areas = m.Areas[:1] }, "1 areas"},
		{"area value", func(m *polymesh.Mesh, _ **polymesh.Detail, _ *TileParams) { m.Areas[1] = 64 }, "area 64"},
		{"flags", func(m *polymesh.Mesh, _ **polymesh.Detail, _ *TileParams) { m.Flags = m.Flags[:1] }, "1 flags"},
		{"vertex index", func(m *polymesh.Mesh, _ **polymesh.Detail, _ *TileParams) { m.Polys[1] = 99 }, "beyond the 6 vertices"},
		{"portal side", func(m *polymesh.Mesh, _ **polymesh.Detail, _ *TileParams) { m.Polys[6] = polymesh.PortalFlag | 5 }, "portal side"},
		{"neighbour", func(m *polymesh.Mesh, _ **polymesh.Detail, _ *TileParams) { m.Polys[8] = 2 }, "beyond the 2 polygons"},
		{"neighbour itself", func(m *polymesh.Mesh, _ **polymesh.Detail, _ *TileParams) { m.Polys[8] = 0 }, "names the polygon itself"},
		{"portal off its border", func(m *polymesh.Mesh, _ **polymesh.Detail, _ *TileParams) {
			m.Polys[6], m.Polys[7] = m.Polys[7], m.Polys[6]
		}, "does not run along its border"},
		{"one-sided neighbour", func(m *polymesh.Mesh, _ **polymesh.Detail, _ *TileParams) { m.Polys[12+6] = null }, "back"},
		{"climb", func(_ *polymesh.Mesh, _ **polymesh.Detail, p *TileParams) { p.WalkableClimbM = float32(math.NaN()) }, "WalkableClimbM"},
		{"cell size", func(_ *polymesh.Mesh, _ **polymesh.Detail, p *TileParams) { p.CellSizeM = 0.5 }, "CellSizeM"},
		{"map", func(m *polymesh.Mesh, _ **polymesh.Detail, _ *TileParams) { m.Map.CellSizeM = 0.25 }, "map"},
		{"detail count", func(m *polymesh.Mesh, d **polymesh.Detail, _ *TileParams) {
			*d = centreDetail(m, 0)
			(*d).Meshes = (*d).Meshes[:1]
		}, "1 sub-meshes"},
		{"detail first verts", func(m *polymesh.Mesh, d **polymesh.Detail, _ *TileParams) {
			*d = centreDetail(m, 0)
			(*d).Verts[1].Y += 1
		}, "want its polygon's vertex"},
		{"detail tri index", func(m *polymesh.Mesh, d **polymesh.Detail, _ *TileParams) {
			*d = centreDetail(m, 0)
			(*d).Tris[0][2] = 9
		}, "corner 2 = 9"},
		{"detail range", func(m *polymesh.Mesh, d **polymesh.Detail, _ *TileParams) {
			*d = centreDetail(m, 0)
			(*d).Meshes[1][2] = 100
		}, "beyond the 8 detail triangles"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var m *polymesh.Mesh
			var d *polymesh.Detail
			p := params(0, 0, 0)
			if tc.edit != nil {
				m = good()
				tc.edit(m, &d, &p)
			}
			_, err := BuildTileData(m, d, p)
			if err == nil || !strings.Contains(err.Error(), tc.substr) {
				t.Errorf("error %v, want one containing %q", err, tc.substr)
			}
		})
	}
	empty := good()
	empty.Polys, empty.Areas, empty.Regs, empty.Flags = nil, nil, nil, nil
	if _, err := BuildTileData(empty, nil, params(0, 0, 0)); !errors.Is(err, ErrNoPolygons) {
		t.Errorf("empty mesh: %v, want ErrNoPolygons", err)
	}
}

// gridMesh is a tile of n x n unit quads (cell coordinates), for the BV
// tree; bumpy varies the heights.
func gridMesh(n int, bumpy bool) *polymesh.Mesh {
	var verts [][3]uint16
	id := func(x, z int) uint16 { return uint16(z*(n+1) + x) }
	for z := 0; z <= n; z++ {
		for x := 0; x <= n; x++ {
			y := uint16(0)
			if bumpy {
				y = uint16((x*7 + z*3) % 5)
			}
			verts = append(verts, [3]uint16{uint16(x), y, uint16(z)})
		}
	}
	var polys [][2][]uint16
	pid := func(x, z int) uint16 {
		if x < 0 || z < 0 || x >= n || z >= n {
			return null
		}
		return uint16(z*n + x)
	}
	for z := 0; z < n; z++ {
		for x := 0; x < n; x++ {
			polys = append(polys, [2][]uint16{
				{id(x, z), id(x, z+1), id(x+1, z+1), id(x+1, z)},
				{pid(x-1, z), pid(x, z+1), pid(x+1, z), pid(x, z-1)},
			})
		}
	}
	m := handMesh(0, 0, verts, polys, nil)
	m.WidthCells, m.HeightCells = n, n
	m.Map.WidthCells, m.Map.HeightCells = n, n
	return m
}

func TestBVTree(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 10} {
		data := mustBuild(t, gridMesh(n, true), nil, params(0, 0, 0))
		tile, err := DecodeTile(data)
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if len(tile.BVTree) != 2*n*n-1 {
			t.Fatalf("n=%d: %d nodes", n, len(tile.BVTree))
		}
		// Every polygon's vertices lie in its leaf box (in cells).
		for _, node := range tile.BVTree {
			if node.I < 0 {
				continue
			}
			p := tile.Polys[node.I]
			for j := 0; j < int(p.VertCount); j++ {
				v := tile.Verts[p.Verts[j]]
				q := [3]float64{
					float64(v.X-tile.Header.BMin.X) / float64(testCS),
					float64(v.Y-tile.Header.BMin.Y) / float64(testCS),
					float64(v.Z-tile.Header.BMin.Z) / float64(testCS),
				}
				for k := 0; k < 3; k++ {
					if q[k] < float64(node.BMin[k]) || q[k] > float64(node.BMax[k]) {
						t.Errorf("n=%d: polygon %d vertex %d axis %d at %v cells outside leaf %v..%v", n, node.I, j, k, q[k], node.BMin, node.BMax)
					}
				}
			}
		}
	}
	// The root of a 2 x 2 grid splits along x first (x and z extents tie,
	// x wins), by polygon index on ties: leaves 0, 2 | 1, 3.
	tile, _ := DecodeTile(mustBuild(t, gridMesh(2, false), nil, params(0, 0, 0)))
	var leaves []int32
	for _, node := range tile.BVTree {
		if node.I >= 0 {
			leaves = append(leaves, node.I)
		}
	}
	if want := []int32{0, 2, 1, 3}; !slices.Equal(leaves, want) {
		t.Errorf("leaf order %v, want %v", leaves, want)
	}
	if tile.BVTree[0].I != -7 || tile.BVTree[1].I != -3 || tile.BVTree[4].I != -3 {
		t.Errorf("escape indices %v %v %v", tile.BVTree[0].I, tile.BVTree[1].I, tile.BVTree[4].I)
	}
}

// corruptions of a valid tile, each rejected with an error naming the
// field.
func TestDecodeTileRejects(t *testing.T) {
	base := mustBuild(t, twoColumns(0, 0, 1), centreDetail(twoColumns(0, 0, 1), 0.2), params(0, 0, 0))
	le := binary.LittleEndian
	polyOff := TileHeaderSize + 6*12
	rec := 4*6 + 4
	dmOff := polyOff + 2*rec
	dvOff := dmOff + 2*12
	dtOff := dvOff + 2*12
	bvOff := dtOff + 8*4
	for _, tc := range []struct {
		name   string
		edit   func(b []byte) []byte
		substr string
	}{
		{"short", func(b []byte) []byte { return b[:40] }, "shorter than"},
		{"magic", func(b []byte) []byte { b[0] = 'X'; return b }, "magic"},
		{"version", func(b []byte) []byte { b[4] = 9; return b }, "version 9"},
		{"nvp", func(b []byte) []byte { b[7] = 2; return b }, "NVP 2"},
		{"poly count", func(b []byte) []byte { le.PutUint32(b[20:], 0); return b }, "polygon count 0"},
		{"bv count", func(b []byte) []byte { le.PutUint32(b[32:], 4); return b }, "BV node count 4"},
		{"length", func(b []byte) []byte { return append(b, 0) }, "need"},
		{"huge count", func(b []byte) []byte { le.PutUint32(b[24:], math.MaxUint32); return b }, "need"},
		{"cell size", func(b []byte) []byte { le.PutUint32(b[76:], math.Float32bits(0)); return b }, "cell size 0"},
		{"climb", func(b []byte) []byte { le.PutUint32(b[72:], math.Float32bits(float32(math.Inf(1)))); return b }, "walkable climb"},
		{"vertex nan", func(b []byte) []byte { le.PutUint32(b[TileHeaderSize+4:], 0x7fc00000); return b }, "vertex 0"},
		{"vertex index", func(b []byte) []byte { le.PutUint16(b[polyOff+2:], 6); return b }, "beyond the 6 vertices"},
		{"vert count", func(b []byte) []byte { b[polyOff+rec-1] = 2; return b }, "vertex count 2"},
		{"slot after end", func(b []byte) []byte { le.PutUint16(b[polyOff+8:], 0); return b }, "after its 4 vertices"},
		{"area", func(b []byte) []byte { b[polyOff+rec-2] = 64; return b }, "area 64"},
		{"portal dir", func(b []byte) []byte { le.PutUint16(b[polyOff+12:], ExtLink|1); return b }, "direction 1"},
		{"neighbour range", func(b []byte) []byte { le.PutUint16(b[polyOff+12+4:], 2); return b }, "beyond the 2 polygons"},
		{"self neighbour", func(b []byte) []byte { le.PutUint16(b[polyOff+12+4:], 0); return b }, "itself"},
		{"one-sided", func(b []byte) []byte { le.PutUint16(b[polyOff+rec+12:], NullIndex); return b }, "back"},
		{"portal off border", func(b []byte) []byte { le.PutUint16(b[polyOff+12+2:], ExtLink|DirNegX); return b }, "does not run along"},
		{"detail base", func(b []byte) []byte { le.PutUint32(b[dmOff+12:], 0); return b }, "running sums"},
		{"detail count", func(b []byte) []byte { le.PutUint16(b[dmOff+12+8:], 2); return b }, "beyond the 2 detail vertices"},
		{"detail tri", func(b []byte) []byte { b[dtOff+2] = 5; return b }, "corner 2 = 5"},
		{"detail flags", func(b []byte) []byte { b[dtOff+3] = 0x40; return b }, "flags 0x40"},
		{"detail vertex", func(b []byte) []byte { le.PutUint32(b[dvOff:], 0x7f800000); return b }, "detail vertex 0"},
		{"origin", func(b []byte) []byte { le.PutUint32(b[36:], math.Float32bits(-1)); return b }, "vertical origin"},
		{"bounds", func(b []byte) []byte { le.PutUint32(b[52:], math.Float32bits(100)); return b }, "bounds"},
		{"bv leaf", func(b []byte) []byte { le.PutUint32(b[bvOff+16+12:], 5); return b }, "beyond the 2 polygons"},
		{"bv dup", func(b []byte) []byte { le.PutUint32(b[bvOff+32+12:], le.Uint32(b[bvOff+16+12:])); return b }, "second time"},
		{"bv escape", func(b []byte) []byte { le.PutUint32(b[bvOff+12:], uint32(0xffffffff)); return b }, "escape"},
		{"bv box", func(b []byte) []byte { b[bvOff+16+6]++; return b }, "quantized box"},
		{"bv union", func(b []byte) []byte { b[bvOff]++; return b }, "union"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := tc.edit(append([]byte(nil), base...))
			_, err := DecodeTile(data)
			if err == nil || !errors.Is(err, ErrCorruptTile) || !strings.Contains(err.Error(), tc.substr) {
				t.Errorf("error %v, want ErrCorruptTile containing %q", err, tc.substr)
			}
		})
	}
}

// Every single-byte change and every truncation of a tile either decodes to
// a tile that encodes back to the same bytes or is rejected; none panics.
func TestDecodeTileMutations(t *testing.T) {
	m := twoColumns(1, 1, 4)
	base := mustBuild(t, m, centreDetail(m, 0.3), params(1, 1, 0))
	for i := range base {
		for _, x := range []byte{1, 0x80, 0xff} {
			data := append([]byte(nil), base...)
			data[i] ^= x
			checkDecodeConsistent(t, data)
		}
	}
	for n := 0; n < len(base); n++ {
		if _, err := DecodeTile(base[:n]); err == nil {
			t.Fatalf("truncated to %d bytes: accepted", n)
		}
	}
}

func checkDecodeConsistent(t testing.TB, data []byte) {
	t.Helper()
	tile, err := DecodeTile(data)
	if err != nil {
		if !errors.Is(err, ErrCorruptTile) {
			t.Fatalf("error %v does not wrap ErrCorruptTile", err)
		}
		return
	}
	again, err := tile.MarshalBinary()
	if err != nil {
		t.Fatalf("decoded tile does not encode: %v", err)
	}
	if !bytes.Equal(again, data) {
		t.Fatalf("decoded tile encodes to different bytes")
	}
}

func TestTileMarshalRejectsInvalid(t *testing.T) {
	tile, err := DecodeTile(mustBuild(t, twoColumns(0, 0, 1), nil, params(0, 0, 0)))
	if err != nil {
		t.Fatal(err)
	}
	tile.Polys[0].Verts[5] = 0
	if _, err := tile.MarshalBinary(); err == nil {
		t.Errorf("slot beyond NVP accepted")
	}
	tile.Polys[0].Verts[5] = NullIndex
	tile.Verts[0] = geom.Vec3{X: 1e6}
	if _, err := tile.MarshalBinary(); err == nil {
		t.Errorf("vertex outside the bounds accepted")
	}
	var nilTile *Tile
	if _, err := nilTile.MarshalBinary(); err == nil {
		t.Errorf("nil tile accepted")
	}
}

// A polygon that names a vertex twice (what Recast's welding can give) is a
// valid tile and stitches like any other.
func TestRepeatedVertexPolygon(t *testing.T) {
	verts := [][3]uint16{{0, 5, 0}, {0, 5, 10}, {10, 5, 10}, {10, 5, 0}}
	pm := handMesh(1, 0, verts, [][2][]uint16{{{0, 1, 1, 2, 3}, {pNegX, pNegX, pPosZ, pPosX, pNegZ}}}, nil)
	data := mustBuild(t, pm, nil, params(1, 0, 0))
	m := NewMesh()
	mustAdd(t, m, data)
	mustAdd(t, m, mustBuild(t, twoColumns(0, 0, 5), nil, params(0, 0, 0)))
	if n := checkReciprocal(t, m); n != 2 {
		t.Errorf("%d external links, want 2", n)
	}
}

// TestBuildTilePassesCheck: every tile BuildTile makes passes every check
// DecodeTile makes (Tile.check, of which BuildTile runs only those that
// depend on the mesh's values; the others hold by construction) and equals
// the tile DecodeTile gives for its data. The meshes are polymesh.Build's
// of random contour sets (self-crossing, repeated and collinear vertices,
// border vertices, several regions and areas, origins near and far), with
// and without a detail mesh.
func TestBuildTilePassesCheck(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 21))
	tiles, unproven := 0, 0
	for it := range 3000 {
		w := 8 + r.IntN(40)
		border := r.IntN(4)
		set := &contour.Set{
			OriginX: float32(r.IntN(3) * 4000), OriginY: float32(r.IntN(50)), OriginZ: -float32(r.IntN(3) * 3000),
			CellSizeM: 0.3, CellHeightM: 0.2, Width: w, Height: w, Border: border, MaxErrorCells: 1.3,
		}
		for range 1 + r.IntN(4) {
			c := contour.Contour{Region: uint16(1 + r.IntN(3)), Area: uint8(r.IntN(64))}
			for k := range r.IntN(14) {
				v := contour.Vertex{X: int32(border + r.IntN(w-2*border+1)), Y: int32(r.IntN(6)), Z: int32(border + r.IntN(w-2*border+1))}
				if r.IntN(5) == 0 {
					v.Flags = contour.BorderVertex
				}
				if k > 0 && r.IntN(8) == 0 {
					v = c.Verts[r.IntN(k)]
				}
				c.Verts = append(c.Verts, v)
			}
			set.Contours = append(set.Contours, c)
		}
		m, err := polymesh.Build(set, polymesh.MinVertsPerPoly+r.IntN(polymesh.MaxVertsPerPoly-polymesh.MinVertsPerPoly+1))
		if err != nil {
			t.Fatalf("iteration %d: %v", it, err)
		}
		if m.PolyCount() == 0 {
			continue
		}
		fan, err := polymesh.BuildDetail(m, nil, nil, 0, 0)
		if err != nil {
			t.Fatalf("iteration %d: detail: %v", it, err)
		}
		for _, d := range []*polymesh.Detail{nil, fan} {
			b, err := BuildTile(m, d, params(int32(r.IntN(9)-4), int32(r.IntN(9)-4), uint8(r.IntN(3))))
			if err != nil {
				t.Fatalf("iteration %d: %v", it, err)
			}
			if err := b.t.check(); err != nil {
				t.Fatalf("iteration %d: the built tile fails a check: %v", it, err)
			}
			dec, err := DecodeTile(b.Data())
			if err != nil {
				t.Fatalf("iteration %d: %v", it, err)
			}
			if !reflect.DeepEqual(dec, b.t) {
				t.Fatalf("iteration %d: the decoded tile differs from the built one", it)
			}
			if !b.mem.proof.proven() {
				unproven++
			}
			var ps [4][]portalEdge
			portalEdges(&ps, dec)
			for k := range ps {
				if !slices.Equal(ps[k], b.mem.portals[k]) {
					t.Fatalf("iteration %d: the built tile's portal edges differ from the decoded tile's", it)
				}
			}
			tiles++
		}
	}
	t.Logf("%d tiles, %d of them checked by checkNeighbours after the neighbour proof failed", tiles, unproven)
}

// bvTreeSorted is the BV tree of boxes as docs/format.md §2.6 states it:
// each node sorts its polygons by (bmin[axis], index). bvScratch.sub only
// partitions them; this is the plain form it must equal.
func bvTreeSorted(boxes []bvItem, order []int32, nodes []BVNode) []BVNode {
	at := len(nodes)
	nodes = append(nodes, BVNode{})
	if len(order) == 1 {
		b := boxes[order[0]]
		nodes[at] = BVNode{BMin: b.bmin, BMax: b.bmax, I: order[0]}
		return nodes
	}
	n := BVNode{BMin: [3]uint16{0xffff, 0xffff, 0xffff}}
	for _, p := range order {
		for k := range 3 {
			n.BMin[k] = min(n.BMin[k], boxes[p].bmin[k])
			n.BMax[k] = max(n.BMax[k], boxes[p].bmax[k])
		}
	}
	axis := 0
	for k := 1; k < 3; k++ {
		if n.BMax[k]-n.BMin[k] > n.BMax[axis]-n.BMin[axis] {
			axis = k
		}
	}
	order = slices.Clone(order)
	slices.SortFunc(order, func(a, b int32) int {
		return cmp.Or(cmp.Compare(boxes[a].bmin[axis], boxes[b].bmin[axis]), cmp.Compare(a, b))
	})
	mid := len(order) / 2
	nodes = bvTreeSorted(boxes, order[:mid], nodes)
	nodes = bvTreeSorted(boxes, order[mid:], nodes)
	n.I = -int32(len(nodes) - at)
	nodes[at] = n
	return nodes
}

// TestBVTreeSplitMatchesSort: the BV tree bvScratch builds by partitioning
// equals the one sorting every node gives, on random boxes with many equal
// minima (ties broken by index) and sizes around selectLow's cut-over.
func TestBVTreeSplitMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 11))
	var bv bvScratch
	for it := range 2000 {
		n := 1 + r.IntN(40)
		if it%10 == 0 {
			n = 1 + r.IntN(600)
		}
		spread := 1 + r.IntN(30)
		boxes := make([]bvItem, n)
		order := make([]int32, n)
		for i := range boxes {
			for k := range 3 {
				lo := uint16(r.IntN(spread))
				boxes[i].bmin[k], boxes[i].bmax[k] = lo, lo+uint16(r.IntN(4))
			}
			order[i] = int32(i)
		}
		want := bvTreeSorted(boxes, order, nil)
		bv.boxes, bv.order = boxes, slices.Clone(order)
		if got := bv.sub(nil, 0, n); !slices.Equal(got, want) {
			t.Fatalf("iteration %d (%d boxes): tree differs from the sorted one", it, n)
		}
	}
}

// TestSelectLow: selectLow leaves the k smallest keys in front.
func TestSelectLow(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	for it := range 3000 {
		n := 1 + r.IntN(100)
		keys := make([]uint64, n)
		for i := range keys {
			keys[i] = uint64(r.IntN(20))<<32 | uint64(i)
		}
		r.Shuffle(n, func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		k := r.IntN(n + 1)
		got := slices.Clone(keys)
		selectLow(got, k)
		slices.Sort(keys)
		slices.Sort(got[:k])
		slices.Sort(got[k:])
		if !slices.Equal(got, keys) {
			t.Fatalf("iteration %d: n=%d k=%d: %v", it, n, k, got)
		}
	}
}

// checkNeighboursPlain is checkNeighbours as docs/format.md §2.7 rules 5
// and 6 state it, every edge searched: the plain form the marking one
// must equal.
func checkNeighboursPlain(t *Tile) error {
	off := t.headerSize() + vertSize*len(t.Verts)
	nvp := int(t.Header.NVP)
	for i := range t.Polys {
		p := &t.Polys[i]
		nv := int(p.VertCount)
		for j := range nv {
			nOff := off + i*polyRecordSize(nvp) + 2*nvp + 2*j
			n := p.Neis[j]
			a, b := p.Verts[j], p.Verts[(j+1)%nv]
			switch {
			case n == NullIndex:
			case n&ExtLink != 0:
				va, vb := t.Verts[a], t.Verts[b]
				d := n &^ ExtLink
				if (d == DirPosX || d == DirNegX) && math.Float32bits(va.X) != math.Float32bits(vb.X) ||
					(d == DirPosZ || d == DirNegZ) && math.Float32bits(va.Z) != math.Float32bits(vb.Z) {
					return corrupt(nOff, "polygon %d portal edge %d (direction %d) from %v to %v does not run along its border", i, j, d, va, vb)
				}
			default:
				q := &t.Polys[n]
				qn := int(q.VertCount)
				found := false
				for k := range qn {
					found = found || q.Neis[k] == uint16(i) && q.Verts[k] == b && q.Verts[(k+1)%qn] == a
				}
				if !found {
					return corrupt(nOff, "polygon %d edge %d (vertices %d-%d) names polygon %d, which has no edge %d-%d naming %d back", i, j, a, b, n, b, a, i)
				}
			}
		}
	}
	return nil
}

// TestCheckNeighboursMatchesPlain: checkNeighbours, which searches each
// neighbour pair once, gives the plain check's result (the same error or
// none) on polymesh tiles whose neighbour entries and vertices are
// randomly changed (entries naming other polygons, repeated vertices,
// duplicate edges).
func TestCheckNeighboursMatchesPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 17))
	bases := []*Tile{}
	for _, m := range []*polymesh.Mesh{gridMesh(4, true), nineQuads(0, 0, 3), twoColumns(0, 0, 1), twoRows(0, 0, 2)} {
		b, err := BuildTile(m, nil, params(0, 0, 0))
		if err != nil {
			t.Fatal(err)
		}
		bases = append(bases, b.t)
	}
	bad := 0
	for it := range 20000 {
		base := bases[it%len(bases)]
		tl := *base
		tl.Polys = slices.Clone(base.Polys)
		for range r.IntN(4) {
			p := &tl.Polys[r.IntN(len(tl.Polys))]
			j := r.IntN(int(p.VertCount))
			switch r.IntN(4) {
			case 0: // another polygon, never the polygon itself
				if n := uint16(r.IntN(len(tl.Polys))); &tl.Polys[n] != p {
					p.Neis[j] = n
				}
			case 1:
				p.Neis[j] = NullIndex
			case 2:
				p.Neis[j] = ExtLink | uint16(2*r.IntN(4))
			case 3: // a vertex of a neighbour or repeated
				p.Verts[j] = p.Verts[r.IntN(int(p.VertCount))]
			}
		}
		got, want := tl.checkNeighbours(), checkNeighboursPlain(&tl)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("iteration %d: checkNeighbours: %v\nplain: %v", it, got, want)
		}
		if want != nil {
			bad++
		}
	}
	t.Logf("%d of 20000 rejected", bad)
}

// TestPolyBoxMatchesMinMax: polyBox, which bounds a polygon by plain
// comparisons, gives the box that Vec3.Min and Max (NaN- and
// signed-zero-aware) give, quantized, on random polygons whose
// coordinates repeat and include -0 and +0 around a zero base.
func TestPolyBoxMatchesMinMax(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 5))
	values := []float32{float32(math.Copysign(0, -1)), 0, 0.1, -0.1, 0.3, 1.7, -2.2, 5}
	for it := range 5000 {
		tl := &Tile{Header: Header{CellSizeM: 0.3}}
		if it%2 == 1 {
			tl.Header.BMin = geom.Vec3{X: -2.5, Y: -1, Z: -3}
		}
		pick := func() geom.Vec3 {
			return geom.Vec3{X: values[r.IntN(len(values))], Y: values[r.IntN(len(values))], Z: values[r.IntN(len(values))]}
		}
		for range 8 {
			tl.Verts = append(tl.Verts, pick())
		}
		p := Poly{VertCount: uint8(3 + r.IntN(4))}
		for j := range int(p.VertCount) {
			p.Verts[j] = uint16(r.IntN(len(tl.Verts)))
		}
		tl.Polys = []Poly{p}
		d := DetailMesh{VertCount: uint16(r.IntN(3))}
		for range int(d.VertCount) {
			tl.DetailVerts = append(tl.DetailVerts, pick())
		}
		tl.DetailMeshes = []DetailMesh{d}
		lo := tl.Verts[p.Verts[0]]
		hi := lo
		for j := 1; j < int(p.VertCount); j++ {
			lo, hi = lo.Min(tl.Verts[p.Verts[j]]), hi.Max(tl.Verts[p.Verts[j]])
		}
		for _, v := range tl.DetailVerts {
			lo, hi = lo.Min(v), hi.Max(v)
		}
		h := &tl.Header
		want := [2][3]uint16{
			{quantize(lo.X, h.BMin.X, h.CellSizeM, false), quantize(lo.Y, h.BMin.Y, h.CellSizeM, false), quantize(lo.Z, h.BMin.Z, h.CellSizeM, false)},
			{quantize(hi.X, h.BMin.X, h.CellSizeM, true), quantize(hi.Y, h.BMin.Y, h.CellSizeM, true), quantize(hi.Z, h.BMin.Z, h.CellSizeM, true)},
		}
		if bmin, bmax := tl.polyBox(0); bmin != want[0] || bmax != want[1] {
			t.Fatalf("iteration %d: polyBox %v %v, want %v", it, bmin, bmax, want)
		}
	}
}

// TestFinite32: the exponent-bits test equals !IsNaN && !IsInf.
func TestFinite32(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 4))
	vals := []float32{0, float32(math.Copysign(0, -1)), 1, -1, math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), math.Float32frombits(0x7fc00001), math.Float32frombits(0xff800001)}
	for range 10000 {
		vals = append(vals, math.Float32frombits(r.Uint32()))
	}
	for _, v := range vals {
		want := !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0)
		if finite32(v) != want {
			t.Fatalf("finite32(%v) (bits %#x) = %v", v, math.Float32bits(v), !want)
		}
		if vec := (geom.Vec3{X: 1, Y: v, Z: 2}); finiteVec(vec) != vec.Finite() {
			t.Fatalf("finiteVec(%v) differs from Vec3.Finite", vec)
		}
	}
}

// TestBuildTileNeighbourProof: BuildTile, which proves the neighbour
// entries as it fills the polygons (neighbourProof) and runs
// checkNeighbours only when the proof fails, accepts and rejects exactly
// as filling the tile and then running the plain check does, error for
// error, on hand-made meshes whose polygons' vertex and neighbour slots
// are randomly changed.
func TestBuildTileNeighbourProof(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 23))
	var accepted, fallbacks int
	for it := range 20000 {
		var m *polymesh.Mesh
		switch it % 4 {
		case 0:
			m = gridMesh(4, true)
			// Portals on the grid's outer edges, as a tile's border.
			for i := range m.PolyCount() {
				for j, n := range m.Neighbours(i)[:4] {
					if n == polymesh.NullIndex {
						m.Neighbours(i)[j] = polymesh.PortalFlag | uint16((j+3)%4)
					}
				}
			}
		case 1:
			m = nineQuads(0, 0, 3)
		case 2:
			m = twoColumns(0, 0, 1)
		default:
			m = twoRows(0, 0, 2)
		}
		for range r.IntN(4) {
			i := r.IntN(m.PolyCount())
			verts, neis := m.Poly(i), m.Neighbours(i)
			nv := m.PolyVertCount(i)
			j := r.IntN(nv)
			switch r.IntN(5) {
			case 0:
				neis[j] = uint16(r.IntN(m.PolyCount()))
			case 1:
				neis[j] = polymesh.NullIndex
			case 2:
				neis[j] = polymesh.PortalFlag | uint16(r.IntN(4))
			case 3:
				verts[j] = verts[r.IntN(nv)]
			case 4: // copy a neighbour pair onto another edge: duplicate edges
				k := r.IntN(nv)
				verts[j], neis[j] = verts[k], neis[k]
				if j+1 < nv && k+1 < nv {
					verts[j+1] = verts[k+1]
				}
			}
		}
		if it == 0 {
			// Polygon 0 holds edge 0-1, naming polygon 1, twice; polygon
			// 1's edge 1-0 proves only the first, but the tile is valid:
			// the proof fails and checkNeighbours accepts.
			m = handMesh(0, 0, [][3]uint16{{0, 0, 0}, {4, 0, 0}, {4, 0, 4}, {0, 0, 4}, {2, 0, 9}}, [][2][]uint16{
				{{0, 1, 2, 0, 1, 3}, {1, null, null, 1, null, null}},
				{{1, 0, 4}, {0, null, null}},
			}, nil)
		}
		if it == 1 {
			// Polygon 1 holds edge 1-0, naming polygon 0, twice; both
			// find polygon 0's edge 0-1, which must count once: polygon
			// 0's edge 1-2 has no reverse.
			m = handMesh(0, 0, [][3]uint16{{0, 0, 0}, {4, 0, 0}, {4, 0, 4}, {0, 0, 4}, {2, 0, 9}, {1, 0, 7}}, [][2][]uint16{
				{{0, 1, 2}, {1, 1, null}},
				{{1, 0, 5, 1, 0, 4}, {0, null, null, 0, null, null}},
			}, nil)
		}
		_, got := BuildTile(m, nil, params(0, 0, 0))
		var mem tileMem
		want := buildTile(m, nil, params(0, 0, 0), &mem)
		if want == nil {
			if err := checkNeighboursPlain(&mem.tile); err != nil {
				want = fmt.Errorf("navmesh: BuildTileData: the mesh gives an invalid tile: %w", err)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("iteration %d: BuildTile: %v\nfilled and checked: %v", it, got, want)
		}
		if want == nil {
			accepted++
			if !mem.proof.proven() {
				fallbacks++
			}
		}
	}
	if fallbacks == 0 {
		t.Errorf("no tile was accepted by checkNeighbours after the proof failed")
	}
	t.Logf("%d of 20000 accepted, %d of them by checkNeighbours after the proof failed", accepted, fallbacks)
}
