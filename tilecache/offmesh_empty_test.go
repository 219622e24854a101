package tilecache

import (
	"bytes"
	"context"
	"testing"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
)

// twoSquares is the level of issue 28: two 10 m floor squares 60 m apart
// (x 0..10 and 70..80, z 0..10, y 0), so that on the default 19.2 m tiles
// the tiles between them have nothing walkable and are never cached.
func twoSquares() *level.Soup {
	s := &level.Soup{}
	for _, x0 := range []float32{0, 70} {
		b := int32(len(s.Verts))
		s.Verts = append(s.Verts, geom.V3(x0, 0, 0), geom.V3(x0+10, 0, 0), geom.V3(x0+10, 0, 10), geom.V3(x0, 0, 10))
		s.Tris = append(s.Tris, [3]int32{b, b + 2, b + 1}, [3]int32{b, b + 3, b + 2})
		s.Areas = append(s.Areas, 1, 1)
	}
	return s
}

// emptyStartLink is the link: from (30, 0, 5), in the empty gap,
// to (5, 0, 5) on the first square.
var emptyStartLink = navmesh.OffMeshLink{StartM: geom.V3(30, 0, 5), EndM: geom.V3(5, 0, 5), RadiusM: 0.5, Flags: 1, Bidirectional: true}

func buildTwoSquares(t *testing.T) *Cache {
	t.Helper()
	s := pipeline.DefaultSettings()
	c, err := BuildSoup(context.Background(), &s, twoSquares(), Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if tx, tz, err := c.grid.TileAt(emptyStartLink.StartM); err != nil || c.IsCached(tx, tz) {
		t.Fatalf("the link's start tile (%d, %d) is cached (%v); the test needs an empty one", tx, tz, err)
	}
	return c
}

// TestOffMeshLinkFromEmptyTile (issue 28, item 1): a link whose start lies
// in a tile the cache never built (nothing walkable) is kept, unconnected:
// adding, moving and removing it queue no tile there, Queue, Snapshot and
// Update work, the snapshot keeps the link and restores it, and the mesh
// stays the plain build's with the same link (which no tile holds).
func TestOffMeshLinkFromEmptyTile(t *testing.T) {
	c := buildTwoSquares(t)
	plain := meshBytes(t, c.Mesh())
	id, err := c.AddOffMeshLink(emptyStartLink)
	if err != nil {
		t.Fatal(err)
	}
	if q := c.Queue(); len(q) != 0 {
		t.Fatalf("AddOffMeshLink from an empty tile queued %v, want nothing", q)
	}
	snap, err := c.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateAll(); err != nil {
		t.Fatal(err)
	}
	if got := c.OffMeshLinks(); len(got) != 1 || got[0].UserID != uint32(id) {
		t.Fatalf("links %+v, want the one added (id %d)", got, id)
	}
	if c.Mesh().OffMeshCount() != 0 || !bytes.Equal(meshBytes(t, c.Mesh()), plain) {
		t.Fatal("a link from an empty tile changed the mesh")
	}
	s := c.Settings()
	b, err := pipeline.BuildLevel(context.Background(), &s, c.Source(), pipeline.BuildOptions{OffMeshLinks: c.OffMeshLinks()})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(meshBytes(t, b.Mesh), plain) {
		t.Fatal("the plain build with the link differs from the cache's mesh")
	}
	// Moving it from the empty tile onto the first square queues that
	// square's tile only, and links it; moving it back unlinks it.
	onFloor := emptyStartLink
	onFloor.StartM, onFloor.EndM = geom.V3(5, 0, 5), geom.V3(30, 0, 5)
	for _, step := range []struct {
		l     navmesh.OffMeshLink
		nodes int
	}{{onFloor, 1}, {emptyStartLink, 0}} {
		if err := c.MoveOffMeshLink(id, step.l); err != nil {
			t.Fatal(err)
		}
		if q := c.Queue(); len(q) != 1 || q[0] != [2]int{0, 0} {
			t.Fatalf("MoveOffMeshLink queued %v, want [[0 0]]", q)
		}
		if _, err := c.UpdateAll(); err != nil {
			t.Fatal(err)
		}
		if n := c.Mesh().OffMeshCount(); n != step.nodes {
			t.Fatalf("after the move the mesh has %d off-mesh links, want %d", n, step.nodes)
		}
	}
	// A snapshot holding the link restores into a fresh cache; removing
	// the link there queues nothing.
	d := buildTwoSquares(t)
	if err := d.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if got := d.OffMeshLinks(); len(got) != 1 || got[0].StartM != emptyStartLink.StartM {
		t.Fatalf("restored links %+v, want the link from the empty tile", got)
	}
	if err := d.RemoveOffMeshLink(id); err != nil {
		t.Fatal(err)
	}
	if q := d.Queue(); len(q) != 0 {
		t.Fatalf("RemoveOffMeshLink of a link from an empty tile queued %v, want nothing", q)
	}
	if _, err := d.Snapshot(); err != nil {
		t.Fatal(err)
	}
	if _, err := d.UpdateAll(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(meshBytes(t, d.Mesh()), plain) {
		t.Fatal("the restored cache's mesh differs from the plain build")
	}
}

// TestOffMeshLinkFromEveryEmptyTile adds, on dungeon (half of whose tiles
// have nothing walkable), a link from the centre of every tile that is not
// cached to a walkable point, then snapshots, restores and updates: no
// tile is queued for those starts and the mesh equals the plain build's
// with the same links.
func TestOffMeshLinkFromEveryEmptyTile(t *testing.T) {
	f := getFixture(t, config{level: "dungeon"})
	c := f.reset(t)
	defer f.reset(t)
	to := walkablePoints(t, c.Mesh())[0]
	g := c.Grid()
	empty := 0
	for tz := range g.TilesZ {
		for tx := range g.TilesX {
			if c.IsCached(tx, tz) {
				continue
			}
			empty++
			box, err := g.TileBoxM(tx, tz)
			if err != nil {
				t.Fatal(err)
			}
			from := geom.V3((box.Min.X+box.Max.X)/2, to.Y, (box.Min.Z+box.Max.Z)/2)
			if _, err := c.AddOffMeshLink(navmesh.OffMeshLink{StartM: from, EndM: to, RadiusM: 0.5, Flags: 1}); err != nil {
				t.Fatalf("tile (%d, %d): %v", tx, tz, err)
			}
		}
	}
	if empty == 0 {
		t.Fatal("dungeon has no empty tile")
	}
	if n := c.QueueLen(); n != 0 {
		t.Fatalf("%d links from empty tiles queued %d tiles, want none", empty, n)
	}
	snap := snapBytes(t, c)
	if err := c.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateAll(); err != nil {
		t.Fatal(err)
	}
	if err := sameTiles(meshTiles(t, c.Mesh()), plainWith(t, f, c.OffMeshLinks(), nil)); err != nil {
		t.Fatal(err)
	}
}
