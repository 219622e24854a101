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
	if !strings.Contains(errOut, "inspect") {
		t.Errorf("usage does not list inspect: %q", errOut)
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

// TestSubcommandHelp: every subcommand's -h prints its usage once, on
// stdout, and exits 0; a bad flag prints no usage (only the error and the
// hint on stderr) and exits 2.
func TestSubcommandHelp(t *testing.T) {
	for _, c := range commands {
		code, out, errOut := runCmd(t, c.name, "-h")
		if n := strings.Count(out, "Usage: navmesh "+c.name+" "); code != 0 || n != 1 || errOut != "" {
			t.Errorf("%s -h: code %d, usage printed %d times, stderr %q", c.name, code, n, errOut)
		}
		code, out, errOut = runCmd(t, c.name, "--bogus")
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 2 || !strings.Contains(errOut, "-bogus") {
			t.Errorf("%s --bogus: code %d, stdout %q, stderr %q", c.name, code, out, errOut)
		}
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
	if code != 1 || !strings.Contains(stderr, "-o: atomicfile: ") || !strings.Contains(stderr, "no such file or directory") {
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
		t.Fatalf("go command not found: %v (a test binary is built by it: add it to PATH)", err)
	}
	out, err := exec.Command(goBin, "list", "-deps", ".").Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("go list -deps: %v\n%s", err, stderr)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "ebiten") {
			t.Errorf("cmd/navmesh depends on %s", dep)
		}
	}
}

// countNear counts the pixels of the PNG at path within 10 per channel of c.
func countNear(t *testing.T, path string, c [3]uint8) (n, total int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	near := func(a uint32, b uint8) bool { d := int(a>>8) - int(b); return d >= -10 && d <= 10 }
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bb, _ := img.At(x, y).RGBA()
			if near(r, c[0]) && near(g, c[1]) && near(bb, c[2]) {
				n++
			}
		}
	}
	return n, b.Dx() * b.Dy()
}

func TestShotSpanOverlays(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		col  [3]uint8 // a colour the overlay must show
		frac int      // at least 1/frac of the pixels
	}{
		// The compact spans of the bridge tile, in the default area's blue.
		{[]string{"--overlays", "input,compact", "--tile", "5,8"}, [3]uint8{0, 192, 255}, 20},
		// Walkable tops in green, the whole level from above.
		{[]string{"--overlays", "walkable", "--view", "top", "--ortho"}, [3]uint8{70, 200, 95}, 10},
		// Eroded spans in orange.
		{[]string{"--overlays", "eroded", "--tile", "3,3"}, [3]uint8{255, 140, 20}, 100},
		// Solid boxes, sand coloured tops.
		{[]string{"--overlays", "grid,solid", "--tile", "0,0", "--view", "top"}, [3]uint8{214, 190, 150}, 20},
	} {
		out := filepath.Join(dir, "spans.png")
		code, stdout, stderr := runCmd(t, append([]string{"shot", "--level", "city", "--size", "320x200", "-o", out}, tc.args...)...)
		if code != 0 {
			t.Fatalf("%v: code %d, stderr %q", tc.args, code, stderr)
		}
		if !strings.Contains(stdout, "built 121 tiles") {
			t.Errorf("%v: stdout %q", tc.args, stdout)
		}
		if n, total := countNear(t, out, tc.col); n < total/tc.frac {
			t.Errorf("%v: %d of %d pixels near %v", tc.args, n, total, tc.col)
		}
	}
	// Input and grid only: no build.
	out := filepath.Join(dir, "plain.png")
	if code, stdout, _ := runCmd(t, "shot", "--size", "64x64", "--overlays", "input", "-o", out); code != 0 || strings.Contains(stdout, "built") {
		t.Errorf("plain shot: code %d, stdout %q", code, stdout)
	}
	// --tile alone frames the tile (and builds nothing but the grid).
	if code, stdout, stderr := runCmd(t, "shot", "--size", "64x64", "--tile", "1,2", "-o", out); code != 0 || strings.Contains(stdout, "built") {
		t.Errorf("--tile alone: code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// The same shot twice gives the same bytes.
	a, b := filepath.Join(dir, "a.png"), filepath.Join(dir, "b.png")
	for _, p := range []string{a, b} {
		if code, _, stderr := runCmd(t, "shot", "--size", "160x100", "--overlays", "input,walkable,eroded", "--tile", "5,8", "-o", p); code != 0 {
			t.Fatal(stderr)
		}
	}
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if !bytes.Equal(da, db) {
		t.Error("two identical span shots differ")
	}
}

func TestShotSpanErrors(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x.png")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--overlays", "compact,region"}, 2, "unknown overlay region: available overlays are input, grid, solid, walkable, compact, eroded, volumes, regions, contours-raw, contours, polys, detail, tiles, layers, portals"},
		{[]string{"--overlays", "bogus,bogus"}, 2, "unknown overlay bogus: available"},
		{[]string{"--tile", "3"}, 2, `invalid --tile "3"`},
		{[]string{"--tile", "a,b"}, 2, `invalid --tile "a,b"`},
		{[]string{"--tile", "-1,2"}, 2, `invalid --tile "-1,2"`},
		{[]string{"--tile", "11,0", "--overlays", "compact"}, 2, "tile (11, 0) outside the 11 x 11 tiles"},
	} {
		code, _, stderr := runCmd(t, append([]string{"shot", "--size", "32x32", "-o", out}, tc.args...)...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: code %d, stderr %q; want code %d and %q", tc.args, code, stderr, tc.code, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: failed shot left %s behind", tc.args, out)
			os.Remove(out)
		}
	}
}
