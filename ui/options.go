package ui

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"navviz/ui/session"
)

// Default window size in pixels.
const (
	DefaultWidth  = 1280
	DefaultHeight = 800
)

// DefaultLevel is the level navviz opens when none is given.
const DefaultLevel = "city"

// Options configures Run.
type Options struct {
	// Level is the level to open: a built-in name or an OBJ or glTF path.
	Level string
	// Width and Height are the initial window size in pixels.
	Width, Height int
	// Frames, when positive, makes navviz exit after drawing that many
	// frames (saving Screenshot first when it is set).
	Frames int
	// Screenshot, when set, is the PNG path written after Frames frames;
	// navviz then exits. Frames defaults to 10 when only Screenshot is set.
	Screenshot string
	// Build starts the plain build of the level (default settings) when
	// navviz opens; the first result frames the selected tile. With Frames,
	// the frames are counted once the build has ended.
	Build bool
	// Overlays, when not nil, names the overlays shown at start (every
	// other one hidden): level overlays (input, grid), span and mesh
	// overlays, selection, picked. An unknown name is an error.
	Overlays []string
	// DemoObstacles, when positive, runs the tile cache demo on start
	// (Game.demoScene): the obstacle preset, a cache build, that many
	// obstacles placed through the Obstacle tool (and a volume), an
	// update. With Frames, the frames are counted once it has run.
	DemoObstacles int
	// AutoCache builds the tile cache of every level loaded, in the
	// background, with the obstacle preset applied once at start
	// (partition Layers, no detail sampling), so that the first screen
	// shows the live navmesh (cache-polys). With Frames, the frames are
	// counted once that build has ended. navviz sets it unless --no-cache,
	// --demo-obstacles or --scenario is given.
	AutoCache bool
	// Scenario, when set, is a scenario file to play instead of opening
	// Level (panel_scenario.go): step by step with the Scenario panel's
	// Next button, or every step at once with RunScenario (then Frames
	// are counted once the steps ran).
	Scenario    string
	RunScenario bool
	// OutDir is where a scenario's shot steps write NAME.png, and
	// report.json, timings.json and the snapshot files once every step
	// ran ("": nothing is written).
	OutDir string
	// HideUI draws the scene only: no panels, labels, message bar or
	// cursor (screenshots for regression checks).
	HideUI bool
	// Scope is the span scope at start: "selected", "neighbours" or "all"
	// ("": the default, neighbours).
	Scope string
	// BenchFrames, when positive, runs the frame benchmark (bench.go):
	// after the automatic cache build (and the plain build, started when a
	// stage overlay is shown), it times each visible overlay's scene
	// rebuild, orbits the camera once around the level over BenchFrames
	// Updates, writes BenchStats as JSON to StatsJSON and exits.
	BenchFrames int
	StatsJSON   string
	// UIScale is how many screen pixels a pixel of the panels, the
	// toolbar and the view takes: 1, 1.5 or 2 (UIScales); 0 takes the
	// monitor's device scale factor, snapped to one of those (defaultUIScale).
	UIScale float64
}

// UIScales are the UI scales navviz offers (--ui-scale, the View tab).
var UIScales = []float64{1, 1.5, 2}

// ParseUIScale parses a UI scale: 1, 1.5 or 2, with or without an "x".
func ParseUIScale(s string) (float64, error) {
	t := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(s)), "x")
	v, err := strconv.ParseFloat(t, 64)
	if err == nil {
		for _, u := range UIScales {
			if v == u {
				return v, nil
			}
		}
	}
	return 0, fmt.Errorf("ui: UI scale %q: want 1, 1.5 or 2", s)
}

// snapUIScale returns the UI scale of UIScales nearest to f (a device
// scale factor; 1 when f is not positive).
func snapUIScale(f float64) float64 {
	best := UIScales[0]
	for _, u := range UIScales {
		if math.Abs(u-f) <= math.Abs(best-f) { // a tie takes the larger
			best = u
		}
	}
	return best
}

// ParseSize parses "WxH" (for example "1280x800") into a window size.
// Both sides must be whole numbers in 64..16384.
func ParseSize(s string) (w, h int, err error) {
	a, b, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	if !ok {
		return 0, 0, fmt.Errorf("ui: size %q: want WxH, e.g. 1280x800", s)
	}
	w, err = strconv.Atoi(a)
	if err != nil {
		return 0, 0, fmt.Errorf("ui: size %q: width: %w", s, err)
	}
	h, err = strconv.Atoi(b)
	if err != nil {
		return 0, 0, fmt.Errorf("ui: size %q: height: %w", s, err)
	}
	const lo, hi = 64, 16384
	if w < lo || w > hi || h < lo || h > hi {
		return 0, 0, fmt.Errorf("ui: size %q: each side must be in %d..%d pixels", s, lo, hi)
	}
	return w, h, nil
}

// normalize fills defaults and checks the options.
func (o Options) normalize() (Options, error) {
	if o.Level == "" {
		o.Level = DefaultLevel
	}
	if o.Width == 0 && o.Height == 0 {
		o.Width, o.Height = DefaultWidth, DefaultHeight
	}
	if o.Width <= 0 || o.Height <= 0 {
		return o, fmt.Errorf("ui: window size %dx%d: both sides must be positive", o.Width, o.Height)
	}
	if o.Frames < 0 {
		return o, fmt.Errorf("ui: frames %d: must not be negative", o.Frames)
	}
	if o.DemoObstacles < 0 || o.DemoObstacles > session.MaxDemoObstacles {
		return o, fmt.Errorf("ui: demo obstacles %d: want 0..%d", o.DemoObstacles, session.MaxDemoObstacles)
	}
	if o.Scenario == "" && (o.RunScenario || o.OutDir != "") {
		return o, fmt.Errorf("ui: run and out dir need a scenario file")
	}
	if o.Scenario != "" && (o.Build || o.Overlays != nil || o.DemoObstacles > 0 || o.AutoCache) {
		return o, fmt.Errorf("ui: a scenario sets its own level, build and overlays: build, overlays and demo obstacles do not go with it")
	}
	if o.BenchFrames < 0 || (o.BenchFrames > 0) != (o.StatsJSON != "") {
		return o, fmt.Errorf("ui: bench frames %d with stats file %q: a positive frame count and a file go together", o.BenchFrames, o.StatsJSON)
	}
	if o.BenchFrames > 0 && (o.Scenario != "" || o.Frames > 0) {
		return o, fmt.Errorf("ui: bench frames %d: does not go with a scenario or a frame count", o.BenchFrames)
	}
	if o.UIScale != 0 {
		if _, err := ParseUIScale(strconv.FormatFloat(o.UIScale, 'g', -1, 64)); err != nil {
			return o, err
		}
	}
	if _, err := session.ParseScope(o.Scope); err != nil {
		return o, err
	}
	if o.Screenshot != "" && o.Frames == 0 {
		o.Frames = 10
	}
	return o, nil
}
