package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"navviz/internal/cputime"
)

var update = flag.Bool("update", false, "rewrite the hash-matrix goldens in ../../testdata/hashmatrix/")

// hashGolden is the pinned output of navmesh hashmatrix.
const hashGolden = "../../testdata/hashmatrix/build3d-tilecache.txt"

// TestHashMatrixGolden: navmesh hashmatrix prints exactly the pinned table
// (run with -update to rewrite it after an intended change), and the table
// says what the scenario promises: a restore gives back the snapshot's
// state, clearing everything gives back the first build's tiles.
func TestHashMatrixGolden(t *testing.T) {
	code, out, errOut := runCmd(t, "hashmatrix")
	if code != 0 {
		t.Fatalf("hashmatrix: code %d, stderr %q", code, errOut)
	}
	if *update {
		if err := os.MkdirAll(filepath.Dir(hashGolden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(hashGolden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(hashGolden)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/navmesh -run HashMatrix -update to write it)", err)
	}
	if out != string(want) {
		gl, wl := strings.Split(out, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if gl[i] != wl[i] {
				t.Errorf("line %d:\n got  %s\n want %s", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("hashmatrix output (%d lines) differs from %s (%d lines); run with -update after an intended change", len(gl), hashGolden, len(wl))
	}
	// The scenario's own promises, read from the table.
	type key struct{ config, step string }
	rows := map[key][]string{}
	configs := 0
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) != 8 || f[0] != "build3d/tilecache" {
			continue
		}
		rows[key{f[1], f[2]}] = f[3:]
		if f[2] == "build" {
			configs++
		}
	}
	// Four single-cache configs and two-agents/small and /large.
	if configs != 6 || len(rows) != 6*8 {
		t.Fatalf("%d configs, %d rows", configs, len(rows))
	}
	for k, r := range rows {
		if k.step != "build" {
			continue
		}
		c := k.config
		if snap, res := rows[key{c, "snapshot"}], rows[key{c, "restore"}]; strings.Join(snap, " ") != strings.Join(res, " ") {
			t.Errorf("%s: restore %v, snapshot %v", c, res, snap)
		}
		if clear := rows[key{c, "clear"}]; clear[3] != r[3] || clear[0] != "0" {
			t.Errorf("%s: clear content %s, build content %s", c, clear[3], r[3])
		}
		if add := rows[key{c, "add"}]; add[0] == "0" || add[2] != r[2] {
			t.Errorf("%s: add queued nothing or changed the mesh", c)
		}
		up, add := rows[key{c, "update-3"}], rows[key{c, "add"}]
		switch {
		case c == "two-agents/large": // the World spends Update(3) on the first agent's queue
			if strings.Join(up, " ") != strings.Join(add, " ") {
				t.Errorf("%s: Update(3) reached the second agent before the first one's queue was empty", c)
			}
		case up[2] == r[2]:
			t.Errorf("%s: the sliced update changed nothing", c)
		}
	}
	// Usage errors.
	if code, _, _ := runCmd(t, "hashmatrix", "--scenario", "nope"); code != 2 {
		t.Errorf("unknown scenario: code %d", code)
	}
	if code, _, _ := runCmd(t, "hashmatrix", "extra"); code != 2 {
		t.Errorf("extra argument: code %d", code)
	}
}

// TestBenchCity runs navmesh bench on the city (two short cycles) and
// checks every figure is reported.
func TestBenchCity(t *testing.T) {
	code, out, errOut := runCmd(t, "bench", "city", "--cycles", "2", "--warmup", "0")
	if code != 0 {
		t.Fatalf("bench city: code %d, stderr %q", code, errOut)
	}
	wants := []string{"full build", "tiles ", "layers ", "polys ", "live heap", "16 cylinders", "ms per cycle", "median of 2",
		"allocations", "layer rebuilds", "from scratch", "µs per layer", "contours", "swap", "verdicts", "ok ", "peak memory", "MiB"}
	if _, ok := cputime.Thread(); ok {
		wants = append(wants, "thread CPU median", "per layer build", "RSS")
	}
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	t.Logf("\n%s", out)
}

// TestBenchJSON runs navmesh bench --json on a small level and checks the
// figures are there and consistent.
func TestBenchJSON(t *testing.T) {
	dir := t.TempDir()
	obj := filepath.Join(dir, "floor.obj")
	if err := os.WriteFile(obj, []byte("v 0 0 0\nv 0 0 30\nv 30 0 30\nv 30 0 0\nf 1 2 3\nf 1 3 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pts := filepath.Join(dir, "points.txt")
	if err := os.WriteFile(pts, []byte("5 0 5\n20 0 20\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd(t, "bench", "--level", obj, "--points", pts, "--cycles", "3", "--warmup", "0", "--workers", "1", "--json")
	if code != 0 {
		t.Fatalf("bench --json: code %d, stderr %q", code, errOut)
	}
	var r benchResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	verdicts := 0
	for _, v := range r.Verdicts {
		verdicts += v.Count
	}
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"cycles", r.Cycles == 3 && r.Obstacles == 2 && r.Workers == 1},
		{"tiles", r.CachedTiles > 0 && r.NavTiles > 0 && r.Polys > 0},
		{"wall times", r.MinMs > 0 && r.MinMs <= r.MedianMs && r.MedianMs <= r.MaxMs},
		{"layer builds", r.LayersPerCycle > 0 && r.RepairedPerCycle+r.ScratchPerCycle == r.LayersPerCycle},
		{"verdicts", float64(verdicts) == r.LayersPerCycle},
		{"allocations", r.AllocsPerCycle > 0 && r.AllocBytesPerCyc > 0},
		{"stages", r.Stages.Mark > 0 && r.Stages.Swap > 0 && r.Stages.Total >= r.Stages.Polys+r.Stages.Scratch},
		{"memory", r.LiveHeapBytes > 0 && r.PeakHeap >= r.LiveHeapBytes},
		{"CPU", !r.HasCPU || (r.CPUMinMs > 0 && r.CPUMinMs <= r.CPUMedianMs && r.PeakRSS > 0)},
	} {
		if !c.ok {
			t.Errorf("%s: %+v", c.name, r)
		}
	}
}

// TestBenchPoints runs navmesh bench --level FILE.obj --points FILE.txt on
// a small level and checks the points file errors.
func TestBenchPoints(t *testing.T) {
	dir := t.TempDir()
	obj := filepath.Join(dir, "floor.obj")
	if err := os.WriteFile(obj, []byte("v 0 0 0\nv 0 0 30\nv 30 0 30\nv 30 0 0\nf 1 2 3\nf 1 3 4\nv 10 0.5 10\nv 10 0.5 14\nv 14 0.5 14\nv 14 0.5 10\nf 5 6 7\nf 5 7 8\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pts := filepath.Join(dir, "points.txt")
	if err := os.WriteFile(pts, []byte("# x y z\n5 0 5\n\n20 0 20\n12 0.5 12\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd(t, "bench", "--level", obj, "--points", pts, "--cycles", "3", "--warmup", "1")
	if code != 0 {
		t.Fatalf("bench: code %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "3 cylinders") || !strings.Contains(out, "median of 3") {
		t.Errorf("output:\n%s", out)
	}
	for _, tc := range []struct {
		points string
		want   string
	}{
		{"1 2\n", "points.txt:1: 2 numbers"},
		{"1 2 3\n1 x 3\n", "points.txt:2: \"x\" is not a finite number"},
		{"# nothing\n", "no points"},
		{"1 2 1e30\n", "point 1"},
	} {
		if err := os.WriteFile(pts, []byte(tc.points), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errOut := runCmd(t, "bench", "--level", obj, "--points", pts, "--cycles", "1")
		if code != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("points %q: code %d, stderr %q, want %q", tc.points, code, errOut, tc.want)
		}
	}
	for _, args := range [][]string{
		{"bench"},
		{"bench", "--level", obj},
		{"bench", "city", "terrain"},
		{"bench", "city", "--cycles", "0"},
		{"bench", "terrain"},
	} {
		if code, _, _ := runCmd(t, args...); code != 2 {
			t.Errorf("%v: code %d, want 2", args, code)
		}
	}
}
