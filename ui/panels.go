package ui

import (
	"fmt"
	"time"

	"github.com/ebitengine/debugui"
)

// panels builds the debugui windows of one frame: the docked columns
// (dock.go), each a list of sections, one panel_*.go file each. Buttons only record what to do;
// loading happens after the panels, in Update.
func (g *Game) panels(ctx *debugui.Context) error {
	if g.scen != nil {
		// Playing a scenario: its panel and the Stats.
		g.dockWindow(ctx, dockLeft, "navviz", func() {
			g.section(ctx, dockLeft, "Scenario", func() { g.scenarioPanel(ctx) }) // panel_scenario.go
			g.section(ctx, dockLeft, "Stats", func() { g.statsPanel(ctx) })
		})
		return nil
	}
	g.dockWindow(ctx, dockLeft, "navviz", func() {
		// Stats before View, whose legend grows with the overlays.
		g.section(ctx, dockLeft, "Level", func() { g.levelPanel(ctx) })
		g.section(ctx, dockLeft, "Stats", func() { g.statsPanel(ctx) })
		g.section(ctx, dockLeft, "View", func() { g.viewPanel(ctx) })
	})
	g.dockWindow(ctx, dockRight, "Properties", func() {
		if g.App.Picked() != 0 {
			g.section(ctx, dockRight, "Inspector", func() { g.inspectorPanel(ctx) })
		}
		if g.App.PathPanelOpen() {
			g.section(ctx, dockRight, "Path", func() { g.pathPanel(ctx) }) // panel_path.go
		}
		g.section(ctx, dockRight, "Build", func() { g.buildPanel(ctx) })
		if g.cache.open {
			g.section(ctx, dockRight, "Cache", func() { g.cachePanel(ctx) }) // panel_cache.go
		}
	})
	return nil
}

// runPanels lays the debugui panels out (unless --hide-ui), or, when
// nothing they show changed (panelsIdle), reuses what they reported last.
// It returns whether the pointer is over a panel or a widget has the focus
// (the camera controller then ignores such input).
func (g *Game) runPanels() (debugui.InputCapturingState, error) {
	var captured debugui.InputCapturingState
	if g.opts.HideUI {
		return captured, nil
	}
	sig := g.readSignature(g.panelsCaptured)
	if g.panelsIdle(sig) {
		return g.panelsCaptured, nil
	}
	g.feedPointer()
	selectedField = fieldHighlight{}
	captured, err := g.ui.Update(g.panels)
	if err != nil {
		return captured, fmt.Errorf("ui: panels: %w", err)
	}
	g.App.Report(takeSelectAllErr())
	g.panelsSettled = sig == g.panelsSig && captured == g.panelsCaptured
	g.panelsRan, g.panelsSig, g.panelsCaptured = time.Now(), sig, captured
	return captured, nil
}
