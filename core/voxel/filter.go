package voxel

import "fmt"

// Direction offsets: direction d in 0..3 moves (DirOffsetX[d], DirOffsetZ[d])
// columns: −x, +z, +x, −z.
var (
	DirOffsetX = [4]int{-1, 0, 1, 0}
	DirOffsetZ = [4]int{0, 1, 0, -1}
)

// ceilingOf returns the ceiling row of the gap above span n: the next span's
// MinRow, or SkyRow at the top of the column.
func (h *Heightfield) ceilingOf(n int32) int {
	if nx := h.pool[n].next; nx >= 0 {
		return int(h.pool[nx].MinRow)
	}
	return SkyRow
}

// FilterLowHangingWalkableObstacles makes a non-walkable span walkable when
// the span directly below it in its column was walkable before this filter
// and its top is at most climbCells rows above that span's top; it takes the
// lower span's area id (Recast's rcFilterLowHangingWalkableObstacles). Each
// span looks at the original walkability of the span below, so a stack of
// unwalkable spans is not lifted step by step.
func (h *Heightfield) FilterLowHangingWalkableObstacles(climbCells int) error {
	if h == nil {
		return errNilHeightfield
	}
	if climbCells < 0 {
		return fmt.Errorf("voxel: climbCells %d, want >= 0", climbCells)
	}
	for _, head := range h.heads {
		prevWalkable := false
		prevArea := AreaNull
		prevTop := 0
		for n := head; n >= 0; n = h.pool[n].next {
			s := &h.pool[n]
			walkable := s.Area != AreaNull
			if !walkable && prevWalkable && int(s.MaxRow)-prevTop <= climbCells {
				s.Area = prevArea
			}
			prevWalkable = walkable
			prevArea = s.Area
			prevTop = int(s.MaxRow)
		}
	}
	h.walkable = -1
	return nil
}

// FilterLedgeSpans makes walkable spans next to a ledge unwalkable (Recast's
// rcFilterLedgeSpans). For a walkable span with floor f = MaxRow and ceiling
// c (ceilingOf), and each direction in order −x, +z, +x, −z:
//
//   - a neighbour column outside the grid makes the span a ledge;
//   - the gap below the neighbour column's first span (floor -infinity,
//     ceiling its MinRow, or SkyRow for an empty column) makes it a ledge
//     when min(c, that ceiling) - f >= heightCells;
//   - every neighbour span with floor nf and ceiling nc whose gap overlaps
//     ours by min(c, nc) - max(f, nf) >= heightCells counts: the lowest
//     nf - f over them is a drop, and those with |nf - f| <= climbCells
//     widen the range [lowest, highest] of reachable floors, which starts
//     at [f, f].
//
// The span becomes AreaNull when some counted drop is below -climbCells, or
// when highest - lowest > climbCells (a too steep slope). Only rows are read,
// never areas, so the order of the scan does not matter.
func (h *Heightfield) FilterLedgeSpans(heightCells, climbCells int) error {
	if h == nil {
		return errNilHeightfield
	}
	if heightCells < 1 {
		return fmt.Errorf("voxel: heightCells %d, want >= 1", heightCells)
	}
	if climbCells < 0 {
		return fmt.Errorf("voxel: climbCells %d, want >= 0", climbCells)
	}
	w, ht := h.Width, h.Height
	heads, pool := h.heads, h.pool
	off := [4]int{-1, w, 1, -w} // column index step of each direction
	for z := 0; z < ht; z++ {
		for x := 0; x < w; x++ {
			ci := x + z*w
			// A column on the grid's edge has a neighbour outside it: every
			// walkable span of it is a ledge.
			edge := x == 0 || z == 0 || x == w-1 || z == ht-1
			var next [4]int32
			if !edge {
				next = h.neighbourHeads(ci, &off)
			}
			for n := heads[ci]; n >= 0; n = pool[n].next {
				s := &pool[n]
				if s.Area == AreaNull {
					continue
				}
				if edge || h.isLedge(ci, &off, &next, int(s.MaxRow), h.ceilingOf(n), heightCells, climbCells) {
					s.Area = AreaNull
				}
			}
		}
	}
	h.walkable = -1
	return nil
}

// noLoneFloor marks, in loneFloors' result, a column that does not hold
// exactly one span (no MaxRow is this high).
const noLoneFloor = 0xffff

// loneFloors returns, for every column of h, the MaxRow of its span when
// it holds exactly one, else noLoneFloor (in h's scratch memory).
func (h *Heightfield) loneFloors() []uint16 {
	floors := resized(h.lone, len(h.heads))
	for ci, m := range h.heads {
		f := uint16(noLoneFloor)
		if m >= 0 && h.pool[m].next < 0 {
			f = h.pool[m].MaxRow
		}
		floors[ci] = f
	}
	h.lone = floors
	return floors
}

// sameFloors reports whether the columns with heads a and b hold as many
// spans with the same tops (MaxRow), bottom up.
func (h *Heightfield) sameFloors(a, b int32) bool {
	pool := h.pool
	for a >= 0 && b >= 0 {
		if pool[a].MaxRow != pool[b].MaxRow {
			return false
		}
		a, b = pool[a].next, pool[b].next
	}
	return a == b // both -1
}

// Bits of FilterSpans' scratch h.same: column ci holds the same floors as
// column ci+1 (sameX) or ci+Width (sameZ).
const (
	sameX = 1 << iota
	sameZ
)

// flatAround reports whether the four neighbour columns of column ci (in
// the grid; lone is loneFloors') each hold one span, with the given floor:
// then a span there with that floor and at least the walkable height above
// it is no ledge (isLedge: no drop below a neighbour, whose first span
// starts below the floor; every neighbour counts, at the same floor).
func flatAround(lone []uint16, ci, w int, floor uint16) bool {
	return lone[ci-1] == floor && lone[ci+1] == floor && lone[ci-w] == floor && lone[ci+w] == floor
}

// neighbourHeads returns the first spans of the four neighbour columns
// ci+off[d] (isLedge's starting state for column ci).
func (h *Heightfield) neighbourHeads(ci int, off *[4]int) [4]int32 {
	var next [4]int32
	for d := range 4 {
		next[d] = h.heads[ci+off[d]]
	}
	return next
}

// isLedge reports whether the span with the given floor and ceiling in
// column ci, whose four neighbour columns ci+off[d] are in the grid, is a
// ledge (FilterLedgeSpans' rule). next[d] is the first span of neighbour
// column d still worth reading: the caller sets it to the column's head
// and asks for the spans of column ci bottom up. A neighbour span whose gap
// ends below floor+heightCells fails the overlap test for this span and
// every higher one, so next[d] moves past it; the scan stops at the first
// neighbour floor above ceiling-heightCells (it and all above fail too).
// Each neighbour span is so read about once per span of ci whose gap it
// overlaps, not once per span of ci: the cost is linear in the spans.
func (h *Heightfield) isLedge(ci int, off *[4]int, next *[4]int32, floor, ceiling, heightCells, climbCells int) bool {
	heads, pool := h.heads, h.pool
	lowest, highest := floor, floor
	for d := range 4 {
		m := heads[ci+off[d]]
		nceil := SkyRow
		if m >= 0 {
			nceil = int(pool[m].MinRow)
		}
		if min(ceiling, nceil)-floor >= heightCells {
			return true // a drop to the open space below the neighbour column
		}
		// Skip the spans whose gap ends too low for this floor.
		m = next[d]
		for m >= 0 {
			nx := pool[m].next
			if nx >= 0 && int(pool[nx].MinRow)-floor < heightCells {
				m = nx
				continue
			}
			break
		}
		next[d] = m
		for m >= 0 {
			nn := &pool[m]
			nfloor := int(nn.MaxRow)
			if ceiling-nfloor < heightCells {
				break // this floor and every higher one fail the overlap test
			}
			m = nn.next
			nceil = SkyRow
			if m >= 0 {
				nceil = int(pool[m].MinRow)
			}
			if min(ceiling, nceil)-max(floor, nfloor) < heightCells {
				continue
			}
			diff := nfloor - floor
			if diff < -climbCells {
				return true
			}
			if diff <= climbCells {
				lowest = min(lowest, nfloor)
				highest = max(highest, nfloor)
			}
		}
	}
	return highest-lowest > climbCells
}

// FilterWalkableLowHeightSpans makes a span AreaNull when the gap above it,
// ceilingOf - MaxRow, is below heightCells rows (Recast's
// rcFilterWalkableLowHeightSpans).
func (h *Heightfield) FilterWalkableLowHeightSpans(heightCells int) error {
	if h == nil {
		return errNilHeightfield
	}
	if heightCells < 1 {
		return fmt.Errorf("voxel: heightCells %d, want >= 1", heightCells)
	}
	for _, head := range h.heads {
		for n := head; n >= 0; n = h.pool[n].next {
			if h.ceilingOf(n)-int(h.pool[n].MaxRow) < heightCells {
				h.pool[n].Area = AreaNull
			}
		}
	}
	h.walkable = -1
	return nil
}

// FilterSpans runs the three filters of step 2 in Recast's order,
// FilterLowHangingWalkableObstacles(climbCells), FilterLedgeSpans(heightCells,
// climbCells) and FilterWalkableLowHeightSpans(heightCells), in one pass over
// the columns, with their result: a span's area after the first filter
// depends only on the spans below it in its column, and the other two read
// rows only (and the span's own area), so each span can take all three in
// turn, the cheap height test before the ledge test.
func (h *Heightfield) FilterSpans(heightCells, climbCells int) error {
	if h == nil {
		return errNilHeightfield
	}
	if heightCells < 1 {
		return fmt.Errorf("voxel: heightCells %d, want >= 1", heightCells)
	}
	if climbCells < 0 {
		return fmt.Errorf("voxel: climbCells %d, want >= 0", climbCells)
	}
	w, ht := h.Width, h.Height
	heads, pool := h.heads, h.pool
	off := [4]int{-1, w, 1, -w} // column index step of each direction
	lone := h.loneFloors()
	same := resized(h.same, len(heads))
	h.same = same
	nwalk := 0 // spans left walkable
	for z := 0; z < ht; z++ {
		for x := 0; x < w; x++ {
			ci := x + z*w
			edge := x == 0 || z == 0 || x == w-1 || z == ht-1
			// A column holding the same floors as its four neighbours has
			// no ledge (isLedge): for each of its gaps, the neighbour's gap
			// on the same floor is the only one that can overlap it (the
			// one below ends at or under the floor), and its first span
			// starts at or under the floor (no drop below it); the
			// bottoms of the spans do not matter.
			same[ci] = 0
			if heads[ci] >= 0 && x+1 < w && h.sameFloors(heads[ci], heads[ci+1]) {
				same[ci] |= sameX
			}
			if heads[ci] >= 0 && z+1 < ht && h.sameFloors(heads[ci], heads[ci+w]) {
				same[ci] |= sameZ
			}
			flat := !edge && same[ci] == sameX|sameZ && same[ci-1]&sameX != 0 && same[ci-w]&sameZ != 0
			// The first filter's state: the span below before it (walkable)
			// and after it (area), and its top.
			prevWalkable, prevArea, prevTop := false, AreaNull, 0
			var next [4]int32 // isLedge's state
			if !edge && !flat {
				next = h.neighbourHeads(ci, &off)
			}
			for n := heads[ci]; n >= 0; n = pool[n].next {
				s := &pool[n]
				area := s.Area
				walkable := area != AreaNull
				if !walkable && prevWalkable && int(s.MaxRow)-prevTop <= climbCells {
					area = prevArea
				}
				prevWalkable, prevArea, prevTop = walkable, area, int(s.MaxRow)
				if area != AreaNull {
					ceiling := h.ceilingOf(n)
					if ceiling-int(s.MaxRow) < heightCells || edge ||
						!flat && !flatAround(lone, ci, w, s.MaxRow) && h.isLedge(ci, &off, &next, int(s.MaxRow), ceiling, heightCells, climbCells) {
						area = AreaNull
					}
				}
				s.Area = area
				nwalk += b2i(area != AreaNull)
			}
		}
	}
	h.walkable = nwalk
	return nil
}
