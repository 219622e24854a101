package ui

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ebitengine/debugui"

	"navviz/scenario"
	"navviz/ui/session"
)

// Playing a scenario file in the window (navviz --scenario FILE).
//
// The scenario's Runner (package scenario, the engine of navmesh
// scenario) loads the level, builds and runs the steps; the window draws
// Runner.Scene() with the GPU through Runner.CameraFor (the camera the
// scenario sets, fitted to the window) until the user moves the camera.
// The Scenario panel lists the steps with the next one marked, runs the
// next (Next) or all the rest (Run all, one step per frame), and shows
// the last step's report line; a failed step shows its error there and in
// the message bar, stays next, and the window keeps running. Shot steps
// are rendered by the software rasterizer, as navmesh scenario renders
// them (the same bytes, so the same goldens serve both), and written to
// Options.OutDir when it is set; once every step ran, report.json,
// timings.json and the snapshot files join them.

// scenarioPlayer is the state of a scenario being played.
type scenarioPlayer struct {
	// file is the scenario file; r its runner (nil when it failed to
	// load).
	file string
	r    *scenario.Runner
	// runAll runs the remaining steps, one per frame.
	runAll bool
	// done holds, per step, its report line once it ran.
	done []string
	// last is the last step's report line, err the last failure ("":
	// none).
	last, err string
	// shots are the pictures of the shot steps run.
	shots []scenario.Shot
	// follow makes the view use the scenario's camera (cleared when the
	// user moves the camera, set again by a camera step or the panel).
	follow bool
	// written is set once the outputs of a finished run were written.
	written bool
}

// loadScenario reads the scenario file and makes its runner (loading the
// level and building). A failure is shown in the window and returned;
// the game keeps running with an empty scene.
func (g *Game) loadScenario(file string) error {
	p := &scenarioPlayer{file: file, follow: true}
	g.scen = p
	sc, err := scenario.Load(file)
	if err == nil {
		p.r, err = scenario.NewRunner(sc, file)
	}
	if err != nil {
		p.err = err.Error()
		g.App.Report(err)
		return fmt.Errorf("ui: %w", err)
	}
	p.done = make([]string, len(sc.Steps))
	p.runAll = g.opts.RunScenario
	a := g.App
	a.ShowScenarioLevel(p.r.Soup, p.r.Report.Level)
	a.SetStatus(fmt.Sprintf("scenario %s: %s, %d steps", filepath.Base(file), p.r.Report.Level, len(sc.Steps)))
	g.refreshScenarioScene()
	return nil
}

// scenarioPending reports whether a --run scenario still has steps to
// run (the scripted frames are counted once it has none, or failed).
func (g *Game) scenarioPending() bool {
	p := g.scen
	return p != nil && p.r != nil && p.runAll && !p.r.Done()
}

// refreshScenarioScene makes App.Scene the runner's scene.
func (g *Game) refreshScenarioScene() {
	p, a := g.scen, g.App
	s, err := p.r.Scene()
	if err != nil {
		p.err = err.Error()
		a.Report(err)
		return
	}
	a.ShowScene(s)
}

// scenarioStep runs the next step: its report line, its shot written to
// OutDir, the scene and, for a camera step, the view's camera follow it.
// An error is shown (and, in a scripted run, makes Run fail); the step
// stays next.
func (g *Game) scenarioStep() {
	p, a := g.scen, g.App
	if p == nil || p.r == nil || p.r.Done() {
		return
	}
	i := p.r.Next() - 1
	st := &p.r.Scenario().Steps[i]
	rep, shot, err := p.r.Step()
	if err != nil {
		p.err, p.runAll = err.Error(), false
		a.Report(err)
		if g.opts.Frames > 0 && g.exitErr == nil {
			g.exitErr = fmt.Errorf("ui: %w", err)
		}
		return
	}
	p.err = ""
	if a.Err() != "" && strings.HasPrefix(a.Err(), p.file) {
		a.DismissErr()
	}
	p.last = fmt.Sprintf("step %d %s: %s", rep.Step, rep.Kind, rep.Did)
	p.done[i] = rep.Did
	a.SetStatus(p.last)
	if st.Camera != nil {
		p.follow = true
	}
	if shot != nil {
		p.shots = append(p.shots, *shot)
		g.writeScenarioShot(shot)
	}
	g.refreshScenarioScene()
	if p.r.Done() {
		p.runAll = false
		g.writeScenarioOutputs()
	}
}

// writeScenarioShot writes a shot to OutDir as NAME.png (the bytes
// navmesh scenario writes); without OutDir it only says so.
func (g *Game) writeScenarioShot(s *scenario.Shot) {
	a := g.App
	if g.opts.OutDir == "" {
		a.SetStatus(a.Status() + " (not written: no --out)")
		return
	}
	path := filepath.Join(g.opts.OutDir, s.Name+".png")
	data, err := scenario.EncodePNG(s.Image)
	if err == nil {
		err = os.MkdirAll(g.opts.OutDir, 0o755)
	}
	if err == nil {
		err = session.WriteFileAtomic(path, data)
	}
	if err != nil {
		g.scenarioOutputFailed(fmt.Errorf("ui: shot %s: %w", s.Name, err))
		return
	}
	a.SetStatus(a.Status() + "; wrote " + path)
}

// writeScenarioOutputs writes report.json, timings.json and the snapshot
// files into OutDir once every step ran (the shots are already there).
func (g *Game) writeScenarioOutputs() {
	p := g.scen
	if g.opts.OutDir == "" || p.written {
		return
	}
	p.written = true
	r := p.r
	res := &scenario.Result{Report: r.Report, Snapshots: r.SnapshotFiles(), Timings: r.Timings, BuildTime: r.BuildTime, Inputs: r.Inputs()}
	if err := res.Write(g.opts.OutDir); err != nil {
		g.scenarioOutputFailed(fmt.Errorf("ui: scenario outputs: %w", err))
		return
	}
	g.App.SetStatus(fmt.Sprintf("scenario done: %d steps; wrote %s", len(p.done), filepath.Join(g.opts.OutDir, scenario.ReportFile)))
}

// scenarioOutputFailed shows an output error; in a scripted run Run
// fails with it.
func (g *Game) scenarioOutputFailed(err error) {
	g.App.Report(err)
	if g.opts.Frames > 0 && g.exitErr == nil {
		g.exitErr = err
	}
}

// restartScenario makes a new runner of the same file (the level loaded
// and built again) and forgets what ran.
func (g *Game) restartScenario() {
	run := g.opts.RunScenario
	g.opts.RunScenario = false
	g.App.Report(g.loadScenario(g.scen.file))
	g.opts.RunScenario = run
}

// scenarioUpdate is Update in scenario mode: the panels (unless hidden),
// a step when running all, the camera input, and the scenario's camera
// while the view follows it.
func (g *Game) scenarioUpdate(captured debugui.InputCapturingState) {
	p := g.scen
	if p.runAll {
		g.scenarioStep()
	}
	in := g.ctl.step(g.dockInput(readInput(captured)))
	if in.OrbitDX != 0 || in.OrbitDY != 0 || in.PanDX != 0 || in.PanDY != 0 || in.ZoomSteps != 0 || in.Frame || in.ToggleTopDown {
		p.follow = false
	}
	if in.Click && p.r != nil {
		g.scenarioClick(in.ClickX, in.ClickY)
		in.Click = false
	}
	g.applyIntent(in)
	if p.follow && p.r != nil {
		g.App.Camera = p.r.CameraFor(g.w, g.h)
	}
}

// scenarioClick selects the runner's tile under pixel (x, y), as a
// select_tile step would.
func (g *Game) scenarioClick(x, y int) {
	r := g.scen.r
	o, d := g.App.Camera.Ray(float64(x), float64(y), g.w, g.h)
	pt, ok := session.PickPoint(r.Soup, o, d)
	if !ok {
		g.App.SetStatus("no level under the cursor")
		return
	}
	tx, tz, err := r.Grid.TileAt(pt)
	if err != nil {
		g.App.SetStatus(err.Error())
		return
	}
	r.Selected, r.HasSelected = [2]int{tx, tz}, true
	g.App.SetStatus(fmt.Sprintf("selected tile (%d, %d)", tx, tz))
	g.refreshScenarioScene()
}

// Colour of the next step's marker in the step list.
var scenarioNextColor = color.RGBA{R: 0xff, G: 0xd0, B: 0x40, A: 0xff}

// scenarioPanel is the Scenario window: the file, Next / Run all /
// Restart, the last step's line or error, the step list, the overlays.
func (g *Game) scenarioPanel(ctx *debugui.Context) {
	p := g.scen
	ctx.Text("Scenario: " + filepath.Base(p.file))
	if p.r == nil {
		ctx.Text("Failed to load: " + p.err)
		ctx.Button("Try again").On(g.restartScenario)
		return
	}
	r := p.r
	steps := r.Scenario().Steps
	ctx.Text(fmt.Sprintf("%s, partition %s, %d steps", r.Report.Level, r.Report.Partition, len(steps)))
	ctx.SetGridLayout([]int{-1, -1, -1}, nil)
	if r.Done() {
		ctx.Text("All steps ran")
	} else {
		ctx.Button(fmt.Sprintf("Next (step %d)", r.Next())).On(g.scenarioStep)
	}
	if p.runAll {
		ctx.Button("Pause").On(func() { p.runAll = false })
	} else {
		ctx.Button("Run all").On(func() { p.runAll = !r.Done() })
	}
	ctx.Button("Restart").On(g.restartScenario)
	ctx.SetGridLayout(nil, nil)
	switch {
	case p.err != "":
		ctx.Text("Error: " + p.err)
	case p.last != "":
		ctx.Text("Last: " + p.last)
	}
	follow := p.follow
	ctx.Checkbox(&follow, "Scenario camera (moving the view leaves it)").On(func() { p.follow = follow })
	ctx.Header("Steps", true, func() {
		ctx.SetGridLayout([]int{12, -1}, nil)
		ctx.Loop(len(steps), func(i int) {
			col := color.RGBA{}
			if i == r.Next()-1 {
				col = scenarioNextColor
			}
			swatch(ctx, col)
			ctx.Text(stepLine(i, &steps[i], p.done[i], i == r.Next()-1))
		})
		ctx.SetGridLayout(nil, nil)
	})
	ctx.Header("Overlays", false, func() { g.scenarioOverlays(ctx) })
}

// stepLine is a step's line in the list: its number and kind, what it
// did once run (else a summary), "> " before the next one.
func stepLine(i int, st *scenario.Step, did string, next bool) string {
	mark := "  "
	if next {
		mark = "> "
	}
	what := did
	if what == "" {
		what = stepSummary(st)
	}
	return fmt.Sprintf("%s%d %s: %s", mark, i+1, st.Kind(), what)
}

// stepSummary words a step not yet run.
func stepSummary(st *scenario.Step) string {
	switch {
	case st.Obstacle != nil:
		return st.Obstacle.Name
	case st.RemoveObstacle != "":
		return st.RemoveObstacle
	case st.Volume != nil:
		return fmt.Sprintf("%s (area %d)", st.Volume.Name, st.Volume.Area)
	case st.RemoveVolume != "":
		return st.RemoveVolume
	case st.OffMesh != nil:
		return fmt.Sprintf("%s (area %d)", st.OffMesh.Name, st.OffMesh.Area)
	case st.RemoveOffMesh != "":
		return st.RemoveOffMesh
	case st.Update != nil:
		if st.Update.All {
			return "all queued tiles"
		}
		return session.Plural(st.Update.Tiles, "tile")
	case st.Snapshot != nil:
		return session.SnapshotRefText(st.Snapshot)
	case st.Restore != nil:
		return session.SnapshotRefText(st.Restore)
	case st.Camera != nil:
		return cameraSummary(st.Camera)
	case st.Overlays != nil:
		return strings.Join(st.Overlays.Show, ", ")
	case st.SelectTile != nil:
		return fmt.Sprintf("(%d, %d)", st.SelectTile[0], st.SelectTile[1])
	case st.Shot != nil:
		return fmt.Sprintf("%s %s", st.Shot.Name, st.Shot.Size)
	}
	return ""
}

// cameraSummary words a camera step by the keys it sets.
func cameraSummary(c *scenario.CameraStep) string {
	var parts []string
	if c.View != "" {
		parts = append(parts, c.View)
	}
	switch {
	case c.FrameTile != nil:
		parts = append(parts, fmt.Sprintf("frame tile (%d, %d)", c.FrameTile[0], c.FrameTile[1]))
	case c.FrameLevel:
		parts = append(parts, "frame level")
	case c.TargetM != nil:
		parts = append(parts, fmt.Sprintf("target (%.4g, %.4g, %.4g) m", c.TargetM[0], c.TargetM[1], c.TargetM[2]))
	}
	if c.YawDeg != nil {
		parts = append(parts, fmt.Sprintf("yaw %.4g°", *c.YawDeg))
	}
	if c.PitchDeg != nil {
		parts = append(parts, fmt.Sprintf("pitch %.4g°", *c.PitchDeg))
	}
	if c.DistanceM != nil {
		parts = append(parts, fmt.Sprintf("distance %.4g m", *c.DistanceM))
	}
	return strings.Join(parts, ", ")
}

// scenarioOverlays is the Scenario panel's overlay switches: they change
// the runner's visible overlays, as an overlays step would.
func (g *Game) scenarioOverlays(ctx *debugui.Context) {
	r := g.scen.r
	names := scenario.OverlayNames()
	ctx.SetGridLayout([]int{-1, -1}, nil)
	ctx.Loop(len(names), func(i int) {
		n := names[i]
		on := slices.Contains(r.Visible, n)
		ctx.Checkbox(&on, n).On(func() {
			var vis []string
			for _, m := range names {
				if (m == n && on) || (m != n && slices.Contains(r.Visible, m)) {
					vis = append(vis, m)
				}
			}
			r.Visible = vis
			g.refreshScenarioScene()
		})
	})
	ctx.SetGridLayout(nil, nil)
	scope := slices.Index(scenario.Scopes, r.Scope)
	ctx.SetGridLayout([]int{50, -1}, nil)
	ctx.Text("Scope")
	ctx.Dropdown(&scope, scenario.Scopes).On(func() {
		r.Scope = scenario.Scopes[scope]
		g.refreshScenarioScene()
	})
	ctx.SetGridLayout(nil, nil)
}
