package render

import (
	"testing"

	"navviz/core/geom"
	"navviz/core/navmesh"
)

// TestOffMeshOverlay: a link is an arc from its start to its end that
// rises above both, with one arrow (one way) or two (both ways) and
// rings round its ends; the selected link is white, invalid links are
// skipped.
func TestOffMeshOverlay(t *testing.T) {
	l := navmesh.OffMeshLink{StartM: geom.V3(0, 1, 0), EndM: geom.V3(8, 3, 0), RadiusM: 0.5, UserID: 4}
	arc := OffMeshArc(l)
	if len(arc) != offMeshSegments+1 || arc[0].X != 0 || arc[len(arc)-1].X != 8 {
		t.Fatalf("arc %v does not run from start to end", arc)
	}
	if mid := arc[len(arc)/2]; !(mid.Y > 3) {
		t.Errorf("arc middle %v does not rise above the ends", mid)
	}
	// Triangles: two per segment of the ribbon, one per arrow.
	ribbon := 6 * offMeshSegments
	for _, c := range []struct {
		name   string
		bidir  bool
		sel    uint32
		arrows int
		col    [4]uint8
	}{
		{"one way", false, 0, 1, [4]uint8{offMeshOneWay.R, offMeshOneWay.G, offMeshOneWay.B, offMeshOneWay.A}},
		{"both ways", true, 0, 2, [4]uint8{offMeshBoth.R, offMeshBoth.G, offMeshBoth.B, offMeshBoth.A}},
		{"selected", true, 4, 2, [4]uint8{255, 255, 255, 255}},
	} {
		k := l
		k.Bidirectional = c.bidir
		o := OffMeshOverlay([]navmesh.OffMeshLink{k, {RadiusM: -1}}, c.sel)
		if got, want := len(o.Tris), ribbon+3*c.arrows; got != want {
			t.Errorf("%s: %d triangle vertices, want %d", c.name, got, want)
		}
		if len(o.Points) != 2 {
			t.Errorf("%s: %d end points, want 2 (the invalid link skipped)", c.name, len(o.Points))
		}
		if col := o.Tris[0].Col; [4]uint8{col.R, col.G, col.B, col.A} != c.col {
			t.Errorf("%s: colour %v, want %v", c.name, col, c.col)
		}
	}
}
