package query

import (
	"fmt"
	"math"

	"navviz/core/geom"
	"navviz/core/navmesh"
)

// maxRaycastPolys bounds the polygons Raycast walks through.
const maxRaycastPolys = 1 << 16

// portalSlack is how far outside a link's part of an edge (as a fraction
// of the edge) the ray may cross and still pass through it.
const portalSlack = 1e-6

// StartSlackM is how far outside startRef (XZ distance to an edge's line,
// metres) Raycast's start may lie and still count as on that edge: a
// point NearestPoly or ClosestPointOnPoly put on an edge is rounded to
// float32 and can land a few micrometres outside the polygon.
const StartSlackM = 1e-4

// RaycastHit is the result of Raycast.
type RaycastHit struct {
	// T is where the ray stopped, as a fraction of the segment from start
	// to end (0..1): the wall it hit. +Inf when it reached end.
	T float64
	// Normal is the unit normal of the wall hit in the XZ plane (Y 0),
	// facing the start; zero when the ray reached end.
	Normal geom.Vec3
	// Path lists the polygons the ray crossed, startRef first.
	Path []navmesh.PolyRef
}

// Reached reports whether the ray reached its end without hitting a wall.
func (h RaycastHit) Reached() bool { return math.IsInf(h.T, 1) }

// Raycast walks the segment start→end (metres) over the polygons in the
// XZ plane, as Detour's raycast does: from startRef (which should hold
// start) across every link the segment crosses, until it reaches the
// polygon holding end or an edge with no link where it crosses (a wall,
// or a neighbour filter rejects; nil filter is DefaultFilter()). Heights
// are ignored. When start lies outside startRef the ray stops at once: T
// 0 and the normal of the edge start lies behind. A nil mesh, a stale
// startRef and non-finite points are errors.
func Raycast(m *navmesh.Mesh, startRef navmesh.PolyRef, start, end geom.Vec3, filter *Filter) (RaycastHit, error) {
	if m == nil {
		return RaycastHit{}, fmt.Errorf("query: Raycast: nil mesh")
	}
	if filter == nil {
		filter = DefaultFilter()
	}
	if !finite3(start) || !finite3(end) {
		return RaycastHit{}, fmt.Errorf("query: Raycast: points %v, %v, want finite", start, end)
	}
	if _, _, err := polyData(m, "Raycast", startRef); err != nil {
		return RaycastHit{}, err
	}
	hit := RaycastHit{}
	cur, prev := startRef, navmesh.PolyRef(0)
	lastT, lastNormal := 0.0, geom.Vec3{}
	for n := 0; n < maxRaycastPolys; n++ {
		t, pi, err := polyData(m, "Raycast", cur)
		if err != nil {
			return RaycastHit{}, err
		}
		hit.Path = append(hit.Path, cur)
		vs := polyVerts(t, pi)
		slack := 0.0
		if cur == startRef {
			slack = StartSlackM
		}
		tmin, tmax, segMin, segMax, ok := clipSegment(start, end, vs, slack)
		if !ok && cur != startRef {
			// Rounding at a shared corner: stop where the ray entered.
			hit.T, hit.Normal = lastT, lastNormal
			return hit, nil
		}
		if !ok || tmin > 0 && cur == startRef {
			// start lies outside its polygon: stop at once.
			hit.T = 0
			e := segMin
			if e < 0 {
				e = 0
			}
			hit.Normal = wallNormal(vs[e], vs[(e+1)%len(vs)], start)
			return hit, nil
		}
		if tmax >= 1 || segMax < 0 {
			hit.T = math.Inf(1)
			return hit, nil
		}
		q := lerpPoint(start, end, tmax)
		links, err := m.Links(cur)
		if err != nil {
			return RaycastHit{}, fmt.Errorf("query: Raycast: polygon %#x: %w", uint64(cur), err)
		}
		next := navmesh.PolyRef(0)
		for _, l := range links {
			if l.Side == navmesh.OffMeshSide || int(l.Edge) != segMax || l.Ref == prev {
				continue
			}
			if flags, err := m.PolyFlags(l.Ref); err != nil || !filter.Passes(flags) {
				continue
			}
			a, b := linkPortal(t, pi, l)
			if !onPortal(q, vs[segMax], vs[(segMax+1)%len(vs)], a, b, slack) {
				continue
			}
			next = l.Ref
			break
		}
		if next == 0 {
			hit.T = tmax
			hit.Normal = wallNormal(vs[segMax], vs[(segMax+1)%len(vs)], start)
			return hit, nil
		}
		lastT, lastNormal = tmax, wallNormal(vs[segMax], vs[(segMax+1)%len(vs)], start)
		prev, cur = cur, next
	}
	return hit, fmt.Errorf("query: Raycast: crossed more than %d polygons", maxRaycastPolys)
}

// clipSegment clips start→end to convex polygon vs in the XZ plane
// (either winding): the parameter range [tmin, tmax] inside it and the
// edges it enters and leaves by (-1: none), false when it misses. A start
// at most slackM metres outside an edge's line counts as on that line.
func clipSegment(start, end geom.Vec3, vs []geom.Vec3, slackM float64) (tmin, tmax float64, segMin, segMax int, ok bool) {
	area := 0.0
	for j := 1; j+1 < len(vs); j++ {
		area += cross2(vs[0], vs[j], vs[j+1])
	}
	sign := 1.0
	if area < 0 {
		sign = -1
	}
	tmin, tmax, segMin, segMax = 0, 1, -1, -1
	for j := range vs {
		a, b := vs[j], vs[(j+1)%len(vs)]
		fs := float64(sign * cross2(a, b, start))
		fe := float64(sign * cross2(a, b, end))
		if fs < 0 && slackM > 0 && fs >= -slackM*geom.Hypot(float64(b.X)-float64(a.X), float64(b.Z)-float64(a.Z)) {
			fs = 0 // start on the edge's line, within the slack
		}
		d := fe - fs
		if d == 0 {
			if fs < 0 {
				return 0, 0, j, -1, false
			}
			continue
		}
		tb := -fs / d
		if d < 0 { // leaving the inside
			if tb < tmax {
				tmax, segMax = tb, j
			}
		} else if tb > tmin {
			tmin, segMin = tb, j
		}
		if tmin > tmax {
			return tmin, tmax, segMin, segMax, false
		}
	}
	return tmin, tmax, segMin, segMax, true
}

func lerpPoint(a, b geom.Vec3, t float64) geom.Vec3 {
	return geom.Vec3d{
		X: geom.Lerp(float64(a.X), float64(b.X), t),
		Y: geom.Lerp(float64(a.Y), float64(b.Y), t),
		Z: geom.Lerp(float64(a.Z), float64(b.Z), t),
	}.F32()
}

// onPortal reports whether q (on edge va-vb) lies within the part a-b of
// the edge, by its parameter along the edge in the XZ plane, give or take
// portalSlack of the edge and slackM metres.
func onPortal(q, va, vb, a, b geom.Vec3, slackM float64) bool {
	dx, dz := float64(vb.X)-float64(va.X), float64(vb.Z)-float64(va.Z)
	l := float64(dx*dx) + float64(dz*dz)
	if !(l > 0) {
		return false
	}
	param := func(p geom.Vec3) float64 {
		return (float64((float64(p.X)-float64(va.X))*dx) + float64((float64(p.Z)-float64(va.Z))*dz)) / l
	}
	s, s0, s1 := param(q), param(a), param(b)
	if s0 > s1 {
		s0, s1 = s1, s0
	}
	e := portalSlack + slackM/math.Sqrt(l)
	return s >= s0-e && s <= s1+e
}

// wallNormal returns the unit normal of edge a-b in the XZ plane facing
// towards p (zero for a degenerate edge).
func wallNormal(a, b, p geom.Vec3) geom.Vec3 {
	dx, dz := float64(b.X)-float64(a.X), float64(b.Z)-float64(a.Z)
	l := geom.Hypot(dx, dz)
	if !(l > 0) {
		return geom.Vec3{}
	}
	nx, nz := dz/l, -dx/l
	if float64(nx*(float64(p.X)-float64(a.X)))+float64(nz*(float64(p.Z)-float64(a.Z))) < 0 {
		nx, nz = -nx, -nz
	}
	return geom.Vec3{X: float32(nx), Z: float32(nz)}
}
