package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"navviz/core/level/leveltest"
)

// TestDiffCommand: a mesh file against itself is identical (exit 0);
// dungeon built monotone against watershed differs (exit 1) with the
// changed tile layers listed and each side's total walkable area equal to
// navmesh build --json's; unreadable input is exit 2.
func TestDiffCommand(t *testing.T) {
	dungeon := leveltest.Path(t, "dungeon")
	dir := t.TempDir()
	built := map[string]float64{}
	for _, p := range []string{"monotone", "watershed"} {
		out := filepath.Join(dir, p+".bin")
		code, stdout, stderr := runCmd(t, "build", dungeon, "--partition", p, "--json", "-o", out)
		if code != 0 {
			t.Fatalf("build %s: exit %d: %s", p, code, stderr)
		}
		built[p] = decodeReport(t, stdout)["walkableArea"].(float64)
	}
	mono, water := filepath.Join(dir, "monotone.bin"), filepath.Join(dir, "watershed.bin")

	if code, stdout, stderr := runCmd(t, "diff", mono, mono); code != 0 || !strings.Contains(stdout, "identical") || stderr != "" {
		t.Errorf("a file with itself: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, stderr := runCmd(t, "diff", mono, water, "--json")
	if code != 1 || stderr != "" {
		t.Fatalf("monotone vs watershed: exit %d (want 1), stderr %q", code, stderr)
	}
	var d diffJSON
	if err := json.Unmarshal([]byte(stdout), &d); err != nil {
		t.Fatalf("--json: %v\n%s", err, stdout)
	}
	if d.Identical || len(d.Tiles) == 0 || d.A.WalkableArea != built["monotone"] || d.B.WalkableArea != built["watershed"] {
		t.Errorf("diff %+v; build's areas %v", d, built)
	}
	for _, tl := range d.Tiles {
		if tl.Change != "changed" || tl.PolysA == 0 || tl.PolysB == 0 {
			t.Errorf("tile %+v: want a layer both builds have, changed", tl)
		}
	}
	if code, stdout, _ := runCmd(t, "diff", mono, water); code != 1 || !strings.Contains(stdout, "tile layers differ") {
		t.Errorf("text: exit %d, %q", code, stdout)
	}

	bad := filepath.Join(dir, "short.bin")
	if err := os.WriteFile(bad, []byte("NVMS"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"not a mesh", []string{"diff", mono, dungeon}, "neither a navviz mesh file"},
		{"dev zero", []string{"diff", "/dev/zero", mono}, "neither a navviz mesh file"},
		{"corrupt", []string{"diff", mono, bad}, "corrupt mesh data"},
		{"missing", []string{"diff", mono, filepath.Join(dir, "none.bin")}, "no such file"},
		{"one file", []string{"diff", mono}, "want two mesh files"},
	} {
		code, _, stderr := runCmd(t, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d, stderr %q, want exit 2 and %q", tc.name, code, stderr, tc.want)
		}
	}
}

// TestDiffDetourFiles: navmesh diff reads Detour files too (by content): a
// Detour file of a mesh against itself is identical, and against the
// navviz file of the same mesh has the same polygons and area.
func TestDiffDetourFiles(t *testing.T) {
	dungeon := leveltest.Path(t, "dungeon")
	dir := t.TempDir()
	nv, dt := filepath.Join(dir, "d.bin"), filepath.Join(dir, "d.mset")
	if code, _, stderr := runCmd(t, "build", dungeon, "-o", nv); code != 0 {
		t.Fatal(stderr)
	}
	if code, _, stderr := runCmd(t, "build", dungeon, "--format", "detour", "-o", dt); code != 0 {
		t.Fatal(stderr)
	}
	if code, stdout, stderr := runCmd(t, "diff", dt, dt); code != 0 {
		t.Errorf("a Detour file with itself: exit %d, %s%s", code, stdout, stderr)
	}
	code, stdout, _ := runCmd(t, "diff", nv, dt, "--json")
	var d diffJSON
	if err := json.Unmarshal([]byte(stdout), &d); err != nil {
		t.Fatal(err)
	}
	if code != 1 || d.A.Polys != d.B.Polys || d.A.Tiles != d.B.Tiles || math.Abs(d.A.WalkableArea-d.B.WalkableArea) > 1e-3*d.A.WalkableArea {
		t.Errorf("navviz vs Detour file of one mesh: exit %d, %+v %+v", code, d.A, d.B)
	}
}
