package ui

import (
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

// drawMessages draws the last error (red) or status (grey) in the status
// strip under the view (the bottom of the view when there is no strip),
// wrapped to at most msgMaxLines lines: a message longer than the strip
// grows over the bottom of the view.
func (g *Game) drawMessages(screen *ebiten.Image) {
	msg, col := g.App.Status(), statusTextColor
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
		msg, col = "Tab hides or shows the panels; drag the bars beside them to resize.", hintTextColor
	}
	lines := wrapText(msg, max(msgMinCharsW, (r.Dx()-2*msgPadPx)/msgGlyphWPx), msgMaxLines)
	barH := max(len(lines)*msgLineHPx+2*msgPadPx, r.Dy())
	y0 := r.Max.Y - barH
	vector.DrawFilledRect(screen, float32(r.Min.X), float32(y0), float32(r.Dx()), float32(barH), messageBarColor, false)
	for i, l := range lines {
		op := &text.DrawOptions{}
		op.GeoM.Translate(float64(r.Min.X+msgPadPx), float64(y0+msgPadPx+i*msgLineHPx))
		op.ColorScale.ScaleWithColor(col)
		debugui.DrawText(screen, l, op)
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
