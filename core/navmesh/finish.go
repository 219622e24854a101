package navmesh

import "fmt"

// FinishTile completes a tile made from another format's records (a Detour
// tile read by core/navmesh/detour): it sets t's derived fields — the
// vertical origin and bounds (Header.OriginY, BMin, BMax, docs/format.md
// §2.1) and the BV tree (§2.6, built as BuildTile builds it) — and returns
// t's tile data. The records (header values, vertices, polygons, detail
// meshes, off-mesh links) are checked as DecodeTile checks them first, so a
// bad record is an error naming it, never a panic; t is changed only when
// the result is returned.
func FinishTile(t *Tile) ([]byte, error) {
	if t == nil {
		return nil, fmt.Errorf("navmesh: FinishTile of a nil Tile")
	}
	np := len(t.Polys)
	if np < 1 || np > MaxTilePolys {
		return nil, fmt.Errorf("navmesh: FinishTile: %d polygons, want 1..%d", np, MaxTilePolys)
	}
	c := *t
	c.BVTree = make([]BVNode, 2*np-1) // the count checkRecords wants
	if _, err := c.checkRecords(); err != nil {
		return nil, fmt.Errorf("navmesh: FinishTile: %w", err)
	}
	lowest, box := c.vertBounds()
	c.Header.OriginY = lowest
	c.Header.BMin, c.Header.BMax = box.Min, box.Max
	var bv bvScratch
	c.BVTree = bv.build(&c, c.BVTree[:0])
	data, err := c.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("navmesh: FinishTile: %w", err)
	}
	*t = c
	return data, nil
}
