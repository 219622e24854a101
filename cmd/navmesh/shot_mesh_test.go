package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestShotMeshOverlays(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		col  [3]uint8 // a colour the overlay must show
		frac int      // at least 1/frac of the pixels
		note string   // in the report
	}{
		// The polygons of the bridge tile, in the default area's blue
		// blended over the background (assets.PolyFillAlpha, 150).
		{[]string{"--overlays", "polys", "--tile", "5,8", "--view", "top"}, [3]uint8{12, 126, 166}, 8, "watershed partition"},
		// The tiles overlay from above: tile (0, 0)'s colour.
		{[]string{"--overlays", "tiles", "--view", "top", "--ortho"}, [3]uint8{0, 0, 0}, 0, "121 navmesh tiles"},
		// Regions of the bridge tile with the monotone partition.
		{[]string{"--overlays", "input,regions", "--tile", "5,8", "--partition", "monotone"}, [3]uint8{0, 0, 0}, 0, "monotone partition"},
		// Layers with the layer partition: built layer by layer.
		{[]string{"--overlays", "input,layers", "--tile", "5,8", "--partition", "layers"}, [3]uint8{0, 0, 0}, 0, "up to 3 layers"},
		{[]string{"--overlays", "contours-raw,contours,detail,portals", "--tile", "5,8", "--detail-sample-dist", "0"}, [3]uint8{0, 0, 0}, 0, "polygons in 121 navmesh tiles"},
	} {
		out := filepath.Join(dir, "mesh.png")
		code, stdout, stderr := runCmd(t, append([]string{"shot", "--level", "city", "--size", "320x200", "-o", out}, tc.args...)...)
		if code != 0 {
			t.Fatalf("%v: code %d, stderr %q", tc.args, code, stderr)
		}
		if !strings.Contains(stdout, "built 121 tiles") || !strings.Contains(stdout, tc.note) {
			t.Errorf("%v: stdout %q, want %q", tc.args, stdout, tc.note)
		}
		if tc.frac > 0 {
			if n, total := countNear(t, out, tc.col); n < total/tc.frac {
				t.Errorf("%v: %d of %d pixels near %v", tc.args, n, total, tc.col)
			}
		}
		// Not the background alone.
		if n, total := countNear(t, out, [3]uint8{shotBackground.R, shotBackground.G, shotBackground.B}); n > total*9/10 {
			t.Errorf("%v: %d of %d pixels are background", tc.args, n, total)
		}
	}
	// Each overlay draws something different from the level alone.
	plain := filepath.Join(dir, "plain.png")
	if code, _, stderr := runCmd(t, "shot", "--level", "city", "--size", "160x100", "--overlays", "input", "--tile", "5,8", "-o", plain); code != 0 {
		t.Fatal(stderr)
	}
	pb, _ := os.ReadFile(plain)
	for _, name := range []string{"regions", "contours-raw", "contours", "polys", "detail", "tiles", "layers", "portals"} {
		p := filepath.Join(dir, name+".png")
		if code, _, stderr := runCmd(t, "shot", "--level", "city", "--size", "160x100", "--overlays", "input,"+name, "--tile", "5,8", "-o", p); code != 0 {
			t.Fatalf("%s: %s", name, stderr)
		}
		b, _ := os.ReadFile(p)
		if bytes.Equal(b, pb) {
			t.Errorf("%s draws nothing on tile (5, 8)", name)
		}
	}
}

func TestShotMeshErrors(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x.png")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--partition", "voronoi"}, `invalid --partition "voronoi"`},
		{[]string{"--detail-sample-dist", "x"}, `invalid --detail-sample-dist "x"`},
		{[]string{"--detail-sample-dist", "-1"}, `invalid --detail-sample-dist "-1"`},
	} {
		code, _, stderr := runCmd(t, append([]string{"shot", "--size", "32x32", "-o", out}, tc.args...)...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: code %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: failed shot left %s behind", tc.args, out)
			os.Remove(out)
		}
	}
}
