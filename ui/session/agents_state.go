package session

import (
	"fmt"
	"time"

	"navviz/core/agent"
	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/render"
)

// The Agents tool: a crowd of core/agent agents walking the live navmesh.
//
// The Agents section of the Cache panel spawns Count agents from Seed
// (spawn points and targets drawn on the mesh; with a common target set,
// every agent heads there), runs and pauses them, steps them one tick
// and clears them. While running, each tick advances the crowd by as many
// fixed steps (agent.Config.StepS = 1/TPS) as the wall clock says have
// passed (at most maxAgentStepsPerTick), so it moves in real time even
// when ticks come late; the crowd itself only knows steps, so the same
// steps and edits give the same positions. With the agents tool chosen, a
// click on the level sends every agent there. After every tile-cache swap
// each agent whose corridor holds a stale polygon plans again from where
// it stands. The "agents" overlay draws them (render.AgentsOverlay): red
// when they cannot reach their target. The mesh is the one the Path tool
// uses (the cache's, else the plain build's). The crowd and its stepping
// are the session's (Agents); this file holds the spawn fields,
// the mesh the crowd walks and the overlay; the tool and the Agents
// section are in tool_agents.go.

// agentsState is the part of App about the Agents tool.
type agentsState struct {
	// spawn is how the next crowd is spawned (the panel's fields).
	spawn SpawnSettings
	// Agents is the crowd, whether it runs, and the common target.
	Agents Agents

	agentsBuilt map[string]agentsKey
	agentsVis   map[string]bool
}

// SpawnSettings is how SpawnAgents spawns the next crowd.
type SpawnSettings struct {
	// Count agents drawn from Seed (SpawnAgents checks both).
	Count, Seed int
	// Wander sends an agent to a new random target when it arrives (else
	// it stops).
	Wander bool
}

// Spawn returns how the next crowd is spawned.
func (a *App) Spawn() SpawnSettings { return a.spawn }

// SetSpawn sets how the next crowd is spawned; SpawnAgents checks it.
func (a *App) SetSpawn(s SpawnSettings) { a.spawn = s }

// agentsKey is what the agents overlay depends on.
type agentsKey struct {
	gen   uint64 // Agents.Gen
	mesh  *navmesh.Mesh
	tiles uint64 // MeshSig of mesh
}

// initAgentsState sets the Agents tool's defaults.
func (a *App) initAgentsState() {
	a.spawn = SpawnSettings{Count: agent.DefaultCount, Seed: 1, Wander: true}
}

// agentsConfig returns the Config of the next crowd.
func (a *App) agentsConfig() agent.Config {
	cfg := agent.Config{Count: a.spawn.Count, Seed: uint64(a.spawn.Seed), StepS: agentStepS()}
	if a.spawn.Wander {
		cfg.Arrival = agent.ArriveWander
	}
	if t, ok := a.Agents.Target(); ok {
		cfg.Target = &t
	}
	return cfg
}

// SpawnAgents replaces the crowd with a new one of Spawn().Count agents
// drawn from its Seed on the path mesh and starts it. Without a navmesh,
// or with a bad count, it is an error shown in the window, and the
// current crowd stays.
func (a *App) SpawnAgents() error {
	if a.spawn.Seed < 0 {
		return a.Report(fmt.Errorf("ui: spawn agents: seed %d, want >= 0", a.spawn.Seed))
	}
	m := a.PathMesh()
	if m == nil {
		return a.Report(fmt.Errorf("ui: spawn agents: no navmesh: build the level or the cache"))
	}
	c, err := agent.New(m, a.agentsConfig())
	if err != nil {
		return a.Report(fmt.Errorf("ui: spawn agents: %w", err))
	}
	a.Agents.Start(c, a.soup, m, a.meshCacheSeq())
	a.status = fmt.Sprintf("spawned %d agents (seed %d)", c.Len(), a.spawn.Seed)
	return nil
}

// meshCacheSeq returns which cache pathMesh belongs to (0: none, the
// plain build's mesh).
func (a *App) meshCacheSeq() uint64 {
	if v := a.CacheView(); v.Has {
		return v.CacheSeq
	}
	return 0
}

// agentMesh returns the mesh the crowd walks on now (pathMesh), which the
// crowd follows (Agents.Follow).
func (a *App) agentMesh() *navmesh.Mesh {
	m := a.PathMesh()
	a.Report(a.Agents.Follow(m, a.meshCacheSeq()))
	return m
}

// ClearAgents removes the crowd.
func (a *App) ClearAgents() { a.Agents.Clear() }

// SetAgentsTarget makes p (metres) the common target and sends every
// agent of the crowd there.
func (a *App) SetAgentsTarget(p geom.Vec3) error {
	if !p.Finite() {
		return a.Report(fmt.Errorf("ui: agents target %v is not finite", p))
	}
	var m *navmesh.Mesh
	if a.Agents.Crowd() != nil {
		m = a.agentMesh()
	}
	if err := a.Agents.SetTarget(m, p); err != nil {
		return a.Report(fmt.Errorf("ui: agents target: %w", err))
	}
	a.status = fmt.Sprintf("agents target at (%.2f, %.2f, %.2f)", p.X, p.Y, p.Z)
	return nil
}

// ClearAgentsTarget forgets the common target: the next crowd draws a
// target per agent (the current one keeps its targets).
func (a *App) ClearAgentsTarget() { a.Agents.ClearTarget() }

// StepAgents advances the crowd by n steps on the path mesh (after a new
// level the crowd is dropped). It reports whether the crowd changed.
func (a *App) StepAgents(n int) bool {
	if a.Agents.Crowd() == nil {
		return false
	}
	if a.Agents.DropOff(a.soup) {
		return true
	}
	m := a.agentMesh()
	if m == nil {
		return false
	}
	if err := a.Agents.Advance(m, n); err != nil {
		a.Report(fmt.Errorf("ui: agents: %w", err))
		return false
	}
	return true
}

// MaxAgentStepsPerTick bounds the steps one tick runs (one second of
// simulated time): a stalled window does not make the crowd jump.
const MaxAgentStepsPerTick = 60

// AgentsNow is the wall clock of tickAgents (a variable for tests).
var AgentsNow = time.Now

// TickAgents runs one tick of the crowd: while it runs, the steps the
// wall clock time since the last tick holds (Agents.Tick). It
// reports whether the crowd moved (a redraw reason).
func (a *App) TickAgents() bool {
	if n := a.Agents.Tick(AgentsNow(), MaxAgentStepsPerTick); n > 0 {
		return a.StepAgents(n)
	}
	return false
}

// tps is the loop's ticks per second (pace.go; a variable for tests).
var tps = func() int { return TickRate }

// TickRate is the most Updates per second (the window paces its loop to
// it, pace.go): the agents step 1/TickRate seconds a tick.
const TickRate = 60

// agentStepS is the crowd's time step: one tick of Ebitengine's loop.
func agentStepS() float32 { return float32(1 / float64(max(tps(), 1))) }

// syncAgents keeps the "agents" overlay up to date (see syncOverlay).
func (a *App) syncAgents() {
	if a.scene == nil {
		return
	}
	if a.agentsBuilt == nil {
		a.agentsBuilt = map[string]agentsKey{}
		a.agentsVis = map[string]bool{render.OverlayAgents: true}
	}
	m := a.PathMesh()
	k := agentsKey{gen: a.Agents.Gen(), mesh: m, tiles: MeshSig(m)}
	syncOverlay(a, render.OverlayAgents, a.agentsVis, a.agentsBuilt, k, func() *render.Overlay {
		return render.AgentsOverlay(m, a.Agents.Crowd().Agents())
	})
}
