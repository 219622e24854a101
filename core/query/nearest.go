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

// triHeight returns the height of triangle abc at p's x, z and true when p
// lies inside it (or on its border) in the XZ plane.
func triHeight(p, a, b, c geom.Vec3) (float32, bool) {
	d := cross2(a, b, c)
	if d == 0 {
		return 0, false
	}
	u := cross2(b, c, p) / d
	v := cross2(c, a, p) / d
	w := cross2(a, b, p) / d
	const eps = -1e-9
	if u < eps || v < eps || w < eps {
		return 0, false
	}
	y := float64(u*float64(a.Y)) + float64(v*float64(b.Y)) + float64(w*float64(c.Y))
	return float32(y), true
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
// triangles (or corner fan) there when p lies over the polygon, else the
// nearest point of the polygon's boundary in the XZ plane.
func ClosestPointOnPoly(m *navmesh.Mesh, ref navmesh.PolyRef, p geom.Vec3) (geom.Vec3, error) {
	if m == nil {
		return geom.Vec3{}, fmt.Errorf("query: ClosestPointOnPoly: nil mesh")
	}
	if !finite3(p) {
		return geom.Vec3{}, fmt.Errorf("query: ClosestPointOnPoly: point %v is not finite", p)
	}
	tr, i, err := m.DecodeRef(ref)
	if err != nil {
		return geom.Vec3{}, fmt.Errorf("query: ClosestPointOnPoly: polygon %#x: %w", uint64(ref), err)
	}
	t, err := m.Tile(tr)
	if err != nil {
		return geom.Vec3{}, fmt.Errorf("query: ClosestPointOnPoly: polygon %#x: %w", uint64(ref), err)
	}
	return closestOnPoly(t, i, p), nil
}

func closestOnPoly(t *navmesh.Tile, i int, p geom.Vec3) geom.Vec3 {
	vs := polyVerts(t, i)
	best, bestD := geom.Vec3{}, math.Inf(1)
	for j := range vs {
		q, d := closestOnSeg(p, vs[j], vs[(j+1)%len(vs)])
		if d < bestD {
			best, bestD = q, d
		}
	}
	if !insideXZ(p, vs) {
		return best
	}
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
	if !found {
		return best
	}
	return geom.Vec3{X: p.X, Y: y, Z: p.Z}
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

// NearestPoly returns the polygon of m nearest to p among those whose box
// overlaps the query box p ± halfExtents (metres, each >= 0), and the
// nearest point on it (ClosestPointOnPoly), metres. Distance is the 3D
// distance from p to that point; equal distances go to the lower PolyRef.
// No polygon in the box is an error, as are a nil mesh and a non-finite
// or negative input.
func NearestPoly(m *navmesh.Mesh, p geom.Vec3, halfExtents geom.Vec3) (navmesh.PolyRef, geom.Vec3, error) {
	if m == nil {
		return 0, geom.Vec3{}, fmt.Errorf("query: NearestPoly: nil mesh")
	}
	if !finite3(p) {
		return 0, geom.Vec3{}, fmt.Errorf("query: NearestPoly: point %v is not finite", p)
	}
	if !finite3(halfExtents) || halfExtents.X < 0 || halfExtents.Y < 0 || halfExtents.Z < 0 {
		return 0, geom.Vec3{}, fmt.Errorf("query: NearestPoly: half extents %v, want finite >= 0", halfExtents)
	}
	box := geom.Box3{Min: p.Sub(halfExtents), Max: p.Add(halfExtents)}
	var bestRef navmesh.PolyRef
	var bestPt geom.Vec3
	bestD := math.Inf(1)
	for _, tr := range m.Tiles() {
		t, err := m.Tile(tr)
		if err != nil {
			continue
		}
		if !overlaps(box, geom.Box3{Min: t.Header.BMin, Max: t.Header.BMax}) {
			continue
		}
		for i := range t.Polys {
			if !overlaps(box, polyBounds(t, i)) {
				continue
			}
			q := closestOnPoly(t, i, p)
			d := distSq3(p, q)
			ref := tr.Poly(uint32(i))
			if d < bestD || d == bestD && ref < bestRef {
				bestRef, bestPt, bestD = ref, q, d
			}
		}
	}
	if bestRef == 0 {
		return 0, geom.Vec3{}, fmt.Errorf("query: NearestPoly: no polygon within %v of %v", halfExtents, p)
	}
	return bestRef, bestPt, nil
}
