package scenario

import (
	"image"
	"testing"

	"navviz/render"
)

// TestLegendEntries: a shot's legend is the scope line, then the entries
// of render.OverlayLegend for every visible overlay in drawing order, and
// drawLegend paints each swatch's colour.
func TestLegendEntries(t *testing.T) {
	r := &Runner{Scope: "all", Visible: []string{render.OverlaySwaps, render.OverlayCachePolys}}
	got := r.legendEntries()
	var want []render.LegendEntry
	want = append(want, render.LegendEntry{Plain: true, Label: "scope: all"})
	for _, n := range []string{render.OverlayCachePolys, render.OverlaySwaps} { // drawing order
		for _, e := range render.OverlayLegend(n) {
			want = append(want, e)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d entries, want %d: %v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("entry %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	img := image.NewRGBA(image.Rect(0, 0, 400, 400))
	drawLegend(img, got)
	for i, e := range got {
		if e.Plain {
			continue
		}
		// The swatch's centre: inside its light frame.
		x := legendMarginPx + legendPadPx + legendSwatchPx/2
		y := legendMarginPx + legendPadPx + i*legendLinePx + 2 + legendSwatchPx/2
		c := e.Col
		c.A = 255
		if p := img.RGBAAt(x, y); p != c {
			t.Errorf("swatch %d (%s) is %v, want %v", i, e.Label, p, c)
		}
	}
}
