package ui

import (
	"fmt"
	"image"
	"image/color"
	"strings"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
)

// The message bar under the view: the last error or status, wrapped.

// Colours of the message bar at the bottom of the window.
var (
	messageBarColor = color.RGBA{R: 0x10, G: 0x10, B: 0x10, A: 0xd0}
	errorTextColor  = color.RGBA{R: 0xff, G: 0x55, B: 0x4d, A: 0xff}
	statusTextColor = color.RGBA{R: 0xc8, G: 0xd8, B: 0xc8, A: 0xff}
	hintTextColor   = color.RGBA{R: 0x80, G: 0x88, B: 0x90, A: 0xff}
)

// Message bar layout: the debugui font is 12 px high with 6 px wide
// half-width glyphs.
const (
	msgLineHPx   = 16
	msgPadPx     = 6
	msgGlyphWPx  = 6
	msgMaxLines  = 4
	msgMinCharsW = 20
)

// msgButton is a button of the message bar: where it is (screen pixels),
// its label and what a press does.
type msgButton struct {
	r     image.Rectangle
	label string
	do    func()
}

// msgButtonWPx is the width of each message bar button: room for the
// longest label ("Hide details"), so that a button keeps its place and
// width whichever label it shows.
const msgButtonWPx = 12*msgGlyphWPx + 2*msgPadPx

// messageButtons returns the message bar's buttons: with an error,
// Details (or Hide details) and Dismiss at the strip's right end, in the
// strip's first line. They are always at the same place: the strip has a
// fixed height, and nothing else there is clickable.
func (g *Game) messageButtons() []msgButton {
	a := g.App
	r := g.lay.status
	if a.Err() == "" || r.Dx() < 4*msgButtonWPx {
		return nil
	}
	y0 := r.Min.Y + msgPadPx - 2
	at := func(i int) image.Rectangle {
		x1 := r.Max.X - msgPadPx - i*(msgButtonWPx+toolbarGapPx)
		return image.Rect(x1-msgButtonWPx, y0, x1, y0+toolbarButtonPx)
	}
	details := "Details"
	if a.ErrDetailShown() {
		details = "Hide details"
	}
	return []msgButton{
		{r: at(1), label: details, do: a.ToggleErrDetail},
		{r: at(0), label: "Dismiss", do: a.DismissErr},
	}
}

// drawMessages draws the last error (red) or status (grey) in the status
// strip under the view (the bottom of the view when there is no strip),
// wrapped to at most msgMaxLines lines: a message longer than the strip
// grows over the bottom of the view. The pointer over a toolbar button
// shows that button's hint instead of the status (the toolbar's tooltip).
func (g *Game) drawMessages(screen *ebiten.Image) {
	msg, col := g.App.Status(), statusTextColor
	if i := g.toolbarAt(g.pointer); i >= 0 {
		msg, col = fmt.Sprintf("%s (key %d): %s", toolbarEntries[i].name, i+1, toolbarEntries[i].hint), statusTextColor
	}
	buttons := g.messageButtons()
	if g.App.Err() != "" {
		msg, col = "error: "+g.App.Err(), errorTextColor
		if g.App.ErrDetailShown() {
			msg = "error (details): " + g.App.ErrDetail()
		}
	}
	r := g.lay.status
	if r.Empty() {
		r = g.lay.view
		r.Min.Y = r.Max.Y
	}
	if msg == "" {
		if g.lay.status.Empty() {
			return
		}
		msg, col = "Tab hides or shows the panels; drag the bars beside them to resize; keys 1-8 choose a tool.", hintTextColor
	}
	textW := r.Dx() - 2*msgPadPx
	if len(buttons) > 0 {
		textW -= len(buttons) * (msgButtonWPx + toolbarGapPx)
	}
	lines := wrapText(msg, max(msgMinCharsW, textW/msgGlyphWPx), msgMaxLines)
	barH := max(len(lines)*msgLineHPx+2*msgPadPx, r.Dy())
	y0 := r.Max.Y - barH
	vector.DrawFilledRect(screen, float32(r.Min.X), float32(y0), float32(r.Dx()), float32(barH), messageBarColor, false)
	for i, l := range lines {
		op := &text.DrawOptions{}
		op.GeoM.Translate(float64(r.Min.X+msgPadPx), float64(y0+msgPadPx+i*msgLineHPx))
		op.ColorScale.ScaleWithColor(col)
		debugui.DrawText(screen, l, op)
	}
	for _, b := range buttons {
		c := toolbarButtonColor
		if g.pointer.In(b.r) {
			c = toolbarHoverColor
		}
		vector.DrawFilledRect(screen, float32(b.r.Min.X), float32(b.r.Min.Y), float32(b.r.Dx()), float32(b.r.Dy()), c, false)
		op := &text.DrawOptions{}
		op.GeoM.Translate(float64(b.r.Min.X+(b.r.Dx()-len(b.label)*msgGlyphWPx)/2), float64(b.r.Min.Y+(b.r.Dy()-msgLineHPx)/2+2))
		op.ColorScale.ScaleWithColor(statusTextColor)
		debugui.DrawText(screen, b.label, op)
	}
}

// wrapText splits s into lines of at most width cells (East Asian wide
// characters count two), breaking after spaces, slashes and colons where it
// can, and keeps at most maxLines lines (the last one ending in "…" when
// text was cut). Newlines in s start new lines.
func wrapText(s string, width, maxLines int) []string {
	width = max(width, 2)
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		rs := []rune(para)
		for len(rs) > 0 {
			n, cells, brk := 0, 0, -1
			for n < len(rs) {
				c := runeCells(rs[n])
				if cells+c > width {
					break
				}
				cells += c
				if r := rs[n]; r == ' ' || r == '/' || r == ':' {
					brk = n + 1
				}
				n++
			}
			if n < len(rs) && brk > 0 {
				n = brk
			}
			n = max(n, 1)
			lines = append(lines, strings.TrimRight(string(rs[:n]), " "))
			rs = rs[n:]
		}
	}
	if len(lines) > maxLines {
		lines = lines[:maxLines]
		last := []rune(lines[maxLines-1])
		if len(last) >= width {
			last = last[:len(last)-1]
		}
		lines[maxLines-1] = string(last) + "…"
	}
	return lines
}

// runeCells returns how many half-width cells r takes in the debugui font.
func runeCells(r rune) int {
	if r >= 0x1100 {
		return 2
	}
	return 1
}
