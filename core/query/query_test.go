package query

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"navviz/core/geom"
	"navviz/core/level/leveltest"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
	"navviz/core/polymesh"
)

// Hand-made tiles: 10 x 10 cells of 0.3 m (3 m a side) on the level grid
// anchored at the origin, as core/navmesh's tests build them.
const (
	testCells = 10
	testCS    = float32(0.3)
	testCH    = float32(0.2)
	pNegX     = polymesh.PortalFlag | 0
	pPosZ     = polymesh.PortalFlag | 1
	pPosX     = polymesh.PortalFlag | 2
	pNegZ     = polymesh.PortalFlag | 3
	null      = polymesh.NullIndex
)

func handMesh(tx, tz int32, verts [][3]uint16, polys [][2][]uint16) *polymesh.Mesh {
	const nvp = 6
	m := &polymesh.Mesh{
		Verts: verts, NVP: nvp,
		CellSizeM: testCS, CellHeightM: testCH,
		WidthCells: testCells, HeightCells: testCells,
		Map: polymesh.CoordMap{
			CellX0: int(tx) * testCells, CellZ0: int(tz) * testCells,
			CellSizeM: testCS, CellHeightM: testCH,
			WidthCells: testCells, HeightCells: testCells,
		},
	}
	m.OriginM = m.Map.Pos(0, 0, 0)
	for i, p := range polys {
		rec := make([]uint16, 2*nvp)
		for j := range rec {
			rec[j] = null
		}
		copy(rec, p[0])
		copy(rec[nvp:], p[1])
		m.Polys = append(m.Polys, rec...)
		m.Regs = append(m.Regs, uint16(i+1))
		m.Areas = append(m.Areas, 63)
		m.Flags = append(m.Flags, 1)
	}
	return m
}

// square is a tile holding one quad that fills it.
func square(tx, tz int32, y uint16) *polymesh.Mesh {
	return handMesh(tx, tz, [][3]uint16{{0, y, 0}, {0, y, 10}, {10, y, 10}, {10, y, 0}},
		[][2][]uint16{{{0, 1, 2, 3}, {pNegX, pPosZ, pPosX, pNegZ}}})
}

// twoColumns is a tile split at x = 5 into two quads.
func twoColumns(tx, tz int32, y uint16) *polymesh.Mesh {
	verts := [][3]uint16{{0, y, 0}, {0, y, 10}, {5, y, 10}, {5, y, 0}, {10, y, 10}, {10, y, 0}}
	return handMesh(tx, tz, verts, [][2][]uint16{
		{{0, 1, 2, 3}, {pNegX, pPosZ, 1, pNegZ}},
		{{3, 2, 4, 5}, {0, pPosZ, pPosX, pNegZ}},
	})
}

func tileData(t testing.TB, pm *polymesh.Mesh, tx, tz int32) []byte {
	t.Helper()
	data, err := navmesh.BuildTileData(pm, nil, navmesh.TileParams{TileX: tx, TileZ: tz,
		WalkableHeightM: 2, WalkableRadiusM: 0.6, WalkableClimbM: 0.9})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func meshOf(t testing.TB, tiles ...[]byte) *navmesh.Mesh {
	t.Helper()
	m := navmesh.NewMesh()
	for _, d := range tiles {
		if _, err := m.AddTile(d); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

var ext = geom.V3(0.5, 2, 0.5)

func nearest(t testing.TB, m *navmesh.Mesh, p geom.Vec3) (navmesh.PolyRef, geom.Vec3) {
	t.Helper()
	ref, q, err := NearestPoly(m, p, ext)
	if err != nil {
		t.Fatal(err)
	}
	return ref, q
}

// checkCorridor fails unless every step of corridor follows a link.
func checkCorridor(t testing.TB, m *navmesh.Mesh, corridor []navmesh.PolyRef) {
	t.Helper()
	for i := 0; i+1 < len(corridor); i++ {
		ls, err := m.Links(corridor[i])
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(ls, func(l navmesh.Link) bool { return l.Ref == corridor[i+1] }) {
			t.Fatalf("corridor step %d: %#x has no link to %#x", i, corridor[i], corridor[i+1])
		}
	}
}

func TestNearestPoly(t *testing.T) {
	m := meshOf(t, tileData(t, twoColumns(0, 0, 5), 0, 0), tileData(t, twoColumns(1, 0, 5), 1, 0))
	tiles := m.Tiles()
	ref, q := nearest(t, m, geom.V3(0.5, 1.5, 1))
	if ref != tiles[0].Poly(0) || q.X != 0.5 || q.Z != 1 || math.Abs(float64(q.Y)-1) > 1e-5 {
		t.Errorf("got %#x %v, want poly 0 of tile 0 at (0.5, 1, 1)", ref, q)
	}
	// Outside the mesh: clamped to the nearest edge.
	ref, q = nearest(t, m, geom.V3(6.3, 1, 1))
	if ref != tiles[1].Poly(1) || math.Abs(float64(q.X)-6) > 1e-5 {
		t.Errorf("got %#x %v, want poly 1 of tile 1 at x = 6", ref, q)
	}
	// On the shared edge x = 1.5: equal distances go to the lower ref.
	ref, _ = nearest(t, m, geom.V3(1.5, 1, 1))
	if ref != tiles[0].Poly(0) {
		t.Errorf("tie went to %#x, want %#x", ref, tiles[0].Poly(0))
	}
	if _, _, err := NearestPoly(m, geom.V3(50, 1, 50), ext); err == nil {
		t.Error("a point far from the mesh found a polygon")
	}
	if _, _, err := NearestPoly(m, geom.V3(float32(math.NaN()), 0, 0), ext); err == nil {
		t.Error("NaN point accepted")
	}
	if _, _, err := NearestPoly(nil, geom.V3(0, 0, 0), ext); err == nil {
		t.Error("nil mesh accepted")
	}
}

func TestPathAcrossTiles(t *testing.T) {
	m := meshOf(t, tileData(t, twoColumns(0, 0, 5), 0, 0), tileData(t, twoColumns(1, 0, 5), 1, 0))
	start, end := geom.V3(0.2, 1, 0.5), geom.V3(5.8, 1, 2.5)
	sr, sp := nearest(t, m, start)
	er, ep := nearest(t, m, end)
	corridor, err := FindPath(m, sr, er, sp, ep, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(corridor) != 4 || corridor[0] != sr || corridor[3] != er {
		t.Fatalf("corridor %x, want 4 polygons from %#x to %#x", corridor, sr, er)
	}
	checkCorridor(t, m, corridor)
	pts, err := StraightPath(m, sp, ep, corridor)
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 2 || pts[0] != sp || pts[1] != ep {
		t.Errorf("straight path %v, want the straight segment %v-%v", pts, sp, ep)
	}
	if got, want := PathLength(pts), dist3(sp, ep); got != want {
		t.Errorf("length %v, want %v", got, want)
	}
}

func TestStraightPathTurnsCorner(t *testing.T) {
	// An L of three tiles: (0,0), (1,0), (1,1). The path must turn at the
	// inner corner (3, y, 3).
	m := meshOf(t, tileData(t, square(0, 0, 5), 0, 0), tileData(t, square(1, 0, 5), 1, 0), tileData(t, square(1, 1, 5), 1, 1))
	sr, sp := nearest(t, m, geom.V3(0.5, 1, 1.5))
	er, ep := nearest(t, m, geom.V3(4.5, 1, 5.5))
	corridor, err := FindPath(m, sr, er, sp, ep, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(corridor) != 3 {
		t.Fatalf("corridor %x, want 3 polygons", corridor)
	}
	checkCorridor(t, m, corridor)
	pts, err := StraightPath(m, sp, ep, corridor)
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 3 || pts[0] != sp || pts[2] != ep || math.Abs(float64(pts[1].X)-3) > 1e-5 || math.Abs(float64(pts[1].Z)-3) > 1e-5 {
		t.Errorf("straight path %v, want start, (3, y, 3), end", pts)
	}
	// Reversed, the same corner.
	rc, err := FindPath(m, er, sr, ep, sp, nil)
	if err != nil {
		t.Fatal(err)
	}
	rp, err := StraightPath(m, ep, sp, rc)
	if err != nil {
		t.Fatal(err)
	}
	if len(rp) != 3 || rp[1] != pts[1] {
		t.Errorf("reversed straight path %v, want the corner %v", rp, pts[1])
	}
}

func TestPartialAndFilter(t *testing.T) {
	m := meshOf(t, tileData(t, square(0, 0, 5), 0, 0), tileData(t, square(1, 0, 5), 1, 0), tileData(t, square(3, 0, 5), 3, 0))
	sr, sp := nearest(t, m, geom.V3(1, 1, 1))
	er, ep := nearest(t, m, geom.V3(10, 1, 1))
	corridor, err := FindPath(m, sr, er, sp, ep, nil)
	if !errors.Is(err, ErrPartial) {
		t.Fatalf("err %v, want ErrPartial", err)
	}
	mid := m.Tiles()[1].Poly(0)
	if !slices.Equal(corridor, []navmesh.PolyRef{sr, mid}) {
		t.Errorf("partial corridor %x, want %#x %#x", corridor, sr, mid)
	}
	// Excluding the middle polygon leaves only the start.
	f := DefaultFilter()
	f.ExcludeFlags = 2
	if err := m.SetPolyFlags(mid, 3); err != nil {
		t.Fatal(err)
	}
	corridor, err = FindPath(m, sr, er, sp, ep, f)
	if !errors.Is(err, ErrPartial) || !slices.Equal(corridor, []navmesh.PolyRef{sr}) {
		t.Errorf("filtered: %x %v, want the start alone and ErrPartial", corridor, err)
	}
	f.AreaCost[5] = math.NaN()
	if _, err := FindPath(m, sr, er, sp, ep, f); err == nil {
		t.Error("NaN area cost accepted")
	}
}

func TestStaleRefs(t *testing.T) {
	m := meshOf(t, tileData(t, twoColumns(0, 0, 5), 0, 0), tileData(t, twoColumns(1, 0, 5), 1, 0))
	sr, sp := nearest(t, m, geom.V3(0.2, 1, 0.5))
	er, ep := nearest(t, m, geom.V3(5.8, 1, 2.5))
	corridor, err := FindPath(m, sr, er, sp, ep, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.ReplaceTile(tileData(t, twoColumns(1, 0, 6), 1, 0)); err != nil {
		t.Fatal(err)
	}
	if _, err := FindPath(m, sr, er, sp, ep, nil); err == nil {
		t.Error("stale end ref accepted")
	}
	if _, err := StraightPath(m, sp, ep, corridor); err == nil {
		t.Error("stale corridor accepted")
	}
	if _, err := StraightPath(m, sp, ep, nil); err == nil {
		t.Error("empty corridor accepted")
	}
	// Not neighbours.
	if _, err := StraightPath(m, sp, ep, []navmesh.PolyRef{sr, sr}); err == nil {
		t.Error("unlinked corridor accepted")
	}
	if _, err := ClosestPointOnPoly(m, er, sp); err == nil {
		t.Error("stale ref accepted by ClosestPointOnPoly")
	}
}

// dungeonMesh builds the shared dungeon level with the default settings.
func dungeonMesh(t testing.TB, workers int) *navmesh.Mesh {
	t.Helper()
	soup := leveltest.Load(t, "dungeon")
	src, err := pipeline.NewSoupSource(soup, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := pipeline.DefaultSettings()
	b, err := pipeline.BuildLevel(context.Background(), &s, src, pipeline.BuildOptions{Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	return b.Mesh
}

// farPair returns a polygon of the largest connected part of m (by
// breadth-first search over links from each tile's polygon 0) and the
// reachable polygon whose centroid is farthest from it.
func farPair(t testing.TB, m *navmesh.Mesh) (navmesh.PolyRef, navmesh.PolyRef) {
	t.Helper()
	var bestA, bestB navmesh.PolyRef
	bestN := 0
	seen := map[navmesh.PolyRef]bool{}
	for _, tr := range m.Tiles() {
		tile, _ := m.Tile(tr)
		for i := range tile.Polys {
			a := tr.Poly(uint32(i))
			if seen[a] {
				continue
			}
			queue := []navmesh.PolyRef{a}
			seen[a] = true
			for k := 0; k < len(queue); k++ {
				ls, _ := m.Links(queue[k])
				for _, l := range ls {
					if !seen[l.Ref] {
						seen[l.Ref] = true
						queue = append(queue, l.Ref)
					}
				}
			}
			if len(queue) > bestN {
				bestN, bestA = len(queue), a
				ca := centre(t, m, a)
				far := -1.0
				for _, q := range queue {
					if d := dist3(ca, centre(t, m, q)); d > far {
						far, bestB = d, q
					}
				}
			}
		}
	}
	return bestA, bestB
}

func centre(t testing.TB, m *navmesh.Mesh, r navmesh.PolyRef) geom.Vec3 {
	tile, i, err := polyData(m, "test", r)
	if err != nil {
		t.Fatal(err)
	}
	return centroid(tile, i)
}

func TestDungeonPath(t *testing.T) {
	m := dungeonMesh(t, 0)
	a, b := farPair(t, m)
	sr, er := a, b
	sp, err := ClosestPointOnPoly(m, a, centre(t, m, a))
	if err != nil {
		t.Fatal(err)
	}
	ep, err := ClosestPointOnPoly(m, b, centre(t, m, b))
	if err != nil {
		t.Fatal(err)
	}
	// NearestPoly from just above the point finds a polygon at that point.
	if _, q, err := NearestPoly(m, sp.Add(geom.V3(0, 0.1, 0)), geom.V3(0.1, 0.5, 0.1)); err != nil || dist3(q, sp) > 1e-3 {
		t.Errorf("NearestPoly near %v: %v %v", sp, q, err)
	}
	corridor, err := FindPath(m, sr, er, sp, ep, nil)
	if err != nil {
		t.Fatal(err)
	}
	if corridor[0] != sr || corridor[len(corridor)-1] != er {
		t.Fatalf("corridor from %#x to %#x, want %#x to %#x", corridor[0], corridor[len(corridor)-1], sr, er)
	}
	checkCorridor(t, m, corridor)
	pts, err := StraightPath(m, sp, ep, corridor)
	if err != nil {
		t.Fatal(err)
	}
	if pts[0] != sp || pts[len(pts)-1] != ep {
		t.Errorf("straight path from %v to %v, want %v to %v", pts[0], pts[len(pts)-1], sp, ep)
	}
	l := PathLength(pts)
	if d := dist3(sp, ep); l < d*(1-1e-9) {
		t.Errorf("path length %v shorter than the distance %v", l, d)
	}
	t.Logf("dungeon: %d tiles, corridor %d polygons, %d corners, %.2f m", m.TileCount(), len(corridor), len(pts), l)

	// Determinism: a build with other workers gives the same answers.
	m2 := dungeonMesh(t, 3)
	c2, err := FindPath(m2, sr, er, sp, ep, nil)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := StraightPath(m2, sp, ep, c2)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(corridor, c2) || !slices.Equal(pts, p2) {
		t.Error("another build gives another path")
	}
}
