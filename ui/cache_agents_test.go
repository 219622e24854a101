package ui

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"navviz/tilecache"
	"navviz/ui/session"
)

// largeAgent is the "large" preset.
var largeAgent = session.AgentPresets[1].Agent

// twoAgentGame returns a game on terrain whose cache (obstacle preset,
// built through the Cache panel's actions) has the agents "default" and
// "large", auto update off, no worker.
func twoAgentGame(t *testing.T) *Game {
	t.Helper()
	g := newTestGame(t, "terrain")
	drawFrames(t, g, 1)
	g.applyObstaclePreset()
	if err := g.App.AddAgentSize(largeAgent); err != nil {
		t.Fatal(err)
	}
	g.startCacheBuild()
	waitCache(t, g)
	g.App.Auto.SetOn(false)
	if n := len(g.App.World.Agents()); n != 2 {
		t.Fatalf("the World has %d agents, want 2", n)
	}
	return g
}

// agentMeshes returns the tile bytes of every agent's mesh of a's World.
func agentMeshes(t *testing.T, a *session.App) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, ag := range a.World.Agents() {
		m, err := a.World.Mesh(ag.Name)
		if err != nil {
			t.Fatal(err)
		}
		out[ag.Name] = meshTiles(t, m)
	}
	return out
}

// TestTwoAgentsObstacle builds a two-agent World through the App, places
// one obstacle with the Obstacle tool and runs Update all: both agents'
// meshes changed, and each equals the mesh of a tile cache built alone
// with that agent's settings after the same obstacle and UpdateAll, byte
// for byte. Showing the other agent changes the view's mesh and cache;
// an unknown agent is an error and changes nothing.
func TestTwoAgentsObstacle(t *testing.T) {
	g := twoAgentGame(t)
	a := g.App
	before := agentMeshes(t, a)
	pts := a.DemoPoints(1)
	if len(pts) == 0 {
		t.Fatal("no walkable point")
	}
	g.setTool(g.tools.obstacle)
	g.tools.obstacle.ShapeIdx = 0
	g.tools.obstacle.press(a, pts[0])
	if err := g.tools.obstacle.release(a); err != nil {
		t.Fatal(err)
	}
	if err := a.UpdateAllCache(); err != nil {
		t.Fatal(err)
	}
	obs := a.World.Obstacles()
	if len(obs) != 1 || a.World.QueueLen() != 0 || a.Err() != "" {
		t.Fatalf("after the obstacle: %d obstacles, %d queued, Err %q", len(obs), a.World.QueueLen(), a.Err())
	}
	after := agentMeshes(t, a)
	chunky, err := session.IndexLevel(a.Soup(), "test")
	if err != nil {
		t.Fatal(err)
	}
	for _, ag := range a.World.Agents() {
		if bytes.Equal(before[ag.Name], after[ag.Name]) {
			t.Errorf("agent %q: the obstacle did not change the mesh", ag.Name)
		}
		c, _ := a.World.Cache(ag.Name)
		s := c.Settings()
		if ag.RadiusM != s.AgentRadiusM || (ag.Name == "large") != (s.AgentRadiusM == largeAgent.RadiusM) {
			t.Errorf("agent %q: cache radius %v", ag.Name, s.AgentRadiusM)
		}
		alone, err := tilecache.BuildChunk(context.Background(), &s, a.Soup(), chunky, tilecache.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := alone.AddObstacle(obs[0].Obstacle); err != nil {
			t.Fatal(err)
		}
		if _, err := alone.UpdateAll(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(meshTiles(t, alone.Mesh()), after[ag.Name]) {
			t.Errorf("agent %q: the World's mesh differs from a cache of its own with the same obstacle", ag.Name)
		}
	}

	v0 := a.CacheView()
	if v0.Agent != 0 || a.ShownAgentName() != session.DefaultAgentName {
		t.Fatalf("shown agent %d %q, want default", v0.Agent, a.ShownAgentName())
	}
	if err := a.ShowAgent("large"); err != nil {
		t.Fatal(err)
	}
	v1 := a.CacheView()
	large, _ := a.World.Cache("large")
	if v1.Agent != 1 || a.Cache != large || v1.Mesh == v0.Mesh || !bytes.Equal(meshTiles(t, v1.Mesh), after["large"]) {
		t.Errorf("show large: view agent %d, cache is large's %v, mesh changed %v", v1.Agent, a.Cache == large, v1.Mesh != v0.Mesh)
	}
	if v1.CacheSeq == v0.CacheSeq || v1.GrowthM == v0.GrowthM {
		t.Errorf("show large: cacheSeq %d -> %d, growth %v -> %v", v0.CacheSeq, v1.CacheSeq, v0.GrowthM, v1.GrowthM)
	}
	if err := a.ShowAgent("troll"); err == nil || !strings.Contains(a.Err(), `"troll"`) || a.Cache != large {
		t.Errorf("show troll: %v, Err %q, cache still large's %v", err, a.Err(), a.Cache == large)
	}
	drawFrames(t, g, 1) // the panels and overlays draw the large agent's mesh
}

// TestTwoAgentsSnapshot saves a two-agent World's snapshot (a World
// snapshot, every agent), changes both meshes and restores it: both
// meshes and the obstacles are back. A tile cache snapshot, which holds
// one agent, is refused with the caches unchanged.
func TestTwoAgentsSnapshot(t *testing.T) {
	g := twoAgentGame(t)
	a := g.App
	pts := a.DemoPoints(2)
	if len(pts) < 2 {
		t.Fatal("too few walkable points")
	}
	place := func(i int) {
		g.setTool(g.tools.obstacle)
		a.Selection.SetObstacle(0)
		g.tools.obstacle.press(a, pts[i])
		if err := g.tools.obstacle.release(a); err != nil {
			t.Fatal(err)
		}
		if err := a.UpdateAllCache(); err != nil {
			t.Fatal(err)
		}
	}
	place(0)
	saved := agentMeshes(t, a)
	path, err := a.SaveSnapshot(filepath.Join(t.TempDir(), "two"))
	if err != nil {
		t.Fatal(err)
	}
	place(1)
	changed := agentMeshes(t, a)
	for name := range saved {
		if bytes.Equal(saved[name], changed[name]) {
			t.Fatalf("agent %q: the second obstacle did not change the mesh", name)
		}
	}
	large, _ := a.World.Cache("large")
	single, err := large.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if err := a.RestoreSnapshotData(single, "one cache"); err == nil || !strings.Contains(a.Err(), "one agent size") {
		t.Errorf("a tile cache snapshot into two agents: %v, Err %q", err, a.Err())
	}
	if got := agentMeshes(t, a); !bytes.Equal(got["large"], changed["large"]) || len(a.World.Obstacles()) != 2 {
		t.Error("a refused restore changed the caches")
	}
	if err := a.RestoreSnapshot(path); err != nil {
		t.Fatal(err)
	}
	if n := len(a.World.Obstacles()); n != 1 || a.World.QueueLen() != 0 {
		t.Errorf("restored: %d obstacles, %d queued, want 1 and 0", n, a.World.QueueLen())
	}
	got := agentMeshes(t, a)
	for name := range saved {
		if !bytes.Equal(got[name], saved[name]) {
			t.Errorf("agent %q: the restored mesh differs from the saved one", name)
		}
	}
}

// TestAgentListRebuild: with a cache, adding an agent size through the
// panel's path rebuilds the World in the background with the obstacle
// carried over (into every agent), and the shown agent stays shown;
// removing it rebuilds again. The worker hands the view of the agent
// shown.
func TestAgentListRebuild(t *testing.T) {
	g := twoAgentGame(t)
	a := g.App
	a.EnableCacheWorker()
	pts := a.DemoPoints(1)
	g.setTool(g.tools.obstacle)
	g.tools.obstacle.press(a, pts[0])
	a.Report(g.tools.obstacle.release(a))
	a.Report(a.ShowAgent("large"))
	waitWorker(t, g)
	if a.ShownAgentName() != "large" || len(a.CacheView().Obstacles) != 1 || a.Err() != "" {
		t.Fatalf("shown %q, %d obstacles, Err %q", a.ShownAgentName(), len(a.CacheView().Obstacles), a.Err())
	}
	if err := a.AddAgentSize(session.AgentPresets[0].Agent); err != nil {
		t.Fatal(err)
	}
	g.rebuildForAgents()
	waitRebuild(t, g)
	v := a.CacheView()
	if len(v.Agents) != 3 || v.Agents[2].Name != "small" || a.ShownAgentName() != "large" || len(v.Obstacles) != 1 || v.Pending == 0 {
		t.Errorf("after adding small: agents %q, shown %q, %d obstacles, %d tiles pending, Err %q",
			session.AgentNames(v.Agents), a.ShownAgentName(), len(v.Obstacles), v.Pending, a.Err())
	}
	if err := a.RemoveAgentSize("large"); err != nil {
		t.Fatal(err)
	}
	g.rebuildForAgents()
	waitRebuild(t, g)
	if v := a.CacheView(); session.AgentNames(v.Agents) != "default, small" || a.ShownAgentName() != session.DefaultAgentName || len(v.Obstacles) != 1 {
		t.Errorf("after removing large: agents %q, shown %q, %d obstacles", session.AgentNames(v.Agents), a.ShownAgentName(), len(v.Obstacles))
	}
}

// waitRebuild runs frames until g's cache build ended and the worker
// installed its World.
func waitRebuild(t *testing.T, g *Game) {
	t.Helper()
	deadline := time.Now().Add(120 * time.Second)
	for running := true; running; running, _, _ = g.cache.runner.Progress() {
		drawFrames(t, g, 1)
		if time.Now().After(deadline) {
			t.Fatal("cache build did not finish in 120 s")
		}
	}
	waitWorker(t, g)
}
