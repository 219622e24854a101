package world

import (
	"bytes"
	"context"
	"testing"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
	"navviz/tilecache"
)

// TestOffMeshLinkFromEmptyTile (issue 28, item 1): on two 10 m floor
// squares 60 m apart, a World link from (30, 0, 5), in the empty gap, to
// (5, 0, 5) is kept in every agent's cache, unconnected: nothing is
// queued, the update, snapshot and restore work, and moving or removing
// it changes no mesh.
func TestOffMeshLinkFromEmptyTile(t *testing.T) {
	soup := &level.Soup{}
	for _, x0 := range []float32{0, 70} {
		b := int32(len(soup.Verts))
		soup.Verts = append(soup.Verts, geom.V3(x0, 0, 0), geom.V3(x0+10, 0, 0), geom.V3(x0+10, 0, 10), geom.V3(x0, 0, 10))
		soup.Tris = append(soup.Tris, [3]int32{b, b + 2, b + 1}, [3]int32{b, b + 3, b + 2})
		soup.Areas = append(soup.Areas, 1, 1)
	}
	w, err := Build(context.Background(), pipeline.DefaultSettings(), soup, testAgents, tilecache.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	meshes := func() [][]byte {
		var out [][]byte
		for _, a := range testAgents {
			m, _ := w.Mesh(a.Name)
			b, err := m.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, b)
		}
		return out
	}
	before := meshes()
	l := navmesh.OffMeshLink{StartM: geom.V3(30, 0, 5), EndM: geom.V3(5, 0, 5), RadiusM: 0.5, Flags: 1, Bidirectional: true}
	id, err := w.AddOffMeshLink(l)
	if err != nil {
		t.Fatal(err)
	}
	if n := w.QueueLen(); n != 0 {
		t.Fatalf("the link queued %d tiles, want none", n)
	}
	if _, err := w.UpdateAll(); err != nil {
		t.Fatal(err)
	}
	snap, err := w.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if got := w.OffMeshLinks(); len(got) != 1 || got[0].StartM != l.StartM {
		t.Fatalf("links %+v, want the one from the gap", got)
	}
	l.EndM = geom.V3(75, 0, 5)
	if err := w.MoveOffMeshLink(id, l); err != nil {
		t.Fatal(err)
	}
	if err := w.RemoveOffMeshLink(id); err != nil {
		t.Fatal(err)
	}
	if _, err := w.UpdateAll(); err != nil {
		t.Fatal(err)
	}
	for i, b := range meshes() {
		if !bytes.Equal(b, before[i]) {
			t.Errorf("agent %s: the link from the empty tile changed the mesh", testAgents[i].Name)
		}
	}
}
