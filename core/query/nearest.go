package query

import (
	"fmt"
	"math"

	"navviz/core/geom"
	"navviz/core/navmesh"
)

func finite3(v geom.Vec3) bool {
	for _, c := range [3]float32{v.X, v.Y, v.Z} {
		f := float64(c)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return false
		}
	}
	return true
}

// polyVerts returns the corners of polygon i of t, metres.
func polyVerts(t *navmesh.Tile, i int) []geom.Vec3 {
	p := &t.Polys[i]
	vs := make([]geom.Vec3, 0, p.VertCount)
	for j := 0; j < int(p.VertCount); j++ {
		vs = append(vs, t.Verts[p.Verts[j]])
	}
	return vs
}

// cross2 is the z-x cross product of (b-a) and (c-a) in the XZ plane,
// double: > 0 when c lies counter-clockwise of a→b (x right, z up).
func cross2(a, b, c geom.Vec3) float64 {
	abx, abz := float64(b.X)-float64(a.X), float64(b.Z)-float64(a.Z)
	acx, acz := float64(c.X)-float64(a.X), float64(c.Z)-float64(a.Z)
	return float64(abx*acz) - float64(abz*acx)
}

// insideXZ reports whether p lies inside or on convex polygon vs in the XZ
// plane (either winding).
func insideXZ(p geom.Vec3, vs []geom.Vec3) bool {
	pos, neg := false, false
	for j := range vs {
		c := cross2(vs[j], vs[(j+1)%len(vs)], p)
		if c > 0 {
			pos = true
		} else if c < 0 {
			neg = true
		}
		if pos && neg {
			return false
		}
	}
	return true
}

// triBary returns the barycentric weights of p in triangle abc in the
// XZ plane, false for a triangle with no XZ area.
func triBary(p, a, b, c geom.Vec3) (u, v, w float64, ok bool) {
	d := cross2(a, b, c)
	if d == 0 {
		return 0, 0, 0, false
	}
	return cross2(b, c, p) / d, cross2(c, a, p) / d, cross2(a, b, p) / d, true
}

// baryY returns the height of weights u, v, w on triangle abc.
func baryY(u, v, w float64, a, b, c geom.Vec3) float32 {
	return float32(float64(u*float64(a.Y)) + float64(v*float64(b.Y)) + float64(w*float64(c.Y)))
}

// triHeight returns the height of triangle abc at p's x, z and true when p
// lies inside it (or on its border) in the XZ plane.
func triHeight(p, a, b, c geom.Vec3) (float32, bool) {
	u, v, w, ok := triBary(p, a, b, c)
	const eps = -1e-9
	if !ok || u < eps || v < eps || w < eps {
		return 0, false
	}
	return baryY(u, v, w, a, b, c), true
}

// closestOnSeg returns the point of segment a-b nearest to p in the XZ
// plane, with its height interpolated along the segment, and the squared
// XZ distance.
func closestOnSeg(p, a, b geom.Vec3) (geom.Vec3, float64) {
	ax, az := float64(a.X), float64(a.Z)
	dx, dz := float64(b.X)-ax, float64(b.Z)-az
	px, pz := float64(p.X)-ax, float64(p.Z)-az
	l := float64(dx*dx) + float64(dz*dz)
	t := 0.0
	if l > 0 {
		t = (float64(px*dx) + float64(pz*dz)) / l
		t = min(max(t, 0), 1)
	}
	q := geom.Vec3d{X: geom.Lerp(ax, float64(b.X), t), Y: geom.Lerp(float64(a.Y), float64(b.Y), t), Z: geom.Lerp(az, float64(b.Z), t)}
	ex, ez := float64(p.X)-q.X, float64(p.Z)-q.Z
	return q.F32(), float64(ex*ex) + float64(ez*ez)
}

// ClosestPointOnPoly returns the point of polygon ref nearest to p,
// metres: p's x, z with the surface height of the polygon's detail
// triangles (or corner fan) there when p lies over the polygon in the XZ
// plane, else the nearest point of the polygon's boundary in the XZ plane
// (ClosestPointOnPolyBoundary) at the surface height there.
func ClosestPointOnPoly(m *navmesh.Mesh, ref navmesh.PolyRef, p geom.Vec3) (geom.Vec3, error) {
	t, i, err := pointQuery(m, "ClosestPointOnPoly", ref, p)
	if err != nil {
		return geom.Vec3{}, err
	}
	q, _ := closestOnPoly(t, i, p)
	return q, nil
}

// ClosestPointOnPolyBoundary returns the point of polygon ref's boundary
// nearest to p in the XZ plane, with its height interpolated along the
// edge, metres (Detour's closestPointOnPolyBoundary; p inside the polygon
// gets the nearest edge point too).
func ClosestPointOnPolyBoundary(m *navmesh.Mesh, ref navmesh.PolyRef, p geom.Vec3) (geom.Vec3, error) {
	t, i, err := pointQuery(m, "ClosestPointOnPolyBoundary", ref, p)
	if err != nil {
		return geom.Vec3{}, err
	}
	q, _ := closestOnBoundary(polyVerts(t, i), p)
	return q, nil
}

// PolyHeight returns the height of polygon ref's surface (its detail
// triangles, or its corner fan) at p's x, z, metres. It is an error when
// p does not lie over the polygon in the XZ plane (Detour's
// getPolyHeight).
func PolyHeight(m *navmesh.Mesh, ref navmesh.PolyRef, p geom.Vec3) (float32, error) {
	t, i, err := pointQuery(m, "PolyHeight", ref, p)
	if err != nil {
		return 0, err
	}
	if !insideXZ(p, polyVerts(t, i)) {
		return 0, fmt.Errorf("query: PolyHeight: point %v is not over polygon %#x", p, uint64(ref))
	}
	q, _ := closestOnPoly(t, i, p)
	return q.Y, nil
}

// pointQuery checks the mesh, ref and p of a query on one polygon.
func pointQuery(m *navmesh.Mesh, what string, ref navmesh.PolyRef, p geom.Vec3) (*navmesh.Tile, int, error) {
	if m == nil {
		return nil, 0, fmt.Errorf("query: %s: nil mesh", what)
	}
	if !finite3(p) {
		return nil, 0, fmt.Errorf("query: %s: point %v is not finite", what, p)
	}
	return polyData(m, what, ref)
}

// closestOnBoundary returns the point of the boundary of polygon vs
// nearest to p in the XZ plane and its squared XZ distance.
func closestOnBoundary(vs []geom.Vec3, p geom.Vec3) (geom.Vec3, float64) {
	best, bestD := geom.Vec3{}, math.Inf(1)
	for j := range vs {
		q, d := closestOnSeg(p, vs[j], vs[(j+1)%len(vs)])
		if d < bestD {
			best, bestD = q, d
		}
	}
	return best, bestD
}

// surfaceHeight returns the height at p's x, z of the first triangle of
// polygon i (PolyTris) that holds p in the XZ plane.
func surfaceHeight(t *navmesh.Tile, i int, p geom.Vec3) (float32, bool) {
	found := false
	var y float32
	t.PolyTris(i, func(_ int, a, b, c geom.Vec3, _ uint8) {
		if found {
			return
		}
		if h, ok := triHeight(p, a, b, c); ok {
			y, found = h, true
		}
	})
	return y, found
}

// heightNear returns the surface height of polygon i at p's x, z
// (surfaceHeight), or, when rounding puts p just outside every triangle
// (a point on the boundary), the height of the triangle p is least
// outside of at its point nearest p (weights clamped to the triangle);
// fallback when the polygon has no triangle.
func heightNear(t *navmesh.Tile, i int, p geom.Vec3, fallback float32) float32 {
	if y, ok := surfaceHeight(t, i, p); ok {
		return y
	}
	best, y := math.Inf(-1), fallback
	t.PolyTris(i, func(_ int, a, b, c geom.Vec3, _ uint8) {
		u, v, w, ok := triBary(p, a, b, c)
		if !ok || min(u, v, w) <= best {
			return
		}
		best = min(u, v, w)
		u, v, w = max(u, 0), max(v, 0), max(w, 0)
		s := u + v + w
		y = baryY(u/s, v/s, w/s, a, b, c)
	})
	return y
}

// closestOnPoly returns the point of polygon i nearest to p
// (ClosestPointOnPoly) and whether p lies over the polygon.
func closestOnPoly(t *navmesh.Tile, i int, p geom.Vec3) (geom.Vec3, bool) {
	vs := polyVerts(t, i)
	q, _ := closestOnBoundary(vs, p)
	if insideXZ(p, vs) {
		return geom.Vec3{X: p.X, Y: heightNear(t, i, p, q.Y), Z: p.Z}, true
	}
	q.Y = heightNear(t, i, q, q.Y)
	return q, false
}

func dist3(a, b geom.Vec3) float64 { return math.Sqrt(distSq3(a, b)) }

func distSq3(a, b geom.Vec3) float64 {
	dx, dy, dz := float64(a.X)-float64(b.X), float64(a.Y)-float64(b.Y), float64(a.Z)-float64(b.Z)
	return float64(dx*dx) + float64(dy*dy) + float64(dz*dz)
}

// polyBounds returns the box of polygon i's corners and detail vertices.
func polyBounds(t *navmesh.Tile, i int) geom.Box3 {
	b := geom.EmptyBox()
	for _, v := range polyVerts(t, i) {
		b = b.Extend(v)
	}
	if i < len(t.DetailMeshes) {
		d := t.DetailMeshes[i]
		for k := 0; k < int(d.VertCount); k++ {
			if int(d.VertBase)+k < len(t.DetailVerts) {
				b = b.Extend(t.DetailVerts[int(d.VertBase)+k])
			}
		}
	}
	return b
}

func overlaps(a, b geom.Box3) bool {
	return a.Min.X <= b.Max.X && a.Max.X >= b.Min.X &&
		a.Min.Y <= b.Max.Y && a.Max.Y >= b.Min.Y &&
		a.Min.Z <= b.Max.Z && a.Max.Z >= b.Min.Z
}

// NearestPoly is NearestPolyFiltered with the default filter.
func NearestPoly(m *navmesh.Mesh, p geom.Vec3, halfExtents geom.Vec3) (navmesh.PolyRef, geom.Vec3, error) {
	return NearestPolyFiltered(m, p, halfExtents, nil)
}

// NearestPolyFiltered returns the polygon of m nearest to p among those
// that pass filter (nil: DefaultFilter) and whose box overlaps the query
// box p ± halfExtents (metres, each >= 0), and the nearest point on it
// (ClosestPointOnPoly), metres. The rule is Detour's findNearestPoly: a
// polygon p lies over (in the XZ plane) is at distance max(|dy| -
// climb, 0), dy the height of p above the polygon's surface at p's x, z
// and climb the tile's WalkableClimbM; any other polygon is at the 3D
// distance from p to its nearest boundary point. So a point standing on
// a polygon, or hovering up to a climb above it, keeps that polygon and
// its own x, z. Equal distances go to the polygon p lies over, then to
// the smaller 3D distance, then to the lower PolyRef. No polygon in the
// box is an error, as are a nil mesh and a non-finite or negative input.
func NearestPolyFiltered(m *navmesh.Mesh, p geom.Vec3, halfExtents geom.Vec3, filter *Filter) (navmesh.PolyRef, geom.Vec3, error) {
	if m == nil {
		return 0, geom.Vec3{}, fmt.Errorf("query: NearestPoly: nil mesh")
	}
	if !finite3(p) {
		return 0, geom.Vec3{}, fmt.Errorf("query: NearestPoly: point %v is not finite", p)
	}
	if !finite3(halfExtents) || halfExtents.X < 0 || halfExtents.Y < 0 || halfExtents.Z < 0 {
		return 0, geom.Vec3{}, fmt.Errorf("query: NearestPoly: half extents %v, want finite >= 0", halfExtents)
	}
	filter, err := orDefault(filter)
	if err != nil {
		return 0, geom.Vec3{}, fmt.Errorf("query: NearestPoly: %w", err)
	}
	box := geom.Box3{Min: p.Sub(halfExtents), Max: p.Add(halfExtents)}
	type cand struct {
		ref   navmesh.PolyRef
		pt    geom.Vec3
		d, d3 float64
		over  bool
	}
	best := cand{d: math.Inf(1)}
	better := func(c cand) bool {
		if c.d != best.d {
			return c.d < best.d
		}
		if c.over != best.over {
			return c.over
		}
		if c.d3 != best.d3 {
			return c.d3 < best.d3
		}
		return c.ref < best.ref
	}
	polysInBox(m, box, filter, func(t *navmesh.Tile, i int, ref navmesh.PolyRef) {
		q, over := closestOnPoly(t, i, p)
		c := cand{ref: ref, pt: q, d3: distSq3(p, q), over: over}
		if over {
			dy := math.Abs(float64(p.Y)-float64(q.Y)) - float64(t.Header.WalkableClimbM)
			c.d = float64(max(dy, 0) * max(dy, 0))
		} else {
			c.d = c.d3
		}
		if best.ref == 0 || better(c) {
			best = c
		}
	})
	if best.ref == 0 {
		return 0, geom.Vec3{}, fmt.Errorf("query: NearestPoly: no polygon within %v of %v", halfExtents, p)
	}
	return best.ref, best.pt, nil
}

// QueryPolygons returns the polygons that pass filter (nil:
// DefaultFilter) whose box (corners and detail vertices) overlaps the box
// centre ± halfExtents, metres, in ascending PolyRef order within each
// tile and tiles in Mesh.Tiles order (Detour's queryPolygons).
func QueryPolygons(m *navmesh.Mesh, centre, halfExtents geom.Vec3, filter *Filter) ([]navmesh.PolyRef, error) {
	if m == nil {
		return nil, fmt.Errorf("query: QueryPolygons: nil mesh")
	}
	if !finite3(centre) || !finite3(halfExtents) || halfExtents.X < 0 || halfExtents.Y < 0 || halfExtents.Z < 0 {
		return nil, fmt.Errorf("query: QueryPolygons: centre %v, half extents %v, want finite and extents >= 0", centre, halfExtents)
	}
	filter, err := orDefault(filter)
	if err != nil {
		return nil, fmt.Errorf("query: QueryPolygons: %w", err)
	}
	var out []navmesh.PolyRef
	polysInBox(m, geom.Box3{Min: centre.Sub(halfExtents), Max: centre.Add(halfExtents)}, filter,
		func(_ *navmesh.Tile, _ int, ref navmesh.PolyRef) { out = append(out, ref) })
	return out, nil
}

// polysInBox calls fn for every polygon of m that passes filter and whose
// box overlaps box, tiles in Mesh.Tiles order, polygons in index order.
func polysInBox(m *navmesh.Mesh, box geom.Box3, filter *Filter, fn func(t *navmesh.Tile, i int, ref navmesh.PolyRef)) {
	for _, tr := range m.Tiles() {
		t, err := m.Tile(tr)
		if err != nil {
			continue
		}
		if !overlaps(box, geom.Box3{Min: t.Header.BMin, Max: t.Header.BMax}) {
			continue
		}
		for i := range t.Polys {
			ref := tr.Poly(uint32(i))
			if !overlaps(box, polyBounds(t, i)) || !filter.passesRef(m, ref) {
				continue
			}
			fn(t, i, ref)
		}
	}
}
