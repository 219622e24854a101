package ui

import (
	"github.com/ebitengine/debugui"
)

// inspectorRows is the height of the Inspector's list, in debugui rows:
// a fixed area (it scrolls when the polygon has more lines), so that the
// Layer rebuilds section under it stays in place whatever is picked and
// however a swap changes the polygon.
const inspectorRows = 12

// inspectorPanel shows the picked polygon: the navmesh it is of,
// reference, tile, layer, area, flags, corners, edges and links
// (inspectorLines), under its buttons.
func (g *Game) inspectorPanel(ctx *debugui.Context) {
	a := g.App
	ctx.SetGridLayout([]int{-1, -1}, nil)
	ctx.Button("Frame its tile").On(a.FrameSelection)
	ctx.Button("Clear").On(func() {
		a.ClearPick()
		a.SetStatus("polygon pick cleared")
	})
	ctx.SetGridLayout(nil, nil)
	lines := []string{"Nothing picked: left-click the level with the select tool (key 1) to pick a polygon."}
	if a.Picked() != 0 {
		lines = a.InspectorLines()
	}
	ctx.SetGridLayout([]int{-1}, []int{inspectorRows*22 - 4})
	ctx.Panel(func(debugui.ContainerLayout) {
		ctx.Loop(len(lines), func(i int) { ctx.Text(lines[i]) })
	})
	ctx.SetGridLayout(nil, nil)
}
