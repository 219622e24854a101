package region

import (
	"fmt"
	"slices"

	"navviz/core/voxel"
)

// regionInfo is one entry of the region table of mergeAndFilter (Recast's
// rcRegion). Entry k starts as region id k.
type regionInfo struct {
	spanCount int32    // spans now in the region (0 once merged away or dropped)
	id        uint32   // the id the region's spans will take; 0 dropped
	area      uint8    // area of the region's first span with a solid edge
	hadSpans  bool     // the region held a span before merging
	visited   bool     // island removal: reached
	overlap   bool     // two spans of the region share a column
	conn      []uint32 // neighbour ids around the outline, in walk order (0: no region)
	floors    []uint32 // other regions sharing a column with the region (sorted set)
}

// noNeighbour marks a monotone run linked to several regions below it.
const noNeighbour = ^uint32(0)

// mergeAndFilter is Recast's mergeAndFilterRegions on the internal per-span
// ids reg (len(c.Spans)): ids 1..nreg-1 are regions, ids with internalBorder
// are border regions (never changed), 0 is no region. It
//
//  1. builds the region table: span counts, the regions sharing a column
//     with each region (floors; a region twice in a column overlaps), and
//     for each region the neighbour ids met walking its outline from its
//     first span (compact-heightfield order) that has an edge to another id;
//  2. drops every group of regions connected through their outlines whose
//     spans total fewer than minArea, unless the group touches a border id;
//  3. repeatedly merges a region with at most mergeArea spans, or one not
//     touching a non-walkable edge, into its smallest mergeable neighbour;
//  4. numbers the surviving regions 1.. in the order of their lowest table
//     entry and rewrites reg with the new ids.
//
// nb is c's span graph (spanLinks). docs/regions.md §5 gives every rule.
// It returns the number of regions (the ids are 1..count) and the number of
// table entries that overlap. Every non-border id in reg must be below nreg.
// The layer partition may call it on its own ids (same conventions).
func mergeAndFilter(c *voxel.CompactHeightfield, nb []int32, reg []uint32, nreg int, minArea, mergeArea int, s *scratch) (count, overlaps int) {
	regions := s.regionTable(nreg)

	// Step 1: the region table, spans in heightfield order.
	for _, cell := range c.Cells {
		lo, hi := int(cell.Index), int(cell.Index+cell.Count)
		for i := lo; i < hi; i++ {
			r := reg[i]
			if r == 0 || r >= uint32(nreg) {
				continue
			}
			rg := &regions[r]
			rg.spanCount++
			rg.hadSpans = true
			if len(rg.conn) > 0 {
				continue
			}
			rg.area = c.Areas[i]
			for d := 0; d < 4; d++ {
				if solidEdge(nb, reg, i, d) {
					rg.conn = walkOutline(nb, reg, i, d, rg.conn)
					break
				}
			}
		}
	}
	s.tableFloors(c, reg, regions)

	// Step 2: drop small islands.
	stack, trace := s.ints[:0], s.trace[:0]
	for k := range regions {
		rg := &regions[k]
		if rg.id == 0 || rg.id&internalBorder != 0 || rg.spanCount == 0 || rg.visited {
			continue
		}
		touchesBorder := false
		total := 0
		stack, trace = stack[:0], trace[:0]
		rg.visited = true
		stack = append(stack, uint32(k))
		for len(stack) > 0 {
			ri := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			cr := &regions[ri]
			total += int(cr.spanCount)
			trace = append(trace, ri)
			for _, n := range cr.conn {
				if n&internalBorder != 0 {
					touchesBorder = true
					continue
				}
				nr := &regions[n]
				if nr.visited || nr.id == 0 || nr.id&internalBorder != 0 {
					continue
				}
				stack = append(stack, nr.id)
				nr.visited = true
			}
		}
		if total < minArea && !touchesBorder {
			for _, ri := range trace {
				regions[ri].spanCount = 0
				regions[ri].id = 0
			}
		}
	}

	s.ints, s.trace = stack, trace

	// Step 3: merge small regions into neighbours.
	for {
		merged := 0
		for k := range regions {
			rg := &regions[k]
			if rg.id == 0 || rg.id&internalBorder != 0 || rg.overlap || rg.spanCount == 0 {
				continue
			}
			if int(rg.spanCount) > mergeArea && hasNoRegionNeighbour(rg) {
				continue
			}
			smallest := int32(0xfffffff)
			target := rg.id
			for _, n := range rg.conn {
				if n&internalBorder != 0 {
					continue
				}
				mr := &regions[n]
				if mr.id == 0 || mr.id&internalBorder != 0 || mr.overlap {
					continue
				}
				if mr.spanCount < smallest && canMerge(rg, mr) && canMerge(mr, rg) {
					smallest = mr.spanCount
					target = mr.id
				}
			}
			if target == rg.id {
				continue
			}
			old := rg.id
			var ok bool
			if s.ints, ok = mergeInto(&regions[target], rg, s.ints); !ok {
				continue
			}
			for j := range regions {
				o := &regions[j]
				if o.id == 0 || o.id&internalBorder != 0 {
					continue
				}
				if o.id == old {
					o.id = target
				}
				replaceNeighbour(o, old, target)
			}
			merged++
		}
		if merged == 0 {
			break
		}
	}

	// Step 4: compact the ids. Unlike Recast, table entries that never held
	// a span (the ids consumed by the border strips, the unused last entry)
	// get no id. A group's new id is given at its lowest entry (newOf maps
	// the group's surviving id to it).
	newOf := zeroed(s.trace, len(regions))
	next := uint32(0)
	for k := range regions {
		rg := &regions[k]
		if !rg.hadSpans || rg.id == 0 || rg.id&internalBorder != 0 {
			continue
		}
		if newOf[rg.id] == 0 {
			next++
			newOf[rg.id] = next
		}
		rg.id = newOf[rg.id]
	}
	s.trace = newOf
	for i, r := range reg {
		if r&internalBorder == 0 {
			reg[i] = regions[r].id
		}
	}
	for k := range regions {
		if regions[k].overlap {
			overlaps++
		}
	}
	return int(next), overlaps
}

// tableFloors fills the floors and overlap flags of the region table
// (len(regions) = nreg) from the columns of c (columnFloors). The floors a
// column adds depend only on its ids, so a column holding the same ids as
// the last one that added floors is skipped.
func (s *scratch) tableFloors(c *voxel.CompactHeightfield, reg []uint32, regions []regionInfo) {
	nreg := uint32(len(regions))
	col, last := s.col[:0], s.lastCol[:0]
	for _, cell := range c.Cells {
		col = col[:0]
		for _, r := range reg[cell.Index : cell.Index+cell.Count] {
			if r != 0 && r < nreg {
				col = append(col, r)
			}
		}
		if len(col) > 1 && !slices.Equal(col, last) {
			s.sorted = columnFloors(regions, col, s.sorted)
			last = append(last[:0], col...)
		}
	}
	s.col, s.lastCol = col, last
}

// regionTable returns s's region table reset to n entries with entry k
// holding id k, reusing the entries' slices.
func (s *scratch) regionTable(n int) []regionInfo {
	if cap(s.regions) < n {
		t := make([]regionInfo, n, n+n/4)
		copy(t, s.regions[:cap(s.regions)])
		s.regions = t
	}
	s.regions = s.regions[:n]
	for k := range s.regions {
		rg := &s.regions[k]
		*rg = regionInfo{id: uint32(k), conn: rg.conn[:0], floors: rg.floors[:0]}
	}
	return s.regions
}

// solidEdge reports whether span i of column (x, z) has in direction d a
// neighbour of another id (an unlinked direction has id 0).
func solidEdge(nb []int32, reg []uint32, i, d int) bool {
	r := uint32(0)
	if j := nb[4*i+d]; j >= 0 {
		r = reg[j]
	}
	return r != reg[i]
}

// walkOutline walks the outline of span i's id, starting at its edge in
// direction d (which must be a solid edge), keeping the wall on the left:
// at a solid edge it records the neighbour id when it differs from the last
// one and turns clockwise (d+1); otherwise it steps to the linked neighbour
// and turns counter-clockwise (d+3). It stops back at the start edge, and
// after len(nb)+4 steps (more than any closed walk, which meets each span
// edge at most once; Recast stops at 40000), then removes cyclically
// repeated ids. The ids are appended to dst. nb is the span graph.
func walkOutline(nb []int32, reg []uint32, i, d int, dst []uint32) []uint32 {
	start, startDir := i, d
	cur := uint32(0)
	if j := nb[4*i+d]; j >= 0 {
		cur = reg[j]
	}
	base := len(dst)
	dst = append(dst, cur)
	for steps := len(nb) + 4; steps > 0; steps-- {
		j := int(nb[4*i+d])
		r := uint32(0)
		if j >= 0 {
			r = reg[j]
		}
		if r != reg[i] {
			if r != cur {
				cur = r
				dst = append(dst, cur)
			}
			d = (d + 1) & 3
		} else {
			i = j
			d = (d + 3) & 3
		}
		if i == start && d == startDir {
			break
		}
	}
	return append(dst[:base], dedupeCyclic(dst[base:])...)
}

// dedupeCyclic removes, in place, each element equal to its cyclic successor
// (the last compares with the first) while more than one element remains,
// scanning from the front and re-testing a position after a removal
// (Recast's removeAdjacentNeighbours), and returns the shortened slice.
func dedupeCyclic(l []uint32) []uint32 {
	for i := 0; i < len(l) && len(l) > 1; {
		ni := (i + 1) % len(l)
		if l[i] == l[ni] {
			copy(l[i:], l[i+1:])
			l = l[:len(l)-1]
		} else {
			i++
		}
	}
	return l
}

// hasNoRegionNeighbour reports whether the outline of rg meets id 0 (a
// non-walkable edge or a dropped region; Recast's isRegionConnectedToBorder).
func hasNoRegionNeighbour(rg *regionInfo) bool {
	for _, n := range rg.conn {
		if n == 0 {
			return true
		}
	}
	return false
}

// canMerge reports whether a may take b: same area, b at most once on a's
// outline, and b not sharing a column with a.
func canMerge(a, b *regionInfo) bool {
	if a.area != b.area {
		return false
	}
	n := 0
	for _, c := range a.conn {
		if c == b.id {
			n++
		}
	}
	if n > 1 {
		return false
	}
	return !hasFloor(a.floors, b.id)
}

// mergeInto merges region b into a (Recast's mergeRegions): a's outline
// becomes a's ids after b (cyclically, b excluded) followed by b's ids after
// a (a excluded), cyclic repeats removed; b's floors are added to a's, b's
// spans counted in a, b emptied. It returns false (and changes nothing) when
// a does not border b or b does not border a. tmp is scratch, returned grown.
func mergeInto(a, b *regionInfo, tmp []uint32) ([]uint32, bool) {
	insA, insB := -1, -1
	for k, c := range a.conn {
		if c == b.id {
			insA = k
			break
		}
	}
	for k, c := range b.conn {
		if c == a.id {
			insB = k
			break
		}
	}
	if insA < 0 || insB < 0 {
		return tmp, false
	}
	acon := append(tmp[:0], a.conn...)
	a.conn = a.conn[:0]
	for k := 1; k < len(acon); k++ {
		a.conn = append(a.conn, acon[(insA+k)%len(acon)])
	}
	for k := 1; k < len(b.conn); k++ {
		a.conn = append(a.conn, b.conn[(insB+k)%len(b.conn)])
	}
	a.conn = dedupeCyclic(a.conn)
	a.floors, acon = joinFloors(a.floors, b.floors, acon)
	a.spanCount += b.spanCount
	b.spanCount = 0
	b.conn = b.conn[:0]
	return acon, true
}

// replaceNeighbour renames old to new in rg's outline and floors, removing
// cyclic repeats from the outline if it changed.
func replaceNeighbour(rg *regionInfo, old, new uint32) {
	changed := false
	for k, c := range rg.conn {
		if c == old {
			rg.conn[k] = new
			changed = true
		}
	}
	rg.floors = renameFloor(rg.floors, old, new)
	if changed {
		rg.conn = dedupeCyclic(rg.conn)
	}
}

// finishIDs converts the internal ids to a Result: border ids keep their
// number with BorderFlag, others are copied. count is the number of regions
// (ids 1..count); more than MaxRegions is an error.
func finishIDs(fn string, reg []uint32, count int) (*Result, error) {
	if count > MaxRegions {
		return nil, fmt.Errorf("region: %s made %d regions, more than %d", fn, count, MaxRegions)
	}
	ids := make([]uint16, len(reg))
	for i, r := range reg {
		if r&internalBorder != 0 {
			ids[i] = uint16(r&^internalBorder) | BorderFlag
		} else {
			ids[i] = uint16(r)
		}
	}
	return &Result{IDs: ids, Count: count + 1}, nil
}
