package render

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"navviz/core/level"
	"navviz/internal/cputime"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

// Golden-image tolerance: a pixel differs when one of its channels differs
// by more than goldenChannelTol; at most goldenMaxDiffFrac of the pixels may
// differ.
const (
	goldenChannelTol  = 8
	goldenMaxDiffFrac = 0.005
	goldenW, goldenH  = 640, 400
)

var goldenBG = color.RGBA{30, 32, 40, 255}

// goldenCameras are the fixed cameras of the golden images: the default
// perspective orbit view and an orthographic top-down view, both framed on
// the level.
func goldenCameras(s *level.Soup) map[string]Camera {
	orbit := DefaultCamera()
	orbit.FrameAspect(s.Bounds(), float64(goldenW)/goldenH)
	top := DefaultCamera()
	top.TopDown, top.Ortho = true, true
	top.FrameAspect(s.Bounds(), float64(goldenW)/goldenH)
	return map[string]Camera{"city_orbit": orbit, "city_top": top}
}

func builtinCity(tb testing.TB) *level.Soup {
	tb.Helper()
	s, err := level.Builtin("city")
	if err != nil {
		tb.Fatalf("level.Builtin(city): %v", err)
	}
	return s
}

func TestGoldenCity(t *testing.T) {
	soup := builtinCity(t)
	scene := LevelScene(soup)
	for _, name := range []string{"city_orbit", "city_top"} {
		t.Run(name, func(t *testing.T) {
			cam := goldenCameras(soup)[name]
			got := Rasterize(scene, cam, goldenW, goldenH, goldenBG)
			path := filepath.Join("testdata", name+".png")
			if *update {
				if err := writePNG(path, got); err != nil {
					t.Fatal(err)
				}
				t.Logf("wrote %s", path)
				return
			}
			want, err := readPNG(path)
			if err != nil {
				t.Fatalf("%v (run `go test ./render -run Golden -update` to create it)", err)
			}
			if msg := compareImages(got, want); msg != "" {
				dir, derr := os.MkdirTemp("", "navviz-golden-")
				if derr != nil {
					t.Fatalf("%s: %s (and cannot save the images: %v)", path, msg, derr)
				}
				gotPath := filepath.Join(dir, name+"_got.png")
				diffPath := filepath.Join(dir, name+"_diff.png")
				_ = writePNG(gotPath, got)
				_ = writePNG(diffPath, diffImage(got, want))
				t.Fatalf("%s: %s\n  actual: %s\n  diff:   %s\n  (run `go test ./render -run Golden -update` if the change is intended)",
					path, msg, gotPath, diffPath)
			}
		})
	}
}

// compareImages returns "" when got matches want within the golden
// tolerance, otherwise a description of the difference.
func compareImages(got *image.RGBA, want image.Image) string {
	if got.Bounds() != want.Bounds() {
		return fmt.Sprintf("size %v, golden %v", got.Bounds(), want.Bounds())
	}
	b := got.Bounds()
	n, worst := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if d := pixelDiff(got.RGBAAt(x, y), want.At(x, y)); d > goldenChannelTol {
				n++
				worst = max(worst, d)
			}
		}
	}
	total := b.Dx() * b.Dy()
	if float64(n) > goldenMaxDiffFrac*float64(total) {
		return fmt.Sprintf("%d of %d pixels (%.3f%%) differ by more than %d (worst %d); allowed %.2f%%",
			n, total, 100*float64(n)/float64(total), goldenChannelTol, worst, 100*goldenMaxDiffFrac)
	}
	return ""
}

func pixelDiff(a color.RGBA, bc color.Color) int {
	b := color.RGBAModel.Convert(bc).(color.RGBA)
	d := 0
	for _, p := range [][2]uint8{{a.R, b.R}, {a.G, b.G}, {a.B, b.B}, {a.A, b.A}} {
		d = max(d, absInt(int(p[0])-int(p[1])))
	}
	return d
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// diffImage shows the differing pixels in red over a dimmed copy of got.
func diffImage(got *image.RGBA, want image.Image) *image.RGBA {
	b := got.Bounds()
	out := image.NewRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			g := got.RGBAAt(x, y)
			if pixelDiff(g, want.At(x, y)) > goldenChannelTol {
				out.SetRGBA(x, y, color.RGBA{255, 0, 0, 255})
			} else {
				l := uint8((int(g.R) + int(g.G) + int(g.B)) / 6)
				out.SetRGBA(x, y, color.RGBA{l, l, l, 255})
			}
		}
	}
	return out
}

func writePNG(path string, img image.Image) error {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

func readPNG(path string) (image.Image, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read golden: %w", err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("decode golden %s: %w", path, err)
	}
	return img, nil
}

func TestCompareImagesTolerance(t *testing.T) {
	a := image.NewRGBA(image.Rect(0, 0, 100, 100))
	b := image.NewRGBA(image.Rect(0, 0, 100, 100))
	for i := 0; i < 50; i++ { // 0.5%: allowed
		a.Pix[4*i] = 200
	}
	b.Pix[4*60] = 8 // within the channel tolerance
	if msg := compareImages(a, b); msg != "" {
		t.Errorf("within tolerance: %s", msg)
	}
	a.Pix[4*70] = 9
	if msg := compareImages(a, b); msg == "" {
		t.Errorf("51 differing pixels accepted")
	}
	if msg := compareImages(a, image.NewRGBA(image.Rect(0, 0, 10, 10))); msg == "" {
		t.Errorf("size mismatch accepted")
	}
}

func BenchmarkRasterizeCity(b *testing.B) {
	soup := builtinCity(b)
	scene := LevelScene(soup)
	cam := DefaultCamera()
	cam.FrameAspect(soup.Bounds(), 1280.0/800)
	b.ReportAllocs()
	for b.Loop() {
		Rasterize(scene, cam, 1280, 800, goldenBG)
	}
}

func BenchmarkRasterizeCityTop(b *testing.B) {
	soup := builtinCity(b)
	scene := LevelScene(soup)
	cam := DefaultCamera()
	cam.TopDown = true
	cam.FrameAspect(soup.Bounds(), 1280.0/800)
	for b.Loop() {
		Rasterize(scene, cam, 1280, 800, goldenBG)
	}
}

func BenchmarkProjectTrisCity(b *testing.B) {
	soup := builtinCity(b)
	o := InputOverlay(soup)
	cam := DefaultCamera()
	cam.FrameAspect(soup.Bounds(), 1280.0/800)
	var dst []ScreenVertex
	for b.Loop() {
		dst = cam.ProjectTris(o.Tris, 1280, 800, dst[:0])
	}
}

// BenchmarkRasterizerCityView draws city into a reused Rasterizer at the
// size of navviz's 3D view (658x756 at 1280x800) and at the half size it
// uses while the camera moves, a new view each time.
func BenchmarkRasterizerCityView(b *testing.B) {
	soup := builtinCity(b)
	scene := LevelScene(soup)
	for _, sz := range [][2]int{{658, 756}, {329, 378}} {
		b.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(b *testing.B) {
			cam := DefaultCamera()
			cam.FrameAspect(soup.Bounds(), float64(sz[0])/float64(sz[1]))
			var r Rasterizer
			b.ReportAllocs()
			c0, ok := cputime.Process()
			for b.Loop() {
				cam.YawRad += 0.01
				r.Draw(scene, cam, sz[0], sz[1], goldenBG)
			}
			if c1, ok1 := cputime.Process(); ok && ok1 {
				b.ReportMetric(float64(c1-c0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
			}
		})
	}
}
