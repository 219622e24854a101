package ui

import (
	"math"
	"strings"
	"testing"

	"navviz/core/geom"
	"navviz/render"
	"navviz/tilecache"
)

// TestOffMeshTool draws an off-mesh link on terrain through the Link
// tool's input path (click the start, click the end), puts it in the mesh
// with Update, moves its end by dragging, undoes and redoes the move,
// deletes it with the Delete key and brings it back with Ctrl+Z; the
// "offmesh" overlay draws it and Escape forgets a start not yet ended.
func TestOffMeshTool(t *testing.T) {
	g := terrainCacheGame(t)
	a := g.App
	c := a.Cache
	pts := a.DemoPoints(1)
	if len(pts) < 1 {
		t.Fatal("no walkable point")
	}
	a.Camera.TopDown = true
	a.Camera.Target = pts[0]
	a.Camera.DistanceM = 40
	x, y := pixelOf(t, g, pts[0])
	at := func(x, y int) geom.Vec3 {
		t.Helper()
		p, ok := a.WorldPoint(float64(x), float64(y), g.w, g.h)
		if !ok {
			t.Fatalf("no level under pixel (%d, %d)", x, y)
		}
		return p
	}
	near := func(got, want geom.Vec3) bool {
		return math.Hypot(float64(got.X-want.X), float64(got.Z-want.Z)) < 0.05
	}
	g.setTool(g.tools.link)

	// Escape forgets a start.
	click(g, x, y)
	if len(g.tools.link.previewPoints(a)) != 1 {
		t.Fatalf("after one click the preview shows %v", g.tools.link.previewPoints(a))
	}
	g.cacheStep(frameInput{X: x, Y: y}, toolKeys{Escape: true})
	if len(g.tools.link.previewPoints(a)) != 0 {
		t.Fatal("Escape kept the start")
	}

	// Draw: start, then end.
	start, end := at(x, y), at(x+80, y)
	if seen := click(g, x, y); seen.Left {
		t.Error("the camera controller saw the tool's press")
	}
	click(g, x+80, y)
	links := c.OffMeshLinks()
	if len(links) != 1 || links[0].UserID != 1 || a.Selection.Link() != 1 || c.QueueLen() == 0 {
		t.Fatalf("after two clicks: links %+v, selected %d, queue %d (Err %q)", links, a.Selection.Link(), c.QueueLen(), a.Err())
	}
	if !near(links[0].StartM, start) || !near(links[0].EndM, end) || !links[0].Bidirectional || links[0].Area != 63 || links[0].Flags == 0 {
		t.Fatalf("link %+v, want from %v to %v, both ways, area 63, flags", links[0], start, end)
	}
	if _, err := c.UpdateAll(); err != nil {
		t.Fatal(err)
	}
	nodes := 0
	for _, tr := range c.Mesh().Tiles() {
		tl, _ := c.Mesh().Tile(tr)
		nodes += len(tl.OffMesh)
	}
	if nodes != 1 {
		t.Fatalf("the mesh holds %d off-mesh links, want 1", nodes)
	}
	a.SyncCacheOverlays()
	if o := a.Scene().Overlay(render.OverlayOffMesh); o == nil || len(o.Tris) == 0 || len(o.Lines) == 0 {
		t.Fatalf("offmesh overlay %+v", o)
	}

	// Move the end by dragging it; undo and redo the move.
	moved := at(x+80, y+60)
	drag(g, x+80, y, x+80, y+60)
	if l := c.OffMeshLinks(); len(l) != 1 || l[0].UserID != 1 || !near(l[0].EndM, moved) || !near(l[0].StartM, start) {
		t.Fatalf("after the drag: %+v, want the end at %v (Err %q)", l, moved, a.Err())
	}
	if ok, err := a.Undo(); !ok || err != nil || !near(c.OffMeshLinks()[0].EndM, end) {
		t.Fatalf("undo of the move: %v %v, link %+v", ok, err, c.OffMeshLinks())
	}
	if ok, err := a.Redo(); !ok || err != nil || !near(c.OffMeshLinks()[0].EndM, moved) {
		t.Fatalf("redo of the move: %v %v, link %+v", ok, err, c.OffMeshLinks())
	}

	// Delete removes the selected link; Ctrl+Z brings it back (new id),
	// and undoing the whole history leaves no link.
	g.cacheStep(frameInput{X: x, Y: y}, toolKeys{Delete: true})
	if l := c.OffMeshLinks(); len(l) != 0 || a.Selection.Link() != 0 {
		t.Fatalf("after Delete: links %+v, selected %d", l, a.Selection.Link())
	}
	g.cacheStep(frameInput{X: x, Y: y}, toolKeys{Undo: true})
	if l := c.OffMeshLinks(); len(l) != 1 || l[0].UserID != 2 || !near(l[0].EndM, moved) {
		t.Fatalf("after undoing the delete: %+v", l)
	}
	for {
		ok, err := a.Undo()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
	}
	if l := c.OffMeshLinks(); len(l) != 0 {
		t.Fatalf("after undoing everything: %+v", l)
	}
	if !strings.Contains(a.Rec.Broken, "off-mesh links") {
		t.Errorf("the session recorder was not told links are not recorded: %q", a.Rec.Broken)
	}
	if err := a.RemoveOffMesh(tilecache.OffMeshLinkID(9)); err == nil {
		t.Error("removing an unknown link is no error")
	}
}
