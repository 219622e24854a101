package ui

import "github.com/ebitengine/debugui"

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
		if g.App.Picked != 0 {
			g.section(ctx, dockRight, "Inspector", func() { g.inspectorPanel(ctx) })
		}
		if g.App.pathPanelOpen() {
			g.section(ctx, dockRight, "Path", func() { g.pathPanel(ctx) }) // panel_path.go
		}
		g.section(ctx, dockRight, "Build", func() { g.buildPanel(ctx) })
		if g.cache.open {
			g.section(ctx, dockRight, "Cache", func() { g.cachePanel(ctx) }) // panel_cache.go
		}
	})
	return nil
}
