package pipeline

import (
	"sync"

	"navviz/core/voxel"
)

// The span bounds of a build, counted before anything is built
// (docs/build.md §5.1). A triangle adds at most one span to each column it
// covers (voxel.TriangleFootprint: the rasterizer's own cuts into rows, one
// cut per row), so the columns covered, summed over the triangles and over
// the build grids holding each column (a column in a border ring belongs
// to two or four build grids), bound the solid spans the build makes: one
// per column for a floor, a hundred per column for a tower of a hundred
// floors. The same sum over the triangles walkable by slope bounds the
// open spans it keeps. A voxel source's spans are counted as they are.
//
// The count takes time linear in the triangles and the rows they cover
// and no memory; a Source remembers its counts (a few, keyed by the grid),
// so a panel asking for the estimate every frame counts once.

// spanKey identifies the grid a span bound was counted on: the cell size,
// the tiling (tile side, border) or solo, and the slope deciding which
// triangles are walkable.
type spanKey struct {
	cellSizeM, slopeDeg float32
	tile, border        int
	solo                bool
}

// spanBounds bound the spans of a build: Solid the solid spans of every
// build grid, Walkable those of walkable triangles (a voxel source: its
// spans with an area id).
type spanBounds struct {
	Solid, Walkable int64
}

// spanCount is a counted bound, complete or stopped early.
type spanCount struct {
	n        spanBounds
	complete bool
}

// spanCache holds a Source's span bounds. It is shared by the copies
// Named makes (same level).
type spanCache struct {
	mu sync.Mutex
	m  map[spanKey]spanCount
}

// maxSpanCacheEntries bounds a spanCache (settings edited one after
// another): when full it is emptied.
const maxSpanCacheEntries = 16

// spanCounter counts a span bound, stopping (complete false) as soon as
// stop says the counts so far are enough to refuse the build.
type spanCounter func(stop func(spanBounds) bool) (spanBounds, bool)

// spanBound runs count through src's cache under key.
func (src *Source) spanBound(key spanKey, count spanCounter, stop func(spanBounds) bool) (spanBounds, bool) {
	c := src.spans
	if c == nil {
		return count(stop)
	}
	c.mu.Lock()
	got, ok := c.m[key]
	c.mu.Unlock()
	if ok && (got.complete || stop(got.n)) {
		return got.n, got.complete
	}
	n, complete := count(stop)
	c.mu.Lock()
	if len(c.m) >= maxSpanCacheEntries {
		clear(c.m)
	}
	if c.m == nil {
		c.m = map[spanKey]spanCount{}
	}
	c.m[key] = spanCount{n, complete}
	c.mu.Unlock()
	return n, complete
}

// tiledSpans returns the span bounds of the build grids of tg under
// settings s.
func (src *Source) tiledSpans(s *NavSettings, tg *TileGrid, stop func(spanBounds) bool) (spanBounds, bool) {
	key := spanKey{cellSizeM: tg.CellSizeM, slopeDeg: s.AgentMaxSlopeDeg, tile: tg.TileSizeCells, border: tg.BorderCells}
	t, b := tg.TileSizeCells, tg.BorderCells
	count := func(stop func(spanBounds) bool) (spanBounds, bool) {
		if h := src.voxels; h != nil {
			return voxelSpans(h, func(x, z int) int64 {
				return gridsHolding(x, x, t, b, tg.TilesX) * gridsHolding(z, z, t, b, tg.TilesZ)
			}, stop)
		}
		cells := voxel.CellRows{OriginX: tg.BoundsM.Min.X, OriginZ: tg.BoundsM.Min.Z, CellSizeM: tg.CellSizeM,
			Width: tg.TilesX * t, Height: tg.TilesZ * t}
		return src.soupSpans(s, cells, func(z, x0, x1 int) int64 {
			return gridsHolding(x0, x1, t, b, tg.TilesX) * gridsHolding(z, z, t, b, tg.TilesZ)
		}, stop)
	}
	return src.spanBound(key, count, stop)
}

// soloSpans returns the span bounds of the solo grid g under settings s.
func (src *Source) soloSpans(s *NavSettings, g *voxel.Grid, stop func(spanBounds) bool) (spanBounds, bool) {
	key := spanKey{cellSizeM: g.CellSizeM, slopeDeg: s.AgentMaxSlopeDeg, solo: true}
	count := func(stop func(spanBounds) bool) (spanBounds, bool) {
		if h := src.voxels; h != nil {
			return voxelSpans(h, func(x, z int) int64 { return 1 }, stop)
		}
		cells := voxel.CellRows{OriginX: g.OriginM.X, OriginZ: g.OriginM.Z, CellSizeM: g.CellSizeM, Width: g.Width, Height: g.Height}
		return src.soupSpans(s, cells, func(z, x0, x1 int) int64 { return int64(x1 - x0 + 1) }, stop)
	}
	return src.spanBound(key, count, stop)
}

// soupSpans sums weight(z, x0, x1) over the rows of every triangle's
// footprint on cells (Walkable: of the triangles walkable by slope under
// s), checking stop after each triangle but the last.
func (src *Source) soupSpans(s *NavSettings, cells voxel.CellRows, weight func(z, x0, x1 int) int64, stop func(spanBounds) bool) (spanBounds, bool) {
	soup := src.soup
	var n spanBounds
	if soup == nil { // a zero Source: nothing to count (its build fails)
		return n, true
	}
	slopeCos := voxel.WalkableSlopeCos(s.AgentMaxSlopeDeg)
	var tri int64
	row := func(z, x0, x1 int) { tri = satAdd(tri, weight(z, x0, x1)) }
	for i, t := range soup.Tris {
		v0, v1, v2 := soup.Verts[t[0]], soup.Verts[t[1]], soup.Verts[t[2]]
		tri = 0
		voxel.TriangleFootprint(cells, v0, v1, v2, row)
		n.Solid = satAdd(n.Solid, tri)
		if voxel.TriangleArea(v0, v1, v2, soup.Areas[i], slopeCos) != voxel.AreaNull {
			n.Walkable = satAdd(n.Walkable, tri)
		}
		if i+1 < len(soup.Tris) && stop(n) {
			return n, false
		}
	}
	return n, true
}

// voxelSpans sums the spans of every column of h times weight(x, z)
// (Walkable: the spans with an area id), checking stop after each row but the last.
func voxelSpans(h *voxel.Heightfield, weight func(x, z int) int64, stop func(spanBounds) bool) (spanBounds, bool) {
	var n spanBounds
	var col []voxel.Span
	for z := 0; z < h.Height; z++ {
		for x := 0; x < h.Width; x++ {
			col = h.AppendColumn(col[:0], x, z)
			if len(col) == 0 {
				continue
			}
			w := weight(x, z)
			walkable := 0
			for _, sp := range col {
				if sp.Area != voxel.AreaNull {
					walkable++
				}
			}
			n.Solid = satAdd(n.Solid, satMul(int64(len(col)), w))
			n.Walkable = satAdd(n.Walkable, satMul(int64(walkable), w))
		}
		if z+1 < h.Height && stop(n) {
			return n, false
		}
	}
	return n, true
}

// gridsHolding returns how many build grids of a row of tiles hold each
// of the level cells lo..hi along one axis, summed over the cells: tile k
// of tiles (side t, border b) holds cells [k*t - b, (k+1)*t + b).
func gridsHolding(lo, hi, t, b, tiles int) int64 {
	return gridsBefore(hi+1, t, b, tiles) - gridsBefore(lo, t, b, tiles)
}

// gridsBefore is gridsHolding of the cells below x: the sum over tiles k
// of the cells of k's build grid below x, min(max(x - (k*t - b), 0),
// t + 2b), in O(1 + b/t) steps.
func gridsBefore(x, t, b, tiles int) int64 {
	side := t + 2*b
	// Tiles 0..full-1 lie wholly below x: k*t - b + side <= x.
	full := min(max(floorDiv(x-t-b, t)+1, 0), tiles)
	n := int64(full) * int64(side)
	for k := full; k < tiles; k++ {
		v := x - (k*t - b)
		if v <= 0 {
			break
		}
		n += int64(v)
	}
	return n
}

// floorDiv returns floor(a / b) for b > 0.
func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
