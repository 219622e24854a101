package session

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"navviz/core/geom"
	"navviz/core/level/leveltest"
	"navviz/core/navmesh"
	"navviz/core/navmesh/detour"
	"navviz/core/pipeline"
	"navviz/render"
	"navviz/scenario"
)

// dungeonDetour builds dungeon and writes its mesh as an MSET file; it
// returns the build and the file's path.
func dungeonDetour(t *testing.T) (*pipeline.Build, string) {
	t.Helper()
	soup := leveltest.Load(t, "dungeon")
	s := pipeline.DefaultSettings()
	b, err := BuildLevel(context.Background(), soup, &s, nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := detour.Encode(b.Mesh, detour.Options{BoundsM: b.Grid.BoundsM, TileWidthM: b.Grid.TileSizeM(), TileHeightM: b.Grid.TileSizeM()})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "dungeon.bin")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return b, p
}

// polyCentre returns the centre of polygon i of the first tile of m.
func polyCentre(m *navmesh.Mesh, tile, i int) geom.Vec3 {
	t, _ := m.Tile(m.Tiles()[tile])
	p := t.Polys[i]
	var c geom.Vec3
	for k := range int(p.VertCount) {
		c = c.Add(t.Verts[p.Verts[k]])
	}
	return c.Scale(1 / float32(p.VertCount))
}

// TestAppLoadDetourNavMesh (issue 31, item 2): App.Load opens an MSET file
// (as the dialog, a drop and the command line do): no level geometry, the
// mesh as the build's, drawn by the mesh overlays, picked at the centre of
// the view and answering a path as the level's build does; building says
// why it cannot.
func TestAppLoadDetourNavMesh(t *testing.T) {
	b, p := dungeonDetour(t)
	a := NewApp()
	a.SetViewport(800, 600)
	if err := a.Load(p); err != nil {
		t.Fatal(err)
	}
	if a.Soup() != nil || a.DetourFile() == nil || a.NavMesh() == nil || a.NavMesh().TileCount() != b.Mesh.TileCount() {
		t.Fatalf("soup %v, file %v, mesh %v", a.Soup(), a.DetourFile(), a.NavMesh())
	}
	if !strings.Contains(a.Status(), "Detour navmesh set (MSET)") || !strings.Contains(a.BuildErr(), "nothing to build") {
		t.Errorf("status %q, build error %q", a.Status(), a.BuildErr())
	}
	if a.Scene().Overlay(render.OverlayInput) != nil {
		t.Error("an input overlay, want none (no level geometry)")
	}
	for _, n := range loadedMeshOverlays {
		if o := a.Scene().Overlay(n); o == nil || !o.Visible || len(o.Tris)+len(o.Lines) == 0 {
			t.Errorf("overlay %s missing, hidden or empty", n)
		}
	}
	if b := a.LevelBounds(); b.Empty() {
		t.Error("empty level bounds")
	}
	from, to := polyCentre(b.Mesh, 0, 0), polyCentre(b.Mesh, len(b.Mesh.Tiles())-1, 0)
	a.SetPathPoint(false, from)
	a.SetPathPoint(true, to)
	a.SyncPath()
	want := scenario.FindPath(b.Mesh, from, to)
	if got := a.Path.Result(); got.Err != want.Err || got.LengthM != want.LengthM || len(got.Points) != len(want.Points) {
		t.Errorf("path on the file: %+v, on the build: %+v", got, want)
	}
	a.Camera.TopDown = true
	a.FrameLevel()
	if s := a.Click(400, 300, 800, 600); !strings.HasPrefix(s, "picked polygon") {
		t.Errorf("click at the view's centre: %q", s)
	}
	// Loading a level again forgets the file.
	if err := a.Load("city"); err != nil {
		t.Fatal(err)
	}
	if a.DetourFile() != nil || a.NoGeometry() != "" {
		t.Errorf("after a level: file %v, %q", a.DetourFile(), a.NoGeometry())
	}
}

// TestAppLoadDetourTileCache: App.Load opens the TSET file real Detour
// wrote of dungeon: its layers drawn, no mesh, nothing to build; a bad
// Detour file is refused and changes nothing.
func TestAppLoadDetourTileCache(t *testing.T) {
	a := NewApp()
	const p = "../../core/navmesh/detour/testdata/dungeon-tilecache.bin"
	if err := a.Load(p); err != nil {
		t.Fatal(err)
	}
	if a.DetourTileCache() == nil || len(a.DetourTileCache().Layers) != 15 || a.NavMesh() != nil {
		t.Fatalf("cache %v, mesh %v", a.DetourTileCache(), a.NavMesh())
	}
	if !strings.Contains(a.Status(), "15 layers") || !strings.Contains(a.NoGeometry(), "tile-cache file") {
		t.Errorf("status %q, %q", a.Status(), a.NoGeometry())
	}
	for _, n := range []string{render.OverlayTSetLayers, render.OverlayTSetPortals, render.OverlayTSetBounds} {
		if o := a.Scene().Overlay(n); o == nil || !o.Visible || len(o.Tris)+len(o.Lines) == 0 {
			t.Errorf("overlay %s missing, hidden or empty", n)
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.bin")
	data, _ := os.ReadFile(p)
	if err := os.WriteFile(bad, data[:200], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := a.Load(bad); err == nil || !strings.Contains(a.Err(), "bad.bin") {
		t.Errorf("truncated file: %v, shown %q", err, a.Err())
	}
	if a.LevelName() != p || a.DetourTileCache() == nil {
		t.Errorf("a failed load changed the level to %q", a.LevelName())
	}
}
