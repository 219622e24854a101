package ui

import (
	"fmt"
	"time"

	"github.com/ebitengine/debugui"
)

// The columns' tabs. Each column's window starts with a row of tab
// buttons that never moves; below it the tab's panels, fixed controls
// first and lists and texts that grow last, so that nothing a user may
// be about to click moves when content changes (STYLE.md, Absorb D).
const (
	tabLevel = iota // left column
	tabView
)

const (
	tabBuild = iota // right column
	tabCache
	tabTools
	tabInspect
	tabPath
)

// tabNames are the tabs of each column, by tab constant.
var tabNames = [2][]string{
	dockLeft:  {"Level", "View"},
	dockRight: {"Build", "Cache", "Tools", "Inspect", "Path"},
}

// panels builds the debugui windows of one frame: the docked columns
// (dock.go), each a row of tabs over the tab's sections, one panel_*.go
// file each. Buttons only record what to do; loading happens after the
// panels, in Update.
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
		switch g.tabRow(ctx, dockLeft) {
		case tabLevel:
			g.section(ctx, dockLeft, "Level", func() { g.levelPanel(ctx) })
			g.section(ctx, dockLeft, "Stats", func() { g.statsPanel(ctx) })
			g.section(ctx, dockLeft, "Controls", func() { controlsHelp(ctx) }) // panel_view.go
		case tabView:
			g.viewPanel(ctx)
		}
	})
	g.dockWindow(ctx, dockRight, "Properties", func() {
		switch g.tabRow(ctx, dockRight) {
		case tabBuild:
			g.buildPanel(ctx)
		case tabCache:
			g.cachePanel(ctx) // panel_cache.go
		case tabTools:
			g.toolsSection(ctx)
		case tabInspect:
			g.inspectorPanel(ctx)                                                         // panel_inspector.go
			g.section(ctx, dockRight, "Layer rebuilds", func() { g.inspectSection(ctx) }) // panel_inspect.go
		case tabPath:
			g.pathPanel(ctx) // panel_path.go
		}
	})
	return nil
}

// tabRow draws column side's row of tabs (the current one in brackets),
// switches on a click, and returns the tab to show.
func (g *Game) tabRow(ctx *debugui.Context, side int) int {
	names := tabNames[side]
	cur := g.dock.tab[side]
	widths := make([]int, len(names))
	for i := range widths {
		widths[i] = -1
	}
	ctx.SetGridLayout(widths, nil)
	ctx.IDScope("tabs", func() {
		ctx.Loop(len(names), func(i int) {
			name := names[i]
			if i == cur {
				name = "[" + name + "]"
			}
			ctx.Button(name).On(func() { g.setTab(side, i) })
		})
	})
	ctx.SetGridLayout(nil, nil)
	return cur
}

// setTab shows tab t of column side.
func (g *Game) setTab(side, t int) {
	if t >= 0 && t < len(tabNames[side]) && g.dock.tab[side] != t {
		g.dock.tab[side] = t
		g.panelGen++
	}
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
