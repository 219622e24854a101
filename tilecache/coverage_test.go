package tilecache

import (
	"bytes"
	"context"
	"testing"

	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
	"navviz/core/voxel"
)

// swapOf returns the swap of layer l in sw, and whether there is one.
func swapOf(sw []Swap, l uint8) (Swap, bool) {
	for _, s := range sw {
		if s.Layer == l {
			return s, true
		}
	}
	return Swap{}, false
}

// updateOf returns the update of tile (tx, tz) in r.
func updateOf(t *testing.T, r UpdateResult, tx, tz int) TileUpdate {
	t.Helper()
	for _, u := range r.Tiles {
		if u.TX == tx && u.TZ == tz {
			return u
		}
	}
	t.Fatalf("tile (%d, %d) not rebuilt: %+v", tx, tz, r.Tiles)
	return TileUpdate{}
}

// ascending checks that the swaps of every tile are lowest first, each
// layer once.
func ascending(t *testing.T, r UpdateResult) {
	t.Helper()
	for _, u := range r.Tiles {
		for i := 1; i < len(u.Swaps); i++ {
			if u.Swaps[i].Layer <= u.Swaps[i-1].Layer {
				t.Errorf("tile (%d, %d): swaps not lowest first: %+v", u.TX, u.TZ, u.Swaps)
			}
		}
	}
}

// TestSwapAddedRemoved (docs/tilecache.md §8; the spec's "Swapping"): an
// obstacle that covers a whole height layer of a multi-layer tile removes
// that layer (SwapRemoved: the old reference, no new one, the old content
// id; the slot empties and references into it go stale) and keeps the
// others; removing the obstacle adds it back (SwapAdded: no old reference,
// the same slot, the generation the removal gave it, the first build's
// content id) without building. Swaps are listed lowest layer first.
func TestSwapAddedRemoved(t *testing.T) {
	k := config{"city", pipeline.Layers, true}
	f := getFixture(t, k)
	c := f.reset(t)
	m := c.Mesh()
	ch := float32(k.settings().CellHeightM)
	tried := 0
	for _, ref := range m.Tiles() {
		tl, err := m.Tile(ref)
		if err != nil {
			t.Fatal(err)
		}
		h := tl.Header
		others := m.TilesAt(h.TileX, h.TileZ)
		if len(others) < 2 {
			continue
		}
		// The layer must lie apart in height from every other layer at the
		// position, so that a box over its height range marks its spans only.
		lo, hi := h.BMin.Y-4*ch, h.BMax.Y+4*ch
		apart := true
		for _, o := range others {
			if o == ref {
				continue
			}
			ot, _ := m.Tile(o)
			if ot.Header.BMax.Y+4*ch >= lo && ot.Header.BMin.Y-4*ch <= hi {
				apart = false
			}
		}
		if !apart {
			continue
		}
		tried++
		tx, tz, layer := int(h.TileX), int(h.TileZ), h.Layer
		oldID, err := m.TileContentID(ref)
		if err != nil {
			t.Fatal(err)
		}
		box := voxel.Box(geom.V3(h.BMin.X, lo, h.BMin.Z), geom.V3(h.BMax.X, hi, h.BMax.Z))
		id, err := c.AddObstacle(box)
		if err != nil {
			t.Fatal(err)
		}
		r, err := c.UpdateAll()
		if err != nil {
			t.Fatal(err)
		}
		u := updateOf(t, r, tx, tz)
		rm, ok := swapOf(u.Swaps, layer)
		if !ok || rm.Kind != SwapRemoved {
			// Something of the layer stays walkable (a span outside the
			// box's height range): try another tile.
			c = f.reset(t)
			continue
		}
		t.Logf("tile (%d, %d) layer %d of %d removed by %v", tx, tz, layer, len(others), box)
		ascending(t, r)
		if u.Rebuild != RebuildBuilt || len(u.Swaps) != len(others) {
			t.Errorf("update %+v, want a build with one swap per layer (%d)", u, len(others))
		}
		for _, s := range u.Swaps {
			if s.Layer != layer && s.Kind != SwapKept {
				t.Errorf("layer %d: %v, want kept (the box is apart from it)", s.Layer, s.Kind)
			}
		}
		if rm.OldRef != ref || rm.Ref != 0 || rm.ContentID != oldID {
			t.Errorf("removed swap %+v, want old ref %#x, ref 0, content id %#x", rm, ref, oldID)
		}
		if _, ok := m.TileAt(int32(tx), int32(tz), layer); ok || m.IsValidRef(ref.Poly(0)) {
			t.Errorf("the removed layer is still in the mesh or its reference still valid")
		}

		if err := c.RemoveObstacle(id); err != nil {
			t.Fatal(err)
		}
		r, err = c.UpdateAll()
		if err != nil {
			t.Fatal(err)
		}
		ascending(t, r)
		u = updateOf(t, r, tx, tz)
		add, ok := swapOf(u.Swaps, layer)
		if u.Rebuild != RebuildFirst || u.LayersBuilt != 0 || !ok || add.Kind != SwapAdded {
			t.Fatalf("after removing the box: %+v, want the first build's data with layer %d added", u, layer)
		}
		if add.OldRef != 0 || add.Ref.Slot() != ref.Slot() || add.Ref.Generation() != ref.Generation()+1 || add.ContentID != oldID {
			t.Errorf("added swap %+v: want old ref 0, slot %d, generation %d, content id %#x", add, ref.Slot(), ref.Generation()+1, oldID)
		}
		if got, ok := m.TileAt(int32(tx), int32(tz), layer); !ok || got != add.Ref || m.IsValidRef(ref.Poly(0)) {
			t.Errorf("TileAt gives %#x, %v; want %#x, and the old reference stale", got, ok, add.Ref)
		}
		if err := sameTiles(meshTiles(t, m), plainOf(t, f)); err != nil {
			t.Errorf("after removing the box: %v", err)
		}
		return
	}
	t.Fatalf("no multi-layer tile of %v has a layer a box removes whole (%d tried)", k, tried)
}

// canonicalBytes returns Mesh.MarshalBinary of a new mesh holding m's
// tiles added in (z, x, layer) order, as the plain build adds them: the
// bytes of m's content without the slot history of its swaps.
func canonicalBytes(t *testing.T, m *navmesh.Mesh) []byte {
	t.Helper()
	var fresh navmesh.Mesh
	for _, pt := range meshTiles(t, m) {
		if _, err := fresh.AddTile(pt.data); err != nil {
			t.Fatal(err)
		}
	}
	return meshBytes(t, &fresh)
}

// TestVolumeEveryPartition: on every partition (watershed, monotone,
// layers with detail sampling, layer-first layers) volumes added at run
// time give the mesh a build with the same volumes in NavSettings.Volumes
// gives (Mesh.MarshalBinary bytes, slots renumbered as a build fills
// them), and removing them gives back the original mesh.
func TestVolumeEveryPartition(t *testing.T) {
	for _, p := range partitions {
		k := config{"city", p.p, p.first}
		t.Run(k.String(), func(t *testing.T) {
			f := getFixture(t, k)
			c := f.reset(t)
			pts := walkablePoints(t, c.Mesh())
			q, r := pts[len(pts)/3], pts[2*len(pts)/3]
			vols := []voxel.ConvexVolume{
				square(q.X, q.Z, 3, q.Y-1, q.Y+1, 7),
				{VertsXZ: [][2]float32{{r.X - 2, r.Z - 1}, {r.X + 2, r.Z - 2}, {r.X + 1, r.Z + 2}}, MinYM: r.Y - 1, MaxYM: r.Y + 1, Area: 0},
			}
			var ids []VolumeID
			for _, v := range vols {
				id, err := c.AddVolume(v)
				if err != nil {
					t.Fatal(err)
				}
				ids = append(ids, id)
			}
			res, err := c.UpdateAll()
			if err != nil {
				t.Fatal(err)
			}
			if res.LayersBuilt() == 0 {
				t.Fatalf("the volumes changed nothing")
			}
			s := withShapes(k.settings(), nil, vols)
			b, err := pipeline.BuildLevel(context.Background(), &s, f.src, pipeline.BuildOptions{})
			if err != nil {
				t.Fatal(err)
			}
			baked := meshBytes(t, b.Mesh)
			if bytes.Equal(baked, f.plain) {
				t.Fatalf("the baked volumes change nothing")
			}
			if got := canonicalBytes(t, c.Mesh()); !bytes.Equal(got, baked) {
				t.Errorf("run-time volumes: %d mesh bytes, baked: %d, not equal (%v)", len(got), len(baked),
					sameTiles(meshTiles(t, c.Mesh()), meshTiles(t, b.Mesh)))
			}
			for _, id := range ids {
				if err := c.RemoveVolume(id); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := c.UpdateAll(); err != nil {
				t.Fatal(err)
			}
			if got := canonicalBytes(t, c.Mesh()); !bytes.Equal(got, f.plain) {
				t.Errorf("after removing the volumes the mesh differs from the plain build")
			}
		})
	}
}

// TestRestoreThenFirstBuild (docs/tilecache.md §2; the spec: "After a
// restore the last-built areas are forgotten ... so the next rebuild of
// each queued tile runs in full", and "a rebuild whose areas equal the
// first build's reuses the first build's tile data"): a snapshot taken
// with an obstacle's tiles in the mesh and the tiles queued after its
// removal, restored into a cache whose tiles were rebuilt since, rebuilds
// every queued tile by the first-build shortcut (no build, the first
// build's data, the mesh equal to the plain build), where the same tiles
// without the restore would have been left alone (RebuildUnchanged); and
// after a restore a queued tile whose areas did not change is built in
// full once, then left alone.
func TestRestoreThenFirstBuild(t *testing.T) {
	for _, k := range []config{{"city", pipeline.Watershed, false}, {"city", pipeline.Layers, true}} {
		t.Run(k.String(), func(t *testing.T) {
			f := getFixture(t, k)
			c := f.reset(t)
			m := c.Mesh()
			plain := plainOf(t, f)
			pts := walkablePoints(t, m)
			p := pts[len(pts)/2]
			g := c.Grid()
			tx, tz, err := g.TileAt(p)
			if err != nil {
				t.Fatal(err)
			}
			o := voxel.Cylinder(geom.V3(p.X, p.Y-0.5, p.Z), 1, 2)
			id, err := c.AddObstacle(o)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.UpdateAll(); err != nil {
				t.Fatal(err)
			}
			withO := meshTiles(t, m)
			if err := c.RemoveObstacle(id); err != nil {
				t.Fatal(err)
			}
			queue := c.Queue()
			snap := snapBytes(t, c) // the obstacle's tiles, queued, no obstacle
			r, err := c.UpdateAll()
			if err != nil {
				t.Fatal(err)
			}
			if err := sameTiles(meshTiles(t, m), plain); err != nil {
				t.Fatalf("after removing the obstacle: %v", err)
			}
			// Without a restore, queueing the same tiles again leaves them
			// alone: their areas equal those last built from.
			for _, q := range queue {
				if err := c.QueueTile(q[0], q[1]); err != nil {
					t.Fatal(err)
				}
			}
			r, err = c.UpdateAll()
			if err != nil {
				t.Fatal(err)
			}
			for _, u := range r.Tiles {
				if u.Rebuild != RebuildUnchanged {
					t.Errorf("tile (%d, %d) queued again without change: %v", u.TX, u.TZ, u.Rebuild)
				}
			}

			if err := c.Restore(snap); err != nil {
				t.Fatal(err)
			}
			if err := sameTiles(meshTiles(t, m), withO); err != nil {
				t.Fatalf("restored mesh: %v", err)
			}
			r, err = c.UpdateAll()
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Tiles) != len(queue) {
				t.Fatalf("%d tiles rebuilt after the restore, want the %d queued", len(r.Tiles), len(queue))
			}
			for _, u := range r.Tiles {
				if u.Rebuild != RebuildFirst || u.LayersBuilt != 0 {
					t.Errorf("tile (%d, %d) after the restore: %v, %d builds; want the first-build shortcut", u.TX, u.TZ, u.Rebuild, u.LayersBuilt)
				}
				if u.TX == tx && u.TZ == tz {
					if len(u.Swaps) == 0 || u.Swaps[0].Kind != SwapReplaced {
						t.Errorf("the obstacle's tile: swaps %+v, want its first-build data replacing the restored tile", u.Swaps)
					}
				}
			}
			if err := sameTiles(meshTiles(t, m), plain); err != nil {
				t.Errorf("after restore and update: %v", err)
			}

			// A queued tile whose areas did not change runs in full once
			// after a restore (its tiles are kept), then is left alone.
			if _, err := c.AddObstacle(o); err != nil {
				t.Fatal(err)
			}
			if _, err := c.UpdateAll(); err != nil {
				t.Fatal(err)
			}
			snap = snapBytes(t, c)
			if err := c.Restore(snap); err != nil {
				t.Fatal(err)
			}
			for _, want := range []Rebuild{RebuildBuilt, RebuildUnchanged} {
				if err := c.QueueTile(tx, tz); err != nil {
					t.Fatal(err)
				}
				r, err := c.UpdateAll()
				if err != nil {
					t.Fatal(err)
				}
				u := updateOf(t, r, tx, tz)
				if u.Rebuild != want || !allKept(u.Swaps) {
					t.Errorf("queued again after the restore: %+v, want %v with every layer kept", u, want)
				}
			}
			if err := sameTiles(meshTiles(t, m), withO); err != nil {
				t.Errorf("after the full rebuild: %v", err)
			}
		})
	}
}
