package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/pipeline"
	"navviz/core/region"
	"navviz/core/voxel"
	"navviz/internal/cputime"
	"navviz/tilecache"
)

// readPoints reads the obstacle base points of file, one "x y z" (metres)
// a line (readNumberLines: errors name the line).
func readPoints(file string) ([]geom.Vec3, error) {
	v, err := readNumberLines(file, "points file", 3, os.Stdin)
	if err != nil {
		return nil, err
	}
	if len(v) == 0 {
		return nil, fmt.Errorf("%s: no points", file)
	}
	pts := make([]geom.Vec3, len(v)/3)
	for i := range pts {
		pts[i] = geom.V3(v[3*i], v[3*i+1], v[3*i+2])
	}
	return pts, nil
}

// benchResult is what navmesh bench measured (its --json output).
// Durations are milliseconds; "per cycle" figures are means over the
// measured cycles unless named median or min.
type benchResult struct {
	Level     string `json:"level"`
	Triangles int    `json:"triangles"`
	// The settings: tile size, partition, detail sample distance, cell
	// size and agent radius.
	TileCells     int     `json:"tileCells"`
	Partition     string  `json:"partition"`
	DetailSample  float32 `json:"detailSampleDistCells"`
	CellM         float32 `json:"cellM"`
	AgentRadiusM  float32 `json:"agentRadiusM"`
	Workers       int     `json:"workers"`
	BuildMs       float64 `json:"buildMs"`
	BuildCPUMs    float64 `json:"buildProcessCPUMs"`
	CachedTiles   int     `json:"cachedTiles"`
	Positions     int     `json:"tilePositions"`
	NavTiles      int     `json:"navTiles"`
	Polys         int     `json:"polys"`
	LiveHeapBytes uint64  `json:"liveHeapBytesAfterBuild"`
	Obstacles     int     `json:"obstacles"`
	// Points are the base points --auto-points chose (none otherwise).
	Points []geom.Vec3 `json:"autoPoints,omitempty"`
	Cycles int         `json:"cycles"`
	// Wall time per cycle.
	MedianMs float64 `json:"wallMedianMs"`
	MinMs    float64 `json:"wallMinMs"`
	MaxMs    float64 `json:"wallMaxMs"`
	// CPU time per cycle of the OS thread running it (locked), and of the
	// whole process (workers and the garbage collector too); HasCPU false
	// where the system cannot tell.
	HasCPU           bool           `json:"hasCPU"`
	CPUMedianMs      float64        `json:"threadCPUMedianMs"`
	CPUMinMs         float64        `json:"threadCPUMinMs"`
	ProcessCPUMedian float64        `json:"processCPUMedianMs"`
	CPUPerLayerUs    float64        `json:"threadCPUPerLayerBuildUs"`
	ScratchMedianMs  float64        `json:"scratchWallMedianMs"` // the same cycles with the layer repair off
	ScratchCPUMedian float64        `json:"scratchThreadCPUMedianMs"`
	AllocsPerCycle   float64        `json:"allocsPerCycle"`
	AllocBytesPerCyc float64        `json:"allocBytesPerCycle"`
	LayersPerCycle   float64        `json:"layerBuildsPerCycle"`
	RepairedPerCycle float64        `json:"repairedPerCycle"`
	ScratchPerCycle  float64        `json:"fromScratchPerCycle"`
	TilesPerCycle    float64        `json:"queuedTilesPerCycle"`
	RemovedPer       float64        `json:"removedSpansPerObstacle"`
	Verdicts         []benchVerdict `json:"verdicts"`
	// Stages is the wall time of each part of Update per layer build, µs
	// (tilecache.UpdateTimes over as many more cycles, divided by their
	// layer builds).
	Stages   benchStages `json:"stagesUsPerLayerBuild"`
	PeakSys  uint64      `json:"peakSysBytes"`
	PeakHeap uint64      `json:"peakHeapBytes"`
	PeakRSS  uint64      `json:"peakRSSBytes"`
	// BuildPeakRSS is the peak RSS when the build has returned: of the
	// level's loading and the build (the cycles come after).
	BuildPeakRSS uint64 `json:"buildPeakRSSBytes"`
}

// benchVerdict counts the layer builds of one traced cycle with a repair
// verdict (region.Verdict; "ok": repaired).
type benchVerdict struct {
	Verdict string `json:"verdict"`
	Count   int    `json:"count"`
}

// benchStages are tilecache.UpdateTimes per layer build, µs.
type benchStages struct {
	Mark     float64 `json:"mark"`
	Layers   float64 `json:"layers"`
	Regions  float64 `json:"regions"`
	Contours float64 `json:"contours"`
	Polys    float64 `json:"polys"`
	Scratch  float64 `json:"scratch"`
	Swap     float64 `json:"swap"`
	Total    float64 `json:"total"`
}

// verdictCount is a tilecache.Trace counting the verdicts of the layers
// built.
type verdictCount [region.NumRepairReasons]int

func (v *verdictCount) CompareScratch() bool { return false }

func (v *verdictCount) Layer(lt *tilecache.LayerTrace) {
	if r := int(lt.Verdict.Reason); r < len(v) {
		v[r]++
	}
}

// runBench implements
//
//	navmesh bench [LEVEL] [--level FILE.obj] [--points FILE.txt | --auto-points N] [--cycles N] [--warmup N] [--workers N] [--json] [--cpuprofile FILE]
//
// It builds the level with a cache (tile 64 cells, layers, no detail
// sampling: the spec's cheap rebuild setting), then runs the cycle of
// build3d-runtime.md ("Cost of a rebuild"; tilecache.RunCycle): one
// cylinder (radius 1 m, height 2 m, base 0.5 m below the point) per base
// point, added one at a time, each followed by UpdateAll, then removed one
// at a time in the same order, each followed by UpdateAll. On the built-in
// city the points are tilecache.CityCyclePoints; any other level needs
// --points, or --auto-points N (tilecache.OpenFloorPoints: open floor of the built mesh). The cycles run with the goroutine locked to its OS thread. It
// prints the full build time, the tiles, layers and polygons, the live heap
// after the build; per cycle the wall time and the thread CPU time (median,
// min), the same with the layer repair off (Cache.SetRepair), allocations,
// layer builds (repaired, from scratch), the wall time of Update's parts
// per layer build over as many more cycles (tilecache.UpdateTimes) and the
// verdicts of one traced cycle; and the peak memory (Go runtime and the process's peak RSS). With
// --json it prints benchResult as JSON instead. --cpuprofile writes a CPU
// profile of the build and the cycles.
func runBench(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench", "[LEVEL] [--level FILE.obj] [--points FILE.txt | --auto-points N] [--cycles N] [--warmup N] [--workers N] [--json] [--cpuprofile FILE]", stdout)
	levelFlag := fs.String("level", "", "the level: a built-in name (city, terrain, city4x4) or a Wavefront OBJ `file` (same as the LEVEL argument)")
	pointsFlag := fs.String("points", "", "obstacle base points, one `x y z` per line (metres; default on city: its 16 street points)")
	autoPoints := fs.Int("auto-points", 0, "instead of --points: `N` base points on open floor of the built mesh (the centres of its N largest polygons at least 10 m apart; deterministic)")
	cycles := fs.Int("cycles", 20, "measured cycles")
	warmup := fs.Int("warmup", 200, "cycles run before measuring (until the heap stops growing, the first cycles run slower: fresh pages fault in)")
	workers := fs.Int("workers", 0, "goroutines building tiles (tilecache.Options.Workers; 0: every CPU)")
	asJSON := fs.Bool("json", false, "print the figures as JSON")
	profile := profileFlag(fs)
	limits := limitFlags(fs)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	name := *levelFlag
	switch {
	case len(pos) > 1:
		return usagef("unexpected argument %q", pos[1])
	case len(pos) == 1 && name != "" && name != pos[0]:
		return usagef("two levels: %q and --level %q", pos[0], name)
	case len(pos) == 1:
		name = pos[0]
	case name == "":
		return usagef("missing LEVEL (city, or --level FILE.obj --points FILE.txt)")
	}
	if *cycles < 1 || *warmup < 0 || *workers < 0 {
		return usagef("--cycles %d, --warmup %d, --workers %d: want at least 1, 0 and 0", *cycles, *warmup, *workers)
	}
	var pts []geom.Vec3
	switch {
	case *autoPoints < 0 || (*autoPoints > 0 && *pointsFlag != ""):
		return usagef("--auto-points %d with --points %q: want one of them, N >= 1", *autoPoints, *pointsFlag)
	case *autoPoints > 0: // chosen once the cache is built
	case *pointsFlag != "":
		if pts, err = readPoints(*pointsFlag); err != nil {
			return err
		}
	case name == "city" || name == "city4x4": // city4x4's first copy is city
		pts = tilecache.CityCyclePoints()
	default:
		return usagef("--points FILE.txt or --auto-points N is needed for level %q (only city and city4x4 have built-in points)", name)
	}
	if err := checkOutputs([]fileArg{{"--cpuprofile", *profile}},
		[]fileArg{{"LEVEL", levelFile(name)}, {"--points", *pointsFlag}}); err != nil {
		return err
	}
	soup, err := level.Load(name)
	if err != nil {
		return err
	}
	var r *benchResult
	if err := withCPUProfile(*profile, func() (err error) {
		r, err = bench(name, soup, pts, *autoPoints, *cycles, *warmup, *workers, *limits)
		return err
	}); err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	return writeBench(stdout, r)
}

// cycleTimes are the per-cycle figures of a run of cycles, sorted.
type cycleTimes struct {
	wall, thread, process []float64 // milliseconds
	mallocs, bytes        uint64    // over all the cycles
	st                    tilecache.CycleStats
}

// runCycles runs n cycles of obs on c, the goroutine locked to its OS
// thread, timing each.
func runCycles(c *tilecache.Cache, obs []voxel.Obstacle, n int) (*cycleTimes, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	ct := &cycleTimes{wall: make([]float64, n), thread: make([]float64, n), process: make([]float64, n)}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for i := range n {
		th0, _ := cputime.Thread()
		pr0, _ := cputime.Process()
		t0 := time.Now()
		st, err := c.RunCycle(obs)
		if err != nil {
			return nil, err
		}
		ct.wall[i] = ms(time.Since(t0))
		th1, _ := cputime.Thread()
		pr1, _ := cputime.Process()
		ct.thread[i], ct.process[i] = ms(th1-th0), ms(pr1-pr0)
		ct.st.LayersBuilt += st.LayersBuilt
		ct.st.LayersRepaired += st.LayersRepaired
		ct.st.TilesRebuilt += st.TilesRebuilt
		ct.st.RemovedSpans += st.RemovedSpans
	}
	runtime.ReadMemStats(&m1)
	ct.mallocs, ct.bytes = m1.Mallocs-m0.Mallocs, m1.TotalAlloc-m0.TotalAlloc
	slices.Sort(ct.wall)
	slices.Sort(ct.thread)
	slices.Sort(ct.process)
	return ct, nil
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// bench builds soup with a cache (refused over limits) and runs warmup +
// cycles cycles with the repair, cycles without it and one traced. With
// auto > 0 the points are autoPoints(mesh, auto) instead of pts.
func bench(name string, soup *level.Soup, pts []geom.Vec3, auto, cycles, warmup, workers int, limits pipeline.BuildLimits) (*benchResult, error) {
	r := &benchResult{Level: name, Triangles: len(soup.Tris), Cycles: cycles, Workers: workers}
	s := pipeline.DefaultSettings()
	s.Partition, s.DetailSampleDistCells = pipeline.Layers, 0
	r.TileCells, r.Partition, r.DetailSample = s.TileSizeCells, s.Partition.String(), s.DetailSampleDistCells
	r.CellM, r.AgentRadiusM = s.CellSizeM, s.AgentRadiusM
	var mst runtime.MemStats
	sample := func() {
		runtime.ReadMemStats(&mst)
		r.PeakSys = max(r.PeakSys, mst.Sys)
		r.PeakHeap = max(r.PeakHeap, mst.HeapAlloc)
	}
	src, err := levelSource(soup, name)
	if err != nil {
		return nil, err
	}
	p0, _ := cputime.Process()
	t0 := time.Now()
	c, err := tilecache.Build(context.Background(), &s, src, tilecache.Options{Workers: workers, Limits: limits})
	if err != nil {
		return nil, err
	}
	r.BuildMs = ms(time.Since(t0))
	r.BuildPeakRSS, _ = cputime.PeakRSS()
	p1, hasCPU := cputime.Process()
	r.BuildCPUMs, r.HasCPU = ms(p1-p0), hasCPU
	sample()
	runtime.GC()
	runtime.ReadMemStats(&mst)
	r.LiveHeapBytes = mst.HeapAlloc
	r.CachedTiles = len(c.CachedTiles())
	m := c.Mesh()
	if auto > 0 {
		if pts, err = tilecache.OpenFloorPoints(m, auto); err != nil {
			return nil, fmt.Errorf("--auto-points %d: %w", auto, err)
		}
		r.Points = pts
	}
	obs := make([]voxel.Obstacle, len(pts))
	for i, p := range pts {
		obs[i] = tilecache.CycleObstacle(p)
		if err := obs[i].Validate(); err != nil {
			return nil, fmt.Errorf("point %d %v: %w", i+1, p, err)
		}
	}
	r.Obstacles = len(obs)
	refs := m.Tiles()
	r.NavTiles = len(refs)
	var last [2]int32
	for i, ref := range refs {
		t, err := m.Tile(ref)
		if err != nil {
			return nil, err
		}
		r.Polys += len(t.Polys)
		if p := [2]int32{t.Header.TileX, t.Header.TileZ}; i == 0 || p != last {
			r.Positions++
			last = p
		}
	}
	if warmup > 0 {
		if _, err := runCycles(c, obs, warmup); err != nil {
			return nil, err
		}
	}
	ct, err := runCycles(c, obs, cycles)
	if err != nil {
		return nil, err
	}
	sample()
	n := float64(cycles)
	r.MedianMs, r.MinMs, r.MaxMs = median(ct.wall), ct.wall[0], ct.wall[cycles-1]
	r.CPUMedianMs, r.CPUMinMs, r.ProcessCPUMedian = median(ct.thread), ct.thread[0], median(ct.process)
	r.AllocsPerCycle, r.AllocBytesPerCyc = float64(ct.mallocs)/n, float64(ct.bytes)/n
	r.LayersPerCycle = float64(ct.st.LayersBuilt) / n
	r.RepairedPerCycle = float64(ct.st.LayersRepaired) / n
	r.ScratchPerCycle = float64(ct.st.LayersBuilt-ct.st.LayersRepaired) / n
	r.TilesPerCycle = float64(ct.st.TilesRebuilt) / n
	r.RemovedPer = float64(ct.st.RemovedSpans) / float64(cycles*len(obs))
	if ct.st.LayersBuilt > 0 {
		r.CPUPerLayerUs = r.CPUMedianMs * 1000 / r.LayersPerCycle
	}
	// The same cycles with every layer built from scratch.
	c.SetRepair(false)
	sc, err := runCycles(c, obs, cycles)
	c.SetRepair(true)
	if err != nil {
		return nil, err
	}
	r.ScratchMedianMs, r.ScratchCPUMedian = median(sc.wall), median(sc.thread)
	// The parts of Update, measured apart (a clock read around each).
	var ut tilecache.UpdateTimes
	c.SetUpdateTimes(&ut)
	pt, err := runCycles(c, obs, cycles)
	c.SetUpdateTimes(nil)
	if err != nil {
		return nil, err
	}
	if n := pt.st.LayersBuilt; n > 0 {
		us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 / float64(n) }
		r.Stages = benchStages{us(ut.Mark), us(ut.Layers), us(ut.Regions), us(ut.Contours), us(ut.Polys), us(ut.Scratch), us(ut.Swap), us(ut.Total())}
	}
	// One traced cycle for the verdicts (not timed: a trace costs time).
	var vc verdictCount
	c.SetTrace(&vc)
	_, err = c.RunCycle(obs)
	c.SetTrace(nil)
	if err != nil {
		return nil, err
	}
	for reason, k := range vc {
		if k > 0 {
			r.Verdicts = append(r.Verdicts, benchVerdict{region.RepairReason(reason).String(), k})
		}
	}
	sample()
	r.PeakRSS, _ = cputime.PeakRSS()
	return r, nil
}

// median returns the median of sorted (not empty).
func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }

func writeBench(w io.Writer, r *benchResult) error {
	var b strings.Builder
	fmt.Fprintf(&b, "level           %s (%d triangles)\n", r.Level, r.Triangles)
	fmt.Fprintf(&b, "settings        tile %d cells, %s, detail sample distance %v cells, cell %v m, agent radius %v m; workers %d (0: every CPU)\n",
		r.TileCells, r.Partition, r.DetailSample, r.CellM, r.AgentRadiusM, r.Workers)
	fmt.Fprintf(&b, "full build      %.1f ms wall, %.1f ms process CPU (with the cache)\n", r.BuildMs, r.BuildCPUMs)
	fmt.Fprintf(&b, "tiles           %d (tile positions with a navmesh tile; %d cached)\n", r.Positions, r.CachedTiles)
	fmt.Fprintf(&b, "layers          %d (navmesh tiles)\n", r.NavTiles)
	fmt.Fprintf(&b, "polys           %d\n", r.Polys)
	fmt.Fprintf(&b, "live heap       %.1f MiB after the build (after a GC)\n", mib(r.LiveHeapBytes))
	fmt.Fprintf(&b, "cycle           %d cylinders added and removed one at a time, each followed by UpdateAll\n", r.Obstacles)
	if len(r.Points) > 0 {
		ps := make([]string, len(r.Points))
		for i, p := range r.Points {
			ps[i] = fmt.Sprintf("(%.2f, %.2f, %.2f)", p.X, p.Y, p.Z)
		}
		fmt.Fprintf(&b, "auto points     %s\n", strings.Join(ps, " "))
	}
	fmt.Fprintf(&b, "ms per cycle    %.3f wall median of %d (min %.3f, max %.3f)\n", r.MedianMs, r.Cycles, r.MinMs, r.MaxMs)
	if r.HasCPU {
		note := ""
		if r.Workers != 1 {
			note = "; Update's other workers not included: --workers 1 for the whole cost"
		}
		fmt.Fprintf(&b, "CPU per cycle   %.3f ms thread CPU median (min %.3f; OS thread locked%s), %.3f ms process CPU median\n",
			r.CPUMedianMs, r.CPUMinMs, note, r.ProcessCPUMedian)
		fmt.Fprintf(&b, "CPU per layer   %.1f µs thread CPU per layer build (median cycle / layer builds)\n", r.CPUPerLayerUs)
		fmt.Fprintf(&b, "without repair  %.3f ms wall, %.3f ms thread CPU median of %d (every layer from scratch; repair/scratch %.2f CPU)\n",
			r.ScratchMedianMs, r.ScratchCPUMedian, r.Cycles, r.CPUMedianMs/r.ScratchCPUMedian)
	} else {
		fmt.Fprintf(&b, "without repair  %.3f ms median of %d (every layer from scratch; repair/scratch %.2f)\n",
			r.ScratchMedianMs, r.Cycles, r.MedianMs/r.ScratchMedianMs)
	}
	fmt.Fprintf(&b, "allocations     %.0f per cycle, %.1f KiB per cycle\n", r.AllocsPerCycle, r.AllocBytesPerCyc/1024)
	fmt.Fprintf(&b, "layer rebuilds  %.1f per cycle: %.1f repaired, %.1f from scratch (%.1f queued tiles per cycle, %.0f removed spans per obstacle)\n",
		r.LayersPerCycle, r.RepairedPerCycle, r.ScratchPerCycle, r.TilesPerCycle, r.RemovedPer)
	st := &r.Stages
	fmt.Fprintf(&b, "µs per layer    %.0f wall per layer build over %d more cycles: mark %.0f, layers %.0f, regions %.0f, contours %.0f, polys %.0f, scratch %.0f, swap %.0f\n",
		st.Total, r.Cycles, st.Mark, st.Layers, st.Regions, st.Contours, st.Polys, st.Scratch, st.Swap)
	var vs []string
	for _, v := range r.Verdicts {
		vs = append(vs, fmt.Sprintf("%s %d", v.Verdict, v.Count))
	}
	if len(vs) == 0 {
		vs = []string{"no layer built"}
	}
	fmt.Fprintf(&b, "verdicts        %s (one traced cycle)\n", strings.Join(vs, ", "))
	rss := "unknown"
	if r.PeakRSS > 0 {
		rss = fmt.Sprintf("%.1f MiB (%.1f MiB by the end of the build)", mib(r.PeakRSS), mib(r.BuildPeakRSS))
	}
	fmt.Fprintf(&b, "peak memory     %s RSS; %.1f MiB from the OS (runtime.MemStats.Sys), %.1f MiB heap in use\n",
		rss, mib(r.PeakSys), mib(r.PeakHeap))
	_, err := io.WriteString(w, b.String())
	return err
}
