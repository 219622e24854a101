package scenario

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"navviz/core/navmesh/detour"
)

// terrainScenario is a small terrain scenario with the given steps.
func terrainScenario(steps string) string {
	return `{"navviz-scenario": 1, "level": {"builtin": "terrain"},
	"settings": {"partition": "layers", "detail_sample_dist_cells": 0, "tile_size_cells": 128}, "steps": [` + steps + `]}`
}

const addPillar = `{"obstacle": {"name": "p", "cylinder": {"base_m": [40, -10, 40], "radius_m": 3, "height_m": 30}}}`

// TestRunnerStepErrors: a step that fails names the file, the step and the
// value, changes nothing (the mesh, the queue, the names) and stays next.
func TestRunnerStepErrors(t *testing.T) {
	cases := []struct {
		name, steps string
		failStep    int
		want        []string
	}{
		{"remove unknown obstacle", addPillar + `, {"remove_obstacle": "q"}`, 2, []string{`remove_obstacle "q"`, "no such obstacle", "have p"}},
		{"duplicate obstacle", addPillar + `, ` + addPillar, 2, []string{`obstacle "p"`, "taken"}},
		{"remove unknown volume", `{"remove_volume": "v"}`, 1, []string{`remove_volume "v"`, "have none"}},
		{"tile outside", `{"select_tile": [40, 1]}`, 1, []string{"select_tile [40, 1]", "outside"}},
		{"frame tile outside", `{"camera": {"frame_tile": [1, 99]}}`, 1, []string{"frame_tile [1, 99]"}},
		{"restore unknown slot", `{"update": "all"}, {"restore": {"slot": "x"}}`, 2, []string{`restore slot "x"`}},
		{"restore missing file", `{"restore": {"file": "nope.nvtc"}}`, 1, []string{`restore file "nope.nvtc"`}},
		{"restore corrupt file", `{"restore": {"file": "bad.nvtc"}}`, 1, []string{`restore file "bad.nvtc"`}},
		{"obstacle outside the level", `{"obstacle": {"name": "far", "cylinder": {"base_m": [-5000, 0, 0], "radius_m": 1, "height_m": 1}}}`, 0, nil},
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad.nvtc"), []byte("not a snapshot"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(dir, "t.scenario.json")
			sc, err := Parse([]byte(terrainScenario(c.steps)), file)
			if err != nil {
				t.Fatal(err)
			}
			r, err := NewRunner(sc, file)
			if err != nil {
				t.Fatal(err)
			}
			for r.Next() < c.failStep {
				if _, _, err := r.Step(); err != nil {
					t.Fatalf("step %d: %v", r.Next(), err)
				}
			}
			if c.failStep == 0 { // must succeed
				for !r.Done() {
					if _, _, err := r.Step(); err != nil {
						t.Fatal(err)
					}
				}
				return
			}
			hash, queued, nObs := r.meshHash(), r.Cache.QueueLen(), len(r.Cache.Obstacles())
			_, _, err = r.Step()
			var se *Error
			if !errors.As(err, &se) || se.Step != c.failStep || se.File != file {
				t.Fatalf("err = %v, want an *Error of step %d of %s", err, c.failStep, file)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, file+": step ") {
				t.Errorf("error %q does not start with the file and step", msg)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			if r.Next() != c.failStep || r.meshHash() != hash || r.Cache.QueueLen() != queued || len(r.Cache.Obstacles()) != nObs {
				t.Errorf("the failed step changed the state")
			}
		})
	}
}

// TestRunnerSnapshotFiles: a snapshot file is an output the runner keeps,
// and a later restore of the same name reads it back; names come back
// with a slot.
func TestRunnerSnapshotFiles(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.scenario.json")
	steps := addPillar + `, {"update": "all"}, {"snapshot": {"file": "one.nvtc"}}, {"snapshot": {"slot": "one"}},
		{"remove_obstacle": "p"}, {"update": "all"}, {"restore": {"file": "one.nvtc"}}, {"restore": {"slot": "one"}}, {"remove_obstacle": "p"}`
	sc, err := Parse([]byte(terrainScenario(steps)), file)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(sc, file)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Snapshots) != 1 || res.Snapshots[0].Name != "one.nvtc" || len(res.Snapshots[0].Data) == 0 {
		t.Fatalf("snapshot files %v", res.Snapshots)
	}
	out := filepath.Join(t.TempDir(), "out")
	if err := res.Write(out); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"one.nvtc", ReportFile, TimingsFile} {
		if _, err := os.Stat(filepath.Join(out, n)); err != nil {
			t.Error(err)
		}
	}
	steps7 := res.Report.Steps[6]
	if steps7.MeshHash != res.Report.Steps[1].MeshHash {
		t.Errorf("restoring the file gives mesh %s, the snapshot had %s", steps7.MeshHash, res.Report.Steps[1].MeshHash)
	}
}

// TestRunnerNoCache: a scenario without a cache draws the plain build.
func TestRunnerNoCache(t *testing.T) {
	src := `{"navviz-scenario": 1, "level": {"builtin": "terrain"}, "cache": false, "steps": [
		{"select_tile": [2, 2]}, {"overlays": {"show": ["compact", "polys", "selection", "path"], "scope": "selected"}},
		{"path": {"start_m": [30, 0, 30], "end_m": [45, 0, 45]}}, {"camera": {"frame_tile": [2, 2]}},
		{"shot": {"name": "a", "size": "64x40"}}]}`
	sc, err := Parse([]byte(src), "n.scenario.json")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(sc, "n.scenario.json")
	if err != nil {
		t.Fatal(err)
	}
	if res.Report.Cache || res.Report.MeshHash != "" || len(res.Shots) != 1 {
		t.Errorf("report %+v", res.Report)
	}
	if p := res.Report.Steps[2].Path; p == nil || !p.Found {
		t.Errorf("path on the plain build: %+v", p)
	}
	img := res.Shots[0].Image
	bg := 0
	for i := 0; i < len(img.Pix); i += 4 {
		if img.Pix[i] == Background.R && img.Pix[i+1] == Background.G && img.Pix[i+2] == Background.B {
			bg++
		}
	}
	if bg == len(img.Pix)/4 {
		t.Errorf("the shot is only background")
	}
}

// TestRunnerOBJLevel: an OBJ level is read relative to the scenario file.
func TestRunnerOBJLevel(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "levels"), 0o755); err != nil {
		t.Fatal(err)
	}
	obj := "v 0 0 0\nv 30 0 0\nv 30 0 30\nv 0 0 30\nf 1 3 2\nf 1 4 3\n"
	if err := os.WriteFile(filepath.Join(dir, "levels", "floor.obj"), []byte(obj), 0o644); err != nil {
		t.Fatal(err)
	}
	src := `{"navviz-scenario": 1, "level": {"obj": "levels/floor.obj"}, "settings": {"partition": "layers", "detail_sample_dist_cells": 0},
		"steps": [{"obstacle": {"name": "b", "box": {"min_m": [10, -1, 10], "max_m": [20, 2, 20]}}}, {"update": "all"},
		{"path": {"start_m": [5, 0, 15], "end_m": [25, 0, 15]}}, {"camera": {"view": "top"}}, {"shot": {"name": "s", "size": "80x80"}}]}`
	file := filepath.Join(dir, "f.scenario.json")
	sc, err := Parse([]byte(src), file)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(sc, file)
	if err != nil {
		t.Fatal(err)
	}
	if res.Report.Level != "levels/floor.obj" || len(res.Shots) != 1 {
		t.Errorf("report %+v", res.Report)
	}
	if p := res.Report.Steps[4].Path; p == nil || !p.Found || p.Corners < 3 {
		t.Errorf("path round the box: %+v", p)
	}
	// The same file from another directory does not find the level.
	if _, err := Run(sc, filepath.Join(t.TempDir(), "f.scenario.json")); err == nil || !strings.Contains(err.Error(), "floor.obj") {
		t.Errorf("level outside the scenario's directory: err = %v", err)
	}
}

// TestNewRunnerValidates: a scenario built in code is checked as a parsed
// one (no panic on a cache step without a cache).
func TestNewRunnerValidates(t *testing.T) {
	no := false
	sc := &Scenario{FormatVersion: Version, Level: Level{Builtin: "terrain"}, Cache: &no,
		Steps: []Step{{Update: &UpdateCount{All: true}}}}
	_, err := NewRunner(sc, "code")
	var se *Error
	if !errors.As(err, &se) || se.Step != 1 || !strings.Contains(err.Error(), "needs the tile cache") {
		t.Errorf("err = %v, want step 1 needing the cache", err)
	}
}

// TestRunnerTinyShots: the smallest and the thinnest pictures, with a
// legend that does not fit, render without trouble.
func TestRunnerTinyShots(t *testing.T) {
	src := `{"navviz-scenario": 1, "level": {"builtin": "terrain"}, "cache": false, "steps": [
		{"overlays": {"show": ["input", "grid", "volumes", "removed", "queue"], "scope": "all"}},
		{"shot": {"name": "a", "size": "1x1", "legend": true}},
		{"shot": {"name": "b", "size": "3x200", "legend": true}},
		{"shot": {"name": "c", "size": "300x2", "legend": true}}]}`
	sc, err := Parse([]byte(src), "tiny.scenario.json")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(sc, "tiny.scenario.json")
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range [][2]int{{1, 1}, {3, 200}, {300, 2}} {
		if b := res.Shots[i].Image.Bounds(); b.Dx() != want[0] || b.Dy() != want[1] {
			t.Errorf("shot %d is %v, want %dx%d", i, b, want[0], want[1])
		}
	}
}

// TestWriteRefusesInputs: an output that would replace a file the run read
// (the level, the scenario file itself) is refused before anything is
// written, and the input is left as it was.
func TestWriteRefusesInputs(t *testing.T) {
	obj := "v 0 0 0\nv 30 0 0\nv 30 0 30\nv 0 0 30\nf 1 3 2\nf 1 4 3\n"
	for _, tc := range []struct {
		name, level, file, shot string
		outHere                 bool // write into the scenario's directory
		want                    string
	}{
		{"level named like a shot", "s.png", "a.scenario.json", "s", true, "is the input"},
		{"scenario named like the report", "floor.obj", TimingsFile, "s", true, "is the input"},
		{"scenario named like the HTML report", "floor.obj", IndexFile, "s", true, "is the input"},
		{"another directory", "s.png", "a.scenario.json", "s", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, tc.level), []byte(obj), 0o644); err != nil {
				t.Fatal(err)
			}
			src := `{"navviz-scenario": 1, "level": {"obj": "` + tc.level + `"}, "settings": {"partition": "layers", "detail_sample_dist_cells": 0},
				"steps": [{"camera": {"view": "top"}}, {"shot": {"name": "` + tc.shot + `", "size": "40x40"}}]}`
			file := filepath.Join(dir, tc.file)
			if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := RunFile(file)
			if err != nil {
				t.Fatal(err)
			}
			out := t.TempDir()
			if tc.outHere {
				out = dir
			}
			err = res.Write(out)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Write into the scenario's directory: err = %v, want %q", err, tc.want)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, tc.level)); string(b) != obj {
				t.Error("the level was changed")
			}
			if b, _ := os.ReadFile(file); string(b) != src {
				t.Error("the scenario file was changed")
			}
			if _, err := os.Stat(filepath.Join(dir, ReportFile)); err == nil {
				t.Error("report.json was written though the write was refused")
			}
		})
	}
}

// TestRunnerExport: an export step writes the live mesh at that step, in
// navviz's format (the bytes of the cache's mesh) or as a Detour file
// (which reads back with the same polygons), and bad export steps are
// refused by name.
func TestRunnerExport(t *testing.T) {
	file := filepath.Join(t.TempDir(), "e.scenario.json")
	steps := addPillar + `, {"update": "all"}, {"export": {"file": "live.bin"}}, {"export": {"file": "live.mset", "format": "detour"}},
		{"export": {"file": "live64.mset", "format": "detour", "polyref64": true}}`
	sc, err := Parse([]byte(terrainScenario(steps)), file)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRunner(sc, file)
	if err != nil {
		t.Fatal(err)
	}
	for !r.Done() {
		if _, _, err := r.Step(); err != nil {
			t.Fatal(err)
		}
	}
	want, err := r.Cache.Mesh().MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range r.SnapshotFiles() {
		files[f.Name] = f.Data
	}
	if !bytes.Equal(files["live.bin"], want) {
		t.Errorf("live.bin: %d bytes, want the cache's mesh (%d bytes)", len(files["live.bin"]), len(want))
	}
	polys := 0
	for _, ref := range r.Cache.Mesh().Tiles() {
		tl, _ := r.Cache.Mesh().Tile(ref)
		polys += len(tl.Polys)
	}
	for _, name := range []string{"live.mset", "live64.mset"} {
		df, err := detour.Decode(files[name])
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := 0
		for _, ref := range df.Mesh.Tiles() {
			tl, _ := df.Mesh.Tile(ref)
			got += len(tl.Polys)
		}
		if got != polys || df.Mesh.TileCount() != r.Cache.Mesh().TileCount() {
			t.Errorf("%s: %d tiles, %d polygons; the cache has %d, %d", name, df.Mesh.TileCount(), got, r.Cache.Mesh().TileCount(), polys)
		}
	}
	if h := r.Report.Steps[2].ExportHash; h == "" || !strings.Contains(r.Report.Steps[2].Did, "navviz format") {
		t.Errorf("export report: %+v", r.Report.Steps[2])
	}
	for _, tc := range []struct{ step, want string }{
		{`{"export": {"file": "x.png"}}`, "are taken"},
		{`{"export": {"file": "a/b.bin"}}`, "export file"},
		{`{"export": {"file": "x.bin", "format": "obj"}}`, `format "obj"`},
		{`{"export": {"file": "x.bin", "polyref64": true}}`, "polyref64 is for"},
	} {
		if _, err := Parse([]byte(terrainScenario(tc.step)), file); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.step, err, tc.want)
		}
	}
}
