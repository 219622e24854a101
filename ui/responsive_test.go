package ui

import (
	"image"
	"strings"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"navviz/render"
	"navviz/ui/session"
)

// inputWhileBusy sends a wheel step, the F key and a left click (press,
// then release), one Update each, and checks that each took effect: the
// wheel zooms in, F frames the level, the click selects the tile under
// it. busy is asked before each of those Updates; it returns false when
// busy was false before one of them (the work ended too early to prove
// anything), true when all three events ran while busy.
func inputWhileBusy(t *testing.T, g *Game, at image.Point, busy func() bool) bool {
	t.Helper()
	a := g.App
	step := func(in frameInput) bool {
		if !busy() {
			return false
		}
		g.injected = append(g.injected, in)
		if err := g.Update(); err != nil {
			t.Fatalf("Update: %v", err)
		}
		return true
	}
	a.ClearTile()
	dist := a.Camera.DistanceM
	if !step(frameInput{X: at.X, Y: at.Y, WheelY: 1}) {
		return false
	}
	if !(a.Camera.DistanceM < dist) {
		t.Errorf("wheel step lost: distance %g, was %g", a.Camera.DistanceM, dist)
	}
	// What F must give: the level framed from the zoomed-in camera.
	zoomed := a.Camera
	a.FrameLevel()
	framed := a.Camera
	a.Camera = zoomed
	if framed == zoomed {
		t.Fatal("framing the zoomed-in camera changes nothing: the test cannot see F")
	}
	if !step(frameInput{X: at.X, Y: at.Y, KeyFrame: true}) {
		return false
	}
	if a.Camera != framed {
		t.Errorf("F lost: camera %+v, want the framed %+v", a.Camera, framed)
	}
	if !step(frameInput{X: at.X, Y: at.Y, Left: true}) || !step(frameInput{X: at.X, Y: at.Y}) {
		return false
	}
	if !a.Selected().OK {
		t.Errorf("click lost: no tile selected (status %q, err %q)", a.Status(), a.Err())
	}
	return true
}

// TestInputWhileBusy: a click, a key and a wheel step sent while a scene
// projection runs in the background, and while the tile cache builds,
// all take effect in the Update that reads them.
func TestInputWhileBusy(t *testing.T) {
	g, err := NewGame(Options{Level: "city", Width: testW, Height: testH, AutoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	g.scene.sync = false // the real app's background projection
	at := image.Pt(testW/2, testH/2)

	// While the tile cache builds (the first run's automatic build).
	if err := g.Update(); err != nil {
		t.Fatal(err)
	}
	cacheBusy := func() bool { running, _, _ := g.cache.runner.Progress(); return running }
	if !inputWhileBusy(t, g, at, cacheBusy) {
		t.Fatal("the cache build ended before the input was sent")
	}

	deadline := time.Now().Add(90 * time.Second)
	for g.autoCachePending() {
		if time.Now().After(deadline) {
			t.Fatal("the automatic cache build did not finish in 90 s")
		}
		drawFrames(t, g, 1)
	}
	if o := g.App.Scene().Overlay(render.OverlayCachePolys); o == nil || len(o.Tris) == 0 {
		t.Fatal("no cache-polys after the cache build")
	}

	// While the view of a new camera is being projected: a camera move
	// starts the job, the input follows before it ends.
	sceneRuns := 0
	for try := 0; try < 20 && sceneRuns == 0; try++ {
		g.waitScene()
		g.App.Camera.YawRad += 0.05
		if err := g.Update(); err != nil {
			t.Fatal(err)
		}
		if inputWhileBusy(t, g, at, g.sceneBusy) {
			sceneRuns++
		}
	}
	if sceneRuns == 0 {
		t.Fatal("every projection ended before the input was sent")
	}
	// The view catches up with the last camera.
	g.waitScene()
	if !g.view.current(g.wantKey()) {
		t.Error("the view does not show the current camera after the job")
	}
	if !strings.HasPrefix(g.App.Status(), "selected tile") && !strings.HasPrefix(g.App.Status(), "picked") {
		t.Errorf("status %q after the click", g.App.Status())
	}
}

// TestRedrawOnlyWhenChanged: a still window draws nothing; input, a new
// view and a state change each draw again (for settleFrames frames).
func TestRedrawOnlyWhenChanged(t *testing.T) {
	var r redrawState
	img := ebiten.NewImage(4, 4)
	if !r.due(img) {
		t.Fatal("first frame not drawn")
	}
	for range settleFrames {
		r.due(img)
	}
	for i := range 5 {
		r.observe(uiSignature{})
		if r.due(img) {
			t.Fatalf("still frame %d drawn (reason %v)", i, r.lastReason)
		}
	}
	for _, tc := range []struct {
		name string
		sig  uiSignature
		want redrawReason
	}{
		{"pointer moved", uiSignature{in: uiInput{x: 3}}, reasonInput},
		{"wheel", uiSignature{in: uiInput{x: 3, wheel: 1}}, reasonInput},
		{"key held", uiSignature{in: uiInput{x: 3, keys: "F,"}}, reasonInput},
		{"scene changed", uiSignature{in: uiInput{x: 3, keys: "F,"}, st: uiState{gen: 1}}, reasonState},
		{"status", uiSignature{in: uiInput{x: 3, keys: "F,"}, st: uiState{gen: 1, status: "loaded"}}, reasonState},
		{"build progress", uiSignature{in: uiInput{x: 3, keys: "F,"}, st: uiState{gen: 1, status: "loaded", progress: [3]int{1, 2, 9}}}, reasonState},
		{"cache queue", uiSignature{in: uiInput{x: 3, keys: "F,"}, st: uiState{gen: 1, status: "loaded", progress: [3]int{1, 2, 9}, cacheWork: [2]int{4, 1}}}, reasonState},
	} {
		r.observe(tc.sig)
		if !r.due(img) || r.lastReason&tc.want == 0 {
			t.Errorf("%s: drawn with reason %v, want %v", tc.name, r.lastReason, tc.want)
		}
		still := tc.sig
		still.in.wheel = 0 // a wheel step lasts one tick
		for range settleFrames {
			r.observe(still)
			r.due(img)
		}
		r.observe(still)
		if r.due(img) {
			t.Errorf("%s: still drawn after settling", tc.name)
		}
	}
	r.mark(reasonView)
	if !r.due(img) || r.lastReason != reasonView {
		t.Errorf("new view: reason %v", r.lastReason)
	}
	if other := ebiten.NewImage(4, 4); !r.due(other) || r.lastReason&reasonTarget == 0 {
		t.Errorf("another screen image: reason %v", r.lastReason)
	}
}

// TestInputWhileOverlaysBuild: a click, a key and a wheel step sent while
// the stage overlays are rebuilt in the background (the scope changed to
// every tile) all take effect, and the overlays arrive afterwards.
func TestInputWhileOverlaysBuild(t *testing.T) {
	overlays := []string{render.OverlayInput, render.OverlaySolid, render.OverlayWalkable, render.OverlayRegions}
	g, err := NewGame(Options{Level: "city", Width: testW, Height: testH, Build: true, Overlays: overlays, Scope: "selected"})
	if err != nil {
		t.Fatal(err)
	}
	if g.App.StageJobsEnabled() {
		t.Fatal("tests build stage overlays at once unless they ask")
	}
	g.scene.sync = false
	g.App.EnableStageJobs()
	waitBuild(t, g)
	for g.App.StagePending() {
		drawFrames(t, g, 1)
	}
	at := image.Pt(testW/2, testH/2)
	runs := 0
	for try := 0; try < 10 && runs == 0; try++ {
		// Alternate the scope so that every try rebuilds the overlays.
		scope := session.ScopeAll
		if try%2 == 1 {
			scope = session.ScopeNeighbours
		}
		g.App.SetScope(scope)
		if err := g.Update(); err != nil {
			t.Fatal(err)
		}
		if inputWhileBusy(t, g, at, g.App.StageBusy) {
			runs++
		}
		for g.App.StagePending() {
			drawFrames(t, g, 1)
		}
	}
	if runs == 0 {
		t.Fatal("every overlay rebuild ended before the input was sent")
	}
	if o := g.App.Scene().Overlay(render.OverlayWalkable); o == nil || len(o.Tris) == 0 {
		t.Fatal("walkable has nothing after its background rebuild")
	}
}

// TestInputOfOneSlowTick: a click, F and a wheel step that arrive in the
// same tick (a slow frame gathers them; Ebitengine reports a press and
// release between two ticks as a press) all take effect, even with a
// right-button orbit starting in that tick and the pointer moving on
// before the release is seen: the camera is framed, then zoomed, and the
// click selects.
func TestInputOfOneSlowTick(t *testing.T) {
	g, err := NewGame(Options{Level: "city", Width: testW, Height: testH})
	if err != nil {
		t.Fatal(err)
	}
	a := g.App
	a.Camera.YawRad += 0.5
	zoomedFrame := a.Camera
	at := image.Pt(testW/2, testH/2)
	a.FrameLevel()
	// The wheel zooms towards the cursor (in the view's coordinates).
	a.ZoomAt(1, float64(at.X-g.lay.view.Min.X), float64(at.Y-g.lay.view.Min.Y), g.w, g.h)
	zoomedFrame, a.Camera = a.Camera, zoomedFrame
	g.injected = []frameInput{
		{X: at.X, Y: at.Y, Left: true, Right: true, KeyFrame: true, WheelY: 1},
		// The release is seen a tick later, after the pointer moved on.
		{X: at.X, Y: at.Y - 100},
	}
	drawFrames(t, g, 2)
	if a.Camera != zoomedFrame {
		t.Errorf("camera %+v, want framed then zoomed %+v", a.Camera, zoomedFrame)
	}
	if !a.Selected().OK {
		t.Errorf("click lost: status %q", a.Status())
	}
}
