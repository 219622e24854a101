package ui

import (
	"fmt"
	"image"
	"testing"

	"navviz/ui/session"
)

// BenchmarkSceneBuildMoving compares the rendering of city (level alone)
// for a still view (full resolution) with a moving one (jobs.go: half
// resolution); "prims" is what the rasterizer set up.
//
//	xvfb-run -a go test -run '^$' -bench SceneBuild ./ui
func BenchmarkSceneBuildMoving(b *testing.B) {
	a := session.NewApp()
	if err := a.Load("city"); err != nil {
		b.Fatal(err)
	}
	a.SetViewport(testW, testH)
	for _, scale := range []int{1, movingScale} {
		b.Run(fmt.Sprintf("scale%d", scale), func(b *testing.B) {
			key := sceneKey(a, image.Rect(0, 0, testW, testH))
			key.scale = scale
			snap := visibleScene(a.Scene())
			var v sceneView
			for b.Loop() {
				key.cam.YawRad += 0.01 // a new view each time
				v.buildKey(snap, key)
			}
			b.ReportMetric(float64(v.drawnTris), "prims")
		})
	}
}

// TestSpreadOf: the benchmark's median and 95th percentile are order
// statistics of the samples (nearest rank).
func TestSpreadOf(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want Spread
	}{
		{nil, Spread{}},
		{[]float64{5}, Spread{N: 1, Median: 5, P95: 5, Max: 5}},
		{[]float64{4, 1, 3, 2}, Spread{N: 4, Median: 2, P95: 4, Max: 4}},
		{func() []float64 {
			s := make([]float64, 100)
			for i := range s {
				s[i] = float64(100 - i)
			}
			return s
		}(), Spread{N: 100, Median: 50, P95: 95, Max: 100}},
	} {
		if got := spreadOf(tc.in); got != tc.want {
			t.Errorf("spreadOf(%v) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

// TestBenchOptions: the benchmark's frame count and stats file go
// together, the scope is a known name, and a benchmark is neither a
// scenario nor a frame-counted run.
func TestBenchOptions(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Options
		ok   bool
	}{
		{"bench", Options{BenchFrames: 60, StatsJSON: "s.json"}, true},
		{"bench scope all", Options{BenchFrames: 60, StatsJSON: "s.json", Scope: "all"}, true},
		{"no file", Options{BenchFrames: 60}, false},
		{"file only", Options{StatsJSON: "s.json"}, false},
		{"negative", Options{BenchFrames: -1, StatsJSON: "s.json"}, false},
		{"with frames", Options{BenchFrames: 60, StatsJSON: "s.json", Frames: 3}, false},
		{"with scenario", Options{BenchFrames: 60, StatsJSON: "s.json", Scenario: "x.json"}, false},
		{"bad scope", Options{Scope: "everything"}, false},
		{"scope neighbours", Options{Scope: "neighbours"}, true},
	} {
		_, err := tc.o.normalize()
		if (err == nil) != tc.ok {
			t.Errorf("%s: normalize error %v, want ok %v", tc.name, err, tc.ok)
		}
	}
	for name, want := range map[string]session.SpanScope{"": session.DefaultSpanScope, "selected": session.ScopeSelected, "neighbours": session.ScopeNeighbours, "all": session.ScopeAll} {
		if got, err := session.ParseScope(name); err != nil || got != want {
			t.Errorf("parseScope(%q) = %v, %v, want %v", name, got, err, want)
		}
	}
}

// TestScaleNearest: the view's CPU upscale picks, for every output pixel,
// the source pixel its position falls in, for whole and other factors.
func TestScaleNearest(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 5, 3))
	for i := range src.Pix {
		src.Pix[i] = uint8(i)
	}
	for _, sz := range [][2]int{{10, 6}, {7, 4}, {5, 3}, {3, 2}, {0, 4}} {
		w, h := sz[0], sz[1]
		got := scaleNearest(nil, src, w, h)
		if len(got) != 4*w*h && !(w == 0 && len(got) == 0) {
			t.Fatalf("%dx%d: %d bytes", w, h, len(got))
		}
		for y := range h {
			for x := range w {
				o := src.PixOffset(x*5/w, y*3/h)
				if p := got[4*(y*w+x):][:4]; string(p) != string(src.Pix[o:o+4]) {
					t.Fatalf("%dx%d: pixel %d,%d = %v, want %v", w, h, x, y, p, src.Pix[o:o+4])
				}
			}
		}
	}
}
