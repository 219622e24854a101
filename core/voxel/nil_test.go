package voxel

import (
	"testing"

	"navviz/internal/niltest"
)

// inner is the reason the inner-loop accessors are not called: their docs
// state the precondition (a span, column or row of the grid), and out of
// range they panic as a slice index does; a nil check there would cost in
// every loop over spans.
const inner = "inner-loop accessor with an index precondition"

// TestNilReceivers: every exported method of every exported pointer type
// of the package returns an error or its documented zero value on a nil
// receiver and on a zero-value one; none panics (but the inner-loop
// accessors listed as Unchecked). niltest scans the package, so a new type
// must be registered here.
func TestNilReceivers(t *testing.T) {
	gridAccessors := map[string]string{"InBorder": inner, "CellCenterM": inner, "RowHeightM": inner}
	niltest.Check(t, ".", niltest.Types{
		"CompactHeightfield": {Nil: (*CompactHeightfield)(nil), Zero: &CompactHeightfield{},
			Unchecked: map[string]string{"Neighbour": inner, "InBorder": inner, "CellCenterM": inner, "RowHeightM": inner}},
		"ConvexVolume":  {Nil: (*ConvexVolume)(nil), Zero: &ConvexVolume{}},
		"Grid":          {Nil: (*Grid)(nil), Zero: &Grid{}, Unchecked: gridAccessors},
		"Heightfield":   {Nil: (*Heightfield)(nil), Zero: &Heightfield{}, Unchecked: gridAccessors},
		"Obstacle":      {Nil: (*Obstacle)(nil), Zero: &Obstacle{}},
		"ObstacleError": {Nil: (*ObstacleError)(nil), Zero: &ObstacleError{}},
		"PackedHeightfield": {Nil: (*PackedHeightfield)(nil), Zero: &PackedHeightfield{},
			Unchecked: map[string]string{"InBorder": inner, "CellCenterM": inner, "RowHeightM": inner}},
	})
}
