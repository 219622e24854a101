package ui

import (
	"reflect"
	"strings"
	"testing"

	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/inspect"
	"navviz/render"
)

// TestInspectForPick: a picked polygon selects the report of its tile
// layer, if any.
func TestInspectForPick(t *testing.T) {
	reps := []inspect.LayerReport{{TX: 1, TZ: 2, Layer: 0}, {TX: 1, TZ: 2, Layer: 1}, {TX: 3, TZ: 2, Layer: 0}}
	for _, tc := range []struct {
		name string
		ref  uint64
		info render.PolyInfo
		want int
	}{
		{"layer 1 of (1, 2)", 5, render.PolyInfo{TileX: 1, TileZ: 2, Layer: 1}, 1},
		{"layer 0 of (3, 2)", 5, render.PolyInfo{TileX: 3, TileZ: 2, Layer: 0}, 2},
		{"no report of the layer", 5, render.PolyInfo{TileX: 3, TileZ: 2, Layer: 1}, -1},
		{"other tile", 5, render.PolyInfo{TileX: 0, TileZ: 0}, -1},
		{"no pick", 0, render.PolyInfo{TileX: 1, TileZ: 2, Layer: 1}, -1},
	} {
		if got := InspectForPick(reps, navmesh.PolyRef(tc.ref), &tc.info); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
	if got := InspectForPick(nil, 5, &render.PolyInfo{}); got != -1 {
		t.Errorf("no reports: %d", got)
	}
}

// TestPickLiveCache: with a tile cache a click picks the cache's polygon
// (also when there is no plain build, and when there is one), the
// Inspector and the status say "live cache", the picked overlay outlines
// it; after the cache is dropped a click picks the plain build's, said so.
func TestPickLiveCache(t *testing.T) {
	g := terrainCacheGame(t)
	a := g.App
	if a.Build != nil {
		t.Fatal("terrainCacheGame has a plain build")
	}
	grid := a.Cache.Grid()
	sel := TileRef{grid.TilesX / 2, grid.TilesZ / 2, true}
	m := a.Cache.Mesh()
	want, c := bestPickTargetIn(t, m, sel)
	a.Camera.TopDown, a.Camera.Ortho = true, true
	a.Selected = sel
	a.FrameSelection()
	a.Selected = TileRef{}
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
			if a.Build == nil {
				t.Fatal("no plain build")
			}
			a.ClearPick()
		}
		clickOn(c)
		if a.Picked != want || a.PickedFrom != MeshCache {
			t.Fatalf("build %v: picked %#x from the %v, want %#x of the live cache; status %q", withBuild, uint64(a.Picked), a.PickedFrom, uint64(want), a.Status)
		}
		info, err := render.DescribePoly(m, want)
		if err != nil || !reflect.DeepEqual(info, a.PickedInfo) {
			t.Errorf("build %v: PickedInfo %+v, want the cache's polygon %+v (%v)", withBuild, a.PickedInfo, info, err)
		}
		if a.Selected != sel {
			t.Errorf("build %v: selected %+v, want %+v", withBuild, a.Selected, sel)
		}
		if lines := a.InspectorLines(); len(lines) == 0 || !strings.Contains(lines[0], "live cache") || strings.Contains(strings.Join(lines, "\n"), "Gone") {
			t.Errorf("build %v: Inspector says %q", withBuild, lines)
		}
		if !strings.Contains(a.Status, "live cache") {
			t.Errorf("build %v: status %q", withBuild, a.Status)
		}
		drawFrames(t, g, 1)
		if po := a.Scene.Overlay(render.OverlayPicked); po == nil || len(po.Tris) == 0 {
			t.Errorf("build %v: picked overlay empty", withBuild)
		}
	}

	// Without the cache the plain build's polygon there is picked.
	a.DropCache()
	clickOn(c)
	if a.PickedFrom != MeshBuild || !a.Build.Mesh.IsValidRef(a.Picked) {
		t.Fatalf("no cache: picked %#x from the %v; status %q", uint64(a.Picked), a.PickedFrom, a.Status)
	}
	if lines := a.InspectorLines(); !strings.Contains(lines[0], "plain build") {
		t.Errorf("no cache: Inspector says %q", lines[0])
	}
	// A pick whose navmesh is gone says so.
	a.PickedFrom = MeshCache
	if lines := strings.Join(a.InspectorLines(), "\n"); !strings.Contains(lines, "Gone") {
		t.Errorf("a pick of a dropped cache: Inspector says %q", lines)
	}
}
