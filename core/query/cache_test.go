package query

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"navviz/core/geom"
	"navviz/core/level/leveltest"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
	"navviz/core/voxel"
	"navviz/tilecache"
)

// dungeonCache builds a tile cache of the dungeon with settings s.
func dungeonCache(t *testing.T, s *pipeline.NavSettings) *tilecache.Cache {
	t.Helper()
	c, err := tilecache.BuildSoup(context.Background(), s, leveltest.Load(t, "dungeon"), tilecache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// checkAreaFlags fails unless every polygon of m has the flags
// NavSettings.AreaFlags gives its area, and returns how many polygons of
// area a there are.
func checkAreaFlags(t *testing.T, m *navmesh.Mesh, s *pipeline.NavSettings, a uint8) int {
	t.Helper()
	n := 0
	for _, r := range allPolys(m) {
		area, _ := m.PolyArea(r)
		flags, _ := m.PolyFlags(r)
		if flags != s.AreaFlags[area] {
			t.Fatalf("polygon %#x of area %d has flags %#x, want %#x", r, area, flags, s.AreaFlags[area])
		}
		if area == a {
			n++
		}
	}
	return n
}

// TestAreaFlagsSurviveSwaps: a volume of area 5, whose AreaFlags are 2
// ("swim"), keeps its polygons' flags on the tiles the cache swaps after
// an obstacle lands in it, and a filter that excludes swim keeps paths
// out of it before and after.
func TestAreaFlagsSurviveSwaps(t *testing.T) {
	const swim, water = 2, 5
	s := pipeline.DefaultSettings()
	s.AreaFlags[water] = swim
	m0 := levelMesh(t, "dungeon")
	polys := allPolys(m0)
	p := pointOnPoly(t, m0, polys[len(polys)/2], rand.New(rand.NewPCG(7, 7)))
	s.Volumes = []voxel.ConvexVolume{{
		VertsXZ: [][2]float32{{p.X - 4, p.Z - 4}, {p.X + 4, p.Z - 4}, {p.X + 4, p.Z + 4}, {p.X - 4, p.Z + 4}},
		MinYM:   p.Y - 2, MaxYM: p.Y + 2, Area: water,
	}}
	// The plain build applies the table too.
	src, err := pipeline.NewSoupSource(leveltest.Load(t, "dungeon"), nil)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := pipeline.BuildLevel(context.Background(), &s, src, pipeline.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := checkAreaFlags(t, plain.Mesh, &s, water); n == 0 {
		t.Fatal("the volume made no polygon of its area")
	}
	c := dungeonCache(t, &s)
	m := c.Mesh()
	checkAreaFlags(t, m, &s, water)
	if _, err := c.AddObstacle(voxel.Cylinder(geom.V3(p.X+1, p.Y-0.5, p.Z), 0.7, 2)); err != nil {
		t.Fatal(err)
	}
	res, err := c.UpdateAll()
	if err != nil {
		t.Fatal(err)
	}
	swapped := 0
	for _, tu := range res.Tiles {
		for _, tr := range m.TilesAt(int32(tu.TX), int32(tu.TZ)) {
			tile, _ := m.Tile(tr)
			for i := range tile.Polys {
				if tile.Polys[i].Area == water {
					swapped++
				}
			}
		}
	}
	if swapped == 0 {
		t.Fatal("no polygon of the volume's area on a swapped tile")
	}
	checkAreaFlags(t, m, &s, water)
	// A filter without swim never crosses the water.
	f := DefaultFilter()
	f.ExcludeFlags = swim
	rng := rand.New(rand.NewPCG(8, 8))
	all := allPolys(m)
	for k := 0; k < 50; k++ {
		a := pointOnPoly(t, m, all[rng.IntN(len(all))], rng)
		b := pointOnPoly(t, m, all[rng.IntN(len(all))], rng)
		sr, sp, err1 := NearestPolyFiltered(m, a, geom.V3(2, 4, 2), f)
		er, ep, err2 := NearestPolyFiltered(m, b, geom.V3(2, 4, 2), f)
		if err1 != nil || err2 != nil {
			continue
		}
		corridor, err := FindPath(m, sr, er, sp, ep, f)
		if err != nil && !errors.Is(err, ErrPartial) {
			t.Fatal(err)
		}
		for _, r := range corridor {
			if fl, _ := m.PolyFlags(r); fl&swim != 0 {
				t.Fatalf("pair %d: corridor crosses %#x with flags %#x", k, r, fl)
			}
		}
	}
}

// TestEditHistories: random histories of obstacle adds, removes and
// partial updates on the dungeon's tile cache. After every step, a
// corridor planned before it either still works (every ref valid: the
// straight path succeeds) or every query on it errors naming a stale ref
// (never a panic); a search sliced across the step ends with an error or
// a corridor of valid, linked polygons; and re-planning from the same
// points gives a valid corridor and straight path.
func TestEditHistories(t *testing.T) {
	s := pipeline.DefaultSettings()
	c := dungeonCache(t, &s)
	m := c.Mesh()
	rng := rand.New(rand.NewPCG(9, 9))
	var ids []tilecache.ObstacleID
	stale := 0
	for step := 0; step < 40; step++ {
		all := allPolys(m)
		a := pointOnPoly(t, m, all[rng.IntN(len(all))], rng)
		b := pointOnPoly(t, m, all[rng.IntN(len(all))], rng)
		sr, sp, err1 := NearestPoly(m, a, geom.V3(2, 4, 2))
		er, ep, err2 := NearestPoly(m, b, geom.V3(2, 4, 2))
		if err1 != nil || err2 != nil {
			t.Fatalf("step %d: %v %v", step, err1, err2)
		}
		corridor, err := FindPath(m, sr, er, sp, ep, nil)
		if err != nil && !errors.Is(err, ErrPartial) {
			t.Fatal(err)
		}
		search, err := NewPathSearch(m, sr, er, sp, ep, nil, PathLimits{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := search.Step(5); err != nil {
			t.Fatal(err)
		}
		// The edit: add near a corridor polygon, remove, or a partial update.
		switch op := rng.IntN(3); {
		case op == 0 || len(ids) == 0:
			q := pointOnPoly(t, m, corridor[rng.IntN(len(corridor))], rng)
			id, err := c.AddObstacle(voxel.Cylinder(geom.V3(q.X, q.Y-0.5, q.Z), 0.5+rng.Float32(), 2))
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		case op == 1:
			k := rng.IntN(len(ids))
			if err := c.RemoveObstacle(ids[k]); err != nil {
				t.Fatal(err)
			}
			ids = append(ids[:k], ids[k+1:]...)
		}
		if _, err := c.Update(1 + rng.IntN(4)); err != nil {
			t.Fatal(err)
		}
		valid := true
		for _, r := range corridor {
			valid = valid && m.IsValidRef(r)
		}
		_, err = StraightPath(m, sp, ep, corridor)
		_, cerr := CorridorCost(m, sp, ep, corridor, nil)
		if !valid {
			stale++
			if err == nil || cerr == nil {
				t.Fatalf("step %d: a corridor with stale refs answered (%v, %v)", step, err, cerr)
			}
		}
		if _, err := search.Step(0); err == nil {
			if got, err := search.Result(); err == nil || errors.Is(err, ErrPartial) {
				for _, r := range got {
					if !m.IsValidRef(r) {
						t.Fatalf("step %d: sliced search returned stale %#x", step, r)
					}
				}
				checkCorridor(t, m, got)
			}
		}
		// Re-plan.
		sr, sp, err1 = NearestPoly(m, a, geom.V3(2, 4, 2))
		er, ep, err2 = NearestPoly(m, b, geom.V3(2, 4, 2))
		if err1 != nil || err2 != nil {
			continue // the obstacle covers a point
		}
		corridor, err = FindPath(m, sr, er, sp, ep, nil)
		if err != nil && !errors.Is(err, ErrPartial) {
			t.Fatalf("step %d: re-plan: %v", step, err)
		}
		checkCorridor(t, m, corridor)
		end := ep
		if err != nil {
			end, _ = ClosestPointOnPoly(m, corridor[len(corridor)-1], ep)
		}
		if _, err := StraightPath(m, sp, end, corridor); err != nil {
			t.Fatalf("step %d: re-planned straight path: %v", step, err)
		}
	}
	t.Logf("%d of 40 old corridors went stale", stale)
	if stale == 0 {
		t.Error("no corridor went stale: the histories test nothing")
	}
}
