package ui

import (
	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
)

// pathTool is the Path tool's gesture state (path.go holds the points and
// the path). It is not one of the Tools section's choices: its modifier
// clicks work whichever tool is active, and they come before the tools
// (Game.Update), so that neither the tools, the pick nor the camera see
// them.
type pathTool struct {
	// leftDown and rightDown: a modifier click of that button is in
	// progress; prevLeft and prevRight are the buttons as the previous
	// frame read them (before any tool took them).
	leftDown, rightDown bool
	prevLeft, prevRight bool
}

// pathFrame handles the Path tool's gestures (Ctrl+left: start;
// Ctrl+right or Alt+left: end) on a press in the view, and removes the
// buttons of such a gesture from the input until they are released, so
// that neither the camera, the pick nor the cache tools see them.
func (g *Game) pathFrame(in frameInput) frameInput {
	ctrl := ebiten.IsKeyPressed(ebiten.KeyControl) || ebiten.IsKeyPressed(ebiten.KeyMeta)
	alt := ebiten.IsKeyPressed(ebiten.KeyAlt)
	return g.pathStep(in, ctrl, alt)
}

// pathStep is pathFrame with the modifier keys given (tests).
func (g *Game) pathStep(in frameInput, ctrl, alt bool) frameInput {
	a := g.App
	t := &g.tools.path
	rawLeft, rawRight := in.Left, in.Right
	defer func() { t.prevLeft, t.prevRight = rawLeft, rawRight }()
	free := in.Captured&(debugui.InputCapturingStateHover|debugui.InputCapturingStateFocus) == 0
	pick := func(end bool) {
		if msg, err := a.PickPathPoint(end, float64(in.X), float64(in.Y), g.w, g.h); err != nil {
			a.SetStatus(err.Error())
		} else {
			a.SetStatus(msg)
		}
	}
	if t.leftDown {
		if in.Left {
			in.Left = false
		} else {
			t.leftDown = false
		}
	} else if in.Left && !t.prevLeft && free && !in.Shift && (ctrl || alt) && !g.ctl.dragging() {
		t.leftDown = true
		in.Left = false
		pick(!ctrl)
	}
	if t.rightDown {
		if in.Right {
			in.Right = false
		} else {
			t.rightDown = false
		}
	} else if in.Right && !t.prevRight && free && ctrl && !g.ctl.dragging() {
		t.rightDown = true
		in.Right = false
		pick(true)
	}
	return in
}
