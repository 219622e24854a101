package world

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"

	"navviz/core/level"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
	"navviz/core/voxel"
	"navviz/tilecache"
)

// MaxAgents is the most agent configurations a World holds.
const MaxAgents = 16

// maxNameBytes bounds an agent's name.
const maxNameBytes = 64

// Agent is one agent configuration: its name and the navmesh settings that
// depend on the agent's body. Everything else (cell size, tiles, partition,
// region and polygon settings) comes from the World's base settings.
type Agent struct {
	// Name names the agent in the World (1-64 bytes of UTF-8, unique).
	Name string
	// HeightM, RadiusM, MaxClimbM and MaxSlopeDeg are
	// pipeline.NavSettings' AgentHeightM, AgentRadiusM, AgentMaxClimbM and
	// AgentMaxSlopeDeg for this agent.
	HeightM, RadiusM, MaxClimbM, MaxSlopeDeg float32
}

// AgentOf returns the agent configuration name of the settings s.
func AgentOf(name string, s pipeline.NavSettings) Agent {
	return Agent{Name: name, HeightM: s.AgentHeightM, RadiusM: s.AgentRadiusM, MaxClimbM: s.AgentMaxClimbM, MaxSlopeDeg: s.AgentMaxSlopeDeg}
}

// Settings returns base with the agent's body settings.
func (a Agent) Settings(base pipeline.NavSettings) pipeline.NavSettings {
	base.AgentHeightM, base.AgentRadiusM = a.HeightM, a.RadiusM
	base.AgentMaxClimbM, base.AgentMaxSlopeDeg = a.MaxClimbM, a.MaxSlopeDeg
	return base
}

// World is a level with one tile cache per agent configuration. Make it
// with Build.
type World struct {
	agents []Agent
	caches []*tilecache.Cache
}

// errNotBuilt is the error of every call on a World not made by Build.
var errNotBuilt = errors.New("world: the World was not made by Build")

// check returns errNotBuilt for a nil or zero World.
func (w *World) check() error {
	if w == nil || len(w.caches) == 0 {
		return errNotBuilt
	}
	return nil
}

// checkAgents validates the agent list of Build.
func checkAgents(agents []Agent) error {
	if len(agents) == 0 || len(agents) > MaxAgents {
		return fmt.Errorf("world: %d agent configurations, want 1 to %d", len(agents), MaxAgents)
	}
	for i, a := range agents {
		if a.Name == "" || len(a.Name) > maxNameBytes || !utf8.ValidString(a.Name) {
			return fmt.Errorf("world: agent %d: name %q: want 1 to %d bytes of UTF-8", i, a.Name, maxNameBytes)
		}
		for j := range i {
			if agents[j].Name == a.Name {
				return fmt.Errorf("world: agents %d and %d are both named %q", j, i, a.Name)
			}
		}
	}
	return nil
}

// Build builds one tile cache of soup per agent, each with base settings
// and the agent's body (Agent.Settings), one after the other, sharing the
// level's triangle index. Settings are validated (naming the agent) before
// anything is built; an error of one build ends it and returns nothing.
func Build(ctx context.Context, base pipeline.NavSettings, soup *level.Soup, agents []Agent, opt tilecache.Options) (*World, error) {
	if err := checkAgents(agents); err != nil {
		return nil, err
	}
	for _, a := range agents {
		s := a.Settings(base)
		if err := s.Validate(); err != nil {
			return nil, fmt.Errorf("world: agent %q: %w", a.Name, err)
		}
	}
	ch, err := level.NewChunky(soup, 256)
	if err != nil {
		return nil, fmt.Errorf("world: %w", err)
	}
	w := &World{agents: append([]Agent(nil), agents...)}
	for _, a := range agents {
		s := a.Settings(base)
		c, err := tilecache.BuildChunk(ctx, &s, soup, ch, opt)
		if err != nil {
			return nil, fmt.Errorf("world: agent %q: %w", a.Name, err)
		}
		w.caches = append(w.caches, c)
	}
	return w, nil
}

// Agents returns the agent configurations in World order.
func (w *World) Agents() []Agent {
	if w.check() != nil {
		return nil
	}
	return append([]Agent(nil), w.agents...)
}

// index returns the position of the agent called name.
func (w *World) index(name string) (int, error) {
	if err := w.check(); err != nil {
		return 0, err
	}
	for i, a := range w.agents {
		if a.Name == name {
			return i, nil
		}
	}
	names := make([]string, len(w.agents))
	for i, a := range w.agents {
		names[i] = a.Name
	}
	return 0, fmt.Errorf("world: no agent called %q (have %q)", name, names)
}

// Cache returns the tile cache of the agent called name. Edit the World,
// not the cache: an edit made on one cache alone is not seen by the others
// and breaks the World's shared ids.
func (w *World) Cache(name string) (*tilecache.Cache, error) {
	i, err := w.index(name)
	if err != nil {
		return nil, err
	}
	return w.caches[i], nil
}

// Mesh returns the navmesh of the agent called name.
func (w *World) Mesh(name string) (*navmesh.Mesh, error) {
	c, err := w.Cache(name)
	if err != nil {
		return nil, err
	}
	return c.Mesh(), nil
}

// addEach adds one item to every cache with add, which returns the id the
// cache gave it. Whatever could refuse the item is checked in every cache
// before any changes, so a refused add changes nothing (no cache's next
// id or queue): check validates the item as add does, and next, the id
// each cache would give, must be the same everywhere (it differs only
// when a cache was edited alone).
func addEach[ID comparable](w *World, what string, next func(*tilecache.Cache) ID, check func(*tilecache.Cache) error, add func(*tilecache.Cache) (ID, error)) (ID, error) {
	var zero ID
	if err := w.check(); err != nil {
		return zero, err
	}
	first := next(w.caches[0])
	for i, c := range w.caches {
		if err := check(c); err != nil {
			return zero, fmt.Errorf("world: agent %q: %w", w.agents[i].Name, err)
		}
		if id := next(c); id != first {
			return zero, fmt.Errorf("world: agent %q would give the %s id %v, agent %q %v (was a cache edited alone?)", w.agents[i].Name, what, id, w.agents[0].Name, first)
		}
	}
	for i, c := range w.caches {
		// After the checks only the first cache can refuse (every id
		// used), before anything changed.
		if _, err := add(c); err != nil {
			return zero, fmt.Errorf("world: agent %q: %w", w.agents[i].Name, err)
		}
	}
	return first, nil
}

// AddObstacle adds o to every agent's cache (each grows it by its own
// radius) and returns its id. An invalid obstacle is an error and changes
// nothing.
func (w *World) AddObstacle(o voxel.Obstacle) (tilecache.ObstacleID, error) {
	return addEach(w, "obstacle", (*tilecache.Cache).NextObstacleID,
		func(c *tilecache.Cache) error { _, err := c.TilesFor(o); return err },
		func(c *tilecache.Cache) (tilecache.ObstacleID, error) { return c.AddObstacle(o) })
}

// AddVolume adds the area volume v to every agent's cache and returns its
// id. An invalid volume is an error and changes nothing.
func (w *World) AddVolume(v voxel.ConvexVolume) (tilecache.VolumeID, error) {
	return addEach(w, "volume", (*tilecache.Cache).NextVolumeID,
		func(c *tilecache.Cache) error { _, err := c.TilesForVolume(v); return err },
		func(c *tilecache.Cache) (tilecache.VolumeID, error) { return c.AddVolume(v) })
}

// RemoveObstacle removes the obstacle id from every agent's cache. An
// unknown id is an error and changes nothing.
func (w *World) RemoveObstacle(id tilecache.ObstacleID) error {
	return w.removeEach("RemoveObstacle", "obstacle", uint32(id),
		func(c *tilecache.Cache) bool {
			return slices.ContainsFunc(c.Obstacles(), func(o tilecache.Obstacle) bool { return o.ID == id })
		},
		func(c *tilecache.Cache) error { return c.RemoveObstacle(id) })
}

// RemoveVolume removes the area volume id from every agent's cache. An
// unknown id is an error and changes nothing.
func (w *World) RemoveVolume(id tilecache.VolumeID) error {
	return w.removeEach("RemoveVolume", "volume", uint32(id),
		func(c *tilecache.Cache) bool {
			return slices.ContainsFunc(c.Volumes(), func(v tilecache.Volume) bool { return v.ID == id })
		},
		func(c *tilecache.Cache) error { return c.RemoveVolume(id) })
}

// removeEach removes the item id from every cache (remove), after checking
// that every cache holds it (has), so that a refused remove changes
// nothing.
func (w *World) removeEach(fn, what string, id uint32, has func(*tilecache.Cache) bool, remove func(*tilecache.Cache) error) error {
	if err := w.holdEach(fn, what, id, has); err != nil {
		return err
	}
	for i, c := range w.caches {
		if err := remove(c); err != nil { // held, checked above
			return fmt.Errorf("world: agent %q: %w", w.agents[i].Name, err)
		}
	}
	return nil
}

// holdEach returns an error naming fn unless every cache holds the item
// id of kind what (has).
func (w *World) holdEach(fn, what string, id uint32, has func(*tilecache.Cache) bool) error {
	if err := w.check(); err != nil {
		return err
	}
	for i, c := range w.caches {
		if has(c) {
			continue
		}
		if i == 0 {
			return fmt.Errorf("world: %s: no %s with id %d", fn, what, id)
		}
		return fmt.Errorf("world: %s: agent %q has no %s with id %d, agent %q has (was a cache edited alone?)", fn, w.agents[i].Name, what, id, w.agents[0].Name)
	}
	return nil
}

// Obstacles returns the obstacles in force with their ids.
func (w *World) Obstacles() []tilecache.Obstacle {
	if w.check() != nil {
		return nil
	}
	return w.caches[0].Obstacles()
}

// Volumes returns the area volumes in force with their ids.
func (w *World) Volumes() []tilecache.Volume {
	if w.check() != nil {
		return nil
	}
	return w.caches[0].Volumes()
}

// QueueLen returns the number of tiles queued in all the caches.
func (w *World) QueueLen() int {
	if w.check() != nil {
		return 0
	}
	n := 0
	for _, c := range w.caches {
		n += c.QueueLen()
	}
	return n
}

// UpdateResult is what a World's Update did: one tilecache.UpdateResult
// per agent, in World order.
type UpdateResult struct {
	Agents []tilecache.UpdateResult
}

// Remaining returns the number of tiles still queued in all the caches.
func (r *UpdateResult) Remaining() int {
	if r == nil {
		return 0
	}
	n := 0
	for _, a := range r.Agents {
		n += a.Remaining
	}
	return n
}

// Update rebuilds up to maxTiles queued tiles in all, taking the caches in
// World order: the first agent's queue is worked off before the second's
// is started (tilecache.Cache.Update). maxTiles 0 does nothing; a negative
// one is an error and changes nothing. A tile that fails is reported as
// tilecache reports it (the error names the agent) and does not stop the
// other caches.
func (w *World) Update(maxTiles int) (UpdateResult, error) {
	if err := w.check(); err != nil {
		return UpdateResult{}, err
	}
	if maxTiles < 0 {
		return UpdateResult{}, fmt.Errorf("world: Update(%d): maxTiles must not be negative", maxTiles)
	}
	res := UpdateResult{Agents: make([]tilecache.UpdateResult, len(w.caches))}
	var errs []error
	for i, n := range w.UpdateShares(maxTiles) {
		r, err := w.caches[i].Update(n)
		res.Agents[i] = r
		if err != nil {
			errs = append(errs, fmt.Errorf("world: agent %q: %w", w.agents[i].Name, err))
		}
	}
	return res, errors.Join(errs...)
}

// UpdateShares returns how many tiles Update(maxTiles) takes from each
// agent's queue, in World order: the first agent's queue is worked off
// before the second's is started (nil for a World not made by Build).
func (w *World) UpdateShares(maxTiles int) []int {
	if w.check() != nil {
		return nil
	}
	shares := make([]int, len(w.caches))
	left := max(maxTiles, 0)
	for i, c := range w.caches {
		shares[i] = min(left, c.QueueLen())
		left -= shares[i]
	}
	return shares
}

// UpdateAll rebuilds every queued tile of every cache.
func (w *World) UpdateAll() (UpdateResult, error) {
	return w.Update(w.QueueLen())
}

// AddOffMeshLink adds the off-mesh link l to every agent's cache (a link
// belongs to the level: each agent's mesh connects it to its own
// polygons) and returns its id. An invalid link is an error and changes
// nothing; a link whose start lies where an agent's cache has no tile is
// kept there unconnected (docs/tilecache.md §4a).
func (w *World) AddOffMeshLink(l navmesh.OffMeshLink) (tilecache.OffMeshLinkID, error) {
	return addEach(w, "off-mesh link", (*tilecache.Cache).NextOffMeshLinkID,
		func(c *tilecache.Cache) error { _, err := c.TilesForOffMeshLink(l); return err },
		func(c *tilecache.Cache) (tilecache.OffMeshLinkID, error) { return c.AddOffMeshLink(l) })
}

// hasLink reports whether c holds the off-mesh link id.
func hasLink(id tilecache.OffMeshLinkID) func(*tilecache.Cache) bool {
	return func(c *tilecache.Cache) bool {
		return slices.ContainsFunc(c.OffMeshLinks(), func(l navmesh.OffMeshLink) bool { return tilecache.OffMeshLinkID(l.UserID) == id })
	}
}

// MoveOffMeshLink replaces link id by l in every agent's cache (same id).
// An unknown id or an invalid link is an error and changes nothing: both
// are checked in every cache first.
func (w *World) MoveOffMeshLink(id tilecache.OffMeshLinkID, l navmesh.OffMeshLink) error {
	if err := w.holdEach("MoveOffMeshLink", "off-mesh link", uint32(id), hasLink(id)); err != nil {
		return err
	}
	for i, c := range w.caches {
		if _, err := c.TilesForOffMeshLink(l); err != nil {
			return fmt.Errorf("world: agent %q: %w", w.agents[i].Name, err)
		}
	}
	for i, c := range w.caches {
		if err := c.MoveOffMeshLink(id, l); err != nil { // checked above
			return fmt.Errorf("world: agent %q: %w", w.agents[i].Name, err)
		}
	}
	return nil
}

// RemoveOffMeshLink removes link id from every agent's cache. An unknown
// id is an error and changes nothing.
func (w *World) RemoveOffMeshLink(id tilecache.OffMeshLinkID) error {
	return w.removeEach("RemoveOffMeshLink", "off-mesh link", uint32(id), hasLink(id),
		func(c *tilecache.Cache) error { return c.RemoveOffMeshLink(id) })
}

// OffMeshLinks returns the off-mesh links in force by ascending id.
func (w *World) OffMeshLinks() []navmesh.OffMeshLink {
	if w.check() != nil {
		return nil
	}
	return w.caches[0].OffMeshLinks()
}
