package query

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"navviz/core/geom"
	"navviz/core/navmesh"
)

// row3 is three square tiles in a row along x (x 0..9, z 0..3, y 1 m).
func row3(t *testing.T) (*navmesh.Mesh, [3]navmesh.PolyRef) {
	m := meshOf(t, tileData(t, square(0, 0, 5), 0, 0), tileData(t, square(1, 0, 5), 1, 0), tileData(t, square(2, 0, 5), 2, 0))
	var r [3]navmesh.PolyRef
	for k, tr := range m.Tiles() {
		r[k] = tr.Poly(0)
	}
	return m, r
}

func near(a, b geom.Vec3) bool { return dist3(a, b) < 1e-5 }

func TestPolyWallSegments(t *testing.T) {
	m := meshOf(t, tileData(t, twoColumns(0, 0, 5), 0, 0), tileData(t, twoColumns(1, 0, 5), 1, 0))
	tiles := m.Tiles()
	left, right := tiles[0].Poly(0), tiles[0].Poly(1)
	noRight := DefaultFilter()
	noRight.ExcludeFlags = 4
	if err := m.SetPolyFlags(right, 5); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		ref    navmesh.PolyRef
		f      *Filter
		walls  int
		length float64
	}{
		{"left column: three walls", left, nil, 3, 3 + 1.5 + 1.5},
		{"right neighbour filtered out", left, noRight, 4, 3 + 3 + 1.5 + 1.5},
		{"right column: portals both sides", right, nil, 2, 1.5 + 1.5},
	} {
		segs, err := PolyWallSegments(m, tc.ref, tc.f)
		if err != nil {
			t.Fatal(err)
		}
		l := 0.0
		for _, s := range segs {
			l += dist3(s.A, s.B)
		}
		if len(segs) != tc.walls || math.Abs(l-tc.length) > 1e-5 {
			t.Errorf("%s: %d walls of %v m, want %d of %v m", tc.name, len(segs), l, tc.walls, tc.length)
		}
	}
	if _, err := PolyWallSegments(m, left+1<<40, nil); err == nil {
		t.Error("stale ref accepted")
	}
}

func TestDistanceToWall(t *testing.T) {
	m, r := row3(t)
	for _, tc := range []struct {
		name   string
		c      geom.Vec3
		radius float64
		dist   float64
		normal geom.Vec3
		found  bool
	}{
		{"middle of the first tile", geom.V3(1.5, 1, 1), 5, 1, geom.V3(0, 0, 1), true},
		{"near the far end", geom.V3(8.5, 1, 1.5), 5, 0.5, geom.V3(-1, 0, 0), true},
		{"next to the portal", geom.V3(3.2, 1, 2.5), 5, 0.5, geom.V3(0, 0, -1), true},
		{"radius too small", geom.V3(1.5, 1, 1.5), 1, 1, geom.Vec3{}, false},
	} {
		start := r[0]
		if tc.c.X > 3 {
			start = r[int(tc.c.X/3)]
		}
		h, err := DistanceToWall(m, start, tc.c, tc.radius, nil)
		if err != nil {
			t.Fatal(err)
		}
		if h.Found != tc.found || math.Abs(h.DistM-tc.dist) > 1e-5 || !near(h.Normal, tc.normal) {
			t.Errorf("%s: %+v, want dist %v normal %v found %v", tc.name, h, tc.dist, tc.normal, tc.found)
		}
		if h.Found && math.Abs(segDistXZ(tc.c, h.Pos, h.Pos)-h.DistM) > 1e-5 {
			t.Errorf("%s: hit point %v is not at the distance", tc.name, h.Pos)
		}
	}
	if _, err := DistanceToWall(m, r[0], geom.V3(1, 1, 1), -1, nil); err == nil {
		t.Error("negative radius accepted")
	}
}

func TestPolysAroundCircle(t *testing.T) {
	m, r := row3(t)
	for _, tc := range []struct {
		radius float64
		want   []navmesh.PolyRef
	}{
		{1, r[:1]}, {1.5, r[:2]}, {4.4, r[:2]}, {4.5, r[:]},
	} {
		refs, parents, costs, err := PolysAroundCircle(m, r[0], geom.V3(1.5, 1, 1.5), tc.radius, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(refs, tc.want) {
			t.Errorf("radius %v: %x, want %x", tc.radius, refs, tc.want)
			continue
		}
		for k := range refs {
			wantParent := navmesh.PolyRef(0)
			if k > 0 {
				wantParent = refs[k-1]
			}
			if parents[k] != wantParent || k > 0 && !(costs[k] > costs[k-1]) {
				t.Errorf("radius %v: polygon %d parent %#x cost %v", tc.radius, k, parents[k], costs[k])
			}
		}
	}
	// A filter that rejects the middle tile stops the search there.
	f := DefaultFilter()
	f.ExcludeFlags = 2
	if err := m.SetPolyFlags(r[1], 3); err != nil {
		t.Fatal(err)
	}
	if refs, _, _, _ := PolysAroundCircle(m, r[0], geom.V3(1.5, 1, 1.5), 10, f); !slices.Equal(refs, r[:1]) {
		t.Errorf("filtered: %x", refs)
	}
}

func TestMoveAlongSurface(t *testing.T) {
	m, r := row3(t)
	start := geom.V3(1.5, 1, 1.5)
	for _, tc := range []struct {
		name    string
		end     geom.Vec3
		want    geom.Vec3
		visited []navmesh.PolyRef
	}{
		{"into the next tile", geom.V3(4.5, 1, 1.5), geom.V3(4.5, 1, 1.5), r[:2]},
		{"into a wall along z", geom.V3(1.5, 1, 5), geom.V3(1.5, 1, 3), r[:1]},
		{"off the mesh at x < 0", geom.V3(-2, 1, 1.5), geom.V3(0, 1, 1.5), r[:1]},
		{"past the far end", geom.V3(12, 1, 2), geom.V3(9, 1, 2), r[:]},
	} {
		got, visited, err := MoveAlongSurface(m, r[0], start, tc.end, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !near(got, tc.want) || !slices.Equal(visited, tc.visited) {
			t.Errorf("%s: %v over %x, want %v over %x", tc.name, got, visited, tc.want, tc.visited)
		}
	}
}

// TestMoveAlongSurfaceStaysOnMesh (property): on the dungeon, from a
// random point of a random polygon towards a random point up to 6 m away,
// the result lies over the last polygon visited (within 1e-4 m in x/z) at
// that polygon's surface height, and the visited polygons are linked one
// to the next from the start polygon.
func TestMoveAlongSurfaceStaysOnMesh(t *testing.T) {
	m := levelMesh(t, "dungeon")
	polys := allPolys(m)
	rapid.Check(t, func(rt *rapid.T) {
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(rt, "seed"), 3))
		ref := polys[rapid.IntRange(0, len(polys)-1).Draw(rt, "poly")]
		start := pointOnPoly(rt, m, ref, rng)
		dx := rapid.Float64Range(-6, 6).Draw(rt, "dx")
		dz := rapid.Float64Range(-6, 6).Draw(rt, "dz")
		end := geom.Vec3{X: float32(float64(start.X) + dx), Y: start.Y, Z: float32(float64(start.Z) + dz)}
		got, visited, err := MoveAlongSurface(m, ref, start, end, nil)
		if err != nil {
			rt.Fatal(err)
		}
		if visited[0] != ref {
			rt.Fatalf("visited starts at %#x, want %#x", visited[0], ref)
		}
		checkCorridor(t, m, visited)
		last := visited[len(visited)-1]
		tile, i, _ := polyData(m, "test", last)
		q, over := closestOnPoly(tile, i, got)
		if d := math.Hypot(float64(q.X)-float64(got.X), float64(q.Z)-float64(got.Z)); !over && d > 1e-4 {
			rt.Fatalf("result %v lies %v m outside %#x", got, d, last)
		}
		if math.Abs(float64(q.Y)-float64(got.Y)) > 0.05 {
			rt.Fatalf("result %v is %v m off the surface of %#x", got, float64(q.Y)-float64(got.Y), last)
		}
	})
}

func TestRandomPoint(t *testing.T) {
	m := meshOf(t, tileData(t, twoColumns(0, 0, 5), 0, 0))
	tr := m.Tiles()[0]
	counts := map[navmesh.PolyRef]int{}
	rng := rand.New(rand.NewPCG(5, 5))
	for k := 0; k < 2000; k++ {
		ref, p, err := RandomPoint(m, nil, rng)
		if err != nil {
			t.Fatal(err)
		}
		if h, err := PolyHeight(m, ref, p); err != nil || h != p.Y {
			t.Fatalf("point %v on %#x: height %v, %v", p, ref, h, err)
		}
		counts[ref]++
	}
	if n := counts[tr.Poly(0)]; n < 900 || n > 1100 {
		t.Errorf("%d of 2000 points on the left half, want about 1000", n)
	}
	// Same seed, same points.
	a, b := rand.New(rand.NewPCG(1, 1)), rand.New(rand.NewPCG(1, 1))
	r1, p1, _ := RandomPoint(m, nil, a)
	r2, p2, _ := RandomPoint(m, nil, b)
	if r1 != r2 || p1 != p2 {
		t.Error("same seed, different points")
	}
	// A filter that passes nothing.
	if _, _, err := RandomPoint(m, &Filter{AreaCost: DefaultFilter().AreaCost}, rng); err == nil {
		t.Error("a filter that passes nothing gave a point")
	}
	// Around a circle: only polygons PolysAroundCircle reaches.
	m3, r := row3(t)
	for k := 0; k < 200; k++ {
		ref, p, err := RandomPointAroundCircle(m3, r[0], geom.V3(1.5, 1, 1.5), 2, nil, rng)
		if err != nil {
			t.Fatal(err)
		}
		if ref == r[2] || p.X > 6 {
			t.Fatalf("point %v on %#x beyond the circle's polygons", p, ref)
		}
	}
}

func TestPointQueries(t *testing.T) {
	m := meshOf(t, tileData(t, twoColumns(0, 0, 5), 0, 0))
	left := m.Tiles()[0].Poly(0)
	for _, tc := range []struct {
		name     string
		p        geom.Vec3
		boundary geom.Vec3
		height   float32
		over     bool
	}{
		{"inside", geom.V3(0.5, 3, 1), geom.V3(0, 1, 1), 1, true},
		{"outside", geom.V3(2, 3, 1), geom.V3(1.5, 1, 1), 0, false},
		{"on the edge", geom.V3(1.5, 0, 2), geom.V3(1.5, 1, 2), 1, true},
	} {
		b, err := ClosestPointOnPolyBoundary(m, left, tc.p)
		if err != nil || !near(b, tc.boundary) {
			t.Errorf("%s: boundary point %v %v, want %v", tc.name, b, err, tc.boundary)
		}
		h, err := PolyHeight(m, left, tc.p)
		if (err == nil) != tc.over || tc.over && math.Abs(float64(h-tc.height)) > 1e-5 {
			t.Errorf("%s: height %v %v, want %v (over %v)", tc.name, h, err, tc.height, tc.over)
		}
	}
	refs, err := QueryPolygons(m, geom.V3(0.5, 1, 1), geom.V3(0.5, 1, 0.5), nil)
	if err != nil || !slices.Equal(refs, []navmesh.PolyRef{left}) {
		t.Errorf("box around the left column: %x %v", refs, err)
	}
	refs, _ = QueryPolygons(m, geom.V3(1.5, 1, 1), geom.V3(0.1, 1, 0.1), nil)
	if len(refs) != 2 {
		t.Errorf("box on the shared edge: %x, want both columns", refs)
	}
	refs, _ = QueryPolygons(m, geom.V3(1.5, 10, 1), geom.V3(3, 1, 3), nil)
	if len(refs) != 0 {
		t.Errorf("box above the mesh: %x", refs)
	}
}

func TestStraightPathDetailed(t *testing.T) {
	m, r := row3(t)
	start, end := geom.V3(0.5, 1, 1.5), geom.V3(8.5, 1, 1.5)
	corridor, err := FindPath(m, r[0], r[2], start, end, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.SetPolyArea(r[2], 5); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		opt   int
		xs    []float32
		flags []uint8
		refs  []navmesh.PolyRef
	}{
		{"corners only", 0, []float32{0.5, 8.5}, []uint8{PointStart, PointEnd}, []navmesh.PolyRef{r[0], r[2]}},
		{"all crossings", CrossAll, []float32{0.5, 3, 6, 8.5}, []uint8{PointStart, PointCrossing, PointCrossing, PointEnd}, []navmesh.PolyRef{r[0], r[1], r[2], r[2]}},
		{"area crossings", CrossAreas, []float32{0.5, 6, 8.5}, []uint8{PointStart, PointCrossing, PointEnd}, []navmesh.PolyRef{r[0], r[2], r[2]}},
	} {
		pp, err := StraightPathDetailed(m, start, end, corridor, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		var xs []float32
		var flags []uint8
		var refs []navmesh.PolyRef
		for _, p := range pp {
			xs, flags, refs = append(xs, p.Pos.X), append(flags, p.Flags), append(refs, p.Ref)
		}
		if !slices.Equal(xs, tc.xs) || !slices.Equal(flags, tc.flags) {
			t.Errorf("%s: x %v flags %v, want %v %v", tc.name, xs, flags, tc.xs, tc.flags)
		}
		if tc.opt == CrossAll && !slices.Equal(refs, tc.refs) {
			t.Errorf("%s: refs %x, want %x", tc.name, refs, tc.refs)
		}
	}
	if _, err := StraightPathDetailed(m, start, end, corridor, 8); err == nil {
		t.Error("unknown option accepted")
	}
	// A start on the portal out of the first polygon: the path goes on in
	// the second from its first point (no crossing point of its own).
	pp, err := StraightPathDetailed(m, geom.V3(3, 1, 1.5), end, []navmesh.PolyRef{r[0], r[1], r[2]}, CrossAll)
	if err != nil {
		t.Fatal(err)
	}
	var refs []navmesh.PolyRef
	for _, p := range pp {
		refs = append(refs, p.Ref)
	}
	if want := []navmesh.PolyRef{r[1], r[2], r[2]}; len(pp) != 3 || pp[1].Pos.X != 6 || !slices.Equal(refs, want) {
		t.Errorf("start on the portal: %v, refs %x, want x 3, 6, 8.5 and refs %x", pp, refs, want)
	}
}

func TestPathLimits(t *testing.T) {
	m, r := row3(t)
	start, end := geom.V3(0.5, 1, 1.5), geom.V3(8.5, 1, 1.5)
	for _, tc := range []struct {
		name   string
		limits PathLimits
		want   []navmesh.PolyRef
		why    string
	}{
		{"no limit", PathLimits{}, r[:], ""},
		{"two states", PathLimits{MaxNodes: 2}, r[:2], "node limit 2"},
		{"corridor of two", PathLimits{MaxPath: 2}, r[:2], "cut to MaxPath 2"},
	} {
		got, err := FindPathLimited(m, r[0], r[2], start, end, nil, tc.limits)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %x, want %x", tc.name, got, tc.want)
		}
		if tc.why == "" && err != nil || tc.why != "" && (!errors.Is(err, ErrPartial) || !strings.Contains(err.Error(), tc.why)) {
			t.Errorf("%s: err %v, want %q", tc.name, err, tc.why)
		}
	}
	if _, err := FindPathLimited(m, r[0], r[2], start, end, nil, PathLimits{MaxNodes: -1}); err == nil {
		t.Error("negative limit accepted")
	}
	// A sliced search across a swap of a tile it has not reached yet
	// follows the new tile's links: a corridor of current refs.
	s, err := NewPathSearch(m, r[0], r[2], start, end, nil, PathLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.ReplaceTile(tileData(t, square(1, 0, 6), 1, 0)); err != nil {
		t.Fatal(err)
	}
	if done, err := s.Step(0); err != nil || !done {
		t.Fatalf("search across a swap ahead: done %v, err %v", done, err)
	}
	got, err := s.Result()
	if err != nil || len(got) != 3 || got[1] == r[1] || !m.IsValidRef(got[1]) {
		t.Errorf("search across a swap ahead: %x %v, want the new middle polygon", got, err)
	}
	// A swap of a tile the search holds open: an error naming the stale
	// ref, never followed.
	s, _ = NewPathSearch(m, r[0], r[2], start, end, nil, PathLimits{})
	if _, err := m.ReplaceTile(tileData(t, square(0, 0, 6), 0, 0)); err != nil {
		t.Fatal(err)
	}
	done, err := s.Step(0)
	if err == nil || !done || !strings.Contains(err.Error(), "polygon 0x") {
		t.Errorf("search across a swap behind: done %v, err %v", done, err)
	}
	if _, err := s.Result(); err == nil {
		t.Error("result of a failed search")
	}
}

func TestPolysAroundShape(t *testing.T) {
	m, r := row3(t)
	box := func(x0, x1 float32) []geom.Vec3 {
		return []geom.Vec3{geom.V3(x0, 1, 1), geom.V3(x1, 1, 1), geom.V3(x1, 1, 2), geom.V3(x0, 1, 2)}
	}
	for _, tc := range []struct {
		name  string
		shape []geom.Vec3
		want  []navmesh.PolyRef
	}{
		{"inside the first tile", box(1, 2), r[:1]},
		{"over the first portal", box(2, 4), r[:2]},
		{"over both portals", box(2, 7), r[:]},
		{"triangle to the far end", []geom.Vec3{geom.V3(1, 1, 1), geom.V3(8, 1, 1.5), geom.V3(1, 1, 2)}, r[:]},
	} {
		refs, parents, costs, err := PolysAroundShape(m, r[0], tc.shape, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(refs, tc.want) || parents[0] != 0 || costs[0] != 0 {
			t.Errorf("%s: %x (parents %x, costs %v), want %x", tc.name, refs, parents, costs, tc.want)
		}
	}
	if _, _, _, err := PolysAroundShape(m, r[0], box(1, 2)[:2], nil); err == nil {
		t.Error("a two-corner shape accepted")
	}
}
