package session

import (
	"fmt"
	"slices"
	"strings"

	"navviz/world"
)

// DefaultAgentName names the agent of the Build panel's settings.
const DefaultAgentName = "default"

// agentPreset is an agent size the panel adds in one click.
type agentPreset struct {
	Label string
	Agent world.Agent
}

// AgentPresets are the "Add agent size" presets: a child-sized agent and a
// cart or troll that needs more room and climbs less.
var AgentPresets = []agentPreset{
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
	return append([]world.Agent{world.AgentOf(DefaultAgentName, a.settings)}, a.ExtraAgents...)
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
		return a.Report(fmt.Errorf("ui: add agent size: the name is empty"))
	case slices.ContainsFunc(agents, func(x world.Agent) bool { return x.Name == ag.Name }):
		return a.Report(fmt.Errorf("ui: add agent size %q: the name is taken", ag.Name))
	case len(agents) >= world.MaxAgents:
		return a.Report(fmt.Errorf("ui: add agent size %q: there are %d already, the most a world holds", ag.Name, len(agents)))
	}
	s := ag.Settings(a.settings)
	if err := s.Validate(); err != nil {
		return a.Report(fmt.Errorf("ui: add agent size %q: %w", ag.Name, err))
	}
	a.ExtraAgents = append(a.ExtraAgents, ag)
	a.ReportOK(fmt.Sprintf("agent size %q added (%s)", ag.Name, AgentText(ag)))
	return nil
}

// RemoveAgentSize removes the agent size called name from the next cache
// build's list. "default" (the Build panel's settings) and a name not in
// the list are errors, shown and returned.
func (a *App) RemoveAgentSize(name string) error {
	i := slices.IndexFunc(a.ExtraAgents, func(x world.Agent) bool { return x.Name == name })
	switch {
	case name == DefaultAgentName:
		return a.Report(fmt.Errorf("ui: remove agent size %q: the default size is the Build panel's settings", name))
	case i < 0:
		return a.Report(fmt.Errorf("ui: remove agent size %q: no such agent size", name))
	}
	a.ExtraAgents = slices.Delete(slices.Clone(a.ExtraAgents), i, i+1)
	a.ReportOK(fmt.Sprintf("agent size %q removed", name))
	return nil
}

// ShowAgent shows the mesh of the cache's agent called name: the cache
// overlays, the path, the crowd and the inspector read that agent's cache
// from the next view on. An unknown name is an error, shown (and returned
// without a worker).
func (a *App) ShowAgent(name string) error {
	return a.CacheDo(CacheJob{name: "show agent " + name, Run: func(k *CacheCore) func(*App) error {
		if k.World == nil {
			return failWith(ErrNoCache)
		}
		if err := k.show(name); err != nil {
			return failWith(fmt.Errorf("ui: show agent: %w", err))
		}
		status := fmt.Sprintf("showing the mesh of agent %q (%s)", name, AgentText(k.World.Agents()[k.Agent]))
		return func(a *App) error {
			a.bumpAll()
			a.ReportOK(status)
			return nil
		}
	}})
}

// show makes the cache of the World's agent called name the core's Cache
// (the repair trace moves with it, the swap log starts afresh).
func (k *CacheCore) show(name string) error {
	c, err := k.World.Cache(name)
	if err != nil {
		return err
	}
	k.Cache = c
	k.Agent = slices.IndexFunc(k.World.Agents(), func(x world.Agent) bool { return x.Name == name })
	k.tap()      // the inspector's trace moves to the shown cache
	k.cacheSeq++ // another mesh: overlays, the inspector and the crowd start over
	k.Swaps.Reset()
	return nil
}

// ShownAgentName returns the name of the agent the latest view shows (""
// without a cache).
func (a *App) ShownAgentName() string {
	if v := a.CacheView(); v.Agent < len(v.Agents) {
		return v.Agents[v.Agent].Name
	}
	return ""
}

// queueLen returns the number of tiles queued in every agent's cache.
func (k *CacheCore) queueLen() int {
	return k.World.QueueLen()
}

// queuedText says how many tiles wait, naming the shown agent's share
// when there are several agents.
func (k *CacheCore) queuedText() string {
	n := k.queueLen()
	if len(k.World.Agents()) <= 1 {
		return Plural(n, "tile") + " queued"
	}
	return fmt.Sprintf("%s queued (%d of agent %q)", Plural(n, "tile"), k.Cache.QueueLen(), k.World.Agents()[k.Agent].Name)
}

// shownShare returns how many of the tiles a World Update(n) rebuilds are
// the shown agent's: the World works the agents' queues off in order.
func (k *CacheCore) shownShare(n int) int { return k.World.UpdateShares(n)[k.Agent] }

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

// AgentText describes an agent size's body settings.
func AgentText(ag world.Agent) string {
	return fmt.Sprintf("height %.2f m, radius %.2f m, climb %.2f m, slope %.0f°", ag.HeightM, ag.RadiusM, ag.MaxClimbM, ag.MaxSlopeDeg)
}

// AgentNames lists the agents' names.
func AgentNames(agents []world.Agent) string {
	names := make([]string, len(agents))
	for i, ag := range agents {
		names[i] = ag.Name
	}
	return strings.Join(names, ", ")
}

// AgentsDiffer reports whether x and y are not the same agent list.
func AgentsDiffer(x, y []world.Agent) bool { return !slices.Equal(x, y) }
