package ui

import (
	"reflect"
	"strings"
	"testing"

	"navviz/core/geom"
	"navviz/render"
	"navviz/ui/session"
)

// TestPickLiveCache: with a tile cache a click picks the cache's polygon
// (also when there is no plain build, and when there is one), the
// Inspector and the status say "live cache", the picked overlay outlines
// it; after the cache is dropped a click picks the plain build's, said so.
func TestPickLiveCache(t *testing.T) {
	g := terrainCacheGame(t)
	a := g.App
	if a.Build() != nil {
		t.Fatal("terrainCacheGame has a plain build")
	}
	grid := a.Cache.Grid()
	sel := session.TileRef{X: grid.TilesX / 2, Z: grid.TilesZ / 2, OK: true}
	m := a.Cache.Mesh()
	want, c := bestPickTargetIn(t, m, sel)
	a.Camera.TopDown, a.Camera.Ortho = true, true
	if err := a.SelectTile(sel.X, sel.Z); err != nil {
		t.Fatal(err)
	}
	a.FrameSelection()
	a.ClearTile()
	clickOn := func(p geom.Vec3) {
		t.Helper()
		x, y, _, ok := a.Camera.Project(p, g.w, g.h)
		if !ok {
			t.Fatalf("%v not in view", p)
		}
		g.applyIntent(viewIntent{Click: true, ClickX: int(x + 0.5), ClickY: int(y + 0.5)})
	}

	for _, withBuild := range []bool{false, true} {
		if withBuild {
			// A plain build of the level too: the click still picks
			// the live cache's polygon.
			g.startBuild()
			waitBuild(t, g)
			if a.Build() == nil {
				t.Fatal("no plain build")
			}
			a.ClearPick()
		}
		clickOn(c)
		if a.Picked() != want || a.PickedFrom() != session.MeshCache {
			t.Fatalf("build %v: picked %#x from the %v, want %#x of the live cache; status %q", withBuild, uint64(a.Picked()), a.PickedFrom(), uint64(want), a.Status())
		}
		info, err := render.DescribePoly(m, want)
		if err != nil || !reflect.DeepEqual(info, a.PickedInfo()) {
			t.Errorf("build %v: PickedInfo %+v, want the cache's polygon %+v (%v)", withBuild, a.PickedInfo(), info, err)
		}
		if a.Selected() != sel {
			t.Errorf("build %v: selected %+v, want %+v", withBuild, a.Selected(), sel)
		}
		if lines := a.InspectorLines(); len(lines) == 0 || !strings.Contains(lines[0], "live cache") || strings.Contains(strings.Join(lines, "\n"), "Gone") {
			t.Errorf("build %v: Inspector says %q", withBuild, lines)
		}
		if !strings.Contains(a.Status(), "live cache") {
			t.Errorf("build %v: status %q", withBuild, a.Status())
		}
		drawFrames(t, g, 1)
		if po := a.Scene().Overlay(render.OverlayPicked); po == nil || len(po.Tris) == 0 {
			t.Errorf("build %v: picked overlay empty", withBuild)
		}
	}

	// A pick whose navmesh is gone says so.
	a.DropCache()
	if a.PickedFrom() != session.MeshCache {
		t.Fatalf("the pick before the cache was dropped is from the %v", a.PickedFrom())
	}
	if lines := strings.Join(a.InspectorLines(), "\n"); !strings.Contains(lines, "Gone") {
		t.Errorf("a pick of a dropped cache: Inspector says %q", lines)
	}
	// Without the cache the plain build's polygon there is picked.
	clickOn(c)
	if a.PickedFrom() != session.MeshBuild || !a.Build().Mesh.IsValidRef(a.Picked()) {
		t.Fatalf("no cache: picked %#x from the %v; status %q", uint64(a.Picked()), a.PickedFrom(), a.Status())
	}
	if lines := a.InspectorLines(); !strings.Contains(lines[0], "plain build") {
		t.Errorf("no cache: Inspector says %q", lines[0])
	}
}
