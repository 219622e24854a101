package query

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/navmesh"
)

// corridorTolM is how far (XZ, metres) a straight path may pass outside a
// portal and still count as crossing it: the funnel takes points within
// samePointEpsM for one, and portal ends are rounded to float32.
const corridorTolM = 5e-4

// farSteepTerrain returns the generated terrain moved about 5 km from the
// origin and made steep: x and z + 5000 m, heights × 1.6 (slopes up to
// about 45°, rims beyond), built with the default settings.
func farSteepTerrain(t testing.TB) *navmesh.Mesh {
	return cachedMesh(t, "terrain far steep", func() *level.Soup {
		soup := level.Terrain(level.DefaultSeed)
		for i, v := range soup.Verts {
			soup.Verts[i] = geom.V3(v.X+5000, float32(float64(v.Y)*1.6), v.Z+5000)
		}
		return soup
	})
}

// segSegXZ returns the parameter s on segment a-b of the point nearest to
// segment c-d in the XZ plane, and their distance (0 and the crossing's
// parameter when they cross), in float64.
func segSegXZ(a, b, c, d geom.Vec3) (s, dist float64) {
	ax, az := float64(a.X), float64(a.Z)
	ux, uz := float64(b.X)-ax, float64(b.Z)-az
	cx, cz := float64(c.X), float64(c.Z)
	vx, vz := float64(d.X)-cx, float64(d.Z)-cz
	wx, wz := cx-ax, cz-az
	den := float64(ux*vz) - float64(uz*vx)
	if den != 0 {
		s := (float64(wx*vz) - float64(wz*vx)) / den
		r := (float64(wx*uz) - float64(wz*ux)) / den
		if s >= 0 && s <= 1 && r >= 0 && r <= 1 {
			return s, 0
		}
	}
	// Apart (or parallel): the nearest pair has an end of one segment.
	at := func(px, pz, ox, oz, ex, ez float64) (float64, float64) { // p to o + t e
		l2 := float64(ex*ex) + float64(ez*ez)
		t := 0.0
		if l2 > 0 {
			t = min(max((float64((px-ox)*ex)+float64((pz-oz)*ez))/l2, 0), 1)
		}
		return t, math.Hypot(px-(ox+float64(t*ex)), pz-(oz+float64(t*ez)))
	}
	s, dist = 0, math.Inf(1)
	for _, e := range [2]float64{0, 1} {
		if _, dd := at(ax+float64(e*ux), az+float64(e*uz), cx, cz, vx, vz); dd < dist {
			s, dist = e, dd
		}
		if t, dd := at(cx+float64(e*vx), cz+float64(e*vz), ax, az, ux, uz); dd < dist {
			s, dist = t, dd
		}
	}
	return s, dist
}

// outsideCorridor returns an error when the polyline pts (start to end)
// does not cross the portals of corridor (polygons only) in order: for each
// portal, the first point of the polyline at or after the previous
// portal's crossing that comes within tolM of it (XZ, float64). A path
// that cuts a corner of the corridor misses the portal at that corner.
func outsideCorridor(m *navmesh.Mesh, pts []geom.Vec3, corridor []navmesh.PolyRef, tolM float64) error {
	j, from := 0, pts[0] // the crossing so far: on leg j, at from
	for i := 0; i+1 < len(corridor); i++ {
		p, err := portalOf(m, "test", corridor[i], corridor[i+1])
		if err != nil {
			return err
		}
		best := math.Inf(1)
		for ; j+1 < len(pts); j, from = j+1, pts[j+1] {
			s, d := segSegXZ(from, pts[j+1], p.left, p.right)
			if d <= tolM {
				from = lerpPoint(from, pts[j+1], s)
				break
			}
			best = min(best, d)
		}
		if j+1 == len(pts) {
			return fmt.Errorf("portal %d (%v-%v, into %#x) not crossed: the path passes %.3g m from it at best", i, p.left, p.right, uint64(corridor[i+1]), best)
		}
	}
	return nil
}

// TestStraightPathInCorridor is issue 28's property: every straight path
// lies inside its corridor (crosses each portal, in order, within
// corridorTolM), on seeded pairs of the steep terrain 5 km from the origin
// and of the shared levels, under both search rules. And it has the
// corners of Detour's funnel rules in float32 on the same portals
// (detourFunnel), on every pair.
func TestStraightPathInCorridor(t *testing.T) {
	for _, lv := range []struct {
		name string
		mesh func(testing.TB) *navmesh.Mesh
	}{
		{"terrain far steep", farSteepTerrain},
		{"dungeon", func(tb testing.TB) *navmesh.Mesh { return levelMesh(tb, "dungeon") }},
		{"nav_test", func(tb testing.TB) *navmesh.Mesh { return levelMesh(tb, "nav_test") }},
		{"bridge", func(tb testing.TB) *navmesh.Mesh { return levelMesh(tb, "bridge") }},
	} {
		t.Run(lv.name, func(t *testing.T) {
			m := lv.mesh(t)
			rng := rand.New(rand.NewPCG(28, 14))
			checked := 0
			for k := 0; k < 300; k++ {
				a, pa, err := RandomPoint(m, nil, rng)
				if err != nil {
					t.Fatal(err)
				}
				b, pb, err := RandomPoint(m, nil, rng)
				if err != nil {
					t.Fatal(err)
				}
				for _, rule := range []SearchRule{SearchOptimal, SearchDetour} {
					corridor, err := FindPathLimited(m, a, b, pa, pb, nil, PathLimits{Rule: rule})
					end := pb
					if err != nil {
						if end, err = ClosestPointOnPoly(m, corridor[len(corridor)-1], pb); err != nil {
							t.Fatal(err)
						}
					}
					pts, err := StraightPath(m, pa, end, corridor)
					if err != nil {
						t.Fatal(err)
					}
					if err := outsideCorridor(m, pts, corridor, corridorTolM); err != nil {
						t.Fatalf("pair %d (%v to %v, %v): straight path %v: %v", k, pa, pb, rule, pts, err)
					}
					if det := detourFunnel(t, m, pa, end, corridor); !slices.Equal(pts, det) {
						t.Errorf("pair %d (%v): straight path %v, Detour's funnel %v", k, rule, pts, det)
					}
					checked++
				}
			}
			if checked != 600 {
				t.Fatalf("%d straight paths checked, want 600", checked)
			}
		})
	}
}

// TestStraightPathStartOnPortal: a start on the corridor's first portal
// (a point of it, so often exactly on its line) going on through a second
// portal that shares an end with the first. The funnel opened at such a
// start is a straight angle, and the shared end, on both of its sides,
// made the other end a corner (a detour, once backwards); Detour skips a
// first portal within 1 mm of the start. On every such polygon triple of
// the levels, to the third polygon's centroid, the path is Detour's rules'
// and inside the corridor.
func TestStraightPathStartOnPortal(t *testing.T) {
	for _, lv := range []struct {
		name string
		mesh func(testing.TB) *navmesh.Mesh
	}{
		{"terrain far steep", farSteepTerrain},
		{"dungeon", func(tb testing.TB) *navmesh.Mesh { return levelMesh(tb, "dungeon") }},
		{"nav_test", func(tb testing.TB) *navmesh.Mesh { return levelMesh(tb, "nav_test") }},
	} {
		t.Run(lv.name, func(t *testing.T) {
			m := lv.mesh(t)
			checked := 0
			for _, tr := range m.Tiles() {
				tile, err := m.Tile(tr)
				if err != nil {
					t.Fatal(err)
				}
				for i := range tile.Polys {
					a := tr.Poly(uint32(i))
					for _, b := range linkedPolys(t, m, a) {
						p1, err := portalOf(m, "test", a, b)
						if err != nil {
							t.Fatal(err)
						}
						for _, c := range linkedPolys(t, m, b) {
							p2, err := portalOf(m, "test", b, c)
							if err != nil {
								t.Fatal(err)
							}
							if c == a || p2.left != p1.left && p2.right != p1.right {
								continue
							}
							ct, ci, err := polyData(m, "test", c)
							if err != nil {
								t.Fatal(err)
							}
							end, corridor := centroid(ct, ci), []navmesh.PolyRef{a, b, c}
							for _, f := range []float64{0.5, 0.3} {
								start := lerpPoint(p1.left, p1.right, f)
								pts, err := StraightPath(m, start, end, corridor)
								if err != nil {
									t.Fatal(err)
								}
								if err := outsideCorridor(m, pts, corridor, corridorTolM); err != nil {
									t.Fatalf("start %v on portal %v: straight path %v: %v", start, p1, pts, err)
								}
								if det := detourFunnel(t, m, start, end, corridor); !slices.Equal(pts, det) {
									t.Errorf("start %v on portal %v to %v: straight path %v, Detour's funnel %v", start, p1, end, pts, det)
								}
								checked++
							}
						}
					}
				}
			}
			if checked < 100 {
				t.Fatalf("%d starts checked, want at least 100", checked)
			}
		})
	}
}

// linkedPolys returns the polygons (not off-mesh nodes) ref links to.
func linkedPolys(t *testing.T, m *navmesh.Mesh, ref navmesh.PolyRef) []navmesh.PolyRef {
	t.Helper()
	links, err := m.Links(ref)
	if err != nil {
		t.Fatal(err)
	}
	var out []navmesh.PolyRef
	for _, l := range links {
		if !m.IsOffMesh(l.Ref) {
			out = append(out, l.Ref)
		}
	}
	return out
}
