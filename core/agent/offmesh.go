package agent

import (
	"fmt"
	"slices"

	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/core/query"
)

// Off-mesh links (docs/agents.md §2): a corridor may cross a link node.
// The straight path then jumps from the link's start to its end; the agent
// walks to the point of the polygon before the link nearest to the link's
// start, to the start, along the link to its end and to the point of the
// polygon after the link nearest to the end, standing on the link's node
// (the link's ends may lie up to its radius off the polygons they land
// on). These legs are measured in 3D (a ladder takes its height's time).
// An agent crossing a link finishes the crossing before it plans again.

// waypoint is a point of an agent's path.
type waypoint struct {
	pos geom.Vec3
	// ref is the corridor node the agent goes on in from the point.
	ref navmesh.PolyRef
	// link marks the points from which the agent crosses an off-mesh link.
	link bool
}

// waypoints returns the points of straight path pts (of corridor, which
// does not end on a link node) as an agent walks them: each link's start
// and end (query.PointOffMesh, the start's Ref the link's node) with the
// points where the agent leaves the polygon before the link and comes onto
// the polygon after it.
func waypoints(m *navmesh.Mesh, corridor []navmesh.PolyRef, pts []query.PathPoint) ([]waypoint, error) {
	out := make([]waypoint, 0, len(pts))
	from := 0 // corridor index to look for the next link node from
	for i := 0; i < len(pts); i++ {
		p := pts[i]
		k := -1
		if p.Flags&query.PointOffMesh != 0 && i+1 < len(pts) && m.IsOffMesh(p.Ref) {
			if k = slices.Index(corridor[from:], p.Ref); k >= 0 {
				k += from
			}
		}
		if k < 1 || k+1 >= len(corridor) {
			out = append(out, waypoint{pos: p.Pos, ref: p.Ref})
			continue
		}
		end := pts[i+1]
		off, err := query.ClosestPointOnPoly(m, corridor[k-1], p.Pos)
		if err != nil {
			return nil, err
		}
		on, err := query.ClosestPointOnPoly(m, corridor[k+1], end.Pos)
		if err != nil {
			return nil, err
		}
		out = append(out, waypoint{off, p.Ref, true}, waypoint{p.Pos, p.Ref, true},
			waypoint{end.Pos, p.Ref, true}, waypoint{on, end.Ref, false})
		i++
		from = k + 1
	}
	return out, nil
}

// onLink reports whether a is crossing an off-mesh link (it passed a
// point from which the leg ahead is part of a link).
func (a *agent) onLink() bool {
	return a.next >= 1 && a.next < len(a.pts) && a.pts[a.next-1].link
}

// checkOnLink returns an error when a, standing on link node ref, is more
// than the link's radius plus toleranceM (horizontally) off the link.
func (a *agent) checkOnLink(m *navmesh.Mesh, ref navmesh.PolyRef, toleranceM float64) error {
	l, _ := m.OffMeshLinkOf(ref)
	if d := segDistXZ(a.pos, l.StartM, l.EndM); d > float64(l.RadiusM)+toleranceM {
		return fmt.Errorf("at %v is %.4g m off its off-mesh link %#x (radius %g m)", a.pos, d, uint64(ref), l.RadiusM)
	}
	return nil
}

// segDistXZ is the horizontal distance from p to segment a-b.
func segDistXZ(p, a, b geom.Vec3) float64 {
	ax, az := float64(a.X), float64(a.Z)
	dx, dz := float64(b.X)-ax, float64(b.Z)-az
	px, pz := float64(p.X)-ax, float64(p.Z)-az
	l2 := float64(dx*dx) + float64(dz*dz)
	t := 0.0
	if l2 > 0 {
		t = min(max((float64(px*dx)+float64(pz*dz))/l2, 0), 1)
	}
	return geom.Hypot(px-float64(t*dx), pz-float64(t*dz))
}
