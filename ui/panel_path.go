package ui

import (
	"fmt"

	"github.com/ebitengine/debugui"

	"navviz/core/geom"
)

// pathPanel shows the path's figures and a Clear button.
func (g *Game) pathPanel(ctx *debugui.Context) {
	a := g.App
	pt := func(name string, has bool, p geom.Vec3) string {
		if !has {
			return name + ": (not set)"
		}
		return fmt.Sprintf("%s: %.2f, %.2f, %.2f m", name, p.X, p.Y, p.Z)
	}
	ctx.Text(pt("Start", a.HasPathStart, a.PathStart))
	ctx.Text(pt("End", a.HasPathEnd, a.PathEnd))
	switch {
	case a.PathErr != "":
		ctx.Text("No path: " + a.PathErr)
	case a.PathPoints != nil:
		ctx.Text(fmt.Sprintf("Length: %.2f m, %d corners", a.PathLengthM, len(a.PathPoints)))
		ctx.Text(fmt.Sprintf("Corridor: %d polygons", len(a.PathCorridor)))
		if a.PathPartial {
			ctx.Text("Partial: the end is unreachable")
		}
	}
	src := "plain build"
	if a.cv().has {
		src = "tile cache"
	}
	ctx.Text(fmt.Sprintf("Mesh: %s; searches: %d", src, a.PathSearches))
	ctx.Button("Clear path").On(func() {
		a.ClearPath()
		a.Status = "path cleared"
	})
}
