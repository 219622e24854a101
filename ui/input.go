package ui

import (
	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
)

// frameInput is a snapshot of the input of one Update, plus what debugui
// said it captured. It is plain data so the camera decisions can be tested
// without a display.
type frameInput struct {
	X, Y                int  // cursor position in screen pixels
	Left, Middle, Right bool // buttons held down
	Shift               bool // either shift key held
	WheelY              float64

	// Key presses of this frame (just pressed, not held): F, T, F12 and
	// Tab (the dock, dock.go).
	KeyFrame, KeyTopDown, KeyScreenshot, KeyDock bool

	// Captured is debugui's capture state for this frame.
	Captured debugui.InputCapturingState
}

// readInput samples Ebitengine's input state. It must be called from Update.
func readInput(captured debugui.InputCapturingState) frameInput {
	x, y := ebiten.CursorPosition()
	_, wy := ebiten.Wheel()
	return frameInput{
		X: x, Y: y,
		Left:          ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft),
		Middle:        ebiten.IsMouseButtonPressed(ebiten.MouseButtonMiddle),
		Right:         ebiten.IsMouseButtonPressed(ebiten.MouseButtonRight),
		Shift:         ebiten.IsKeyPressed(ebiten.KeyShift),
		WheelY:        wy,
		KeyFrame:      inpututil.IsKeyJustPressed(ebiten.KeyF),
		KeyTopDown:    inpututil.IsKeyJustPressed(ebiten.KeyT),
		KeyScreenshot: inpututil.IsKeyJustPressed(ebiten.KeyF12),
		KeyDock:       inpututil.IsKeyJustPressed(ebiten.KeyTab),
		Captured:      captured,
	}
}

// nextInput returns the input of this Update: the first injected snapshot
// (Game.injected, as given, debugui's capture included) when there is one,
// else Ebitengine's (readInput).
func (g *Game) nextInput(captured debugui.InputCapturingState) frameInput {
	if len(g.injected) > 0 {
		in := g.injected[0]
		g.injected = g.injected[1:]
		return in
	}
	return readInput(captured)
}

// viewIntent is what one frame of input asks of the 3D view.
type viewIntent struct {
	OrbitDX, OrbitDY float64 // pixels dragged with the orbit button
	PanDX, PanDY     float64 // pixels dragged with a pan button
	ZoomSteps        float64 // wheel steps, positive = closer
	ZoomX, ZoomY     int     // where the cursor was (zoom towards it)
	Frame            bool    // frame the level (F)
	ToggleTopDown    bool    // toggle top-down view (T)
	Screenshot       bool    // save a screenshot (F12)
	// Click is a plain left click in the view (pressed and released within
	// clickSlopPx, without shift, not over a panel) at ClickX, ClickY.
	Click          bool
	ClickX, ClickY int
}

// clickSlopPx is how far the pointer may move between the press and the
// release of a click.
const clickSlopPx = 4

// dragMode says which camera drag is in progress.
type dragMode int

const (
	dragNone dragMode = iota
	dragOrbit
	dragPanMiddle
	dragPanShiftLeft
)

// viewController turns input snapshots into camera intents. A drag starts
// only when its button goes down while debugui does not capture the pointer
// (it is not over a panel and no widget is focused); once started it keeps
// going until the button is released, even if the pointer passes over a
// panel. The wheel zooms only when the pointer is not over a panel; keys act
// only when no debugui widget (such as a text field) has the focus.
type viewController struct {
	mode         dragMode
	lastX, lastY int
	prev         frameInput // previous snapshot, for just-pressed detection

	// A plain left press in the view that may become a click.
	clicking       bool
	pressX, pressY int
	pressTicks     int // snapshots the left button has been seen down
}

// step consumes one snapshot and returns the intent of this frame.
func (c *viewController) step(in frameInput) viewIntent {
	var out viewIntent
	hover := in.Captured&debugui.InputCapturingStateHover != 0
	focus := in.Captured&debugui.InputCapturingStateFocus != 0
	free := !hover && !focus

	// End a drag whose button was released.
	switch c.mode {
	case dragOrbit:
		if !in.Right {
			c.mode = dragNone
		}
	case dragPanMiddle:
		if !in.Middle {
			c.mode = dragNone
		}
	case dragPanShiftLeft:
		if !in.Left {
			c.mode = dragNone
		}
	}

	// Continue a drag.
	if c.mode != dragNone {
		dx, dy := float64(in.X-c.lastX), float64(in.Y-c.lastY)
		if c.mode == dragOrbit {
			out.OrbitDX, out.OrbitDY = dx, dy
		} else {
			out.PanDX, out.PanDY = dx, dy
		}
	} else if free {
		// Start a drag on a fresh press in the view.
		switch {
		case in.Right && !c.prev.Right:
			c.mode = dragOrbit
		case in.Middle && !c.prev.Middle:
			c.mode = dragPanMiddle
		case in.Left && !c.prev.Left && in.Shift:
			c.mode = dragPanShiftLeft
		}
	}
	c.lastX, c.lastY = in.X, in.Y

	// Plain left clicks (selection): a press in the view without shift,
	// released near where it started.
	switch {
	case in.Left && !c.prev.Left:
		// A right-button orbit or middle-button pan that began in the
		// same tick (events that arrived together on a slow frame) does
		// not eat the left click; a shift+left pan does.
		c.clicking = free && !in.Shift && c.mode != dragPanShiftLeft
		c.pressX, c.pressY = in.X, in.Y
		c.pressTicks = 1
	case in.Left:
		c.pressTicks++
	case !in.Left && c.prev.Left && c.clicking:
		c.clicking = false
		dx, dy := in.X-c.pressX, in.Y-c.pressY
		// A press seen in one snapshot only was released before the next
		// (Ebitengine reports such a press once): the pointer may have
		// moved on by the time the release is seen, but it was no drag.
		if c.pressTicks <= 1 {
			dx, dy = 0, 0
		}
		if dx >= -clickSlopPx && dx <= clickSlopPx && dy >= -clickSlopPx && dy <= clickSlopPx {
			out.Click, out.ClickX, out.ClickY = true, c.pressX, c.pressY
		}
	}

	if !hover && in.WheelY != 0 {
		out.ZoomSteps = in.WheelY
		out.ZoomX, out.ZoomY = in.X, in.Y
	}
	if !focus {
		out.Frame = in.KeyFrame
		out.ToggleTopDown = in.KeyTopDown
	}
	// F12 works even while typing: it cannot be text.
	out.Screenshot = in.KeyScreenshot
	c.prev = in
	return out
}

// dragging reports whether a camera drag is in progress.
func (c *viewController) dragging() bool { return c.mode != dragNone }
