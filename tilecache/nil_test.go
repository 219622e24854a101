package tilecache

import (
	"testing"

	"navviz/internal/niltest"
)

// TestNilReceivers: every exported method of every exported pointer type
// of the package returns an error or its documented zero value on a nil
// and on a zero-value receiver; none panics (niltest scans the package so
// that a new type must be registered here).
func TestNilReceivers(t *testing.T) {
	niltest.Check(t, ".", niltest.Types{
		"Cache":        {Nil: (*Cache)(nil), Zero: &Cache{}},
		"TileError":    {Nil: (*TileError)(nil), Zero: &TileError{}},
		"UpdateResult": {Nil: (*UpdateResult)(nil), Zero: &UpdateResult{}},
		"UpdateTimes":  {Nil: (*UpdateTimes)(nil), Zero: &UpdateTimes{}},
	})
}
