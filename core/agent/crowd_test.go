package agent

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/core/query"
	"navviz/core/voxel"
)

// TestConfigErrors: every bad Config field and a nil mesh is an error
// naming the value, and New returns no crowd.
func TestConfigErrors(t *testing.T) {
	m := testCache(t).Mesh()
	nan := geom.V3(float32(math.NaN()), 0, 0)
	for _, tc := range []struct {
		name string
		cfg  Config
		mesh *navmesh.Mesh
		want string
	}{
		{"count", Config{Count: -1}, m, "Count -1"},
		{"count max", Config{Count: MaxCount + 1}, m, "Count 1001"},
		{"speed", Config{SpeedMPS: -1}, m, "SpeedMPS -1"},
		{"speed NaN", Config{SpeedMPS: float32(math.NaN())}, m, "SpeedMPS NaN"},
		{"step", Config{StepS: 2}, m, "StepS 2"},
		{"arrival", Config{Arrival: 7}, m, "Arrival 7"},
		{"target", Config{Target: &nan}, m, "Target"},
		{"filter", Config{Filter: &query.Filter{}}, m, "IncludeFlags 0"},
		{"mesh", Config{}, nil, "nil mesh"},
		{"empty mesh", Config{}, navmesh.NewMesh(), "spawn point of agent 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := New(tc.mesh, tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) || c != nil {
				t.Fatalf("New: %v, %v; want an error containing %q", c, err, tc.want)
			}
		})
	}
}

// TestWalk: one agent on the open floor walks SpeedMPS × StepS per step
// along its straight path, goes round the wall through the gap, and
// stops at its target (ArriveStop); an agent sent onto the platform's
// roof, which no ramp reaches, is Unreachable and waits at the end of its
// partial path.
func TestWalk(t *testing.T) {
	m := testCache(t).Mesh()
	target := geom.V3(30, 0, 5)
	c, err := New(m, Config{Count: 1, Seed: 3, Target: &target})
	if err != nil {
		t.Fatal(err)
	}
	// Put the agent west of the wall so its path must use the gap.
	c.agents[0].pos = geom.V3(10, 0, 5)
	c.plan(m, &c.agents[0])
	a := c.Agents()[0]
	if a.State != Moving || len(a.Path) < 3 {
		t.Fatalf("agent %+v, want Moving round the wall", a)
	}
	length := query.PathLength(a.Path)
	stepM := float64(DefaultSpeedMPS * DefaultStepS)
	n := int(length / stepM)
	prev := a.Path[0]
	walked := 0.0
	for range n - 1 {
		if err := c.Step(m); err != nil {
			t.Fatal(err)
		}
		p := c.Agents()[0].Pos
		walked += geom.Hypot(float64(p.X)-float64(prev.X), float64(p.Z)-float64(prev.Z))
		prev = p
	}
	// The distance between positions is at most the step (corners cut it
	// short by a hair), and the total is the path walked so far.
	if math.Abs(walked-float64(n-1)*stepM) > 0.05 {
		t.Errorf("walked %.4f m in %d steps, want about %.4f", walked, n-1, float64(n-1)*stepM)
	}
	if err := c.Advance(m, 10); err != nil {
		t.Fatal(err)
	}
	a = c.Agents()[0]
	if d := segDistXZ(target, a.Pos, a.Pos); a.State != Arrived || d > 1e-3 {
		t.Fatalf("after the path: %v at %v, want arrived at %v", a.State, a.Pos, target)
	}
	if err := c.CheckRefs(m, 1e-3); err != nil {
		t.Error(err)
	}

	roof := geom.V3(33, platHighM, 33)
	if err := c.SetTarget(m, roof); err != nil {
		t.Fatal(err)
	}
	a = c.Agents()[0]
	if a.State != Unreachable || !strings.Contains(a.Reason, "partial") {
		t.Fatalf("target on the roof: %v %q, want unreachable (partial)", a.State, a.Reason)
	}
	if err := c.Advance(m, 2000); err != nil {
		t.Fatal(err)
	}
	a = c.Agents()[0]
	if a.State != Unreachable || len(a.Path) != 1 || a.Pos.Y > 1 {
		t.Errorf("after 2000 steps: %v, path %v, at %v; want waiting on the floor", a.State, a.Path, a.Pos)
	}
}

// TestReplanAfterSwap: an obstacle dropped on an agent's corridor ahead of
// it makes its corridor stale once the cache swaps the tile; the next
// Step plans again (Replans 1), and the new path keeps clear of the
// obstacle. Steps before the swap change nothing about the plan.
func TestReplanAfterSwap(t *testing.T) {
	tc := testCache(t)
	m := tc.Mesh()
	target := geom.V3(10, 0, 35)
	c, err := New(m, Config{Count: 1, Target: &target})
	if err != nil {
		t.Fatal(err)
	}
	c.agents[0].pos = geom.V3(10, 0, 5)
	c.plan(m, &c.agents[0])
	if err := c.Advance(m, 10); err != nil {
		t.Fatal(err)
	}
	centre := geom.V3(10, -1, 20)
	if _, err := tc.AddObstacle(voxel.Cylinder(centre, 2, 4)); err != nil {
		t.Fatal(err)
	}
	if err := c.Step(m); err != nil { // queued, not swapped yet
		t.Fatal(err)
	}
	if a := c.Agents()[0]; a.Replans != 0 || a.Plans != 2 {
		t.Fatalf("before the swap: %d plans, %d replans; want 2, 0", a.Plans, a.Replans)
	}
	if _, err := tc.UpdateAll(); err != nil {
		t.Fatal(err)
	}
	if err := c.CheckRefs(m, 1e-3); err == nil || !strings.Contains(err.Error(), "stale") {
		t.Fatalf("after the swap, before Step: %v, want a stale corridor", err)
	}
	if err := c.Step(m); err != nil {
		t.Fatal(err)
	}
	a := c.Agents()[0]
	if a.Replans != 1 || a.State != Moving {
		t.Fatalf("after the swap: %v, %d replans; want moving, 1", a.State, a.Replans)
	}
	if err := c.CheckRefs(m, 1e-3); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(a.Path); i++ {
		if d := segDistXZ(centre, a.Path[i-1], a.Path[i]); d < 2 {
			t.Errorf("leg %d %v-%v passes %.2f m from the obstacle's centre, want >= its radius 2", i, a.Path[i-1], a.Path[i], d)
		}
	}
}

// TestDeterministic: two crowds with the same seed on two caches that see
// the same edits and steps agree bit for bit (reflect.DeepEqual compares
// the float32 positions exactly); another seed spawns elsewhere.
func TestDeterministic(t *testing.T) {
	run := func(seed uint64) []Agent {
		tc := testCache(t)
		c, err := New(tc.Mesh(), Config{Seed: seed, Arrival: ArriveWander})
		if err != nil {
			t.Fatal(err)
		}
		steps := []func() error{
			func() error { return c.Advance(tc.Mesh(), 300) },
			func() error { _, err := tc.AddObstacle(voxel.Cylinder(geom.V3(10, -1, 20), 3, 4)); return err },
			func() error { _, err := tc.Update(2); return err },
			func() error { return c.Advance(tc.Mesh(), 60) },
			func() error { _, err := tc.UpdateAll(); return err },
			func() error { return c.Advance(tc.Mesh(), 600) },
		}
		for i, f := range steps {
			if err := f(); err != nil {
				t.Fatalf("seed %d, step %d: %v", seed, i, err)
			}
		}
		return c.Agents()
	}
	a, b := run(1), run(1)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the same seed and history gave different crowds")
	}
	if other := run(2); reflect.DeepEqual(a, other) {
		t.Fatal("seeds 1 and 2 gave the same crowd")
	}
}

// TestStepErrors: Step, Advance, SetTarget and CheckRefs refuse bad input
// and change nothing.
func TestStepErrors(t *testing.T) {
	m := testCache(t).Mesh()
	c, err := New(m, Config{Count: 3, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	before := c.Agents()
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"Step nil", c.Step(nil)},
		{"Advance negative", c.Advance(m, -1)},
		{"SetTarget nil", c.SetTarget(nil, geom.V3(1, 0, 1))},
		{"SetTarget NaN", c.SetTarget(m, geom.V3(float32(math.Inf(1)), 0, 0))},
		{"CheckRefs nil", c.CheckRefs(nil, 0)},
	} {
		if tc.err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	if !reflect.DeepEqual(before, c.Agents()) || c.Steps() != 0 {
		t.Error("a failed call changed the crowd")
	}
}

// TestOtherMesh: given another mesh (a new cache of the same level, whose
// references look alike), every agent plans again rather than trusting
// references that name another mesh's polygons.
func TestOtherMesh(t *testing.T) {
	m1 := testCache(t).Mesh()
	c, err := New(m1, Config{Count: 5, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	plans := 0
	for _, a := range c.Agents() {
		plans += a.Plans
	}
	m2 := testCache(t).Mesh()
	if err := c.Step(m2); err != nil {
		t.Fatal(err)
	}
	got := 0
	for _, a := range c.Agents() {
		got += a.Plans
	}
	if got < plans+5 {
		t.Errorf("plans %d after a new mesh, want at least %d", got, plans+5)
	}
}

// The State names.
func TestStateString(t *testing.T) {
	for s, want := range map[State]string{Moving: "moving", Arrived: "arrived", Unreachable: "unreachable", 9: "State(9)"} {
		if got := s.String(); got != want {
			t.Errorf("%d: %q, want %q", s, got, want)
		}
	}
}

// TestFollowClone: a clone of the mesh handed over with Follow is the same
// mesh: no agent plans again while no polygon went stale, and a nil mesh
// is an error.
func TestFollowClone(t *testing.T) {
	m := testCache(t).Mesh()
	c, err := New(m, Config{Count: 5, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	plans := func() int {
		n := 0
		for _, a := range c.Agents() {
			n += a.Plans
		}
		return n
	}
	before := plans()
	clone := m.Clone()
	if err := c.Follow(clone); err != nil {
		t.Fatal(err)
	}
	if err := c.Step(clone); err != nil {
		t.Fatal(err)
	}
	if got := plans(); got != before {
		t.Errorf("plans %d after following a clone, want %d (none again)", got, before)
	}
	if err := c.Follow(nil); err == nil {
		t.Error("Follow(nil): no error")
	}
}
