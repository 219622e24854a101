package ui

import (
	"testing"

	"navviz/core/geom"
	"navviz/core/query"

	"navviz/core/voxel"
	"navviz/render"
	"navviz/scenario"
	"navviz/ui/session"
)

// TestPathTool builds terrain's tile cache, sets the path's ends with the
// Ctrl+left and Ctrl+right gestures (which neither the camera nor the
// pick sees), then carves an obstacle into the path and steps the cache:
// the path is found again after every swap, on the cache's live mesh.
// Without a cache it uses the plain build.
func TestPathTool(t *testing.T) {
	g := terrainCacheGame(t)
	a := g.App
	c := a.Cache
	pts := connectedPair(t, a, a.DemoPoints(12))
	// pathStart, pathEnd and res read the session's path.
	pathStart := func() (geom.Vec3, bool) { return a.Path.Start() }
	pathEnd := func() (geom.Vec3, bool) { return a.Path.End() }
	res := func() scenario.Path { return a.Path.Result() }
	a.Camera.TopDown = true
	a.Camera.Target = pts[0].Add(pts[1]).Scale(0.5)
	a.Camera.DistanceM = 2*float64(float32dist(pts[0], pts[1])) + 20

	// Ctrl+left: the start; the controller does not see the press.
	x, y := pixelOf(t, g, pts[0])
	g.pathStep(frameInput{X: x, Y: y}, true, false)
	if seen := g.pathStep(frameInput{X: x, Y: y, Left: true}, true, false); seen.Left {
		t.Error("the camera saw the Ctrl+left press")
	}
	g.pathStep(frameInput{X: x, Y: y}, true, false)
	s, ok := pathStart()
	if _, hasEnd := pathEnd(); !ok || hasEnd || float32dist(s, pts[0]) > 1 {
		t.Fatalf("start %v (set %v, end set %v), want near %v; status %q", s, ok, hasEnd, pts[0], a.Status())
	}
	// Ctrl+right: the end.
	x, y = pixelOf(t, g, pts[1])
	if seen := g.pathStep(frameInput{X: x, Y: y, Right: true}, true, false); seen.Right {
		t.Error("the camera saw the Ctrl+right press")
	}
	g.pathStep(frameInput{X: x, Y: y}, true, false)
	if e, ok := pathEnd(); !ok || float32dist(e, pts[1]) > 1 {
		t.Fatalf("end %v, want near %v; status %q", e, pts[1], a.Status())
	}
	// A plain left press passes through.
	if seen := g.pathStep(frameInput{X: x, Y: y, Left: true}, false, false); !seen.Left {
		t.Error("a plain left press was taken")
	}
	// Ctrl pressed while the left button is held: no gesture.
	start, _ := pathStart()
	seen := g.pathStep(frameInput{X: x, Y: y, Left: true}, true, false)
	if now, _ := pathStart(); !seen.Left || now != start {
		t.Error("Ctrl during a held left press started a path gesture")
	}
	g.pathStep(frameInput{X: x, Y: y}, false, false)

	a.SyncPath()
	if r := res(); r.Err != "" || len(r.Points) < 2 || len(r.Corridor) == 0 || r.LengthM <= 0 {
		t.Fatalf("no path: err %q, %d points, %d polygons", r.Err, len(r.Points), len(r.Corridor))
	}
	if o := a.Scene().Overlay(render.OverlayPath); o == nil || !o.Visible || len(o.Tris) == 0 || len(o.Points) != len(res().Points) {
		t.Fatal("path overlay missing, hidden or empty")
	}
	t.Logf("path: %d polygons, %d corners, %.1f m", len(res().Corridor), len(res().Points), res().LengthM)
	if res().Partial {
		t.Error("the path is partial")
	}
	searches := a.Path.Searches()
	a.SyncPath()
	if a.Path.Searches() != searches {
		t.Error("the path was searched again with nothing changed")
	}
	saveForInspection(t, "path-before", drawOnly(g))

	// Carve a cylinder into the middle of the first leg and step the
	// cache: every swap gives a new search on the live mesh.
	mid := res().Points[0].Add(res().Points[1]).Scale(0.5)
	mid.Y -= 1
	if _, err := c.AddObstacle(voxel.Cylinder(mid, 1.5, 4)); err != nil {
		t.Fatal(err)
	}
	a.Edited()
	if c.QueueLen() == 0 {
		t.Fatal("the obstacle queued no tile")
	}
	swaps := 0
	for steps := 0; c.QueueLen() > 0 && steps < 100; steps++ {
		before, sig := a.Path.Searches(), session.MeshSig(c.Mesh())
		if _, err := a.StepCache(1); err != nil {
			t.Fatal(err)
		}
		a.SyncPath()
		swapped := session.MeshSig(c.Mesh()) != sig
		if swapped {
			swaps++
		}
		if swapped != (a.Path.Searches() != before) {
			t.Fatalf("step %d: swapped %v, searched again %v", steps, swapped, a.Path.Searches() != before)
		}
		for _, r := range res().Corridor {
			if !c.Mesh().IsValidRef(r) {
				t.Fatalf("step %d: corridor polygon %#x is stale", steps, r)
			}
		}
	}
	if swaps == 0 {
		t.Error("the obstacle swapped no tile")
	}
	if r := res(); r.Err != "" || len(r.Points) < 2 {
		t.Fatalf("no path after the obstacle: %q", r.Err)
	}
	saveForInspection(t, "path-after", drawOnly(g))

	// Without the cache, the plain build's mesh.
	start, _ = pathStart()
	end, _ := pathEnd()
	a.DropCache()
	g.startBuild()
	waitBuild(t, g)
	if a.NavMesh() == nil || a.PathMesh() != a.NavMesh() {
		t.Fatal("the path does not use the plain build")
	}
	a.SetPathPoint(false, start)
	a.SetPathPoint(true, end)
	a.SyncPath()
	if r := res(); r.Err != "" || len(r.Points) < 2 || !a.NavMesh().IsValidRef(r.Corridor[0]) {
		t.Fatalf("no path on the plain build: %q", r.Err)
	}

	// The Path window draws.
	drawFrames(t, g, 2)
	if _, ok := pathStart(); !ok {
		t.Fatal("a frame dropped the start")
	}
	if _, ok := pathEnd(); !ok {
		t.Fatal("a frame dropped the end")
	}

	// Clear hides the window and empties the overlay.
	a.ClearPath()
	if a.PathPanelOpen() || res().Points != nil {
		t.Error("the path survived Clear")
	}
	if o := a.Scene().Overlay(render.OverlayPath); o != nil && len(o.Points) != 0 {
		t.Error("the overlay still shows points")
	}
	drawFrames(t, g, 1)
}

// float32dist is the distance between a and b, metres.
func float32dist(a, b geom.Vec3) float32 { return a.Sub(b).Len() }

// connectedPair returns the two points of pts farthest apart (in plan)
// with a complete path between them on the cache's mesh.
func connectedPair(t *testing.T, a *session.App, pts []geom.Vec3) [2]geom.Vec3 {
	t.Helper()
	m := a.Cache.Mesh()
	var best [2]geom.Vec3
	bestD := float32(-1)
	for i := range pts {
		for j := i + 1; j < len(pts); j++ {
			sr, sp, err1 := query.NearestPoly(m, pts[i], scenario.PathHalfExtentsM)
			er, ep, err2 := query.NearestPoly(m, pts[j], scenario.PathHalfExtentsM)
			if err1 != nil || err2 != nil {
				continue
			}
			if _, err := query.FindPath(m, sr, er, sp, ep, nil); err != nil {
				continue
			}
			if d := float32dist(pts[i], pts[j]); d > bestD {
				best, bestD = [2]geom.Vec3{pts[i], pts[j]}, d
			}
		}
	}
	if bestD < 0 {
		t.Fatalf("no connected pair among %d points", len(pts))
	}
	return best
}

// TestPathOverlayAtStart: --overlays can name "path" (it is in the scene
// from the first level load).
func TestPathOverlayAtStart(t *testing.T) {
	g, err := NewGame(Options{Level: "city", Width: testW, Height: testH, Overlays: []string{"input", render.OverlayPath}})
	if err != nil {
		t.Fatal(err)
	}
	if o := g.App.Scene().Overlay(render.OverlayPath); o == nil || !o.Visible {
		t.Error("no visible path overlay")
	}
}
