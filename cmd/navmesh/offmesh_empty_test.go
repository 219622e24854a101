package main

import (
	"strings"
	"testing"
)

// twoSquaresOBJ is the level of issue 28, item 1: two 10 m floor squares
// 60 m apart; on the default 19.2 m tiles the tiles between them have
// nothing walkable.
const twoSquaresOBJ = `v 0 0 0
v 10 0 0
v 10 0 10
v 0 0 10
v 70 0 0
v 80 0 0
v 80 0 10
v 70 0 10
f 1 3 2
f 1 4 3
f 5 7 6
f 5 8 7
`

// TestOffMeshFromEmptyTile: navmesh path --cache --offmesh with a link
// from (30, 0, 5), in the empty gap, to (5, 0, 5) runs (it panicked): the
// link is kept unconnected, so a path on the first square is complete and
// one to the second square stays partial, as in the plain build.
func TestOffMeshFromEmptyTile(t *testing.T) {
	lvl := writeLines(t, "squares.obj", twoSquaresOBJ)
	links := writeLines(t, "gap.offmesh", "30 0 5 5 0 5 0.5 1 63\n")
	pairs := writeLines(t, "pairs.txt", "2 0 2 8 0 8\n5 0 5 75 0 5\n")
	for _, args := range [][]string{
		{"path", lvl, "--pairs", pairs, "--offmesh", links},
		{"path", lvl, "--pairs", pairs, "--offmesh", links, "--cache"},
		{"path", lvl, "--pairs", pairs, "--offmesh", links, "--cache", "--obstacle", "5,-0.5,5,0.5,2"},
	} {
		code, out, errOut := runCmd(t, args...)
		if code != 0 || !strings.Contains(out, "pair 0: complete") || !strings.Contains(out, "pair 1: partial") {
			t.Errorf("%v: code %d, out %q, stderr %q; want pair 0 complete, pair 1 partial", args[4:], code, out, errOut)
		}
	}
}
