package ui

import (
	"fmt"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
)

// Layout implements ebiten.Game: the screen is the window's device
// pixels divided by the UI scale (Ebitengine stretches it onto the
// window); the docked panels and the 3D view share it (dock.go).
func (g *Game) Layout(outsideWidth, outsideHeight int) (int, int) {
	f := deviceScale() / g.uiScale()
	w := max(1, int(float64(outsideWidth)*f+0.5))
	h := max(1, int(float64(outsideHeight)*f+0.5))
	if w != g.screenW || h != g.screenH {
		g.screenW, g.screenH = w, h
		g.relayout()
	}
	return g.screenW, g.screenH
}

// deviceScale is the monitor's device scale factor (1 where Ebitengine
// does not know it).
func deviceScale() float64 {
	if m := ebiten.Monitor(); m != nil {
		if f := m.DeviceScaleFactor(); f > 0 {
			return f
		}
	}
	return 1
}

// uiScale is the UI scale: the one chosen (Options.UIScale, the View
// tab), else the device scale factor snapped to UIScales (a 2x monitor
// gets 2x: the same size on screen as a 1x one).
func (g *Game) uiScale() float64 {
	if g.opts.UIScale > 0 {
		return g.opts.UIScale
	}
	return snapUIScale(deviceScale())
}

// setUIScale chooses UI scale s (one of UIScales); the next Layout
// applies it.
func (g *Game) setUIScale(s float64) {
	g.opts.UIScale = s
	g.App.SetStatus(fmt.Sprintf("UI scale %gx", s))
}

// Update implements ebiten.Game: it applies dialog results and dropped
// files, runs the panels, and turns the remaining input into camera moves.
func (g *Game) Update() error {
	g.pace()
	if g.quit {
		return ebiten.Termination
	}
	g.takeOpenedLevel() // a dialog's answer or a dropped file (level_open.go)

	// debugui reports whether the pointer is over a panel or a widget has
	// the focus; the camera controller ignores such input. --hide-ui
	// shows no panel.
	g.relayout()
	captured, err := g.runPanels() // panels.go
	if err != nil {
		return err
	}
	if g.scen != nil {
		// Playing a scenario: its runner owns the scene (panel_scenario.go).
		g.scenarioUpdate(captured)
		g.redraw.mark(reasonPlayback)
		g.endUpdate(captured)
		return nil
	}

	g.loadPending() // level_open.go
	g.pollBuild()

	// The cache tools take the left button and the wheel when they use
	// them (cache_frame.go, tool.go).
	// The Path tool's modifier clicks come first (tool_path.go); the path
	// follows every swap through syncSpanOverlays.
	// The dock (Tab, its grips) first: it hands on input in the view's
	// coordinates (dock.go).
	g.applyIntent(g.ctl.step(g.cacheFrame(g.pathFrame(g.dockInput(g.nextInput(captured))))))
	if g.App.TickAgents() { // after this tick's swaps (agents.go)
		g.redraw.mark(reasonAgents)
	}
	g.App.SyncSpanOverlays()
	g.benchStep()
	g.endUpdate(captured)
	return nil
}

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
			g.drawToolbar(screen) // toolbar.go
			g.ui.Draw(screen)
			g.drawFieldHighlight(screen)
			g.panelsDrawn = t0
		}
	}
	g.countFrame(screen) // screenshot_save.go
	g.saveAskedShot(screen)
}
