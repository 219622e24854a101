package navmesh

import "slices"

// Clone returns a copy of m that a reader on another goroutine may query
// while m goes on changing: the slots, the position index and each tile's
// run-time state (polygon flags, areas and links) are copied; the tile
// data and decoded tiles, which no Mesh method changes, are shared. Refs
// of m are valid in the copy. A nil m gives nil.
func (m *Mesh) Clone() *Mesh {
	if m == nil {
		return nil
	}
	c := &Mesh{slots: make([]slot, len(m.slots)), free: slices.Clone(m.free), count: m.count, offMeshCount: m.offMeshCount}
	if m.cols != nil {
		c.cols = make(map[[2]int32][]uint32, len(m.cols))
		for k, v := range m.cols { // each entry copied: the order does not matter
			c.cols[k] = slices.Clone(v)
		}
	}
	for i, s := range m.slots {
		c.slots[i].gen = s.gen
		if s.tile != nil {
			c.slots[i].tile = s.tile.clone()
		}
	}
	return c
}

// clone returns a copy of mt's run-time state sharing its data and
// decoded tile; the links of every polygon are copied into one array.
func (mt *meshTile) clone() *meshTile {
	n := 0
	for _, l := range mt.links {
		n += len(l)
	}
	backing := make([]Link, 0, n)
	links := make([][]Link, len(mt.links))
	for i, l := range mt.links {
		start := len(backing)
		backing = append(backing, l...)
		links[i] = backing[start:len(backing):len(backing)]
	}
	if mt.mem != nil {
		// The copy holds the tile for good: a copy is let go without a
		// word, so memory it ever shared is never recycled.
		mt.mem.holders.Add(1)
	}
	return &meshTile{data: mt.data, id: mt.id, t: mt.t, portals: mt.portals, flags: slices.Clone(mt.flags), areas: slices.Clone(mt.areas), links: links, backing: backing}
}
