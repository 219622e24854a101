package session

import (
	"errors"
	"time"

	"navviz/core/agent"
	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/navmesh"
)

// Agents is the Agents tool's model: a crowd of core/agent agents walking
// a navmesh, whether it runs, and the common target a click set. Gen
// changes whenever the crowd does (spawned, cleared, stepped, retargeted).
// The zero Agents has no crowd.
type Agents struct {
	crowd   *agent.Crowd
	running bool
	// target is the common target (valid when hasTarget); without it
	// every agent of the next crowd draws its own.
	target    geom.Vec3
	hasTarget bool

	soup *level.Soup // the level the crowd was spawned on
	// mesh is the mesh the crowd last walked on and cache the cache it
	// belongs to (0: none, a plain build): a later copy of the same
	// cache's mesh is handed to the crowd (Follow) instead of planning
	// again.
	mesh  *navmesh.Mesh
	cache uint64
	last  time.Time // the time of the last running Tick
	debtS float64   // time not stepped yet, seconds
	gen   uint64
}

// ErrNoMesh is SetTarget's error for a crowd without a navmesh.
var ErrNoMesh = errors.New("no navmesh")

// Crowd returns the crowd (nil before Start or after Clear).
func (s *Agents) Crowd() *agent.Crowd { return s.crowd }

// Running reports whether Tick advances the crowd.
func (s *Agents) Running() bool { return s.running }

// SetRunning runs or pauses the crowd.
func (s *Agents) SetRunning(on bool) { s.running = on }

// Target returns the common target, metres, and whether there is one.
func (s *Agents) Target() (geom.Vec3, bool) { return s.target, s.hasTarget }

// ClearTarget forgets the common target: the next crowd draws a target
// per agent (the current one keeps its targets).
func (s *Agents) ClearTarget() { s.hasTarget = false }

// Gen returns a counter that changes whenever the crowd does.
func (s *Agents) Gen() uint64 { return s.gen }

// Start makes c the crowd, spawned on soup's mesh m (of cache, 0 for a
// plain build), and runs it.
func (s *Agents) Start(c *agent.Crowd, soup *level.Soup, m *navmesh.Mesh, cache uint64) {
	s.crowd, s.soup, s.running = c, soup, true
	s.mesh, s.cache = m, cache
	s.gen++
}

// Clear removes the crowd.
func (s *Agents) Clear() {
	if s.crowd != nil {
		s.crowd, s.running = nil, false
		s.gen++
	}
}

// DropOff clears the crowd when soup is not the level it was spawned on
// and reports whether it did.
func (s *Agents) DropOff(soup *level.Soup) bool {
	if s.crowd == nil || s.soup == soup {
		return false
	}
	s.Clear()
	return true
}

// Follow tells the crowd that it walks on m now (of cache, 0 for a plain
// build): a later copy of the cache it walked on is handed over with
// agent.Crowd.Follow; another mesh makes the crowd plan again at its next
// step. Nothing happens without a crowd or a mesh.
func (s *Agents) Follow(m *navmesh.Mesh, cache uint64) error {
	if m == nil || s.crowd == nil || m == s.mesh {
		return nil
	}
	var err error
	if cache != 0 && cache == s.cache {
		err = s.crowd.Follow(m)
	}
	s.mesh, s.cache = m, cache
	return err
}

// SetTarget makes p (metres) the common target and sends every agent of
// the crowd there on m (ErrNoMesh without one; an error changes nothing).
func (s *Agents) SetTarget(m *navmesh.Mesh, p geom.Vec3) error {
	if s.crowd != nil {
		if m == nil {
			return ErrNoMesh
		}
		if err := s.crowd.SetTarget(m, p); err != nil {
			return err
		}
		s.gen++
	}
	s.target, s.hasTarget = p, true
	return nil
}

// Advance steps the crowd n times on m; an error pauses it.
func (s *Agents) Advance(m *navmesh.Mesh, n int) error {
	if s.crowd == nil {
		return nil
	}
	if err := s.crowd.Advance(m, n); err != nil {
		s.running = false
		return err
	}
	s.gen++
	return nil
}

// Tick returns how many steps a tick at time now runs: while the crowd
// runs, the steps the time since the last tick holds, the remainder
// carried to the next (the first tick after a pause or a start runs one),
// at most maxSteps (the remainder then dropped: a stalled window does not
// make the crowd jump). Paused or without a crowd it is 0.
func (s *Agents) Tick(now time.Time, maxSteps int) int {
	if !s.running || s.crowd == nil {
		s.last, s.debtS = time.Time{}, 0
		return 0
	}
	n := 1
	if !s.last.IsZero() {
		stepS := float64(s.crowd.StepS())
		s.debtS += now.Sub(s.last).Seconds()
		n = int(s.debtS / stepS)
		s.debtS -= float64(float64(n) * stepS)
		if n > maxSteps {
			n, s.debtS = maxSteps, 0
		}
	}
	s.last = now
	return n
}
