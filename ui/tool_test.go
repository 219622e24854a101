package ui

import (
	"testing"

	"navviz/render"
)

// TestToolStateSurvivesSwitch: each tool keeps its state while another is
// active. Two volume corners, the Obstacle tool's shape and size and a
// link's start waiting for its end are all there after switching through
// the other tools and back (with frames drawn in between, the Tools
// tab shown: every tool's rows are drawn); the preview shows the active
// tool's state only, and choosing another tool ends an obstacle drag in
// progress.
func TestToolStateSurvivesSwitch(t *testing.T) {
	g := terrainCacheGame(t)
	a := g.App
	pts := a.DemoPoints(1)
	if len(pts) < 1 {
		t.Fatal("no walkable point")
	}
	a.Camera.TopDown = true
	a.Camera.Target = pts[0]
	a.Camera.DistanceM = 40
	x, y := pixelOf(t, g, pts[0])
	preview := func() *render.Overlay {
		t.Helper()
		a.SyncCacheOverlays()
		o := a.Scene().Overlay(render.OverlayToolPreview)
		if o == nil {
			t.Fatal("no preview overlay")
		}
		return o
	}

	vol, obs, link := g.tools.volume, g.tools.obstacle, g.tools.link
	g.setTab(dockRight, tabTools)
	// use makes tl the active tool and draws a frame (the panels too).
	use := func(tl tool) {
		t.Helper()
		g.setTool(tl)
		drawFrames(t, g, 1)
	}
	use(vol)
	click(g, x, y)
	click(g, x+60, y)
	vol.AreaID = 7
	if len(vol.Corners) != 2 || len(preview().Points) != 2 {
		t.Fatalf("volume: %d corners, preview %d points (Err %q)", len(vol.Corners), len(preview().Points), a.Err())
	}

	use(obs)
	obs.ShapeIdx, obs.SizeXM = 2, 5.5
	if n := len(preview().Points); n != 0 {
		t.Errorf("the obstacle tool's preview shows the volume's %d corners", n)
	}
	use(link)
	click(g, x, y+60)
	if n := len(link.previewPoints(a)); n != 1 {
		t.Fatalf("link: %d pending points (Err %q)", n, a.Err())
	}
	use(g.tools.agents)
	use(g.tools.pick)
	if o := preview(); len(o.Points) != 0 || len(o.Tris) != 0 {
		t.Errorf("the select tool shows a preview: %d points, %d triangles", len(o.Points), len(o.Tris))
	}

	use(vol)
	if len(vol.Corners) != 2 || vol.AreaID != 7 || len(preview().Points) != 2 {
		t.Errorf("back to volume: %d corners, area %d, preview %d points", len(vol.Corners), vol.AreaID, len(preview().Points))
	}
	use(obs)
	if obs.ShapeIdx != 2 || obs.SizeXM != 5.5 {
		t.Errorf("back to obstacle: shape %d, size x %g", obs.ShapeIdx, obs.SizeXM)
	}
	use(link)
	if n := len(link.previewPoints(a)); n != 1 || len(preview().Points) != 1 {
		t.Errorf("back to link: %d pending points, preview %d points", n, len(preview().Points))
	}
	if c := a.Cache; len(c.Volumes()) != 0 || len(c.OffMeshLinks()) != 0 || len(c.Obstacles()) != 0 {
		t.Errorf("switching added shapes: %d volumes, %d links, %d obstacles", len(c.Volumes()), len(c.OffMeshLinks()), len(c.Obstacles()))
	}

	// A drag in progress ends when another tool is chosen; the settings
	// stay.
	g.setTool(obs)
	obs.press(a, pts[0])
	if !obs.drag.active {
		t.Fatalf("no drag after a press (Err %q)", a.Err())
	}
	g.setTool(vol)
	if obs.drag.active || obs.ShapeIdx != 2 {
		t.Errorf("after switching: drag %v, shape %d", obs.drag.active, obs.ShapeIdx)
	}
	if err := obs.release(a); err != nil || len(a.Cache.Obstacles()) != 0 {
		t.Errorf("a release after the switch placed an obstacle (%v)", err)
	}
}
