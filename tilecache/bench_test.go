package tilecache

import (
	"context"
	"math"
	"runtime"
	"slices"
	"testing"

	"navviz/core/contour"
	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
	"navviz/core/polymesh"
	"navviz/core/voxel"
	"navviz/internal/cputime"
)

// streetSurfaces returns the heights of every surface of soup above the
// x/z point (x, z) (ch indexes soup).
func streetSurfaces(soup *level.Soup, ch *level.Chunky, x, z float64) []float64 {
	var hs []float64
	for _, ti := range ch.Query(float32(x), float32(z), float32(x), float32(z), nil) {
		tr := soup.Tris[ti]
		a, b, c := soup.Verts[tr[0]].F64(), soup.Verts[tr[1]].F64(), soup.Verts[tr[2]].F64()
		d := (b.Z-c.Z)*(a.X-c.X) + (c.X-b.X)*(a.Z-c.Z)
		if d == 0 {
			continue
		}
		l1 := ((b.Z-c.Z)*(x-c.X) + (c.X-b.X)*(z-c.Z)) / d
		l2 := ((c.Z-a.Z)*(x-c.X) + (a.X-c.X)*(z-c.Z)) / d
		l3 := 1 - l1 - l2
		if l1 < -1e-9 || l2 < -1e-9 || l3 < -1e-9 {
			continue
		}
		hs = append(hs, l1*a.Y+l2*b.Y+l3*c.Y)
	}
	return hs
}

// TestCityCyclePoints checks the documented property of CityCyclePoints on
// the generated city: every point's disc of radius 2.5 m is open street
// (only the street at y = 0 below 12 m, sampled every 0.25 m), and its
// obstacle takes walkable spans away.
func TestCityCyclePoints(t *testing.T) {
	soup := loadLevel(t, "city")
	ch, err := level.NewChunky(soup, 64)
	if err != nil {
		t.Fatal(err)
	}
	pts := CityCyclePoints()
	if len(pts) != 16 {
		t.Fatalf("%d points", len(pts))
	}
	for i, p := range pts {
		for dx := -2.5; dx <= 2.5; dx += 0.25 {
			for dz := -2.5; dz <= 2.5; dz += 0.25 {
				if dx*dx+dz*dz > 2.5*2.5 {
					continue
				}
				hs := streetSurfaces(soup, ch, float64(p.X)+dx, float64(p.Z)+dz)
				ok := len(hs) > 0
				for _, h := range hs {
					if h != 0 && h < 12 {
						ok = false
					}
				}
				if !ok {
					t.Fatalf("point %d %v: surfaces %v at offset (%v, %v)", i, p, hs, dx, dz)
				}
			}
		}
	}
	f := getFixture(t, config{"city", pipeline.Layers, true})
	c := f.reset(t)
	for i, p := range pts {
		id, err := c.AddObstacle(CycleObstacle(p))
		if err != nil {
			t.Fatal(err)
		}
		r, err := c.UpdateAll()
		if err != nil {
			t.Fatal(err)
		}
		removed := 0
		for _, u := range r.Tiles {
			removed += u.RemovedSpans
		}
		if removed == 0 {
			t.Errorf("point %d %v: the obstacle removes nothing", i, p)
		}
		if err := c.RemoveObstacle(id); err != nil {
			t.Fatal(err)
		}
		if _, err := c.UpdateAll(); err != nil {
			t.Fatal(err)
		}
	}
	if err := sameTiles(meshTiles(t, c.Mesh()), plainOf(t, f)); err != nil {
		t.Error(err)
	}
}

// TestRunCycle: a cycle leaves the mesh's tiles as they were, and counts
// what it did.
func TestRunCycle(t *testing.T) {
	f := getFixture(t, config{"city", pipeline.Layers, true})
	c := f.reset(t)
	var obs []voxel.Obstacle
	for _, p := range CityCyclePoints() {
		obs = append(obs, CycleObstacle(p))
	}
	st, err := c.RunCycle(obs)
	if err != nil {
		t.Fatal(err)
	}
	if st.Updates != 32 || st.LayersBuilt < 16 || st.RemovedSpans == 0 || st.TilesRebuilt < 32 {
		t.Errorf("cycle stats %+v", st)
	}
	t.Logf("cycle: %+v", st)
	if err := sameTiles(meshTiles(t, c.Mesh()), plainOf(t, f)); err != nil {
		t.Error(err)
	}
	if len(c.Obstacles()) != 0 || c.QueueLen() != 0 {
		t.Errorf("the cycle left obstacles or a queue")
	}
	// A cycle needs an empty queue and valid obstacles.
	c.AddObstacle(obs[0])
	if _, err := c.RunCycle(obs); err == nil {
		t.Errorf("RunCycle with a queue accepted")
	}
	c.UpdateAll()
	if _, err := c.RunCycle([]voxel.Obstacle{{}}); err == nil {
		t.Errorf("RunCycle with an invalid obstacle accepted")
	}
}

// BenchmarkRebuildTile is one tile rebuild on the general path (city,
// default settings: watershed, detail sampling): the busiest tile under a
// cylinder, marked and built (regions, contours, polygons, detail, tile
// data) from its cached step-3 heightfield, without the swap.
func BenchmarkRebuildTile(b *testing.B) {
	f := getFixture(b, config{"city", pipeline.Watershed, false})
	c := f.reset(b)
	var t *tile
	for _, ti := range c.order {
		if tt := c.tiles[ti]; t == nil || tt.spans.SpanCount() > t.spans.SpanCount() {
			t = tt
		}
	}
	g := &t.spans.Grid
	cx := float32(float64(g.OriginM.X)+float64(g.MaxM.X)) / 2
	cz := float32(float64(g.OriginM.Z)+float64(g.MaxM.Z)) / 2
	if _, err := c.AddObstacle(voxel.Cylinder(geom.V3(cx, -100, cz), 1, 300)); err != nil {
		b.Fatal(err)
	}
	var p plan
	sc := new(buildScratch)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := c.markAreas(t, &p); err != nil {
			b.Fatal(err)
		}
		if _, err := c.buildLayers(t, p.areas, sc, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(t.spans.SpanCount()), "spans")
	f.reset(b)
}

// BenchmarkCityCycle is the cycle of build3d-runtime.md ("Cost of a
// rebuild") on the generated city: tile 64 cells, layers, no detail
// sampling, the 16 cylinders of CityCyclePoints added and removed one at a
// time, each followed by UpdateAll (RunCycle), with the layer repair
// ("repair") and without it ("scratch"). One op is one cycle; it also
// reports ms/cycle, the layer builds per cycle and how many of them were
// repaired.
func BenchmarkCityCycle(b *testing.B) { benchCycle(b, "city") }

// BenchmarkCity4x4Cycle is BenchmarkCityCycle on city4x4 (16 copies of
// city, 800 x 800 m; the points lie in its first copy, so a cycle rebuilds
// the same tiles): the cycle's cost should not grow with the level
// (docs/tilecache.md §9). Its build takes seconds and about 300 MB.
func BenchmarkCity4x4Cycle(b *testing.B) { benchCycle(b, "city4x4") }

// BenchmarkLevelCycle is BenchmarkCityCycle on the shared levels dungeon
// and nav_test, with 12 points on open floor (OpenFloorPoints, as navmesh
// bench --auto-points 12): levels of small layers.
func BenchmarkLevelCycle(b *testing.B) {
	for _, name := range []string{"dungeon", "nav_test"} {
		b.Run(name, func(b *testing.B) { benchCycle(b, name) })
	}
}

// benchCycle runs the cycle's benchmarks on level name (city or city4x4
// with CityCyclePoints, else 12 OpenFloorPoints), one worker.
func benchCycle(b *testing.B, name string) {
	soup := loadLevel(b, name)
	s := pipeline.DefaultSettings()
	s.Partition, s.DetailSampleDistCells = pipeline.Layers, 0
	ch, err := level.NewChunky(soup, 256)
	if err != nil {
		b.Fatal(err)
	}
	c, err := BuildChunk(context.Background(), &s, soup, ch, Options{Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	pts := CityCyclePoints()
	if name != "city" && name != "city4x4" {
		if pts, err = OpenFloorPoints(c.Mesh(), 12); err != nil {
			b.Fatal(err)
		}
	}
	var obs []voxel.Obstacle
	for _, p := range pts {
		obs = append(obs, CycleObstacle(p))
	}
	// Warm up: the first cycle also splits the touched tiles' layers and
	// makes their repair bases.
	if _, err := c.RunCycle(obs); err != nil {
		b.Fatal(err)
	}
	for _, mode := range []string{"repair", "scratch"} {
		b.Run(mode, func(b *testing.B) {
			c.SetRepair(mode == "repair")
			defer c.SetRepair(true)
			b.ReportAllocs()
			b.ResetTimer()
			layers, repaired := 0, 0
			for range b.N {
				st, err := c.RunCycle(obs)
				if err != nil {
					b.Fatal(err)
				}
				layers += st.LayersBuilt
				repaired += st.LayersRepaired
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e6/float64(b.N), "ms/cycle")
			b.ReportMetric(math.Round(float64(layers)/float64(b.N)*10)/10, "layers/cycle")
			b.ReportMetric(math.Round(float64(repaired)/float64(b.N)*10)/10, "repaired/cycle")
		})
	}
}

// layerJob is one layer build of the city cycle: the tile, the layer and
// the areas in force.
type layerJob struct {
	t     *tile
	li    int
	areas []uint8
}

// jobTrace records the layer builds it sees.
type jobTrace struct {
	c    *Cache
	jobs []layerJob
}

func (jt *jobTrace) CompareScratch() bool { return false }

func (jt *jobTrace) Layer(lt *LayerTrace) {
	jt.jobs = append(jt.jobs, layerJob{jt.c.tileAt(lt.TX, lt.TZ), lt.Layer, append([]uint8(nil), lt.Areas...)})
}

// BenchmarkLayerRepair times the layer builds of one city cycle (tile 64,
// layers, no detail sampling; the 16 cylinders of CityCyclePoints) one by
// one, without marking, comparing or swapping: "repair" as Update builds
// them (repaired where the preconditions hold), "scratch" with the repair
// off (pipeline.BuildLayerMesh). One op is every layer build of a cycle;
// it also reports µs/layer and the share repaired.
func BenchmarkLayerRepair(b *testing.B) {
	f, c, jt := tracedCityCycle(b)
	sc := new(buildScratch)
	// The regions and contours alone: the repair (region.RepairBase and
	// contour.RepairBase) against pipeline.BuildLayerContours.
	for _, mode := range []string{"repair-contours", "scratch-contours"} {
		b.Run(mode, func(b *testing.B) {
			rs := &sc.repair
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				for _, j := range jt.jobs {
					lr, err := c.layerRepairOf(j.t, j.t.layers, j.li, sc)
					if err != nil {
						b.Fatal(err)
					}
					if mode == "scratch-contours" {
						if _, err := pipeline.BuildLayerContours(&c.settings, &j.t.spans.Grid, &j.t.layers.views[j.li], j.areas, &sc.labels); err != nil {
							b.Fatal(err)
						}
						continue
					}
					if err := lr.regions.Repair(j.areas, &rs.regions); err != nil || !rs.regions.Verdict.OK() {
						b.Fatal(err, rs.regions.Verdict)
					}
					if err := lr.contours.Repair(j.areas, rs.regions.IDs, rs.regions.Removed, &rs.contours); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e3/float64(b.N*len(jt.jobs)), "µs/layer")
		})
	}
	for _, mode := range []string{"repair", "scratch"} {
		b.Run(mode, func(b *testing.B) {
			c.SetRepair(mode == "repair")
			defer c.SetRepair(true)
			repaired := 0
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				repaired = 0
				for _, j := range jt.jobs {
					at, err := c.grid.Place(j.t.tx, j.t.tz)
					if err != nil {
						b.Fatal(err)
					}
					_, rep, err := c.buildLayer(j.t, j.t.layers, j.li, at, j.areas, sc)
					if err != nil {
						b.Fatal(err)
					}
					if rep {
						repaired++
					}
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e3/float64(b.N*len(jt.jobs)), "µs/layer")
			b.ReportMetric(float64(repaired)/float64(len(jt.jobs)), "repaired/layer")
		})
	}
	f.reset(b)
}

// stageJob is one repaired layer build of the city cycle, stage by stage:
// the job, its repaired region ids and removed spans, a copy of its
// repaired contours, the polygon mesh and the built tile.
type stageJob struct {
	layerJob
	lr      *layerRepair
	at      pipeline.TilePlace
	ids     []uint16
	removed []int32
	set     *contour.Set
	mesh    *polymesh.Mesh
	built   *navmesh.BuiltTile
	first   *navmesh.BuiltTile // the tile the mesh holds for the layer
}

// copySet returns a copy of s deep enough for the polygon stage (the
// contours and their vertices; the loops are not copied).
func copySet(s *contour.Set) *contour.Set {
	c := *s
	c.Loops = nil
	c.Contours = slices.Clone(s.Contours)
	for i := range c.Contours {
		c.Contours[i].Verts = slices.Clone(c.Contours[i].Verts)
		c.Contours[i].RawVerts, c.Contours[i].Loops = nil, nil
	}
	return &c
}

// BenchmarkLayerStages times the stages of the repaired layer builds of
// one city cycle (tile 64, layers, no detail sampling; the 16 cylinders of
// CityCyclePoints) apart, each over the same inputs: "regions"
// (region.RepairBase.Repair), "contours" (contour.RepairBase.Repair),
// "polys" (polymesh.BuildMapped), "tile" (navmesh.BuildTile; the meshes
// and tiles recycled as the cache recycles them) and "swap"
// (Mesh.ReplaceBuilt with the built tile, then with the mesh's own back:
// two swaps per layer). One op is every layer of the cycle; µs/layer is
// per layer build (per swap pair for "swap"). Run with -benchmem.
func BenchmarkLayerStages(b *testing.B) {
	f, c, jt := tracedCityCycle(b)
	sc := new(buildScratch)
	rs := &sc.repair
	s := &c.settings
	var jobs []stageJob
	for _, j := range jt.jobs {
		lr, err := c.layerRepairOf(j.t, j.t.layers, j.li, sc)
		if err != nil {
			b.Fatal(err)
		}
		at, err := c.grid.Place(j.t.tx, j.t.tz)
		if err != nil {
			b.Fatal(err)
		}
		if err := lr.regions.Repair(j.areas, &rs.regions); err != nil || !rs.regions.Verdict.OK() {
			b.Fatal(err, rs.regions.Verdict)
		}
		if err := lr.contours.Repair(j.areas, rs.regions.IDs, rs.regions.Removed, &rs.contours); err != nil {
			b.Fatal(err)
		}
		sj := stageJob{layerJob: j, lr: lr, at: at, ids: slices.Clone(rs.regions.IDs), removed: slices.Clone(rs.regions.Removed), set: copySet(rs.contours.Set)}
		if sj.mesh, err = polymesh.BuildMapped(sj.set, s.VertsPerPoly, &at.Map); err != nil {
			b.Fatal(err)
		}
		if sj.built, err = navmesh.BuildTile(sj.mesh, nil, stageTileParams(s, &sj)); err != nil {
			b.Fatal(err)
		}
		ref, ok := c.mesh.TileAt(int32(at.TX), int32(at.TZ), uint8(j.t.layers.views[j.li].Layer))
		if !ok {
			b.Fatal("no tile")
		}
		if sj.first, err = c.mesh.Built(ref); err != nil {
			b.Fatal(err)
		}
		jobs = append(jobs, sj)
	}
	stages := []struct {
		name string
		run  func(j *stageJob) error
	}{
		{"regions", func(j *stageJob) error { return j.lr.regions.Repair(j.areas, &rs.regions) }},
		{"contours", func(j *stageJob) error {
			return j.lr.contours.Repair(j.areas, j.ids, j.removed, &rs.contours)
		}},
		{"polys", func(j *stageJob) error {
			m, err := polymesh.BuildMapped(j.set, s.VertsPerPoly, &j.at.Map)
			polymesh.Recycle(m) // as the cache does
			return err
		}},
		{"tile", func(j *stageJob) error {
			bt, err := navmesh.BuildTile(j.mesh, nil, stageTileParams(s, j))
			bt.Recycle() // as the cache does
			return err
		}},
		{"swap", func(j *stageJob) error {
			if _, err := c.mesh.ReplaceBuilt(j.built); err != nil {
				return err
			}
			_, err := c.mesh.ReplaceBuilt(j.first)
			return err
		}},
	}
	for _, st := range stages {
		b.Run(st.name, func(b *testing.B) {
			// Thread CPU time too, which a loaded machine's other work
			// does not inflate as much as the wall time.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ReportAllocs()
			b.ResetTimer()
			cpu0, _ := cputime.Thread()
			for range b.N {
				for i := range jobs {
					if err := st.run(&jobs[i]); err != nil {
						b.Fatal(err)
					}
				}
			}
			cpu1, ok := cputime.Thread()
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e3/float64(b.N*len(jobs)), "µs/layer")
			if ok {
				b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/1e3/float64(b.N*len(jobs)), "cpu-µs/layer")
			}
		})
	}
	f.reset(b)
}

// stageTileParams are the tile parameters pipeline.BuildLayerFromContours
// gives job j's layer (no off-mesh links).
func stageTileParams(s *pipeline.NavSettings, j *stageJob) navmesh.TileParams {
	return navmesh.TileParams{
		TileX: int32(j.at.TX), TileZ: int32(j.at.TZ), Layer: uint8(j.t.layers.views[j.li].Layer),
		WalkableHeightM: s.AgentHeightM, WalkableRadiusM: s.AgentRadiusM, WalkableClimbM: s.AgentMaxClimbM,
	}
}

// TestCycleAllocations: once warm, the city cycle (RunCycle: 32 updates,
// 25 layer builds) on one worker allocates fewer than 100 times, its
// results, polygon meshes and tiles in recycled memory (docs/tilecache.md
// §8). The figure is an average over cycles, so a collection emptying the
// pools once is absorbed. (Several workers add their goroutines' start.)
func TestCycleAllocations(t *testing.T) {
	if testing.Short() {
		t.Skip("needs the city fixture and several cycles")
	}
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops items at random")
	}
	f := getFixture(t, config{"city", pipeline.Layers, true})
	c := f.reset(t)
	defer func(w int) { c.workers = w }(c.workers)
	c.workers = 1
	var obs []voxel.Obstacle
	for _, p := range CityCyclePoints() {
		obs = append(obs, CycleObstacle(p))
	}
	for range 3 {
		if _, err := c.RunCycle(obs); err != nil {
			t.Fatal(err)
		}
	}
	var err error
	allocs := testing.AllocsPerRun(5, func() {
		if _, e := c.RunCycle(obs); e != nil {
			err = e
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%.0f allocations per cycle", allocs)
	if allocs >= 100 {
		t.Errorf("%.0f allocations per cycle, want fewer than 100", allocs)
	}
	if err := sameTiles(meshTiles(t, c.Mesh()), plainOf(t, f)); err != nil {
		t.Error(err)
	}
	f.reset(t)
}

// tracedCityCycle runs one city cycle (tile 64, layers, no detail
// sampling; the cylinders of CityCyclePoints) on a fresh cache with a
// jobTrace, and returns the fixture (reset it when done), the cache and
// the layer builds the trace saw.
func tracedCityCycle(b *testing.B) (*fixture, *Cache, *jobTrace) {
	b.Helper()
	f := getFixture(b, config{"city", pipeline.Layers, true})
	c := f.reset(b)
	jt := &jobTrace{c: c}
	c.SetTrace(jt)
	var obs []voxel.Obstacle
	for _, p := range CityCyclePoints() {
		obs = append(obs, CycleObstacle(p))
	}
	if _, err := c.RunCycle(obs); err != nil {
		b.Fatal(err)
	}
	c.SetTrace(nil)
	return f, c, jt
}
