package region

import (
	"testing"

	"navviz/internal/niltest"
)

// TestNilReceivers: every exported method of every exported pointer type
// of the package returns an error or its documented zero value on a nil
// receiver and on a zero-value one; none panics (but InBorder, To and
// Four, inner-loop accessors whose docs state their index precondition).
// niltest scans the package, so a new type must be registered here.
func TestNilReceivers(t *testing.T) {
	niltest.Check(t, ".", niltest.Types{
		"LayerView": {Nil: (*LayerView)(nil), Zero: &LayerView{},
			Unchecked: map[string]string{"InBorder": "inner-loop accessor: k must be in 0..Len()-1"}},
		"LayerLinks": {Nil: (*LayerLinks)(nil), Zero: &LayerLinks{},
			Unchecked: map[string]string{
				"To":   "inner-loop accessor: k must be in 0..Len()/4-1",
				"Four": "inner-loop accessor: k must be in 0..Len()/4-1",
			}},
		"RepairBase": {Nil: (*RepairBase)(nil), Zero: &RepairBase{}},
		"Result":     {Nil: (*Result)(nil), Zero: &Result{}},
		"Splitter":   {Nil: (*Splitter)(nil), Zero: &Splitter{}},
	})
}
