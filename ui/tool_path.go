package ui

import (
	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"

	"navviz/render"
	"navviz/ui/session"
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

// pathPickTool is the toolbar's path tool: plain left clicks on the level
// set the start, then the end, then the start again (the modifier clicks
// of pathTool work with every tool).
type pathPickTool struct {
	nextEnd bool // the next click sets the end
}

func (*pathPickTool) label() string { return "path" }

func (t *pathPickTool) panel(ctx *debugui.Context, _ *Game) {
	next := "start"
	if t.nextEnd {
		next = "end"
	}
	ctx.Text("Click the level: the first click sets the path's start, the next its end (Path tab). Next click: " + next + ". Escape clears the path.")
}

func (*pathPickTool) takesLeft() bool { return true }

func (t *pathPickTool) pointer(ev pointerEvent, g *Game) bool {
	if ev.Kind != pointerRelease || ev.Moved {
		return false
	}
	a := g.App
	msg, err := a.PickPathPoint(t.nextEnd, float64(ev.PressX), float64(ev.PressY), g.w, g.h)
	if err != nil {
		a.SetStatus(err.Error())
		return false
	}
	a.SetStatus(msg)
	t.nextEnd = !t.nextEnd
	g.panelGen++
	return false
}

func (t *pathPickTool) keys(k toolKeys, g *Game) {
	if k.Escape {
		g.App.ClearPath()
		t.nextEnd = false
		g.App.SetStatus("path cleared")
	}
}

func (*pathPickTool) putAway(*session.App)                 {}
func (*pathPickTool) Preview(*session.App) *render.Overlay { return nil }
