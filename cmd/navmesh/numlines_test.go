package main

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"navviz/core/navmesh"
	"navviz/internal/readlimit"
)

func TestParseNumberLines(t *testing.T) {
	long := strings.Repeat("1", maxNumberLineBytes)
	for _, tc := range []struct {
		name, text string
		n          int
		want       string // the error, or "" for none
		lines      int
	}{
		{"ok", "# c\n\n 1 2 3 \n4e2 -5 6\n", 3, "", 2},
		{"crlf", "1 2 3\r\n", 3, "", 1},
		{"longest line", strings.Repeat(" ", maxNumberLineBytes-5) + "1 2 3\n", 3, "", 1},
		{"count", "1 2\n", 3, "f:1: 2 numbers, want 3", 0},
		{"nan", "1 2 3\n1 NaN 3\n", 3, `f:2: "NaN" is not a finite number`, 0},
		{"word", "1 x 3\n", 3, `f:1: "x" is not a finite number`, 0},
		{"long line", "1 2 3\n\n" + long + "1\n", 3, "f:3: line longer than 4096 bytes", 0},
		{"long comment", "# " + long + "\n", 3, "f:1: line longer than 4096 bytes", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseNumberLines(strings.NewReader(tc.text), "f", tc.n)
			switch {
			case tc.want == "" && (err != nil || len(got) != tc.lines*tc.n):
				t.Errorf("%d numbers, %v; want %d lines of %d", len(got), err, tc.lines, tc.n)
			case tc.want != "" && (err == nil || err.Error() != tc.want || got != nil):
				t.Errorf("%v, %v; want the error %q", got, err, tc.want)
			}
		})
	}
	if testing.Short() {
		return
	}
	_, err := parseNumberLines(strings.NewReader(strings.Repeat("1\n", maxNumberLines)+"#\n2\n"), "f", 1)
	if want := fmt.Sprintf("f:%d: more than %d lines of numbers", maxNumberLines+2, maxNumberLines); err == nil || err.Error() != want {
		t.Errorf("too many lines: %v, want %q", err, want)
	}
}

// TestInputFilesBounded: the files the commands read besides the level
// (pairs, rays, points, off-mesh links) are refused before they are read
// when larger than what they can validly hold (a sparse file of that size
// plus one byte), and /dev/zero ends at its first line; each error names
// the file.
func TestInputFilesBounded(t *testing.T) {
	dir := t.TempDir()
	sparse := func(name string, size int64) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(size); err != nil {
			t.Fatal(err)
		}
		f.Close()
		return p
	}
	pairs := sparse("big.pairs", maxNumberFileBytes+1)
	points := sparse("big.points", maxNumberFileBytes+1)
	links := sparse("big.offmesh", navmesh.MaxOffMeshFileBytes+1)
	good := writeLines(t, "pairs.txt", "1 0 1 2 0 2\n")
	longPairs := writeLines(t, "long.txt", "1 0 1 2 0 2\n# "+strings.Repeat("-", maxNumberLineBytes)+"\n")
	floor := writeLines(t, "floor.obj", flatOBJ)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"pairs", []string{"path", floor, "--pairs", pairs}, pairs + ": pairs file is too large: 128.0 MiB, over the 128 MiB limit"},
		{"rays", []string{"path", floor, "--rays", pairs}, pairs + ": rays file is too large"},
		{"points", []string{"bench", "--level", floor, "--points", points}, points + ": points file is too large"},
		{"offmesh", []string{"build", floor, "--offmesh", links}, links + ": off-mesh link file is too large"},
		{"path offmesh", []string{"path", floor, "--pairs", good, "--offmesh", links}, links + ": off-mesh link file is too large"},
		{"pairs /dev/zero", []string{"path", floor, "--pairs", "/dev/zero"}, "/dev/zero:1: line longer than 4096 bytes"},
		{"offmesh /dev/zero", []string{"build", floor, "--offmesh", "/dev/zero"}, "/dev/zero:1: line longer than 4096 bytes"},
		{"long pairs line", []string{"path", floor, "--pairs", longPairs}, longPairs + ":2: line longer than 4096 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCmd(t, tc.args...)
			if code != 1 || !strings.Contains(stderr, tc.want) {
				t.Errorf("code %d, stderr %q; want 1 and %q", code, stderr, tc.want)
			}
		})
	}
	// A stream (stdin) is cut one byte past the bound.
	r := &readlimit.Reader{R: strings.NewReader(strings.Repeat("1 2 3 4 5 6\n", 20)), Path: "-", What: "pairs file", LimitBytes: 100}
	_, err := parseNumberLines(r, "-", 6)
	var tl *readlimit.TooLargeError
	if !errors.As(err, &tl) {
		t.Errorf("stdin over the bound: %v, want a *readlimit.TooLargeError", err)
	}
}

// FuzzParseNumberLines: the number-line parser never panics, and what it
// accepts is whole lines of n finite numbers that read back the same when
// written out.
func FuzzParseNumberLines(f *testing.F) {
	f.Add("# c\n\n1 2 3\n4e2 -5 6\n", 3)
	f.Add("1 0 1 2 0 2\r\n", 6)
	f.Add("1 NaN\n", 2)
	f.Fuzz(func(t *testing.T, text string, n int) {
		if n < 1 || n > 8 {
			return
		}
		got, err := parseNumberLines(strings.NewReader(text), "fuzz", n)
		if err != nil {
			return
		}
		if len(got)%n != 0 {
			t.Fatalf("%d numbers, not lines of %d", len(got), n)
		}
		var b strings.Builder
		for i, x := range got {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				t.Fatalf("number %d is %v", i, x)
			}
			fmt.Fprintf(&b, "%v ", x)
			if i%n == n-1 {
				b.WriteString("\n")
			}
		}
		again, err := parseNumberLines(strings.NewReader(b.String()), "again", n)
		if err != nil || !slices.Equal(again, got) {
			t.Fatalf("written back: %v, %v; want %v", again, err, got)
		}
	})
}
