package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunnerOffMeshFromEmptyTile (issue 28, item 1): an offmesh step whose
// start lies in a tile with nothing walkable (the gap between two 10 m
// floor squares 60 m apart) runs (it panicked): the link is kept,
// unconnected, through update, snapshot, restore and removal, and the
// path between the squares stays partial.
func TestRunnerOffMeshFromEmptyTile(t *testing.T) {
	dir := t.TempDir()
	obj := "v 0 0 0\nv 10 0 0\nv 10 0 10\nv 0 0 10\nf 1 3 2\nf 1 4 3\n" +
		"v 70 0 0\nv 80 0 0\nv 80 0 10\nv 70 0 10\nf 5 7 6\nf 5 8 7\n"
	if err := os.WriteFile(filepath.Join(dir, "squares.obj"), []byte(obj), 0o644); err != nil {
		t.Fatal(err)
	}
	path := `{"path": {"start_m": [5, 0, 5], "end_m": [75, 0, 5]}}`
	src := `{"navviz-scenario": 1, "level": {"obj": "squares.obj"},
		"steps": [{"offmesh": {"name": "gap", "start_m": [30, 0, 5], "end_m": [5, 0, 5], "radius_m": 0.5, "bidirectional": true, "area": 63}},
		{"update": "all"}, ` + path + `, {"snapshot": {"slot": "s"}}, {"remove_offmesh": "gap"}, {"update": "all"},
		{"restore": {"slot": "s"}}, {"update": "all"}, ` + path + `, {"remove_offmesh": "gap"}, {"update": "all"}]}`
	file := filepath.Join(dir, "gap.scenario.json")
	sc, err := Parse([]byte(src), file)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(sc, file)
	if err != nil {
		t.Fatal(err)
	}
	steps := res.Report.Steps
	if q := steps[0].Queued; !strings.Contains(steps[0].Did, `added off-mesh link "gap"`) || q == nil || *q != 0 {
		t.Errorf("step 1 did %q with %v tiles queued, want the link added and nothing queued", steps[0].Did, q)
	}
	for _, k := range []int{2, 8} {
		if p := steps[k].Path; p == nil || !p.Found || !p.Partial {
			t.Errorf("step %d: path %+v, want a partial path", k+1, p)
		}
	}
}
