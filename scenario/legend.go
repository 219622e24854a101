package scenario

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"slices"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"navviz/render"
)

// legendEntries returns the legend of the state: the scope line, then for
// each visible overlay its entries of render.OverlayLegend (the list
// navviz's View panel shows too).
func (r *Runner) legendEntries() []render.LegendEntry {
	scope := "scope: " + r.Scope
	if r.HasSelected {
		scope += fmt.Sprintf(", tile (%d, %d)", r.Selected[0], r.Selected[1])
	}
	out := []render.LegendEntry{{Plain: true, Label: scope}}
	for _, name := range OverlayNames() {
		if !slices.Contains(r.Visible, name) {
			continue
		}
		for _, e := range render.OverlayLegend(name) {
			out = append(out, e)
		}
	}
	return out
}

// Legend layout, pixels.
const (
	legendMarginPx = 6
	legendLinePx   = 15
	legendSwatchPx = 10
	legendPadPx    = 5
)

// drawLegend draws entries in a translucent box at the top-left corner of
// img (integer arithmetic and a bitmap font: the same pixels everywhere);
// what does not fit is cut.
func drawLegend(img *image.RGBA, entries []render.LegendEntry) {
	face := basicfont.Face7x13
	wPx := 0
	for _, e := range entries {
		wPx = max(wPx, font.MeasureString(face, e.Label).Ceil())
	}
	box := image.Rect(legendMarginPx, legendMarginPx,
		legendMarginPx+2*legendPadPx+legendSwatchPx+legendPadPx+wPx,
		legendMarginPx+2*legendPadPx+len(entries)*legendLinePx).Intersect(img.Bounds())
	// Darken the box to a third, keeping the picture visible behind.
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			i := img.PixOffset(x, y)
			for k := 0; k < 3; k++ {
				img.Pix[i+k] = uint8((int(img.Pix[i+k]) + 2*10) / 3)
			}
		}
	}
	d := &font.Drawer{Dst: img, Src: image.NewUniform(color.RGBA{235, 235, 235, 255}), Face: face}
	for n, e := range entries {
		top := box.Min.Y + legendPadPx + n*legendLinePx
		x0 := box.Min.X + legendPadPx
		if !e.Plain {
			sw := image.Rect(x0, top+2, x0+legendSwatchPx, top+2+legendSwatchPx).Intersect(box)
			c := e.Col
			c.A = 255
			// A light frame, so that dark swatches show on the dark box.
			draw.Draw(img, sw, image.NewUniform(color.RGBA{150, 150, 150, 255}), image.Point{}, draw.Src)
			draw.Draw(img, sw.Inset(1), image.NewUniform(c), image.Point{}, draw.Src)
		}
		d.Dot = fixed.P(x0+legendSwatchPx+legendPadPx, top+11)
		d.DrawString(e.Label)
	}
}
