package ui

import (
	"fmt"
	"image"
	"reflect"
	"unsafe"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
)

// Pointer jumps and debugui.
//
// debugui v0.2.0 reads Ebitengine's input itself and resolves a press
// against the widget it hovered in the previous tick (Context.hover, set
// while the widgets of a tick are laid out): a press on widget B that
// arrives in the same tick as a move from widget A (a slow tick, or
// xdotool's "mousemove X Y click 1") gives A the focus and toggles A (and
// B as well when B comes later in the tick). It also moves a window
// whose title is pressed by the whole jump (Context.lastPointingPos is
// the previous tick's position).
//
// Ebitengine offers no way to hand debugui a made-up tick, and a press
// cannot be held back for the next tick either (debugui sees a press only
// in the tick Ebitengine reports it). pointerFeed therefore leaves
// debugui, before the panels of such a tick run, in the state a tick with
// the pointer at its new place and the button up would leave it in:
// nothing hovered from before (each widget then checks the pointer itself
// and the one under it takes the press) and the last pointer position at
// the new place. The press is delivered in its own tick, never dropped.

// pointerJumpPx is how far the pointer may move between two ticks before
// a press in the second one is resolved against the new position only.
const pointerJumpPx = 3

// pointerFeed follows the pointer between ticks (Game.feed).
type pointerFeed struct {
	last image.Point // pointer position of the previous tick
	seen bool        // last is set
}

// before is called once per tick before the panels run, with the
// pointer's position p (screen pixels) and whether the left button was
// pressed in this tick. When the pointer jumped more than pointerJumpPx
// since the previous tick and the button was just pressed, it settles
// debugui at p (settlePointer).
func (f *pointerFeed) before(d *debugui.DebugUI, p image.Point, justPressed bool) error {
	dx, dy := p.X-f.last.X, p.Y-f.last.Y
	jumped := f.seen && (dx > pointerJumpPx || dx < -pointerJumpPx || dy > pointerJumpPx || dy < -pointerJumpPx)
	f.last, f.seen = p, true
	if !jumped || !justPressed {
		return nil
	}
	return settlePointer(d, p)
}

// settlePointer makes debugui forget the widget it hovered and takes p
// (screen pixels) as its last pointer position, as a tick with the
// pointer at p and no button down would. It reaches debugui v0.2.0's
// unexported Context fields hover, lastPointingPos and scaleMinus1 by
// name and fails, changing nothing, when a field is missing or of
// another kind (another debugui version: TestSettlePointer says so).
func settlePointer(d *debugui.DebugUI, p image.Point) error {
	ctx := reflect.ValueOf(d).Elem().FieldByName("ctx")
	if !ctx.IsValid() || ctx.Kind() != reflect.Struct {
		return fmt.Errorf("ui: settle pointer at %v: debugui.DebugUI has no ctx struct", p)
	}
	field := func(name string, kind reflect.Kind) (reflect.Value, error) {
		f := ctx.FieldByName(name)
		if !f.IsValid() || f.Kind() != kind {
			return reflect.Value{}, fmt.Errorf("ui: settle pointer at %v: debugui.Context has no %s field of kind %s", p, name, kind)
		}
		// The field is unexported: write it through its address.
		return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem(), nil
	}
	hover, err := field("hover", reflect.Struct)
	if err != nil {
		return err
	}
	last, err := field("lastPointingPos", reflect.Struct)
	if err != nil {
		return err
	}
	if last.Type() != reflect.TypeOf(image.Point{}) {
		return fmt.Errorf("ui: settle pointer at %v: debugui.Context.lastPointingPos is a %s, not an image.Point", p, last.Type())
	}
	scaleMinus1, err := field("scaleMinus1", reflect.Int)
	if err != nil {
		return err
	}
	scale := int(scaleMinus1.Int()) + 1
	if scale < 1 {
		return fmt.Errorf("ui: settle pointer at %v: debugui scale %d", p, scale)
	}
	hover.SetZero()
	last.Set(reflect.ValueOf(image.Pt(p.X/scale, p.Y/scale)))
	return nil
}

// feedPointer runs pointerFeed.before with Ebitengine's pointer of this
// tick; it is called in Update just before the panels.
func (g *Game) feedPointer() {
	x, y := ebiten.CursorPosition()
	g.App.Report(g.feed.before(&g.ui, image.Pt(x, y), inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft)))
}
