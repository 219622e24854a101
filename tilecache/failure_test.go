package tilecache

import (
	"errors"
	"slices"
	"testing"

	"navviz/core/geom"
	"navviz/core/pipeline"
	"navviz/core/voxel"
)

var errInjected = errors.New("injected failure")

// expectTiles returns plain with the tiles at the positions pos replaced by
// fresh, ordered as meshTiles orders them (z, x, layer).
func expectTiles(plain, fresh []posTile, pos [][2]int) []posTile {
	out := slices.DeleteFunc(slices.Clone(plain), func(pt posTile) bool {
		return slices.Contains(pos, [2]int{int(pt.x), int(pt.z)})
	})
	out = append(out, fresh...)
	slices.SortStableFunc(out, func(a, b posTile) int {
		switch {
		case a.z != b.z:
			return int(a.z - b.z)
		case a.x != b.x:
			return int(a.x - b.x)
		}
		return int(a.layer) - int(b.layer)
	})
	return out
}

// farPoints returns two ground points of m whose tiles are at least 3
// tiles apart, so that no tile is queued by obstacles on both.
func farPoints(t *testing.T, c *Cache) (a, b geom.Vec3, ta, tb [2]int) {
	t.Helper()
	g := c.Grid()
	pts := walkablePoints(t, c.Mesh())
	a = pts[len(pts)/3]
	ax, az, err := g.TileAt(a)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pts[len(pts)/2:] {
		bx, bz, err := g.TileAt(p)
		if err == nil && max(bx-ax, ax-bx, bz-az, az-bz) >= 3 {
			return a, p, [2]int{ax, az}, [2]int{bx, bz}
		}
	}
	t.Fatal("no two ground points 3 tiles apart")
	return
}

// TestFailingTileLeavesQueue (docs/tilecache.md §7): a tile whose rebuild
// fails (injected) leaves the queue, the error names it and its layer, the
// mesh keeps its tiles there while the other tiles of the call and the rest
// of the queue are processed; a later add reaching it queues it again, and
// once the failure is gone it builds and the mesh equals a fresh build.
func TestFailingTileLeavesQueue(t *testing.T) {
	for _, k := range []config{{"city", pipeline.Watershed, false}, {"city", pipeline.Layers, true}} {
		t.Run(k.String(), func(t *testing.T) {
			f := getFixture(t, k)
			c := f.reset(t)
			defer func() { c.failBuild = nil }()
			plain := plainOf(t, f)
			pa, pb, ta, tb := farPoints(t, c)
			oa := voxel.Cylinder(geom.V3(pa.X, pa.Y-0.5, pa.Z), 1, 2)
			ob := voxel.Cylinder(geom.V3(pb.X, pb.Y-0.5, pb.Z), 1, 2)
			for _, o := range []voxel.Obstacle{oa, ob} {
				if _, err := c.AddObstacle(o); err != nil {
					t.Fatal(err)
				}
			}
			queue := c.Queue()
			ka := slices.Index(queue, ta)
			if ka < 0 || !slices.Contains(queue, tb) {
				t.Fatalf("queue %v lacks %v or %v", queue, ta, tb)
			}
			calls := 0
			c.failBuild = func(tx, tz, layer int) error {
				if tx == ta[0] && tz == ta[1] {
					calls++
					return errInjected
				}
				return nil
			}

			// The call that meets the failing tile: the tiles before it are
			// swapped, it leaves the queue, the rest stays queued.
			r, err := c.Update(ka + 1)
			var te *TileError
			if !errors.As(err, &te) || !errors.Is(err, errInjected) || te.TX != ta[0] || te.TZ != ta[1] {
				t.Fatalf("Update error %v, want a *TileError for tile %v wrapping the injected failure", err, ta)
			}
			if wantLayer := k.layerFirst; (te.Layer >= 0) != wantLayer {
				t.Errorf("TileError.Layer = %d on %v", te.Layer, k)
			}
			t.Logf("error: %v", err)
			if calls != 1 || len(r.Failed) != 1 || r.Failed[0] != *te || len(r.Tiles) != ka || r.Remaining != len(queue)-ka-1 {
				t.Errorf("result: %d calls, %d failed, %d tiles (want %d), %d remaining (want %d)", calls, len(r.Failed), len(r.Tiles), ka, r.Remaining, len(queue)-ka-1)
			}
			for i, u := range r.Tiles {
				if [2]int{u.TX, u.TZ} != queue[i] {
					t.Errorf("result tile %d is (%d, %d), want %v", i, u.TX, u.TZ, queue[i])
				}
			}
			if got := c.Queue(); !slices.Equal(got, queue[ka+1:]) {
				t.Errorf("queue %v, want %v (the failed tile leaves it)", got, queue[ka+1:])
			}
			// A later Update processes the rest of the queue.
			r, err = c.UpdateAll()
			if err != nil || len(r.Tiles) != len(queue)-ka-1 || c.QueueLen() != 0 {
				t.Fatalf("the rest of the queue: %v, %d tiles, %d left", err, len(r.Tiles), c.QueueLen())
			}
			// The mesh: the fresh build of A and B everywhere but at the
			// failed tile, which keeps its first-build tiles.
			s := withShapes(k.settings(), []voxel.Obstacle{oa, ob}, nil)
			others := slices.DeleteFunc(slices.Clone(queue), func(p [2]int) bool { return p == ta })
			want := expectTiles(plain, freshTiles(t, &s, f.src, others), others)
			if err := sameTiles(meshTiles(t, c.Mesh()), want); err != nil {
				t.Errorf("after the failure: %v", err)
			}

			// An obstacle in the air over A queues A again; it still fails,
			// and the mesh does not change.
			air := voxel.Cylinder(geom.V3(pa.X, pa.Y+50, pa.Z), 1, 1)
			if _, err := c.AddObstacle(air); err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(c.Queue(), ta) {
				t.Fatalf("queue %v: a new obstacle over the failed tile did not queue it", c.Queue())
			}
			before := meshBytes(t, c.Mesh())
			if r, err = c.UpdateAll(); !errors.Is(err, errInjected) || len(r.Failed) != 1 || c.QueueLen() != 0 {
				t.Fatalf("second failure: %v, %+v, %d queued", err, r.Failed, c.QueueLen())
			}
			if string(meshBytes(t, c.Mesh())) != string(before) {
				t.Errorf("the mesh changed although only the failing tile was queued")
			}

			// The failure gone, the tile queued by hand builds: the mesh is
			// the fresh build of everything in force.
			c.failBuild = nil
			if err := c.QueueTile(ta[0], ta[1]); err != nil {
				t.Fatal(err)
			}
			if err := c.QueueTile(-1, 0); err == nil {
				t.Errorf("QueueTile(-1, 0) succeeded")
			}
			r, err = c.UpdateAll()
			if err != nil || len(r.Tiles) != 1 || r.Tiles[0].Rebuild != RebuildBuilt {
				t.Fatalf("after the failure is gone: %v, %+v", err, r.Tiles)
			}
			s = withShapes(k.settings(), []voxel.Obstacle{oa, ob, air}, nil)
			want = expectTiles(plain, freshTiles(t, &s, f.src, queue), queue)
			if err := sameTiles(meshTiles(t, c.Mesh()), want); err != nil {
				t.Errorf("after rebuilding the failed tile: %v", err)
			}
		})
	}
}
