package navmesh

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"navviz/core/geom"
	"navviz/core/polymesh"
)

// withNVP repacks m's polygons into nvp slots (each polygon must fit).
func withNVP(m *polymesh.Mesh, nvp int) *polymesh.Mesh {
	out := *m
	out.NVP = nvp
	out.Polys = nil
	for i := 0; i < m.PolyCount(); i++ {
		out.Polys = append(out.Polys, m.Poly(i)[:nvp]...)
		out.Polys = append(out.Polys, m.Neighbours(i)[:nvp]...)
	}
	return &out
}

// fuzzSeeds returns the seed tiles of FuzzDecodeTile.
func fuzzSeeds(t testing.TB) map[string][]byte {
	cols := twoColumns(0, 0, 10)
	rows := twoRows(1, 0, 12)
	return map[string][]byte{
		"fan":       mustBuild(t, cols, nil, params(0, 0, 0)),
		"detail":    mustBuild(t, rows, centreDetail(rows, 0.25), params(1, 0, 3)),
		"nvp4":      mustBuild(t, withNVP(cols, 4), nil, params(-1, 2, 1)),
		"grid3":     mustBuild(t, gridMesh(3, true), nil, params(0, 1, 0)),
		"header":    mustBuild(t, cols, nil, params(0, 0, 0))[:TileHeaderSize],
		"neighbour": mustBuild(t, twoRows(-1, 0, 10), nil, params(-1, 0, 0)),
		// Off-mesh links (version 2): one both ways into the neighbour
		// at +x, one one way to the neighbour at -x.
		"offmesh": mustBuild(t, cols, nil, withLinks(params(0, 0, 0),
			linkAt(geom.V3(0.7, 2, 1.5), geom.V3(4, 2, 1), true, 1),
			linkAt(geom.V3(2, 2, 1), geom.V3(-1, 2, 0.5), false, 2))),
	}
}

// TestWriteFuzzCorpus writes the seed corpus to testdata/fuzz/FuzzDecodeTile
// when NAVMESH_WRITE_CORPUS=1 (run it after a format change).
func TestWriteFuzzCorpus(t *testing.T) {
	if os.Getenv("NAVMESH_WRITE_CORPUS") != "1" {
		t.Skip("set NAVMESH_WRITE_CORPUS=1 to rewrite the seed corpus")
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzDecodeTile")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range fuzzSeeds(t) {
		body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", data)
		if err := os.WriteFile(filepath.Join(dir, "seed_"+name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// withPosition returns tile data moved to tile position (x, z) (the
// position is not checked against the coordinates).
func withPosition(data []byte, x, z int32) []byte {
	out := append([]byte(nil), data...)
	binary.LittleEndian.PutUint32(out[8:], uint32(x))
	binary.LittleEndian.PutUint32(out[12:], uint32(z))
	return out
}

// FuzzDecodeTile: DecodeTile never panics, rejects with ErrCorruptTile, and
// a tile it accepts encodes back to the same bytes and can be added to a
// mesh next to other tiles, linked, replaced and removed.
func FuzzDecodeTile(f *testing.F) {
	seeds := fuzzSeeds(f)
	for _, name := range []string{"fan", "detail", "nvp4", "grid3", "header", "offmesh"} {
		f.Add(seeds[name])
	}
	neighbour := seeds["neighbour"]
	f.Fuzz(func(t *testing.T, data []byte) {
		tile, err := DecodeTile(data)
		checkDecodeConsistent(t, data)
		if err != nil {
			return
		}
		m := NewMesh()
		h := tile.Header
		for _, dir := range borderDirs {
			if x, z, ok := neighbourPos(h.TileX, h.TileZ, dir); ok {
				mustAdd(t, m, withPosition(neighbour, x, z))
			}
		}
		ref := mustAdd(t, m, data)
		checkReciprocal(t, m)
		for i := 0; i < tile.NodeCount(); i++ {
			if err := m.SetPolyFlags(ref.Poly(uint32(i)), 3); err != nil {
				t.Fatal(err)
			}
		}
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var m2 Mesh
		if err := m2.UnmarshalBinary(b); err != nil {
			t.Fatalf("serialized mesh does not decode: %v", err)
		}
		if _, err := m.ReplaceTile(data); err != nil {
			t.Fatal(err)
		}
		checkReciprocal(t, m)
		if err := m.RemoveTile(h.TileX, h.TileZ, h.Layer); err != nil {
			t.Fatal(err)
		}
		checkReciprocal(t, m)
	})
}

// FuzzUnmarshalMesh: Mesh.UnmarshalBinary and State.UnmarshalBinary never
// panic, and what they accept encodes back to the same bytes.
func FuzzUnmarshalMesh(f *testing.F) {
	seeds := fuzzSeeds(f)
	m := NewMesh()
	mustAdd(f, m, seeds["fan"])
	mustAdd(f, m, seeds["detail"])
	mustAdd(f, m, seeds["neighbour"])
	mustAdd(f, m, withPosition(seeds["offmesh"], 0, 1))
	if err := m.RemoveTile(-1, 0, 0); err != nil {
		f.Fatal(err)
	}
	r, _ := m.TileAt(1, 0, 3)
	if err := m.SetPolyArea(r.Poly(1), 4); err != nil {
		f.Fatal(err)
	}
	mb, _ := m.MarshalBinary()
	sb, _ := m.State().MarshalBinary()
	f.Add(mb)
	f.Add(sb)
	f.Fuzz(func(t *testing.T, data []byte) {
		var m Mesh
		if err := m.UnmarshalBinary(data); err == nil {
			again, err := m.MarshalBinary()
			if err != nil || string(again) != string(data) {
				t.Fatalf("accepted mesh re-encodes differently (%v)", err)
			}
			checkReciprocal(t, &m)
		}
		var st State
		if err := st.UnmarshalBinary(data); err == nil {
			again, err := st.MarshalBinary()
			if err != nil || string(again) != string(data) {
				t.Fatalf("accepted state re-encodes differently (%v)", err)
			}
		}
	})
}
