package scenario

import (
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testPicture returns a w x h picture with a gradient.
func testPicture(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetRGBA(x, y, color.RGBA{uint8(3 * x), uint8(5 * y), uint8(x + y), 255})
		}
	}
	return img
}

// changeBlock returns a copy of img with the block r shifted by delta on
// the green channel.
func changeBlock(img *image.RGBA, r image.Rectangle, delta int) *image.RGBA {
	out := image.NewRGBA(img.Bounds())
	copy(out.Pix, img.Pix)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			i := out.PixOffset(x, y)
			out.Pix[i+1] = uint8(int(out.Pix[i+1]) + delta)
		}
	}
	return out
}

func TestCompare(t *testing.T) {
	base := testPicture(80, 60)
	block := image.Rect(30, 17, 50, 37) // 20 x 20
	cases := []struct {
		name      string
		got       *image.RGBA
		differing int
		box       image.Rectangle
		fails     bool
	}{
		{"same", base, 0, image.Rectangle{}, false},
		{"block at the threshold", changeBlock(base, block, DefaultThreshold), 0, image.Rectangle{}, false},
		{"block past the threshold", changeBlock(base, block, DefaultThreshold+1), 400, block, true},
		{"one pixel", changeBlock(base, image.Rect(79, 59, 80, 60), 100), 1, image.Rect(79, 59, 80, 60), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := Compare(c.got, base, DefaultThreshold)
			if err != nil {
				t.Fatal(err)
			}
			if d.Differing != c.differing || d.Box != c.box || d.Total != 80*60 {
				t.Errorf("Compare = %+v, want %d differing in %v", d, c.differing, c.box)
			}
			if got := d.Fails(DefaultTolerancePct); got != c.fails {
				t.Errorf("Fails = %v at %.3f%%, want %v", got, d.Percent(), c.fails)
			}
		})
	}
	if _, err := Compare(testPicture(80, 61), base, 8); err == nil || !strings.Contains(err.Error(), "80x61") || !strings.Contains(err.Error(), "80x60") {
		t.Errorf("different sizes: err = %v, want both sizes", err)
	}
}

func TestDiffImage(t *testing.T) {
	base := testPicture(40, 30)
	block := image.Rect(5, 5, 25, 25)
	d := DiffImage(changeBlock(base, block, 50), base, DefaultThreshold)
	for y := 0; y < 30; y++ {
		for x := 0; x < 40; x++ {
			c := d.NRGBAAt(x, y)
			in := image.Pt(x, y).In(block)
			if in && c != DiffColour {
				t.Fatalf("pixel (%d,%d) in the block is %v, want %v", x, y, c, DiffColour)
			}
			if !in && (c.R != c.G || c.G != c.B || c.R > 128) {
				t.Fatalf("pixel (%d,%d) outside the block is %v, want dimmed grey", x, y, c)
			}
		}
	}
}

func TestCompareGoldens(t *testing.T) {
	dir := t.TempDir()
	goldens, out := filepath.Join(dir, "golden"), filepath.Join(dir, "out")
	base := testPicture(64, 48)
	shots := []Shot{{Name: "a", Image: base}, {Name: "b", Image: base}}
	if err := UpdateGoldens(shots, goldens); err != nil {
		t.Fatal(err)
	}
	changed := []Shot{{Name: "a", Image: changeBlock(base, image.Rect(10, 5, 30, 25), 40)}, {Name: "b", Image: base}, {Name: "c", Image: base}}
	cmps, err := CompareGoldens(changed, goldens, out, DefaultThreshold, DefaultTolerancePct)
	if err != nil {
		t.Fatal(err)
	}
	if len(cmps) != 3 {
		t.Fatalf("%d comparisons, want 3", len(cmps))
	}
	a, b, c := cmps[0], cmps[1], cmps[2]
	if !a.Failed || a.Box != "10,5-29,24" || a.Diff.Differing != 400 {
		t.Errorf("changed shot: %+v, want failed with box 10,5-29,24", a)
	}
	if !strings.Contains(a.Line(), "FAIL a") || !strings.Contains(a.Line(), "10,5-29,24") {
		t.Errorf("line %q", a.Line())
	}
	if _, err := os.Stat(filepath.Join(out, "a.diff.png")); err != nil {
		t.Errorf("no difference picture: %v", err)
	}
	// The golden's copy beside it, the golden's pixels.
	if a.GoldenCopy != filepath.Join(out, "a.golden.png") {
		t.Errorf("GoldenCopy = %q, want out/a.golden.png", a.GoldenCopy)
	}
	if cp, err := ReadPNG(filepath.Join(out, "a.golden.png")); err != nil {
		t.Errorf("no golden copy: %v", err)
	} else if d, err := Compare(cp, base, 0); err != nil || d.Differing != 0 {
		t.Errorf("the golden copy differs from the golden: %+v, %v", d, err)
	}
	if b.Failed {
		t.Errorf("unchanged shot failed: %+v", b)
	}
	if !c.Failed || !strings.Contains(c.Problem, "missing golden") || !strings.Contains(c.Problem, "c.png") {
		t.Errorf("shot without golden: %+v", c)
	}
	// Fixed: the difference picture goes away.
	if _, err := CompareGoldens(shots[:1], goldens, out, DefaultThreshold, DefaultTolerancePct); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"a.diff.png", "a.golden.png"} {
		if _, err := os.Stat(filepath.Join(out, f)); !os.IsNotExist(err) {
			t.Errorf("the old %s stays: %v", f, err)
		}
	}
	// A golden of another size fails naming both sizes.
	if err := UpdateGoldens([]Shot{{Name: "a", Image: testPicture(10, 10)}}, goldens); err != nil {
		t.Fatal(err)
	}
	cmps, err = CompareGoldens(shots[:1], goldens, out, DefaultThreshold, DefaultTolerancePct)
	if err != nil {
		t.Fatal(err)
	}
	if !cmps[0].Failed || !strings.Contains(cmps[0].Problem, "64x48") || !strings.Contains(cmps[0].Problem, "10x10") {
		t.Errorf("other size: %+v", cmps[0])
	}
	// No temporary files are left behind.
	for _, d := range []string{goldens, out} {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			if strings.Contains(e.Name(), ".tmp-") {
				t.Errorf("temporary file %s left in %s", e.Name(), d)
			}
		}
	}
}
