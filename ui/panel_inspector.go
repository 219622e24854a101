package ui

import (
	"github.com/ebitengine/debugui"
)

// inspectorPanel shows the picked polygon: the navmesh it is of,
// reference, tile, layer, area, flags, corners, edges and links
// (inspectorLines).
func (g *Game) inspectorPanel(ctx *debugui.Context) {
	a := g.App
	lines := a.InspectorLines()
	ctx.Loop(len(lines), func(i int) { ctx.Text(lines[i]) })
	ctx.SetGridLayout([]int{-1, -1}, nil)
	ctx.Button("Frame its tile").On(a.FrameSelection)
	ctx.Button("Clear").On(func() {
		a.ClearPick()
		a.SetStatus("polygon pick cleared")
	})
	ctx.SetGridLayout(nil, nil)
}
