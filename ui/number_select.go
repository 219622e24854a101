package ui

import (
	"fmt"
	"image"
	"image/color"
	"reflect"
	"unsafe"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/bitmapfont/v4"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/exp/textinput"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
)

// Select-all on focus.
//
// A number field that takes the focus selects its whole text, as the
// fields of most tools do, and so does Enter, which commits the text and
// keeps the focus: typing replaces the number, Backspace or Delete clears
// it, Home, End and the arrow keys drop the selection and leave the caret
// at the end. debugui v0.2.0's text field keeps its text in an
// Ebitengine textinput.Field, which replaces its selection with what is
// typed, but gives no way to set the selection or to ask which widget has
// the focus; textField reaches both by name in debugui's unexported
// Context fields (focus, currentID, containerStack and the container's
// textInputTextFields) and fails, changing nothing, when debugui's layout
// differs (TestFocusedTextField says so). debugui draws the text and the
// caret; the highlight is drawn over the field.

// selectionColour is the highlight behind a selected field's text.
var selectionColour = color.RGBA{0x2d, 0x5f, 0xa8, 0xff}

// fieldFace is debugui's font (debugui.DrawText's face), to place the
// highlight where debugui draws the text.
var fieldFace = text.NewGoXFace(bitmapfont.Face)

// textField returns the textinput.Field of the text field debugui laid
// out last and whether that field has the focus.
func textField(ctx *debugui.Context) (*textinput.Field, bool, error) {
	c := reflect.ValueOf(ctx).Elem()
	field := func(v reflect.Value, name string, kind reflect.Kind) (reflect.Value, error) {
		f := v.FieldByName(name)
		if !f.IsValid() || f.Kind() != kind {
			return reflect.Value{}, fmt.Errorf("ui: select-all: debugui has no %s field of kind %s in %s", name, kind, v.Type())
		}
		return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem(), nil
	}
	focus, err := field(c, "focus", reflect.Struct)
	if err != nil {
		return nil, false, err
	}
	cur, err := field(c, "currentID", reflect.Struct)
	if err != nil {
		return nil, false, err
	}
	stack, err := field(c, "containerStack", reflect.Slice)
	if err != nil {
		return nil, false, err
	}
	if stack.Len() == 0 || stack.Index(stack.Len()-1).Kind() != reflect.Pointer || stack.Index(stack.Len()-1).IsNil() {
		return nil, false, fmt.Errorf("ui: select-all: debugui's container stack is empty")
	}
	fields, err := field(stack.Index(stack.Len()-1).Elem(), "textInputTextFields", reflect.Map)
	if err != nil {
		return nil, false, err
	}
	if fields.Type().Key() != cur.Type() {
		return nil, false, fmt.Errorf("ui: select-all: debugui's text fields are keyed by %s, not %s", fields.Type().Key(), cur.Type())
	}
	v := fields.MapIndex(cur)
	if !v.IsValid() {
		return nil, false, nil // not a text field
	}
	f, ok := v.Interface().(*textinput.Field)
	if !ok {
		return nil, false, fmt.Errorf("ui: select-all: debugui's text field is a %s", v.Type())
	}
	return f, focus.Interface() == cur.Interface(), nil
}

// selectAllErr is the first error textField gave (another debugui
// version): the fields then work without select-all, and the Game reports
// it once (takeSelectAllErr).
var selectAllErr struct {
	err      error
	reported bool
}

// noteSelectAllErr keeps the first non-nil err.
func noteSelectAllErr(err error) {
	if err != nil && selectAllErr.err == nil {
		selectAllErr.err = err
	}
}

// takeSelectAllErr returns the kept error the first time it is called
// after one was kept, nil otherwise.
func takeSelectAllErr() error {
	if selectAllErr.err == nil || selectAllErr.reported {
		return nil
	}
	selectAllErr.reported = true
	return selectAllErr.err
}

// fieldKeys is the editing keys pressed in a tick.
type fieldKeys struct {
	erase, move bool // Backspace or Delete; Home, End or an arrow
}

// readFieldKeys reads the editing keys just pressed.
func readFieldKeys() fieldKeys {
	var k fieldKeys
	for _, key := range []ebiten.Key{ebiten.KeyBackspace, ebiten.KeyDelete} {
		k.erase = k.erase || inpututil.IsKeyJustPressed(key)
	}
	for _, key := range []ebiten.Key{ebiten.KeyHome, ebiten.KeyEnd, ebiten.KeyArrowLeft, ebiten.KeyArrowRight, ebiten.KeyArrowUp, ebiten.KeyArrowDown} {
		k.move = k.move || inpututil.IsKeyJustPressed(key)
	}
	return k
}

// beforeField runs before the field is laid out: an erase key on a
// selected text clears it (debugui would take only the last character).
func (e *numberEdit) beforeField(k fieldKeys) {
	if e.selected && e.field != nil && k.erase {
		e.text = ""
		e.field.SetTextAndSelection("", 0, 0)
		e.selected = false
	}
}

// afterField runs after the field is laid out: it selects the whole text
// when the field has just taken the focus, drops the selection when a
// move key was pressed or typing replaced it, and draws the highlight.
func (e *numberEdit) afterField(ctx *debugui.Context, bounds image.Rectangle, k fieldKeys) error {
	f, focused, err := textField(ctx)
	if err != nil || f == nil {
		e.field, e.selected = nil, false
		return err
	}
	e.field = f
	switch {
	case !focused:
		e.selected = false
	case !e.focused:
		f.SetTextAndSelection(e.text, 0, len(e.text))
		e.selected = e.text != ""
	case e.selected && k.move:
		f.SetTextAndSelection(e.text, len(e.text), len(e.text))
		e.selected = false
	case e.selected:
		if s, t := f.Selection(); s != 0 || t != len(f.Text()) || f.Text() != e.text {
			e.selected = false // typed over
		}
	}
	e.focused = focused
	if e.selected {
		selectedField = fieldHighlight{bounds: bounds, text: e.text, scale: ctx.Scale(), set: true}
	}
	return nil
}

// fieldHighlight is the selected field's highlight: the layout of the
// panels (Update) sets it, Draw draws it over the panels (a debugui
// widget that draws would take a cell of the field's row). At most one
// field has the focus, so there is one.
type fieldHighlight struct {
	bounds image.Rectangle // the text field, debugui's unscaled pixels
	text   string
	scale  int
	set    bool
}

// selectedField is the highlight of the last layout of the panels
// (cleared before each, on the game goroutine).
var selectedField fieldHighlight

// drawFieldHighlight draws the selected field's highlight onto screen,
// clipped to clip (the dock column the panels are in).
func drawFieldHighlight(screen *ebiten.Image, clip image.Rectangle) {
	h := selectedField
	if !h.set {
		return
	}
	drawSelected(screen.SubImage(clip.Intersect(screen.Bounds())).(*ebiten.Image), h.scale, h.bounds, h.text)
}

// drawSelected draws text highlighted as selected where debugui draws a
// field's text (left-aligned after its padding, centred vertically) over
// the field bounds (debugui's unscaled coordinates).
func drawSelected(screen *ebiten.Image, scale int, bounds image.Rectangle, str string) {
	const padding = 5 // debugui's default style
	m := fieldFace.Metrics()
	lineH := int(m.HAscent + m.HDescent + m.HLineGap)
	x := bounds.Min.X + padding
	y := bounds.Min.Y + (bounds.Dy()-lineH)/2
	w := int(text.Advance(str, fieldFace))
	hl := image.Rect(x-1, y, x+w+1, y+lineH).Intersect(bounds)
	px := image.Rect(hl.Min.X*scale, hl.Min.Y*scale, hl.Max.X*scale, hl.Max.Y*scale).Intersect(screen.Bounds())
	if px.Empty() {
		return
	}
	screen.SubImage(px).(*ebiten.Image).Fill(selectionColour)
	clip := image.Rect(bounds.Min.X*scale, bounds.Min.Y*scale, bounds.Max.X*scale, bounds.Max.Y*scale).Intersect(screen.Bounds())
	op := &text.DrawOptions{}
	op.GeoM.Scale(float64(scale), float64(scale))
	op.GeoM.Translate(float64(x*scale), float64(y*scale))
	debugui.DrawText(screen.SubImage(clip).(*ebiten.Image), str, op)
}

// drawFieldHighlight draws the selected field's highlight over the panels,
// clipped to the dock column it is in (the panels scroll inside theirs).
func (g *Game) drawFieldHighlight(screen *ebiten.Image) {
	h := selectedField
	if !h.set {
		return
	}
	at := image.Pt(h.bounds.Min.X*h.scale, h.bounds.Min.Y*h.scale)
	for _, c := range g.lay.cols {
		if at.In(c) {
			drawFieldHighlight(screen, c)
		}
	}
}
