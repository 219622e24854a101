package query

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/level/leveltest"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
)

var (
	levelMu     sync.Mutex
	levelMeshes = map[string]*navmesh.Mesh{}
)

// levelMesh builds a shared level (dungeon, nav_test: OBJ fixtures; city:
// generated) with the default settings, once per test binary.
func levelMesh(t testing.TB, name string) *navmesh.Mesh {
	return cachedMesh(t, name, func() *level.Soup { return leveltest.Soup(t, name) })
}

// cachedMesh returns the mesh built (default settings) of the soup soup
// makes, once per test binary under name.
func cachedMesh(t testing.TB, name string, soup func() *level.Soup) *navmesh.Mesh {
	t.Helper()
	levelMu.Lock()
	defer levelMu.Unlock()
	if m := levelMeshes[name]; m != nil {
		return m
	}
	src, err := pipeline.NewSoupSource(soup(), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := pipeline.DefaultSettings()
	b, err := pipeline.BuildLevel(context.Background(), &s, src, pipeline.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	levelMeshes[name] = b.Mesh
	return b.Mesh
}

// allPolys lists the polygons of m in tile order.
func allPolys(m *navmesh.Mesh) []navmesh.PolyRef {
	var polys []navmesh.PolyRef
	for _, tr := range m.Tiles() {
		tile, _ := m.Tile(tr)
		for i := range tile.Polys {
			polys = append(polys, tr.Poly(uint32(i)))
		}
	}
	return polys
}

// fataler is what testing.TB and *rapid.T share that the helpers use.
type fataler interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// pointOnPoly returns a seeded point on polygon ref's surface: a random
// point of a random one of its triangles (PolyTris), height on the
// triangle.
func pointOnPoly(t fataler, m *navmesh.Mesh, ref navmesh.PolyRef, rng *rand.Rand) geom.Vec3 {
	t.Helper()
	tile, i, err := polyData(m, "test", ref)
	if err != nil {
		t.Fatal(err)
	}
	var tris [][3]geom.Vec3
	tile.PolyTris(i, func(_ int, a, b, c geom.Vec3, _ uint8) { tris = append(tris, [3]geom.Vec3{a, b, c}) })
	tr := tris[rng.IntN(len(tris))]
	u, v := rng.Float64(), rng.Float64()
	if u+v > 1 {
		u, v = 1-u, 1-v
	}
	// Keep clear of the triangle's border so that rounding cannot move the
	// point off the polygon.
	u, v = 0.05+0.9*u, 0.05+0.9*v
	w := 1 - u - v
	x := float64(w*float64(tr[0].X)) + float64(u*float64(tr[1].X)) + float64(v*float64(tr[2].X))
	z := float64(w*float64(tr[0].Z)) + float64(u*float64(tr[1].Z)) + float64(v*float64(tr[2].Z))
	p := geom.Vec3{X: float32(x), Z: float32(z)}
	y, ok := surfaceHeight(tile, i, p)
	if !ok {
		t.Fatalf("seeded point %v is on no triangle of %#x", p, ref)
	}
	p.Y = y
	return p
}

// TestNearestKeepsPolygonOver: seeded points on the surface of each level,
// and the same points 0.5 m above it, keep their x and z, and the polygon
// found lies under them within the tile's climb (Detour's rule); on the
// surface the height found is the surface's.
func TestNearestKeepsPolygonOver(t *testing.T) {
	for _, tc := range []struct {
		level string
		seed  uint64
	}{{"dungeon", 1}, {"nav_test", 2}, {"city", 3}} {
		t.Run(tc.level, func(t *testing.T) {
			m := levelMesh(t, tc.level)
			polys := allPolys(m)
			rng := rand.New(rand.NewPCG(tc.seed, 12))
			for k := 0; k < 300; k++ {
				ref := polys[rng.IntN(len(polys))]
				p := pointOnPoly(t, m, ref, rng)
				for _, lift := range []float32{0, 0.5} {
					q := geom.Vec3{X: p.X, Y: p.Y + lift, Z: p.Z}
					got, pt, err := NearestPoly(m, q, geom.V3(2, 4, 2))
					if err != nil {
						t.Fatalf("point %d %v: %v", k, q, err)
					}
					if pt.X != p.X || pt.Z != p.Z {
						t.Fatalf("point %d %v (on %#x, lifted %v): nearest point %v on %#x moved in x/z", k, q, ref, lift, pt, got)
					}
					h, err := PolyHeight(m, got, q)
					if err != nil {
						t.Fatalf("point %d %v: polygon %#x found is not under it: %v", k, q, got, err)
					}
					if d := math.Abs(float64(h) - float64(q.Y)); d > 0.9+1e-6 {
						t.Fatalf("point %d %v: polygon %#x found is %v m below, beyond the climb", k, q, got, d)
					}
					if lift == 0 && got == ref && pt.Y != p.Y {
						t.Fatalf("point %d: height %v on its own polygon, want %v", k, pt.Y, p.Y)
					}
				}
			}
		})
	}
}

// TestSeededPairs runs 300 seeded point pairs per level through
// NearestPoly (half extents 2, 4, 2), FindPath and StraightPath, and
// checks what holds whatever Detour does: complete corridors link start
// to end polygons, partial ones end at a polygon from which the end
// polygon is unreachable under the filter, the corridor's cost is no more
// than that of the corridor breadth-first search gives, and the straight
// path starts and ends at the points and is at least their distance.
func TestSeededPairs(t *testing.T) {
	for _, tc := range []struct {
		level string
		seed  uint64
	}{{"dungeon", 4}, {"nav_test", 5}, {"city", 6}} {
		t.Run(tc.level, func(t *testing.T) {
			m := levelMesh(t, tc.level)
			polys := allPolys(m)
			rng := rand.New(rand.NewPCG(tc.seed, 99))
			complete := 0
			for k := 0; k < 300; k++ {
				a := pointOnPoly(t, m, polys[rng.IntN(len(polys))], rng)
				b := pointOnPoly(t, m, polys[rng.IntN(len(polys))], rng)
				a.Y += 0.5
				b.Y += 0.5
				sr, sp, err := NearestPoly(m, a, geom.V3(2, 4, 2))
				if err != nil {
					t.Fatal(err)
				}
				er, ep, err := NearestPoly(m, b, geom.V3(2, 4, 2))
				if err != nil {
					t.Fatal(err)
				}
				corridor, err := FindPath(m, sr, er, sp, ep, nil)
				end := ep
				reach := bfs(m, sr)
				switch {
				case err == nil:
					complete++
					if corridor[len(corridor)-1] != er {
						t.Fatalf("pair %d: complete corridor ends at %#x", k, corridor[len(corridor)-1])
					}
				case errors.Is(err, ErrPartial):
					if _, ok := reach[er]; ok {
						t.Fatalf("pair %d: partial, but %#x is reachable", k, er)
					}
					end, _ = ClosestPointOnPoly(m, corridor[len(corridor)-1], ep)
				default:
					t.Fatalf("pair %d: %v", k, err)
				}
				checkCorridor(t, m, corridor)
				if err == nil {
					got, _ := CorridorCost(m, sp, ep, corridor, nil)
					other, _ := CorridorCost(m, sp, ep, bfsCorridor(reach, er), nil)
					if got > other*(1+1e-9) {
						t.Fatalf("pair %d: corridor cost %v above a breadth-first corridor's %v", k, got, other)
					}
				}
				pts, err := StraightPath(m, sp, end, corridor)
				if err != nil {
					t.Fatal(err)
				}
				if pts[0] != sp || pts[len(pts)-1] != end || PathLength(pts) < dist3(sp, end)*(1-1e-9) {
					t.Fatalf("pair %d: straight path %v", k, pts)
				}
			}
			t.Logf("%s: %d of 300 pairs complete", tc.level, complete)
			if complete == 0 {
				t.Error("no complete path")
			}
		})
	}
}

// bfs returns the breadth-first parent of every polygon reachable from
// start over links (start maps to 0), polygons with flags passing the
// default filter only.
func bfs(m *navmesh.Mesh, start navmesh.PolyRef) map[navmesh.PolyRef]navmesh.PolyRef {
	parent := map[navmesh.PolyRef]navmesh.PolyRef{start: 0}
	queue := []navmesh.PolyRef{start}
	for k := 0; k < len(queue); k++ {
		ls, _ := m.Links(queue[k])
		for _, l := range ls {
			if _, seen := parent[l.Ref]; seen || !(*Filter)(nil).passesRef(m, l.Ref) {
				continue
			}
			parent[l.Ref] = queue[k]
			queue = append(queue, l.Ref)
		}
	}
	return parent
}

func bfsCorridor(parent map[navmesh.PolyRef]navmesh.PolyRef, end navmesh.PolyRef) []navmesh.PolyRef {
	var c []navmesh.PolyRef
	for r := end; r != 0; r = parent[r] {
		c = append([]navmesh.PolyRef{r}, c...)
	}
	return c
}

// TestRaycastFromBoundaryPoints: on every polygon of each level, a ray
// from a point ClosestPointOnPoly put on the boundary (the nearest point
// to a point 1 m outside each corner and each edge midpoint, rounded to
// float32 and so often a hair outside the polygon) to the polygon's
// centroid stays in the polygon and reaches its end: the start counts as
// on the boundary (StartSlackM), not outside.
func TestRaycastFromBoundaryPoints(t *testing.T) {
	for _, level := range []string{"dungeon", "nav_test", "city"} {
		t.Run(level, func(t *testing.T) {
			m := levelMesh(t, level)
			rays := 0
			for _, ref := range allPolys(m) {
				tile, i, err := polyData(m, "test", ref)
				if err != nil {
					t.Fatal(err)
				}
				c := centroid(tile, i)
				vs := polyVerts(tile, i)
				for j, v := range vs {
					w := vs[(j+1)%len(vs)]
					for _, p := range []geom.Vec3{v, midpoint(v, w)} {
						dx, dz := float64(p.X)-float64(c.X), float64(p.Z)-float64(c.Z)
						l := math.Hypot(dx, dz)
						if l < 1e-3 {
							continue
						}
						out := geom.Vec3{X: float32(float64(p.X) + dx/l), Y: p.Y, Z: float32(float64(p.Z) + dz/l)}
						sp, err := ClosestPointOnPoly(m, ref, out)
						if err != nil {
							t.Fatal(err)
						}
						h, err := Raycast(m, ref, sp, c, nil)
						if err != nil {
							t.Fatal(err)
						}
						rays++
						if !h.Reached() || len(h.Path) != 1 {
							t.Fatalf("polygon %#x: ray %v -> centroid %v stopped at T %v after %d polygons", ref, sp, c, h.T, len(h.Path))
						}
					}
				}
			}
			t.Logf("%s: %d rays", level, rays)
		})
	}
}
