package ui

import (
	"fmt"

	"github.com/ebitengine/debugui"

	"navviz/core/geom"
)

// pathPanel shows a Clear button and the path's figures.
func (g *Game) pathPanel(ctx *debugui.Context) {
	a := g.App
	ctx.Button("Clear path").On(func() {
		a.ClearPath()
		a.SetStatus("path cleared")
	})
	pt := func(name string, has bool, p geom.Vec3) string {
		if !has {
			return name + ": (not set)"
		}
		return fmt.Sprintf("%s: %.2f, %.2f, %.2f m", name, p.X, p.Y, p.Z)
	}
	start, hasStart := a.Path.Start()
	end, hasEnd := a.Path.End()
	ctx.Text(pt("Start", hasStart, start))
	ctx.Text(pt("End", hasEnd, end))
	switch r := a.Path.Result(); {
	case r.Err != "":
		ctx.Text("No path: " + r.Err)
	case r.Points != nil:
		ctx.Text(fmt.Sprintf("Length: %.2f m, %d corners", r.LengthM, len(r.Points)))
		ctx.Text(fmt.Sprintf("Corridor: %d polygons", len(r.Corridor)))
		if r.Partial {
			ctx.Text("Partial: the end is unreachable")
		}
	}
	src := "plain build"
	if a.CacheView().Has {
		src = "tile cache"
	}
	ctx.Text(fmt.Sprintf("Mesh: %s; searches: %d", src, a.Path.Searches()))
	ctx.Text("The path tool (key 7) sets the start and the end with plain clicks; with every tool Ctrl+click sets the start, Ctrl+right-click or Alt+click the end.")
}
