package session

import (
	"context"
	"sync"
	"testing"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
	"navviz/render"
	"navviz/scenario"
)

// terrainMesh returns terrain (seed 1) and its plain build's navmesh with
// the default settings, built once for the package's tests.
func terrainMesh(t *testing.T) (*level.Soup, *navmesh.Mesh) {
	t.Helper()
	terrainOnce.Do(func() {
		soup := level.Terrain(1)
		src, err := pipeline.NewSoupSource(soup, nil)
		if err != nil {
			terrainErr = err
			return
		}
		s := pipeline.DefaultSettings()
		b, err := pipeline.BuildLevel(context.Background(), &s, src, pipeline.BuildOptions{})
		if err != nil {
			terrainErr = err
			return
		}
		terrainSoup, terrainNav = soup, b.Mesh
	})
	if terrainErr != nil {
		t.Fatal(terrainErr)
	}
	return terrainSoup, terrainNav
}

var (
	terrainOnce sync.Once
	terrainSoup *level.Soup
	terrainNav  *navmesh.Mesh
	terrainErr  error
)

// TestPath: Sync searches once per change of the points, the level or the
// mesh, and Gen follows every change; points of another level are dropped;
// without a mesh the result says so.
func TestPath(t *testing.T) {
	soup, m := terrainMesh(t)
	c := soup.Bounds().Center()
	top := float64(soup.Bounds().Max.Y) + 10
	// a and z are two points of the mesh with a complete path between
	// them, from a grid around the level's centre.
	var pts []geom.Vec3
	for dz := -40.0; dz <= 40; dz += 8 {
		for dx := -40.0; dx <= 40; dx += 8 {
			if h, ok := render.PickPoly(m, [3]float64{float64(c.X) + dx, top, float64(c.Z) + dz}, [3]float64{0, -1, 0}, 0); ok {
				pts = append(pts, h.Pos)
			}
		}
	}
	var a, z geom.Vec3
	found := false
	for i := 0; i < len(pts) && !found; i++ {
		for j := i + 1; j < len(pts) && !found; j++ {
			if r := scenario.FindPath(m, pts[i], pts[j]); r.Err == "" && !r.Partial && len(r.Points) >= 2 {
				a, z, found = pts[i], pts[j], true
			}
		}
	}
	if !found {
		t.Fatalf("no connected pair among %d points", len(pts))
	}
	var p Path
	if p.Open() || p.Sync(m, soup) && p.Searches() != 0 {
		t.Fatalf("the zero path: open %v, %d searches", p.Open(), p.Searches())
	}
	if p.Sync(m, soup) {
		t.Error("a second Sync with nothing changed did something")
	}

	g0 := p.Gen()
	p.SetPoint(false, a, soup)
	if _, ok := p.Start(); !ok || !p.Open() || p.Gen() == g0 {
		t.Fatalf("SetPoint: start set %v, open %v, gen %d -> %d", ok, p.Open(), g0, p.Gen())
	}
	if !p.Sync(m, soup) || p.Searches() != 0 || p.Result().Points != nil {
		t.Errorf("one point: %d searches, result %+v", p.Searches(), p.Result())
	}
	p.SetPoint(true, z, soup)
	if !p.Sync(m, soup) || p.Searches() != 1 {
		t.Fatalf("two points: %d searches", p.Searches())
	}
	if r := p.Result(); r.Err != "" || len(r.Points) < 2 || len(r.Corridor) == 0 || r.LengthM <= 0 {
		t.Fatalf("no path: %+v", r)
	}
	g1 := p.Gen()
	if p.Sync(m, soup) || p.Searches() != 1 || p.Gen() != g1 {
		t.Error("Sync with nothing changed searched again or changed Gen")
	}

	// Another mesh value (a swap gives a new signature) searches again.
	if !p.Sync(nil, soup) || p.Result().Err != NoMeshErr || p.Searches() != 1 {
		t.Errorf("no mesh: err %q, %d searches", p.Result().Err, p.Searches())
	}
	if !p.Sync(m, soup) || p.Searches() != 2 || p.Result().Points == nil {
		t.Errorf("the mesh back: %d searches", p.Searches())
	}

	// Another level drops the points.
	other := level.Terrain(2)
	if !p.Sync(m, other) || p.Open() || p.Result().Points != nil {
		t.Errorf("another level: open %v, result %+v", p.Open(), p.Result())
	}
	p.SetPoint(false, a, other)
	p.SetPoint(true, z, soup)
	if _, ok := p.Start(); ok {
		t.Error("a point of the level before survived SetPoint on another one")
	}
	g2 := p.Gen()
	p.Clear()
	if p.Open() || p.Gen() == g2 {
		t.Errorf("Clear: open %v, gen %d -> %d", p.Open(), g2, p.Gen())
	}
	if MeshSig(nil) != 0 || MeshSig(m) == 0 {
		t.Error("MeshSig")
	}
}
