package ui

import (
	"image"
	"math"
	"testing"

	"navviz/core/geom"
	"navviz/ui/session"
)

// TestDockLayout: on every screen size and dock state the view is a
// non-empty rectangle on the screen that no column, grip or status strip
// overlaps; open columns are full height at the edges; the view keeps
// minViewPx when the screen has room; hideUI gives it the whole screen.
func TestDockLayout(t *testing.T) {
	for _, tc := range []struct {
		name          string
		w, h          int
		left, right   bool
		hide, oneCol  bool
		wantViewW     int // 0: do not check
		wantViewWFrom int // at least
	}{
		{name: "1280x800", w: 1280, h: 800, left: true, right: true, wantViewW: 1280 - dockLeftDefaultPx - dockRightDefaultPx - 2*dockGripPx},
		{name: "left folded", w: 1280, h: 800, right: true, wantViewW: 1280 - dockStripPx - dockRightDefaultPx - dockGripPx},
		{name: "both folded", w: 1280, h: 800, wantViewW: 1280 - 2*dockStripPx},
		{name: "scenario", w: 1280, h: 800, left: true, right: true, oneCol: true, wantViewW: 1280 - dockLeftDefaultPx - dockGripPx},
		{name: "hide-ui", w: 1280, h: 800, left: true, right: true, hide: true, wantViewW: 1280},
		{name: "640x480", w: 640, h: 480, left: true, right: true, wantViewWFrom: minViewPx},
		{name: "480x300", w: 480, h: 300, left: true, right: true, wantViewWFrom: minViewPx},
		{name: "320x200", w: 320, h: 200, left: true, right: true, wantViewWFrom: minViewPx},
		{name: "100x50", w: 100, h: 50, left: true, right: true},
		{name: "1920x1080", w: 1920, h: 1080, left: true, right: true, wantViewW: 1920 - dockLeftDefaultPx*3/2 - dockRightDefaultPx*3/2 - 2*dockGripPx},
		{name: "2560x1440", w: 2560, h: 1440, left: true, right: true, wantViewW: 2560 - 2*dockLeftDefaultPx - 2*dockRightDefaultPx - 2*dockGripPx},
	} {
		d := newDockState()
		d.cols[dockLeft].open, d.cols[dockRight].open = tc.left, tc.right
		l := d.layout(tc.w, tc.h, tc.hide, tc.oneCol)
		screen := image.Rect(0, 0, tc.w, tc.h)
		if l.view.Empty() || !l.view.In(screen) {
			t.Errorf("%s: view %v not a part of the screen %v", tc.name, l.view, screen)
		}
		others := []image.Rectangle{l.cols[0], l.cols[1], l.grips[0], l.grips[1], l.status, l.toolbar}
		for i, r := range others {
			if r.Empty() {
				continue
			}
			if !r.In(screen) {
				t.Errorf("%s: part %d %v off the screen", tc.name, i, r)
			}
			if r.Overlaps(l.view) {
				t.Errorf("%s: part %d %v covers the view %v", tc.name, i, r, l.view)
			}
		}
		if !l.cols[dockLeft].Empty() && (l.cols[dockLeft].Min != image.Pt(0, 0) || l.cols[dockLeft].Max.Y != tc.h) {
			t.Errorf("%s: left column %v", tc.name, l.cols[dockLeft])
		}
		if !l.cols[dockRight].Empty() && (l.cols[dockRight].Max != image.Pt(tc.w, tc.h) || l.cols[dockRight].Min.Y != 0) {
			t.Errorf("%s: right column %v", tc.name, l.cols[dockRight])
		}
		switch {
		case (tc.oneCol || tc.hide) && !l.toolbar.Empty():
			t.Errorf("%s: a toolbar %v in scenario mode or without UI", tc.name, l.toolbar)
		case !tc.oneCol && !tc.hide && tc.w >= 1280 && (l.toolbar.Empty() || l.toolbar.Max.Y != l.view.Min.Y || l.toolbar.Min.X != l.view.Min.X || l.toolbar.Max.X != l.view.Max.X):
			t.Errorf("%s: toolbar %v, want a strip over the view %v", tc.name, l.toolbar, l.view)
		}
		if tc.oneCol && !l.cols[dockRight].Empty() {
			t.Errorf("%s: a right column in scenario mode", tc.name)
		}
		if tc.hide && (l.view != screen || !l.status.Empty() || !l.cols[0].Empty()) {
			t.Errorf("%s: %+v, want the view alone", tc.name, l)
		}
		if tc.wantViewW > 0 && l.view.Dx() != tc.wantViewW {
			t.Errorf("%s: view %d wide, want %d", tc.name, l.view.Dx(), tc.wantViewW)
		}
		if l.view.Dx() < tc.wantViewWFrom {
			t.Errorf("%s: view %d wide, want at least %d", tc.name, l.view.Dx(), tc.wantViewWFrom)
		}
		if !tc.hide && tc.h >= 3*statusStripPx && (l.status.Dy() != statusStripPx || l.status.Min.X != l.view.Min.X || l.status.Max.X != l.view.Max.X || l.status.Min.Y != l.view.Max.Y) {
			t.Errorf("%s: status strip %v under the view %v", tc.name, l.status, l.view)
		}
	}
}

// TestDockInput drives a game as a user does: a click in a column or on a
// grip never reaches the view (no tile selected), positions reach the
// tools in the view's coordinates, dragging a grip resizes its column and
// the view, Tab folds and opens both columns, and the App frames with the
// view's aspect.
func TestDockInput(t *testing.T) {
	g := newTestGame(t, "terrain")
	drawFrames(t, g, 1)
	a := g.App
	send := func(ins ...frameInput) {
		t.Helper()
		for _, in := range ins {
			g.injected = append(g.injected, in)
			if err := g.Update(); err != nil {
				t.Fatalf("Update: %v", err)
			}
		}
	}
	clickAt := func(x, y int) {
		send(frameInput{X: x, Y: y}, frameInput{X: x, Y: y, Left: true}, frameInput{X: x, Y: y})
	}
	if g.w != g.lay.view.Dx() || g.h != g.lay.view.Dy() || g.w >= g.screenW {
		t.Fatalf("view size %dx%d, layout %v, screen %dx%d", g.w, g.h, g.lay.view, g.screenW, g.screenH)
	}
	if want := float64(g.w) / float64(g.h); math.Abs(a.Aspect()-want) > 1e-9 {
		t.Errorf("App frames for aspect %v, want the view's %v", a.Aspect(), want)
	}

	// A click on the left column (on no widget) and on a grip: nothing.
	for _, p := range []image.Point{{g.lay.cols[dockLeft].Min.X + 5, g.lay.cols[dockLeft].Max.Y - 5}, g.lay.grips[dockRight].Min.Add(image.Pt(2, 400))} {
		a.ClearTile()
		clickAt(p.X, p.Y)
		if a.Selected().OK {
			t.Errorf("a click at %v (outside the view %v) selected tile %+v", p, g.lay.view, a.Selected())
		}
	}
	// A click in the view's centre selects the tile under the view's
	// centre pixel.
	c := g.lay.view.Min.Add(image.Pt(g.w/2, g.h/2))
	want, err := a.PickTile(float64(g.w/2), float64(g.h/2), g.w, g.h)
	a.ClearTile()
	clickAt(c.X, c.Y)
	if err != nil || !a.Selected().OK || a.Selected() != want {
		t.Errorf("click in the view selected %+v, want %+v (%v); status %q", a.Selected(), want, err, a.Status())
	}

	// Dragging the left grip 100 px right widens the left column by 100.
	grip := g.lay.grips[dockLeft]
	x0, y := grip.Min.X+dockGripPx/2, grip.Min.Y+300
	leftW, viewW := g.lay.cols[dockLeft].Dx(), g.w
	send(frameInput{X: x0, Y: y}, frameInput{X: x0, Y: y, Left: true}, frameInput{X: x0 + 50, Y: y, Left: true},
		frameInput{X: x0 + 100, Y: y, Left: true}, frameInput{X: x0 + 100, Y: y})
	if got := g.lay.cols[dockLeft].Dx(); got != leftW+100 || g.w != viewW-100 {
		t.Errorf("after the grip drag: left column %d wide (was %d), view %d (was %d)", got, leftW, g.w, viewW)
	}
	if a.Selected() != want {
		t.Errorf("the grip drag changed the selection to %+v", a.Selected())
	}

	// Tab folds both columns, Tab again opens them.
	send(frameInput{X: c.X, Y: c.Y, KeyDock: true})
	if g.dock.cols[dockLeft].open || g.dock.cols[dockRight].open || g.w != g.screenW-2*dockStripPx {
		t.Errorf("Tab: columns open %v %v, view %d wide", g.dock.cols[dockLeft].open, g.dock.cols[dockRight].open, g.w)
	}
	send(frameInput{X: c.X, Y: c.Y}, frameInput{X: c.X, Y: c.Y, KeyDock: true})
	if !g.dock.cols[dockLeft].open || !g.dock.cols[dockRight].open || g.w != viewW-100 {
		t.Errorf("Tab again: columns open %v %v, view %d wide", g.dock.cols[dockLeft].open, g.dock.cols[dockRight].open, g.w)
	}
	// The window's columns sit where the layout says (debugui windows
	// re-made in place).
	drawFrames(t, g, 1)
	for side := range 2 {
		if col := g.dock.cols[side]; col.seen != g.lay.cols[side] {
			t.Errorf("column %d window at %v, want %v", side, col.seen, g.lay.cols[side])
		}
	}
}

// TestFrameIntoView: F and "frame tile" frame into the view the dock
// leaves: every corner of the level's (or tile's) box projects inside
// it, and the box fills most of it along one axis.
func TestFrameIntoView(t *testing.T) {
	g := newTestGame(t, "city")
	drawFrames(t, g, 1)
	a := g.App
	inView := func(what string, b geom.Box3) {
		t.Helper()
		minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for i := 0; i < 8; i++ {
			p := b.Min
			if i&1 != 0 {
				p.X = b.Max.X
			}
			if i&2 != 0 {
				p.Y = b.Max.Y
			}
			if i&4 != 0 {
				p.Z = b.Max.Z
			}
			x, y, _, ok := a.Camera.Project(p, g.w, g.h)
			if !ok {
				t.Fatalf("%s: corner %v not in view", what, p)
			}
			minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
		}
		if minX < 0 || minY < 0 || maxX > float64(g.w) || maxY > float64(g.h) {
			t.Errorf("%s: corners span x %.0f..%.0f, y %.0f..%.0f of a %dx%d view", what, minX, maxX, minY, maxY, g.w, g.h)
		}
		if fx, fy := (maxX-minX)/float64(g.w), (maxY-minY)/float64(g.h); max(fx, fy) < 0.7 {
			t.Errorf("%s: fills %.0f%% x %.0f%% of the view", what, 100*fx, 100*fy)
		}
	}
	for _, top := range []bool{false, true} {
		a.SetTopDown(top)
		a.Camera.Zoom(-5)
		g.injected = append(g.injected, frameInput{X: g.lay.view.Min.X + 10, Y: 10, KeyFrame: true})
		if err := g.Update(); err != nil {
			t.Fatal(err)
		}
		inView("F", a.LevelBounds())
		if err := a.SelectTile(3, 4); err != nil {
			t.Fatal(err)
		}
		a.FrameSelection()
		inView("frame tile", a.SelectionBoxes()[0])
	}
}

// TestZoomTowardsCursor: a wheel step over the view keeps the level
// point under the cursor under it (within a pixel), in and out, orbit and
// top-down; the wheel over a column zooms nothing.
func TestZoomTowardsCursor(t *testing.T) {
	g := newTestGame(t, "city")
	drawFrames(t, g, 1)
	a := g.App
	for _, tc := range []struct {
		name  string
		top   bool
		px    image.Point // in the view
		steps float64
	}{
		{"orbit in, off-centre", false, image.Pt(150, 500), 1},
		{"orbit out", false, image.Pt(500, 200), -1},
		{"orbit in x3", false, image.Pt(330, 380), 3},
		{"top in", true, image.Pt(100, 100), 1},
		{"top out", true, image.Pt(600, 650), -2},
	} {
		a.SetTopDown(tc.top)
		a.FrameLevel()
		o, d := a.Camera.Ray(float64(tc.px.X), float64(tc.px.Y), g.w, g.h)
		p, ok := session.PickPoint(a.Soup(), o, d)
		if !ok {
			t.Fatalf("%s: no level under %v", tc.name, tc.px)
		}
		dist := a.Camera.DistanceM
		s := g.lay.view.Min.Add(tc.px)
		g.injected = append(g.injected, frameInput{X: s.X, Y: s.Y, WheelY: tc.steps})
		if err := g.Update(); err != nil {
			t.Fatal(err)
		}
		if want := dist * math.Pow(0.85, tc.steps); math.Abs(a.Camera.DistanceM-want) > 1e-6*want {
			t.Errorf("%s: distance %v, want %v", tc.name, a.Camera.DistanceM, want)
		}
		x, y, _, ok := a.Camera.Project(p, g.w, g.h)
		if !ok || math.Hypot(x-float64(tc.px.X), y-float64(tc.px.Y)) > 1 {
			t.Errorf("%s: the point under the cursor moved from %v to (%.1f, %.1f) (in view %v)", tc.name, tc.px, x, y, ok)
		}
	}
	// Over the left column the wheel scrolls the panels, not the view.
	cam := a.Camera
	g.injected = append(g.injected, frameInput{X: 20, Y: 20, WheelY: 1})
	if err := g.Update(); err != nil {
		t.Fatal(err)
	}
	if a.Camera != cam {
		t.Error("a wheel step over the left column zoomed the view")
	}
}
