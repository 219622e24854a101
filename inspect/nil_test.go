package inspect

import (
	"testing"

	"navviz/internal/niltest"
)

// TestNilReceivers: every exported method of every exported pointer type
// of the package returns an error or its documented zero value on a nil
// and on a zero-value receiver; none panics.
func TestNilReceivers(t *testing.T) {
	niltest.Check(t, ".", niltest.Types{
		"Recorder":    {Nil: (*Recorder)(nil), Zero: &Recorder{}},
		"LayerReport": {Nil: (*LayerReport)(nil), Zero: &LayerReport{}},
	})
}
