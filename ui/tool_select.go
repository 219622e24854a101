package ui

import (
	"github.com/ebitengine/debugui"

	"navviz/render"
	"navviz/ui/session"
)

// selectTool is the default tool: it takes no gesture, so that a plain
// left click reaches the camera controller and picks a polygon of the live
// navmesh (liveMesh) and selects its tile (App.Click).
type selectTool struct{}

func (*selectTool) label() string { return "select" }

func (*selectTool) panel(ctx *debugui.Context, _ *Game) {
	ctx.Text("Left-click picks a polygon of the live navmesh (the Inspect tab). The toolbar's obstacles, volume and link edit the cache, agents sends the crowd.")
}

func (*selectTool) takesLeft() bool                      { return false }
func (*selectTool) pointer(pointerEvent, *Game) bool     { return false }
func (*selectTool) keys(toolKeys, *Game)                 {}
func (*selectTool) follow(*session.App)                  {}
func (*selectTool) putAway(*session.App)                 {}
func (*selectTool) Preview(*session.App) *render.Overlay { return nil }
