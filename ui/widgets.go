package ui

import (
	"image"
	"image/color"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
)

// Widgets the panels share (choice buttons, colour swatches) and the words
// they show (plural, displayName).

// choicesBesideLabel is how many choices fit beside their label in a
// docked column at its narrowest.
const choicesBesideLabel = 3

// choiceButtons draws label and one button per choice on a row, the
// current one (*idx) in brackets, and reports whether a click changed
// *idx: every choice visible and one click away, as RecastDemo's tool
// radio buttons (a dropdown takes two). With more than
// choicesBesideLabel choices the label takes a line of its own, so that
// the buttons are wide enough for the bracketed name (a clipped one loses
// its brackets, and with them which choice is current).
func choiceButtons(ctx *debugui.Context, label string, idx *int, names []string) bool {
	var widths []int
	if len(names) > choicesBesideLabel {
		ctx.SetGridLayout([]int{-1}, nil)
		ctx.Text(label + ":")
	} else {
		widths = append(widths, 50)
	}
	for range names {
		widths = append(widths, -1)
	}
	ctx.SetGridLayout(widths, nil)
	if len(names) <= choicesBesideLabel {
		ctx.Text(label)
	}
	changed := false
	// The buttons' ids come from this call site and the loop index: the
	// label's scope keeps two rows of choices (Tool, Show) apart.
	ctx.IDScope(label, func() {
		ctx.Loop(len(names), func(i int) {
			name := names[i]
			if i == *idx {
				name = "[" + name + "]"
			}
			ctx.Button(name).On(func() {
				if *idx != i {
					*idx = i
					changed = true
				}
			})
		})
	})
	ctx.SetGridLayout(nil, nil)
	return changed
}

// swatch draws a square of colour col (opaque) in the next layout cell,
// in a light frame so that dark colours show on the dark panel.
func swatch(ctx *debugui.Context, col color.RGBA) {
	col.A = 255
	ctx.GridCell(func(bounds image.Rectangle) {
		ctx.DrawOnlyWidget(func(screen *ebiten.Image) {
			s := float32(ctx.Scale())
			side := float32(min(bounds.Dx(), bounds.Dy())) - 4
			x := float32(bounds.Min.X) + (float32(bounds.Dx())-side)/2
			y := float32(bounds.Min.Y) + (float32(bounds.Dy())-side)/2
			vector.DrawFilledRect(screen, x*s, y*s, side*s, side*s, color.RGBA{150, 150, 150, 255}, false)
			vector.DrawFilledRect(screen, (x+1)*s, (y+1)*s, (side-2)*s, (side-2)*s, col, false)
		})
	})
}

// fixedLinePx is the line pitch of a fixedText area.
const fixedLinePx = 16

// fixedText shows s in colour col in an area of exactly lines lines across
// the column: wrapped to its width, cut (ending in "…") when longer, blank
// rows when shorter. Status texts that come and go or change length sit in
// such areas so that the controls under them keep their places.
func fixedText(ctx *debugui.Context, lines int, s string, col color.RGBA) {
	ctx.SetGridLayout([]int{-1}, []int{lines*fixedLinePx + 4})
	ctx.GridCell(func(bounds image.Rectangle) {
		ctx.DrawOnlyWidget(func(screen *ebiten.Image) {
			sc := float64(ctx.Scale())
			width := max(1, (bounds.Dx()-8)/msgGlyphWPx)
			for i, l := range wrapText(s, width, lines) {
				op := &text.DrawOptions{}
				op.GeoM.Translate(float64(bounds.Min.X+4), float64(bounds.Min.Y+2+i*fixedLinePx))
				op.GeoM.Scale(sc, sc)
				op.ColorScale.ScaleWithColor(col)
				debugui.DrawText(screen, l, op)
			}
		})
	})
	ctx.SetGridLayout(nil, nil)
}
