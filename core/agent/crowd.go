package agent

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/core/query"
)

// Defaults and bounds of a Config.
const (
	// DefaultCount is the number of agents of a Config with Count 0.
	DefaultCount = 20
	// MaxCount bounds Config.Count.
	MaxCount = 1000
	// DefaultSpeedMPS is the walking speed of a Config with SpeedMPS 0,
	// metres per second (horizontal).
	DefaultSpeedMPS = 1.4
	// MaxSpeedMPS bounds Config.SpeedMPS, metres per second.
	MaxSpeedMPS = 100
	// DefaultStepS is the time step of a Config with StepS 0, seconds
	// (one tick of navviz's 60 ticks per second).
	DefaultStepS = float32(1.0 / 60)
	// MaxStepS bounds Config.StepS, seconds.
	MaxStepS = 1
)

// HalfExtentsM is the box, metres, around an agent's position or target in
// which its polygon is looked for (query.NearestPolyFiltered; Detour's
// demo and navviz's Path tool use the same 2, 4, 2).
var HalfExtentsM = geom.V3(2, 4, 2)

// State is what an agent is doing.
type State uint8

const (
	// Moving: the agent walks its path to its target.
	Moving State = iota
	// Arrived: the agent reached its target and stopped (ArriveStop).
	Arrived
	// Unreachable: the target cannot be reached (the corridor is partial,
	// or no polygon is near the agent or its target; Agent.Reason says
	// which). The agent walks as far as its partial path goes and waits
	// there; it plans again after every change of the mesh.
	Unreachable
)

var stateNames = [...]string{Moving: "moving", Arrived: "arrived", Unreachable: "unreachable"}

// String returns "moving", "arrived" or "unreachable" ("State(n)" for an
// invalid value).
func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", uint8(s))
}

// Arrival is what an agent does when it reaches its target.
type Arrival uint8

const (
	// ArriveStop: the agent stops there (Arrived) for good; only a
	// SetTarget sends it on.
	ArriveStop Arrival = iota
	// ArriveWander: the agent draws a new target (query.RandomPoint, from
	// the crowd's generator) and walks on.
	ArriveWander
)

// Config says how a crowd is spawned and moves. Zero fields take the
// defaults.
type Config struct {
	// Count is the number of agents, 1..MaxCount (0: DefaultCount).
	Count int
	// Seed seeds the crowd's generator (math/rand/v2 PCG), which draws the
	// spawn points, the targets and the wander targets.
	Seed uint64
	// SpeedMPS is the walking speed, metres per second measured in the
	// horizontal plane, in (0, MaxSpeedMPS] (0: DefaultSpeedMPS).
	SpeedMPS float32
	// StepS is the fixed time step of Step, seconds, in (0, MaxStepS]
	// (0: DefaultStepS).
	StepS float32
	// Arrival is what an agent does at its target.
	Arrival Arrival
	// Target, when not nil, is every agent's target (metres); nil: each
	// agent draws its own.
	Target *geom.Vec3
	// Filter decides which polygons the agents may cross and what they
	// cost (nil: query.DefaultFilter()).
	Filter *query.Filter
}

// Agent is a snapshot of one agent, as Crowd.Agents returns it.
type Agent struct {
	// Pos is the agent's position on the mesh, metres.
	Pos geom.Vec3
	// Target is where it is going, metres (as drawn or set; the path ends
	// at the nearest point of the mesh).
	Target geom.Vec3
	// State is what it is doing; Reason says why it is Unreachable.
	State  State
	Reason string
	// Ref is the polygon it stands on (0 when no polygon is near it).
	Ref navmesh.PolyRef
	// Corridor is the rest of its corridor, from Ref to the polygon of the
	// path's end (nil when it has none). It holds the node of each
	// off-mesh link the path takes (navmesh.Mesh.IsOffMesh).
	Corridor []navmesh.PolyRef
	// OnLink: the agent is crossing an off-mesh link. Ref is then the
	// link's node, or 0 when the corridor went stale during the crossing
	// (the agent plans again when it lands).
	OnLink bool
	// Path is the rest of its straight path: Pos, then the corners and
	// portal crossings ahead, the last being the path's end (just Pos
	// when it is not walking).
	Path []geom.Vec3
	// Plans counts its path searches; Replans those a stale polygon of
	// its corridor caused.
	Plans, Replans int
}

// agent is the state of one agent.
type agent struct {
	pos, target geom.Vec3
	state       State
	reason      string
	// corridor is the last plan's corridor and ci the index of the
	// polygon the agent stands on (corridor[ci:] is what is left).
	corridor []navmesh.PolyRef
	ci       int
	// pts is the last plan's straight path with every portal crossing
	// (query.CrossAll), so that each leg lies in one polygon, and the
	// points of its off-mesh link crossings (waypoints); next is the index
	// of the point ahead (len(pts): none).
	pts  []waypoint
	next int
	// replan: plan again when the link being crossed is left behind.
	replan bool
	// plans and replans count path searches (see Agent).
	plans, replans int
}

// Crowd is a crowd of agents on a mesh. Create it with New; it remembers
// the mesh (pointer and tile references) it last saw, to tell a tile swap
// or another mesh from no change.
type Crowd struct {
	speedMPS, stepS float32
	stepM           float64 // speedMPS*stepS rounded to float32
	arrival         Arrival
	filter          *query.Filter
	rng             *rand.Rand

	agents []agent
	mesh   *navmesh.Mesh
	tiles  []navmesh.TileRef
	steps  uint64
}

// rngStream is the PCG stream of every crowd's generator (the seed is
// Config.Seed).
const rngStream = 0x6167656e74 // "agent"

// resolve returns cfg with its defaults filled in, or an error naming the
// bad field.
func (cfg Config) resolve() (Config, error) {
	if cfg.Count == 0 {
		cfg.Count = DefaultCount
	}
	if cfg.SpeedMPS == 0 {
		cfg.SpeedMPS = DefaultSpeedMPS
	}
	if cfg.StepS == 0 {
		cfg.StepS = DefaultStepS
	}
	switch {
	case cfg.Count < 1 || cfg.Count > MaxCount:
		return cfg, fmt.Errorf("agent: Count %d, want 1..%d", cfg.Count, MaxCount)
	case !(cfg.SpeedMPS > 0 && cfg.SpeedMPS <= MaxSpeedMPS):
		return cfg, fmt.Errorf("agent: SpeedMPS %g, want in (0, %d] m/s", cfg.SpeedMPS, MaxSpeedMPS)
	case !(cfg.StepS > 0 && cfg.StepS <= MaxStepS):
		return cfg, fmt.Errorf("agent: StepS %g, want in (0, %d] s", cfg.StepS, MaxStepS)
	case cfg.Arrival > ArriveWander:
		return cfg, fmt.Errorf("agent: Arrival %d, want ArriveStop or ArriveWander", cfg.Arrival)
	case cfg.Target != nil && !cfg.Target.Finite():
		return cfg, fmt.Errorf("agent: Target %v is not finite", *cfg.Target)
	}
	if cfg.Filter != nil {
		// query validates the costs; a filter that passes nothing is an
		// error here rather than a crowd of unreachable agents.
		f := *cfg.Filter
		cfg.Filter = &f
		if f.IncludeFlags == 0 {
			return cfg, fmt.Errorf("agent: Filter.IncludeFlags 0 passes no polygon")
		}
	}
	return cfg, nil
}

// New spawns a crowd on m: for each agent in turn it draws a start point
// and, unless cfg.Target is set, a target (query.RandomPoint: uniform by
// area over the polygons cfg.Filter passes), then plans every agent's
// path. A bad Config, a nil mesh or a mesh without polygons is an error.
func New(m *navmesh.Mesh, cfg Config) (*Crowd, error) {
	cfg, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, fmt.Errorf("agent: New: nil mesh")
	}
	c := &Crowd{
		speedMPS: cfg.SpeedMPS, stepS: cfg.StepS, stepM: float64(cfg.SpeedMPS * cfg.StepS),
		arrival: cfg.Arrival, filter: cfg.Filter,
		rng:    rand.New(rand.NewPCG(cfg.Seed, rngStream)),
		agents: make([]agent, cfg.Count),
		mesh:   m, tiles: m.Tiles(),
	}
	for i := range c.agents {
		a := &c.agents[i]
		if _, a.pos, err = query.RandomPoint(m, c.filter, c.rng); err != nil {
			return nil, fmt.Errorf("agent: New: spawn point of agent %d: %w", i, err)
		}
		if cfg.Target != nil {
			a.target = *cfg.Target
		} else if _, a.target, err = query.RandomPoint(m, c.filter, c.rng); err != nil {
			return nil, fmt.Errorf("agent: New: target of agent %d: %w", i, err)
		}
	}
	for i := range c.agents {
		c.plan(m, &c.agents[i])
	}
	return c, nil
}

// Len returns the number of agents (0 for a nil Crowd).
func (c *Crowd) Len() int {
	if c == nil {
		return 0
	}
	return len(c.agents)
}

// Steps returns the number of steps taken since New.
func (c *Crowd) Steps() uint64 {
	if c == nil {
		return 0
	}
	return c.steps
}

// StepS returns the fixed time step, seconds (0 for a nil Crowd).
func (c *Crowd) StepS() float32 {
	if c == nil {
		return 0
	}
	return c.stepS
}

// TimeS returns the simulated time since New, seconds: Steps × StepS.
func (c *Crowd) TimeS() float64 {
	if c == nil {
		return 0
	}
	return float64(float64(c.steps) * float64(c.stepS))
}

// Agents returns a snapshot of every agent, in spawn order (the caller
// owns the slices).
func (c *Crowd) Agents() []Agent {
	if c == nil {
		return nil
	}
	out := make([]Agent, len(c.agents))
	for i := range c.agents {
		a := &c.agents[i]
		s := Agent{Pos: a.pos, Target: a.target, State: a.state, Reason: a.reason,
			Plans: a.plans, Replans: a.replans, Path: []geom.Vec3{a.pos}, OnLink: a.onLink()}
		if a.ci < len(a.corridor) {
			s.Ref = a.corridor[a.ci]
			s.Corridor = slices.Clone(a.corridor[a.ci:])
		}
		for _, p := range a.pts[min(a.next, len(a.pts)):] {
			s.Path = append(s.Path, p.pos)
		}
		out[i] = s
	}
	return out
}

// Counts returns how many agents are in each state, indexed by State.
func (c *Crowd) Counts() [Unreachable + 1]int {
	var n [Unreachable + 1]int
	if c == nil {
		return n
	}
	for i := range c.agents {
		n[c.agents[i].state]++
	}
	return n
}

// SetTarget sends every agent to p (metres) from where it stands: each
// plans its path again (one crossing an off-mesh link when it lands). A
// nil mesh or a non-finite p is an error and changes nothing.
func (c *Crowd) SetTarget(m *navmesh.Mesh, p geom.Vec3) error {
	if c == nil || m == nil {
		return fmt.Errorf("agent: SetTarget: nil crowd or mesh")
	}
	if !p.Finite() {
		return fmt.Errorf("agent: SetTarget: target %v is not finite", p)
	}
	c.see(m)
	for i := range c.agents {
		a := &c.agents[i]
		a.target, a.state = p, Moving
		if a.onLink() {
			a.replan = true
			continue
		}
		c.plan(m, a)
	}
	return nil
}
