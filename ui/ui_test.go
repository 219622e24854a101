package ui

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"

	"navviz/core/level/leveltest"
	"navviz/core/navmesh/detour"
	"navviz/core/pipeline"
	"navviz/render"
	"navviz/ui/session"
)

// The ui tests need a display (CI runs them under xvfb-run -a). Ebitengine
// allows one RunGame per process, so TestMain runs every test inside the
// first Update of a single game and then ends the loop.

// testRunner is the game whose first Update runs the tests.
type testRunner struct {
	m    *testing.M
	code int
	ran  bool
}

func (r *testRunner) Update() error {
	if !r.ran {
		r.ran = true
		r.code = r.m.Run()
	}
	return ebiten.Termination
}

func (r *testRunner) Draw(*ebiten.Image) {}

func (r *testRunner) Layout(w, h int) (int, int) { return w, h }

func TestMain(m *testing.M) {
	if runtime.GOOS == "linux" && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		fmt.Fprintln(os.Stderr, "ui tests need a display: run them with xvfb-run -a go test ./ui/")
		os.Exit(1)
	}
	r := &testRunner{m: m}
	ebiten.SetWindowSize(320, 200)
	ebiten.SetWindowTitle("navviz ui tests")
	if err := ebiten.RunGame(r); err != nil {
		fmt.Fprintln(os.Stderr, "ui tests: ebiten.RunGame:", err)
		os.Exit(1)
	}
	if !r.ran {
		fmt.Fprintln(os.Stderr, "ui tests: the game loop ended before the tests ran")
		os.Exit(1)
	}
	os.Exit(r.code)
}

const testW, testH = 1280, 800

// drawFrames runs n Update/Draw cycles of g onto an offscreen image and
// returns the last picture.
func drawFrames(t *testing.T, g *Game, n int) *image.RGBA {
	t.Helper()
	img := ebiten.NewImage(g.screenW, g.screenH)
	defer img.Deallocate()
	for i := 0; i < n; i++ {
		if err := g.Update(); err != nil && !errors.Is(err, ebiten.Termination) {
			t.Fatalf("Update: %v", err)
		}
		g.Draw(img)
	}
	pix := make([]byte, 4*g.screenW*g.screenH)
	img.ReadPixels(pix)
	return rgbaFromPixels(pix, g.screenW, g.screenH)
}

// saveForInspection writes img to $NAVVIZ_TEST_SHOTS/name.png when that
// variable names a directory, so a person can look at what the test drew.
func saveForInspection(t *testing.T, name string, img image.Image) {
	dir := os.Getenv("NAVVIZ_TEST_SHOTS")
	if dir == "" {
		return
	}
	if err := savePNG(filepath.Join(dir, name+".png"), img); err != nil {
		t.Logf("saving %s: %v", name, err)
	}
}

// viewRect is the 3D view's rectangle of a testW x testH window with the
// docked columns open (dock.go).
func viewRect() image.Rectangle {
	d := newDockState()
	return d.layout(testW, testH, false, false).view
}

// sectionHeaderPx is the height of a section's header row in a dock
// column (debugui's row height and spacing).
const sectionHeaderPx = 24

// buildPanelRect is where the Build section, the first of the right
// column when nothing is picked, would have its window on a wPx x hPx
// screen: the column, from one header row down (its content starts where
// the content of a window there starts).
func buildPanelRect(wPx, hPx int) image.Rectangle {
	d := newDockState()
	r := d.layout(wPx, hPx, false, false).cols[dockRight]
	r.Min.Y += sectionHeaderPx
	return r
}

// pictureStats counts, inside r, the pixels that differ from the
// background and the distinct colours.
func pictureStats(img *image.RGBA, r image.Rectangle) (nonBG, colours int) {
	seen := map[color.RGBA]bool{}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := img.RGBAAt(x, y)
			seen[c] = true
			if c != backgroundColor {
				nonBG++
			}
		}
	}
	return nonBG, len(seen)
}

func newTestGame(t *testing.T, lvl string) *Game {
	t.Helper()
	g, err := NewGame(Options{Level: lvl, Width: testW, Height: testH})
	if err != nil {
		t.Fatalf("NewGame(%q): %v", lvl, err)
	}
	return g
}

func TestBuiltinLevelsDraw(t *testing.T) {
	for _, name := range []string{"city", "terrain"} {
		t.Run(name, func(t *testing.T) {
			g := newTestGame(t, name)
			img := drawFrames(t, g, 3)
			saveForInspection(t, "builtin-"+name, img)
			if g.App.Err() != "" {
				t.Fatalf("App.Err = %q", g.App.Err())
			}
			if g.view.drawnTris == 0 {
				t.Fatal("no triangles drawn")
			}
			r := viewRect()
			nonBG, colours := pictureStats(img, r)
			area := r.Dx() * r.Dy()
			t.Logf("%s: %d primitives, %d/%d non-background pixels, %d colours",
				name, g.view.drawnTris, nonBG, area, colours)
			if nonBG < area/5 {
				t.Errorf("only %d of %d pixels differ from the background", nonBG, area)
			}
			if colours < 16 {
				t.Errorf("only %d distinct colours", colours)
			}
		})
	}
}

// TestMatchesSoftwareRasterizer draws levels in the window and with
// render.Rasterize from the same cameras: the view is the software
// rasterizer's picture (what navmesh shot and the scenario goldens make),
// pixel for pixel.
func TestMatchesSoftwareRasterizer(t *testing.T) {
	for _, tc := range []struct {
		name, level string
		setup       func(c *render.Camera)
	}{
		{"city-orbit", "city", func(c *render.Camera) {}},
		{"city-top-ortho", "city", func(c *render.Camera) { c.TopDown, c.Ortho = true, true }},
		{"city-top", "city", func(c *render.Camera) { c.TopDown = true }},
		{"city-street", "city", func(c *render.Camera) { c.Zoom(14); c.PitchRad = 0.15 }},
		{"terrain-ortho", "terrain", func(c *render.Camera) { c.Ortho = true; c.Orbit(200, -40) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newTestGame(t, tc.level)
			tc.setup(&g.App.Camera)
			win := drawFrames(t, g, 2)
			// The software picture is of the 3D view alone.
			sw := render.Rasterize(g.App.Scene(), g.App.Camera, g.w, g.h, backgroundColor)
			saveForInspection(t, "window-"+tc.name, win)
			saveForInspection(t, "sw-"+tc.name, sw)
			r := g.lay.view
			if r != viewRect() {
				t.Fatalf("view %v, want %v", r, viewRect())
			}
			diff, total := 0, 0
			for y := r.Min.Y; y < r.Max.Y; y++ {
				for x := r.Min.X; x < r.Max.X; x++ {
					total++
					if win.RGBAAt(x, y) != sw.RGBAAt(x-r.Min.X, y-r.Min.Y) {
						diff++
					}
				}
			}
			nonBG, _ := pictureStats(win, r)
			t.Logf("%d of %d view pixels differ from the software rasterizer's; %d primitives; %.0f%% non-background",
				diff, total, g.view.drawnTris, 100*float64(nonBG)/float64(total))
			if diff != 0 {
				t.Errorf("%d of %d view pixels differ from the software rasterizer's picture", diff, total)
			}
			if nonBG < total/10 {
				t.Errorf("only %d of %d view pixels are not background", nonBG, total)
			}
		})
	}
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

func TestBadLevelKeepsPrevious(t *testing.T) {
	g := newTestGame(t, "city")
	drawFrames(t, g, 1)
	soup, scene := g.App.Soup(), g.App.Scene()

	bad := filepath.Join(t.TempDir(), "bad.obj")
	if err := os.WriteFile(bad, []byte("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 zz\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g.RequestLoad(bad)
	img := drawFrames(t, g, 2)
	saveForInspection(t, "bad-level", img)

	if g.App.Err() == "" || !strings.Contains(g.App.Err(), "bad.obj") {
		t.Errorf("App.Err = %q, want an error naming bad.obj", g.App.Err())
	}
	if g.App.LevelName() != "city" || g.App.Soup() != soup || g.App.Scene() != scene {
		t.Errorf("after a failed load the level is %q (soup kept: %v, scene kept: %v), want city unchanged",
			g.App.LevelName(), g.App.Soup() == soup, g.App.Scene() == scene)
	}
	// The error is shown in red in the message bar.
	red := 0
	for y := testH - 30; y < testH; y++ {
		for x := 0; x < testW; x++ {
			c := img.RGBAAt(x, y)
			if c.R > 200 && c.G < 140 && c.B < 140 {
				red++
			}
		}
	}
	if red < 20 {
		t.Errorf("found %d red pixels in the message bar, want the error text", red)
	}
	// The view still shows the previous level.
	if nonBG, _ := pictureStats(img, viewRect()); nonBG < viewRect().Dx()*viewRect().Dy()/5 {
		t.Errorf("after a failed load the view shows %d non-background pixels", nonBG)
	}

	// A missing file and an unknown name fail the same way.
	for _, p := range []string{filepath.Join(t.TempDir(), "missing.obj"), "no-such-level"} {
		g.RequestLoad(p)
		drawFrames(t, g, 1)
		if g.App.Err() == "" || g.App.Soup() != soup {
			t.Errorf("load %q: Err = %q, soup kept = %v", p, g.App.Err(), g.App.Soup() == soup)
		}
	}

	// A good load clears the error.
	g.RequestLoad("terrain")
	drawFrames(t, g, 1)
	if g.App.Err() != "" || g.App.LevelName() != "terrain" {
		t.Errorf("after loading terrain: Err = %q, level = %q", g.App.Err(), g.App.LevelName())
	}
}

func TestScreenshot(t *testing.T) {
	g := newTestGame(t, "terrain")
	p := filepath.Join(t.TempDir(), "shot.png")
	g.shotPath = p
	drawFrames(t, g, 1)
	if g.App.Err() != "" || !strings.Contains(g.App.Status(), p) {
		t.Fatalf("Err = %q, Status = %q", g.App.Err(), g.App.Status())
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("decode %s: %v", p, err)
	}
	if b := img.Bounds(); b.Dx() != testW || b.Dy() != testH {
		t.Errorf("screenshot is %v, want %dx%d", b, testW, testH)
	}

	// An unwritable path is reported, not fatal.
	g.shotPath = filepath.Join(t.TempDir(), "no", "such", "dir", "x.png")
	drawFrames(t, g, 1)
	if g.App.Err() == "" {
		t.Error("saving to a missing directory reported no error")
	}
}

func TestFramesThenScreenshotEnds(t *testing.T) {
	p := filepath.Join(t.TempDir(), "out.png")
	g, err := NewGame(Options{Level: "city", Width: 640, Height: 400, Frames: 3, Screenshot: p})
	if err != nil {
		t.Fatal(err)
	}
	img := ebiten.NewImage(640, 400)
	defer img.Deallocate()
	ended := false
	for i := 0; i < 10 && !ended; i++ {
		switch err := g.Update(); {
		case errors.Is(err, ebiten.Termination):
			ended = true
		case err != nil:
			t.Fatal(err)
		default:
			g.Draw(img)
		}
	}
	if !ended || g.frames != 3 {
		t.Fatalf("ended = %v after %d frames, want the loop to end after 3", ended, g.frames)
	}
	if g.exitErr != nil {
		t.Fatal(g.exitErr)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatal(err)
	}
}

func TestDroppedLevel(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "drop.obj"), []byte("v 0 0 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := droppedLevel(os.DirFS(dir))
	if err != nil || p != filepath.Join(dir, "drop.obj") {
		t.Errorf("droppedLevel(dir) = %q, %v", p, err)
	}
	if p, err := droppedLevel(os.DirFS(t.TempDir())); p != "" || err != nil {
		t.Errorf("nothing dropped: got %q, %v", p, err)
	}
	if _, err := droppedLevel(fstest.MapFS{"x.obj": {Data: []byte("v 0 0 0\n")}}); err == nil {
		t.Error("a dropped file that is not on disk gave no error")
	}
	if p, err := droppedLevel(nil); p != "" || err != nil {
		t.Errorf("nil FS: got %q, %v", p, err)
	}
}

func TestControllerRespectsCapture(t *testing.T) {
	hover := debugui.InputCapturingStateHover
	focus := debugui.InputCapturingStateFocus
	var c viewController

	// A right press over a panel does not start an orbit.
	c.step(frameInput{X: 10, Y: 10, Captured: hover})
	c.step(frameInput{X: 10, Y: 10, Right: true, Captured: hover})
	if in := c.step(frameInput{X: 30, Y: 10, Right: true, Captured: hover}); in.OrbitDX != 0 || c.dragging() {
		t.Errorf("orbit started over a panel: %+v", in)
	}
	c.step(frameInput{X: 30, Y: 10})

	// A right press in the view orbits, and keeps orbiting over a panel.
	c.step(frameInput{X: 500, Y: 300, Right: true})
	if in := c.step(frameInput{X: 510, Y: 295, Right: true}); in.OrbitDX != 10 || in.OrbitDY != -5 {
		t.Errorf("orbit delta = %v,%v, want 10,-5", in.OrbitDX, in.OrbitDY)
	}
	if in := c.step(frameInput{X: 100, Y: 295, Right: true, Captured: hover}); in.OrbitDX != -410 {
		t.Errorf("orbit over a panel: %+v", in)
	}
	c.step(frameInput{X: 100, Y: 295})
	if c.dragging() {
		t.Error("drag did not end on release")
	}

	// Middle drag and shift+left drag pan; plain left does nothing.
	c.step(frameInput{X: 500, Y: 300, Middle: true})
	if in := c.step(frameInput{X: 505, Y: 300, Middle: true}); in.PanDX != 5 {
		t.Errorf("middle pan: %+v", in)
	}
	c.step(frameInput{X: 505, Y: 300})
	c.step(frameInput{X: 500, Y: 300, Left: true, Shift: true})
	if in := c.step(frameInput{X: 500, Y: 307, Left: true, Shift: true}); in.PanDY != 7 {
		t.Errorf("shift+left pan: %+v", in)
	}
	c.step(frameInput{X: 500, Y: 307})
	c.step(frameInput{X: 500, Y: 300, Left: true})
	if in := c.step(frameInput{X: 520, Y: 300, Left: true}); in != (viewIntent{}) || c.dragging() {
		t.Errorf("plain left drag moved the camera: %+v", in)
	}
	c.step(frameInput{X: 520, Y: 300})

	// Wheel: zooms in the view, not over a panel.
	if in := c.step(frameInput{WheelY: 2}); in.ZoomSteps != 2 {
		t.Errorf("wheel in view: %+v", in)
	}
	if in := c.step(frameInput{WheelY: 2, Captured: hover}); in.ZoomSteps != 0 {
		t.Errorf("wheel over panel zoomed: %+v", in)
	}

	// Keys: ignored while a text field has the focus, except F12.
	if in := c.step(frameInput{KeyFrame: true, KeyTopDown: true, Captured: focus}); in.Frame || in.ToggleTopDown {
		t.Errorf("keys acted while a widget had focus: %+v", in)
	}
	if in := c.step(frameInput{KeyFrame: true, KeyTopDown: true, KeyScreenshot: true, Captured: hover}); !in.Frame || !in.ToggleTopDown || !in.Screenshot {
		t.Errorf("keys over a panel: %+v", in)
	}
}

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		w, h int
		ok   bool
	}{
		{"1280x800", 1280, 800, true},
		{"640X480", 640, 480, true},
		{" 100x100 ", 100, 100, true},
		{"1280", 0, 0, false},
		{"x800", 0, 0, false},
		{"10x10", 0, 0, false},
		{"-5x100", 0, 0, false},
		{"100x1e9", 0, 0, false},
	} {
		w, h, err := ParseSize(tc.in)
		if (err == nil) != tc.ok || w != tc.w || h != tc.h {
			t.Errorf("ParseSize(%q) = %d, %d, %v", tc.in, w, h, err)
		}
	}
}

// BenchmarkSceneBuild measures projecting, cutting, sorting and batching
// city (what a camera move costs), framed and zoomed in.
func BenchmarkSceneBuild(b *testing.B) {
	a := session.NewApp()
	if err := a.Load("city"); err != nil {
		b.Fatal(err)
	}
	for _, zoom := range []float64{0, 8} {
		b.Run(fmt.Sprintf("zoom%g", zoom), func(b *testing.B) {
			cam := a.Camera
			cam.Zoom(zoom)
			var v sceneView
			for i := 0; i < b.N; i++ {
				cam.YawRad += 0.01 // a new view each time
				v.build(a.Scene(), cam, testW, testH)
			}
			b.ReportMetric(float64(v.drawnTris), "tris")
		})
	}
}

func TestWrapText(t *testing.T) {
	for _, tc := range []struct {
		in    string
		width int
		max   int
		want  string
	}{
		{"short", 20, 4, "[short]"},
		{"open /tmp/some/dir/bad.obj: line 4", 12, 4, "[open /tmp/ some/dir/ bad.obj: line 4]"},
		{"aaaaaaaaaaaaaaaaaaaa", 8, 4, "[aaaaaaaa aaaaaaaa aaaa]"},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 8, 2, "[aaaaaaaa aaaaaaa…]"},
		{"one\ntwo", 20, 4, "[one two]"},
		{"", 20, 4, "[]"},
	} {
		if got := fmt.Sprint(wrapText(tc.in, tc.width, tc.max)); got != tc.want {
			t.Errorf("wrapText(%q, %d, %d) = %s, want %s", tc.in, tc.width, tc.max, got, tc.want)
		}
	}
}

// TestCommandLineDetourFile: a Detour navmesh file named on the command
// line draws its mesh on every tile, as one opened from the Level panel
// does (the start-up scope no longer overrides the one the file chose).
func TestCommandLineDetourFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "dungeon.mset")
	soup := leveltest.Load(t, "dungeon")
	src, err := pipeline.NewSoupSource(soup, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := pipeline.DefaultSettings()
	b, err := pipeline.BuildLevel(context.Background(), &s, src, pipeline.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := detour.Encode(b.Mesh, detour.Options{BoundsM: b.Grid.BoundsM, TileWidthM: b.Grid.TileSizeM(), TileHeightM: b.Grid.TileSizeM()})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	g := newTestGame(t, file)
	drawFrames(t, g, 2)
	if g.App.Scope() != session.ScopeAll {
		t.Errorf("scope %v after opening a Detour file on the command line, want every tile", g.App.Scope())
	}
	if o := g.App.Scene().Overlay("polys"); o == nil || len(o.Tris) == 0 {
		t.Errorf("the polys overlay draws nothing")
	}
}
