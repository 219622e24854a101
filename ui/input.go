package ui

import (
	"os"
	"time"

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

// pointerKind is what a toolPointer event is.
type pointerKind int

const (
	pointerNone    pointerKind = iota
	pointerPress               // the left button went down in the view
	pointerDrag                // it moved while down
	pointerRelease             // it came up
	pointerWheel               // a wheel step over the view, no gesture running (runTools)
)

// pointerEvent is one event of a toolPointer: where, and for a release
// whether the pointer moved more than clickSlopPx since the press.
type pointerEvent struct {
	Kind  pointerKind
	X, Y  int
	Moved bool
	// PressX and PressY are where the press was.
	PressX, PressY int
	// WheelY is a pointerWheel's steps (as frameInput.WheelY).
	WheelY float64
}

// toolPointer turns input snapshots into the left-button events of a tool.
// While a tool is active a plain left press in the view (not over a panel,
// no widget focused, shift not held: shift+left still pans) starts a
// gesture the tool owns until the button is released; the camera
// controller does not see those frames' left button.
type toolPointer struct {
	down           bool
	pressX, pressY int
	lastX, lastY   int
	moved          bool
	prevLeft       bool
}

// step consumes one snapshot; active says whether a tool takes left
// presses. consumed says the left button belongs to the tool this frame.
func (p *toolPointer) step(in frameInput, active bool) (ev pointerEvent, consumed bool) {
	free := in.Captured&(debugui.InputCapturingStateHover|debugui.InputCapturingStateFocus) == 0
	defer func() { p.prevLeft = in.Left }()
	if p.down {
		if in.Left {
			if in.X != p.lastX || in.Y != p.lastY {
				dx, dy := in.X-p.pressX, in.Y-p.pressY
				if dx < -clickSlopPx || dx > clickSlopPx || dy < -clickSlopPx || dy > clickSlopPx {
					p.moved = true
				}
				p.lastX, p.lastY = in.X, in.Y
				return pointerEvent{Kind: pointerDrag, X: in.X, Y: in.Y, Moved: p.moved, PressX: p.pressX, PressY: p.pressY}, true
			}
			return pointerEvent{}, true
		}
		p.down = false
		return pointerEvent{Kind: pointerRelease, X: in.X, Y: in.Y, Moved: p.moved, PressX: p.pressX, PressY: p.pressY}, true
	}
	if active && in.Left && !p.prevLeft && free && !in.Shift {
		p.down, p.moved = true, false
		p.pressX, p.pressY, p.lastX, p.lastY = in.X, in.Y, in.X, in.Y
		return pointerEvent{Kind: pointerPress, X: in.X, Y: in.Y, PressX: in.X, PressY: in.Y}, true
	}
	return pointerEvent{}, false
}

// cancel ends the gesture in progress: the tool sees nothing more of it,
// and the button held is not a new press.
func (p *toolPointer) cancel() { *p = toolPointer{prevLeft: p.prevLeft} }

// toolKeys are the key presses of one frame the cache tools use.
type toolKeys struct {
	Undo, Redo                       bool // Ctrl+Z; Ctrl+Y or Ctrl+Shift+Z
	Delete, Escape, Enter, Backspace bool
	// Tool is 1 + the toolbar entry whose key (1-8) was pressed without
	// Ctrl or Alt; 0: none.
	Tool int
}

// readToolKeys samples the keys of the cache tools (call from Update).
func readToolKeys() toolKeys {
	ctrl := ebiten.IsKeyPressed(ebiten.KeyControl) || ebiten.IsKeyPressed(ebiten.KeyMeta)
	shift := ebiten.IsKeyPressed(ebiten.KeyShift)
	z := inpututil.IsKeyJustPressed(ebiten.KeyZ)
	k := toolKeys{
		Undo:      ctrl && z && !shift,
		Redo:      ctrl && (inpututil.IsKeyJustPressed(ebiten.KeyY) || (z && shift)),
		Delete:    inpututil.IsKeyJustPressed(ebiten.KeyDelete),
		Escape:    inpututil.IsKeyJustPressed(ebiten.KeyEscape),
		Enter:     inpututil.IsKeyJustPressed(ebiten.KeyEnter) || inpututil.IsKeyJustPressed(ebiten.KeyNumpadEnter),
		Backspace: inpututil.IsKeyJustPressed(ebiten.KeyBackspace),
	}
	if !ctrl && !ebiten.IsKeyPressed(ebiten.KeyAlt) {
		k.Tool = toolbarKey(inpututil.IsKeyJustPressed) + 1
	}
	return k
}

// applyIntent moves the camera and triggers the actions of one frame.
func (g *Game) applyIntent(in viewIntent) {
	cam := &g.App.Camera
	// Framing first: a wheel step or drag that arrived in the same tick
	// (input of a slow frame) then still moves the framed camera.
	if in.Frame {
		g.App.FrameLevel()
	}
	if in.OrbitDX != 0 || in.OrbitDY != 0 {
		cam.Orbit(in.OrbitDX, in.OrbitDY)
	}
	if in.PanDX != 0 || in.PanDY != 0 {
		cam.Pan(in.PanDX, in.PanDY, g.w, g.h)
	}
	if in.ZoomSteps != 0 {
		g.App.ZoomAt(in.ZoomSteps, float64(in.ZoomX), float64(in.ZoomY), g.w, g.h)
	}
	if in.ToggleTopDown {
		g.App.SetTopDown(!cam.TopDown)
	}
	if in.Click {
		g.App.SetStatus(g.App.Click(float64(in.ClickX), float64(in.ClickY), g.w, g.h))
		if g.App.Picked() != 0 {
			g.setTab(dockRight, tabInspect) // the Inspector shows the pick
		}
	}
	if in.Screenshot {
		dir, err := os.Getwd()
		if err != nil {
			dir = "."
		}
		g.shotPath = screenshotName(dir, time.Now(), fileExists)
	}
}
