package scenario

import (
	"fmt"
	"math"

	"navviz/core/agent"
)

// MaxAgentSeconds bounds an agents step's seconds.
const MaxAgentSeconds = 3600

// AgentsStep spawns a crowd (core/agent) and advances it. With Count >
// 0 it replaces the crowd with Count agents drawn from Seed (targets
// drawn too, or every agent heading for TargetM; Wander: a new target on
// arrival, else stop); with Count 0 it works on the crowd there is
// (TargetM, when set, sends every agent there). Then it advances the
// crowd Seconds (0..MaxAgentSeconds) in steps of agent.DefaultStepS (a
// whole number of steps, rounded). The crowd walks the path's mesh: the
// tile cache's, else the plain build's.
type AgentsStep struct {
	Count   int         `json:"count,omitempty"`
	Seed    uint64      `json:"seed,omitempty"`
	TargetM *[3]float64 `json:"target_m,omitempty"`
	Wander  bool        `json:"wander,omitempty"`
	Seconds float64     `json:"seconds"`
}

// checkAgents checks an agents step on its own.
func checkAgents(a *AgentsStep) error {
	if a.Count < 0 || a.Count > agent.MaxCount {
		return fmt.Errorf("agents count %d: want 0 (the crowd there is) to %d", a.Count, agent.MaxCount)
	}
	if a.Count == 0 && (a.Seed != 0 || a.Wander) {
		return fmt.Errorf("agents: seed and wander spawn a crowd: give a count")
	}
	if !(a.Seconds >= 0 && a.Seconds <= MaxAgentSeconds) {
		return fmt.Errorf("agents seconds %v: want 0 to %d", a.Seconds, MaxAgentSeconds)
	}
	if a.TargetM != nil {
		return checkVec("agents target_m", *a.TargetM)
	}
	return nil
}

// AgentsReport is the crowd after an agents step.
type AgentsReport struct {
	// Steps and TimeS are the steps and seconds since the spawn.
	Steps uint64  `json:"steps"`
	TimeS float64 `json:"time_s"`
	// Moving, Arrived and Unreachable count the agents in each state;
	// Replans sums the re-plans stale corridors caused.
	Moving      int `json:"moving"`
	Arrived     int `json:"arrived"`
	Unreachable int `json:"unreachable"`
	Replans     int `json:"replans"`
	// Agents are the agents in spawn order.
	Agents []AgentLine `json:"agents"`
}

// AgentLine is one agent: its position (metres, the float32 bits written
// exactly), state and re-plans.
type AgentLine struct {
	PosM    [3]float32 `json:"pos_m"`
	State   string     `json:"state"`
	Replans int        `json:"replans,omitempty"`
}

// agentsReport returns the report of crowd c.
func agentsReport(c *agent.Crowd) *AgentsReport {
	n := c.Counts()
	r := &AgentsReport{Steps: c.Steps(), TimeS: c.TimeS(),
		Moving: n[agent.Moving], Arrived: n[agent.Arrived], Unreachable: n[agent.Unreachable]}
	for _, a := range c.Agents() {
		r.Replans += a.Replans
		r.Agents = append(r.Agents, AgentLine{PosM: [3]float32{a.Pos.X, a.Pos.Y, a.Pos.Z}, State: a.State.String(), Replans: a.Replans})
	}
	return r
}

// summary is the report's sentence.
func (r *AgentsReport) summary() string {
	return fmt.Sprintf("%d agents at %.2f s: %d moving, %d arrived, %d unreachable, %d re-plans",
		len(r.Agents), r.TimeS, r.Moving, r.Arrived, r.Unreachable, r.Replans)
}

// agents runs an agents step. A failure changes nothing.
func (r *Runner) agents(st *AgentsStep, rep *StepReport) error {
	if r.Cache == nil {
		if err := r.plainBuild(); err != nil {
			return err
		}
	}
	m := r.mesh(false)
	if m == nil {
		return fmt.Errorf("agents: no navmesh")
	}
	c := r.Crowd
	if st.Count > 0 {
		cfg := agent.Config{Count: st.Count, Seed: st.Seed}
		if st.Wander {
			cfg.Arrival = agent.ArriveWander
		}
		if st.TargetM != nil {
			t := vec3(*st.TargetM)
			cfg.Target = &t
		}
		var err error
		if c, err = agent.New(m, cfg); err != nil {
			return fmt.Errorf("agents: %w", err)
		}
	} else if c == nil {
		return fmt.Errorf("agents: no crowd yet: give a count to spawn one")
	}
	// The steps run on the new or current crowd; nothing is kept when one
	// fails (a nil mesh only, checked above).
	if st.Count == 0 && st.TargetM != nil {
		if err := c.SetTarget(m, vec3(*st.TargetM)); err != nil {
			return fmt.Errorf("agents: %w", err)
		}
	}
	n := int(math.Round(st.Seconds / float64(agent.DefaultStepS)))
	if err := c.Advance(m, n); err != nil {
		return fmt.Errorf("agents: %w", err)
	}
	r.Crowd = c
	rep.Agents = agentsReport(c)
	rep.Did = rep.Agents.summary()
	return nil
}
