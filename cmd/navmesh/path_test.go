package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"navviz/core/level/leveltest"
)

// writeLines writes text to a temporary file and returns its path.
func writeLines(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// decodeLines parses --json output: one object a line.
func decodeLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var objs []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		objs = append(objs, m)
	}
	return objs
}

func keysOf(m map[string]any) []string {
	var k []string
	for key := range m {
		k = append(k, key)
	}
	slices.Sort(k)
	return k
}

// TestPathCommand: pairs and rays on the dungeon, --json and text; the
// objects have the documented keys, a pair on the floor is complete with
// a path from start to end no shorter than their distance, a pair far off
// the mesh has status none, a ray into a wall hits it; --cache with an
// obstacle on the first leg gives a longer path.
func TestPathCommand(t *testing.T) {
	lvl := leveltest.Path(t, "dungeon")
	pairs := writeLines(t, "pairs.txt", "# start end\n22.18 17.6 -80.04 22.18 17.6 -70\n\n0 500 0 1 500 1\n")
	rays := writeLines(t, "rays.txt", "22.18 17.6 -80.04 1 0\n")
	code, out, errOut := runCmd(t, "path", lvl, "--pairs", pairs, "--rays", rays, "--json")
	if code != 0 {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	objs := decodeLines(t, out)
	if len(objs) != 3 {
		t.Fatalf("%d objects, want 3: %q", len(objs), out)
	}
	wantPair := []string{"corridor", "end", "i", "length", "points", "start", "status"}
	if k := keysOf(objs[0]); !slices.Equal(k, wantPair) {
		t.Errorf("pair keys %v, want %v", k, wantPair)
	}
	p := objs[0]
	if p["status"] != "complete" || p["i"].(float64) != 0 || p["corridor"].(float64) < 2 {
		t.Errorf("pair 0: %v", p)
	}
	pts := p["points"].([]any)
	first, last := pts[0].([]any), pts[len(pts)-1].([]any)
	if !slices.Equal(first, p["start"].([]any)) || !slices.Equal(last, p["end"].([]any)) {
		t.Errorf("pair 0: points %v do not run from start to end", pts)
	}
	s, e := p["start"].([]any), p["end"].([]any)
	d := math.Sqrt(math.Pow(s[0].(float64)-e[0].(float64), 2) + math.Pow(s[1].(float64)-e[1].(float64), 2) + math.Pow(s[2].(float64)-e[2].(float64), 2))
	if l := p["length"].(float64); l < d*(1-1e-6) {
		t.Errorf("pair 0: length %v below the distance %v", l, d)
	}
	if objs[1]["status"] != "none" || objs[1]["i"].(float64) != 1 || len(objs[1]["points"].([]any)) != 0 {
		t.Errorf("pair 1 off the mesh: %v", objs[1])
	}
	r := objs[2]
	if r["ray"] != true || r["hit"] != true || !(r["t"].(float64) > 0 && r["t"].(float64) < 1) ||
		math.Abs(r["dist"].(float64)-10*r["t"].(float64)) > 1e-9 {
		t.Errorf("ray 0: %v", r)
	}
	// --search: detour is the default; optimal answers too, here with the
	// same corridor (one room).
	for _, rule := range []string{"detour", "optimal"} {
		code, o, errOut := runCmd(t, "path", lvl, "--pairs", pairs, "--rays", rays, "--json", "--search", rule)
		if code != 0 {
			t.Fatalf("--search %s: code %d, stderr %q", rule, code, errOut)
		}
		if rule == "detour" && o != out {
			t.Errorf("--search detour differs from the default:\n%s\n%s", o, out)
		}
		if q := decodeLines(t, o)[0]; q["status"] != "complete" || q["corridor"] != p["corridor"] {
			t.Errorf("--search %s: %v, want complete with %v polygons", rule, q, p["corridor"])
		}
	}
	// Text output: one line per answer.
	code, text, _ := runCmd(t, "path", lvl, "--pairs", pairs, "--rays", rays)
	if code != 0 || strings.Count(text, "\n") != 3 || !strings.HasPrefix(text, "pair 0: complete") {
		t.Errorf("text output %q", text)
	}
	// An obstacle on the first leg: the cache answers with a detour.
	code, out, errOut = runCmd(t, "path", lvl, "--pairs", pairs, "--json", "--cache", "--obstacle", "22.13,15,-75.4,1.5,4")
	if code != 0 {
		t.Fatalf("--cache: code %d, stderr %q", code, errOut)
	}
	c := decodeLines(t, out)[0]
	if c["status"] != "complete" || c["length"].(float64) <= p["length"].(float64)+0.1 {
		t.Errorf("with the obstacle: %v, want a complete path longer than %v", c, p["length"])
	}
}

func TestPathCommandErrors(t *testing.T) {
	lvl := leveltest.Path(t, "dungeon")
	bad := writeLines(t, "bad.txt", "1 2 3\n")
	nan := writeLines(t, "nan.txt", "1 2 3 4 NaN 6\n")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"path"}, 2, "missing LEVEL"},
		{[]string{"path", lvl}, 2, "missing --pairs"},
		{[]string{"path", lvl, "--pairs", bad, "--obstacle", "0,0,0,1,1"}, 2, "--obstacle needs --cache"},
		{[]string{"path", lvl, "--pairs", bad, "--partition", "nope"}, 2, "unknown partition"},
		{[]string{"path", lvl, "--pairs", bad, "--search", "nope"}, 2, `--search: query: search rule "nope", want optimal or detour`},
		{[]string{"path", lvl, "--pairs", bad}, 1, "bad.txt:1: 3 numbers, want 6"},
		{[]string{"path", lvl, "--pairs", nan}, 1, `"NaN" is not a finite number`},
		{[]string{"path", lvl, "--pairs", filepath.Join(t.TempDir(), "absent")}, 1, "absent"},
	} {
		code, _, errOut := runCmd(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: code %d, stderr %q; want %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
}
