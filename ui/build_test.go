package ui

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"strings"
	"testing"
	"time"

	"github.com/ebitengine/debugui"

	"navviz/assets"
	"navviz/render"
	"navviz/ui/session"
)

// cityBuildApp returns an App on city with a finished build (stages kept).
func cityBuildApp(tb testing.TB) *session.App {
	tb.Helper()
	a := session.NewApp()
	if err := a.Load("city"); err != nil {
		tb.Fatal(err)
	}
	s := a.Settings()
	b, err := session.BuildLevel(context.Background(), a.Soup(), &s, nil)
	if err != nil {
		tb.Fatal(err)
	}
	a.SetBuild(b)
	return a
}

// BenchmarkSceneBuildSpans measures a camera move (project, cut, sort,
// batch) on city with one span overlay visible, for each scope, framed on
// the level. The "tris" metric is what the GPU draws.
func BenchmarkSceneBuildSpans(b *testing.B) {
	a := cityBuildApp(b)
	benchSceneBuild(b, a, []string{render.OverlayCompact, render.OverlayWalkable}, func(ov string) {
		for _, n := range render.SpanOverlayNames {
			a.SetOverlayVisible(n, n == ov)
		}
	})
}

// benchSceneBuild runs a sub-benchmark "overlay/scope" for each overlay of
// overlays and each span scope: show(overlay) makes it the one visible,
// then each iteration is a camera move on a. "overlay-tris" is the
// overlay's triangles, "tris" what the GPU draws.
func benchSceneBuild(b *testing.B, a *session.App, overlays []string, show func(overlay string)) {
	for _, ov := range overlays {
		for _, sc := range []session.SpanScope{session.ScopeSelected, session.ScopeNeighbours, session.ScopeAll} {
			b.Run(fmt.Sprintf("%s/%s", ov, session.SpanScopeNames[sc]), func(b *testing.B) {
				show(ov)
				a.SetScope(sc)
				a.SyncSpanOverlays()
				o := a.Scene().Overlay(ov)
				cam := a.Camera
				var v sceneView
				for i := 0; i < b.N; i++ {
					cam.YawRad += 0.01
					v.build(a.Scene(), cam, testW, testH)
				}
				b.ReportMetric(float64(len(o.Tris)/3), "overlay-tris")
				b.ReportMetric(float64(v.drawnTris), "tris")
			})
		}
	}
}

// waitBuild draws frames until the requested build has ended (at most
// 60 s).
func waitBuild(t *testing.T, g *Game) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for g.buildRequested {
		if time.Now().After(deadline) {
			t.Fatal("build did not finish in 60 s")
		}
		drawFrames(t, g, 1)
	}
	drawFrames(t, g, 1) // sync the overlays
}

// countColours counts the pixels of r within 8 per channel of any of cs.
func countColours(img *image.RGBA, r image.Rectangle, cs ...color.RGBA) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			p := img.RGBAAt(x, y)
			for _, c := range cs {
				if absDiff(p.R, c.R) <= 8 && absDiff(p.G, c.G) <= 8 && absDiff(p.B, c.B) <= 8 {
					n++
					break
				}
			}
		}
	}
	return n
}

func TestBuildPanelValidation(t *testing.T) {
	g := newTestGame(t, "city")
	drawFrames(t, g, 1)
	if g.form.shownProblem != "" {
		t.Fatalf("default settings show a problem: %q", g.form.shownProblem)
	}
	before := drawFrames(t, g, 1)

	// The user types 0 into the cell size field.
	g.form.floats["Cell size (m)"] = 0
	g.applyForm()
	after := drawFrames(t, g, 2)
	saveForInspection(t, "build-invalid", after)
	s := g.App.Settings()
	want := s.Validate()
	if want == nil || !strings.Contains(want.Error(), "NavSettings.CellSizeM = 0") {
		t.Fatalf("Validate() = %v", want)
	}
	if g.form.shownProblem != want.Error() {
		t.Errorf("panel shows %q, want the Validate error %q", g.form.shownProblem, want.Error())
	}
	// The panel's pixels changed (the error text replaced the voxel line).
	pr := buildPanelRect(testW, testH)
	diff := 0
	for y := pr.Min.Y; y < pr.Max.Y; y++ {
		for x := pr.Min.X; x < pr.Max.X; x++ {
			if before.RGBAAt(x, y) != after.RGBAAt(x, y) {
				diff++
			}
		}
	}
	if diff < 100 {
		t.Errorf("only %d panel pixels changed", diff)
	}
	// Build refuses to start.
	g.startBuild()
	if running, _, _ := g.runner.Progress(); running || g.buildRequested {
		t.Error("a build started with invalid settings")
	}

	// A volume line that does not parse is shown too, and wins.
	g.form.floats["Cell size (m)"] = 0.3
	g.form.volumes = []string{"1 0 5 0 0 1"}
	g.applyForm()
	drawFrames(t, g, 1)
	if !strings.Contains(g.form.shownProblem, "volume 1") {
		t.Errorf("panel shows %q, want the volume error", g.form.shownProblem)
	}
	g.form.volumes = nil
	g.applyForm()
	drawFrames(t, g, 1)
	if g.form.shownProblem != "" {
		t.Errorf("after fixing: %q", g.form.shownProblem)
	}
}

func TestBuildShowsOverlays(t *testing.T) {
	g := newTestGame(t, "city")
	drawFrames(t, g, 1)
	if o := g.App.Scene().Overlay(render.OverlayCompact); o == nil || o.Visible {
		t.Fatal("compact is ticked at start, with nothing to show")
	}
	g.App.SetOverlayVisible(render.OverlayCompact, true)
	r := viewRect()
	blues := []color.RGBA{assets.AreaWalkableColour, {0, 173, 230, 255}} // and the checker shade

	noBuild := drawFrames(t, g, 1)
	if n := countColours(noBuild, r, blues...); n > 100 {
		t.Fatalf("%d area-blue pixels before any build", n)
	}
	g.startBuild()
	if running, _, _ := g.runner.Progress(); !running {
		t.Fatal("build did not start")
	}
	waitBuild(t, g)
	a := g.App
	if a.Build() == nil || a.BuildErr() != "" {
		t.Fatalf("build: %v, err %q", a.Build(), a.BuildErr())
	}
	if !a.Selected().OK {
		t.Fatal("no tile selected after the build")
	}
	a.FrameSelection()
	img := drawFrames(t, g, 2)
	saveForInspection(t, "build-compact", img)
	compact := a.Scene().Overlay(render.OverlayCompact)
	if compact == nil || !compact.Visible || len(compact.Tris) == 0 {
		t.Fatal("compact overlay missing, hidden or empty after the build")
	}
	area := r.Dx() * r.Dy()
	if n := countColours(img, r, blues...); n < area/10 {
		t.Errorf("%d area-blue pixels of %d with the compact overlay", n, area)
	}
	if sel := a.Scene().Overlay(render.OverlaySelection); sel == nil || len(sel.Lines) == 0 {
		t.Error("no selection outline")
	}

	// Each stage overlay draws its own colours.
	for _, tc := range []struct {
		name string
		col  color.RGBA
	}{
		{render.OverlayWalkable, color.RGBA{70, 200, 95, 255}},
		{render.OverlayEroded, color.RGBA{255, 140, 20, 255}},
		{render.OverlaySolid, color.RGBA{214, 190, 150, 255}},
	} {
		for _, n := range render.SpanOverlayNames {
			a.SetOverlayVisible(n, n == tc.name)
		}
		img := drawFrames(t, g, 2)
		saveForInspection(t, "build-"+tc.name, img)
		o := a.Scene().Overlay(tc.name)
		if len(o.Tris) == 0 {
			t.Errorf("%s: empty", tc.name)
		}
		if n := countColours(img, r, tc.col); n < 200 {
			t.Errorf("%s: %d pixels of %v", tc.name, n, tc.col)
		}
		// The compact overlay, now hidden, gave its memory back.
		if c := a.Scene().Overlay(render.OverlayCompact); len(c.Tris) != 0 {
			t.Errorf("hidden compact overlay keeps %d vertices", len(c.Tris))
		}
	}

	// Scopes: more tiles, more triangles.
	a.SetOverlayVisible(render.OverlayCompact, true)
	counts := map[session.SpanScope]int{}
	for _, sc := range []session.SpanScope{session.ScopeSelected, session.ScopeNeighbours, session.ScopeAll} {
		a.SetScope(sc)
		drawFrames(t, g, 1)
		counts[sc] = len(a.Scene().Overlay(render.OverlayCompact).Tris)
	}
	if !(counts[session.ScopeSelected] > 0 && counts[session.ScopeSelected] < counts[session.ScopeNeighbours] && counts[session.ScopeNeighbours] < counts[session.ScopeAll]) {
		t.Errorf("compact vertices per scope: %v", counts)
	}
	if g.view.drawnTris == 0 {
		t.Error("nothing drawn")
	}
}

func TestBuildCancelledByLevelChange(t *testing.T) {
	g := newTestGame(t, "city")
	drawFrames(t, g, 1)
	g.startBuild()
	g.RequestLoad("terrain")
	drawFrames(t, g, 1)
	if running, _, _ := g.runner.Progress(); running || g.buildRequested {
		t.Error("the city build still runs after loading terrain")
	}
	time.Sleep(100 * time.Millisecond)
	drawFrames(t, g, 2)
	if g.App.Build() != nil || g.App.LevelName() != "terrain" {
		t.Fatalf("a build of the previous level was applied: %v", g.App.Build())
	}
	g.startBuild()
	waitBuild(t, g)
	if b := g.App.Build(); b == nil || b.Grid.BoundsM != g.App.Soup().Bounds() {
		t.Fatalf("terrain build: %v (err %q)", b, g.App.BuildErr())
	}
	// A still view is not rebuilt frame after frame.
	drawFrames(t, g, 2)
	gen, key := g.App.Gen(), g.view.key
	drawFrames(t, g, 3)
	if g.App.Gen() != gen || g.view.key != key {
		t.Errorf("the scene changed without input: Gen %d -> %d", gen, g.App.Gen())
	}
}

func TestPickTile(t *testing.T) {
	a := cityBuildApp(t)
	a.SetViewport(testW, testH)
	a.Camera.TopDown, a.Camera.Ortho = true, true
	a.FrameLevel()
	g := a.Build().Grid
	// The centre of the view is the centre of the level.
	tr, err := a.PickTile(testW/2, testH/2, testW, testH)
	if err != nil {
		t.Fatal(err)
	}
	if tr.X != g.TilesX/2 || tr.Z != g.TilesZ/2 || a.Selected() != tr {
		t.Errorf("picked %+v, want the middle tile (%d, %d)", tr, g.TilesX/2, g.TilesZ/2)
	}
	// Towards the top-left corner: tile (0, 0) (+x right, +z down).
	box, _ := g.TileBoxM(0, 0)
	x, y, _, ok := a.Camera.Project(box.Center(), testW, testH)
	if !ok {
		t.Fatal("tile (0, 0) not in view")
	}
	if tr, err := a.PickTile(x, y, testW, testH); err != nil || tr.X != 0 || tr.Z != 0 {
		t.Errorf("picked %+v, %v; want (0, 0)", tr, err)
	}
	// Outside the level: an error, the selection stays.
	if _, err := a.PickTile(2, 2, testW, testH); err == nil {
		t.Error("a pick outside the level succeeded")
	}
	if a.Selected().X != 0 || a.Selected().Z != 0 {
		t.Errorf("a failed pick changed the selection to %+v", a.Selected())
	}
	// A click on a roof picks the roof's tile, not the ground's under a
	// slanted ray: the ray hits the first triangle.
	a.Camera.TopDown, a.Camera.Ortho = false, false
	a.FrameLevel()
	if _, err := a.PickTile(testW/2, testH/2, testW, testH); err != nil {
		t.Error(err)
	}
	if err := a.SelectTile(99, 0); err == nil {
		t.Error("SelectTile outside the grid succeeded")
	}
}

func TestControllerClick(t *testing.T) {
	hover := debugui.InputCapturingStateHover
	var c viewController
	// Press and release in place: a click.
	c.step(frameInput{X: 400, Y: 300, Left: true})
	if in := c.step(frameInput{X: 402, Y: 301}); !in.Click || in.ClickX != 400 || in.ClickY != 300 {
		t.Errorf("click: %+v", in)
	}
	// A drag is not a click.
	c.step(frameInput{X: 400, Y: 300, Left: true})
	c.step(frameInput{X: 430, Y: 300, Left: true})
	if in := c.step(frameInput{X: 430, Y: 300}); in.Click {
		t.Error("a drag clicked")
	}
	// Over a panel, or with shift (pan), no click.
	c.step(frameInput{X: 10, Y: 10, Left: true, Captured: hover})
	if in := c.step(frameInput{X: 10, Y: 10, Captured: hover}); in.Click {
		t.Error("a click on a panel selected")
	}
	c.step(frameInput{X: 400, Y: 300, Left: true, Shift: true})
	if in := c.step(frameInput{X: 400, Y: 300}); in.Click {
		t.Error("shift+click selected")
	}
}

func TestVolumeLines(t *testing.T) {
	v, err := parseVolume("7 -1 2.5 0,0 4,0 4,4 0 4")
	if err != nil {
		t.Fatal(err)
	}
	if v.Area != 7 || v.MinYM != -1 || v.MaxYM != 2.5 || len(v.VertsXZ) != 4 || v.VertsXZ[3] != [2]float32{0, 4} {
		t.Errorf("parsed %+v", v)
	}
	if back, err := parseVolume(formatVolume(&v)); err != nil || formatVolume(&back) != formatVolume(&v) {
		t.Errorf("round trip: %q, %v", formatVolume(&back), err)
	}
	for _, bad := range []string{"", "1 0 1 0 0 1 1", "1 0 1 0 0 1 1 2", "x 0 1 0 0 1 0 1 1", "1 0 1 0 0 1 0 1 zz", "300 0 1 0 0 1 0 1 1"} {
		if _, err := parseVolume(bad); err == nil {
			t.Errorf("parseVolume(%q) accepted", bad)
		}
	}
	// A volume added in the panel is drawn at once and used by the next build.
	g := newTestGame(t, "city")
	drawFrames(t, g, 1)
	g.form.volumes = append(g.form.volumes, g.defaultVolumeLine())
	g.applyForm()
	drawFrames(t, g, 1)
	if len(g.App.Settings().Volumes) != 1 || g.settingsProblem() != "" {
		t.Fatalf("volumes %v, problem %q", g.App.Settings().Volumes, g.settingsProblem())
	}
	if o := g.App.Scene().Overlay(render.OverlayVolumes); o == nil || len(o.Tris) == 0 || len(o.Lines) == 0 {
		t.Error("volumes overlay empty")
	}
	g.startBuild()
	waitBuild(t, g)
	found := false
	for _, tb := range g.App.Build().Tiles {
		for _, ar := range tb.Spans.Areas {
			found = found || ar == 1
		}
	}
	if !found {
		t.Error("the build did not mark the volume's area 1")
	}
	g.App.FrameSelection()
	img := drawFrames(t, g, 2)
	saveForInspection(t, "build-volume", img)
	if n := countColours(img, viewRect(), assets.AreaColour(1)); n < 100 {
		t.Errorf("%d pixels of area 1's colour", n)
	}
}
