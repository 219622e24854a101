package tilecache

import (
	"fmt"

	"navviz/core/navmesh"
)

// RestoreAll restores snapshots[i] into caches[i] (Restore) for every i,
// all or none: every snapshot is checked, and every mesh state prepared
// (navmesh.Mesh.PrepareState), before any cache changes, so a refused
// snapshot leaves every cache exactly as it was, last-built areas
// included. The index of the refused snapshot comes with its error (-1
// for an error of the arguments: lengths that differ, a cache listed
// twice).
func RestoreAll(caches []*Cache, snapshots [][]byte) (int, error) {
	if len(caches) != len(snapshots) {
		return -1, fmt.Errorf("tilecache: RestoreAll: %d caches, %d snapshots", len(caches), len(snapshots))
	}
	ps := make([]*pendingRestore, len(caches))
	for i, c := range caches {
		for j := range i {
			if caches[j] == c {
				return -1, fmt.Errorf("tilecache: RestoreAll: caches %d and %d are the same cache", j, i)
			}
		}
		p, err := c.prepareRestore(snapshots[i])
		if err != nil {
			return i, err
		}
		ps[i] = p
	}
	for i, p := range ps {
		if err := p.apply(); err != nil {
			return i, err
		}
	}
	return 0, nil
}

// pendingRestore is a snapshot checked and made ready to go into its
// cache (prepareRestore): the decoded state and the prepared mesh state.
type pendingRestore struct {
	c    *Cache
	rs   *restored
	mesh *navmesh.PreparedState
}

// prepareRestore does all of Restore that can fail, without changing c.
func (c *Cache) prepareRestore(data []byte) (*pendingRestore, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	rs, err := c.decodeSnapshot(data)
	if err != nil {
		return nil, err
	}
	lookup := func(id uint64) []byte {
		if d, ok := rs.data[id]; ok {
			return d
		}
		return nil
	}
	mesh, err := c.mesh.PrepareState(&rs.state, lookup)
	if err != nil {
		return nil, fmt.Errorf("tilecache: Restore: %w", err)
	}
	return &pendingRestore{c: c, rs: rs, mesh: mesh}, nil
}

// apply puts the prepared snapshot into its cache. It fails only for a
// prepared state applied already (a bug), and then changes nothing.
func (p *pendingRestore) apply() error {
	c, rs := p.c, p.rs
	if err := c.mesh.ApplyState(p.mesh); err != nil {
		return fmt.Errorf("tilecache: Restore: %w", err)
	}
	c.nextObstacle, c.nextVolume = rs.nextObstacle, rs.nextVolume
	c.obstacles, c.volumes = rs.obstacles, rs.volumes
	c.links, c.nextLink = rs.links, rs.nextLink
	for _, ti := range c.queue {
		c.queued[ti] = false
	}
	c.queue = rs.queue
	for _, ti := range c.queue {
		c.queued[ti] = true
	}
	for _, ti := range c.order {
		t := c.tiles[ti]
		t.hasLast, t.lastIsFirst, t.last, t.lastLayers = false, false, nil, nil
	}
	return nil
}
