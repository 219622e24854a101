// Command navviz is the desktop navmesh debug viewer. It opens a window on a
// level and lets you look at it from any side.
//
// Usage:
//
//	navviz [flags] [LEVEL]
//
// LEVEL is a built-in level name (city, terrain, city4x4) or a Wavefront .obj path;
// it defaults to city. Flags:
//
//	--size WxH          initial window size in pixels (default 1280x800)
//	--frames N          draw N frames, then exit
//	--screenshot FILE   after --frames frames (default 10) save the window
//	                    as PNG to FILE and exit
//	--build             run the plain build (default settings) on start and
//	                    frame the selected tile when it is done; with
//	                    --frames, frames are counted once the build ended
//	--overlays a,b      show only these overlays at start (input, grid, the
//	                    span and mesh overlays, selection, picked, the cache
//	                    overlays)
//	--demo-obstacles N  tile cache demo: build the cache with the obstacle
//	                    preset, place N obstacles (and a volume) with the
//	                    Obstacle tool, update; --frames counts from its end
//	--no-cache          do not build the level's tile cache on start (by
//	                    default navviz builds it in the background with the
//	                    obstacle preset and draws the live navmesh)
//	--scenario FILE     play a scenario file (docs/scenario.md) instead of
//	                    opening LEVEL: the Scenario panel runs its steps
//	                    one at a time (Next)
//	--run               with --scenario: run every step at once; --frames
//	                    counts from the last one
//	--out DIR           with --scenario: write the shot steps' PNGs there
//	                    (the software rasterizer's, as navmesh scenario),
//	                    and report.json once every step ran
//	--hide-ui           draw the scene only: no panels, labels, messages or
//	                    cursor (byte-identical --screenshot pictures)
//	--scope S           which tiles the stage overlays draw at start:
//	                    selected, neighbours (default) or all
//	--bench-frames N    frame benchmark: after the automatic cache build
//	                    (and the plain build when --overlays names a stage
//	                    overlay) time each visible overlay's scene rebuild,
//	                    orbit the camera once around the level over N
//	                    frames, write the figures to --stats-json and exit
//	--stats-json FILE   where --bench-frames writes its JSON
//
// In the window: right-drag orbits, middle-drag or shift+left-drag pans, the
// wheel zooms, left-click picks the navmesh polygon under the cursor (shown
// in the Inspector) and selects its tile, F frames the level, T toggles the
// top-down view and F12 saves a screenshot to the current directory. The
// Build panel edits the build settings and runs the build. The Cache panel
// builds the tile cache and holds its tools (obstacles, volumes, update,
// snapshots; Ctrl+Z undoes). navviz needs an X11 display (under CI use
// xvfb-run -a navviz ...); without one it prints one line, "navviz: no
// display: ...", and exits with status 1 (see internal/displaycheck).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	// Stops navviz with one line when there is no display, before
	// Ebitengine's package initialisation would panic.
	_ "navviz/internal/displaycheck/gate"
	"navviz/ui"
)

func main() {
	err := run(os.Args[1:], os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case err != nil:
		fmt.Fprintln(os.Stderr, "navviz:", err)
		os.Exit(1)
	}
}

// run parses args and runs the viewer.
func run(args []string, stderr io.Writer) error {
	opts, err := parseArgs(args, stderr)
	if err != nil {
		return err
	}
	return ui.Run(opts)
}

// parseArgs turns the command line into ui.Options.
func parseArgs(args []string, stderr io.Writer) (ui.Options, error) {
	fs := flag.NewFlagSet("navviz", flag.ContinueOnError)
	fs.SetOutput(stderr)
	size := fs.String("size", fmt.Sprintf("%dx%d", ui.DefaultWidth, ui.DefaultHeight), "initial window size `WxH` in pixels")
	frames := fs.Int("frames", 0, "draw `N` frames, then exit (0: run until the window is closed)")
	shot := fs.String("screenshot", "", "save the window as PNG to `FILE` after --frames frames (default 10), then exit")
	build := fs.Bool("build", false, "build the level (default settings) on start and frame the selected tile; --frames counts from the end of the build")
	overlays := fs.String("overlays", "", "comma-separated `names` of the overlays shown at start, every other one hidden (e.g. input,polys,selection)")
	demo := fs.Int("demo-obstacles", 0, "tile cache demo: build the cache with the obstacle preset, place `N` obstacles and a volume, update; --frames counts from its end")
	scen := fs.String("scenario", "", "play the scenario `FILE` (docs/scenario.md) step by step instead of opening a level")
	runAll := fs.Bool("run", false, "with --scenario: run every step at once; --frames counts from the last one")
	out := fs.String("out", "", "with --scenario: write the shot steps' PNGs, and report.json when every step ran, into `DIR`")
	hide := fs.Bool("hide-ui", false, "draw the scene only: no panels, labels, messages or cursor")
	scope := fs.String("scope", "", "which tiles the stage overlays draw at start: `selected`, neighbours or all")
	benchFrames := fs.Int("bench-frames", 0, "frame benchmark: orbit the camera once over `N` frames after the builds, write --stats-json, exit")
	statsJSON := fs.String("stats-json", "", "with --bench-frames: write the figures as JSON to `FILE`")
	noCache := fs.Bool("no-cache", false, "do not build the tile cache of the level on start (the live navmesh)")
	uiScale := fs.String("ui-scale", "", "size of the panels and the view's pixels: `S` = 1, 1.5 or 2 (default: the monitor's scale factor)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: navviz [--size WxH] [--frames N] [--screenshot FILE] [--build] [--overlays a,b] [--demo-obstacles N] [--no-cache] [--hide-ui] [--scope S] [--ui-scale S] [LEVEL]")
		fmt.Fprintln(stderr, "       navviz --bench-frames N --stats-json FILE [--overlays a,b] [--scope all] [--size WxH] [LEVEL]")
		fmt.Fprintln(stderr, "       navviz --scenario FILE [--run] [--out DIR] [--size WxH] [--frames N] [--screenshot FILE] [--hide-ui]")
		fmt.Fprintln(stderr, "LEVEL is a built-in level (city, terrain, city4x4) or an .obj file; default city.")
		fs.PrintDefaults()
	}
	// Flags may come before or after the level.
	var levels []string
	for {
		if err := fs.Parse(args); err != nil {
			return ui.Options{}, err
		}
		if fs.NArg() == 0 {
			break
		}
		levels = append(levels, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(levels) > 1 {
		return ui.Options{}, fmt.Errorf("want at most one level, got %d: %q", len(levels), levels)
	}
	w, h, err := ui.ParseSize(*size)
	if err != nil {
		return ui.Options{}, fmt.Errorf("--size: %w", err)
	}
	if *frames < 0 {
		return ui.Options{}, fmt.Errorf("--frames %d: must not be negative", *frames)
	}
	if *demo < 0 {
		return ui.Options{}, fmt.Errorf("--demo-obstacles %d: must not be negative", *demo)
	}
	if *benchFrames < 0 || (*benchFrames > 0) != (*statsJSON != "") {
		return ui.Options{}, fmt.Errorf("--bench-frames %d and --stats-json %q go together (N > 0)", *benchFrames, *statsJSON)
	}
	if *benchFrames > 0 && (*scen != "" || *frames > 0) {
		return ui.Options{}, fmt.Errorf("--bench-frames goes with neither --scenario nor --frames")
	}
	if *scen != "" && len(levels) > 0 {
		return ui.Options{}, fmt.Errorf("--scenario %s: the scenario names its level; drop the level %q", *scen, levels[0])
	}
	if *scen == "" && (*runAll || *out != "") {
		return ui.Options{}, fmt.Errorf("--run and --out go with --scenario FILE")
	}
	var scale float64
	if *uiScale != "" {
		if scale, err = ui.ParseUIScale(*uiScale); err != nil {
			return ui.Options{}, fmt.Errorf("--ui-scale: %w", err)
		}
	}
	opts := ui.Options{UIScale: scale, Level: ui.DefaultLevel, Width: w, Height: h, Frames: *frames, Screenshot: *shot, Build: *build, DemoObstacles: *demo,
		Scenario: *scen, RunScenario: *runAll, OutDir: *out, HideUI: *hide,
		Scope: *scope, BenchFrames: *benchFrames, StatsJSON: *statsJSON,
		AutoCache: !*noCache && *scen == "" && *demo == 0}
	if *overlays != "" {
		for _, n := range strings.Split(*overlays, ",") {
			if n = strings.TrimSpace(n); n != "" {
				opts.Overlays = append(opts.Overlays, n)
			}
		}
	}
	if len(levels) == 1 {
		opts.Level = levels[0]
	}
	return opts, nil
}
