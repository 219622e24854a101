package tilecache

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
	"navviz/core/voxel"
)

// updateStep is what one Update of a history gave: the result, the error
// text and the mesh's bytes.
type updateStep struct {
	res  UpdateResult
	err  string
	mesh []byte
}

// runHistory runs a fixed history of adds, removes and budgets on c with
// the given number of Update workers, one tile failing (failBuild) in one
// call, and returns every Update's outcome and the final snapshot.
func runHistory(t *testing.T, c *Cache, workers int, into bool) ([]updateStep, []byte) {
	t.Helper()
	c.workers = workers
	defer func() { c.workers, c.failBuild = 1, nil }()
	pts := walkablePoints(t, c.Mesh())
	rng := rand.New(rand.NewPCG(7, 11))
	var steps []updateStep
	var reused UpdateResult // UpdateInto's, every call overwriting it
	update := func(budget int) {
		var r UpdateResult
		var err error
		if !into {
			r, err = c.Update(budget)
		} else {
			err = c.UpdateInto(&reused, budget)
			r = reused
		}
		// A copy to keep (the next UpdateInto reuses reused's memory),
		// empty lists nil: the results are compared by content.
		r.Tiles, r.Failed = append([]TileUpdate(nil), r.Tiles...), append([]TileError(nil), r.Failed...)
		for i := range r.Tiles {
			r.Tiles[i].Swaps = append([]Swap(nil), r.Tiles[i].Swaps...)
		}
		checkDecoded(t, c.Mesh())
		s := updateStep{res: r, mesh: meshBytes(t, c.Mesh())}
		if err != nil {
			s.err = err.Error()
		}
		steps = append(steps, s)
	}
	var ids []ObstacleID
	add := func(n int) {
		for range n {
			p := pts[rng.IntN(len(pts))]
			id, err := c.AddObstacle(voxel.Cylinder(geom.V3(p.X, p.Y-0.5, p.Z), 0.5+2*rng.Float32(), 2))
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
	}
	add(10)
	update(c.QueueLen())
	add(6)
	update(3)
	// Tiles 2 to 4 of the next call fail when they build.
	if q := c.Queue(); len(q) > 4 {
		bad := q[1:4]
		c.failBuild = func(tx, tz, layer int) error {
			for _, b := range bad {
				if tx == b[0] && tz == b[1] {
					return fmt.Errorf("tile (%d, %d) layer %d: %w", tx, tz, layer, errInjected)
				}
			}
			return nil
		}
	}
	update(5)
	c.failBuild = nil
	update(c.QueueLen())
	for _, id := range ids[:8] {
		if err := c.RemoveObstacle(id); err != nil {
			t.Fatal(err)
		}
	}
	update(c.QueueLen())
	add(4)
	if _, err := c.AddVolume(square(pts[len(pts)/2].X, pts[len(pts)/2].Z, 6, -50, 50, 7)); err != nil {
		t.Fatal(err)
	}
	update(2)
	update(c.QueueLen())
	return steps, snapBytes(t, c)
}

// checkDecoded checks that every tile m holds is the one DecodeTile gives
// for its data (the tiles the cache swaps in come from navmesh.BuildTile,
// not decoded).
func checkDecoded(t *testing.T, m *navmesh.Mesh) {
	t.Helper()
	for _, ref := range m.Tiles() {
		tl, err := m.Tile(ref)
		if err != nil {
			t.Fatal(err)
		}
		data, err := m.TileData(ref)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := navmesh.DecodeTile(data)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(tl, dec) {
			t.Fatalf("tile %#x (%d, %d) layer %d differs from its data decoded", uint64(ref), tl.Header.TileX, tl.Header.TileZ, tl.Header.Layer)
		}
	}
}

// TestUpdateWorkers: Update with 1, 2 and 8 workers gives the same results
// (tiles, swaps, failures, errors), the same mesh bytes after every call
// and the same snapshot, on the general and the layer-first path.
func TestUpdateWorkers(t *testing.T) {
	for _, k := range []config{{"city", pipeline.Layers, true}, {"city", pipeline.Watershed, false}} {
		t.Run(k.String(), func(t *testing.T) {
			f := getFixture(t, k)
			want, wantSnap := runHistory(t, f.reset(t), 1, false)
			failed := 0
			for _, s := range want {
				failed += len(s.res.Failed)
			}
			if failed == 0 {
				t.Errorf("no tile failed: the history does not cover failures")
			}
			for _, run := range []struct {
				w    int
				into bool // UpdateInto with one result reused
			}{{2, false}, {8, false}, {1, true}, {2, true}} {
				w := run.w
				got, gotSnap := runHistory(t, f.reset(t), w, run.into)
				if len(got) != len(want) {
					t.Fatalf("%d workers: %d updates, want %d", w, len(got), len(want))
				}
				for i := range got {
					g, e := got[i], want[i]
					if g.err != e.err || !reflect.DeepEqual(g.res, e.res) {
						t.Errorf("%d workers (UpdateInto %v), update %d: %+v (error %q), want %+v (error %q)", w, run.into, i, g.res, g.err, e.res, e.err)
					}
					if string(g.mesh) != string(e.mesh) {
						t.Errorf("%d workers, update %d: mesh bytes differ", w, i)
					}
				}
				if string(gotSnap) != string(wantSnap) {
					t.Errorf("%d workers: snapshots differ", w)
				}
			}
			f.reset(t)
		})
	}
}

// TestTilesInRange: the tiles an add or remove queues (eachTileIn, which
// looks at the box's tile range only) are those a scan of every cached
// tile with the same overlap test finds, for boxes inside, across and
// outside the level.
func TestTilesInRange(t *testing.T) {
	c := getFixture(t, config{"city", pipeline.Layers, true}).cache
	g := c.grid
	scan := func(minX, minZ, maxX, maxZ, widenM float64) [][2]int {
		w := widenM + float64(g.CellSizeM)
		var out [][2]int
		for _, ti := range c.order {
			tl := c.tiles[ti]
			b := &tl.spans.Grid
			if float64(b.MaxM.X)+w >= minX && float64(b.OriginM.X)-w <= maxX &&
				float64(b.MaxM.Z)+w >= minZ && float64(b.OriginM.Z)-w <= maxZ {
				out = append(out, [2]int{tl.tx, tl.tz})
			}
		}
		return out
	}
	lo, hi := g.BoundsM.Min, g.BoundsM.Max
	rng := rand.New(rand.NewPCG(3, 5))
	type box struct{ minX, minZ, maxX, maxZ, widen float64 }
	boxes := []box{
		{float64(lo.X), float64(lo.Z), float64(hi.X), float64(hi.Z), 0},
		{-1e30, -1e30, 1e30, 1e30, 0.6},
		{float64(hi.X) + 5, 0, float64(hi.X) + 9, 10, 0},
		{float64(lo.X) - 9, float64(lo.Z) - 9, float64(lo.X) - 0.2, float64(lo.Z) - 0.2, 0.6},
		{math.Inf(-1), 0, 0, 1, 0},
	}
	// Boxes whose edges sit on tile and build-grid boundaries.
	ts := float64(g.TileSizeM())
	for i := range 8 {
		e := float64(lo.X) + float64(i)*ts
		boxes = append(boxes, box{e, e, e, e, 0}, box{e - float64(g.BorderCells+1)*float64(g.CellSizeM), e, e, e + 1, 0.6})
	}
	for range 300 {
		x := float64(lo.X) - 20 + rng.Float64()*float64(hi.X-lo.X+40)
		z := float64(lo.Z) - 20 + rng.Float64()*float64(hi.Z-lo.Z+40)
		boxes = append(boxes, box{x, z, x + rng.Float64()*60, z + rng.Float64()*3, float64(rng.IntN(3)) * 0.6})
	}
	for _, b := range boxes {
		got, want := c.tilesIn(b.minX, b.minZ, b.maxX, b.maxZ, b.widen), scan(b.minX, b.minZ, b.maxX, b.maxZ, b.widen)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("box %+v: %v, want %v", b, got, want)
		}
	}
}

// TestLayerTilesBound: keeping the height layers and repair bases of one
// tile only (Options.LayerTiles 1: every other tile's are dropped and made
// again) gives the same results, mesh bytes and snapshot as the default,
// and never more tiles hold layers than the bound or one call's builds.
func TestLayerTilesBound(t *testing.T) {
	f := getFixture(t, config{"city", pipeline.Layers, true})
	c := f.reset(t)
	want, wantSnap := runHistory(t, c, 1, false)
	c = f.reset(t)
	c.layerCap = 1
	defer func() { c.layerCap = DefaultLayerTiles }()
	got, gotSnap := runHistory(t, c, 2, false)
	for i := range got {
		if got[i].err != want[i].err || !reflect.DeepEqual(got[i].res, want[i].res) || string(got[i].mesh) != string(want[i].mesh) {
			t.Errorf("update %d differs with LayerTiles 1", i)
		}
	}
	if string(gotSnap) != string(wantSnap) {
		t.Errorf("snapshots differ with LayerTiles 1")
	}
	builds := 0
	for _, s := range got {
		builds += s.res.LayersBuilt()
	}
	t.Logf("%d updates, %d layer builds; %d tiles hold layers", len(got), builds, len(c.layered))
	holding := 0
	for _, ti := range c.order {
		if c.tiles[ti].layers != nil {
			holding++
			if !slices.Contains(c.layered, ti) {
				t.Errorf("tile %d holds layers but is not listed", ti)
			}
		}
	}
	last := want[len(want)-1].res
	if holding != len(c.layered) || holding > max(1, last.LayersBuilt()) {
		t.Errorf("%d tiles hold layers (%d listed), want at most max(1, %d)", holding, len(c.layered), last.LayersBuilt())
	}
	if _, err := Build(context.Background(), &pipeline.NavSettings{}, f.src, Options{LayerTiles: -1}); err == nil || !strings.Contains(err.Error(), "LayerTiles = -1") {
		t.Errorf("LayerTiles -1: %v", err)
	}
}

// TestUpdateTimes: measuring Update's parts changes no result, and the
// parts that ran have time: marking and swapping in every call, the
// repair's parts when layers were repaired.
func TestUpdateTimes(t *testing.T) {
	f := getFixture(t, config{"city", pipeline.Layers, true})
	want, wantSnap := runHistory(t, f.reset(t), 1, false)
	c := f.reset(t)
	var ut UpdateTimes
	c.SetUpdateTimes(&ut)
	defer c.SetUpdateTimes(nil)
	got, gotSnap := runHistory(t, c, 2, false)
	for i := range got {
		if got[i].err != want[i].err || !reflect.DeepEqual(got[i].res, want[i].res) || string(got[i].mesh) != string(want[i].mesh) {
			t.Errorf("update %d differs when measured", i)
		}
	}
	if string(gotSnap) != string(wantSnap) {
		t.Errorf("snapshots differ when measured")
	}
	repaired := 0
	for _, s := range got {
		repaired += s.res.LayersRepaired()
	}
	if repaired == 0 {
		t.Fatalf("no layer repaired: the history does not cover the repair's parts")
	}
	if ut.Mark <= 0 || ut.Swap <= 0 || ut.Layers <= 0 || ut.Regions <= 0 || ut.Contours <= 0 || ut.Polys <= 0 || ut.Total() <= ut.Polys {
		t.Errorf("times %+v: a part that ran has none", ut)
	}
}
