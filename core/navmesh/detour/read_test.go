package detour

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"navviz/core/navmesh"
)

// swapped returns data (an Encode result) with every value byte-swapped,
// as a big-endian machine would have written it: the MSET header, each
// tile entry and each tile's values by their layout.
func swapped(t *testing.T, data []byte, ref64 bool) []byte {
	t.Helper()
	out := bytes.Clone(data)
	sw := func(o, n int) {
		for i := 0; i < n/2; i++ {
			out[o+i], out[o+n-1-i] = out[o+n-1-i], out[o+i]
		}
	}
	words := func(o, n int) { // n 4-byte values
		for i := range n {
			sw(o+4*i, 4)
		}
	}
	words(0, 10)
	o := setHeaderSize
	for range binary.LittleEndian.Uint32(data[8:]) {
		hdr := tileHdr32Size
		size := int(binary.LittleEndian.Uint32(data[o+4:]))
		if ref64 {
			hdr, size = tileHdr64Size, int(binary.LittleEndian.Uint32(data[o+8:]))
			sw(o, 8)
			sw(o+8, 4)
		} else {
			words(o, 2)
		}
		d := o + hdr
		le := binary.LittleEndian
		h := func(i int) int { return int(le.Uint32(data[d+4*i:])) }
		nv, np, nl, nd, ndv, ndt, nbv, no := h(7), h(6), h(8), h(9), h(10), h(11), h(12), h(13)
		words(d, 25)
		p := d + headerSize
		words(p, 3*nv)
		p += 12 * nv
		for range np {
			sw(p, 4)
			for k := range 13 {
				sw(p+4+2*k, 2)
			}
			p += polySize
		}
		ls := link32Size
		if ref64 {
			ls = link64Size
		}
		p += ls * nl
		for range nd {
			words(p, 2)
			p += detailMeshSize
		}
		words(p, 3*ndv)
		p += 12*ndv + 4*ndt
		for range nbv {
			for k := range 6 {
				sw(p+2*k, 2)
			}
			sw(p+12, 4)
			p += bvNodeSize
		}
		for range no {
			words(p, 7)
			sw(p+28, 2)
			sw(p+32, 4)
			p += offMeshSize
		}
		o += hdr + size
	}
	return out
}

// sameTiles checks that the tiles of b are those of a (the Detour round
// trip keeps everything but the cell height, which Detour does not store:
// b's is its cell size).
func sameTiles(t *testing.T, a, b *navmesh.Mesh) {
	t.Helper()
	ra, rb := a.Tiles(), b.Tiles()
	if len(ra) != len(rb) {
		t.Fatalf("%d tiles, want %d", len(rb), len(ra))
	}
	for i := range ra {
		ta, _ := a.Tile(ra[i])
		tb, _ := b.Tile(rb[i])
		c := *ta
		c.Header.CellHeightM = c.Header.CellSizeM
		for k := range c.Polys { // run-time flags and areas are written into the polygons
			c.Polys[k].Flags, _ = a.PolyFlags(ra[i].Poly(uint32(k)))
			c.Polys[k].Area, _ = a.PolyArea(ra[i].Poly(uint32(k)))
		}
		da, err := c.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		db, _ := b.TileData(rb[i])
		if !bytes.Equal(da, db) {
			t.Errorf("tile %d differs after the round trip:\n got %+v\nwant %+v", i, tb, &c)
		}
	}
}

// TestRoundTrip: Decode of Encode gives the same tiles, in either byte
// order and with either reference width; the file's facts are reported.
func TestRoundTrip(t *testing.T) {
	for _, ref64 := range []bool{false, true} {
		for _, big := range []bool{false, true} {
			m := handMesh(t, 3)
			data, err := Encode(m, handOptions(ref64))
			if err != nil {
				t.Fatal(err)
			}
			if big {
				data = swapped(t, data, ref64)
			}
			f, err := Decode(data)
			if err != nil {
				t.Fatalf("ref64 %v big %v: %v", ref64, big, err)
			}
			if f.Kind != KindSet || f.PolyRef64 != ref64 || f.BigEndian != big || len(f.Headers) != 3 ||
				f.Params.TileWidthM != 6 || f.Params.MaxTiles != 4 || f.Headers[1].X != 1 || f.Headers[0].OffMeshConCount != 1 {
				t.Errorf("ref64 %v big %v: file %+v", ref64, big, f)
			}
			sameTiles(t, m, f.Mesh)
			if _, _, err := f.Mesh.CheckLinks(); err != nil {
				t.Error(err)
			}
		}
	}
}

// TestWrappers: a bare DNAV tile (either link size) and a TrinityCore
// .mmtile are read as one-tile meshes.
func TestWrappers(t *testing.T) {
	m := handMesh(t, 2)
	for _, ref64 := range []bool{false, true} {
		data, err := Encode(m, handOptions(ref64))
		if err != nil {
			t.Fatal(err)
		}
		hdr := tileHdr32Size
		if ref64 {
			hdr = tileHdr64Size
		}
		tile := data[setHeaderSize+hdr:]
		tile = tile[:tileSize(tile, ref64)]
		f, err := Decode(tile)
		if err != nil {
			t.Fatal(err)
		}
		if f.Kind != KindTile || f.PolyRef64 != ref64 || f.Mesh.TileCount() != 1 {
			t.Errorf("bare tile (ref64 %v): %+v", ref64, f)
		}
		mm := binary.LittleEndian.AppendUint32(nil, mmapMagic)
		mm = binary.LittleEndian.AppendUint32(mm, tileVersion)
		mm = binary.LittleEndian.AppendUint32(mm, 16)
		mm = binary.LittleEndian.AppendUint32(mm, uint32(len(tile)))
		mm = append(mm, 1, 0, 0, 0)
		f, err = Decode(append(mm, tile...))
		if err != nil {
			t.Fatal(err)
		}
		if f.Kind != KindMMTile || f.MMapVersion != 16 || !f.UsesLiquids || f.Mesh.TileCount() != 1 {
			t.Errorf("mmtile (ref64 %v): %+v", ref64, f)
		}
	}
}

// tileSize returns the size of the DNAV tile at the start of d.
func tileSize(d []byte, ref64 bool) int {
	le := binary.LittleEndian
	h := func(i int) int64 { return int64(le.Uint32(d[4*i:])) }
	ls := int64(link32Size)
	if ref64 {
		ls = link64Size
	}
	_, total := counts{verts: h(7), polys: h(6), links: h(8), detailMeshes: h(9), detailVerts: h(10), detailTris: h(11), bvNodes: h(12), offMesh: h(13)}.sizes(ls)
	return int(total)
}

// TestDecodeRefuses: a file that is no Detour navmesh says what it looks
// like; a Detour file navviz cannot take names the value.
func TestDecodeRefuses(t *testing.T) {
	m := handMesh(t, 2)
	good, err := Encode(m, handOptions(false))
	if err != nil {
		t.Fatal(err)
	}
	patch := func(off int, v uint32) []byte {
		b := bytes.Clone(good)
		binary.LittleEndian.PutUint32(b[off:], v)
		return b
	}
	tile0 := setHeaderSize + tileHdr32Size
	for _, c := range []struct {
		name    string
		data    []byte
		notDT   bool
		wantErr string
	}{
		{"empty", nil, true, "empty"},
		{"OBJ", []byte("# level\nv 0 0 0\nv 1 0 0\n"), true, "Wavefront OBJ"},
		{"navviz mesh", []byte("NVMS\x01\x00\x00\x00"), true, "navviz mesh"},
		{"tile cache set", []byte("TESTxxxxxxxx"), true, "tile-cache set (TSET"},
		{"binary", []byte{1, 2, 3, 0, 5, 6, 7, 8, 9}, true, "01 02 03 00"},
		{"short MSET", good[:20], false, "shorter than its 40-byte header"},
		{"MSET version", patch(4, 2), false, "MSET version 2"},
		{"tile count", patch(8, 1000), false, "MSET tile count 1000"},
		{"DNAV version", patch(tile0+4, 8), false, "DNAV version 8"},
		{"offMeshBase", patch(tile0+56, 1), false, "offMeshBase 1"},
		{"layer", patch(tile0+16, 300), false, "layer 300"},
		{"truncated", good[:len(good)-10], false, "data size"},
		{"portal dir", patch(tile0+100+8*12+16, 0x8001), false, "direction 1"},
		{"vertex index", patch(tile0+100+8*12+4, 7), false, "vertex"},
	} {
		_, err := Decode(c.data)
		if err == nil || !strings.Contains(err.Error(), c.wantErr) || errors.Is(err, ErrNotDetour) != c.notDT {
			t.Errorf("%s: error %v, want one containing %q (not Detour: %v)", c.name, err, c.wantErr, c.notDT)
		}
	}
}
