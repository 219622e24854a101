package query

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"navviz/core/geom"
	"navviz/core/level/leveltest"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
)

func lenXZ(pts []geom.Vec3) float64 {
	s := 0.0
	for i := 1; i < len(pts); i++ {
		s += math.Hypot(float64(pts[i].X)-float64(pts[i-1].X), float64(pts[i].Z)-float64(pts[i-1].Z))
	}
	return s
}

// TestDungeonRandomPairs runs many seeded pairs of polygons of the
// dungeon: every corridor follows links (complete, or flagged partial),
// the straight path starts and ends at the inputs, its corners are portal
// ends of the corridor, and in plan it is no longer than the polyline
// through the portals' midpoints (which lies inside the corridor).
func TestDungeonRandomPairs(t *testing.T) {
	m := dungeonMesh(t, 0)
	var polys []navmesh.PolyRef
	for _, tr := range m.Tiles() {
		tile, _ := m.Tile(tr)
		for i := range tile.Polys {
			polys = append(polys, tr.Poly(uint32(i)))
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	complete, partial := 0, 0
	for k := 0; k < 300; k++ {
		a, b := polys[rng.IntN(len(polys))], polys[rng.IntN(len(polys))]
		sp, _ := ClosestPointOnPoly(m, a, centre(t, m, a))
		ep, _ := ClosestPointOnPoly(m, b, centre(t, m, b))
		corridor, err := FindPath(m, a, b, sp, ep, nil)
		end := ep
		switch {
		case err == nil:
			complete++
			if corridor[len(corridor)-1] != b {
				t.Fatalf("pair %d: complete corridor ends at %#x, want %#x", k, corridor[len(corridor)-1], b)
			}
		case errors.Is(err, ErrPartial):
			partial++
			end, _ = ClosestPointOnPoly(m, corridor[len(corridor)-1], ep)
		default:
			t.Fatalf("pair %d: %v", k, err)
		}
		if corridor[0] != a {
			t.Fatalf("pair %d: corridor starts at %#x, want %#x", k, corridor[0], a)
		}
		checkCorridor(t, m, corridor)
		again, _ := FindPath(m, a, b, sp, ep, nil)
		if len(again) != len(corridor) {
			t.Fatalf("pair %d: a second search differs", k)
		}
		pts, err := StraightPath(m, sp, end, corridor)
		if err != nil {
			t.Fatalf("pair %d: %v", k, err)
		}
		if pts[0] != sp || pts[len(pts)-1] != end {
			t.Fatalf("pair %d: straight path %v..%v, want %v..%v", k, pts[0], pts[len(pts)-1], sp, end)
		}
		mids := []geom.Vec3{sp}
		ends := map[geom.Vec3]bool{}
		for i := 0; i+1 < len(corridor); i++ {
			l, r, err := Portal(m, corridor[i], corridor[i+1])
			if err != nil {
				t.Fatal(err)
			}
			mids = append(mids, midpoint(l, r))
			ends[l], ends[r] = true, true
		}
		mids = append(mids, end)
		for i := 1; i+1 < len(pts); i++ {
			if !ends[pts[i]] {
				t.Fatalf("pair %d: corner %d %v is no portal end", k, i, pts[i])
			}
		}
		if got, bound := lenXZ(pts), lenXZ(mids); got > bound*(1+1e-6)+1e-4 {
			t.Fatalf("pair %d: straight path %.4f m in plan, longer than the midpoint path %.4f m", k, got, bound)
		}
	}
	t.Logf("%d complete, %d partial", complete, partial)
	if complete == 0 {
		t.Error("no complete path")
	}
}

// TestNoPanics throws odd input at every entry point.
func TestNoPanics(t *testing.T) {
	m := meshOf(t, tileData(t, square(0, 0, 5), 0, 0))
	r := m.Tiles()[0].Poly(0)
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	pts := []geom.Vec3{{}, {X: nan}, {Y: inf}, {X: 1e30, Y: -1e30, Z: 1e30}}
	refs := []navmesh.PolyRef{0, r, r + 1, r + 1<<40, ^navmesh.PolyRef(0)}
	rng := rand.New(rand.NewPCG(1, 1))
	zero := &Filter{}
	for _, p := range pts {
		NearestPoly(m, p, ext)
		NearestPoly(m, p, p)
		NearestPolyFiltered(m, p, ext, zero)
		QueryPolygons(m, p, p, nil)
		PolysAroundShape(m, r, []geom.Vec3{p, p, p}, nil)
		for _, radius := range []float64{-1, 0, 1, math.Inf(1), math.NaN()} {
			PolysAroundCircle(m, r, p, radius, nil)
			DistanceToWall(m, r, p, radius, nil)
			RandomPointAroundCircle(m, r, p, radius, nil, rng)
		}
		for _, a := range refs {
			ClosestPointOnPoly(m, a, p)
			ClosestPointOnPolyBoundary(m, a, p)
			PolyHeight(m, a, p)
			PolyWallSegments(m, a, zero)
			MoveAlongSurface(m, a, p, geom.Vec3{}, nil)
			MoveAlongSurface(m, a, geom.V3(1, 1, 1), p, nil)
			for _, b := range refs {
				FindPath(m, a, b, p, p, nil)
				StraightPath(m, p, p, []navmesh.PolyRef{a, b})
				StraightPathDetailed(m, p, p, []navmesh.PolyRef{a, b}, CrossAll)
				CorridorCost(m, p, p, []navmesh.PolyRef{a, b}, nil)
				FindPathLimited(m, a, b, p, p, zero, PathLimits{MaxNodes: 1, MaxPath: 1})
				Portal(m, a, b)
				Raycast(m, a, p, p, nil)
				Raycast(m, a, geom.Vec3{}, p, nil)
			}
		}
	}
	RandomPoint(m, nil, nil)
	RandomPoint(nil, nil, rng)
	RandomPoint(m, zero, rng)
	if _, err := FindPath(nil, r, r, geom.Vec3{}, geom.Vec3{}, nil); err == nil {
		t.Error("nil mesh accepted")
	}
	if _, err := StraightPath(nil, geom.Vec3{}, geom.Vec3{}, []navmesh.PolyRef{r}); err == nil {
		t.Error("nil mesh accepted")
	}
}

// TestCityFarPath finds a path between the two farthest connected
// polygons of the generated city (bridges: several layers).
func TestCityFarPath(t *testing.T) {
	soup := leveltest.Soup(t, "city")
	src, err := pipeline.NewSoupSource(soup, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := pipeline.DefaultSettings()
	b, err := pipeline.BuildLevel(context.Background(), &s, src, pipeline.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := b.Mesh
	a, z := farPair(t, m)
	sp, _ := ClosestPointOnPoly(m, a, centre(t, m, a))
	ep, _ := ClosestPointOnPoly(m, z, centre(t, m, z))
	corridor, err := FindPath(m, a, z, sp, ep, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkCorridor(t, m, corridor)
	pts, err := StraightPath(m, sp, ep, corridor)
	if err != nil {
		t.Fatal(err)
	}
	if pts[0] != sp || pts[len(pts)-1] != ep {
		t.Errorf("straight path %v..%v, want %v..%v", pts[0], pts[len(pts)-1], sp, ep)
	}
	t.Logf("city: corridor %d polygons, %d corners, %.1f m", len(corridor), len(pts), PathLength(pts))
}

func TestRaycast(t *testing.T) {
	// The L of three tiles: (0,0), (1,0), (1,1).
	m := meshOf(t, tileData(t, square(0, 0, 5), 0, 0), tileData(t, square(1, 0, 5), 1, 0), tileData(t, square(1, 1, 5), 1, 1))
	tiles := m.Tiles()
	sr := tiles[0].Poly(0)
	// Along x into the next tile: reaches the end.
	h, err := Raycast(m, sr, geom.V3(0.5, 1, 1.5), geom.V3(5.5, 1, 1.5), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !h.Reached() || len(h.Path) != 2 || h.Path[1] != tiles[1].Poly(0) {
		t.Errorf("straight run: %+v", h)
	}
	// Towards +z out of tile (0,0): a wall at z = 3.
	h, err = Raycast(m, sr, geom.V3(1.5, 1, 1.5), geom.V3(1.5, 1, 4.5), nil)
	if err != nil {
		t.Fatal(err)
	}
	if h.Reached() || math.Abs(h.T-0.5) > 1e-6 || h.Normal != geom.V3(0, 0, -1) || len(h.Path) != 1 {
		t.Errorf("wall: %+v, want T 0.5, normal -z", h)
	}
	// Diagonal around the inner corner: hits the wall of tile (1,0) at
	// x = 3..6, z = 3? The line (0.5,1)->(4.5,5.5) crosses x = 3 at
	// z = 3.8125, outside tile (0,0): the wall z = 3 of tile (0,0) first.
	h, _ = Raycast(m, sr, geom.V3(0.5, 1, 1), geom.V3(4.5, 1, 5.5), nil)
	if h.Reached() || len(h.Path) != 1 {
		t.Errorf("corner: %+v", h)
	}
	// Start outside its polygon.
	h, _ = Raycast(m, sr, geom.V3(-1, 1, 1), geom.V3(1, 1, 1), nil)
	if h.T != 0 || h.Normal != geom.V3(-1, 0, 0) {
		t.Errorf("outside: %+v", h)
	}
	// A filter that rejects the next tile makes its portal a wall.
	f := DefaultFilter()
	f.ExcludeFlags = 4
	if err := m.SetPolyFlags(tiles[1].Poly(0), 4); err != nil {
		t.Fatal(err)
	}
	h, _ = Raycast(m, sr, geom.V3(1.5, 1, 1.5), geom.V3(4.5, 1, 1.5), f)
	if h.Reached() || math.Abs(h.T-0.5) > 1e-6 || h.Normal != geom.V3(-1, 0, 0) {
		t.Errorf("filtered: %+v", h)
	}
	if _, err := Raycast(m, sr+1<<40, geom.Vec3{}, geom.Vec3{}, nil); err == nil {
		t.Error("stale ref accepted")
	}
}

// TestDungeonRaycastAgreesWithPath: a ray that reaches its end crosses
// polygons each linked to the next, and a ray between the ends of a
// straight path's first leg (which lies in the corridor) reaches its end.
func TestDungeonRaycastAgreesWithPath(t *testing.T) {
	m := dungeonMesh(t, 0)
	a, b := farPair(t, m)
	sp, _ := ClosestPointOnPoly(m, a, centre(t, m, a))
	ep, _ := ClosestPointOnPoly(m, b, centre(t, m, b))
	corridor, err := FindPath(m, a, b, sp, ep, nil)
	if err != nil {
		t.Fatal(err)
	}
	pts, _ := StraightPath(m, sp, ep, corridor)
	h, err := Raycast(m, a, pts[0], pts[1], nil)
	if err != nil {
		t.Fatal(err)
	}
	checkCorridor(t, m, h.Path)
	if !h.Reached() {
		t.Errorf("first leg %v-%v blocked at T %v after %d polygons", pts[0], pts[1], h.T, len(h.Path))
	}
	// Straight at the far end: blocked somewhere (the dungeon has walls).
	h, err = Raycast(m, a, sp, ep, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkCorridor(t, m, h.Path)
	if h.Reached() && len(pts) > 2 {
		t.Logf("straight ray reached the end though the path turns %d times", len(pts)-2)
	}
}

// TestRaycastStartOnEdge: a start that rounding put a few micrometres
// outside startRef (a point NearestPoly put on an edge or corner) counts
// as on the edge, within StartSlackM; further out the ray stops at once.
// The tile is split at x = 1.5 m into two quads (z 0..3).
func TestRaycastStartOnEdge(t *testing.T) {
	m := meshOf(t, tileData(t, twoColumns(0, 0, 5), 0, 0))
	tr := m.Tiles()[0]
	left, right := tr.Poly(0), tr.Poly(1)
	const off = 5e-6 // rounding: well inside StartSlackM
	for _, tc := range []struct {
		name       string
		start, end geom.Vec3
		wantT      float64 // +Inf: reaches end
		wantPath   []navmesh.PolyRef
	}{
		{"on the portal, out by rounding, heading across", geom.V3(1.5+off, 1, 1.5), geom.V3(2.5, 1, 1.5), math.Inf(1), []navmesh.PolyRef{left, right}},
		{"on the portal, out by rounding, heading back", geom.V3(1.5+off, 1, 1.5), geom.V3(-1.5, 1, 1.5), (1.5 + off) / (3 + off), []navmesh.PolyRef{left}},
		{"on the wall, out by rounding, heading in", geom.V3(-off, 1, 1.5), geom.V3(2.5, 1, 1.5), math.Inf(1), []navmesh.PolyRef{left, right}},
		{"on the wall, out by rounding, heading out", geom.V3(-off, 1, 1.5), geom.V3(-1, 1, 1.5), 0, []navmesh.PolyRef{left}},
		{"on a corner, out by rounding, along the portal", geom.V3(1.5+off, 1, -off), geom.V3(1.5+off, 1, 2), math.Inf(1), nil},
		{"1 mm outside", geom.V3(-0.001, 1, 1.5), geom.V3(1, 1, 1.5), 0, []navmesh.PolyRef{left}},
	} {
		h, err := Raycast(m, left, tc.start, tc.end, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if math.IsInf(tc.wantT, 1) != h.Reached() || !h.Reached() && math.Abs(h.T-tc.wantT) > 1e-6 {
			t.Errorf("%s: T %v, want %v", tc.name, h.T, tc.wantT)
		}
		if tc.wantPath != nil && !slices.Equal(h.Path, tc.wantPath) {
			t.Errorf("%s: path %#x, want %#x", tc.name, h.Path, tc.wantPath)
		}
	}
}

// TestStraightPathStartOnSharedCorner: three triangles fan around the
// corner V = (1.5, 1, 0) m; both portals of the corridor end at V. A path
// from V (its height, or its x and z, off by rounding) into the last
// triangle runs straight to the end: the funnel takes a start within
// samePointEpsM of a portal end for that end, and turns at no corner.
func TestStraightPathStartOnSharedCorner(t *testing.T) {
	verts := [][3]uint16{{0, 5, 0}, {0, 5, 10}, {5, 5, 0}, {10, 5, 10}, {10, 5, 0}}
	fan := handMesh(0, 0, verts, [][2][]uint16{
		{{0, 1, 2}, {pNegX, 1, pNegZ}},
		{{2, 1, 3}, {0, pPosZ, 2}},
		{{2, 3, 4}, {1, pPosX, pNegZ}},
	})
	m := meshOf(t, tileData(t, fan, 0, 0))
	tr := m.Tiles()[0]
	corridor := []navmesh.PolyRef{tr.Poly(0), tr.Poly(1), tr.Poly(2)}
	end := geom.V3(2.7, 1, 0.3)
	for _, tc := range []struct {
		name  string
		start geom.Vec3
	}{
		{"exactly at V", geom.V3(1.5, 1, 0)},
		{"at V, 1 cm higher", geom.V3(1.5, 1.01, 0)},
		{"at V, x and z off by 1e-6", geom.V3(1.5-1e-6, 1, 1e-6)},
	} {
		pts, err := StraightPath(m, tc.start, end, corridor)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(pts) != 2 || pts[0] != tc.start || pts[1] != end {
			t.Errorf("%s: straight path %v, want [%v %v]", tc.name, pts, tc.start, end)
		}
	}
}
