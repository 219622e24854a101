package ui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ebitengine/debugui"

	"navviz/world"
)

// Several agent sizes in navviz.
//
// "Build cache" builds a world.World: one tile cache per agent size, the
// first ("default") with the Build panel's settings, the others with the
// Build panel's settings and their own height, radius, climb and slope
// (world.Agent), listed in the Cache panel's "Agent sizes" section. The
// tools' edits, undo and redo, Update and snapshots go through the World,
// so an obstacle placed once carves every agent's mesh, each grown by its
// agent's radius. One agent's cache is shown (cacheCore.Agent): the cache
// overlays, the queue and swaps, the path, the crowd and the inspector
// read it as they read the only cache of a World of one agent. Showing
// another agent is a job that swaps the core's Cache and hands a new view;
// adding or removing an agent size rebuilds the World in the background
// and carries the obstacles and volumes in place over into it.

// defaultAgentName names the agent of the Build panel's settings.
const defaultAgentName = "default"

// agentPreset is an agent size the panel adds in one click.
type agentPreset struct {
	label string
	agent world.Agent
}

// agentPresets are the "Add agent size" presets: a child-sized agent and a
// cart or troll that needs more room and climbs less.
var agentPresets = []agentPreset{
	{"small", world.Agent{Name: "small", HeightM: 1.6, RadiusM: 0.3, MaxClimbM: 0.9, MaxSlopeDeg: 45}},
	{"large", world.Agent{Name: "large", HeightM: 2.4, RadiusM: 1.2, MaxClimbM: 0.5, MaxSlopeDeg: 35}},
}

// agentSizes is the frame's part of the agent sizes: the sizes besides
// the default one and the "custom" form.
type agentSizes struct {
	// ExtraAgents are the agent sizes after "default" that the next cache
	// build builds a mesh for, in order.
	ExtraAgents []world.Agent
	// AgentForm is the custom size the "Add custom" button adds.
	AgentForm world.Agent
}

// CacheAgents returns the agent sizes a cache build builds: "default"
// (the Build panel's settings), then ExtraAgents.
func (a *App) CacheAgents() []world.Agent {
	return append([]world.Agent{world.AgentOf(defaultAgentName, a.Settings)}, a.ExtraAgents...)
}

// AddAgentSize appends ag to the agent sizes of the next cache build. A
// name that is empty or taken, a full list (world.MaxAgents) or settings
// the Build panel's do not validate with are errors, shown and returned,
// and the list is unchanged.
func (a *App) AddAgentSize(ag world.Agent) error {
	ag.Name = strings.TrimSpace(ag.Name)
	agents := a.CacheAgents()
	switch {
	case ag.Name == "":
		return a.report(fmt.Errorf("ui: add agent size: the name is empty"))
	case slices.ContainsFunc(agents, func(x world.Agent) bool { return x.Name == ag.Name }):
		return a.report(fmt.Errorf("ui: add agent size %q: the name is taken", ag.Name))
	case len(agents) >= world.MaxAgents:
		return a.report(fmt.Errorf("ui: add agent size %q: there are %d already, the most a world holds", ag.Name, len(agents)))
	}
	s := ag.Settings(a.Settings)
	if err := s.Validate(); err != nil {
		return a.report(fmt.Errorf("ui: add agent size %q: %w", ag.Name, err))
	}
	a.ExtraAgents = append(a.ExtraAgents, ag)
	a.reportOK(fmt.Sprintf("agent size %q added (%s)", ag.Name, agentText(ag)))
	return nil
}

// RemoveAgentSize removes the agent size called name from the next cache
// build's list. "default" (the Build panel's settings) and a name not in
// the list are errors, shown and returned.
func (a *App) RemoveAgentSize(name string) error {
	i := slices.IndexFunc(a.ExtraAgents, func(x world.Agent) bool { return x.Name == name })
	switch {
	case name == defaultAgentName:
		return a.report(fmt.Errorf("ui: remove agent size %q: the default size is the Build panel's settings", name))
	case i < 0:
		return a.report(fmt.Errorf("ui: remove agent size %q: no such agent size", name))
	}
	a.ExtraAgents = slices.Delete(slices.Clone(a.ExtraAgents), i, i+1)
	a.reportOK(fmt.Sprintf("agent size %q removed", name))
	return nil
}

// ShowAgent shows the mesh of the cache's agent called name: the cache
// overlays, the path, the crowd and the inspector read that agent's cache
// from the next view on. An unknown name is an error, shown (and returned
// without a worker).
func (a *App) ShowAgent(name string) error {
	return a.cacheDo(cacheJob{name: "show agent " + name, run: func(k *cacheCore) func(*App) error {
		if k.World == nil {
			return failWith(errNoCache)
		}
		if err := k.show(name); err != nil {
			return failWith(fmt.Errorf("ui: show agent: %w", err))
		}
		status := fmt.Sprintf("showing the mesh of agent %q (%s)", name, agentText(k.World.Agents()[k.Agent]))
		return func(a *App) error {
			a.bumpAll()
			a.reportOK(status)
			return nil
		}
	}})
}

// show makes the cache of the World's agent called name the core's Cache
// (the repair trace moves with it, the swap log starts afresh).
func (k *cacheCore) show(name string) error {
	c, err := k.World.Cache(name)
	if err != nil {
		return err
	}
	k.Cache.SetTrace(nil)
	k.Cache = c
	k.Agent = slices.IndexFunc(k.World.Agents(), func(x world.Agent) bool { return x.Name == name })
	c.SetTrace(k.trace)
	k.cacheSeq++ // another mesh: overlays, the inspector and the crowd start over
	k.Swaps.Reset()
	return nil
}

// shownAgentName returns the name of the agent the latest view shows (""
// without a cache).
func (a *App) shownAgentName() string {
	if v := a.cv(); v.agent < len(v.agents) {
		return v.agents[v.agent].Name
	}
	return ""
}

// queueLen returns the number of tiles queued in every agent's cache.
func (k *cacheCore) queueLen() int {
	return k.World.QueueLen()
}

// queuedText says how many tiles wait, naming the shown agent's share
// when there are several agents.
func (k *cacheCore) queuedText() string {
	n := k.queueLen()
	if len(k.World.Agents()) <= 1 {
		return plural(n, "tile") + " queued"
	}
	return fmt.Sprintf("%s queued (%d of agent %q)", plural(n, "tile"), k.Cache.QueueLen(), k.World.Agents()[k.Agent].Name)
}

// shownShare returns how many of the tiles a World Update(n) rebuilds are
// the shown agent's: the World works the agents' queues off in order.
func (k *cacheCore) shownShare(n int) int { return k.World.UpdateShares(n)[k.Agent] }

// carryEdits adds the obstacles, volumes and off-mesh links of from
// (nil: none) to to, in from's order (they get to's ids).
func carryEdits(from, to *world.World) error {
	if from == nil {
		return nil
	}
	for _, o := range from.Obstacles() {
		if _, err := to.AddObstacle(o.Obstacle); err != nil {
			return fmt.Errorf("ui: carry obstacle #%d into the rebuilt caches (the caches are unchanged): %w", o.ID, err)
		}
	}
	for _, v := range from.Volumes() {
		if _, err := to.AddVolume(v.Volume); err != nil {
			return fmt.Errorf("ui: carry volume #%d into the rebuilt caches (the caches are unchanged): %w", v.ID, err)
		}
	}
	for _, l := range from.OffMeshLinks() {
		if _, err := to.AddOffMeshLink(l); err != nil {
			return fmt.Errorf("ui: carry off-mesh link L%d into the rebuilt caches (the caches are unchanged): %w", l.UserID, err)
		}
	}
	return nil
}

// agentText describes an agent size's body settings.
func agentText(ag world.Agent) string {
	return fmt.Sprintf("height %.2f m, radius %.2f m, climb %.2f m, slope %.0f°", ag.HeightM, ag.RadiusM, ag.MaxClimbM, ag.MaxSlopeDeg)
}

// agentNames lists the agents' names.
func agentNames(agents []world.Agent) string {
	names := make([]string, len(agents))
	for i, ag := range agents {
		names[i] = ag.Name
	}
	return strings.Join(names, ", ")
}

// agentsDiffer reports whether x and y are not the same agent list.
func agentsDiffer(x, y []world.Agent) bool { return !slices.Equal(x, y) }

// agentSizesSection is the Cache panel's "Agent sizes" section: which
// agent's mesh is shown (one click), the list the next build builds with
// Remove buttons, the presets and a custom size. Adding or removing a
// size rebuilds the cache when there is one (carrying its obstacles and
// volumes over).
func (g *Game) agentSizesSection(ctx *debugui.Context) {
	a := g.App
	v := a.cv()
	if v.has && len(v.agents) > 0 {
		idx := v.agent
		if choiceButtons(ctx, "Show", &idx, strings.Split(agentNames(v.agents), ", ")) {
			a.report(a.ShowAgent(v.agents[idx].Name))
		}
		ctx.Text(fmt.Sprintf("cache-polys shows agent %q: %s.", v.agents[v.agent].Name, agentText(v.agents[v.agent])))
	}
	ctx.Text("Each agent size has a mesh of its own; an obstacle or volume placed once carves every one (grown by each agent's radius).")
	agents := a.CacheAgents()
	ctx.SetGridLayout([]int{-1, 60}, nil)
	ctx.Loop(len(agents), func(i int) {
		ag := agents[i]
		ctx.Text(fmt.Sprintf("%s: %s", ag.Name, agentText(ag)))
		if i == 0 {
			ctx.Text("(Build)")
			return
		}
		ctx.Button("Remove").On(func() {
			if a.RemoveAgentSize(ag.Name) == nil {
				g.rebuildForAgents()
			}
		})
	})
	ctx.SetGridLayout(nil, nil)
	if v.has && agentsDiffer(v.agents, agents) {
		ctx.Text("The list differs from the cache's agent sizes: Build cache again to use it.")
	}
	add := func(ag world.Agent) bool {
		if a.AddAgentSize(ag) != nil {
			return false
		}
		g.rebuildForAgents()
		return true
	}
	widths := []int{50}
	for range agentPresets {
		widths = append(widths, -1)
	}
	ctx.SetGridLayout(widths, nil)
	ctx.Text("Add")
	ctx.Loop(len(agentPresets), func(i int) {
		p := agentPresets[i]
		ctx.Button(fmt.Sprintf("%s (r %.1f h %.1f)", p.label, p.agent.RadiusM, p.agent.HeightM)).On(func() { _ = add(p.agent) })
	})
	ctx.SetGridLayout(nil, nil)
	f := &a.AgentForm
	if f.HeightM == 0 {
		*f = world.AgentOf(fmt.Sprintf("agent %d", len(agents)), a.Settings)
	}
	grid := []int{-2, -3}
	ctx.SetGridLayout(grid, nil)
	ctx.Text("Name")
	ctx.TextField(&f.Name)
	fields := []struct {
		label string
		v     *float32
	}{{"Height m", &f.HeightM}, {"Radius m", &f.RadiusM}, {"Climb m", &f.MaxClimbM}, {"Slope deg", &f.MaxSlopeDeg}}
	ctx.Loop(len(fields), func(i int) {
		fl := fields[i]
		ctx.Text(fl.label)
		x := float64(*fl.v)
		if g.cache.nums.float(ctx, "agent-"+fl.label, &x, numberSpec{digits: 2, step: 0.1}) {
			*fl.v = float32(x)
		}
		g.cache.nums.errorRow(ctx, "agent-"+fl.label, grid)
	})
	ctx.SetGridLayout(nil, nil)
	ctx.Button("Add agent size").On(func() {
		if add(*f) {
			f.HeightM = 0 // a fresh form with the next name
		}
	})
}

// rebuildForAgents rebuilds the cache in the background after the agent
// list changed, carrying the obstacles and volumes over (nothing to do
// without a cache: the next Build cache uses the list).
func (g *Game) rebuildForAgents() {
	if g.App.cv().has {
		g.buildWorld(true)
	}
}
