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
	w, ht := c.Width, c.Height
	for z := 0; z < ht; z++ {
		for x := 0; x < w; x++ {
			cell := c.Cells[x+z*w]
			for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
				if c.Areas[i] == AreaNull {
					dist[i] = 0
					continue
				}
				dist[i] = 0xff
				for d := 0; d < 4; d++ {
					j := c.Neighbour(x, z, i, d)
					if j < 0 || c.Areas[j] == AreaNull {
						dist[i] = 0
						break
					}
				}
			}
		}
	}
	// relax lowers dist[i] through the neighbour of span i (column x, z) in
	// direction d and the diagonal reached from there in direction d2.
	relax := func(x, z, i, d, d2 int) {
		a := c.Neighbour(x, z, i, d)
		if a < 0 {
			return
		}
		if v := min(int(dist[a])+2, 0xff); v < int(dist[i]) {
			dist[i] = uint8(v)
		}
		ax, az := x+DirOffsetX[d], z+DirOffsetZ[d]
		b := c.Neighbour(ax, az, a, d2)
		if b < 0 {
			return
		}
		if v := min(int(dist[b])+3, 0xff); v < int(dist[i]) {
			dist[i] = uint8(v)
		}
	}
	for z := 0; z < ht; z++ {
		for x := 0; x < w; x++ {
			cell := c.Cells[x+z*w]
			for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
				relax(x, z, i, 0, 3) // (-1,0) then (-1,-1)
				relax(x, z, i, 3, 2) // (0,-1) then (1,-1)
			}
		}
	}
	for z := ht - 1; z >= 0; z-- {
		for x := w - 1; x >= 0; x-- {
			cell := c.Cells[x+z*w]
			for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
				relax(x, z, i, 2, 1) // (1,0) then (1,1)
				relax(x, z, i, 1, 0) // (0,1) then (-1,1)
			}
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
