package navmesh

import (
	"fmt"
	"testing"
)

// TestClone: a clone answers as the mesh did when it was cloned, whatever
// the mesh does afterwards (flags set, a tile replaced, a tile removed,
// which relinks the neighbours), and a change of the clone does not reach
// the mesh.
func TestClone(t *testing.T) {
	if (*Mesh)(nil).Clone() != nil {
		t.Fatal("nil Mesh cloned to non-nil")
	}
	m := NewMesh()
	ra := mustAdd(t, m, mustBuild(t, twoColumns(0, 0, 10), nil, params(0, 0, 0)))
	mustAdd(t, m, mustBuild(t, twoRows(1, 0, 12), nil, params(1, 0, 0)))
	mustAdd(t, m, mustBuild(t, twoColumns(0, 1, 10), nil, params(0, 1, 0)))
	want := fmt.Sprint(describeLinks(t, m))
	c := m.Clone()
	for _, tc := range []struct {
		name   string
		change func() error
	}{
		{"flags", func() error { return m.SetPolyFlags(ra.Poly(0), 7) }},
		{"area", func() error { return m.SetPolyArea(ra.Poly(1), 3) }},
		{"replace", func() error {
			_, err := m.ReplaceTile(mustBuild(t, twoRows(1, 0, 40), nil, params(1, 0, 0)))
			return err
		}},
		{"remove", func() error { return m.RemoveTile(0, 1, 0) }},
	} {
		if err := tc.change(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := fmt.Sprint(describeLinks(t, c)); got != want {
			t.Errorf("after %s of the mesh, the clone's links:\n got %s\nwant %s", tc.name, got, want)
		}
		if c.TileCount() != 3 {
			t.Errorf("after %s of the mesh, the clone has %d tiles, want 3", tc.name, c.TileCount())
		}
		if f, err := c.PolyFlags(ra.Poly(0)); err != nil || f == 7 {
			t.Errorf("after %s of the mesh, the clone's flags %d, %v", tc.name, f, err)
		}
		if a, err := c.PolyArea(ra.Poly(1)); err != nil || a == 3 {
			t.Errorf("after %s of the mesh, the clone's area %d, %v", tc.name, a, err)
		}
	}
	// The other way round.
	before := fmt.Sprint(describeLinks(t, m))
	if err := c.RemoveTile(0, 0, 0); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(describeLinks(t, m)); got != before {
		t.Errorf("removing a tile of the clone changed the mesh's links:\n got %s\nwant %s", got, before)
	}
}
