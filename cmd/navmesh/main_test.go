package main

import (
	"bytes"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"navviz/core/level"
)

// runCmd runs the command line in-process and returns the exit code and
// what it printed.
func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

func TestUsage(t *testing.T) {
	code, _, errOut := runCmd(t)
	if code != 2 || !strings.Contains(errOut, "export-level") || !strings.Contains(errOut, "shot") {
		t.Errorf("no args: code %d, stderr %q", code, errOut)
	}
	for _, future := range []string{"hashmatrix", "bench"} {
		if strings.Contains(errOut, future) {
			t.Errorf("usage lists unimplemented command %q", future)
		}
	}
	code, out, _ := runCmd(t, "-h")
	if code != 0 || !strings.Contains(out, "Commands:") {
		t.Errorf("-h: code %d, stdout %q", code, out)
	}
	code, _, errOut = runCmd(t, "frobnicate")
	if code != 2 || !strings.Contains(errOut, `unknown command "frobnicate"`) {
		t.Errorf("unknown command: code %d, stderr %q", code, errOut)
	}
	code, out, _ = runCmd(t, "shot", "-h")
	if code != 0 || !strings.Contains(out, "-overlays") {
		t.Errorf("shot -h: code %d, stdout %q", code, out)
	}
	code, _, errOut = runCmd(t, "shot", "--bogus")
	if code != 2 || !strings.Contains(errOut, "bogus") {
		t.Errorf("bad flag: code %d, stderr %q", code, errOut)
	}
}

func TestShotWritesPNG(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range [][]string{
		{"--level", "city", "--size", "320x200"},
		{"--level", "terrain", "--view", "top", "--ortho", "--size", "200x300"},
		{"--size", "160x100", "--overlays", "input"},
		{"--level", "city", "--view", "top", "--size", "160x100", "--overlays", "grid"},
	} {
		out := filepath.Join(dir, "shot.png")
		code, stdout, stderr := runCmd(t, append([]string{"shot", "-o", out}, tc...)...)
		if code != 0 {
			t.Fatalf("%v: code %d, stderr %q", tc, code, stderr)
		}
		if !strings.Contains(stdout, "wrote") {
			t.Errorf("%v: stdout %q", tc, stdout)
		}
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%v: %v", tc, err)
		}
		bg := shotBackground
		n := 0
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				r, g, bb, _ := img.At(x, y).RGBA()
				if uint8(r>>8) != bg.R || uint8(g>>8) != bg.G || uint8(bb>>8) != bg.B {
					n++
				}
			}
		}
		if n < b.Dx()*b.Dy()/20 {
			t.Errorf("%v: only %d non-background pixels in %v", tc, n, b)
		}
	}
}

func TestShotErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.png")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--size", "12x"}, 2, `invalid --size "12x"`},
		{[]string{"--size", "abc"}, 2, "WIDTHxHEIGHT"},
		{[]string{"--size", "0x10"}, 2, "1 to"},
		{[]string{"--size", "100000x10"}, 2, "1 to"},
		{[]string{"--view", "side"}, 2, `unknown --view "side"`},
		{[]string{"--overlays", "input,navmesh"}, 2, "unknown overlay navmesh: available overlays are input, grid"},
		{[]string{"--level", "atlantis"}, 1, `load level "atlantis"`},
		{[]string{"--level", filepath.Join(dir, "missing.obj")}, 1, "missing.obj"},
		{[]string{"extra"}, 2, `unexpected argument "extra"`},
	} {
		code, _, stderr := runCmd(t, append([]string{"shot", "-o", out}, tc.args...)...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: code %d, stderr %q; want code %d and %q", tc.args, code, stderr, tc.code, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: failed shot left %s behind", tc.args, out)
			os.Remove(out)
		}
	}
	code, _, stderr := runCmd(t, "shot", "--size", "10x10")
	if code != 2 || !strings.Contains(stderr, "missing -o") {
		t.Errorf("no -o: code %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCmd(t, "shot", "--size", "10x10", "-o", filepath.Join(dir, "no", "such", "dir.png"))
	if code != 1 || !strings.Contains(stderr, "create output") {
		t.Errorf("unwritable -o: code %d, stderr %q", code, stderr)
	}
}

func TestExportLevelRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want *level.Soup
	}{
		{[]string{"city"}, mustBuiltin(t, "city")},
		{[]string{"terrain"}, mustBuiltin(t, "terrain")},
		{[]string{"--seed", "7", "city"}, level.City(7)},
		{[]string{"terrain", "--seed", "3"}, level.Terrain(3)},
	} {
		out := filepath.Join(dir, "level.obj")
		code, stdout, stderr := runCmd(t, append([]string{"export-level", "-o", out}, tc.args...)...)
		if code != 0 {
			t.Fatalf("%v: code %d, stderr %q", tc.args, code, stderr)
		}
		if !strings.Contains(stdout, "triangles") {
			t.Errorf("%v: stdout %q", tc.args, stdout)
		}
		got, err := level.LoadOBJ(out)
		if err != nil {
			t.Fatalf("%v: load back: %v", tc.args, err)
		}
		if len(got.Verts) != len(tc.want.Verts) || len(got.Tris) != len(tc.want.Tris) {
			t.Errorf("%v: loaded %d verts %d tris, want %d and %d", tc.args,
				len(got.Verts), len(got.Tris), len(tc.want.Verts), len(tc.want.Tris))
		}
	}
	// To stdout.
	code, stdout, stderr := runCmd(t, "export-level", "terrain", "-o", "-")
	if code != 0 || !strings.Contains(stdout, "\nf ") || !strings.Contains(stderr, "wrote -") {
		t.Errorf("-o -: code %d, stderr %q, %d bytes on stdout", code, stderr, len(stdout))
	}
}

func mustBuiltin(t *testing.T, name string) *level.Soup {
	t.Helper()
	s, err := level.Builtin(name)
	if err != nil {
		t.Fatalf("Builtin(%q): %v", name, err)
	}
	return s
}

func TestExportLevelErrors(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x.obj")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"atlantis", "-o", out}, `unknown level "atlantis"`},
		{[]string{"city"}, "missing -o"},
		{[]string{"-o", out}, "want exactly one level name"},
		{[]string{"city", "terrain", "-o", out}, "want exactly one level name"},
		{[]string{"city", "--seed", "-3", "-o", out}, "seed"},
	} {
		code, _, stderr := runCmd(t, append([]string{"export-level"}, tc.args...)...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: code %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}

// TestNoEbitengine checks that the headless binary does not link Ebitengine.
func TestNoEbitengine(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found")
	}
	out, err := exec.Command(goBin, "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "ebiten") {
			t.Errorf("cmd/navmesh depends on %s", dep)
		}
	}
}
