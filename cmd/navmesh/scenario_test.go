package main

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// smallScenario is a quick terrain scenario with two shots.
const smallScenario = `{"navviz-scenario": 1, "level": {"builtin": "terrain"},
  "settings": {"partition": "layers", "detail_sample_dist_cells": 0, "tile_size_cells": 128},
  "steps": [
    {"camera": {"view": "top", "frame_level": true}},
    {"shot": {"name": "plain", "size": "96x64"}},
    {"obstacle": {"name": "p", "cylinder": {"base_m": [60, -10, 60], "radius_m": 8, "height_m": 30}}},
    {"update": "all"},
    {"overlays": {"show": ["cache-polys", "obstacles"]}},
    {"shot": {"name": "carved", "size": "96x64"}}
  ]}`

// writeScenario writes src as a scenario file in a new directory.
func writeScenario(t *testing.T, src string) (dir, file string) {
	t.Helper()
	dir = t.TempDir()
	file = filepath.Join(dir, "small.scenario.json")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, file
}

func TestScenarioCompare(t *testing.T) {
	dir, file := writeScenario(t, smallScenario)
	out, golden := filepath.Join(dir, "out"), filepath.Join(dir, "golden")

	// No golden yet: exit 1 naming it.
	code, stdout, stderr := runCmd(t, "scenario", file, "-o", out, "--compare", golden)
	if code != 1 || !strings.Contains(stdout, "missing golden") || !strings.Contains(stdout, "plain.png") {
		t.Fatalf("without goldens: code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// --update writes them; a compare then passes, with byte-identical
	// outputs on a second run.
	if code, _, stderr = runCmd(t, "scenario", file, "-o", out, "--compare", golden, "--update"); code != 0 {
		t.Fatalf("--update: code %d, stderr %q", code, stderr)
	}
	first := map[string][]byte{}
	for _, n := range []string{"plain.png", "carved.png", "report.json"} {
		b, err := os.ReadFile(filepath.Join(out, n))
		if err != nil {
			t.Fatal(err)
		}
		first[n] = b
	}
	if code, stdout, stderr = runCmd(t, "scenario", file, "-o", out, "--compare", golden); code != 0 {
		t.Fatalf("compare with fresh goldens: code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	for n, b := range first {
		again, err := os.ReadFile(filepath.Join(out, n))
		if err != nil || !bytes.Equal(again, b) {
			t.Errorf("%s differs between two runs (%v)", n, err)
		}
	}
	// A golden changed in one 20x20 block: exit 1, a diff PNG, the box.
	gp := filepath.Join(golden, "carved.png")
	f, err := os.Open(gp)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	changed := image.NewRGBA(img.Bounds())
	for y := 0; y < 64; y++ {
		for x := 0; x < 96; x++ {
			changed.Set(x, y, img.At(x, y))
			if x >= 40 && x < 60 && y >= 10 && y < 30 {
				changed.Set(x, y, color.RGBA{255, 255, 0, 255})
			}
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, changed); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gp, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runCmd(t, "scenario", file, "-o", out, "--compare", golden)
	if code != 1 || !strings.Contains(stdout, "FAIL carved") || !strings.Contains(stdout, "40,10-59,29") || !strings.Contains(stderr, "1 of 2 shots differ") {
		t.Errorf("changed golden: code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "carved.diff.png")); err != nil {
		t.Errorf("no diff PNG: %v", err)
	}
	// A looser tolerance lets it pass (400 of 6144 pixels, 6.5 %).
	if code, stdout, _ = runCmd(t, "scenario", file, "-o", out, "--compare", golden, "--tolerance", "7"); code != 0 {
		t.Errorf("--tolerance 7: code %d, stdout %q", code, stdout)
	}
	// --json prints the report and the comparisons.
	code, stdout, _ = runCmd(t, "scenario", file, "-o", out, "--compare", golden, "--tolerance", "7", "--json")
	if code != 0 || !strings.Contains(stdout, `"final_mesh_hash"`) || !strings.Contains(stdout, `"percent_differing"`) {
		t.Errorf("--json: code %d, stdout %.200q", code, stdout)
	}
}

func TestScenarioErrors(t *testing.T) {
	cases := []struct {
		name string
		src  string
		args []string
		code int
		want string
	}{
		{"bad step", strings.Replace(smallScenario, `"update": "all"`, `"update": "most"`, 1), nil, 1, `step 4: update "most"`},
		{"failing step", strings.Replace(smallScenario, `{"update": "all"}`, `{"remove_obstacle": "q"}`, 1), nil, 1, `step 4: remove_obstacle "q"`},
		{"threshold", smallScenario, []string{"--threshold", "300"}, 2, "--threshold 300"},
		{"tolerance", smallScenario, []string{"--tolerance", "NaN"}, 2, "--tolerance NaN"},
		{"update alone", smallScenario, []string{"--update"}, 2, "--update needs --compare"},
		{"out is golden", smallScenario, []string{"--compare", "OUT"}, 2, "is the golden directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, file := writeScenario(t, c.src)
			out := filepath.Join(dir, "out")
			args := append([]string{"scenario", file, "-o", out}, c.args...)
			for i, a := range args {
				if a == "OUT" {
					args[i] = out
				}
			}
			code, _, stderr := runCmd(t, args...)
			if code != c.code || !strings.Contains(stderr, c.want) {
				t.Errorf("code %d, stderr %q; want %d and %q", code, stderr, c.code, c.want)
			}
			if c.code == 1 && !strings.Contains(stderr, file) {
				t.Errorf("the error does not name the file: %q", stderr)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("a failed run wrote %s (%v)", out, err)
			}
		})
	}
	if code, _, stderr := runCmd(t, "scenario"); code != 2 || !strings.Contains(stderr, "missing FILE") {
		t.Errorf("no file: code %d, stderr %q", code, stderr)
	}
}

// TestScenarioCompareReport: --compare compares report.json too, so a
// regression that moves no pixel fails: an obstacle added after the last
// shot changes final_mesh_hash, and the step count.
func TestScenarioCompareReport(t *testing.T) {
	dir, file := writeScenario(t, smallScenario)
	out, golden := filepath.Join(dir, "out"), filepath.Join(dir, "golden")
	if code, stdout, stderr := runCmd(t, "scenario", file, "-o", out, "--compare", golden, "--update"); code != 0 || !strings.Contains(stdout, "report.json") {
		t.Fatalf("--update: code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(golden, "report.json")); err != nil {
		t.Fatalf("--update wrote no report.json: %v", err)
	}
	if code, stdout, stderr := runCmd(t, "scenario", file, "-o", out, "--compare", golden); code != 0 || !strings.Contains(stdout, "ok   report.json") {
		t.Fatalf("compare with fresh goldens: code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	later := strings.Replace(smallScenario, `{"shot": {"name": "carved", "size": "96x64"}}`,
		`{"shot": {"name": "carved", "size": "96x64"}},
    {"obstacle": {"name": "q", "box": {"min_m": [20, -10, 20], "max_m": [30, 30, 30]}}},
    {"update": "all"}`, 1)
	if err := os.WriteFile(file, []byte(later), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd(t, "scenario", file, "-o", out, "--compare", golden)
	for _, w := range []string{"ok   plain", "ok   carved", "FAIL report.json: final_mesh_hash = ", "FAIL report.json: steps = 8 steps, golden 6 steps"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("stdout lacks %q:\n%s", w, stdout)
		}
	}
	if code != 1 || !strings.Contains(stderr, "report.json differs from the goldens") {
		t.Errorf("code %d, stderr %q", code, stderr)
	}
	// An obstacle moved by 1 m: the lines name the step and the field.
	moved := strings.Replace(smallScenario, `"base_m": [60, -10, 60]`, `"base_m": [61, -10, 60]`, 1)
	if err := os.WriteFile(file, []byte(moved), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stdout, _ = runCmd(t, "scenario", file, "-o", out, "--compare", golden, "--tolerance", "100")
	if !strings.Contains(stdout, "FAIL report.json step 4 update: mesh_hash = ") || !strings.Contains(stdout, "FAIL report.json step 4 update: update.layers[0].removed = ") {
		t.Errorf("a moved obstacle: stdout\n%s", stdout)
	}
	// --json has the comparison.
	_, stdout, _ = runCmd(t, "scenario", file, "-o", out, "--compare", golden, "--tolerance", "100", "--json")
	if !strings.Contains(stdout, `"report_compare"`) || !strings.Contains(stdout, `"field": "mesh_hash"`) {
		t.Errorf("--json: %.300s", stdout)
	}
}

// TestScenarioFind: --find prints the steps where the thing asked for
// happens: street-split's from-scratch layers at its update, and a bad
// query is a usage error.
func TestScenarioFind(t *testing.T) {
	file := filepath.Join("..", "..", "testdata", "scenarios", "street-split.scenario.json")
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := runCmd(t, "scenario", file, "-o", out, "--find", "scratch=c")
	if code != 0 || !strings.Contains(stdout, "find scratch=c: step 3 update: tile 4,7 layer 0 from scratch") ||
		!strings.Contains(stdout, "tile 5,7 layer 0 from scratch: (c) split") || strings.Count(stdout, "find scratch=c:") != 1 {
		t.Errorf("--find scratch=c: code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if code, stdout, _ := runCmd(t, "scenario", file, "-o", out, "--find", "differ"); code != 0 || !strings.Contains(stdout, "find differ: no step") {
		t.Errorf("--find differ: code %d, %q", code, stdout)
	}
	if code, _, stderr := runCmd(t, "scenario", file, "-o", out, "--find", "tile=x"); code != 2 || !strings.Contains(stderr, `tile "x"`) {
		t.Errorf("--find tile=x: code %d, %q", code, stderr)
	}
}
