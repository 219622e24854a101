package ui

import (
	"fmt"
	"image"
	"strings"
	"testing"

	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/render"
	"navviz/ui/session"
)

// hideBuildOverlays hides every span and mesh overlay.
func hideBuildOverlays(a *session.App) {
	for _, n := range append(append([]string(nil), render.SpanOverlayNames...), render.MeshOverlayNames...) {
		a.SetOverlayVisible(n, false)
	}
}

// changedPixels counts the pixels of r that differ between a and b by more
// than 24 in some channel.
func changedPixels(a, b *image.RGBA, r image.Rectangle) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			p, q := a.RGBAAt(x, y), b.RGBAAt(x, y)
			if absDiff(p.R, q.R) > 24 || absDiff(p.G, q.G) > 24 || absDiff(p.B, q.B) > 24 {
				n++
			}
		}
	}
	return n
}

// TestMeshOverlaysDraw builds city in the game and shows each mesh
// overlay alone on the selected tile and its neighbours: each changes the
// picture.
func TestMeshOverlaysDraw(t *testing.T) {
	g := newTestGame(t, "city")
	drawFrames(t, g, 1)
	g.startBuild()
	waitBuild(t, g)
	a := g.App
	if a.Build() == nil || a.Build().Mesh == nil || a.Build().Mesh.TileCount() == 0 {
		t.Fatalf("no navmesh after the build (err %q)", a.BuildErr())
	}
	a.FrameSelection()
	hideBuildOverlays(a)
	base := drawFrames(t, g, 2)
	r := viewRect()
	for _, tc := range []struct {
		name string
		min  int // pixels that must change
	}{
		{render.OverlayRegions, 20000},
		{render.OverlayContoursRaw, 1000},
		{render.OverlayContours, 1000},
		{render.OverlayPolys, 20000},
		{render.OverlayDetail, 20000},
		{render.OverlayTiles, 20000},
		{render.OverlayLayers, 20000},
		{render.OverlayPortals, 300},
	} {
		hideBuildOverlays(a)
		a.SetOverlayVisible(tc.name, true)
		img := drawFrames(t, g, 2)
		saveForInspection(t, "mesh-"+tc.name, img)
		o := a.Scene().Overlay(tc.name)
		if o == nil || !o.Visible || len(o.Tris)+len(o.Lines)+len(o.Points) == 0 {
			t.Errorf("%s: missing, hidden or empty", tc.name)
			continue
		}
		n := changedPixels(base, img, r)
		t.Logf("%s: %d tris, %d line and %d point vertices; %d pixels changed; GPU %d tris, scene rebuild %.1f ms",
			tc.name, len(o.Tris)/3, len(o.Lines), len(o.Points), n, g.view.drawnTris, g.view.buildMs)
		if n < tc.min {
			t.Errorf("%s: %d pixels changed, want at least %d", tc.name, n, tc.min)
		}
	}
	// Hidden mesh overlays give their memory back.
	hideBuildOverlays(a)
	drawFrames(t, g, 1)
	for _, n := range render.MeshOverlayNames {
		if o := a.Scene().Overlay(n); o == nil || len(o.Tris)+len(o.Lines)+len(o.Points) != 0 {
			t.Errorf("hidden %s keeps its content", n)
		}
	}
}

// bestPickTarget returns a polygon of the selected tile's navmesh tile
// that a top-down ray through its first detail triangle's centroid hits
// first (the highest large polygon), and that centroid.
func bestPickTarget(t *testing.T, a *session.App) (navmesh.PolyRef, geom.Vec3) {
	t.Helper()
	return bestPickTargetIn(t, a.Build().Mesh, a.Selected())
}

// bestPickTargetIn is bestPickTarget in the navmesh m at tile sel.
func bestPickTargetIn(t *testing.T, m *navmesh.Mesh, sel session.TileRef) (navmesh.PolyRef, geom.Vec3) {
	t.Helper()
	refs := m.TilesAt(int32(sel.X), int32(sel.Z))
	if len(refs) == 0 {
		t.Fatal("no navmesh tile at the selected tile")
	}
	var best navmesh.PolyRef
	var bestC geom.Vec3
	bestY := float32(-1e30)
	for _, tr := range refs {
		tt, _ := m.Tile(tr)
		for i := range tt.Polys {
			info, err := render.DescribePoly(m, tr.Poly(uint32(i)))
			if err != nil || len(info.Verts) < 3 {
				continue
			}
			// Area of the polygon on x/z (shoelace).
			area := 0.0
			for j := range info.Verts {
				p, q := info.Verts[j], info.Verts[(j+1)%len(info.Verts)]
				area += float64(p.X*q.Z - q.X*p.Z)
			}
			if area < 0 {
				area = -area
			}
			if area/2 < 4 || info.CentreM.Y <= bestY {
				continue
			}
			// The centroid of the corners lies inside a convex polygon.
			hit, ok := render.PickPoly(m, [3]float64{float64(info.CentreM.X), float64(info.CentreM.Y) + 100, float64(info.CentreM.Z)}, [3]float64{0, -1, 0}, 0)
			if ok && hit.Ref == tr.Poly(uint32(i)) {
				best, bestC, bestY = hit.Ref, hit.Pos, info.CentreM.Y
			}
		}
	}
	if best == 0 {
		t.Fatal("no pickable polygon on the selected tile")
	}
	return best, bestC
}

func TestPickPolygon(t *testing.T) {
	g := newTestGame(t, "city")
	drawFrames(t, g, 1)
	g.startBuild()
	waitBuild(t, g)
	a := g.App
	hideBuildOverlays(a)
	a.SetOverlayVisible(render.OverlayPolys, true)
	a.Camera.TopDown, a.Camera.Ortho = true, true
	a.FrameSelection()
	sel := a.Selected()
	want, c := bestPickTarget(t, a)
	x, y, _, ok := a.Camera.Project(c, g.w, g.h)
	if !ok {
		t.Fatal("target polygon not in view")
	}
	before := drawFrames(t, g, 1)
	if a.Picked() != 0 {
		t.Fatal("a polygon is picked before any click")
	}

	// A click in the view picks it, selects its tile and opens the
	// Inspector.
	g.applyIntent(viewIntent{Click: true, ClickX: int(x + 0.5), ClickY: int(y + 0.5)})
	if a.Picked() != want {
		t.Fatalf("picked %#x at (%.0f, %.0f), want %#x; status %q", uint64(a.Picked()), x, y, uint64(want), a.Status())
	}
	if !a.Build().Mesh.IsValidRef(a.Picked()) || a.Selected() != sel {
		t.Errorf("picked ref valid %v, selection %+v (was %+v)", a.Build().Mesh.IsValidRef(a.Picked()), a.Selected(), sel)
	}
	if !strings.Contains(a.Status(), "picked polygon") {
		t.Errorf("status %q", a.Status())
	}
	info := a.PickedInfo()
	text := strings.Join(info.Lines(), "\n")
	for _, w := range []string{fmt.Sprintf("Ref %#016x", uint64(want)), fmt.Sprintf("Tile (%d, %d)", sel.X, sel.Z), "Area", "Edge 0:", "Links:"} {
		if !strings.Contains(text, w) {
			t.Errorf("inspector text lacks %q:\n%s", w, text)
		}
	}
	after := drawFrames(t, g, 2)
	saveForInspection(t, "picked", after)
	if po := a.Scene().Overlay(render.OverlayPicked); po == nil || !po.Visible || len(po.Tris) == 0 {
		t.Error("picked overlay missing, hidden or empty")
	}
	if n := changedPixels(before, after, g.lay.cols[dockRight]); n < 2000 {
		t.Errorf("the Inspector changed only %d pixels", n)
	}

	// The pick of a rebuilt level is cleared (its reference is stale).
	a.SetBuild(a.Build())
	if a.Picked() != 0 {
		t.Error("pick kept across SetBuild")
	}
	// Picking without a navmesh falls back to the tile.
	b := a.Build()
	a.SetBuild(nil)
	if msg := a.Click(x, y, testW, testH); !strings.Contains(msg, "selected tile") || a.Picked() != 0 {
		t.Errorf("click without navmesh: %q, picked %#x", msg, uint64(a.Picked()))
	}
	a.SetBuild(b)
	a.FrameLevel()
	if _, err := a.PickPoly(2, 2, testW, testH); err == nil {
		t.Error("a pick outside the level succeeded")
	}
}

func TestShowOnlyOverlays(t *testing.T) {
	g, err := NewGame(Options{Level: "terrain", Width: 320, Height: 200, Overlays: []string{"input", "polys", "selection"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range g.App.Scene().Overlays {
		want := o.Name == "input" || o.Name == "polys" || o.Name == "selection"
		if o.Visible != want {
			t.Errorf("%s visible %v", o.Name, o.Visible)
		}
	}
	if _, err := NewGame(Options{Level: "terrain", Overlays: []string{"input", "bogus"}}); err == nil || !strings.Contains(err.Error(), "portals") {
		t.Errorf("unknown overlay: %v", err)
	}
	// The cache's overlays are named before the cache exists (the frame
	// benchmark's --overlays): shown once it is built, the others hidden.
	g, err = NewGame(Options{Level: "terrain", Width: 320, Height: 200, Overlays: []string{"input", "cache-polys"}})
	if err != nil {
		t.Fatal(err)
	}
	if !g.App.CacheVis["cache-polys"] || g.App.CacheVis["swaps"] {
		t.Errorf("cache overlays to show: %v, want cache-polys alone", g.App.CacheVis)
	}
}

// BenchmarkSceneBuildMesh measures a camera move on city with one mesh
// overlay visible, for each scope; "overlay-tris" is the overlay's
// triangles, "tris" what the GPU draws.
func BenchmarkSceneBuildMesh(b *testing.B) {
	a := cityBuildApp(b)
	overlays := []string{render.OverlayRegions, render.OverlayPolys, render.OverlayDetail, render.OverlayPortals}
	benchSceneBuild(b, a, overlays, func(ov string) {
		hideBuildOverlays(a)
		a.SetOverlayVisible(ov, true)
	})
}
