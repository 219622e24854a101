package render

import (
	"slices"
	"testing"

	"navviz/core/agent"
	"navviz/core/geom"
)

// TestAgentsOverlay: each agent is a disc of agentDiscSides triangles and
// a body line in its state's colour, its path a line per leg ending in a
// target mark; an unreachable agent is red; the legend names the three
// colours.
func TestAgentsOverlay(t *testing.T) {
	agents := []agent.Agent{
		{Pos: geom.V3(0, 0, 0), State: agent.Moving, Path: []geom.Vec3{{}, {X: 3}, {X: 3, Z: 4}}},
		{Pos: geom.V3(10, 0, 0), State: agent.Unreachable, Path: []geom.Vec3{{X: 10}}},
		{Pos: geom.V3(20, 1, 0), State: agent.Arrived, Path: []geom.Vec3{{X: 20, Y: 1}}},
	}
	o := AgentsOverlay(nil, agents)
	if o.Name != OverlayAgents || !o.Visible {
		t.Fatalf("overlay %q visible %v", o.Name, o.Visible)
	}
	// 3 discs + one target mark (2 triangles) for the moving agent.
	if want := 3*agentDiscSides*3 + 6; len(o.Tris) != want {
		t.Errorf("%d triangle vertices, want %d", len(o.Tris), want)
	}
	// 2 legs + 3 bodies.
	if want := (2 + 3) * 2; len(o.Lines) != want {
		t.Errorf("%d line vertices, want %d", len(o.Lines), want)
	}
	for i, s := range []agent.State{agent.Moving, agent.Unreachable, agent.Arrived} {
		if o.Points[i].Col != AgentColour(s) {
			t.Errorf("agent %d (%v) drawn %v, want %v", i, s, o.Points[i].Col, AgentColour(s))
		}
		if d := o.Points[i].Pos.Sub(agents[i].Pos); d.X != 0 || d.Z != 0 || d.Y < agentHeightM {
			t.Errorf("agent %d head at %v, want above %v", i, o.Points[i].Pos, agents[i].Pos)
		}
	}
	if AgentColour(agent.Unreachable) == AgentColour(agent.Moving) || AgentColour(agent.Unreachable).R < 200 {
		t.Error("unreachable agents are not red")
	}
	var cols []any
	for _, e := range OverlayLegend(OverlayAgents) {
		cols = append(cols, e.Col)
	}
	for _, s := range []agent.State{agent.Moving, agent.Arrived, agent.Unreachable} {
		if !slices.Contains(cols, any(AgentColour(s))) {
			t.Errorf("legend lacks %v's colour", s)
		}
	}
}
