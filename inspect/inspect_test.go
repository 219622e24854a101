package inspect

import (
	"context"
	"strings"
	"sync"
	"testing"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/level/leveltest"
	"navviz/core/pipeline"
	"navviz/core/region"
	"navviz/core/voxel"
	"navviz/tilecache"
)

// cacheFixture is a layer-first cache of terrain and its first snapshot.
var cacheFixture struct {
	once sync.Once
	c    *tilecache.Cache
	snap []byte
	pts  []geom.Vec3
	err  error
}

// terrainCache returns the layer-first cache of terrain (Partition
// Layers, DetailSampleDistCells 0) restored to its first build, and the
// centres of its polygons.
func terrainCache(t *testing.T) (*tilecache.Cache, []geom.Vec3) {
	t.Helper()
	soup := leveltest.Soup(t, "terrain")
	f := &cacheFixture
	f.once.Do(func() {
		s := pipeline.DefaultSettings()
		s.Partition, s.DetailSampleDistCells = pipeline.Layers, 0
		ch, err := level.NewChunky(soup, 256)
		if err != nil {
			f.err = err
			return
		}
		f.c, f.err = tilecache.BuildChunk(context.Background(), &s, soup, ch, tilecache.Options{})
		if f.err != nil {
			return
		}
		if f.snap, f.err = f.c.Snapshot(); f.err != nil {
			return
		}
		m := f.c.Mesh()
		for _, ref := range m.Tiles() {
			tl, err := m.Tile(ref)
			if err != nil {
				f.err = err
				return
			}
			for i := range tl.Polys {
				p := &tl.Polys[i]
				var c geom.Vec3
				for k := 0; k < int(p.VertCount); k++ {
					c = c.Add(tl.Verts[p.Verts[k]])
				}
				f.pts = append(f.pts, c.Scale(1/float32(p.VertCount)))
			}
		}
	})
	if f.err != nil {
		t.Fatal(f.err)
	}
	if err := f.c.Restore(f.snap); err != nil {
		t.Fatal(err)
	}
	f.c.SetTrace(nil)
	f.c.SetRepair(true)
	return f.c, f.pts
}

// update adds obs to c, runs UpdateAll with a fresh recorder and returns
// its reports.
func update(t *testing.T, c *tilecache.Cache, compare bool, obs ...voxel.Obstacle) (*Recorder, []LayerReport) {
	t.Helper()
	r := NewRecorder(compare)
	c.SetTrace(r)
	defer c.SetTrace(nil)
	for _, o := range obs {
		if _, err := c.AddObstacle(o); err != nil {
			t.Fatal(err)
		}
	}
	r.Begin()
	if _, err := c.UpdateAll(); err != nil {
		t.Fatal(err)
	}
	return r, r.Reports()
}

// TestRecorderRepair: a small cylinder on terrain rebuilds layers that
// lose spans; the reports name them, place the removed spans near the
// cylinder, and the repaired contours equal the from-scratch ones.
func TestRecorderRepair(t *testing.T) {
	c, pts := terrainCache(t)
	if len(pts) == 0 {
		t.Fatal("no polygons")
	}
	p := pts[len(pts)/2]
	_, reps := update(t, c, true, tilecache.CycleObstacle(p))
	if len(reps) == 0 {
		t.Fatal("no layer reported")
	}
	removed, repaired := 0, 0
	for i := range reps {
		r := &reps[i]
		t.Log(r.String())
		removed += r.Removed
		if len(r.RemovedPos) != min(r.Removed, MaxSpanPositions) || len(r.RingPos) != min(r.Ring, MaxSpanPositions) {
			t.Errorf("%v: %d removed positions, %d ring positions", r, len(r.RemovedPos), len(r.RingPos))
		}
		for _, q := range r.RemovedPos {
			dx, dz := float64(q.X-p.X), float64(q.Z-p.Z)
			if reach := float64(tilecache.CycleRadiusM) + c.ObstacleGrowthM() + 1; dx*dx+dz*dz > reach*reach {
				t.Errorf("%v: removed span at %v, %.2f m from the cylinder at %v", r, q, dx*dx+dz*dz, p)
				break
			}
		}
		if r.Repaired {
			repaired++
			if !r.Compared || !r.ContoursEqual || r.Diff != "" || len(r.ScratchDiffers) != 0 {
				t.Errorf("%v: compared %v equal %v diff %q", r, r.Compared, r.ContoursEqual, r.Diff)
			}
			if r.Verdict != "ok" || r.Precondition != "" {
				t.Errorf("%v: verdict %q precondition %q", r, r.Verdict, r.Precondition)
			}
		} else if r.Verdict == "" {
			t.Errorf("%v: no verdict", r)
		}
		if r.Frame.CellSizeM <= 0 || len(r.Contours) == 0 && r.HasPolys {
			t.Errorf("%v: frame %+v, %d contours", r, r.Frame, len(r.Contours))
		}
	}
	if removed == 0 || repaired == 0 {
		t.Fatalf("%d layers: %d removed spans, %d repaired", len(reps), removed, repaired)
	}
	s := Summarize(reps)
	if s.Layers != len(reps) || s.Repaired != repaired || s.Removed != removed || s.Differ != 0 {
		t.Errorf("summary %+v", s)
	}
}

// TestRecorderPrecondition: obstacles that cut regions apart or remove
// them make layers fail a precondition; their reports say which and why,
// and with the repair off a layer whose preconditions hold says so.
func TestRecorderPrecondition(t *testing.T) {
	c, pts := terrainCache(t)
	var obs []voxel.Obstacle
	for i := 0; i < len(pts); i += max(1, len(pts)/12) {
		p := pts[i]
		// A long thin wall across the region and a wide cylinder.
		obs = append(obs,
			voxel.OrientedBox(geom.V3(p.X, p.Y, p.Z), geom.V3(12, 2, 0.2), 0.7),
			voxel.Cylinder(geom.V3(p.X+3, p.Y-1, p.Z+3), 4, 3))
	}
	_, reps := update(t, c, true, obs...)
	failed := 0
	for i := range reps {
		r := &reps[i]
		if r.Repaired {
			if !r.ContoursEqual {
				t.Errorf("%v: %s", r, r.Diff)
			}
			continue
		}
		failed++
		t.Log(r.String())
		if r.Precondition == "" || !strings.HasPrefix(r.Verdict, "("+r.Precondition+")") && r.Precondition != "links" {
			t.Errorf("%v: precondition %q, verdict %q", r, r.Precondition, r.Verdict)
		}
		if r.Compared || r.RegionsRebuilt != 0 {
			t.Errorf("%v: compared %v, regions rebuilt %d for a layer built from scratch", r, r.Compared, r.RegionsRebuilt)
		}
	}
	if failed == 0 {
		t.Fatalf("%d layers, every one repaired", len(reps))
	}
	// The wall cuts a region in two: precondition (c).
	if sum := Summarize(reps); sum.Reasons[region.ReasonSplit] == 0 {
		t.Errorf("no layer failed (c) split: %+v", sum)
	}

	// Repair off: the preconditions are still checked.
	c, _ = terrainCache(t)
	c.SetRepair(false)
	_, reps = update(t, c, true, tilecache.CycleObstacle(pts[len(pts)/2]))
	off := 0
	for i := range reps {
		r := &reps[i]
		if r.Repaired || r.RepairOn {
			t.Errorf("%v: repaired with the repair off", r)
		}
		if r.Verdict == "ok (repair off)" {
			off++
		}
	}
	if off == 0 {
		t.Errorf("no layer with verdict ok (repair off) among %d", len(reps))
	}
	c.SetRepair(true)
}

// TestRecorderBounds: Begin starts a new list only when a layer comes, the
// bound drops the excess, and a nil trace is ignored.
func TestRecorderBounds(t *testing.T) {
	c, pts := terrainCache(t)
	r := NewRecorder(false)
	r.SetMaxReports(1)
	c.SetTrace(r)
	defer c.SetTrace(nil)
	r.Layer(nil)
	for _, p := range []geom.Vec3{pts[0], pts[len(pts)-1]} {
		if _, err := c.AddObstacle(voxel.Cylinder(geom.V3(p.X, p.Y-1, p.Z), 30, 4)); err != nil {
			t.Fatal(err)
		}
	}
	r.Begin()
	if _, err := c.UpdateAll(); err != nil {
		t.Fatal(err)
	}
	reps := r.Reports()
	if len(reps) != 1 || r.Dropped() == 0 || r.Updates() != 1 {
		t.Fatalf("%d reports, %d dropped, %d updates", len(reps), r.Dropped(), r.Updates())
	}
	if reps[0].Compared {
		t.Error("compared with CompareScratch off")
	}
	r.Begin()
	if _, err := c.UpdateAll(); err != nil {
		t.Fatal(err)
	}
	if got := r.Reports(); len(got) != 1 || got[0].String() != reps[0].String() || r.Updates() != 1 {
		t.Errorf("an empty Update changed the reports: %d, %d updates", len(got), r.Updates())
	}
	r.Clear()
	if len(r.Reports()) != 0 || r.Dropped() != 0 {
		t.Error("Clear kept reports")
	}
}
