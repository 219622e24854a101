package agent

import (
	"math"
	"strings"
	"testing"

	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/tilecache"
)

// roofLink is a one-way off-mesh link from the floor west of the platform
// onto its roof (a ladder: 0.8 m across, 3 m up). Both ends lie 0.2 m
// outside the eroded polygons (the floor stops 0.6 m from the platform's
// wall, the roof 0.6 m from its edge), within the link's radius.
var roofLink = navmesh.OffMeshLink{
	StartM: geom.V3(platX0-0.4, 0, 33), EndM: geom.V3(platX0+0.4, platHighM, 33),
	RadiusM: 0.5, Flags: 1, Area: 1,
}

// roofTarget is a point on the platform's roof.
var roofTarget = geom.V3(33, platHighM, 33)

// linkCache returns the test level's tile cache with roofLink added and
// every tile updated.
func linkCache(t testing.TB, l navmesh.OffMeshLink) (*tilecache.Cache, tilecache.OffMeshLinkID) {
	t.Helper()
	tc := testCache(t)
	id, err := tc.AddOffMeshLink(l)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tc.Update(tc.QueueLen()); err != nil {
		t.Fatal(err)
	}
	return tc, id
}

// TestCrossLink: an agent sent onto the roof, which only roofLink reaches,
// plans through the link, walks to it, crosses it from end to end at its
// speed (the 3D length: the ladder takes its height's time) standing on
// the link's node, lands on the roof and arrives; CheckRefs holds after
// every step, the node included. A link that goes away while an agent
// climbs it leaves the agent to finish the climb and plan from the roof.
func TestCrossLink(t *testing.T) {
	tc, id := linkCache(t, roofLink)
	m := tc.Mesh()
	c, err := New(m, Config{Count: 1, Seed: 3, Target: &roofTarget})
	if err != nil {
		t.Fatal(err)
	}
	c.agents[0].pos = geom.V3(10, 0, 35)
	c.plan(m, &c.agents[0])
	a := c.Agents()[0]
	if a.State != Moving {
		t.Fatalf("agent %v %q, want Moving through the link", a.State, a.Reason)
	}
	nodes := 0
	for _, r := range a.Corridor {
		if m.IsOffMesh(r) {
			nodes++
		}
	}
	if nodes != 1 {
		t.Fatalf("corridor %x holds %d link nodes, want 1", a.Corridor, nodes)
	}
	// The crossing, measured in 3D: from the floor polygon's edge to the
	// link start, the link (hypot(0.8, 3) m: the ladder takes its height's
	// time) and on to the roof polygon.
	crossM := 0.0
	for i, p := range c.agents[0].pts[1:] {
		if q := c.agents[0].pts[i]; q.link {
			crossM += math.Sqrt(float64(dist2(p.pos, q.pos)))
		}
	}
	if crossM < 3.1 || crossM > 4 {
		t.Fatalf("the crossing is %.3f m, want the link's 3.105 m and two steps of at most its radius", crossM)
	}
	onLink, linkSteps := false, 0
	for step := 0; step < 3000 && c.Agents()[0].State == Moving; step++ {
		if err := c.Step(m); err != nil {
			t.Fatal(err)
		}
		if err := c.CheckRefs(m, onPolyToleranceM); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		a = c.Agents()[0]
		if a.OnLink {
			onLink = true
			linkSteps++
			if !m.IsOffMesh(a.Ref) {
				t.Fatalf("step %d: on the link with Ref %#x, want the link's node", step, uint64(a.Ref))
			}
		}
	}
	a = c.Agents()[0]
	if a.State != Arrived || !onLink || a.Pos.Y < platHighM-0.5 {
		t.Fatalf("after the walk: %v at %v (on the link %v), want arrived on the roof", a.State, a.Pos, onLink)
	}
	if want := crossM / float64(DefaultSpeedMPS*DefaultStepS); linkSteps < int(want)-1 || linkSteps > int(want)+1 {
		t.Errorf("%d steps on the link, want about %.0f", linkSteps, want)
	}

	// Again, but the link is removed while the agent is on it.
	c.agents[0].pos, c.agents[0].state = geom.V3(platX0-1.5, 0, 33), Moving
	c.plan(m, &c.agents[0])
	for step := 0; !c.Agents()[0].OnLink; step++ {
		if step == 200 {
			t.Fatal("the agent never reached the link")
		}
		if err := c.Step(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := tc.RemoveOffMeshLink(id); err != nil {
		t.Fatal(err)
	}
	if _, err := tc.Update(tc.QueueLen()); err != nil {
		t.Fatal(err)
	}
	for step := 0; step < 600 && c.Agents()[0].State == Moving; step++ {
		if err := c.Step(tc.Mesh()); err != nil {
			t.Fatal(err)
		}
		if err := c.CheckRefs(tc.Mesh(), onPolyToleranceM); err != nil {
			t.Fatalf("after the removal, step %d: %v", step, err)
		}
	}
	a = c.Agents()[0]
	if a.State != Arrived || a.Pos.Y < platHighM-0.5 || a.Replans != 1 {
		t.Fatalf("link removed under the agent: %v at %v, %d re-plans; want arrived on the roof after 1 re-plan", a.State, a.Pos, a.Replans)
	}
}

// TestLinkDeadEnd: a link whose far end lands on no polygon (it points
// into the air beside the roof) is a dead end: an agent sent onto the roof
// is Unreachable and waits on the floor, not on the link.
func TestLinkDeadEnd(t *testing.T) {
	l := roofLink
	l.EndM = geom.V3(platX0-0.4, platHighM+5, 33)
	tc, _ := linkCache(t, l)
	m := tc.Mesh()
	c, err := New(m, Config{Count: 1, Target: &roofTarget})
	if err != nil {
		t.Fatal(err)
	}
	c.agents[0].pos = geom.V3(platX0-1.5, 0, 33)
	c.plan(m, &c.agents[0])
	if err := c.Advance(m, 600); err != nil {
		t.Fatal(err)
	}
	a := c.Agents()[0]
	if a.State != Unreachable || !strings.Contains(a.Reason, "partial") || a.OnLink || m.IsOffMesh(a.Ref) || a.Pos.Y > 1 {
		t.Fatalf("agent %v %q at %v on %#x, want unreachable on the floor", a.State, a.Reason, a.Pos, uint64(a.Ref))
	}
	if err := c.CheckRefs(m, onPolyToleranceM); err != nil {
		t.Error(err)
	}
}

// dist2 is the squared 3D distance between a and b.
func dist2(a, b geom.Vec3) float32 { d := a.Sub(b); return d.Dot(d) }
