package session

import (
	"strings"
	"testing"

	"navviz/world"
)

// TestAgentSizeErrors: every bad agent size is an error naming it, shown
// in the window, and the list stays as it was.
func TestAgentSizeErrors(t *testing.T) {
	a := NewApp()
	if err := a.AddAgentSize(AgentPresets[1].Agent); err != nil {
		t.Fatal(err)
	}
	bad := func(f func(*world.Agent)) world.Agent {
		ag := AgentPresets[0].Agent
		f(&ag)
		return ag
	}
	for _, tc := range []struct {
		name string
		ag   world.Agent
		want string
	}{
		{"empty name", bad(func(ag *world.Agent) { ag.Name = "  " }), "name is empty"},
		{"default", bad(func(ag *world.Agent) { ag.Name = DefaultAgentName }), "taken"},
		{"duplicate", AgentPresets[1].Agent, "taken"},
		{"negative radius", bad(func(ag *world.Agent) { ag.RadiusM = -1 }), `"small"`},
		{"zero height", bad(func(ag *world.Agent) { ag.HeightM = 0 }), `"small"`},
		{"slope 95", bad(func(ag *world.Agent) { ag.MaxSlopeDeg = 95 }), `"small"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := a.AddAgentSize(tc.ag)
			if err == nil || !strings.Contains(a.err, tc.want) {
				t.Errorf("AddAgentSize(%+v) = %v, Err %q, want %q", tc.ag, err, a.err, tc.want)
			}
			if AgentNames(a.CacheAgents()) != "default, large" {
				t.Errorf("the list changed: %s", AgentNames(a.CacheAgents()))
			}
		})
	}
	for _, name := range []string{DefaultAgentName, "troll"} {
		if err := a.RemoveAgentSize(name); err == nil || !strings.Contains(a.err, name) {
			t.Errorf("RemoveAgentSize(%q) = %v, Err %q", name, err, a.err)
		}
	}
	if err := a.ShowAgent("large"); err == nil || !strings.Contains(a.err, "no tile cache") {
		t.Errorf("ShowAgent without a cache: %v, Err %q", err, a.err)
	}
	for i := len(a.CacheAgents()); i < world.MaxAgents; i++ {
		if err := a.AddAgentSize(bad(func(ag *world.Agent) { ag.Name = strings.Repeat("x", i) })); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.AddAgentSize(bad(func(ag *world.Agent) { ag.Name = "one more" })); err == nil || !strings.Contains(a.err, "16") {
		t.Errorf("a 17th agent: %v, Err %q", err, a.err)
	}
}

// TestAgentsProgress: the progress of builds made one after the other
// counts on over all of them.
func TestAgentsProgress(t *testing.T) {
	for _, tc := range []struct {
		name  string
		n     int
		calls [][2]int
		want  [][2]int
	}{
		{"one agent", 1, [][2]int{{1, 2}, {2, 2}}, [][2]int{{1, 2}, {2, 2}}},
		{"two agents", 2, [][2]int{{1, 2}, {2, 2}, {1, 2}, {2, 2}}, [][2]int{{1, 4}, {2, 4}, {3, 4}, {4, 4}}},
		{"one tile each", 3, [][2]int{{1, 1}, {1, 1}, {1, 1}}, [][2]int{{1, 3}, {2, 3}, {3, 3}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got [][2]int
			p := AgentsProgress(tc.n, func(done, total int) { got = append(got, [2]int{done, total}) })
			for _, c := range tc.calls {
				p(c[0], c[1])
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("call %d: got %v, want %v", i, got[i], tc.want[i])
				}
			}
		})
	}
	if AgentsProgress(2, nil) != nil {
		t.Error("a nil progress gave a function")
	}
}
