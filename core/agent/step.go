package agent

import (
	"errors"
	"fmt"
	"slices"

	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/core/query"
)

// see records m as the mesh the crowd last saw and reports whether it is
// another mesh (pointer) and whether its tiles changed (a swap, an added
// or removed tile) since.
func (c *Crowd) see(m *navmesh.Mesh) (other, swapped bool) {
	tiles := m.Tiles()
	other = m != c.mesh
	swapped = other || !slices.Equal(tiles, c.tiles)
	c.mesh, c.tiles = m, tiles
	return other, swapped
}

// Follow tells the crowd that m is a later state of the mesh it walks on,
// not another mesh: a copy a worker handed over (navmesh.Mesh.Clone keeps
// every reference). The next Step then checks the agents' corridors
// against m's references, re-planning only the agents whose polygons went
// stale, instead of re-planning every agent as it does for another mesh. A
// nil crowd or mesh is an error and changes nothing.
func (c *Crowd) Follow(m *navmesh.Mesh) error {
	if c == nil || m == nil {
		return fmt.Errorf("agent: Follow: nil crowd or mesh")
	}
	c.mesh = m
	return nil
}

// Step advances the crowd by one time step on m, the mesh as it is now.
// First every agent checks its corridor, from the polygon it stands on to
// the end: when m is another mesh than the last one seen, or a polygon of
// it is stale (its tile was swapped or removed), the agent plans again
// from its position (snapped to the nearest polygon); after any change of
// m's tiles an Unreachable agent plans again too (an obstacle removed may
// have opened its way). An agent crossing an off-mesh link plans only
// when it lands (a stale corridor is dropped meanwhile). Then each Moving
// or Unreachable agent walks SpeedMPS × StepS metres along its straight
// path; one that reaches the end of its path arrives (ArriveStop:
// Arrived; ArriveWander: a new target and a new plan) unless it is
// Unreachable, which waits there. A polygon is never read through a stale
// reference. A nil mesh is an error and changes nothing.
func (c *Crowd) Step(m *navmesh.Mesh) error {
	if c == nil || m == nil {
		return fmt.Errorf("agent: Step: nil crowd or mesh")
	}
	other, swapped := c.see(m)
	for i := range c.agents {
		a := &c.agents[i]
		stale := !other && !a.corridorValid(m)
		if stale {
			a.replans++
		}
		if other || stale || swapped && a.state == Unreachable {
			c.planOrDefer(m, a, other || stale)
		}
		c.walk(m, a)
	}
	c.steps++
	return nil
}

// Advance runs n steps on m (Step n times).
func (c *Crowd) Advance(m *navmesh.Mesh, n int) error {
	if n < 0 {
		return fmt.Errorf("agent: Advance: %d steps, want >= 0", n)
	}
	for range n {
		if err := c.Step(m); err != nil {
			return err
		}
	}
	return nil
}

// CheckRefs returns an error naming the first agent whose remaining
// corridor holds a polygon reference that is not valid in m, or whose
// position is not over the polygon it stands on (more than toleranceM in
// the horizontal plane); nil when every agent is sound. Right after
// Step(m) it is nil: the tests check it after random edit histories.
func (c *Crowd) CheckRefs(m *navmesh.Mesh, toleranceM float64) error {
	if c == nil || m == nil {
		return fmt.Errorf("agent: CheckRefs: nil crowd or mesh")
	}
	for i := range c.agents {
		a := &c.agents[i]
		for k := a.ci; k < len(a.corridor); k++ {
			if !m.IsValidRef(a.corridor[k]) {
				return fmt.Errorf("agent %d: corridor polygon %d %#x is stale", i, k, uint64(a.corridor[k]))
			}
		}
		if a.ci >= len(a.corridor) {
			continue
		}
		if m.IsOffMesh(a.corridor[a.ci]) {
			if err := a.checkOnLink(m, a.corridor[a.ci], toleranceM); err != nil {
				return fmt.Errorf("agent %d %w", i, err)
			}
			continue
		}
		q, err := query.ClosestPointOnPoly(m, a.corridor[a.ci], a.pos)
		if err != nil {
			return fmt.Errorf("agent %d: %w", i, err)
		}
		if d := geom.Hypot(float64(q.X)-float64(a.pos.X), float64(q.Z)-float64(a.pos.Z)); d > toleranceM {
			return fmt.Errorf("agent %d at %v is %.4g m off its polygon %#x", i, a.pos, d, uint64(a.corridor[a.ci]))
		}
	}
	return nil
}

// planOrDefer plans a's path again, or, when a is crossing an off-mesh
// link, when it lands: drop (the corridor's references are stale or name
// another mesh) then drops its corridor for the rest of the crossing.
func (c *Crowd) planOrDefer(m *navmesh.Mesh, a *agent, drop bool) {
	if !a.onLink() {
		c.plan(m, a)
		return
	}
	a.replan = true
	if drop {
		a.corridor, a.ci = nil, 0
	}
}

// corridorValid reports whether every polygon of a's corridor from the one
// it stands on is valid in m.
func (a *agent) corridorValid(m *navmesh.Mesh) bool {
	for _, r := range a.corridor[a.ci:] {
		if !m.IsValidRef(r) {
			return false
		}
	}
	return true
}

// unreachable marks a Unreachable for reason, with no path to walk.
func (a *agent) unreachable(reason string) {
	a.state, a.reason = Unreachable, reason
	a.pts, a.next = nil, 0
}

// plan finds a's path on m from its position to its target: the nearest
// polygon to each (query.NearestPolyFiltered within HalfExtentsM; the
// agent moves to the point found), the corridor (query.FindPath) and the
// straight path with every portal crossing (query.StraightPathDetailed,
// query.CrossAll). An Arrived agent only snaps to the mesh. Failures make
// the agent Unreachable with the reason; a partial corridor too, but it
// walks the partial path (to the point of its last polygon nearest the
// target).
func (c *Crowd) plan(m *navmesh.Mesh, a *agent) {
	a.plans++
	a.corridor, a.ci, a.replan = nil, 0, false
	sr, sp, err := query.NearestPolyFiltered(m, a.pos, HalfExtentsM, c.filter)
	if err != nil {
		a.unreachable("no polygon near the agent: " + err.Error())
		return
	}
	a.pos, a.corridor = sp, []navmesh.PolyRef{sr}
	if a.state == Arrived {
		a.pts, a.next = nil, 0
		return
	}
	er, ep, err := query.NearestPolyFiltered(m, a.target, HalfExtentsM, c.filter)
	if err != nil {
		a.unreachable("no polygon near the target: " + err.Error())
		return
	}
	corridor, err := query.FindPath(m, sr, er, sp, ep, c.filter)
	partial := errors.Is(err, query.ErrPartial)
	if err != nil && !partial {
		a.unreachable(err.Error())
		return
	}
	end := ep
	if partial {
		if m.IsOffMesh(corridor[len(corridor)-1]) {
			// A link whose far end lands nowhere: wait before it.
			corridor = corridor[:len(corridor)-1]
		}
		if end, err = query.ClosestPointOnPoly(m, corridor[len(corridor)-1], ep); err != nil {
			a.unreachable(err.Error())
			return
		}
	}
	pts, err := query.StraightPathDetailed(m, sp, end, corridor, query.CrossAll)
	if err != nil {
		a.unreachable(err.Error())
		return
	}
	if a.pts, err = waypoints(m, corridor, pts); err != nil {
		a.unreachable(err.Error())
		return
	}
	a.corridor, a.next = corridor, 1
	a.enter(pts[0].Ref) // a start on a portal's end goes on in the polygon beyond
	a.state, a.reason = Moving, ""
	if partial {
		a.state, a.reason = Unreachable, "the target is not connected to the agent's polygon (partial corridor)"
	}
}

// walk moves a by the crowd's step length along its path: leg by leg,
// measured in the horizontal plane, the height following the leg. Passing
// a point moves the agent onto that point's polygon. At the path's end a
// Moving agent arrives.
func (c *Crowd) walk(m *navmesh.Mesh, a *agent) {
	if a.state == Arrived || a.next >= len(a.pts) {
		return
	}
	budget := c.stepM
	for budget > 0 && a.next < len(a.pts) {
		p := a.pts[a.next]
		dx := float64(p.pos.X) - float64(a.pos.X)
		dy := float64(p.pos.Y) - float64(a.pos.Y)
		dz := float64(p.pos.Z) - float64(a.pos.Z)
		d := geom.Hypot(dx, dz)
		if a.pts[a.next-1].link {
			d = geom.Hypot(d, dy)
		}
		if d <= budget {
			a.pos = p.pos
			budget -= d
			a.enter(p.ref)
			a.next++
			if a.replan && !a.onLink() {
				c.plan(m, a) // landed from a link
				continue
			}
			if a.next < len(a.pts) {
				a.settle(m, a.pts[a.next].pos)
			}
			continue
		}
		f := budget / d
		a.pos = geom.Vec3{
			X: float32(float64(a.pos.X) + float64(dx*f)),
			Y: float32(float64(a.pos.Y) + float64(dy*f)),
			Z: float32(float64(a.pos.Z) + float64(dz*f)),
		}
		budget = 0
	}
	if a.next < len(a.pts) || a.state != Moving {
		return
	}
	switch c.arrival {
	case ArriveStop:
		a.state, a.pts, a.next = Arrived, nil, 0
	case ArriveWander:
		_, t, err := query.RandomPoint(m, c.filter, c.rng)
		if err != nil {
			a.unreachable("no new target: " + err.Error())
			return
		}
		a.target = t
		c.plan(m, a)
	}
}

// settle moves a's corridor index forward, up to the polygon of the point
// ahead (next), to the first polygon the middle of the leg from a's
// position to next lies over. A straight path that passes exactly through
// a vertex shared by several polygons (the corner of four tiles) names
// the last polygon that touches the vertex as the one it goes on in,
// which may touch the leg only at that point.
func (a *agent) settle(m *navmesh.Mesh, next geom.Vec3) {
	mid := geom.Vec3{
		X: float32((float64(a.pos.X) + float64(next.X)) / 2),
		Y: float32((float64(a.pos.Y) + float64(next.Y)) / 2),
		Z: float32((float64(a.pos.Z) + float64(next.Z)) / 2),
	}
	last := a.pts[a.next].ref
	for k := a.ci; k < len(a.corridor); k++ {
		if q, err := query.ClosestPointOnPoly(m, a.corridor[k], mid); err == nil && q.X == mid.X && q.Z == mid.Z {
			a.ci = k
			return
		}
		if a.corridor[k] == last {
			return
		}
	}
}

// enter moves a's corridor index forward to polygon ref (the polygon the
// path goes on in from the point just passed).
func (a *agent) enter(ref navmesh.PolyRef) {
	for k := a.ci; k < len(a.corridor); k++ {
		if a.corridor[k] == ref {
			a.ci = k
			return
		}
	}
}
