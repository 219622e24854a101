package query

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"navviz/core/geom"
	"navviz/core/navmesh"
	"pgregory.net/rapid"
)

// twoRoutes is one tile of four quads: S (x 0..3 cells, all z) on the
// left, E (x 7..10) on the right, and between them A (z 6..10) and B
// (z 0..4), which do not touch. S and E meet A and B on x = 3 and x = 7
// (vertices at z 4 and 6 split their long sides). Portal midpoints, m:
// S|A (0.9, 2.4), S|B (0.9, 0.6), A|E (2.1, 2.4), B|E (2.1, 0.6).
func twoRoutes(t testing.TB) (*navmesh.Mesh, [4]navmesh.PolyRef) {
	verts := [][3]uint16{
		{0, 5, 0}, {0, 5, 10}, {3, 5, 10}, {3, 5, 6}, {3, 5, 4}, {3, 5, 0},
		{7, 5, 10}, {7, 5, 6}, {7, 5, 4}, {7, 5, 0}, {10, 5, 10}, {10, 5, 0},
	}
	pm := handMesh(0, 0, verts, [][2][]uint16{
		{{0, 1, 2, 3, 4, 5}, {pNegX, pPosZ, 1, null, 2, pNegZ}},   // S
		{{3, 2, 6, 7}, {0, pPosZ, 3, null}},                       // A
		{{5, 4, 8, 9}, {0, null, 3, pNegZ}},                       // B
		{{9, 8, 7, 6, 10, 11}, {2, null, 1, pPosZ, pPosX, pNegZ}}, // E
	})
	m := meshOf(t, tileData(t, pm, 0, 0))
	tr := m.Tiles()[0]
	return m, [4]navmesh.PolyRef{tr.Poly(0), tr.Poly(1), tr.Poly(2), tr.Poly(3)}
}

// TestSearchRulesDiffer pins SearchDetour where the rules part, from
// (0.15, 0.3) low in S to (2.85, 2.85) high in E. B is expanded first (its
// total 0.81 + 2.98 beats A's 2.23 + 2.00), so E's record is made with
// the entry point B|E (2.1, 0.6); A reaches E's record at that fixed point
// (6.77, dearer than B's 4.38) and never at A|E: SearchDetour gives S B E.
// SearchOptimal costs S A E through A|E (4.30 < 4.38) and takes it; its
// straight path is the shorter (3.89 m against 3.96 m).
func TestSearchRulesDiffer(t *testing.T) {
	m, p := twoRoutes(t)
	S, A, B, E := p[0], p[1], p[2], p[3]
	start, end := geom.V3(0.15, 1, 0.3), geom.V3(2.85, 1, 2.85)
	for _, tc := range []struct {
		rule     SearchRule
		corridor []navmesh.PolyRef
		cost     float64 // CorridorCost, §3's model
		length   float64 // straight path, m
	}{
		{SearchOptimal, []navmesh.PolyRef{S, A, E}, 4.3046, 3.8918},
		{SearchDetour, []navmesh.PolyRef{S, B, E}, 4.3795, 3.9601},
	} {
		got, err := FindPathLimited(m, S, E, start, end, nil, PathLimits{Rule: tc.rule})
		if err != nil {
			t.Fatalf("%v: %v", tc.rule, err)
		}
		if !slices.Equal(got, tc.corridor) {
			t.Errorf("%v: corridor %#x, want %#x", tc.rule, got, tc.corridor)
		}
		cost, err := CorridorCost(m, start, end, got, nil)
		if err != nil || math.Abs(cost-tc.cost) > 1e-4 {
			t.Errorf("%v: cost %v (%v), want %v", tc.rule, cost, err, tc.cost)
		}
		pts, err := StraightPath(m, start, end, got)
		if err != nil || math.Abs(PathLength(pts)-tc.length) > 1e-4 {
			t.Errorf("%v: straight path %v (%v), %v m, want %v m", tc.rule, pts, err, PathLength(pts), tc.length)
		}
	}
	// Ending low in E, both take S B E; start and end in one polygon: the
	// corridor is that polygon.
	for _, rule := range []SearchRule{SearchOptimal, SearchDetour} {
		got, err := FindPathLimited(m, S, E, start, geom.V3(2.85, 1, 0.3), nil, PathLimits{Rule: rule})
		if err != nil || !slices.Equal(got, []navmesh.PolyRef{S, B, E}) {
			t.Errorf("%v, low end: %#x %v, want S B E", rule, got, err)
		}
		got, err = FindPathLimited(m, A, A, geom.V3(1.2, 1, 2.4), geom.V3(1.8, 1, 2.7), nil, PathLimits{Rule: rule})
		if err != nil || !slices.Equal(got, []navmesh.PolyRef{A}) {
			t.Errorf("%v, one polygon: %#x %v, want A", rule, got, err)
		}
	}
}

// TestDetourRecordsPerSide pins SearchDetour's records: one per polygon
// and tile side entered across, with a link across the +x border sharing
// the record of the links inside the tile (Detour's node state, side / 2).
// Two tiles of two quads each, S and A in the first tile, B and E in the
// second; S|A and B|E inside a tile, S|B and A|E across the border.
//   - Along x (tiles (0,0) and (1,0), S under A): from (0.2, 0.1) to
//     (3.6, 1.6) m B is expanded first (total 3.91 against A's 4.01) and
//     makes E's record at B|E's midpoint (4.5, 1.5); A enters E across the
//     +x border into that same record, at that point, for 5.82 > 5.46:
//     S B E, though S A E through A|E (3, 2.25) costs 4.47.
//   - The same mesh and points with x and z swapped (tiles (0,0) and
//     (0,1)): A enters E across the +z border, a record of its own at
//     A|E's midpoint, and SearchDetour takes S A E like SearchOptimal.
func TestDetourRecordsPerSide(t *testing.T) {
	for _, tc := range []struct {
		name       string
		side       uint8
		tiles      [2][2]int32
		start, end geom.Vec3
		want       string
	}{
		{"across +x", navmesh.DirPosX, [2][2]int32{{0, 0}, {1, 0}}, geom.V3(0.2, 1, 0.1), geom.V3(3.6, 1, 1.6), "SBE"},
		{"across +z", navmesh.DirPosZ, [2][2]int32{{0, 0}, {0, 1}}, geom.V3(0.1, 1, 0.2), geom.V3(1.6, 1, 3.6), "SAE"},
	} {
		var tiles [][]byte
		for _, tt := range tc.tiles {
			pm := twoColumns(tt[0], tt[1], 5) // split at x = 1.5 m: the +z case
			if tc.side == navmesh.DirPosX {
				y := uint16(5) // split at z = 1.5 m
				pm = handMesh(tt[0], tt[1], [][3]uint16{{0, y, 0}, {0, y, 5}, {10, y, 5}, {10, y, 0}, {0, y, 10}, {10, y, 10}},
					[][2][]uint16{{{0, 1, 2, 3}, {pNegX, 1, pPosX, pNegZ}}, {{1, 4, 5, 2}, {pNegX, pPosZ, pPosX, 0}}})
			}
			tiles = append(tiles, tileData(t, pm, tt[0], tt[1]))
		}
		m := meshOf(t, tiles...)
		tr := m.Tiles()
		names := map[navmesh.PolyRef]string{tr[0].Poly(0): "S", tr[0].Poly(1): "A", tr[1].Poly(0): "B", tr[1].Poly(1): "E"}
		ls, _ := m.Links(tr[0].Poly(1))
		if !slices.ContainsFunc(ls, func(l navmesh.Link) bool { return l.Ref == tr[1].Poly(1) && l.Side == tc.side }) {
			t.Fatalf("%s: A has no link to E across side %d: %+v", tc.name, tc.side, ls)
		}
		for _, rule := range []SearchRule{SearchOptimal, SearchDetour} {
			c, err := FindPathLimited(m, tr[0].Poly(0), tr[1].Poly(1), tc.start, tc.end, nil, PathLimits{Rule: rule})
			got := ""
			for _, r := range c {
				got += names[r]
			}
			want := tc.want
			if rule == SearchOptimal {
				want = "SAE"
			}
			if err != nil || got != want {
				t.Errorf("%s, %v: corridor %s (%v), want %s", tc.name, rule, got, err, want)
			}
		}
	}
}

func TestDetourEntry(t *testing.T) {
	for _, tc := range []struct {
		side uint8
		want uint64
	}{{navmesh.InternalSide, 0}, {navmesh.DirPosX, 0}, {navmesh.DirPosZ, 1}, {navmesh.DirNegX, 2}, {navmesh.DirNegZ, 3}} {
		if got := detourEntry(navmesh.Link{Side: tc.side}); got != tc.want {
			t.Errorf("side %#x: record %d, want %d", tc.side, got, tc.want)
		}
	}
}

func TestParseSearchRule(t *testing.T) {
	for _, tc := range []struct {
		name string
		want SearchRule
		err  bool
	}{{"optimal", SearchOptimal, false}, {"detour", SearchDetour, false}, {"Detour", 0, true}, {"", 0, true}} {
		got, err := ParseSearchRule(tc.name)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("ParseSearchRule(%q) = %v, %v", tc.name, got, err)
		}
		if !tc.err && got.String() != tc.name {
			t.Errorf("%v.String() = %q, want %q", got, got.String(), tc.name)
		}
	}
	m, p := twoRoutes(t)
	if _, err := FindPathLimited(m, p[0], p[3], geom.V3(0.15, 1, 0.3), geom.V3(2.85, 1, 2.85), nil, PathLimits{Rule: 2}); err == nil {
		t.Error("rule 2 accepted")
	}
}

// TestSearchRulesSeededPairs: 300 seeded pairs per level (points on the
// surface, a third 0.5 m above it), both rules. Checks that need no
// Detour: the same status under both, partial exactly when breadth-first
// search cannot reach the end polygon; every corridor starts at the start
// polygon, follows links, never steps straight back, and a complete one
// ends at the end polygon; SearchDetour's corridor costs no less than
// SearchOptimal's (§3's model); a search sliced one state at a time gives
// the same corridor; the straight path runs from start to end, every
// corner is an end of a portal of the corridor, it is no shorter than the
// straight line and in plan no longer than the polyline through the
// portal midpoints.
func TestSearchRulesSeededPairs(t *testing.T) {
	for _, tc := range []struct {
		level string
		seed  uint64
	}{{"dungeon", 21}, {"nav_test", 22}, {"city", 23}} {
		t.Run(tc.level, func(t *testing.T) {
			m := levelMesh(t, tc.level)
			polys := allPolys(m)
			rng := rand.New(rand.NewPCG(tc.seed, 7))
			complete, differ := 0, 0
			for k := 0; k < 300; k++ {
				a := pointOnPoly(t, m, polys[rng.IntN(len(polys))], rng)
				b := pointOnPoly(t, m, polys[rng.IntN(len(polys))], rng)
				if rng.IntN(3) == 0 {
					a.Y += 0.5
					b.Y += 0.5
				}
				sr, sp, err := NearestPoly(m, a, geom.V3(2, 4, 2))
				if err != nil {
					t.Fatal(err)
				}
				er, ep, err := NearestPoly(m, b, geom.V3(2, 4, 2))
				if err != nil {
					t.Fatal(err)
				}
				_, reachable := bfs(m, sr)[er]
				var corridors [2][]navmesh.PolyRef
				for ri, rule := range []SearchRule{SearchOptimal, SearchDetour} {
					corridor, err := FindPathLimited(m, sr, er, sp, ep, nil, PathLimits{Rule: rule})
					if partial := errors.Is(err, ErrPartial); err != nil && !partial || partial == reachable {
						t.Fatalf("pair %d, %v: %v, end reachable %v", k, rule, err, reachable)
					}
					checkSearchCorridor(t, m, corridor, sr)
					end := ep
					if reachable {
						if corridor[len(corridor)-1] != er {
							t.Fatalf("pair %d, %v: complete corridor ends at %#x, want %#x", k, rule, corridor[len(corridor)-1], er)
						}
					} else if end, err = ClosestPointOnPoly(m, corridor[len(corridor)-1], ep); err != nil {
						t.Fatal(err)
					}
					s, err := NewPathSearch(m, sr, er, sp, ep, nil, PathLimits{Rule: rule})
					if err != nil {
						t.Fatal(err)
					}
					for done := false; !done; {
						if done, err = s.Step(1); err != nil {
							t.Fatal(err)
						}
					}
					if sliced, _ := s.Result(); !slices.Equal(sliced, corridor) {
						t.Fatalf("pair %d, %v: sliced search %#x, want %#x", k, rule, sliced, corridor)
					}
					checkStraightInCorridor(t, m, sp, end, corridor)
					corridors[ri] = corridor
				}
				if !reachable {
					continue
				}
				complete++
				if !slices.Equal(corridors[0], corridors[1]) {
					differ++
				}
				co, _ := CorridorCost(m, sp, ep, corridors[0], nil)
				cd, _ := CorridorCost(m, sp, ep, corridors[1], nil)
				if cd < co*(1-1e-9) {
					t.Fatalf("pair %d: detour corridor costs %v, below the optimal %v", k, cd, co)
				}
			}
			t.Logf("%s: %d of 300 complete, corridors differ in %d", tc.level, complete, differ)
			if complete == 0 {
				t.Error("no complete path")
			}
		})
	}
}

// checkSearchCorridor fails unless corridor starts at start, follows
// links and never steps straight back (P Q P).
func checkSearchCorridor(t testing.TB, m *navmesh.Mesh, corridor []navmesh.PolyRef, start navmesh.PolyRef) {
	t.Helper()
	if len(corridor) == 0 || corridor[0] != start {
		t.Fatalf("corridor %#x does not start at %#x", corridor, start)
	}
	checkCorridor(t, m, corridor)
	for i := 0; i+2 < len(corridor); i++ {
		if corridor[i] == corridor[i+2] {
			t.Fatalf("corridor %#x steps straight back at %d", corridor, i+1)
		}
	}
}

// checkStraightInCorridor fails unless the straight path through corridor
// runs from sp to ep, turns only at ends of the corridor's portals, is no
// shorter than the straight line and in plan no longer than the polyline
// through the portal midpoints (which lies inside the corridor).
func checkStraightInCorridor(t testing.TB, m *navmesh.Mesh, sp, ep geom.Vec3, corridor []navmesh.PolyRef) {
	t.Helper()
	pts, err := StraightPath(m, sp, ep, corridor)
	if err != nil {
		t.Fatal(err)
	}
	if pts[0] != sp || pts[len(pts)-1] != ep {
		t.Fatalf("straight path %v..%v, want %v..%v", pts[0], pts[len(pts)-1], sp, ep)
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
	mids = append(mids, ep)
	for i := 1; i+1 < len(pts); i++ {
		if !ends[pts[i]] {
			t.Fatalf("corner %d %v of the straight path is no portal end of corridor %#x", i, pts[i], corridor)
		}
	}
	if PathLength(pts) < dist3(sp, ep)*(1-1e-9) {
		t.Fatalf("straight path %.6f m, shorter than the straight line %.6f m", PathLength(pts), dist3(sp, ep))
	}
	if got, bound := lenXZ(pts), lenXZ(mids); got > bound*(1+1e-6)+1e-4 {
		t.Fatalf("straight path %.4f m in plan, longer than the midpoint path %.4f m", got, bound)
	}
}

// TestFindPathDetourRule: on the random small meshes of TestFindPathOptimal
// SearchDetour finds a route exactly when one exists, its corridor costs
// no less than the exhaustive search's optimum, and a search sliced one
// state at a time gives the same corridor.
func TestFindPathDetourRule(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := randomGridMesh(t)
		polys := allPolys(m)
		n := len(polys)
		f := DefaultFilter()
		for a := 1; a <= 3; a++ {
			f.AreaCost[a] = rapid.SampledFrom([]float64{0.25, 1, 1, 3, 10}).Draw(t, "cost")
		}
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
		sp, ep := polys[rapid.IntRange(0, n-1).Draw(t, "start")], polys[rapid.IntRange(0, n-1).Draw(t, "end")]
		start, end := pointOnPoly(t, m, sp, rng), pointOnPoly(t, m, ep, rng)
		want := refCost(m, sp, ep, start, end, f)
		limits := PathLimits{Rule: SearchDetour}
		corridor, err := FindPathLimited(m, sp, ep, start, end, f, limits)
		if math.IsInf(want, 1) != errors.Is(err, ErrPartial) || err != nil && !errors.Is(err, ErrPartial) {
			t.Fatalf("optimum %v, SearchDetour gives %x, %v", want, corridor, err)
		}
		if err == nil {
			got, err := CorridorCost(m, start, end, corridor, f)
			if err != nil {
				t.Fatal(err)
			}
			if got < want*(1-1e-9) {
				t.Fatalf("corridor %x costs %v, below the exhaustive optimum %v", corridor, got, want)
			}
		}
		s, err := NewPathSearch(m, sp, ep, start, end, f, limits)
		if err != nil {
			t.Fatal(err)
		}
		for done := false; !done; {
			if done, err = s.Step(1); err != nil {
				t.Fatal(err)
			}
		}
		if sliced, _ := s.Result(); !slices.Equal(sliced, corridor) {
			t.Fatalf("sliced search %x, want %x", sliced, corridor)
		}
	})
}
