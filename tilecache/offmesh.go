package tilecache

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"navviz/core/geom"
	"navviz/core/navmesh"
)

// OffMeshLinkID identifies an off-mesh link of a Cache (1, 2, ...); it is
// the UserID of the link in the tiles.
type OffMeshLinkID uint32

// An off-mesh link belongs to the level, not to a tile build: the cache
// keeps the set (c.links, by ascending id, each with UserID its id), its
// tile builds are made without links, and every swap puts into each layer's
// tile the links that start in it (swap, navmesh.BuiltTile.WithOffMesh),
// so a link survives every rebuild.

// AddOffMeshLink adds off-mesh link l (validated: navmesh.OffMeshLink.
// Validate, and its start inside the level's tiles) and queues the tile
// its start lies in when that tile is cached. A link whose start lies in
// a tile with nothing walkable (not cached, no tile in the mesh) is kept
// all the same, unconnected: no tile holds it, as in the plain build,
// and a snapshot keeps it (docs/tilecache.md §4a). It returns the link's
// id: the next link id, which then grows by one; l.UserID is replaced by
// it. An invalid link is an error naming the bad value and changes
// nothing.
func (c *Cache) AddOffMeshLink(l navmesh.OffMeshLink) (OffMeshLinkID, error) {
	if err := c.check(); err != nil {
		return 0, err
	}
	ti, err := c.linkTile(l, "AddOffMeshLink")
	if err != nil {
		return 0, err
	}
	if c.nextLink == 0 {
		return 0, fmt.Errorf("tilecache: AddOffMeshLink: all %d off-mesh link ids are used", uint64(maxID))
	}
	id := c.nextLink
	l.UserID = uint32(id)
	c.links = append(c.links, l)
	c.nextLink++ // wraps to 0 after maxID: no id left
	c.enqueue(ti)
	return id, nil
}

// MoveOffMeshLink replaces the link with id by l (validated as by
// AddOffMeshLink), keeping its id, and queues the tiles of its old and
// new start (those that are cached, as AddOffMeshLink). An unknown id or
// an invalid link is an error and changes nothing.
func (c *Cache) MoveOffMeshLink(id OffMeshLinkID, l navmesh.OffMeshLink) error {
	if err := c.check(); err != nil {
		return err
	}
	i, err := c.linkIndex(id, "MoveOffMeshLink")
	if err != nil {
		return err
	}
	ti, err := c.linkTile(l, "MoveOffMeshLink")
	if err != nil {
		return err
	}
	old, _ := c.linkTile(c.links[i], "MoveOffMeshLink")
	l.UserID = uint32(id)
	c.links[i] = l
	c.enqueue(old)
	c.enqueue(ti)
	return nil
}

// RemoveOffMeshLink removes the link with id and queues the tile of its
// start when it is cached. An id that is not in force is an error and
// changes nothing.
func (c *Cache) RemoveOffMeshLink(id OffMeshLinkID) error {
	if err := c.check(); err != nil {
		return err
	}
	i, err := c.linkIndex(id, "RemoveOffMeshLink")
	if err != nil {
		return err
	}
	ti, _ := c.linkTile(c.links[i], "RemoveOffMeshLink")
	c.links = slices.Delete(c.links, i, i+1)
	c.enqueue(ti)
	return nil
}

// TilesForOffMeshLink returns the cached tile AddOffMeshLink(l) would
// queue, without queueing it: the tile l's start lies in, none when that
// tile is not cached. l is validated as AddOffMeshLink validates it (an
// invalid link is the same error).
func (c *Cache) TilesForOffMeshLink(l navmesh.OffMeshLink) ([][2]int, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	ti, err := c.linkTile(l, "TilesForOffMeshLink")
	if err != nil {
		return nil, err
	}
	if t := c.tiles[ti]; t != nil {
		return [][2]int{{t.tx, t.tz}}, nil
	}
	return nil, nil
}

// OffMeshLinks returns the off-mesh links in force by ascending id (each
// link's UserID is its id).
func (c *Cache) OffMeshLinks() []navmesh.OffMeshLink {
	if c == nil {
		return nil
	}
	return slices.Clone(c.links)
}

// NextOffMeshLinkID returns the id the next AddOffMeshLink hands out (0
// when every id is used).
func (c *Cache) NextOffMeshLinkID() OffMeshLinkID {
	if c == nil {
		return 0
	}
	return c.nextLink
}

// linkIndex returns the index in c.links of the link with id.
func (c *Cache) linkIndex(id OffMeshLinkID, fn string) (int, error) {
	i, ok := slices.BinarySearchFunc(c.links, uint32(id), func(l navmesh.OffMeshLink, id uint32) int {
		return int(int64(l.UserID) - int64(id))
	})
	if !ok {
		return 0, fmt.Errorf("tilecache: %s: no off-mesh link with id %d", fn, id)
	}
	return i, nil
}

// linkTile validates l and returns the index of the tile its start lies
// in (cached or not: enqueue skips a tile that is not); a start outside
// the level's tiles is an error.
func (c *Cache) linkTile(l navmesh.OffMeshLink, fn string) (int32, error) {
	if err := l.Validate(); err != nil {
		return 0, fmt.Errorf("tilecache: %s: %w", fn, err)
	}
	tx, tz, err := c.grid.TileAt(l.StartM)
	if err != nil {
		return 0, fmt.Errorf("tilecache: %s: off-mesh link start: %w", fn, err)
	}
	return int32(tz*c.grid.TilesX + tx), nil
}

// withLinks returns layers with the off-mesh links that start in tile t's
// column put into each layer's tile (navmesh.BuiltTile.WithOffMesh):
// layers itself when that changes nothing, else a copy.
func (c *Cache) withLinks(t *tile, layers []layerData) ([]layerData, error) {
	links := c.grid.OffMeshLinksIn(c.links, t.tx, t.tz)
	out := layers
	for i := range layers {
		b, err := layers[i].built.WithOffMesh(links)
		if err != nil {
			return nil, err
		}
		if b == layers[i].built {
			continue
		}
		if &out[0] == &layers[0] {
			out = slices.Clone(layers)
		}
		out[i] = layerDataOf(int(layers[i].layer), b)
	}
	return out, nil
}

// relinkHeld swaps the tiles the mesh holds at t's position (a queued
// tile whose areas did not change) for themselves with the off-mesh links
// in force, and reports the swaps that changed a tile in u. Nothing is
// done while neither the cache nor the mesh has a link.
func (c *Cache) relinkHeld(t *tile, u *TileUpdate) error {
	if len(c.links) == 0 && c.mesh.OffMeshCount() == 0 {
		return nil
	}
	held, err := c.heldLayers(t)
	if err != nil {
		return err
	}
	swaps, err := c.swap(t, held, nil)
	if slices.ContainsFunc(swaps, func(s Swap) bool { return s.Kind != SwapKept }) {
		u.Swaps = swaps
	}
	return err
}

// heldLayers returns the tiles the mesh holds at t's position as layers,
// for a swap that only puts the off-mesh links in force into them.
func (c *Cache) heldLayers(t *tile) ([]layerData, error) {
	var out []layerData
	for _, ref := range c.mesh.TilesAt(int32(t.tx), int32(t.tz)) {
		b, err := c.mesh.Built(ref)
		if err != nil {
			return nil, err
		}
		tl, err := c.mesh.Tile(ref)
		if err != nil {
			return nil, err
		}
		out = append(out, layerDataOf(int(tl.Header.Layer), b))
	}
	return out, nil
}

// appendLink appends link l to a snapshot (docs/snapshot.md §2): u32 id
// (its UserID), f32 start x, y, z, end x, y, z, radius, u16 flags, u8
// area, u8 direction (1 both ways, 0 one way).
func appendLink(b []byte, l *navmesh.OffMeshLink) []byte {
	le := binary.LittleEndian
	b = le.AppendUint32(b, l.UserID)
	for _, f := range []float32{l.StartM.X, l.StartM.Y, l.StartM.Z, l.EndM.X, l.EndM.Y, l.EndM.Z, l.RadiusM} {
		b = le.AppendUint32(b, math.Float32bits(f))
	}
	b = le.AppendUint16(b, l.Flags)
	dir := uint8(0)
	if l.Bidirectional {
		dir = 1
	}
	return append(b, l.Area, dir)
}

// decodeLinks reads the link section of a version-2 snapshot into rs:
// the next link id and the links, ids ascending and below the next id,
// each valid with its start inside the level's tiles. A version-2
// snapshot of a cache that never had a link is an error (it is written as
// version 1).
func (c *Cache) decodeLinks(r *snapReader, rs *restored, below func(id, next uint32) bool) error {
	off := r.off
	rs.nextLink = OffMeshLinkID(r.u32("next off-mesh link id"))
	n := r.count("off-mesh link count", offMeshEntrySize)
	if r.err == nil && n == 0 && rs.nextLink == 1 {
		return fmt.Errorf("tilecache: Restore: version-%d snapshot without off-mesh links at offset %d (it is written as version %d)", SnapshotVersion, off, SnapshotVersionNoLinks)
	}
	for i := 0; i < n && r.err == nil; i++ {
		off := r.off
		var l navmesh.OffMeshLink
		l.UserID = r.u32("off-mesh link id")
		var f [7]float32
		for j := range f {
			f[j] = r.f32("off-mesh link number")
		}
		l.StartM = geom.Vec3{X: f[0], Y: f[1], Z: f[2]}
		l.EndM = geom.Vec3{X: f[3], Y: f[4], Z: f[5]}
		l.RadiusM = f[6]
		l.Flags = r.u16("off-mesh link flags")
		l.Area = r.u8("off-mesh link area")
		dir := r.u8("off-mesh link direction")
		if r.err != nil {
			break
		}
		if dir > 1 {
			return fmt.Errorf("tilecache: Restore: off-mesh link %d at offset %d has direction %d, want 0 (one way) or 1 (both ways)", i, off, dir)
		}
		l.Bidirectional = dir == 1
		if !below(l.UserID, uint32(rs.nextLink)) {
			return fmt.Errorf("tilecache: Restore: off-mesh link %d at offset %d has id %d, want 1..%d (below the next id)", i, off, l.UserID, uint32(rs.nextLink)-1)
		}
		if i > 0 && l.UserID <= rs.links[i-1].UserID {
			return fmt.Errorf("tilecache: Restore: off-mesh link %d at offset %d has id %d, not above the previous id %d", i, off, l.UserID, rs.links[i-1].UserID)
		}
		if _, err := c.linkTile(l, "Restore"); err != nil {
			return fmt.Errorf("tilecache: Restore: off-mesh link %d (id %d) at offset %d: %w", i, l.UserID, off, err)
		}
		rs.links = append(rs.links, l)
	}
	return nil
}
