package voxel

import "fmt"

// MaxErodeRadiusCells is the largest erosion radius (distances are stored in
// a byte, scaled by 2 and capped at 255).
const MaxErodeRadiusCells = 127

// ErosionDistances computes, for every span, its chamfer distance to the
// boundary of the walkable area, scaled by 2 (Recast's rcErodeWalkableArea
// before the threshold), into dst (grown as needed) and returns it:
//
//   - a span with area 0, or with a direction that is not linked or linked to
//     a span of area 0, has distance 0; every other span starts at 255;
//   - pass 1, columns z = 0..Height-1, x = 0..Width-1, spans bottom up: the
//     span takes min(own, a+2) over its −x neighbour a and min(own, b+3) over
//     that neighbour's −z neighbour b, then the same with its −z neighbour
//     and that neighbour's +x neighbour;
//   - pass 2, columns z = Height-1..0, x = Width-1..0, spans bottom up: the
//     same with +x then its +z neighbour, and +z then its −x neighbour.
//
// Sums are capped at 255. Only links are followed, so the distance runs
// through the walkable graph.
func (c *CompactHeightfield) ErosionDistances(dst []uint8) []uint8 {
	if c == nil {
		return dst[:0]
	}
	return c.erosionDistances(c.SpanGraph(nil), dst)
}

// erosionDistances is ErosionDistances with c's span graph. The spans are
// in column order, so pass 1 is ascending span order and pass 2 descending
// (spans of one column never read each other: the order within a column
// does not matter). Pass 1 reads only spans before the one it lowers (its
// −x and −z neighbours and their −z and +x ones lie in earlier columns), so
// each span's start value is set in the same loop, just before its own
// pass-1 updates.
func (c *CompactHeightfield) erosionDistances(graph []int32, dst []uint8) []uint8 {
	n := len(c.Spans)
	if cap(dst) < n {
		dst = make([]uint8, n)
	}
	dist := dst[:n]
	areas := c.Areas[:n]
	graph = graph[:4*n]
	// lower returns v lowered through neighbour a (a span index) and the
	// diagonal b reached from a in direction d2 (when linked): min(v,
	// dist[a]+2, dist[b]+3).
	lower := func(v int, a int32, d2 int) int {
		v = min(v, int(dist[a])+2)
		if b := graph[4*int(a)+d2]; b >= 0 {
			v = min(v, int(dist[b])+3)
		}
		return v
	}
	// A span at 0 cannot go lower: its updates are skipped. Any other span
	// is linked in all four directions (else it would start at 0).
	for i := range n {
		g := (*[4]int32)(graph[4*i : 4*i+4])
		if areas[i] == AreaNull || g[0] < 0 || g[1] < 0 || g[2] < 0 || g[3] < 0 ||
			areas[g[0]] == AreaNull || areas[g[1]] == AreaNull || areas[g[2]] == AreaNull || areas[g[3]] == AreaNull {
			dist[i] = 0
			continue
		}
		v := lower(0xff, g[0], 3) // (-1,0) then (-1,-1)
		v = lower(v, g[3], 2)     // (0,-1) then (1,-1)
		dist[i] = uint8(v)
	}
	for i := n - 1; i >= 0; i-- {
		if v := int(dist[i]); v != 0 {
			g := (*[4]int32)(graph[4*i : 4*i+4])
			v = lower(v, g[2], 1) // (1,0) then (1,1)
			v = lower(v, g[1], 0) // (0,1) then (-1,1)
			dist[i] = uint8(v)
		}
	}
	return dist
}

// ErodeWalkableArea sets to AreaNull every span whose ErosionDistances value
// is below 2*radiusCells (Recast's rcErodeWalkableArea). radiusCells 0 changes
// nothing. buf is scratch for the distances (may be nil); the possibly grown
// buffer is returned for reuse. On error c is unchanged.
func (c *CompactHeightfield) ErodeWalkableArea(radiusCells int, buf []uint8) ([]uint8, error) {
	if c == nil {
		return buf, fmt.Errorf("voxel: ErodeWalkableArea of a nil compact heightfield")
	}
	return c.erode(radiusCells, nil, buf)
}

// ErodeWalkableAreaGraph is ErodeWalkableArea given c's span graph
// (SpanGraph, or BuildCompactHeightfieldGraph's): the graph must have four
// entries per span, each -1 or a span index; one that is not c's gives
// wrong distances (which may then depend on buf's contents), never a panic.
func (c *CompactHeightfield) ErodeWalkableAreaGraph(radiusCells int, graph []int32, buf []uint8) ([]uint8, error) {
	if c == nil {
		return buf, fmt.Errorf("voxel: ErodeWalkableAreaGraph of a nil compact heightfield")
	}
	n := len(c.Spans)
	if len(graph) != 4*n {
		return buf, fmt.Errorf("voxel: span graph of %d entries for %d spans, want %d", len(graph), n, 4*n)
	}
	// The largest graph entry plus one, without a branch per entry.
	hi := uint32(0)
	for _, g := range graph {
		hi = max(hi, uint32(g+1))
	}
	if hi > uint32(n) {
		return buf, fmt.Errorf("voxel: span graph links to span %d of %d", int32(hi-1), n)
	}
	return c.erode(radiusCells, graph, buf)
}

// erode is ErodeWalkableArea with c's span graph (nil: made here).
func (c *CompactHeightfield) erode(radiusCells int, graph []int32, buf []uint8) ([]uint8, error) {
	if radiusCells < 0 || radiusCells > MaxErodeRadiusCells {
		return buf, fmt.Errorf("voxel: erosion radiusCells %d out of range 0..%d", radiusCells, MaxErodeRadiusCells)
	}
	if len(c.Areas) != len(c.Spans) {
		return buf, fmt.Errorf("voxel: compact heightfield has %d areas for %d spans", len(c.Areas), len(c.Spans))
	}
	if radiusCells == 0 {
		return buf, nil
	}
	if graph == nil {
		graph = c.SpanGraph(nil)
	}
	dist := c.erosionDistances(graph, buf)
	thr := uint8(radiusCells * 2)
	for i, d := range dist {
		if d < thr {
			c.Areas[i] = AreaNull
		}
	}
	return dist, nil
}
