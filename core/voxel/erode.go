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
	n := len(c.Spans)
	if cap(dst) < n {
		dst = make([]uint8, n)
	}
	dist := dst[:n]
	w := c.Width
	cells, spans, areas := c.Cells, c.Spans[:n], c.Areas[:n]
	// off[d] is the column index step of direction d.
	off := [4]int{-1, w, 1, -w}
	for ci, cell := range cells {
		for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
			if areas[i] == AreaNull {
				dist[i] = 0
				continue
			}
			v := uint8(0xff)
			con := spans[i].Con
			for d := range 4 {
				l := con >> (8 * uint(d)) & 0xff
				if l == NotConnected || areas[int(cells[ci+off[d]].Index)+int(l)] == AreaNull {
					v = 0
					break
				}
			}
			dist[i] = v
		}
	}
	// relax lowers dist[i] (span i of column ci) through its neighbour in
	// direction d and the diagonal reached from there in direction d2.
	relax := func(ci, i, d, d2 int) {
		l := spans[i].Con >> (8 * uint(d)) & 0xff
		if l == NotConnected {
			return
		}
		ca := ci + off[d]
		a := int(cells[ca].Index) + int(l)
		v := int(dist[i])
		if u := int(dist[a]) + 2; u < v {
			v = u
		}
		if l2 := spans[a].Con >> (8 * uint(d2)) & 0xff; l2 != NotConnected {
			b := int(cells[ca+off[d2]].Index) + int(l2)
			if u := int(dist[b]) + 3; u < v {
				v = u
			}
		}
		dist[i] = uint8(v)
	}
	for ci, cell := range cells {
		for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
			relax(ci, i, 0, 3) // (-1,0) then (-1,-1)
			relax(ci, i, 3, 2) // (0,-1) then (1,-1)
		}
	}
	for ci := len(cells) - 1; ci >= 0; ci-- {
		cell := cells[ci]
		for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
			relax(ci, i, 2, 1) // (1,0) then (1,1)
			relax(ci, i, 1, 0) // (0,1) then (-1,1)
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
	if radiusCells < 0 || radiusCells > MaxErodeRadiusCells {
		return buf, fmt.Errorf("voxel: erosion radiusCells %d out of range 0..%d", radiusCells, MaxErodeRadiusCells)
	}
	if radiusCells == 0 {
		return buf, nil
	}
	dist := c.ErosionDistances(buf)
	thr := uint8(radiusCells * 2)
	for i, d := range dist {
		if d < thr {
			c.Areas[i] = AreaNull
		}
	}
	return dist, nil
}
