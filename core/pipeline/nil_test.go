package pipeline

import (
	"testing"

	"navviz/internal/niltest"
)

// TestNilReceivers: every exported method of every exported pointer type
// of the package returns an error or its documented zero value on a nil
// receiver (and on a zero-value one where the zero value is usable); none
// panics. niltest scans the package, so a new type must be registered here.
func TestNilReceivers(t *testing.T) {
	niltest.Check(t, ".", niltest.Types{
		"Build":       {Nil: (*Build)(nil), Zero: &Build{}},
		"LayerBuild":  {Nil: (*LayerBuild)(nil), Zero: &LayerBuild{}},
		"LimitError":  {Nil: (*LimitError)(nil), Zero: &LimitError{}},
		"NavSettings": {Nil: (*NavSettings)(nil), Zero: &NavSettings{}},
		"Source":      {Nil: (*Source)(nil), Zero: &Source{}},
		"StageTimes":  {Nil: (*StageTimes)(nil), Zero: &StageTimes{}},
		"TileGrid":    {Nil: (*TileGrid)(nil), Zero: &TileGrid{}},
	})
}
