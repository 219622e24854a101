package world

import (
	"testing"

	"navviz/internal/niltest"
)

// TestNilReceivers: every exported method of the package's pointer types
// returns an error or its zero value on nil and zero receivers.
func TestNilReceivers(t *testing.T) {
	niltest.Check(t, ".", niltest.Types{
		"World":        {Nil: (*World)(nil), Zero: &World{}},
		"UpdateResult": {Nil: (*UpdateResult)(nil), Zero: &UpdateResult{}},
	})
}
