package query

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"navviz/core/geom"
	"navviz/core/level/leveltest"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
)

// components numbers the polygons of m by connected component (over
// their links, off-mesh links excluded) and returns, per component, its
// polygons in tile order, largest component first (ties: first polygon).
func components(m *navmesh.Mesh) [][]navmesh.PolyRef {
	comp := map[navmesh.PolyRef]int{}
	var out [][]navmesh.PolyRef
	for _, start := range allPolys(m) {
		if _, ok := comp[start]; ok {
			continue
		}
		id := len(out)
		comp[start] = id
		members := []navmesh.PolyRef{start}
		for k := 0; k < len(members); k++ {
			links, _ := m.Links(members[k])
			for _, l := range links {
				if _, ok := comp[l.Ref]; ok || l.Side == navmesh.OffMeshSide {
					continue
				}
				comp[l.Ref] = id
				members = append(members, l.Ref)
			}
		}
		out = append(out, members)
	}
	// Stable: largest first.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && len(out[j]) > len(out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// surfacePoint returns the centre of polygon ref on its surface.
func surfacePoint(t *testing.T, m *navmesh.Mesh, ref navmesh.PolyRef) geom.Vec3 {
	t.Helper()
	tile, i, err := polyData(m, "test", ref)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ClosestPointOnPoly(m, ref, centroid(tile, i))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// dungeonLink returns a link between the two largest components of the
// dungeon's plain build that lie in different tiles: from the first
// polygon of the largest to the first polygon of the next component whose
// first polygon is in another tile, with the points on the polygons; and
// a point on the last polygon of each of the two components.
func dungeonLink(t *testing.T, m *navmesh.Mesh) (link navmesh.OffMeshLink, from, to geom.Vec3) {
	t.Helper()
	comps := components(m)
	if len(comps) < 2 {
		t.Fatalf("dungeon has %d components, want at least 2", len(comps))
	}
	a := comps[0][0]
	for _, c := range comps[1:] {
		b := c[0]
		if b.Tile() == a.Tile() || len(c) < 4 {
			continue
		}
		l := navmesh.OffMeshLink{StartM: surfacePoint(t, m, a), EndM: surfacePoint(t, m, b), RadiusM: 0.3,
			Area: 0, Flags: 1, Bidirectional: true, UserID: 7}
		return l, surfacePoint(t, m, comps[0][len(comps[0])-1]), surfacePoint(t, m, c[len(c)-1])
	}
	t.Fatal("no second component in another tile")
	return navmesh.OffMeshLink{}, geom.Vec3{}, geom.Vec3{}
}

// TestOffMeshPathDungeon is the acceptance test of off-mesh links in the
// plain build: on dungeon, two polygons of different components in
// different tiles have no complete path; with a link between them (given
// to BuildLevel) the path is complete through the link, both ways, and
// its straight path marks the link's start and end with PointOffMesh.
func TestOffMeshPathDungeon(t *testing.T) {
	soup := leveltest.Soup(t, "dungeon")
	src, err := pipeline.NewSoupSource(soup, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := pipeline.DefaultSettings()
	plain := levelMesh(t, "dungeon")
	link, from, to := dungeonLink(t, plain)
	if _, err := pathBetween(plain, from, to); !errors.Is(err, ErrPartial) {
		t.Fatalf("without the link: FindPath error %v, want ErrPartial", err)
	}
	built, err := pipeline.BuildLevel(context.Background(), &s, src, pipeline.BuildOptions{OffMeshLinks: []navmesh.OffMeshLink{link}})
	if err != nil {
		t.Fatal(err)
	}
	checkOffMeshPath(t, built.Mesh, link, from, to)

	// One way: the path from start to end crosses it, the way back finds
	// none; a filter that excludes the link's flags (2, not the
	// polygons' 1) takes it away.
	link.Bidirectional, link.Flags = false, 2
	built, err = pipeline.BuildLevel(context.Background(), &s, src, pipeline.BuildOptions{OffMeshLinks: []navmesh.OffMeshLink{link}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pathBetween(built.Mesh, from, to); err != nil {
		t.Errorf("one way, forward: %v", err)
	}
	if _, err := pathBetween(built.Mesh, to, from); !errors.Is(err, ErrPartial) {
		t.Errorf("one way, back: error %v, want ErrPartial", err)
	}
	ext := geom.V3(0.5, 1, 0.5)
	ra, pa, _ := NearestPoly(built.Mesh, from, ext)
	rb, pb, _ := NearestPoly(built.Mesh, to, ext)
	f := DefaultFilter()
	f.ExcludeFlags = link.Flags
	if _, err := FindPath(built.Mesh, ra, rb, pa, pb, f); !errors.Is(err, ErrPartial) {
		t.Errorf("filter excluding the link's flags: error %v, want ErrPartial", err)
	}
}

// pathBetween returns the corridor from the polygon nearest to from to
// the one nearest to to.
func pathBetween(m *navmesh.Mesh, from, to geom.Vec3) ([]navmesh.PolyRef, error) {
	ext := geom.V3(0.5, 1, 0.5)
	ra, pa, err := NearestPoly(m, from, ext)
	if err != nil {
		return nil, err
	}
	rb, pb, err := NearestPoly(m, to, ext)
	if err != nil {
		return nil, err
	}
	return FindPath(m, ra, rb, pa, pb, nil)
}

// checkOffMeshPath checks that link joins the polygons under its ends in
// m: a complete path from point from (on the start's side) to point to
// that crosses it, and back (it is bidirectional), with the straight
// path's PointOffMesh points at the link's ends.
func checkOffMeshPath(t *testing.T, m *navmesh.Mesh, link navmesh.OffMeshLink, from, to geom.Vec3) {
	t.Helper()
	if _, _, err := m.CheckLinks(); err != nil {
		t.Fatal(err)
	}
	ext := geom.V3(0.5, 1, 0.5)
	for _, dir := range []struct {
		name             string
		from, to, la, lb geom.Vec3
	}{{"forward", from, to, link.StartM, link.EndM}, {"back", to, from, link.EndM, link.StartM}} {
		ra, pa, err := NearestPoly(m, dir.from, ext)
		if err != nil {
			t.Fatal(err)
		}
		rb, pb, err := NearestPoly(m, dir.to, ext)
		if err != nil {
			t.Fatal(err)
		}
		corridor, err := FindPath(m, ra, rb, pa, pb, nil)
		if err != nil {
			t.Fatalf("%s: FindPath: %v", dir.name, err)
		}
		nodes := 0
		for _, r := range corridor {
			if c, ok := m.OffMeshLinkOf(r); ok {
				nodes++
				if c.UserID != link.UserID {
					t.Errorf("%s: corridor crosses link %d, want %d", dir.name, c.UserID, link.UserID)
				}
			}
		}
		if nodes != 1 {
			t.Fatalf("%s: corridor %x crosses %d off-mesh links, want 1", dir.name, corridor, nodes)
		}
		pts, err := StraightPathDetailed(m, pa, pb, corridor, 0)
		if err != nil {
			t.Fatalf("%s: StraightPath: %v", dir.name, err)
		}
		var marked []geom.Vec3
		for _, p := range pts {
			if p.Flags&PointOffMesh != 0 {
				marked = append(marked, p.Pos)
			}
		}
		if len(marked) != 2 || marked[0] != dir.la || marked[1] != dir.lb {
			t.Fatalf("%s: straight path off-mesh points %v, want %v then %v (path %+v)", dir.name, marked, dir.la, dir.lb, pts)
		}
		if pts[0].Flags&PointStart == 0 || pts[len(pts)-1].Flags&PointEnd == 0 {
			t.Errorf("%s: straight path ends flagged %d, %d", dir.name, pts[0].Flags, pts[len(pts)-1].Flags)
		}
	}
}

// TestOffMeshEndsRefused: a search whose start or end is an off-mesh link
// node is an error naming the node (docs/query.md §3: both must be
// polygons), from FindPath, FindPathLimited under both rules and
// NewPathSearch alike; so are the queries on one polygon given the node.
func TestOffMeshEndsRefused(t *testing.T) {
	soup := leveltest.Soup(t, "dungeon")
	src, err := pipeline.NewSoupSource(soup, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := pipeline.DefaultSettings()
	link, from, _ := dungeonLink(t, levelMesh(t, "dungeon"))
	built, err := pipeline.BuildLevel(context.Background(), &s, src, pipeline.BuildOptions{OffMeshLinks: []navmesh.OffMeshLink{link}})
	if err != nil {
		t.Fatal(err)
	}
	m := built.Mesh
	var node navmesh.PolyRef
	for _, tr := range m.Tiles() {
		tile, _ := m.Tile(tr)
		for i := len(tile.Polys); i < tile.NodeCount(); i++ {
			node = tr.Poly(uint32(i))
		}
	}
	if !m.IsOffMesh(node) {
		t.Fatal("no off-mesh link node in the mesh")
	}
	poly, p, err := NearestPoly(m, from, geom.V3(0.5, 1, 0.5))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%#x is an off-mesh link, not a polygon", uint64(node))
	for _, tc := range []struct {
		name string
		call func() error
	}{
		{"FindPath end", func() error { _, err := FindPath(m, poly, node, p, link.StartM, nil); return err }},
		{"FindPath start", func() error { _, err := FindPath(m, node, poly, link.StartM, p, nil); return err }},
		{"FindPathLimited detour end", func() error {
			_, err := FindPathLimited(m, poly, node, p, link.StartM, nil, PathLimits{Rule: SearchDetour})
			return err
		}},
		{"NewPathSearch end", func() error { _, err := NewPathSearch(m, poly, node, p, link.StartM, nil, PathLimits{}); return err }},
		{"ClosestPointOnPoly", func() error { _, err := ClosestPointOnPoly(m, node, p); return err }},
		{"PolyHeight", func() error { _, err := PolyHeight(m, node, p); return err }},
		{"Raycast", func() error { _, err := Raycast(m, node, link.StartM, p, nil); return err }},
		{"MoveAlongSurface", func() error { _, _, err := MoveAlongSurface(m, node, link.StartM, p, nil); return err }},
		{"PolysAroundCircle", func() error { _, _, _, err := PolysAroundCircle(m, node, link.StartM, 2, nil); return err }},
		{"StraightPath", func() error { _, err := StraightPath(m, link.StartM, p, []navmesh.PolyRef{node, poly}); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.call(); err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("error %v, want one containing %q", err, want)
			}
		})
	}
}
