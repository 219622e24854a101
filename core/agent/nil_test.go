package agent

import (
	"testing"

	"navviz/internal/niltest"
)

// TestNilReceivers: every exported method of Crowd returns an error or its
// documented zero value on a nil receiver and on a zero-value one; none
// panics. niltest scans the package, so a new type must be registered here.
func TestNilReceivers(t *testing.T) {
	niltest.Check(t, ".", niltest.Types{
		"Crowd": {Nil: (*Crowd)(nil), Zero: &Crowd{}},
	})
}
