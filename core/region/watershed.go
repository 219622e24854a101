package region

import "navviz/core/voxel"

// Watershed partitions the walkable spans of c into regions by flooding its
// distance field from the highest level down (Recast's rcBuildDistanceField
// followed by rcBuildRegions), then drops and merges small regions:
//
//   - borderCells (0 <= borderCells, 2*borderCells below the grid's width
//     and height) is the width of the border ring, in columns, whose walkable
//     spans become the four border regions (see BorderFlag);
//   - minAreaCells is the smallest region kept, in spans: a group of
//     regions connected to each other with fewer spans in all is dropped
//     unless it touches the border ring;
//   - mergeAreaCells: a region of at most this many spans, or one whose
//     outline meets no non-walkable edge, is merged into its smallest
//     neighbour when allowed.
//
// A span is walkable when its area is not voxel.AreaNull; regions never mix
// areas. The result's IDs are new memory; MaxDistance is the distance
// field's maximum (see DistanceField). docs/regions.md gives every rule, so
// that a second implementation gets the same ids. c is not changed. Invalid
// arguments are reported with an error naming the value.
func Watershed(c *voxel.CompactHeightfield, borderCells, minAreaCells, mergeAreaCells int) (*Result, error) {
	s := getScratch()
	defer putScratch(s)
	var err error
	if s.nb, err = checkArgs("Watershed", c, s.nb, borderCells, minAreaCells, mergeAreaCells); err != nil {
		return nil, err
	}
	n := len(c.Spans)
	s.tmp = grow(s.tmp, n)
	s.dist = grow(s.dist, n)
	maxDist := distanceField(c, s.nb, s.tmp, s.dist)
	s.reg = zeroed(s.reg, n)
	s.srcDist = zeroed(s.srcDist, n)

	next := uint32(1)
	if borderCells > 0 {
		next = paintBorder(c, borderCells, s.reg, next)
	}
	ws := watershed{areas: c.Areas[:n], nb: s.nb[:4*n], dist: s.dist[:n], reg: s.reg[:n], srcDist: s.srcDist[:n], s: s}

	// Flood two distance levels at a time, from the top. Every eighth level
	// sorts the unassigned spans into eight stacks (one per coming level);
	// the other levels carry the previous stack's leftovers over.
	const expandIters = 8
	level := (int(maxDist) + 1) &^ 1
	sid := -1
	for level > 0 {
		level = max(level-2, 0)
		sid = (sid + 1) & 7
		if sid == 0 {
			ws.sortByLevel(level)
		} else {
			ws.carryOver(sid)
		}
		s.stacks[sid] = ws.expand(expandIters, level, s.stacks[sid], false)
		for _, i := range s.stacks[sid] {
			if i >= 0 && ws.reg[i] == 0 && ws.flood(i, level, next) {
				next++
			}
		}
	}
	// Grow the regions over every span left.
	s.stack = ws.expand(expandIters*8, 0, s.stack, true)

	count, _ := mergeAndFilter(c, s.nb, s.reg, int(next)+1, minAreaCells, mergeAreaCells, s)
	res, err := finishIDs("Watershed", s.reg, count)
	if err != nil {
		return nil, err
	}
	res.MaxDistance = maxDist
	return res, nil
}

// watershed holds the state of one Watershed call. Stacks hold span
// indices; -1 marks a used entry.
type watershed struct {
	areas   []uint8
	nb      []int32  // span graph
	dist    []uint16 // blurred distance field
	reg     []uint32 // region per span
	srcDist []uint16 // expansion distance from the region's flooded core
	s       *scratch
}

// sortByLevel puts every walkable, unassigned span into one of the eight
// stacks: stack (level>>1) - (dist>>1), clamped below at 0; spans that would
// go beyond stack 7 are left out. Spans are visited in heightfield order.
func (ws *watershed) sortByLevel(level int) {
	stacks := &ws.s.stacks
	for k := range stacks {
		stacks[k] = stacks[k][:0]
	}
	top := level >> 1
	for i, a := range ws.areas {
		if a == voxel.AreaNull || ws.reg[i] != 0 {
			continue
		}
		k := top - int(ws.dist[i]>>1)
		if k >= len(stacks) {
			continue
		}
		k = max(k, 0)
		stacks[k] = append(stacks[k], int32(i))
	}
}

// carryOver appends to stack sid the entries of stack sid-1 that are unused
// and still unassigned, in order.
func (ws *watershed) carryOver(sid int) {
	dst := ws.s.stacks[sid]
	for _, i := range ws.s.stacks[sid-1] {
		if i >= 0 && ws.reg[i] == 0 {
			dst = append(dst, i)
		}
	}
	ws.s.stacks[sid] = dst
}

// expand grows the existing (non-border) regions over the spans of stack in
// rounds: in a round, each unused entry whose span has a linked neighbour of
// its own area in a non-border region takes the region of the neighbour with
// the smallest srcDist (first in direction order on ties) and srcDist+2; the
// round's assignments are applied together at its end and their entries
// marked used. Rounds stop when one assigns nothing, or after maxIter rounds
// when level > 0. With fill, the stack is first refilled with every
// walkable, unassigned span with dist >= level; otherwise entries already
// assigned are marked used. It returns the stack without its used entries
// (order kept).
func (ws *watershed) expand(maxIter, level int, stack []int32, fill bool) []int32 {
	if fill {
		stack = stack[:0]
		for i, a := range ws.areas {
			if int(ws.dist[i]) >= level && ws.reg[i] == 0 && a != voxel.AreaNull {
				stack = append(stack, int32(i))
			}
		}
	} else {
		for j, i := range stack {
			if i >= 0 && ws.reg[i] != 0 {
				stack[j] = -1
			}
		}
	}
	// Used entries are dropped from the stack as the rounds go (an entry
	// once used is skipped by every later reader, so this changes nothing);
	// a round that assigns nothing ends the expansion.
	dirty := ws.s.dirty[:0]
	for iter := 0; len(stack) > 0; {
		dirty = dirty[:0]
		keep := 0
		for _, i := range stack {
			if i < 0 {
				continue
			}
			r := ws.reg[i]
			best := 0xffff
			area := ws.areas[i]
			for _, a := range ws.nb[4*i : 4*i+4] {
				if a < 0 || ws.areas[a] != area {
					continue
				}
				if ra := ws.reg[a]; ra != 0 && ra&internalBorder == 0 {
					if v := int(ws.srcDist[a]) + 2; v < best {
						r = ra
						best = v
					}
				}
			}
			if r != 0 {
				dirty = append(dirty, dirtyEntry{i: i, reg: r, dist: uint16(min(best, 0xffff))})
			} else {
				stack[keep] = i
				keep++
			}
		}
		stack = stack[:keep]
		for _, d := range dirty {
			ws.reg[d.i] = d.reg
			ws.srcDist[d.i] = d.dist
		}
		if len(dirty) == 0 {
			break
		}
		if level > 0 {
			iter++
			if iter >= maxIter {
				break
			}
		}
	}
	ws.s.dirty = dirty
	return stack
}

// flood starts region r at span start and floods it depth first (last
// pushed, first visited) over linked spans of start's area that are
// unassigned and have dist >= level-2 (0 at level < 2). A visited span that
// has, among its four linked neighbours of its area (border regions
// ignored) or the diagonal reached from each of them by turning clockwise
// (area checked, border not ignored), a span of another region is given back
// (unassigned) and not expanded. It reports whether any span kept r.
func (ws *watershed) flood(start int32, level int, r uint32) bool {
	area := ws.areas[start]
	stack := append(ws.s.stack[:0], start)
	ws.reg[start] = r
	ws.srcDist[start] = 0
	lev := max(level-2, 0)
	count := 0
	for len(stack) > 0 {
		ci := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		links := ws.nb[4*ci : 4*ci+4]

		other := false
		for d, a := range links {
			if a < 0 || ws.areas[a] != area {
				continue
			}
			nr := ws.reg[a]
			if nr&internalBorder != 0 {
				continue
			}
			if nr != 0 && nr != r {
				other = true
				break
			}
			b := ws.nb[4*a+int32((d+1)&3)]
			if b < 0 || ws.areas[b] != area {
				continue
			}
			if nr2 := ws.reg[b]; nr2 != 0 && nr2 != r {
				other = true
				break
			}
		}
		if other {
			ws.reg[ci] = 0
			continue
		}
		count++
		for _, a := range links {
			if a < 0 || ws.areas[a] != area {
				continue
			}
			if int(ws.dist[a]) >= lev && ws.reg[a] == 0 {
				ws.reg[a] = r
				ws.srcDist[a] = 0
				stack = append(stack, a)
			}
		}
	}
	ws.s.stack = stack
	return count > 0
}
