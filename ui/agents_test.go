package ui

import (
	"strings"
	"testing"
	"time"

	"navviz/core/agent"
	"navviz/core/geom"
	"navviz/core/voxel"
	"navviz/render"
	"navviz/ui/session"
)

// TestAgentsTool spawns a crowd on terrain's tile cache, runs it through
// Game.Update (one step a tick), sends it to a clicked point with the
// agents tool, then drops an obstacle on an agent's way and updates the
// cache: the agents whose corridors went stale plan again on the next
// tick and no agent keeps a stale polygon. The overlay draws one agent
// per crowd member and follows every step.
func TestAgentsTool(t *testing.T) {
	g := terrainCacheGame(t)
	a := g.App
	// A clock that ticks 1/60 s per reading: one step a tick.
	clock := time.Unix(0, 0)
	defer func(f func() time.Time) { session.AgentsNow = f }(session.AgentsNow)
	session.AgentsNow = func() time.Time { clock = clock.Add(time.Second / 60); return clock }
	a.SetSpawn(session.SpawnSettings{Count: 8, Seed: 3, Wander: a.Spawn().Wander})
	if err := a.SpawnAgents(); err != nil {
		t.Fatal(err)
	}
	if a.Agents.Crowd().Len() != 8 || !a.Agents.Running() {
		t.Fatalf("crowd of %d, running %v; want 8 running", a.Agents.Crowd().Len(), a.Agents.Running())
	}
	a.SyncSpanOverlays()
	o := a.Scene().Overlay(render.OverlayAgents)
	if o == nil || !o.Visible || len(o.Points) != 8 {
		t.Fatalf("agents overlay missing, hidden or without 8 agents")
	}
	before := a.Agents.Crowd().Agents()
	drawFrames(t, g, 30)
	// The clock's 1/60 s and the step's float32 1/60 s differ by a
	// rounding: one tick may carry its step to the next.
	steps := a.Agents.Crowd().Steps()
	if steps < 29 || steps > 30 {
		t.Errorf("%d steps after 30 ticks 1/60 s apart, want 30 (29 by rounding)", steps)
	}
	moved := 0
	for i, ag := range a.Agents.Crowd().Agents() {
		if ag.Pos != before[i].Pos {
			moved++
		}
	}
	if moved == 0 {
		t.Error("no agent moved in 30 ticks")
	}
	if o2 := a.Scene().Overlay(render.OverlayAgents); o2 == o {
		t.Error("the overlay was not rebuilt as the agents moved")
	}

	// Pause: no steps.
	a.Agents.SetRunning(false)
	drawFrames(t, g, 3)
	if a.Agents.Crowd().Steps() != steps {
		t.Errorf("paused crowd stepped from %d to %d", steps, a.Agents.Crowd().Steps())
	}

	// The agents tool: a click sets every agent's target.
	g.setTool(g.tools.agents)
	pts := connectedPair(t, a, a.DemoPoints(12))
	a.Camera.TopDown = true
	a.Camera.Target = pts[0]
	a.Camera.DistanceM = 60
	x, y := pixelOf(t, g, pts[0])
	if seen := click(g, x, y); seen.Left {
		t.Error("the camera saw the agents tool's click")
	}
	target, hasTarget := a.Agents.Target()
	if !hasTarget || float32dist(target, pts[0]) > 1 {
		t.Fatalf("target %v (set %v), want near %v; status %q err %q", target, hasTarget, pts[0], a.Status(), a.Err())
	}
	for i, ag := range a.Agents.Crowd().Agents() {
		if ag.Target != target {
			t.Errorf("agent %d heads to %v, want %v", i, ag.Target, target)
		}
	}

	// An obstacle on the way of the first moving agent.
	a.Agents.SetRunning(true)
	var ahead geom.Vec3
	found := false
	for _, ag := range a.Agents.Crowd().Agents() {
		if ag.State == agent.Moving && len(ag.Path) > 1 {
			ahead, found = ag.Path[len(ag.Path)-1], true
			break
		}
	}
	if !found {
		t.Fatal("no moving agent")
	}
	ahead.Y -= 2
	if err := a.AddObstacle(voxel.Cylinder(ahead, 2, 8)); err != nil {
		t.Fatal(err)
	}
	if err := a.UpdateAllCache(); err != nil {
		t.Fatal(err)
	}
	drawFrames(t, g, 1)
	replans := 0
	for _, ag := range a.Agents.Crowd().Agents() {
		replans += ag.Replans
	}
	if replans == 0 {
		t.Error("no agent planned again after the swap under its target")
	}
	if err := a.Agents.Crowd().CheckRefs(a.Cache.Mesh(), 1e-3); err != nil {
		t.Error(err)
	}
	saveForInspection(t, "agents", drawFrames(t, g, 2))

	a.ClearAgents()
	a.SyncSpanOverlays()
	if o := a.Scene().Overlay(render.OverlayAgents); o == nil || len(o.Points) != 0 {
		t.Error("cleared agents still drawn")
	}
}

// TestSpawnAgentsErrors: without a navmesh, or with a bad seed, Spawn
// agents is an error in the window and the crowd stays as it was.
func TestSpawnAgentsErrors(t *testing.T) {
	a := session.NewApp()
	if err := a.SpawnAgents(); err == nil || !strings.Contains(a.Err(), "no navmesh") || a.Agents.Crowd() != nil {
		t.Errorf("no mesh: %v, Err %q, crowd %v", err, a.Err(), a.Agents.Crowd())
	}
	a.SetSpawn(session.SpawnSettings{Count: a.Spawn().Count, Seed: -1})
	if err := a.SpawnAgents(); err == nil || !strings.Contains(a.Err(), "seed -1") {
		t.Errorf("negative seed: %v, Err %q", err, a.Err())
	}
	a.SetSpawn(session.SpawnSettings{Count: agent.MaxCount + 1, Seed: 1})
	a.Cache = terrainCacheGame(t).App.Cache
	a.ViewStale = true // the view made before had no cache
	if err := a.SpawnAgents(); err == nil || !strings.Contains(a.Err(), "Count 1001") || a.Agents.Crowd() != nil {
		t.Errorf("too many agents: %v, Err %q, crowd %v", err, a.Err(), a.Agents.Crowd())
	}
	if a.StepAgents(1) || a.TickAgents() {
		t.Error("no crowd stepped")
	}
}

// TestTickAgentsRealTime: a running crowd takes as many steps a tick as
// the wall clock says have passed, carries the remainder, runs at most
// maxAgentStepsPerTick after a stall, and none while paused.
func TestTickAgentsRealTime(t *testing.T) {
	g := terrainCacheGame(t)
	a := g.App
	clock := time.Unix(0, 0)
	defer func(f func() time.Time) { session.AgentsNow = f }(session.AgentsNow)
	session.AgentsNow = func() time.Time { return clock }
	a.SetSpawn(session.SpawnSettings{Count: 2, Seed: a.Spawn().Seed, Wander: a.Spawn().Wander})
	if err := a.SpawnAgents(); err != nil {
		t.Fatal(err)
	}
	stepS := float64(a.Agents.Crowd().StepS())
	for _, tc := range []struct {
		name    string
		advance time.Duration
		running bool
		want    uint64 // steps so far
	}{
		{"first tick", 0, true, 1},
		{"no time", 0, true, 1},
		{"2.5 steps", time.Duration(2.5 * stepS * float64(time.Second)), true, 3},
		{"half a step carried", time.Duration(0.6 * stepS * float64(time.Second)), true, 4},
		{"stall", 5 * time.Second, true, 4 + session.MaxAgentStepsPerTick},
		{"paused", time.Second, false, 4 + session.MaxAgentStepsPerTick},
		{"resumed", time.Second, true, 5 + session.MaxAgentStepsPerTick},
	} {
		clock = clock.Add(tc.advance)
		a.Agents.SetRunning(tc.running)
		a.TickAgents()
		if got := a.Agents.Crowd().Steps(); got != tc.want {
			t.Errorf("%s: %d steps, want %d", tc.name, got, tc.want)
		}
	}
}
