package ui

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"

	"navviz/core/level"
	"navviz/core/pipeline"
	"navviz/render"
)

// viewModes are the choices of the View panel's mode dropdown.
var viewModes = []string{"orbit", "top"}

// panels builds the debugui windows of one frame: the docked columns
// (dock.go), each a list of sections. Buttons only record what to do;
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

// levelPanel lists the built-in levels, the Open… control and the last error.
func (g *Game) levelPanel(ctx *debugui.Context) {
	a := g.App
	name := a.LevelName
	if name == "" {
		name = "(none)"
	} else if !isBuiltin(name) {
		name = filepath.Base(name)
	}
	ctx.Text("Current: " + name)

	builtins := level.BuiltinNames()
	ctx.SetGridLayout([]int{-1, -1}, nil)
	ctx.Loop(len(builtins), func(i int) {
		n := builtins[i]
		ctx.Button(n).On(func() { g.RequestLoad(n) })
	})
	ctx.SetGridLayout(nil, nil)

	if hasFileDialog {
		ctx.Button(g.dialogLabel("Open…")).On(g.startOpenDialog)
	} else {
		ctx.Text("OBJ file path:")
		ctx.SetGridLayout([]int{-3, -1}, nil)
		ctx.TextField(&g.pathField)
		ctx.Button("Open").On(func() {
			if g.pathField != "" {
				g.RequestLoad(g.pathField)
			}
		})
		ctx.SetGridLayout(nil, nil)
	}
	ctx.Text("Or drop an .obj file on the window.")
	g.cacheToggle(ctx) // the Cache panel's switch (panel_cache.go)
	if a.Err != "" {
		ctx.Text("Last action failed: the error is at the bottom of the window.")
		ctx.Button("Dismiss error").On(func() { a.Err = "" })
	}
}

// isBuiltin reports whether name is a built-in level name.
func isBuiltin(name string) bool {
	for _, n := range level.BuiltinNames() {
		if n == name {
			return true
		}
	}
	return false
}

// viewPanel has a checkbox per overlay, the view mode, the projection and
// a reminder of the controls.
func (g *Game) viewPanel(ctx *debugui.Context) {
	a := g.App
	ctx.Text("Overlays")
	ovs := a.Scene.Overlays
	ctx.SetGridLayout([]int{-1, -1}, nil)
	ctx.Loop(len(ovs), func(i int) {
		o := ovs[i]
		v := o.Visible
		ctx.Checkbox(&v, o.Name).On(func() { a.SetOverlayVisible(o.Name, v) })
	})
	ctx.SetGridLayout(nil, nil)
	ctx.Header("Legend", true, func() {
		var names []string
		for _, o := range ovs {
			if o != nil && o.Visible {
				names = append(names, o.Name)
			}
		}
		if len(names) == 0 {
			ctx.Text("No overlay is on.")
		}
		legendRows(ctx, names)
		if v := a.cv(); v.has && slices.Contains(names, render.OverlayCachePolys) && v.agent < len(v.agents) {
			ctx.Text(fmt.Sprintf("cache-polys shows the mesh of agent %q (Cache panel, Agent sizes).", v.agents[v.agent].Name))
		}
	})

	g.viewModeIdx = 0
	if a.Camera.TopDown {
		g.viewModeIdx = 1
	}
	ctx.SetGridLayout([]int{50, -1}, nil)
	ctx.Text("Mode")
	ctx.Dropdown(&g.viewModeIdx, viewModes).On(func() { a.SetTopDown(g.viewModeIdx == 1) })
	ctx.SetGridLayout(nil, nil)

	ortho := a.Camera.Ortho
	ctx.Checkbox(&ortho, "Orthographic").On(func() { a.SetOrtho(ortho) })
	ctx.Button("Frame level (F)").On(a.FrameLevel)
	ctx.Text("Right-drag orbit, middle or shift+left drag pan, wheel zoom towards the cursor, F frame, T top-down, Tab hide panels, F12 screenshot. Left-click picks a polygon (after a build) and its tile. Ctrl+left-click sets a path start, Ctrl+right- or Alt+left-click its end.")
}

// legendRows lists the legends (render.OverlayLegend, the list the
// scenario shots draw too) of the overlays names: a swatch and a label
// per colour key, the meaning after the label.
func legendRows(ctx *debugui.Context, names []string) {
	ctx.SetGridLayout([]int{16, -1}, nil)
	ctx.Loop(len(names), func(i int) {
		entries := render.OverlayLegend(names[i])
		ctx.Loop(len(entries), func(k int) {
			e := entries[k]
			if e.Plain {
				ctx.Text("")
			} else {
				swatch(ctx, e.Col)
			}
			label := e.Label
			if e.Meaning != "" {
				label += ": " + e.Meaning
			}
			ctx.Text(label)
		})
	})
	ctx.SetGridLayout(nil, nil)
}

// statsPanel shows the size of the level and the frame rate.
func (g *Game) statsPanel(ctx *debugui.Context) {
	s := g.App.Stats()
	ctx.Text(fmt.Sprintf("Triangles: %d, vertices: %d", s.Triangles, s.Vertices))
	if !s.Bounds.Empty() {
		sz := s.Bounds.Size()
		ctx.Text(fmt.Sprintf("Size: %.1f x %.1f x %.1f m", sz.X, sz.Y, sz.Z))
		ctx.Text(fmt.Sprintf("From %.1f, %.1f, %.1f to %.1f, %.1f, %.1f m", s.Bounds.Min.X, s.Bounds.Min.Y, s.Bounds.Min.Z,
			s.Bounds.Max.X, s.Bounds.Max.Y, s.Bounds.Max.Z))
	}
	ctx.Text(fmt.Sprintf("FPS: %.1f  TPS: %.1f", ebiten.ActualFPS(), ebiten.ActualTPS()))
	ctx.Text(fmt.Sprintf("Redraws %.1f ms apart (draw %.1f ms)", g.stats.frameMs, g.stats.drawMs))
	if st := &g.stats; st.rssBytes > 0 {
		ctx.Text(fmt.Sprintf("Memory: %s resident, Go heap %s", pipeline.FormatBytes(int64(st.rssBytes)), pipeline.FormatBytes(int64(st.heapBytes))))
	} else {
		ctx.Text(fmt.Sprintf("Memory: Go heap %s", pipeline.FormatBytes(int64(st.heapBytes))))
	}
	ctx.Text(fmt.Sprintf("Drawn: %d tris, %d batches", g.view.drawnTris, g.view.drawnBatches))
	ctx.Text(fmt.Sprintf("Scene rebuild: %.1f ms", g.view.buildMs))
}
