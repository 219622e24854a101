package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/pipeline"
	"navviz/core/voxel"
	"navviz/tilecache"
)

// readPoints reads obstacle base points, one "x y z" (metres) per line;
// blank lines and lines starting with # are skipped. Errors name the line.
func readPoints(r io.Reader, name string) ([]geom.Vec3, error) {
	var pts []geom.Vec3
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Fields(text)
		if len(f) != 3 {
			return nil, fmt.Errorf("%s:%d: %d numbers, want 3 (x y z)", name, line, len(f))
		}
		var v [3]float32
		for i, s := range f {
			x, err := strconv.ParseFloat(s, 32)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %q is not a number", name, line, s)
			}
			v[i] = float32(x)
		}
		pts = append(pts, geom.V3(v[0], v[1], v[2]))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(pts) == 0 {
		return nil, fmt.Errorf("%s: no points", name)
	}
	return pts, nil
}

// benchResult is what navmesh bench measured.
type benchResult struct {
	level                     string
	triangles                 int
	settings                  pipeline.NavSettings
	buildMs                   float64
	cachedTiles, positions    int
	navTiles, polys           int
	obstacles, cycles         int
	medianMs, minMs, maxMs    float64
	scratchMedianMs           float64 // the same cycles with the layer repair off
	layersPerCycle            float64
	repairedPerCycle          float64
	tilesPerCycle, removedPer float64
	peakSys, peakHeap         uint64
}

// runBench implements
//
//	navmesh bench [LEVEL] [--level FILE.obj] [--points FILE.txt] [--cycles N] [--warmup N] [--workers N]
//
// It builds the level with a cache (tile 64 cells, layers, no detail
// sampling: the spec's cheap rebuild setting), then runs the cycle of
// build3d-runtime.md ("Cost of a rebuild"; tilecache.RunCycle): one
// cylinder (radius 1 m, height 2 m, base 0.5 m below the point) per base
// point, added one at a time, each followed by UpdateAll, then removed one
// at a time in the same order, each followed by UpdateAll. On the built-in
// city the points are tilecache.CityCyclePoints; any other level needs
// --points. It prints the full build time, the tiles, layers and polygons,
// the median, min and max milliseconds per cycle, the median again with the
// layer repair off (Cache.SetRepair) and the ratio, the layer rebuilds per
// cycle and how many were repaired, and the peak memory.
func runBench(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench", "[LEVEL] [--level FILE.obj] [--points FILE.txt] [--cycles N] [--warmup N] [--workers N]", stdout)
	levelFlag := fs.String("level", "", "the level: a built-in name (city, terrain) or a Wavefront OBJ `file` (same as the LEVEL argument)")
	pointsFlag := fs.String("points", "", "obstacle base points, one `x y z` per line (metres; default on city: its 16 street points)")
	cycles := fs.Int("cycles", 20, "measured cycles")
	warmup := fs.Int("warmup", 2, "cycles run before measuring")
	workers := fs.Int("workers", 0, "goroutines for the full build (0: every CPU); the cycles run on one")
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
	case *pointsFlag != "":
		f, err := os.Open(*pointsFlag)
		if err != nil {
			return err
		}
		pts, err = readPoints(f, *pointsFlag)
		f.Close()
		if err != nil {
			return err
		}
	case name == "city":
		pts = tilecache.CityCyclePoints()
	default:
		return usagef("--points FILE.txt is needed for level %q (only city has built-in points)", name)
	}
	soup, err := level.Load(name)
	if err != nil {
		return err
	}
	r, err := bench(name, soup, pts, *cycles, *warmup, *workers, *limits)
	if err != nil {
		return err
	}
	return writeBench(stdout, r)
}

// bench builds soup with a cache (refused over limits) and runs warmup +
// cycles cycles.
func bench(name string, soup *level.Soup, pts []geom.Vec3, cycles, warmup, workers int, limits pipeline.BuildLimits) (*benchResult, error) {
	obs := make([]voxel.Obstacle, len(pts))
	for i, p := range pts {
		obs[i] = tilecache.CycleObstacle(p)
		if err := obs[i].Validate(); err != nil {
			return nil, fmt.Errorf("point %d %v: %w", i+1, p, err)
		}
	}
	r := &benchResult{level: name, triangles: len(soup.Tris), obstacles: len(obs), cycles: cycles}
	s := pipeline.DefaultSettings()
	s.Partition, s.DetailSampleDistCells = pipeline.Layers, 0
	r.settings = s
	var ms runtime.MemStats
	sample := func() {
		runtime.ReadMemStats(&ms)
		r.peakSys = max(r.peakSys, ms.Sys)
		r.peakHeap = max(r.peakHeap, ms.HeapAlloc)
	}
	ch, err := level.NewChunky(soup, 256)
	if err != nil {
		return nil, err
	}
	src, err := pipeline.NewSoupSource(soup, ch)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	c, err := tilecache.Build(context.Background(), &s, src.Named(name), tilecache.Options{Workers: workers, Limits: limits})
	if err != nil {
		return nil, err
	}
	r.buildMs = float64(time.Since(t0).Nanoseconds()) / 1e6
	sample()
	r.cachedTiles = len(c.CachedTiles())
	m := c.Mesh()
	refs := m.Tiles()
	r.navTiles = len(refs)
	var last [2]int32
	for i, ref := range refs {
		t, err := m.Tile(ref)
		if err != nil {
			return nil, err
		}
		r.polys += len(t.Polys)
		if p := [2]int32{t.Header.TileX, t.Header.TileZ}; i == 0 || p != last {
			r.positions++
			last = p
		}
	}
	for range warmup {
		if _, err := c.RunCycle(obs); err != nil {
			return nil, err
		}
	}
	times := make([]float64, cycles)
	layers, repaired, tiles, removed := 0, 0, 0, 0
	for i := range cycles {
		t0 := time.Now()
		st, err := c.RunCycle(obs)
		if err != nil {
			return nil, err
		}
		times[i] = float64(time.Since(t0).Nanoseconds()) / 1e6
		layers += st.LayersBuilt
		repaired += st.LayersRepaired
		tiles += st.TilesRebuilt
		removed += st.RemovedSpans
		sample()
	}
	slices.Sort(times)
	r.medianMs = median(times)
	r.minMs, r.maxMs = times[0], times[cycles-1]
	// The same cycles with every layer built from scratch.
	c.SetRepair(false)
	for i := range cycles {
		t0 := time.Now()
		if _, err := c.RunCycle(obs); err != nil {
			return nil, err
		}
		times[i] = float64(time.Since(t0).Nanoseconds()) / 1e6
	}
	c.SetRepair(true)
	slices.Sort(times)
	r.scratchMedianMs = median(times)
	r.layersPerCycle = float64(layers) / float64(cycles)
	r.repairedPerCycle = float64(repaired) / float64(cycles)
	r.tilesPerCycle = float64(tiles) / float64(cycles)
	r.removedPer = float64(removed) / float64(cycles*len(obs))
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

func writeBench(w io.Writer, r *benchResult) error {
	var b strings.Builder
	s := &r.settings
	fmt.Fprintf(&b, "level           %s (%d triangles)\n", r.level, r.triangles)
	fmt.Fprintf(&b, "settings        tile %d cells, %v, detail sample distance %v cells, cell %v m, agent radius %v m\n",
		s.TileSizeCells, s.Partition, s.DetailSampleDistCells, s.CellSizeM, s.AgentRadiusM)
	fmt.Fprintf(&b, "full build      %.1f ms (with the cache)\n", r.buildMs)
	fmt.Fprintf(&b, "tiles           %d (tile positions with a navmesh tile; %d cached)\n", r.positions, r.cachedTiles)
	fmt.Fprintf(&b, "layers          %d (navmesh tiles)\n", r.navTiles)
	fmt.Fprintf(&b, "polys           %d\n", r.polys)
	fmt.Fprintf(&b, "cycle           %d cylinders added and removed one at a time, each followed by UpdateAll\n", r.obstacles)
	fmt.Fprintf(&b, "ms per cycle    %.3f median of %d (min %.3f, max %.3f)\n", r.medianMs, r.cycles, r.minMs, r.maxMs)
	fmt.Fprintf(&b, "without repair  %.3f ms median of %d (every layer from scratch; repair/scratch %.2f)\n",
		r.scratchMedianMs, r.cycles, r.medianMs/r.scratchMedianMs)
	fmt.Fprintf(&b, "layer rebuilds  %.1f per cycle, %.1f repaired (%.1f queued tiles per cycle, %.0f removed spans per obstacle)\n",
		r.layersPerCycle, r.repairedPerCycle, r.tilesPerCycle, r.removedPer)
	fmt.Fprintf(&b, "peak memory     %.1f MiB from the OS (runtime.MemStats.Sys), %.1f MiB heap in use\n",
		float64(r.peakSys)/(1<<20), float64(r.peakHeap)/(1<<20))
	_, err := io.WriteString(w, b.String())
	return err
}
