package navmesh

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
		"BuiltTile": {Nil: (*BuiltTile)(nil), Zero: &BuiltTile{}},
		"Mesh":      {Nil: (*Mesh)(nil), Zero: &Mesh{}},
		"MeshDiff":  {Nil: (*MeshDiff)(nil), Zero: &MeshDiff{}},
		"State":     {Nil: (*State)(nil), Zero: &State{}},
		"Tile":      {Nil: (*Tile)(nil), Zero: &Tile{}},
	})
}
