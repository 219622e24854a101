package render

import (
	"testing"

	"navviz/core/geom"
	"navviz/core/navmesh/detour"
)

// TestTSetOverlays: a 3 x 2 layer with four cells at two heights (one
// portal cell) gives merged squares at the cells' heights, one portal edge
// and the layer's box; a nil cache gives empty overlays.
func TestTSetOverlays(t *testing.T) {
	e := uint8(detour.LayerEmpty)
	tc := &detour.TileCache{
		Cache: detour.CacheParams{CellM: 0.5, RowM: 0.25},
		Layers: []detour.Layer{{
			TLayer: 1, Width: 3, Height: 2, BMin: geom.V3(10, 2, 20), BMax: geom.V3(11.5, 4, 21),
			Heights: []uint8{4, 4, e, 8, 8, e},
			Areas:   []uint8{63, 63, 0, 5, 63, 0},
			Cons:    []uint8{0, 1 << 6, 0, 0, 0, 0}, // cell (1, 0): a portal towards +x
		}},
	}
	os := TSetOverlays(tc)
	if len(os) != len(TSetOverlayNames) {
		t.Fatalf("%d overlays, want %d", len(os), len(TSetOverlayNames))
	}
	layers, areas, portals, bounds := os[0], os[1], os[2], os[3]
	if n := len(layers.Tris) / 6; n != 2 {
		t.Errorf("layers: %d squares, want 2 (one per height row)", n)
	}
	if n := len(areas.Tris) / 6; n != 3 {
		t.Errorf("areas: %d squares, want 3 (area 5 apart)", n)
	}
	for _, v := range layers.Tris {
		if v.Pos.Y != 2+4.1*0.25 && v.Pos.Y != 2+8.1*0.25 {
			t.Fatalf("a square at y %v, want a cell height", v.Pos.Y)
		}
		if v.Pos.X < 10 || v.Pos.X > 11 || v.Pos.Z < 20 || v.Pos.Z > 21 {
			t.Fatalf("a square corner at %v, outside the cells with spans", v.Pos)
		}
	}
	if len(portals.Lines) != 2 || portals.Lines[0].Pos.X != 11 || portals.Lines[1].Pos.X != 11 {
		t.Errorf("portals %v, want the +x edge of cell (1, 0), at x 11", portals.Lines)
	}
	if len(bounds.Lines) != 24 {
		t.Errorf("bounds: %d line vertices, want the box's 12 edges", len(bounds.Lines))
	}
	for _, o := range TSetOverlays(nil) {
		if len(o.Tris)+len(o.Lines)+len(o.Points) != 0 {
			t.Errorf("nil cache: %s not empty", o.Name)
		}
	}
}
