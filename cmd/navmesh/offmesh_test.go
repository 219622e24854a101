package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"navviz/core/level/leveltest"
)

// dungeonLinkLine joins two groups of polygons of dungeon that have no
// path between them (found by core/query's TestOffMeshPathDungeon), both
// ways, area 63 (walkable: flags 1).
const (
	dungeonLinkLine = "22.184786 17.597292 -80.041275 12.484784 25.130627 -75.24127 0.3 1 63\n"
	dungeonPairLine = "37.984783 10.197294 -6.6412735 23.464785 24.598524 -83.861275\n"
)

// TestOffMeshCommands: --offmesh makes navmesh path complete across the
// link in the plain build and in the cache (with an obstacle), changes
// the tiles navmesh build writes, and a bad file is an error naming its
// line and value.
func TestOffMeshCommands(t *testing.T) {
	lvl := leveltest.Path(t, "dungeon")
	pairs := writeLines(t, "pairs.txt", dungeonPairLine)
	links := writeLines(t, "links.offmesh", "# jump\n"+dungeonLinkLine)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no link", []string{"path", lvl, "--pairs", pairs}, "pair 0: partial"},
		{"plain", []string{"path", lvl, "--pairs", pairs, "--offmesh", links}, "pair 0: complete"},
		{"cache", []string{"path", lvl, "--pairs", pairs, "--offmesh", links, "--cache", "--obstacle", "30,10,-6,0.5,2"}, "pair 0: complete"},
	} {
		code, out, errOut := runCmd(t, tc.args...)
		if code != 0 || !strings.HasPrefix(out, tc.want) {
			t.Errorf("%s: code %d, out %q, stderr %q; want %q", tc.name, code, out, errOut, tc.want)
		}
	}
	dir := t.TempDir()
	without, with := filepath.Join(dir, "a.bin"), filepath.Join(dir, "b.bin")
	for _, a := range [][]string{{"build", lvl, "-o", without}, {"build", lvl, "--offmesh", links, "-o", with}} {
		if code, _, errOut := runCmd(t, a...); code != 0 {
			t.Fatalf("%v: code %d, stderr %q", a, code, errOut)
		}
	}
	a, _ := os.ReadFile(without)
	b, _ := os.ReadFile(with)
	if len(a) == 0 || bytes.Equal(a, b) {
		t.Errorf("build --offmesh wrote the same mesh as without (%d bytes)", len(a))
	}
	bad := writeLines(t, "bad.offmesh", "# c\n1 2 3 4 5 6 0.5 2 63\n")
	outside := writeLines(t, "outside.offmesh", "1000 2 3 4 5 6 0.5 1 63\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"build", lvl, "--offmesh", bad}, `bad.offmesh:2: bidir "2"`},
		{[]string{"path", lvl, "--pairs", pairs, "--offmesh", bad}, `bad.offmesh:2: bidir "2"`},
		{[]string{"build", lvl, "--offmesh", outside}, "OffMeshLinks[0] (user id 1) start: pipeline: point (1000, 3) outside the tiles"},
		{[]string{"path", lvl, "--pairs", pairs, "--cache", "--offmesh", outside}, "off-mesh link 1: tilecache: AddOffMeshLink: off-mesh link start"},
		{[]string{"build", lvl, "--offmesh", filepath.Join(dir, "absent")}, "absent"},
	} {
		code, _, errOut := runCmd(t, tc.args...)
		if code != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: code %d, stderr %q; want 1 and %q", tc.args, code, errOut, tc.want)
		}
	}
}
