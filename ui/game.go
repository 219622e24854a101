package ui

import (
	"errors"
	"fmt"
	"image/color"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"time"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"

	"navviz/render"
)

// memoryLimitBytes is the Go heap's soft limit in the window
// (runtime/debug.SetMemoryLimit; the GOMEMLIMIT variable overrides it):
// near it the collector runs more often instead of letting the heap grow
// to twice the live data, which keeps navviz with every overlay on a
// large level within a few hundred megabytes.
const memoryLimitBytes = 300 << 20

// Background colour of the 3D view.
var backgroundColor = color.RGBA{R: 0x26, G: 0x2a, B: 0x30, A: 0xff}

// errDialogCancelled is returned by openFileDialog when the user cancels.
var errDialogCancelled = errors.New("ui: dialog cancelled")

// dialogResult is the answer of a file dialog run off the game loop.
type dialogResult struct {
	path string
	err  error
}

// Game is navviz's ebiten.Game: it owns the App state, the debugui panels,
// the camera controller and the GPU drawing of the scene.
type Game struct {
	// App is the session state; tests inspect it.
	App *App

	opts Options
	ui   debugui.DebugUI
	feed pointerFeed // settles debugui after a pointer jump (input_feed.go)
	ctl  viewController
	view *sceneView // the view Draw shows (never nil)
	// panelsRan is when debugui last laid the panels out, panelsSig the
	// signature it saw and panelsCaptured what it reported (panelsIdle).
	panelsRan      time.Time
	panelsSig      uiSignature
	panelsCaptured debugui.InputCapturingState
	panelsSettled  bool // the last two runs saw the same signature
	// copyShader copies the offscreen to the window (final_screen.go);
	// copyShaderErr falls back to Ebitengine's own drawing.
	copyShader    *ebiten.Shader
	copyShaderErr bool
	scene         sceneJobs // builds the next view off the frame (jobs.go)
	redraw        redrawState
	stats         frameStats // frame times and memory for the Stats panel
	// w, h are the size of the 3D view in pixels (the rectangle lay.view
	// of the screen the docked panels leave, dock.go): the camera
	// projects into it, and picking and the tools take positions in its
	// coordinates.
	w, h int
	// screenW, screenH are the window's size from Layout; lay is where
	// the columns, the view and the status strip are on it; dock the
	// columns' state; dockPrevLeft the left button in the previous
	// snapshot dockInput saw.
	screenW, screenH int
	lay              screenLayout
	dock             dockState
	dockPrevLeft     bool
	frames           int // frames drawn so far
	// panelsDrawn is when Draw last drew the panels.
	panelsDrawn time.Time
	// paced is set by Run: Update paces the loop (pace.go).
	paced    bool
	lastTick time.Time
	pending  string // level to load in the next Update ("" none)

	shotPath   string            // screenshot to save at the end of the next Draw
	quit       bool              // Update returns ebiten.Termination
	exitErr    error             // returned by Run after the loop ends
	dialogBusy bool              // a file dialog is open
	dialogDone chan dialogResult // its answer
	levelUI    levelUI           // the Level panel's view state (panel_level.go)
	viewUI     viewUI            // the View panel's (panel_view.go)

	runner         *buildRunner // background builds (build_state.go)
	form           buildForm    // Build panel editing state (panel_build.go)
	buildRequested bool         // a build was started and has not ended
	framedBuild    bool         // opts.Build: the first build was framed

	cache cacheUI // the tile cache's builds, dialogs and demo (panel_cache.go)
	tools toolBox // the Cache panel's tools and the active one (tool.go)

	// injected are input snapshots that replace Ebitengine's input in
	// the next Updates, one each (tests drive the Game with them; see
	// nextInput).
	injected []frameInput

	// bench is the frame benchmark (Options.BenchFrames; nil otherwise).
	bench *benchRun

	// scen is the scenario being played (--scenario; nil otherwise):
	// the window then shows the scenario runner's scene
	// (panel_scenario.go).
	scen *scenarioPlayer
}

// NewGame returns a Game for opts. It loads opts.Level; a failure is
// recorded in App.Err (shown in the window) and also returned, with the Game
// still usable (it then shows an empty scene).
func NewGame(opts Options) (*Game, error) {
	opts, err := opts.normalize()
	if err != nil {
		return nil, err
	}
	g := &Game{
		App:        NewApp(),
		opts:       opts,
		screenW:    opts.Width,
		screenH:    opts.Height,
		dock:       newDockState(),
		dialogDone: make(chan dialogResult, 1),
		runner:     newBuildRunner(),
		view:       &sceneView{},
		tools:      newToolBox(),
		// Scripted runs and scenarios take each frame of the state of its
		// own Update: the view is built in Update, not in a job.
		scene: newSceneJobs(syncScenes || opts.Frames > 0 || opts.Scenario != ""),
	}
	g.App.toolEvents, g.App.toolPreview = &g.tools, g.tools.active
	g.relayout()
	if !g.scene.sync {
		g.App.EnableStageJobs()   // the stage overlays too are built off the frame
		g.App.EnableCacheWorker() // and the tile cache works on its own goroutine
	}
	if opts.Scenario != "" {
		err := g.loadScenario(opts.Scenario)
		g.relayout() // one column in scenario mode
		return g, err
	}
	err = g.App.Load(opts.Level)
	scope, serr := parseScope(opts.Scope)
	if serr != nil {
		return nil, serr
	}
	g.App.SetScope(scope)
	if opts.Overlays != nil {
		if oerr := g.App.ShowOnly(opts.Overlays); oerr != nil {
			return nil, oerr
		}
	}
	if opts.BenchFrames > 0 {
		g.bench = &benchRun{}
		// A stage overlay shows nothing without the plain build.
		for _, n := range opts.Overlays {
			if render.IsSpanOverlay(n) || render.IsMeshOverlay(n) {
				g.opts.Build = true
			}
		}
	}
	if err == nil && g.opts.Build {
		g.startBuild()
	}
	return g, err
}

// Run opens the navviz window and runs until it is closed (or, with
// opts.Frames, until that many frames are drawn and the screenshot saved).
// A level that fails to load is shown as an error in the window and the
// window keeps running; Run then fails only when the window cannot run, the
// requested screenshot cannot be written, or (with opts.Frames) the initial
// level failed to load.
func Run(opts Options) error {
	g, loadErr := NewGame(opts)
	if g == nil {
		return loadErr
	}
	if loadErr != nil {
		fmt.Fprintln(os.Stderr, "navviz:", loadErr)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimitBytes)
	}
	keepCHeap()
	// One Update per frame, paced to tickRate (pace.go): no frame reads
	// input that no Update sees.
	ebiten.SetTPS(ebiten.SyncWithFPS)
	g.paced = true
	ebiten.SetWindowTitle("navviz")
	ebiten.SetWindowSize(g.opts.Width, g.opts.Height)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	// Draw only when something changed (redraw.go): the screen keeps the
	// last frame.
	ebiten.SetScreenClearedEveryFrame(false)
	if g.opts.HideUI {
		ebiten.SetCursorMode(ebiten.CursorModeHidden)
	}
	if err := ebiten.RunGame(g); err != nil {
		return fmt.Errorf("ui: run: %w", err)
	}
	if g.exitErr != nil {
		return g.exitErr
	}
	if g.opts.Frames > 0 {
		// A scripted run (CI, --screenshot) must fail when its level did.
		return loadErr
	}
	return nil
}

// Layout implements ebiten.Game: the screen has the window's size in
// pixels; the docked panels and the 3D view share it (dock.go).
func (g *Game) Layout(outsideWidth, outsideHeight int) (int, int) {
	w, h := max(1, outsideWidth), max(1, outsideHeight)
	if w != g.screenW || h != g.screenH {
		g.screenW, g.screenH = w, h
		g.relayout()
	}
	return g.screenW, g.screenH
}

// Update implements ebiten.Game: it applies dialog results and dropped
// files, runs the panels, and turns the remaining input into camera moves.
func (g *Game) Update() error {
	g.pace()
	if g.quit {
		return ebiten.Termination
	}
	select {
	case r := <-g.dialogDone:
		g.dialogBusy = false
		switch {
		case errors.Is(r.err, errDialogCancelled):
		case r.err != nil:
			g.App.report(r.err)
		default:
			g.pending = r.path
		}
	default:
	}
	if p, err := droppedLevel(ebiten.DroppedFiles()); err != nil {
		g.App.report(err)
	} else if p != "" {
		g.pending = p
	}

	// debugui reports whether the pointer is over a panel or a widget has
	// the focus; the camera controller ignores such input. --hide-ui
	// shows no panel.
	g.relayout()
	var captured debugui.InputCapturingState
	if !g.opts.HideUI {
		if sig := g.readSignature(g.panelsCaptured); g.panelsIdle(sig) {
			captured = g.panelsCaptured
		} else {
			var err error
			g.feedPointer()
			selectedField = fieldHighlight{}
			if captured, err = g.ui.Update(g.panels); err != nil {
				return fmt.Errorf("ui: panels: %w", err)
			}
			g.App.report(takeSelectAllErr())
			g.panelsSettled = sig == g.panelsSig && captured == g.panelsCaptured
			g.panelsRan, g.panelsSig, g.panelsCaptured = time.Now(), sig, captured
		}
	}
	if g.scen != nil {
		// Playing a scenario: its runner owns the scene (panel_scenario.go).
		g.scenarioUpdate(captured)
		g.redraw.mark(reasonPlayback)
		g.endUpdate(captured)
		return nil
	}

	if g.pending != "" {
		p := g.pending
		g.pending = ""
		if g.App.Load(p) == nil { // Load reports its error
			// A build of the previous level is of no use.
			g.runner.cancel()
			g.buildRequested = false
		}
	}
	g.pollBuild()

	// The cache tools take the left button and the wheel when they use
	// them (cache_frame.go, tool.go).
	// The Path tool's modifier clicks come first (tool_path.go); the path
	// follows every swap through syncSpanOverlays.
	// The dock (Tab, its grips) first: it hands on input in the view's
	// coordinates (dock.go).
	g.applyIntent(g.ctl.step(g.cacheFrame(g.pathFrame(g.dockInput(g.nextInput(captured))))))
	if g.App.tickAgents() { // after this tick's swaps (agents.go)
		g.redraw.mark(reasonAgents)
	}
	g.App.syncSpanOverlays()
	g.benchStep()
	g.endUpdate(captured)
	return nil
}

// endUpdate ends every Update: it asks for the view of the new state (off
// the frame, jobs.go) and marks what must be redrawn (redraw.go).
func (g *Game) endUpdate(captured debugui.InputCapturingState) {
	if g.syncScene() {
		g.redraw.mark(reasonView)
		if g.bench != nil && g.bench.phase == benchOrbit {
			g.bench.projectMs = append(g.bench.projectMs, g.view.buildMs)
			g.bench.drawnTris = append(g.bench.drawnTris, float64(g.view.drawnTris))
		}
	}
	g.redraw.observe(g.readSignature(captured))
	if g.opts.Frames > 0 {
		g.redraw.mark(reasonScripted)
	}
	if g.shotPath != "" {
		g.redraw.mark(reasonScreenshot)
	}
}

// applyIntent moves the camera and triggers the actions of one frame.
func (g *Game) applyIntent(in viewIntent) {
	cam := &g.App.Camera
	// Framing first: a wheel step or drag that arrived in the same tick
	// (input of a slow frame) then still moves the framed camera.
	if in.Frame {
		g.App.FrameLevel()
	}
	if in.OrbitDX != 0 || in.OrbitDY != 0 {
		cam.Orbit(in.OrbitDX, in.OrbitDY)
	}
	if in.PanDX != 0 || in.PanDY != 0 {
		cam.Pan(in.PanDX, in.PanDY, g.w, g.h)
	}
	if in.ZoomSteps != 0 {
		g.App.ZoomAt(in.ZoomSteps, float64(in.ZoomX), float64(in.ZoomY), g.w, g.h)
	}
	if in.ToggleTopDown {
		g.App.SetTopDown(!cam.TopDown)
	}
	if in.Click {
		g.App.Status = g.App.Click(float64(in.ClickX), float64(in.ClickY), g.w, g.h)
	}
	if in.Screenshot {
		dir, err := os.Getwd()
		if err != nil {
			dir = "."
		}
		g.shotPath = screenshotName(dir, time.Now(), fileExists)
	}
}

// droppedLevel returns the path of the first file dropped on the window in
// this frame, or "" when nothing was dropped. Directories are refused.
func droppedLevel(fsys fs.FS) (string, error) {
	if fsys == nil {
		return "", nil
	}
	ents, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return "", fmt.Errorf("ui: dropped files: %w", err)
	}
	if len(ents) == 0 {
		return "", nil
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	e := ents[0]
	if e.IsDir() {
		return "", fmt.Errorf("ui: dropped %s is a folder: drop an .obj file", e.Name())
	}
	f, err := fsys.Open(e.Name())
	if err != nil {
		return "", fmt.Errorf("ui: dropped file %s: %w", e.Name(), err)
	}
	defer f.Close()
	// On desktops the dropped files are real files: use their real path so
	// errors name it.
	if of, ok := f.(*os.File); ok {
		if abs, err := filepath.Abs(of.Name()); err == nil {
			return abs, nil
		}
		return of.Name(), nil
	}
	return "", fmt.Errorf("ui: dropped file %s is not on the local file system", e.Name())
}

// startOpenDialog shows the native file dialog off the game loop; its answer
// arrives in a later Update.
func (g *Game) startOpenDialog() {
	if g.dialogBusy {
		return
	}
	g.dialogBusy = true
	go func() {
		p, err := openFileDialog()
		g.dialogDone <- dialogResult{path: p, err: err}
	}()
}

// dialogLabel is the label of a button that opens a file dialog, or
// "(dialog open)" while one is open.
func (g *Game) dialogLabel(label string) string {
	if g.dialogBusy {
		return "(dialog open)"
	}
	return label
}

// RequestLoad asks the game to load a level (built-in name or .obj path) in
// the next Update, as the Level panel, a drop or the dialog do.
func (g *Game) RequestLoad(nameOrPath string) { g.pending = nameOrPath }

// Draw implements ebiten.Game: the scene, the panels, the message bar, and a
// screenshot when one was asked for.
func (g *Game) Draw(screen *ebiten.Image) {
	if !g.redraw.due(screen) {
		return // the screen keeps the last frame
	}
	t0 := time.Now()
	g.stats.frameStart(t0)
	defer func() {
		t1 := time.Now()
		g.stats.frameEnd(t0, t1)
		g.bench.benchFrame(t0, t1.Sub(t0), g.view.key.cam)
	}()
	// The scene and its labels are drawn clipped to the view's rectangle.
	view := screen.SubImage(g.lay.view.Intersect(screen.Bounds())).(*ebiten.Image)
	// A frame for a new view or moved agents alone redraws the view and
	// keeps the panels on screen (the screen is not cleared between
	// frames), refreshing them (the Stats figures) panelsRefresh apart:
	// debugui's text is thousands of glyphs for llvmpipe to set up.
	panels := !g.opts.HideUI && (!g.redraw.sceneOnly() || t0.Sub(g.panelsDrawn) >= panelsRefresh)
	// The view's image covers its rectangle with opaque pixels: only the
	// rest of the screen is cleared (each cleared pixel costs a software GL).
	if panels || g.opts.HideUI {
		fillOutside(screen, g.lay.view, backgroundColor)
	} else {
		if st := g.lay.status.Intersect(screen.Bounds()); !st.Empty() {
			screen.SubImage(st).(*ebiten.Image).Fill(backgroundColor) // the message bar is translucent
		}
	}
	g.drawView(view)
	if !g.opts.HideUI {
		// --hide-ui: the scene only, no labels, panels or messages.
		g.drawCacheLabels(view)
		g.drawMessages(screen)
		if panels {
			g.drawGrips(screen)
			g.ui.Draw(screen)
			g.drawFieldHighlight(screen)
			g.panelsDrawn = t0
		}
	}
	// A scripted run with --build counts its frames once the build is
	// done, with --demo-obstacles once the demo has run, with --scenario
	// --run once every step ran (or one failed), with AutoCache once the
	// cache is built.
	if !(g.opts.Build && g.buildRequested) && !g.cacheDemoPending() && !g.scenarioPending() && !g.autoCachePending() {
		g.frames++
	}

	if g.opts.Frames > 0 && g.frames >= g.opts.Frames && !g.quit {
		if g.opts.Screenshot != "" {
			if err := saveScreen(screen, g.opts.Screenshot); err != nil {
				g.exitErr = err
			} else {
				fmt.Fprintln(os.Stderr, "navviz: screenshot saved to", g.opts.Screenshot)
			}
		}
		g.quit = true
	}
	if g.shotPath != "" {
		p := g.shotPath
		g.shotPath = ""
		if err := saveScreen(screen, p); err != nil {
			g.App.report(err)
		} else {
			g.App.Status = "screenshot saved to " + p
		}
	}
}

// saveScreen reads the screen back and writes it to path as PNG.
func saveScreen(screen *ebiten.Image, path string) error {
	b := screen.Bounds()
	pix := make([]byte, 4*b.Dx()*b.Dy())
	screen.ReadPixels(pix)
	return savePNG(path, rgbaFromPixels(pix, b.Dx(), b.Dy()))
}
