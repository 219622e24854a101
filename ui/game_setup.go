package ui

import (
	"fmt"
	"image"
	"image/color"
	"os"
	"runtime/debug"
	"time"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"

	"navviz/render"
	"navviz/ui/session"
)

// The Game type, NewGame and Run (the window's setup).

// memoryLimitBytes is the Go heap's soft limit in the window
// (runtime/debug.SetMemoryLimit; the GOMEMLIMIT variable overrides it):
// near it the collector runs more often instead of letting the heap grow
// to twice the live data, which keeps navviz with every overlay on a
// large level within a few hundred megabytes.
const memoryLimitBytes = 300 << 20

// Background colour of the 3D view.
var backgroundColor = color.RGBA{R: 0x26, G: 0x2a, B: 0x30, A: 0xff}

// Game is navviz's ebiten.Game: it owns the App state, the debugui panels,
// the camera controller and the GPU drawing of the scene.
type Game struct {
	// App is the session state; tests inspect it.
	App *session.App

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
	// pointer is the pointer in screen pixels as dockInput last saw it
	// (the toolbar's and the message bar's hover).
	pointer image.Point
	// panelGen changes when something outside debugui (the toolbar, a
	// key) changes what the panels show (a tab, the tool).
	panelGen int
	frames   int // frames drawn so far
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

	runner         *session.BuildRunner // background builds (build_state.go)
	form           buildForm            // Build panel editing state (panel_build.go)
	buildRequested bool                 // a build was started and has not ended
	framedBuild    bool                 // opts.Build: the first build was framed

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
		App:        session.NewApp(),
		opts:       opts,
		screenW:    opts.Width,
		screenH:    opts.Height,
		dock:       newDockState(),
		dialogDone: make(chan dialogResult, 1),
		runner:     session.NewBuildRunner(),
		view:       &sceneView{},
		tools:      newToolBox(),
		// Scripted runs and scenarios take each frame of the state of its
		// own Update: the view is built in Update, not in a job.
		scene: newSceneJobs(syncScenes || opts.Frames > 0 || opts.Scenario != ""),
	}
	g.App.SetToolHooks(&g.tools, g.tools.active)
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
	// --scope overrides the scope the level chose (a Detour file's mesh
	// draws every tile); without it the level's stays.
	if opts.Scope != "" {
		scope, serr := session.ParseScope(opts.Scope)
		if serr != nil {
			return nil, serr
		}
		g.App.SetScope(scope)
	}
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
