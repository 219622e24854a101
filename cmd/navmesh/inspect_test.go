package main

import (
	"encoding/json"
	"strings"
	"testing"

	"navviz/scenario"
)

// inspectArgs adds two cylinders on terrain: a small one the repair
// handles and a wide one that removes a small region (precondition (b)).
var inspectArgs = []string{"inspect", "terrain", "--obstacle", "95.3,0.7,82.9,1,2", "--obstacle", "77.6,5.6,74.3,4,3"}

// TestInspectText: one line per rebuilt layer after the summary, repaired
// layers with contours equal to scratch, and a layer built from scratch
// with the precondition that failed.
func TestInspectText(t *testing.T) {
	code, out, errOut := runCmd(t, inspectArgs...)
	if code != 0 {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "terrain: 2 obstacles") || !strings.Contains(lines[0], "0 repaired layers differ") {
		t.Fatalf("output:\n%s", out)
	}
	repaired, scratch := 0, 0
	for _, l := range lines[1:] {
		switch {
		case !strings.HasPrefix(l, "tile ("):
			t.Errorf("line %q", l)
		case strings.Contains(l, " repaired "):
			repaired++
			if !strings.Contains(l, "contours equal") || !strings.HasSuffix(l, " ok") {
				t.Errorf("repaired line %q", l)
			}
		case strings.Contains(l, " scratch "):
			scratch++
			if !strings.Contains(l, "contours -") || !strings.Contains(l, "(b) ") {
				t.Errorf("scratch line %q", l)
			}
		}
	}
	if repaired == 0 || scratch == 0 {
		t.Errorf("%d repaired, %d scratch:\n%s", repaired, scratch, out)
	}
	// Deterministic.
	if _, again, _ := runCmd(t, inspectArgs...); again != out {
		t.Errorf("second run differs:\n%s\n%s", out, again)
	}
}

// TestInspectJSON: --json prints the same layers as an array.
func TestInspectJSON(t *testing.T) {
	code, out, errOut := runCmd(t, append(inspectArgs, "--json")...)
	if code != 0 {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	var got []scenario.LayerLine
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	_, text, _ := runCmd(t, inspectArgs...)
	if n := strings.Count(strings.TrimSpace(text), "\n"); len(got) != n || n == 0 {
		t.Fatalf("%d JSON layers, %d text lines", len(got), n)
	}
	for _, l := range got {
		if l.Repaired != (l.Verdict == "ok") || l.Repaired && (l.Contours != "equal" || l.Removed == 0) {
			t.Errorf("%+v", l)
		}
		if !l.Repaired && (l.Precondition == "" || l.Contours != "-") {
			t.Errorf("%+v", l)
		}
	}
}

// TestInspectUsage: a missing level or obstacle and a bad obstacle are
// usage errors.
func TestInspectUsage(t *testing.T) {
	for _, args := range [][]string{
		{"inspect"},
		{"inspect", "terrain"},
		{"inspect", "terrain", "--obstacle", "1,2"},
		{"inspect", "terrain", "--obstacle", "1,2,3,x,1"},
		{"inspect", "terrain", "--obstacle", "1,2,3,-1,1"},
		{"inspect", "terrain", "city", "--obstacle", "1,2,3,1,1"},
	} {
		if code, _, errOut := runCmd(t, args...); code != 2 || !strings.Contains(errOut, "navmesh inspect") {
			t.Errorf("%v: code %d, stderr %q", args, code, errOut)
		}
	}
	if code, out, _ := runCmd(t, "inspect", "-h"); code != 0 || !strings.Contains(out, "-obstacle") {
		t.Errorf("-h: code %d, %q", code, out)
	}
}
