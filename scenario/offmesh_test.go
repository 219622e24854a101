package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunnerOffMesh: an offmesh step joins two floors with no way
// between them (the path becomes complete after the update), it survives
// a snapshot slot round trip with its name, remove_offmesh takes it out,
// and bad steps are errors naming the value.
func TestRunnerOffMesh(t *testing.T) {
	dir := t.TempDir()
	// Two 20 m floors, 10 m apart along x.
	obj := "v 0 0 0\nv 20 0 0\nv 20 0 20\nv 0 0 20\nf 1 3 2\nf 1 4 3\n" +
		"v 30 0 0\nv 50 0 0\nv 50 0 20\nv 30 0 20\nf 5 7 6\nf 5 8 7\n"
	if err := os.WriteFile(filepath.Join(dir, "floors.obj"), []byte(obj), 0o644); err != nil {
		t.Fatal(err)
	}
	path := `{"path": {"start_m": [5, 0, 10], "end_m": [45, 0, 10]}}`
	src := `{"navviz-scenario": 1, "level": {"obj": "floors.obj"}, "settings": {"partition": "layers", "detail_sample_dist_cells": 0},
		"steps": [` + path + `,
		{"offmesh": {"name": "jump", "start_m": [18, 0, 10], "end_m": [32, 0, 10], "radius_m": 0.5, "bidirectional": true, "area": 63}},
		{"update": "all"}, ` + path + `, {"snapshot": {"slot": "s"}},
		{"remove_offmesh": "jump"}, {"update": "all"}, ` + path + `,
		{"restore": {"slot": "s"}}, ` + path + `, {"remove_offmesh": "jump"}]}`
	file := filepath.Join(dir, "o.scenario.json")
	sc, err := Parse([]byte(src), file)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(sc, file)
	if err != nil {
		t.Fatal(err)
	}
	steps := res.Report.Steps
	for _, c := range []struct {
		step    int
		partial bool
	}{{0, true}, {3, false}, {7, true}, {9, false}} {
		p := steps[c.step].Path
		if p == nil || !p.Found || p.Partial != c.partial {
			t.Errorf("step %d: path %+v, want partial %v", c.step, p, c.partial)
		}
	}
	if !strings.Contains(steps[1].Did, `added off-mesh link "jump" (id 1, area 63)`) {
		t.Errorf("step 1 did %q", steps[1].Did)
	}

	for _, c := range []struct{ name, step, want string }{
		{"radius", `{"offmesh": {"name": "j", "start_m": [1, 0, 1], "end_m": [2, 0, 2], "radius_m": 0, "area": 63}}`, "radius = 0 m"},
		{"area", `{"offmesh": {"name": "j", "start_m": [1, 0, 1], "end_m": [2, 0, 2], "radius_m": 1, "area": 64}}`, `offmesh "j" area 64: want 0 to 63`},
		{"name", `{"remove_offmesh": "a b"}`, `offmesh name "a b"`},
	} {
		if _, err := Parse([]byte(`{"navviz-scenario": 1, "level": {"obj": "floors.obj"}, "steps": [`+c.step+`]}`), file); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Parse error %v, want %q", c.name, err, c.want)
		}
	}
	for _, c := range []struct{ name, steps, want string }{
		{"unknown", `{"remove_offmesh": "x"}`, `remove_offmesh "x": no such off-mesh link (have none)`},
		{"outside", `{"offmesh": {"name": "far", "start_m": [500, 0, 1], "end_m": [2, 0, 2], "radius_m": 1, "area": 63}}`, "outside the tiles"},
	} {
		sc, err := Parse([]byte(`{"navviz-scenario": 1, "level": {"obj": "floors.obj"}, "steps": [`+c.steps+`]}`), file)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Run(sc, file); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Run error %v, want %q", c.name, err, c.want)
		}
	}
}
