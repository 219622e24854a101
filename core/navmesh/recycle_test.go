package navmesh

import (
	"reflect"
	"testing"
)

// TestBuiltTileRecycle checks the ownership rule of BuiltTile.Recycle: a
// tile a mesh holds (directly, through WithOffMesh or a Clone) is never
// recycled, a wrapper from Mesh.Built or a second call is refused, and a
// tile built in recycled memory equals one built fresh, while a tile the
// mesh still holds keeps its contents.
func TestBuiltTileRecycle(t *testing.T) {
	build := func(tx int32, rows bool, y uint16) *BuiltTile {
		t.Helper()
		m := twoColumns(tx, 0, y)
		if rows {
			m = twoRows(tx, 0, y)
		}
		b, err := BuildTile(m, nil, params(tx, 0, 0))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	fresh := func(tx int32, rows bool, y uint16) []byte {
		t.Helper()
		m := twoColumns(tx, 0, y)
		if rows {
			m = twoRows(tx, 0, y)
		}
		return mustBuild(t, m, nil, params(tx, 0, 0))
	}
	var nilTile *BuiltTile
	if nilTile.Recycle() {
		t.Errorf("nil tile recycled")
	}
	a := build(0, false, 10)
	nm := NewMesh()
	if _, err := nm.AddBuilt(a); err != nil {
		t.Fatal(err)
	}
	held, err := nm.Tile(nm.Tiles()[0])
	if err != nil {
		t.Fatal(err)
	}
	if a.Recycle() {
		t.Fatalf("a tile the mesh holds was recycled")
	}
	w, err := nm.Built(nm.Tiles()[0])
	if err != nil {
		t.Fatal(err)
	}
	// Replace it by a tile with an off-mesh link made from it: the mesh
	// then holds a tile sharing a's arrays.
	link := OffMeshLink{StartM: held.Verts[held.Polys[0].Verts[0]], EndM: held.Verts[held.Polys[1].Verts[2]], RadiusM: 0.2, Flags: 1}
	link.StartM.X += 0.1
	link.StartM.Z += 0.1
	wl, err := a.WithOffMesh([]OffMeshLink{link})
	if err != nil {
		t.Fatal(err)
	}
	if wl == a {
		t.Fatalf("the link changed nothing")
	}
	if _, err := nm.ReplaceBuilt(wl); err != nil {
		t.Fatal(err)
	}
	if a.Recycle() || w.Recycle() || wl.Recycle() {
		t.Fatalf("a tile sharing memory with one the mesh holds was recycled")
	}
	if err := nm.RemoveTile(0, 0, 0); err != nil {
		t.Fatal(err)
	}
	if w.Recycle() || wl.Recycle() {
		t.Errorf("a wrapper was recycled")
	}
	if !a.Recycle() {
		t.Fatalf("a tile nothing holds was not recycled")
	}
	if a.Recycle() {
		t.Fatalf("a tile recycled twice")
	}
	// Several builds after recycling give fresh builds' bytes, and a tile
	// the mesh holds keeps its contents while others are built.
	b := build(1, true, 12)
	if _, err := nm.AddBuilt(b); err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		c := build(0, i%2 == 0, uint16(10+i))
		if string(c.Data()) != string(fresh(0, i%2 == 0, uint16(10+i))) {
			t.Fatalf("build %d in recycled memory differs from a fresh one", i)
		}
		if !c.Recycle() {
			t.Fatalf("build %d not recycled", i)
		}
	}
	got, err := nm.Tile(nm.Tiles()[0])
	if err != nil {
		t.Fatal(err)
	}
	wantB, err := DecodeTile(fresh(1, true, 12))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, wantB) {
		t.Fatalf("the held tile changed while others were built")
	}
	// A clone holds its tiles for good.
	cl := nm.Clone()
	if err := nm.RemoveTile(1, 0, 0); err != nil {
		t.Fatal(err)
	}
	if b.Recycle() {
		t.Fatalf("a tile a clone holds was recycled")
	}
	if got, err := cl.Tile(cl.Tiles()[0]); err != nil || !reflect.DeepEqual(got, wantB) {
		t.Fatalf("the clone's tile: %v", err)
	}
}
