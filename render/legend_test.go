package render

import (
	"image/color"
	"slices"
	"testing"

	"navviz/assets"
	"navviz/core/geom"
	"navviz/tilecache"
)

// TestOverlayLegend: every overlay has a legend whose first entry names
// it, and the keys carry the colours the overlays draw with.
func TestOverlayLegend(t *testing.T) {
	var names []string
	names = append(names, SpanOverlayNames...)
	names = append(names, MeshOverlayNames...)
	names = append(names, CacheOverlayNames...)
	names = append(names, InspectOverlayNames...)
	names = append(names, OverlayPath, OverlaySelection, OverlayPicked)
	for _, n := range names {
		l := OverlayLegend(n)
		if len(l) == 0 || l[0].Label == "" {
			t.Errorf("%s: legend %v", n, l)
		}
	}
	cols := func(name string) []color.RGBA {
		var out []color.RGBA
		for _, e := range OverlayLegend(name) {
			if !e.Plain {
				out = append(out, e.Col)
			}
		}
		return out
	}
	for _, k := range []tilecache.SwapKind{tilecache.SwapKept, tilecache.SwapReplaced, tilecache.SwapAdded, tilecache.SwapRemoved} {
		if !slices.Contains(cols(OverlaySwaps), SwapColour(k)) {
			t.Errorf("swaps legend lacks %v", k)
		}
	}
	for _, c := range []color.RGBA{assets.PolyBoundaryColour, assets.PolyInnerEdgeColour, assets.PolyTileBorderColour} {
		if !slices.Contains(cols(OverlayPolys), c) || !slices.Contains(cols(OverlayCachePolys), c) {
			t.Errorf("polys legends lack %v", c)
		}
	}
	if got := OverlayLegend("nope"); len(got) != 1 || !got[0].Plain || got[0].Label != "nope" {
		t.Errorf("unknown overlay legend %v", got)
	}
}

// TestSwapPaletteDistinct: the swap colours differ clearly from each other
// and from the walkable fill they are drawn over (by at least 80 in the
// sum of the RGB channel differences; the closest pair, Okabe-Ito orange
// and vermillion, is 82 apart and differs in lightness).
func TestSwapPaletteDistinct(t *testing.T) {
	d := func(a, b color.RGBA) int {
		ab := func(x, y uint8) int { return max(int(x)-int(y), int(y)-int(x)) }
		return ab(a.R, b.R) + ab(a.G, b.G) + ab(a.B, b.B)
	}
	list := []color.RGBA{assets.AreaWalkableColour}
	for _, k := range []tilecache.SwapKind{tilecache.SwapKept, tilecache.SwapReplaced, tilecache.SwapAdded, tilecache.SwapRemoved} {
		list = append(list, SwapColour(k))
	}
	for i := range list {
		for j := i + 1; j < len(list); j++ {
			if d(list[i], list[j]) < 80 {
				t.Errorf("colours %v and %v too close", list[i], list[j])
			}
		}
	}
}

// TestAppendWideEdge: the band lies on the side of the edge towards the
// centre, widthM wide, with the edge as a line.
func TestAppendWideEdge(t *testing.T) {
	col := color.RGBA{1, 2, 3, 255}
	for _, tc := range []struct {
		name   string
		a, b   geom.Vec3
		cx, cz float64
		wantZ  float32 // z of the band's far side (edge along x at z 0)
	}{
		{"centre above", geom.V3(0, 1, 0), geom.V3(2, 1, 0), 1, 5, 0.5},
		{"centre below", geom.V3(0, 1, 0), geom.V3(2, 1, 0), 1, -5, -0.5},
		{"reversed edge", geom.V3(2, 1, 0), geom.V3(0, 1, 0), 1, 5, 0.5},
	} {
		var o Overlay
		appendWideEdge(&o, tc.a, tc.b, tc.cx, tc.cz, 0.5, col)
		if len(o.Lines) != 2 || o.Lines[0].Pos != tc.a || o.Lines[1].Pos != tc.b {
			t.Errorf("%s: lines %v", tc.name, o.Lines)
		}
		if len(o.Tris) != 6 {
			t.Fatalf("%s: %d tri vertices", tc.name, len(o.Tris))
		}
		for _, v := range o.Tris {
			if v.Col != col || (v.Pos.Z != 0 && v.Pos.Z != tc.wantZ) || v.Pos.Y != 1 {
				t.Errorf("%s: band vertex %v", tc.name, v)
			}
		}
	}
	var o Overlay
	appendWideEdge(&o, geom.V3(1, 0, 1), geom.V3(1, 0, 1), 0, 0, 0.5, col)
	if len(o.Tris) != 0 || len(o.Lines) != 2 {
		t.Errorf("degenerate edge: %d tris %d lines", len(o.Tris), len(o.Lines))
	}
}
