package ui

import (
	"fmt"

	"github.com/ebitengine/debugui"

	"navviz/core/agent"
	"navviz/render"
	"navviz/ui/session"
)

// agentsTool is the agents tool: a click on the level sends every agent of
// the crowd there (App.SetAgentsTarget; agents.go). The crowd and its
// controls are the App's and the Agents section's, shown whatever the tool.
type agentsTool struct{}

func (*agentsTool) label() string   { return "agents" }
func (*agentsTool) takesLeft() bool { return true }

func (*agentsTool) panel(ctx *debugui.Context, _ *Game) {
	ctx.Text("Click the level: every agent heads there (Agents section below).")
}

// pointer: a release without a drag sets the common target where the
// press was.
func (*agentsTool) pointer(ev pointerEvent, g *Game) bool {
	if ev.Kind != pointerRelease || ev.Moved {
		return false
	}
	a := g.App
	p, ok := g.levelPoint(ev.PressX, ev.PressY)
	if !ok {
		a.Report(fmt.Errorf("ui: no level under the cursor for the agents' target"))
		return false
	}
	a.Report(a.SetAgentsTarget(p))
	return false
}

func (*agentsTool) keys(toolKeys, *Game)                 {}
func (*agentsTool) putAway(*session.App)                 {}
func (*agentsTool) Preview(*session.App) *render.Overlay { return nil }

// agentsSection is the Agents part of the Cache panel.
func (g *Game) agentsSection(ctx *debugui.Context) {
	a := g.App
	nf := &g.cache.nums
	grid := []int{-3, -2}
	ctx.SetGridLayout(grid, nil)
	nf.label(ctx, "agents-count", fmt.Sprintf("Agents (1-%d)", agent.MaxCount))
	sp := a.Spawn()
	nf.int(ctx, "agents-count", &sp.Count, numberSpec{step: 1})
	nf.label(ctx, "agents-seed", "Seed")
	nf.int(ctx, "agents-seed", &sp.Seed, numberSpec{step: 1})
	ctx.SetGridLayout(nil, nil)
	sp.Count = min(max(sp.Count, 1), agent.MaxCount)
	sp.Seed = max(sp.Seed, 0)
	ctx.Checkbox(&sp.Wander, "New target on arrival (else stop)")
	a.SetSpawn(sp)
	ctx.SetGridLayout([]int{-1, -1}, nil)
	ctx.Button("Spawn agents").On(func() { a.Report(a.SpawnAgents()) })
	if a.Agents.Crowd() != nil {
		running := a.Agents.Running()
		label := "Pause"
		if !running {
			label = "Run"
		}
		ctx.Button(label).On(func() { a.Agents.SetRunning(!running) })
		ctx.Button("Step").On(func() { a.StepAgents(1) })
		ctx.Button("Clear agents").On(a.ClearAgents)
	}
	target, hasTarget := a.Agents.Target()
	if hasTarget {
		ctx.Button("Random targets").On(a.ClearAgentsTarget)
	}
	ctx.SetGridLayout(nil, nil)
	if hasTarget {
		ctx.Text(fmt.Sprintf("Common target: %.1f, %.1f, %.1f m", target.X, target.Y, target.Z))
	}
	if c := a.Agents.Crowd(); c != nil {
		n := c.Counts()
		replans := 0
		for _, ag := range c.Agents() {
			replans += ag.Replans
		}
		ctx.Text(fmt.Sprintf("%d moving, %d arrived, %d unreachable (red); %.1f s; %d re-plans after swaps",
			n[agent.Moving], n[agent.Arrived], n[agent.Unreachable], c.TimeS(), replans))
	}
	ctx.Text("Agents walk at 1.4 m/s along their straight paths and re-plan when a swap makes their corridor stale. No local avoidance: they walk through each other. Choose the agents tool and click the level to send them all there.")
}
