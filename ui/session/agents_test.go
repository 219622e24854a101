package session

import (
	"testing"
	"time"

	"navviz/core/agent"
	"navviz/core/level"
)

// TestAgents: Start runs a crowd, Tick turns the time since the last tick
// into steps (one at the first, the remainder carried, at most maxSteps,
// none while paused), Advance steps it and Gen follows every change;
// another level drops the crowd, and SetTarget without a mesh fails and
// changes nothing.
func TestAgents(t *testing.T) {
	soup, m := terrainMesh(t)
	var s Agents
	if s.Crowd() != nil || s.Tick(time.Unix(0, 0), 10) != 0 {
		t.Fatal("the zero Agents has a crowd or ticks")
	}
	c, err := agent.New(m, agent.Config{Count: 3, Seed: 1, StepS: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	g := s.Gen()
	s.Start(c, soup, m, 0)
	if s.Crowd() != c || !s.Running() || s.Gen() == g {
		t.Fatalf("Start: crowd %v, running %v", s.Crowd() != nil, s.Running())
	}

	t0 := time.Unix(100, 0)
	for _, tc := range []struct {
		name  string
		at    time.Duration
		run   bool
		steps int
	}{
		{"first", 0, true, 1},
		{"0.25 s", 250 * time.Millisecond, true, 2},   // 2.5 steps: 0.5 carried
		{"0.31 s", 310 * time.Millisecond, true, 1},   // 0.6 + 0.5: 1, 0.1 carried
		{"stall", 10310 * time.Millisecond, true, 10}, // capped, nothing carried
		{"paused", 11 * time.Second, false, 0},
		{"resumed", 12 * time.Second, true, 1},
	} {
		s.SetRunning(tc.run)
		if n := s.Tick(t0.Add(tc.at), 10); n != tc.steps {
			t.Errorf("%s: %d steps, want %d", tc.name, n, tc.steps)
		}
	}

	g = s.Gen()
	if err := s.Advance(m, 2); err != nil || c.Steps() != 2 || s.Gen() == g {
		t.Errorf("Advance: %v, %d steps, gen %d -> %d", err, c.Steps(), g, s.Gen())
	}
	if err := s.Follow(m, 0); err != nil {
		t.Errorf("Follow of the same mesh: %v", err)
	}

	g = s.Gen()
	p := c.Agents()[0].Pos
	if err := s.SetTarget(nil, p); err != ErrNoMesh {
		t.Errorf("SetTarget without a mesh: %v", err)
	}
	if _, ok := s.Target(); ok || s.Gen() != g {
		t.Error("a failed SetTarget changed the target or Gen")
	}
	if err := s.SetTarget(m, p); err != nil {
		t.Fatal(err)
	}
	if got, ok := s.Target(); !ok || got != p || s.Gen() == g {
		t.Errorf("SetTarget: %v %v", got, ok)
	}
	s.ClearTarget()
	if _, ok := s.Target(); ok {
		t.Error("ClearTarget kept the target")
	}

	if s.DropOff(soup) || s.Crowd() == nil {
		t.Error("DropOff on the crowd's own level dropped it")
	}
	if !s.DropOff(level.Terrain(2)) || s.Crowd() != nil || s.Running() {
		t.Error("DropOff on another level kept the crowd")
	}
	g = s.Gen()
	s.Clear()
	if s.Gen() != g {
		t.Error("clearing no crowd changed Gen")
	}
}
