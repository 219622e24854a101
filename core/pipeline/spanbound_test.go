package pipeline

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/level/leveltest"
	"navviz/core/voxel"
)

// towerOBJ returns the OBJ text of a tower: floors square floors of side
// sideM, gapM apart from y 0, each one quad of two triangles facing up
// (the navmesh command's test level for stacked floors: `navmesh build`
// of the 200 m, 100-floor one is the figure in docs/build.md §5.1).
func towerOBJ(sideM float64, floors int, gapM float64) string {
	var b strings.Builder
	for i := 0; i < floors; i++ {
		y := float64(i) * gapM
		fmt.Fprintf(&b, "v 0 %g 0\nv %g %g 0\nv %g %g %g\nv 0 %g %g\n", y, sideM, y, sideM, y, sideM, y, sideM)
		k := 4 * i
		fmt.Fprintf(&b, "f %d %d %d\nf %d %d %d\n", k+1, k+3, k+2, k+1, k+4, k+3)
	}
	return b.String()
}

// towerSource reads towerOBJ's text into a named source.
func towerSource(t testing.TB, sideM float64, floors int, gapM float64) *Source {
	t.Helper()
	name := fmt.Sprintf("tower-%gm-%dx%gm.obj", sideM, floors, gapM)
	soup, err := level.ReadOBJ(strings.NewReader(towerOBJ(sideM, floors, gapM)), name)
	if err != nil {
		t.Fatal(err)
	}
	src, err := NewSoupSource(soup, nil)
	if err != nil {
		t.Fatal(err)
	}
	return src.Named(name)
}

// TestGridsHolding compares gridsHolding with a count cell by cell.
func TestGridsHolding(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 1))
	for _, tb := range [][2]int{{8, 0}, {8, 3}, {8, 20}, {64, 5}, {17, 9}} {
		tile, border := tb[0], tb[1]
		for tiles := 1; tiles <= 5; tiles++ {
			cells := tiles * tile
			for i := 0; i < 50; i++ {
				lo := rng.IntN(cells)
				hi := lo + rng.IntN(cells-lo)
				want := int64(0)
				for x := lo; x <= hi; x++ {
					for k := 0; k < tiles; k++ {
						if x >= k*tile-border && x < (k+1)*tile+border {
							want++
						}
					}
				}
				if got := gridsHolding(lo, hi, tile, border, tiles); got != want {
					t.Fatalf("tile %d border %d tiles %d: gridsHolding(%d, %d) = %d, want %d", tile, border, tiles, lo, hi, got, want)
				}
			}
		}
	}
}

// TestSpanBoundCoversBuild builds levels keeping their stages and checks
// the estimate's span bounds: at least the solid spans of every build grid
// and the open spans kept, and for stacked floors equal to them within
// the diagonals' columns (which both triangles of a floor count).
func TestSpanBoundCoversBuild(t *testing.T) {
	terrain, err := level.Builtin("terrain")
	if err != nil {
		t.Fatal(err)
	}
	terrainSrc, err := NewSoupSource(terrain, nil)
	if err != nil {
		t.Fatal(err)
	}
	square, err := NewSoupSource(squareSoup(60), nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		src   *Source
		solo  bool
		tight bool // the bound is within 5% of the solid spans
	}{
		{"square", square, false, true},
		{"square solo", square, true, true},
		{"terrain", terrainSrc, false, false},
		{"tower, walkable floors", towerSource(t, 20, 12, 3), false, true},
		{"tower, walkable floors, solo", towerSource(t, 20, 12, 3), true, true},
		{"tower, floors too close for the agent", towerSource(t, 20, 12, 2), false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := DefaultSettings()
			opt := BuildOptions{KeepStages: true}
			estimate, build := EstimateBuild, BuildLevel
			if tc.solo {
				estimate, build = EstimateSolo, BuildSolo
			}
			e, err := estimate(&s, tc.src, opt)
			if err != nil {
				t.Fatal(err)
			}
			b, err := build(context.Background(), &s, tc.src, opt)
			if err != nil {
				t.Fatal(err)
			}
			solid := int64(0)
			for i := range b.Tiles {
				solid += int64(b.Tiles[i].Stages.Solid.SpanCount())
			}
			if e.Partial || e.SolidSpans < solid || e.WalkableSpans < int64(b.SpanCount) || e.WalkableSpans > e.SolidSpans {
				t.Errorf("estimate %v: solid %d, walkable %d spans; the build has %d solid, %d open spans",
					e, e.SolidSpans, e.WalkableSpans, solid, b.SpanCount)
			}
			if tc.tight && float64(e.SolidSpans) > 1.05*float64(solid) {
				t.Errorf("span bound %d, more than 5%% above the build's %d solid spans", e.SolidSpans, solid)
			}
		})
	}
}

// heapPeak runs f while sampling the heap's allocated bytes (live and
// not yet collected: the memory the process must hold) every
// millisecond, and returns the most seen minus the heap before f.
func heapPeak(f func()) int64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() int64 {
		metrics.Read(sample)
		return int64(sample[0].Value.Uint64())
	}
	runtime.GC()
	base := read()
	var peak atomic.Int64
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			if v := read() - base; v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	if v := read() - base; v > peak.Load() {
		peak.Store(v)
	}
	close(stop)
	<-done
	return peak.Load()
}

// TestEstimateStackedFloors builds a tower of 20 walkable floors (OBJ
// text read by level.ReadOBJ) on one and two workers, with and without
// KeepStages, and checks the estimate is at least the build's peak heap
// and the one-worker estimate at most twice it (the peak varies by a fifth
// from run to run with the collector's timing, and by whether the workers
// overlapped). Counting columns only, it was 10 to 20 times below.
func TestEstimateStackedFloors(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a tower four times (1.5 s)")
	}
	src := towerSource(t, 50, 20, 3)
	s := DefaultSettings()
	for _, keep := range []bool{false, true} {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("KeepStages %v, %d workers", keep, workers), func(t *testing.T) {
				opt := BuildOptions{Workers: workers, KeepStages: keep}
				e, err := EstimateBuild(&s, src, opt)
				if err != nil {
					t.Fatal(err)
				}
				var b *Build
				peak := heapPeak(func() {
					if b, err = BuildLevel(context.Background(), &s, src, opt); err != nil {
						t.Fatal(err)
					}
				})
				runtime.KeepAlive(b)
				ratio := float64(e.Bytes) / float64(peak)
				t.Logf("estimate %v; peak heap %s: estimate/peak %.2f", e, FormatBytes(peak), ratio)
				// Above the peak (1.1 to 1.8 times it measured), with a
				// margin for the collector's timing.
				if ratio < 0.9 {
					t.Errorf("estimate %s, peak heap %s: ratio %.2f, want at least 1 (0.9 allowed for the collector's timing)", FormatBytes(e.Bytes), FormatBytes(peak), ratio)
				}
				// Within twice it: the estimate counts every worker's
				// scratch at once, but on a loaded machine the workers
				// may not overlap, so the bound holds for the estimate
				// of the one worker that surely ran.
				one := opt
				one.Workers = 1
				e1, err := EstimateBuild(&s, src, one)
				if err != nil {
					t.Fatal(err)
				}
				if r1 := float64(e1.Bytes) / float64(peak); r1 > 2 {
					t.Errorf("one worker's estimate %s, peak heap %s: ratio %.2f, want at most 2", FormatBytes(e1.Bytes), FormatBytes(peak), r1)
				}
			})
		}
	}
}

// TestStackedFloorsRefusedUpFront: a memory budget below the estimate of
// a tower refuses its build before any tile is built, naming the spans;
// a budget the span count crosses stops the count there (Partial), and the
// cache of counts never takes a stopped count for a full one.
func TestStackedFloorsRefusedUpFront(t *testing.T) {
	src := towerSource(t, 30, 100, 3)
	s := DefaultSettings()
	full, err := EstimateBuild(&s, src.Named(src.Name()), BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if full.Partial || full.WalkableSpans < 100*full.Columns/2 {
		t.Fatalf("estimate %v: want about 100 spans a column", full)
	}
	// The bytes without spans: a budget just above them starts the count.
	base := full.Columns*bytesPerColumn + full.Tiles*bytesPerTile +
		min(int64(runtime.GOMAXPROCS(0)), full.Tiles)*full.ColumnsPerTile*bytesPerColumn
	for _, tc := range []struct {
		name    string
		max     int64
		partial bool
	}{
		{"just below", full.Bytes - 1, false},
		{"halfway", full.Bytes / 2, true},
		{"just above the columns", base + 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := towerSource(t, 30, 100, 3) // nothing counted yet
			built := 0
			opt := BuildOptions{Limits: BuildLimits{MaxBytes: tc.max},
				Progress: func(int, int) { built++ },
				Take:     func(*TileBuild) error { built++; return nil }}
			_, err := BuildLevel(context.Background(), &s, src, opt)
			le := checkLimitErr(t, "BuildLevel", err, "MaxBytes", src.Name())
			if built != 0 {
				t.Errorf("%d tiles built before the refusal", built)
			}
			e := le.Estimate
			if !strings.Contains(err.Error(), " spans (") || e.Partial != tc.partial {
				t.Errorf("error %q, partial %v; want the spans named, partial %v", err, e.Partial, tc.partial)
			}
			if tc.partial && !(e.SolidSpans < full.SolidSpans && e.Bytes > tc.max && strings.Contains(err.Error(), "at least")) {
				t.Errorf("stopped count %d spans, %d bytes (full %d spans); want fewer spans, over %d bytes, \"at least\"",
					e.SolidSpans, e.Bytes, full.SolidSpans, tc.max)
			}
			again, err := EstimateBuild(&s, src, BuildOptions{})
			if err != nil || again != full {
				t.Errorf("after the stopped count: estimate %v, %v; want %v", again, err, full)
			}
		})
	}
}

// TestSpanBoundVoxelSource: a voxel source's spans are counted as they
// are, once per build grid holding them.
func TestSpanBoundVoxelSource(t *testing.T) {
	s := DefaultSettings()
	g := voxel.Grid{Width: 100, Height: 70, CellSizeM: s.CellSizeM, CellHeightM: s.CellHeightM, MaxM: geom.V3(30, 10, 21)}
	cols := make([][]voxel.Span, g.Width*g.Height)
	for i := range cols {
		cols[i] = []voxel.Span{{MinRow: 0, MaxRow: 1, Area: voxel.AreaWalkable}, {MinRow: 20, MaxRow: 21}}
	}
	hf, err := voxel.NewHeightfieldFromColumns(g, cols)
	if err != nil {
		t.Fatal(err)
	}
	src, err := NewVoxelSource(hf)
	if err != nil {
		t.Fatal(err)
	}
	e, err := EstimateBuild(&s, src, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := BuildLevel(context.Background(), &s, src, BuildOptions{KeepStages: true})
	if err != nil {
		t.Fatal(err)
	}
	solid := int64(0)
	for i := range b.Tiles {
		solid += int64(b.Tiles[i].Stages.Solid.SpanCount())
	}
	if e.SolidSpans != solid || e.WalkableSpans != solid/2 {
		t.Errorf("estimate %d solid, %d walkable spans; the build has %d solid spans, half walkable", e.SolidSpans, e.WalkableSpans, solid)
	}
	solo, err := EstimateSolo(&s, src, BuildOptions{})
	if err != nil || solo.SolidSpans != int64(2*len(cols)) {
		t.Errorf("solo estimate %v (%v), want %d solid spans", solo, err, 2*len(cols))
	}
}

// TestSpanBoundZeroSource: a zero Source has nothing to count; its
// estimates pass and its builds fail, none panics.
func TestSpanBoundZeroSource(t *testing.T) {
	s := DefaultSettings()
	for _, estimate := range []func(*NavSettings, *Source, BuildOptions) (BuildEstimate, error){EstimateBuild, EstimateSolo} {
		if e, err := estimate(&s, &Source{}, BuildOptions{}); err != nil || e.SolidSpans != 0 {
			t.Errorf("estimate of a zero Source: %v, %v", e, err)
		}
	}
	if _, err := BuildLevel(context.Background(), &s, &Source{}, BuildOptions{}); err == nil {
		t.Error("BuildLevel of a zero Source: no error")
	}
}

// TestSpanBoundLimitsFirst: a level over the tiles, columns or bytes
// without spans is refused without counting its spans.
func TestSpanBoundLimitsFirst(t *testing.T) {
	for _, tc := range limitCases() {
		s, src := tc.src(t)
		_, err := EstimateBuild(s, src, BuildOptions{})
		var le *LimitError
		if !errors.As(err, &le) || le.Estimate.SolidSpans != 0 || len(src.spans.m) != 0 {
			t.Errorf("%s: %v, %d spans counted; want a LimitError before the count", tc.name, err, le.Estimate.SolidSpans)
		}
	}
}

// TestEstimateCalibration prints the calibration table of limits.go: for
// each level the span bounds per build-grid column, the peak heap of
// BuildLevel per column and the estimate over the peak, on one and two
// workers, without and with KeepStages. It runs only with
// NAVVIZ_CALIBRATE_ESTIMATE=1 (about two minutes: the 100-floor tower).
func TestEstimateCalibration(t *testing.T) {
	if os.Getenv("NAVVIZ_CALIBRATE_ESTIMATE") == "" {
		t.Skip("set NAVVIZ_CALIBRATE_ESTIMATE=1 to measure the estimate's calibration")
	}
	s := DefaultSettings()
	type lvl struct {
		name string
		src  *Source
	}
	var levels []lvl
	for _, name := range []string{"city", "terrain", "nav_test", "dungeon"} {
		src, err := NewSoupSource(leveltest.Soup(t, name), nil)
		if err != nil {
			t.Fatal(err)
		}
		levels = append(levels, lvl{name, src})
	}
	levels = append(levels, lvl{"20 floors", towerSource(t, 50, 20, 3)}, lvl{"100 floors", towerSource(t, 50, 100, 3)},
		lvl{"100 floors 2 m", towerSource(t, 50, 100, 2)})
	for _, l := range levels {
		row := ""
		var peaks, ratios []string
		for _, keep := range []bool{false, true} {
			for _, workers := range []int{1, 2} {
				opt := BuildOptions{Workers: workers, KeepStages: keep}
				e, err := EstimateBuild(&s, l.src, opt)
				if err != nil {
					t.Fatal(err)
				}
				var b *Build
				peak := heapPeak(func() {
					if b, err = BuildLevel(context.Background(), &s, l.src, opt); err != nil {
						t.Fatal(err)
					}
				})
				runtime.KeepAlive(b)
				cols := float64(e.Columns)
				row = fmt.Sprintf("%-15s %.2f / %.2f", l.name, float64(e.WalkableSpans)/cols, float64(e.SolidSpans)/cols)
				peaks = append(peaks, fmt.Sprintf("%.1f", float64(peak)/cols))
				ratios = append(ratios, fmt.Sprintf("%.1f", float64(e.Bytes)/float64(peak)))
			}
		}
		t.Logf("%s   peak B/column %s / %s (%s / %s)   estimate/peak %s / %s (%s / %s)", row,
			peaks[0], peaks[1], peaks[2], peaks[3], ratios[0], ratios[1], ratios[2], ratios[3])
	}
}
