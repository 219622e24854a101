package session

import (
	"testing"

	"navviz/core/navmesh"
	"navviz/inspect"
	"navviz/render"
)

// TestInspectForPick: a picked polygon selects the report of its tile
// layer, if any.
func TestInspectForPick(t *testing.T) {
	reps := []inspect.LayerReport{{TX: 1, TZ: 2, Layer: 0}, {TX: 1, TZ: 2, Layer: 1}, {TX: 3, TZ: 2, Layer: 0}}
	for _, tc := range []struct {
		name string
		ref  uint64
		info render.PolyInfo
		want int
	}{
		{"layer 1 of (1, 2)", 5, render.PolyInfo{TileX: 1, TileZ: 2, Layer: 1}, 1},
		{"layer 0 of (3, 2)", 5, render.PolyInfo{TileX: 3, TileZ: 2, Layer: 0}, 2},
		{"no report of the layer", 5, render.PolyInfo{TileX: 3, TileZ: 2, Layer: 1}, -1},
		{"other tile", 5, render.PolyInfo{TileX: 0, TileZ: 0}, -1},
		{"no pick", 0, render.PolyInfo{TileX: 1, TileZ: 2, Layer: 1}, -1},
	} {
		if got := InspectForPick(reps, navmesh.PolyRef(tc.ref), &tc.info); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
	if got := InspectForPick(nil, 5, &render.PolyInfo{}); got != -1 {
		t.Errorf("no reports: %d", got)
	}
}
