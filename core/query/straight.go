package query

import (
	"fmt"
	"math"

	"navviz/core/geom"
	"navviz/core/navmesh"
)

// portal is a corridor portal with its ends ordered left and right as seen
// moving along the corridor (left counter-clockwise of right from inside
// the polygon left behind, x right and z up).
type portal struct{ left, right geom.Vec3 }

// centroid returns the mean of polygon i's corners (inside it: the polygon
// is convex).
func centroid(t *navmesh.Tile, i int) geom.Vec3 { return meanPoint(polyVerts(t, i)) }

// meanPoint returns the mean of vs, summed in float64.
func meanPoint(vs []geom.Vec3) geom.Vec3 {
	var x, y, z float64
	for _, v := range vs {
		x += float64(v.X)
		y += float64(v.Y)
		z += float64(v.Z)
	}
	n := float64(len(vs))
	return geom.Vec3d{X: x / n, Y: y / n, Z: z / n}.F32()
}

// Portal returns the portal from polygon from to its neighbour to, metres:
// the part of their shared edge the first link (in link order) from from
// to to uses, ends ordered left then right as seen leaving from. It is an
// error when either ref is stale or from has no link to to.
func Portal(m *navmesh.Mesh, from, to navmesh.PolyRef) (left, right geom.Vec3, err error) {
	if m == nil {
		return left, right, fmt.Errorf("query: Portal: nil mesh")
	}
	p, err := portalOf(m, "Portal", from, to)
	return p.left, p.right, err
}

func portalOf(m *navmesh.Mesh, what string, from, to navmesh.PolyRef) (portal, error) {
	a, b, err := linkPortalOf(m, what, from, to)
	if err != nil {
		return portal{}, err
	}
	t, i, err := polyData(m, what, from)
	if err == nil && cross2(centroid(t, i), b, a) < 0 { // an off-mesh portal is a point
		a, b = b, a
	}
	return portal{left: a, right: b}, nil
}

// linkPortalOf returns the portal of the first link (in link order) from
// polygon from to polygon to, ends in edge order, metres.
func linkPortalOf(m *navmesh.Mesh, what string, from, to navmesh.PolyRef) (geom.Vec3, geom.Vec3, error) {
	t, i, err := nodeData(m, what, from)
	if err != nil {
		return geom.Vec3{}, geom.Vec3{}, err
	}
	if _, _, err := nodeData(m, what, to); err != nil {
		return geom.Vec3{}, geom.Vec3{}, err
	}
	links, err := m.Links(from)
	if err != nil {
		return geom.Vec3{}, geom.Vec3{}, fmt.Errorf("query: %s: polygon %#x: %w", what, uint64(from), err)
	}
	for _, l := range links {
		if l.Ref == to {
			a, b := nodePortal(m, from, t, i, l)
			return a, b, nil
		}
	}
	return geom.Vec3{}, geom.Vec3{}, fmt.Errorf("query: %s: polygon %#x has no link to %#x", what, uint64(from), uint64(to))
}

// StraightPath returns the corners of the shortest path from start to end
// (metres) inside corridor (as FindPath gives it: corridor[0] holds start,
// the last polygon holds end): string pulling through the corridor's
// portals (the "simple stupid funnel"). The first point is start and the
// last is end, exactly as given; in between come the portal ends where
// the path turns. An empty corridor, a stale ref or two neighbouring refs
// without a link between them is an error naming the ref.
func StraightPath(m *navmesh.Mesh, start, end geom.Vec3, corridor []navmesh.PolyRef) ([]geom.Vec3, error) {
	pp, err := StraightPathDetailed(m, start, end, corridor, 0)
	if err != nil {
		return nil, err
	}
	pts := make([]geom.Vec3, len(pp))
	for i, p := range pp {
		pts[i] = p.Pos
	}
	return pts, nil
}

// Straight-path point flags (PathPoint.Flags; Detour's dtStraightPathFlags).
const (
	// PointStart marks the first point.
	PointStart uint8 = 1 << iota
	// PointEnd marks the last point.
	PointEnd
	// PointCrossing marks a point added where the path crosses a portal
	// (CrossAreas, CrossAll).
	PointCrossing
	// PointOffMesh marks the start and the end of an off-mesh link the
	// path takes (Detour's DT_STRAIGHTPATH_OFFMESH_CONNECTION). The start's
	// Ref is the link's node.
	PointOffMesh
)

// Crossing options of StraightPathDetailed (Detour's
// DT_STRAIGHTPATH_AREA_CROSSINGS and DT_STRAIGHTPATH_ALL_CROSSINGS).
const (
	// CrossAreas adds a point where the path crosses a portal between
	// polygons of different areas.
	CrossAreas = 1 << iota
	// CrossAll adds a point at every portal the path crosses.
	CrossAll
)

// PathPoint is a point of StraightPathDetailed.
type PathPoint struct {
	// Pos is the point, metres.
	Pos geom.Vec3
	// Flags are PointStart, PointEnd, PointCrossing.
	Flags uint8
	// Ref is the corridor polygon the path goes on in from the point (the
	// last polygon for the end).
	Ref navmesh.PolyRef
}

// StraightPathDetailed is StraightPath with, for every point, its flags
// and polygon; options (CrossAreas, CrossAll, 0 for none) add the points
// where the path crosses portals. A crossing that coincides with a
// corner is not added twice; one at the point before it (a start on a
// portal's end) makes that point's Ref the polygon it leads into.
func StraightPathDetailed(m *navmesh.Mesh, start, end geom.Vec3, corridor []navmesh.PolyRef, options int) ([]PathPoint, error) {
	if m == nil {
		return nil, fmt.Errorf("query: StraightPath: nil mesh")
	}
	if !finite3(start) || !finite3(end) {
		return nil, fmt.Errorf("query: StraightPath: points %v, %v, want finite", start, end)
	}
	if len(corridor) == 0 {
		return nil, fmt.Errorf("query: StraightPath: empty corridor")
	}
	if options&^(CrossAreas|CrossAll) != 0 {
		return nil, fmt.Errorf("query: StraightPath: options %#x, want CrossAreas, CrossAll or 0", options)
	}
	if _, _, err := polyData(m, "StraightPath", corridor[0]); err != nil {
		return nil, err
	}
	// The corridor runs over polygons and off-mesh link nodes: pull the
	// string through each run of polygons, from the start (or the end of
	// the link before it) to the end (or the start of the link after it).
	var out []PathPoint
	from, first := start, 0
	for k := 1; k < len(corridor); k++ {
		if !m.IsOffMesh(corridor[k]) {
			continue
		}
		in, _, err := linkPortalOf(m, "StraightPath", corridor[k-1], corridor[k])
		if err != nil {
			return nil, err
		}
		run, err := straightRun(m, from, in, corridor[first:k], options)
		if err != nil {
			return nil, err
		}
		run[len(run)-1].Flags = run[len(run)-1].Flags&^PointEnd | PointOffMesh
		run[len(run)-1].Ref = corridor[k]
		out = appendRun(out, run)
		if k+1 == len(corridor) { // a partial corridor that ends on the link
			out[len(out)-1].Flags |= PointEnd
			return out, nil
		}
		if from, _, err = linkPortalOf(m, "StraightPath", corridor[k], corridor[k+1]); err != nil {
			return nil, err
		}
		first = k + 1
	}
	run, err := straightRun(m, from, end, corridor[first:], options)
	if err != nil {
		return nil, err
	}
	return appendRun(out, run), nil
}

// appendRun appends the points of run to out; a run after another starts
// at the end of an off-mesh link (PointOffMesh, not PointStart).
func appendRun(out, run []PathPoint) []PathPoint {
	if len(out) > 0 {
		run[0].Flags = run[0].Flags&^PointStart | PointOffMesh
	}
	return append(out, run...)
}

// straightRun is StraightPathDetailed on a corridor of polygons only.
func straightRun(m *navmesh.Mesh, start, end geom.Vec3, corridor []navmesh.PolyRef, options int) ([]PathPoint, error) {
	ps := make([]portal, 0, len(corridor)+1)
	ps = append(ps, portal{start, start})
	for i := 0; i+1 < len(corridor); i++ {
		p, err := portalOf(m, "StraightPath", corridor[i], corridor[i+1])
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	ps = append(ps, portal{end, end})
	pts, at := funnel(ps)
	// The end is exactly as given; a last corner that is one point with it
	// (an end on a portal's end, rounded or at another height) is the end.
	if k := len(pts) - 1; k > 0 && samePointXZ(pts[k], end) {
		pts, at = pts[:k], at[:k]
	}
	if pts[len(pts)-1] != end {
		pts = append(pts, end)
		at = append(at, len(ps)-1)
	}
	// Portal i (1..len(ps)-2) leads from corridor[i-1] into corridor[i].
	cross := func(i int) bool {
		if options&CrossAll != 0 {
			return true
		}
		if options&CrossAreas == 0 {
			return false
		}
		a, _ := m.PolyArea(corridor[i-1])
		b, _ := m.PolyArea(corridor[i])
		return a != b
	}
	out := []PathPoint{{Pos: pts[0], Flags: PointStart, Ref: corridor[0]}}
	for k := 1; k < len(pts); k++ {
		for i := at[k-1] + 1; i < at[k]; i++ {
			if !cross(i) {
				continue
			}
			q, ok := segPortal(pts[k-1], pts[k], ps[i])
			switch {
			case !ok || samePointXZ(q, pts[k]):
				// Parallel to the portal, or crossing it at the corner
				// itself: the corner's point stands for the crossing.
			case samePointXZ(q, out[len(out)-1].Pos):
				// The portal is crossed at the point before (a start on
				// the portal's end, or another crossing at a corner of
				// the corridor): the path goes on from there in
				// corridor[i].
				out[len(out)-1].Ref = corridor[i]
			default:
				out = append(out, PathPoint{Pos: q, Flags: PointCrossing, Ref: corridor[i]})
			}
		}
		ref := corridor[len(corridor)-1]
		if at[k] < len(corridor) {
			ref = corridor[at[k]]
		}
		out = append(out, PathPoint{Pos: pts[k], Ref: ref})
	}
	out[len(out)-1].Flags |= PointEnd
	return out, nil
}

// segPortal returns where segment a-b crosses the line of portal p in the
// XZ plane, the point on the portal (clamped to it, height along it);
// false when they are parallel.
func segPortal(a, b geom.Vec3, p portal) (geom.Vec3, bool) {
	// Solve a + t (b - a) on the line l + s (r - l).
	dx, dz := float64(b.X)-float64(a.X), float64(b.Z)-float64(a.Z)
	ex, ez := float64(p.right.X)-float64(p.left.X), float64(p.right.Z)-float64(p.left.Z)
	den := float64(dx*ez) - float64(dz*ex)
	if den == 0 {
		return geom.Vec3{}, false
	}
	wx, wz := float64(p.left.X)-float64(a.X), float64(p.left.Z)-float64(a.Z)
	s := (float64(wx*dz) - float64(wz*dx)) / den
	return lerpPoint(p.left, p.right, min(max(s, 0), 1)), true
}

// samePointEpsM is the XZ distance, metres, under which the funnel takes
// two points for one (a start or end on a portal's end, rounded to
// float32, differs from the corner by micrometres and in height).
const samePointEpsM = 1e-4

// samePointXZ reports whether a and b are one point for the funnel: less
// than samePointEpsM apart in the XZ plane.
func samePointXZ(a, b geom.Vec3) bool {
	dx, dz := float64(a.X)-float64(b.X), float64(a.Z)-float64(b.Z)
	return float64(dx*dx)+float64(dz*dz) < samePointEpsM*samePointEpsM
}

// startOnPortalM is the XZ distance, metres, under which a start lies on
// the first portal (Detour's 1 mm; float32 positions 5 km out are 0.49
// mm apart, so a point put on a slanted portal can be 0.25 mm off it).
const startOnPortalM = 1e-3

// funnel pulls a string through portals: ps[0] is (start, start), the last
// (end, end). It returns start followed by the corners, and for each the
// index in ps of the portal it lies on. A corner that is one point with
// the one before (samePointXZ) is not repeated; the first portal is
// skipped when the start lies on it (startOnPortalM).
func funnel(ps []portal) ([]geom.Vec3, []int) {
	apex := ps[0].left
	left, right := apex, apex
	apexI, leftI, rightI := 0, 0, 0
	pts := []geom.Vec3{apex}
	at := []int{0}
	add := func(v geom.Vec3, i int) {
		if !samePointXZ(v, pts[len(pts)-1]) {
			pts = append(pts, v)
			at = append(at, i)
		}
	}
	guard := len(ps) * len(ps)
	for i := 1; i < len(ps) && guard > 0; i++ {
		guard--
		l, r := ps[i].left, ps[i].right
		// A start on the first portal (within startOnPortalM, as Detour)
		// would open the funnel to a straight angle, in which an end the
		// next portal shares lies on both sides: the portal is skipped
		// (the polygon beyond is convex and holds the start).
		if i == 1 && i+1 < len(ps) && segDistXZ(apex, l, r) < startOnPortalM {
			continue
		}
		// Tighten the right side: r lies left of (or on) apex→right.
		if cross2(apex, right, r) >= 0 {
			if samePointXZ(apex, right) || cross2(apex, left, r) < 0 {
				right, rightI = r, i
			} else {
				// r crosses the left side: the left end is a corner.
				add(left, leftI)
				apex, apexI = left, leftI
				left, right, leftI, rightI = apex, apex, apexI, apexI
				i = apexI
				continue
			}
		}
		// Tighten the left side: l lies right of (or on) apex→left.
		if cross2(apex, left, l) <= 0 {
			if samePointXZ(apex, left) || cross2(apex, right, l) > 0 {
				left, leftI = l, i
			} else {
				add(right, rightI)
				apex, apexI = right, rightI
				left, right, leftI, rightI = apex, apex, apexI, apexI
				i = apexI
				continue
			}
		}
	}
	return pts, at
}

// PathLength returns the length of the polyline pts, metres (3D).
func PathLength(pts []geom.Vec3) float64 {
	s := 0.0
	for i := 1; i < len(pts); i++ {
		s += dist3(pts[i-1], pts[i])
	}
	if math.IsNaN(s) {
		return 0
	}
	return s
}
