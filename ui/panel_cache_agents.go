package ui

import (
	"fmt"
	"strings"

	"github.com/ebitengine/debugui"

	"navviz/ui/session"
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

// agentSizesSection is the Cache panel's "Agent sizes" section: which
// agent's mesh is shown (one click), the list the next build builds with
// Remove buttons, the presets and a custom size. Adding or removing a
// size rebuilds the cache when there is one (carrying its obstacles and
// volumes over).
func (g *Game) agentSizesSection(ctx *debugui.Context) {
	a := g.App
	v := a.CacheView()
	if v.Has && len(v.Agents) > 0 {
		idx := v.Agent
		if choiceButtons(ctx, "Show", &idx, strings.Split(session.AgentNames(v.Agents), ", ")) {
			a.Report(a.ShowAgent(v.Agents[idx].Name))
		}
		ctx.Text(fmt.Sprintf("cache-polys shows agent %q: %s.", v.Agents[v.Agent].Name, session.AgentText(v.Agents[v.Agent])))
	}
	ctx.Text("Each agent size has a mesh of its own; an obstacle or volume placed once carves every one (grown by each agent's radius).")
	agents := a.CacheAgents()
	ctx.SetGridLayout([]int{-1, 60}, nil)
	ctx.Loop(len(agents), func(i int) {
		ag := agents[i]
		ctx.Text(fmt.Sprintf("%s: %s", ag.Name, session.AgentText(ag)))
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
	if v.Has && session.AgentsDiffer(v.Agents, agents) {
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
	for range session.AgentPresets {
		widths = append(widths, -1)
	}
	ctx.SetGridLayout(widths, nil)
	ctx.Text("Add")
	ctx.Loop(len(session.AgentPresets), func(i int) {
		p := session.AgentPresets[i]
		ctx.Button(fmt.Sprintf("%s (r %.1f h %.1f)", p.Label, p.Agent.RadiusM, p.Agent.HeightM)).On(func() { _ = add(p.Agent) })
	})
	ctx.SetGridLayout(nil, nil)
	f := &a.AgentForm
	if f.HeightM == 0 {
		*f = world.AgentOf(fmt.Sprintf("agent %d", len(agents)), a.Settings())
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
		g.cache.nums.label(ctx, "agent-"+fl.label, fl.label)
		x := float64(*fl.v)
		if g.cache.nums.float(ctx, "agent-"+fl.label, &x, numberSpec{digits: 2, step: 0.1}) {
			*fl.v = float32(x)
		}
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
	if g.App.CacheView().Has {
		g.buildWorld(true)
	}
}
