package region

import "navviz/core/voxel"

// Column offsets of the four directions (−x, +z, +x, −z), as voxel.DirOffsetX
// and voxel.DirOffsetZ.
var (
	dirX = [4]int{-1, 0, 1, 0}
	dirZ = [4]int{0, 1, 0, -1}
)

// DistanceField returns the distance field of c that Watershed floods
// (Recast's rcBuildDistanceField), in half cells, and the largest distance
// before the blur (Recast's chf.maxDistance):
//
//  1. a span whose four directions are not all linked to spans of its own
//     area gets 0 (area AreaNull counts as an area here, as in Recast), every
//     other span 0xffff;
//  2. a forward pass over columns z = 0..Height-1, x = 0..Width-1, spans
//     bottom up, lowers each span to the value of its −x neighbour a plus 2
//     and of a's −z neighbour plus 3, then of its −z neighbour b plus 2 and of
//     b's +x neighbour plus 3 (sums in int, kept when strictly smaller);
//  3. a backward pass over z = Height-1..0, x = Width-1..0, spans bottom up,
//     does the same with +x and then that neighbour's +z, and with +z and
//     then that neighbour's −x;
//  4. maxDist is the largest value after step 3;
//  5. a box blur: a span with value v <= 2 keeps it; otherwise its new value
//     is (v + Σ_d t_d + 5) / 9 (integer division) where, for each direction
//     d, t_d is the linked neighbour's value plus the value of that
//     neighbour's neighbour in direction (d+1)&3 (or v when that diagonal is
//     not linked), or 2v when direction d is not linked. The blur reads the
//     unblurred values only.
//
// Only links are followed and areas other than in step 1 are ignored, so
// non-walkable spans get distances too. The returned slice (one value per
// span, same index as c.Spans) is new memory. The error names what is wrong
// with an invalid c.
func DistanceField(c *voxel.CompactHeightfield) (dist []uint16, maxDist uint16, err error) {
	s := getScratch()
	defer putScratch(s)
	if s.nb, err = spanLinks(c, s.nb); err != nil {
		return nil, 0, err
	}
	dist = make([]uint16, len(c.Spans))
	s.tmp = grow(s.tmp, len(c.Spans))
	maxDist = distanceField(c, s.nb, s.tmp, dist)
	return dist, maxDist, nil
}

// distanceField computes the unblurred chamfer distances into raw and their
// blur into out (both len(c.Spans)) and returns the largest unblurred value.
// nb is c's span graph (spanLinks). Span order is column order, so plain
// index loops visit columns z-major, x, then bottom up.
func distanceField(c *voxel.CompactHeightfield, nb []int32, raw, out []uint16) uint16 {
	n := len(c.Spans)
	areas := c.Areas[:n]
	raw, out = raw[:n], out[:n]
	nb = nb[:4*n]

	// Step 1: boundary spans.
	for i := range n {
		l := nb[4*i : 4*i+4 : 4*i+4]
		a := areas[i]
		if l[0] >= 0 && l[1] >= 0 && l[2] >= 0 && l[3] >= 0 &&
			areas[l[0]] == a && areas[l[1]] == a && areas[l[2]] == a && areas[l[3]] == a {
			raw[i] = 0xffff
		} else {
			raw[i] = 0
		}
	}

	// relax lowers raw[i] through its neighbour in direction d (+2) and that
	// neighbour's neighbour in direction d2 (+3).
	relax := func(i, d, d2 int) {
		a := nb[4*i+d]
		if a < 0 {
			return
		}
		v := int(raw[i])
		if u := int(raw[a]) + 2; u < v {
			v = u
		}
		if b := nb[4*int(a)+d2]; b >= 0 {
			if u := int(raw[b]) + 3; u < v {
				v = u
			}
		}
		raw[i] = uint16(v)
	}
	// Steps 2 and 3.
	for i := 0; i < n; i++ {
		relax(i, 0, 3)
		relax(i, 3, 2)
	}
	// Backward over columns, but bottom up within each column.
	cells := c.Cells
	for ci := len(cells) - 1; ci >= 0; ci-- {
		cell := cells[ci]
		for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
			relax(i, 2, 1)
			relax(i, 1, 0)
		}
	}

	// Step 4.
	maxDist := uint16(0)
	for _, v := range raw {
		maxDist = max(maxDist, v)
	}

	// Step 5: blur with threshold 2 (Recast's boxBlur with thr 1, doubled).
	const thr = 2
	for i := range n {
		cd := int(raw[i])
		if cd <= thr {
			out[i] = uint16(cd)
			continue
		}
		sum := cd
		for d := 0; d < 4; d++ {
			a := nb[4*i+d]
			if a < 0 {
				sum += 2 * cd
				continue
			}
			sum += int(raw[a])
			if b := nb[4*int(a)+((d+1)&3)]; b >= 0 {
				sum += int(raw[b])
			} else {
				sum += cd
			}
		}
		out[i] = uint16((sum + 5) / 9)
	}
	return maxDist
}
