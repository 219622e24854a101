package ui

import (
	"fmt"
	"slices"

	"github.com/ebitengine/debugui"

	"navviz/render"
)

// viewModes are the choices of the View panel's mode dropdown.
var viewModes = []string{"orbit", "top"}

// viewUI is the View panel's view state.
type viewUI struct {
	modeIdx int // the mode dropdown (index in viewModes)
}

// viewPanel is the View tab: a checkbox per overlay, the view mode, the
// projection, the UI scale and the legend.
func (g *Game) viewPanel(ctx *debugui.Context) {
	a := g.App
	ctx.Text("Overlays")
	ovs := a.Scene().Overlays
	ctx.SetGridLayout([]int{-1, -1}, nil)
	ctx.Loop(len(ovs), func(i int) {
		o := ovs[i]
		v := o.Visible
		ctx.Checkbox(&v, o.Name).On(func() { a.SetOverlayVisible(o.Name, v) })
	})
	ctx.SetGridLayout(nil, nil)
	g.viewUI.modeIdx = 0
	if a.Camera.TopDown {
		g.viewUI.modeIdx = 1
	}
	ctx.SetGridLayout([]int{50, -1}, nil)
	ctx.Text("Mode")
	ctx.Dropdown(&g.viewUI.modeIdx, viewModes).On(func() { a.SetTopDown(g.viewUI.modeIdx == 1) })
	ctx.SetGridLayout(nil, nil)

	ortho := a.Camera.Ortho
	ctx.Checkbox(&ortho, "Orthographic").On(func() { a.SetOrtho(ortho) })
	ctx.Button("Frame level (F)").On(a.FrameLevel)
	scaleIdx := slices.Index(UIScales, g.uiScale())
	names := make([]string, len(UIScales))
	for i, u := range UIScales {
		names[i] = fmt.Sprintf("%gx", u)
	}
	if choiceButtons(ctx, "Scale", &scaleIdx, names) {
		g.setUIScale(UIScales[scaleIdx])
	}
	// The legend grows with the overlays shown: it comes last.
	g.section(ctx, dockLeft, "Legend", func() {
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
		if v := a.CacheView(); v.Has && slices.Contains(names, render.OverlayCachePolys) && v.Agent < len(v.Agents) {
			ctx.Text(fmt.Sprintf("cache-polys shows the mesh of agent %q (Cache tab, Agent sizes).", v.Agents[v.Agent].Name))
		}
	})

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

// controlsHelp is the Level tab's reminder of the mouse and the keys.
func controlsHelp(ctx *debugui.Context) {
	ctx.Text("Right-drag orbit, middle or shift+left drag pan, wheel zoom towards the cursor, F frame, T top-down, Tab hide panels, F12 screenshot. Left-click picks a polygon (after a build) and its tile. Ctrl+left-click sets a path start, Ctrl+right- or Alt+left-click its end. Keys 1-8 choose the toolbar's tools.")
}
