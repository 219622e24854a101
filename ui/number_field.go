package ui

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"
	"strings"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/exp/textinput"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
)

// Number fields. debugui's NumberField re-parses its text on every commit
// and turns text that is not a number into 0 without a word; these fields
// are debugui text fields with their own parsing: the text is kept as
// typed (Backspace, the caret and selection work as in any text field),
// Enter or leaving the field commits it, text that is not a number is
// shown with an error line in red and the value stays what it was, and the
// - and + buttons step the value.

// parseNumber parses the text of a number field: a decimal number (one
// comma is read as the decimal point when there is no point), spaces
// around it ignored; integer fields want a whole number. NaN, infinities
// and empty text are errors, each naming the text.
func parseNumber(s string, integer bool) (float64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, fmt.Errorf("empty: type a number")
	}
	if strings.Count(t, ",") == 1 && !strings.Contains(t, ".") {
		t = strings.Replace(t, ",", ".", 1)
	}
	if integer {
		v, err := strconv.ParseInt(t, 10, 32)
		if err != nil {
			return 0, fmt.Errorf("%q is not a whole number", s)
		}
		return float64(v), nil
	}
	// Only digits, one sign, a point and an exponent: ParseFloat would
	// also take "Inf", "NaN", hex floats and underscores.
	for _, r := range t {
		if !strings.ContainsRune("0123456789+-.eE", r) {
			return 0, fmt.Errorf("%q is not a number", s)
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	return v, nil
}

// formatNumber formats v as a number field shows it: digits decimals for
// a float field (trailing zeros kept, so the precision shows), a whole
// number for an integer field.
func formatNumber(v float64, digits int, integer bool) string {
	if integer {
		return strconv.FormatInt(int64(math.Round(v)), 10)
	}
	return strconv.FormatFloat(v, 'f', max(digits, 0), 64)
}

// numberEdit is the editing state of one number field.
type numberEdit struct {
	// text is the field's text; shown is the text last made from the
	// value (text differs from it while the user edits).
	text, shown string
	// value is the value last shown or committed.
	value float64
	// err says why text is not a number ("" when it is, or when the text
	// has not been committed yet).
	err string
	// Select-all on focus (number_select.go): field is debugui's text
	// input of the field, focused whether it had the focus in the last
	// tick, selected whether its whole text is selected.
	field             *textinput.Field
	focused, selected bool
}

// numberSpec is what a number field edits: its decimals, whether it takes
// whole numbers only and the step of its - and + buttons (0: none).
type numberSpec struct {
	digits  int
	integer bool
	step    float64
}

// follow shows v when the user is not editing (the text is the one last
// shown): a value changed elsewhere (Defaults, a loaded setting, a drag)
// replaces the text.
func (e *numberEdit) follow(v float64, sp numberSpec) {
	if e.text == e.shown && (v != e.value || e.shown == "") {
		e.show(v, sp)
	}
}

// show makes n the value and shows it formatted, with no error.
func (e *numberEdit) show(n float64, sp numberSpec) {
	e.value = n
	e.shown = formatNumber(n, sp.digits, sp.integer)
	e.text = e.shown
	e.err = ""
}

// set shows n and stores it in v; it reports whether v changed.
func (e *numberEdit) set(v *float64, n float64, sp numberSpec) bool {
	e.show(n, sp)
	if n == *v {
		return false
	}
	*v = n
	return true
}

// commit parses the text: a number becomes the value (the text
// reformatted, the error cleared) and commit returns true when it differs
// from v; otherwise the error is set and the text kept as typed, v stays.
func (e *numberEdit) commit(v *float64, sp numberSpec) bool {
	n, err := parseNumber(e.text, sp.integer)
	if err != nil {
		e.err = fmt.Sprintf("%v; kept %s", err, formatNumber(*v, sp.digits, sp.integer))
		return false
	}
	return e.set(v, n, sp)
}

// stepBy adds d steps to v (from the value, not from text being edited)
// and shows the result.
func (e *numberEdit) stepBy(v *float64, sp numberSpec, d float64) bool {
	n := *v + float64(d*sp.step)
	if sp.integer {
		n = math.Round(n)
	} else if sp.digits >= 0 && sp.digits < 10 {
		p := math.Pow(10, float64(sp.digits))
		n = math.Round(float64(n*p)) / p
	}
	return e.set(v, n, sp)
}

// numberFields holds the editing state of a panel's number fields by key.
type numberFields map[string]*numberEdit

// edit returns the state of the field key, made on first use.
func (nf *numberFields) edit(key string) *numberEdit {
	if *nf == nil {
		*nf = numberFields{}
	}
	e := (*nf)[key]
	if e == nil {
		e = &numberEdit{}
		(*nf)[key] = e
	}
	return e
}

// errorColour is the colour of an invalid field's error line.
var errorColour = color.RGBA{255, 90, 80, 255}

// float draws the number field key editing *v in the next layout cell: a
// text field with - and + buttons when sp.step > 0. It returns true when
// *v changed (committed text or a step). An invalid commit leaves *v and
// shows the error under the field's row in red (redLine).
func (nf *numberFields) float(ctx *debugui.Context, key string, v *float64, sp numberSpec) (changed bool) {
	e := nf.edit(key)
	e.follow(*v, sp)
	ctx.IDScope(key, func() {
		ctx.GridCell(func(cell image.Rectangle) {
			field := cell // the text field's part of the cell
			if sp.step > 0 {
				ctx.SetGridLayout([]int{-1, stepButtonPx, stepButtonPx}, nil)
				field.Max.X -= 2 * (stepButtonPx + debuguiSpacingPx)
			}
			k := readFieldKeys()
			e.beforeField(k)
			ctx.TextField(&e.text).On(func() {
				changed = e.commit(v, sp) || changed
				if e.field != nil && e.focused { // Enter: the committed text, selected
					e.field.SetTextAndSelection(e.text, 0, len(e.text))
					e.selected = e.text != ""
				}
			})
			noteSelectAllErr(e.afterField(ctx, field, k))
			if sp.step > 0 {
				ctx.Button("-").On(func() { changed = e.stepBy(v, sp, -1) || changed })
				ctx.Button("+").On(func() { changed = e.stepBy(v, sp, 1) || changed })
			}
		})
	})
	return changed
}

// stepButtonPx is the width of a number field's - and + buttons, and
// debuguiSpacingPx debugui's spacing between the cells of a row (its
// default style).
const (
	stepButtonPx     = 16
	debuguiSpacingPx = 4
)

// int is float for an int value.
func (nf *numberFields) int(ctx *debugui.Context, key string, v *int, sp numberSpec) bool {
	sp.integer = true
	f := float64(*v)
	if !nf.float(ctx, key, &f, sp) {
		return false
	}
	*v = int(f)
	return true
}

// errorOf returns the error of field key ("" when none).
func (nf numberFields) errorOf(key string) string {
	if e := nf[key]; e != nil {
		return e.err
	}
	return ""
}

// label shows the label of field key in its cell, or, while the field's
// text is not a valid value, the error in red in its place: the error
// takes no row of its own, so that nothing under the field moves.
func (nf numberFields) label(ctx *debugui.Context, key, label string) {
	if msg := nf.errorOf(key); msg != "" {
		redLine(ctx, msg)
		return
	}
	ctx.Text(label)
}

// redLine draws msg in errorColour across the next layout cell (one line,
// cut at the cell's edge).
func redLine(ctx *debugui.Context, msg string) {
	ctx.GridCell(func(bounds image.Rectangle) {
		ctx.DrawOnlyWidget(func(screen *ebiten.Image) {
			s := float64(ctx.Scale())
			op := &text.DrawOptions{}
			op.GeoM.Scale(s, s)
			op.GeoM.Translate(float64(bounds.Min.X+4)*s, float64(bounds.Min.Y+2)*s)
			op.ColorScale.ScaleWithColor(errorColour)
			sub := screen.SubImage(image.Rect(int(float64(bounds.Min.X)*s), int(float64(bounds.Min.Y)*s), int(float64(bounds.Max.X)*s), int(float64(bounds.Max.Y)*s))).(*ebiten.Image)
			debugui.DrawText(sub, msg, op)
		})
	})
}
