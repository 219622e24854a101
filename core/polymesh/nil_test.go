package polymesh

import (
	"testing"

	"navviz/internal/niltest"
)

// inner is the reason the inner-loop accessors are not called: their docs
// state an index precondition, and out of range they panic as a slice
// index does; a nil check there would cost in every loop over polygons.
const inner = "inner-loop accessor with an index precondition"

// TestNilReceivers: every exported method of every exported pointer type
// of the package returns an error or its documented zero value on a nil
// receiver and on a zero-value one; none panics (but the inner-loop
// accessors listed as Unchecked). niltest scans the package, so a new type
// must be registered here.
func TestNilReceivers(t *testing.T) {
	niltest.Check(t, ".", niltest.Types{
		"CoordMap": {Nil: (*CoordMap)(nil), Zero: &CoordMap{},
			Unchecked: map[string]string{"Pos": inner, "OrientStored": inner, "OrientCells": inner}},
		"Mesh": {Nil: (*Mesh)(nil), Zero: &Mesh{},
			Unchecked: map[string]string{"Poly": inner, "Neighbours": inner, "PolyVertCount": inner, "VertM": inner}},
	})
}
