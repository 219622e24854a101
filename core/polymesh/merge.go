package polymesh

import "slices"

// Merging a contour's (or a hole's) triangles into convex polygons of at
// most nvp vertices (docs/polys.md, "Merging").

// mergeValue returns the squared length of the edge pa and pb share when
// they can merge into one convex polygon of at most nvp vertices, else -1;
// ea and eb are the shared edge's slots in pa and pb (-1: not adjacent)
// (Recast's getPolyMergeValue, with convexity required in cells and in the
// stored float32 positions). single reports that they share one edge,
// which each has once: the value is then the same for (pb, pa), with ea
// and eb swapped.
func (b *builder) mergeValue(pa, pb []uint16) (val, ea, eb int, single bool) {
	var ka, kb polyEdges
	ka.set(pa)
	kb.set(pb)
	if ka.mask&kb.mask == 0 {
		return -1, -1, -1, false
	}
	na, nb := int(ka.n), int(kb.n)
	// The shared edge is the last i of pa (first j of pb within it) with
	// equal keys.
	ea, eb = -1, -1
	matches := 0
	for i, a := range ka.key[:na] {
		if keyBit(a)&kb.mask == 0 {
			continue
		}
		for j := nb - 1; j >= 0; j-- {
			if a == kb.key[j] {
				ea, eb = i, j
				matches++
			}
		}
	}
	if ea < 0 {
		return -1, -1, -1, false
	}
	return b.mergeValueAt(pa, pb, na, nb, ea, eb), ea, eb, matches == 1
}

// mergeValueAt is mergeValue for pa and pb of na and nb vertices sharing
// the edge at slots ea of pa and eb of pb.
func (b *builder) mergeValueAt(pa, pb []uint16, na, nb, ea, eb int) int {
	if na+nb-2 > b.nvp {
		return -1
	}
	vs := b.m.Verts
	corner := func(a, bv, c uint16) bool {
		return b.o.convex(int(vs[a][0]), int(vs[a][2]), int(vs[bv][0]), int(vs[bv][2]), int(vs[c][0]), int(vs[c][2]))
	}
	// Slots around the shared edge (next and prev: no division).
	if !corner(pa[prev(ea, na)], pa[ea], pb[next(next(eb, nb), nb)]) ||
		!corner(pb[prev(eb, nb)], pb[eb], pa[next(next(ea, na), na)]) {
		return -1
	}
	v0, v1 := vs[pa[ea]], vs[pa[next(ea, na)]]
	dx := int(v0[0]) - int(v1[0])
	dz := int(v0[2]) - int(v1[2])
	return dx*dx + dz*dz
}

// polyEdges are the edges of a polygon as keys (vertPairKey), with its vertex
// count and a mask of one bit per key (keyBit), so that two polygons
// without a common bit share no edge.
type polyEdges struct {
	key  [MaxVertsPerPoly]uint32
	mask uint64
	n    int8
}

// keyBit is the bit of mask that edge key k sets.
func keyBit(k uint32) uint64 { return 1 << ((k * 0x9e3779b1) >> 26) }

// set sets e to the edges of polygon p (nvp slots): edge i runs from
// vertex i to the next.
func (e *polyEdges) set(p []uint16) {
	n := countPolyVerts(p)
	e.n, e.mask = int8(n), 0
	for i := range n {
		e.key[i] = vertPairKey(p[i], p[next(i, n)])
		e.mask |= keyBit(e.key[i])
	}
}

// vertPairKey packs the edge between vertices a and b, smaller first.
func vertPairKey(a, b uint16) uint32 {
	return uint32(min(a, b))<<16 | uint32(max(a, b))
}

// mergePolys merges the np polygons packed in polys (nvp slots each) while
// some pair can merge: each round takes the pair with the largest merge
// value (the first pair found on ties, pairs in order j < k), writes the
// merged polygon over the first and moves the last polygon into the
// second's place. move, when not nil, is told of both steps so the caller
// can keep per-polygon data in step: move(a, b, true) after b was merged
// into a, then move(b, last, false) after last moved to b. It returns the
// new count.
func (b *builder) mergePolys(polys []uint16, np int, move func(dst, src int, merged bool)) int {
	nvp := b.nvp
	if nvp <= 3 {
		return np
	}
	if cap(b.tmp) < nvp {
		b.tmp = make([]uint16, nvp)
	}
	tmp := b.tmp[:nvp]
	if b.plain {
		return b.mergePolysFullScan(polys, np, move, tmp)
	}
	// Only polygons sharing an edge can merge. The pairs that share one
	// are kept in one list with their merge values and shared edge slots
	// (pairKeys, pairSlots); a merge changes only the two polygons it
	// writes (the merged one, a, and the one moved into b's slot), so one
	// pass over the list per round finds the pairs of a, b and the moved
	// polygon, and the best of the others. The result equals evaluating
	// every pair in every round (TestMergeCacheMatchesFullScan).
	best := b.firstPairs(polys, np)
	for best >= 0 {
		r := mergeRound{last: np - 1}
		r.a, r.b = pairPolys(b.pairKeys[best])
		r.ea, r.eb = int(b.pairSlots[best].ea), int(b.pairSlots[best].eb)
		r.na, r.nb = int(b.pn[r.a]), int(b.pn[r.b])
		reversed := polys[r.a*nvp+r.ea] == polys[r.b*nvp+next(r.eb, r.nb)]
		np = b.mergePair(polys, np, r.a, r.b, r.ea, r.eb, move, tmp)
		if !reversed {
			// The shared edge runs the same way in both (overlapping
			// polygons): the merged polygon has edges neither had, so
			// the pairs are found again.
			best = b.firstPairs(polys, np)
			continue
		}
		b.pn[r.a], b.pn[r.b] = int8(r.na+r.nb-2), b.pn[r.last]
		best = b.updatePairs(polys, &r)
	}
	return np
}

// mergeRound is the merge of a round: polygon b (nb vertices, shared edge
// at slot eb) into a (na, ea), and the last polygon moved into b's slot.
type mergeRound struct {
	a, b, last     int
	ea, eb, na, nb int
}

// mergedSlot returns the slot in the merged polygon of edge s of a (fromB
// false) or of b, not the shared edge: mergePair writes a's vertices
// from ea+1 round to ea-1, then b's from eb+1 round to eb-1.
func (r *mergeRound) mergedSlot(s int, fromB bool) int {
	if fromB {
		s -= r.eb + 1
		if s < 0 {
			s += r.nb
		}
		return r.na - 1 + s
	}
	s -= r.ea + 1
	if s < 0 {
		s += r.na
	}
	return s
}

// firstPairs enters the pairs of polygons 0..np-1 that share an edge
// (addPair), sets their vertex counts (pn), and returns the index of the
// best pair (-1: none can merge). The edges meet in a hash table of edge
// keys (open addressing, at most half full); an edge meeting an earlier
// polygon's equal key pairs the two, and a pair met twice shares more
// than one edge.
func (b *builder) firstPairs(polys []uint16, np int) int {
	nvp := b.nvp
	b.pn = slices.Grow(b.pn[:0], np)[:np]
	edges := 0
	for k := range np {
		n := countPolyVerts(polys[k*nvp : (k+1)*nvp])
		b.pn[k] = int8(n)
		edges += n
	}
	shift := uint(32 - 6) // 64 slots at least, twice the edges
	for 1<<(32-shift) < 2*edges {
		shift--
	}
	table := slices.Grow(b.etable[:0], 1<<(32-shift))[:1<<(32-shift)]
	clear(table)
	found := b.found[:0]
	for k := range np {
		found = matchEdges(polys[k*nvp:k*nvp+int(b.pn[k])], k, table, shift, found)
	}
	b.etable = table[:0]
	b.pairKeys, b.pairSlots = b.pairKeys[:0], b.pairSlots[:0]
	best := -1
	for _, f := range found {
		_, best = b.addPair(polys, int(f.j), int(f.k), int(f.ea), int(f.eb), f.single, nil, best)
	}
	b.found = found[:0]
	return best
}

// matchEdges enters the edges of polygon k (its vertices p) in table (the
// hash table of firstPairs: entries key<<32 | 1<<31 | polygon<<3 | slot,
// 0 empty) and appends to found the pairs they make with earlier polygons
// (a pair already found for k is marked as sharing several edges).
func matchEdges(p []uint16, k int, table []uint64, shift uint, found []foundPair) []foundPair {
	seen := len(found)
	mask := uint32(len(table) - 1)
	for s := range p {
		key := vertPairKey(p[s], p[next(s, len(p))])
		h := (key * 0x9e3779b1) >> shift
		for ; table[h] != 0; h = (h + 1) & mask {
			e := table[h]
			if uint32(e>>32) != key {
				continue
			}
			j, js := uint16(e>>3), int8(e&7)
			if int(j) == k {
				continue
			}
			i := seen
			for i < len(found) && found[i].j != j {
				i++
			}
			if i < len(found) {
				found[i].single = false
			} else {
				found = append(found, foundPair{j, uint16(k), js, int8(s), true})
			}
		}
		table[h] = uint64(key)<<32 | 1<<31 | uint64(k)<<3 | uint64(s)
	}
	return found
}

// foundPair is a pair of polygons j < k sharing the edge at slots ea and
// eb, the only edge they share when single.
type foundPair struct {
	j, k   uint16
	ea, eb int8
	single bool
}

// updatePairs brings the pairs up to date after round r, and returns the
// index of the best pair (-1: none can merge). The pairs of a and b go;
// their partners are the merged polygon's candidate neighbours, evaluated
// again (its edges are theirs less the one merged, at the slots
// mergedSlot gives). The moved polygon's other pairs keep their value:
// the same two polygons in the same order give the same value, and so do
// both orders with one shared edge (slots swapped). A pair sharing
// several edges whose order flips is evaluated again (the first polygon's
// last shared edge is taken). The new pairs fill the places of those
// gone; places left over take the list's last pairs.
func (b *builder) updatePairs(polys []uint16, r *mergeRound) int {
	a, bi, last := r.a, r.b, r.last
	keys, slots := b.pairKeys, b.pairSlots
	t := &b.touched
	t[0xffff-a], t[0xffff-bi], t[0xffff-last] = true, true, true
	changed := slices.Grow(b.changed[:0], len(keys))[:len(keys)]
	nc, best := scanPairs(keys, changed, t)
	t[0xffff-a], t[0xffff-bi], t[0xffff-last] = false, false, false
	cands, flips := b.cands[:0], b.flips[:0]
	holes := changed[:0] // the places of the pairs gone (changed[:nc] read ahead)
	for _, i32 := range changed[:nc] {
		i := int(i32)
		j, k := pairPolys(keys[i])
		sl := slots[i]
		switch {
		case j == a && k == bi: // the pair merged
		case j == a || k == a || j == bi || k == bi:
			y, ys, s := k, sl.eb, int(sl.ea)
			if k == a || k == bi {
				y, ys, s = j, sl.ea, int(sl.eb)
			}
			c := mergeCand{uint16(y), ys, int8(r.mergedSlot(s, j == bi || k == bi)), sl.single}
			if n := slices.IndexFunc(cands, func(o mergeCand) bool { return o.y == c.y }); n >= 0 {
				cands[n].single = false // a neighbour of both
			} else {
				cands = append(cands, c)
			}
		case j < bi: // k is the moved polygon, the largest index
			keys[i] = rankKey(pairValue(keys[i]), j, bi)
			best = betterPair(keys, i, best)
			continue
		case sl.single:
			keys[i] = rankKey(pairValue(keys[i]), bi, j)
			slots[i].ea, slots[i].eb = sl.eb, sl.ea
			best = betterPair(keys, i, best)
			continue
		default:
			flips = append(flips, uint16(j))
		}
		holes = append(holes, i32)
	}
	for _, c := range cands {
		y := int(c.y)
		if y == last {
			y = bi
		}
		if y < a {
			holes, best = b.addPair(polys, y, a, int(c.ys), int(c.ns), c.single, holes, best)
		} else {
			holes, best = b.addPair(polys, a, y, int(c.ns), int(c.ys), c.single, holes, best)
		}
	}
	for _, y := range flips {
		holes, best = b.addPair(polys, bi, int(y), -1, -1, false, holes, best)
	}
	// Places left: the last pair moves in (from the largest place down, so
	// that the pair moved is never a place left).
	keys, slots = b.pairKeys, b.pairSlots
	for h := len(holes) - 1; h >= 0; h-- {
		i, end := holes[h], int32(len(keys)-1)
		keys[i], slots[i] = keys[end], slots[end]
		if best == int(end) {
			best = int(i)
		}
		keys, slots = keys[:end], slots[:end]
	}
	b.pairKeys, b.pairSlots = keys, slots
	b.cands, b.flips, b.changed = cands[:0], flips[:0], changed[:0]
	return best
}

// mergeCand is a candidate neighbour y of the merged polygon: the shared
// edge's slots in y and in the merged polygon, the only edge they share
// when single.
type mergeCand struct {
	y      uint16
	ys, ns int8
	single bool
}

// scanPairs lists in changed (room for all) the indices of the pairs with
// a polygon flagged in touched (by 0xffff-polygon, as in the keys) and
// returns their count and the index of the best of the others (-1: none
// can merge). Not inlined: alone, its loop keeps its values in registers
// (inlined into updatePairs, it spilled them in every turn).
//
//go:noinline
func scanPairs(keys []uint64, changed []int32, touched *[1 << 16]bool) (nc, best int) {
	best = -1
	bestKey := uint64(1)<<32 - 1 // below every pair that can merge
	for i, key := range keys {
		if touched[uint16(key>>16)] || touched[uint16(key)] {
			changed[nc] = int32(i)
			nc++
			continue
		}
		if key > bestKey {
			bestKey, best = key, i
		}
	}
	return nc, best
}

// betterPair returns i if pair i can merge and ranks above pair best
// (-1: none), else best.
func betterPair(keys []uint64, i, best int) int {
	bestKey := uint64(1)<<32 - 1
	if best >= 0 {
		bestKey = max(bestKey, keys[best])
	}
	if keys[i] > bestKey {
		return i
	}
	return best
}

// addPair enters the pair of polygons j < k, which share the edge at
// slots ea and eb and no other when single (else they are looked for),
// with its merge value, at the last of the places holes (appended when
// there is none), and returns the places left and the better of it and
// pair best (betterPair). A pair with more than nvp+2 vertices between
// them is left out: polygons only grow, so it can never merge, and the
// pairs of a merged polygon are found from those of its two parts.
func (b *builder) addPair(polys []uint16, j, k, ea, eb int, single bool, holes []int32, best int) ([]int32, int) {
	nvp := b.nvp
	nj, nk := int(b.pn[j]), int(b.pn[k])
	if nj+nk-2 > nvp {
		return holes, best
	}
	pj, pk := polys[j*nvp:(j+1)*nvp], polys[k*nvp:(k+1)*nvp]
	var v int
	if single {
		v = b.mergeValueAt(pj, pk, nj, nk, ea, eb)
	} else if v, ea, eb, single = b.mergeValue(pj, pk); ea < 0 {
		return holes, best
	}
	key, sl := rankKey(v, j, k), pairSlots{int8(ea), int8(eb), single}
	at := len(b.pairKeys)
	if n := len(holes); n > 0 {
		at, holes = int(holes[n-1]), holes[:n-1]
		b.pairKeys[at], b.pairSlots[at] = key, sl
	} else {
		b.pairKeys, b.pairSlots = append(b.pairKeys, key), append(b.pairSlots, sl)
	}
	return holes, betterPair(b.pairKeys, at, best)
}

// rankKey is the key of pair j < k in the pair list: its merge value in the
// high 32 bits (0 when it cannot merge), then 0xffff-j and 0xffff-k
// (polygon indices are below MaxVerts), so that among the pairs that can
// merge the largest key is the pair to merge first, ties to the smaller
// (j, k). No two pairs have the same (j, k).
func rankKey(val, j, k int) uint64 {
	v := uint64(uint32(val))
	if int32(val) <= 0 {
		v = 0
	}
	return v<<32 | uint64(0xffff-uint32(j))<<16 | uint64(0xffff-uint32(k))
}

// pairPolys returns the polygons j < k of a pair's key.
func pairPolys(key uint64) (j, k int) {
	return 0xffff - int(key>>16&0xffff), 0xffff - int(key&0xffff)
}

// pairValue returns the merge value a pair's key holds (0: cannot merge).
func pairValue(key uint64) int { return int(key >> 32) }

// pairSlots are the shared edge slots of a pair (mergeValue).
type pairSlots struct {
	ea, eb int8
	single bool // they share one edge, which each has once (see mergeValue)
}

// mergePolysFullScan is mergePolys evaluating every pair in every round.
func (b *builder) mergePolysFullScan(polys []uint16, np int, move func(dst, src int, merged bool), tmp []uint16) int {
	nvp := b.nvp
	for {
		best, bestA, bestB, bestEa, bestEb := 0, 0, 0, 0, 0
		for j := 0; j < np-1; j++ {
			for k := j + 1; k < np; k++ {
				v, ea, eb, _ := b.mergeValue(polys[j*nvp:(j+1)*nvp], polys[k*nvp:(k+1)*nvp])
				if v > best {
					best, bestA, bestB, bestEa, bestEb = v, j, k, ea, eb
				}
			}
		}
		if best <= 0 {
			return np
		}
		np = b.mergePair(polys, np, bestA, bestB, bestEa, bestEb, move, tmp)
	}
}

// mergePair writes the merge of polygons a < b (shared edge slots ea, eb)
// over a, moves the last polygon into b's slot and returns the new count.
func (b *builder) mergePair(polys []uint16, np, a, bi, ea, eb int, move func(dst, src int, merged bool), tmp []uint16) int {
	nvp := b.nvp
	pa := polys[a*nvp : (a+1)*nvp]
	pb := polys[bi*nvp : (bi+1)*nvp]
	na, nb := countPolyVerts(pa), countPolyVerts(pb)
	// a's vertices from the one after the shared edge round to its start,
	// then b's likewise (element by element: a few each, where copy's
	// calls cost more than the moves).
	n := 0
	put := func(vs []uint16) {
		for _, v := range vs {
			tmp[n] = v
			n++
		}
	}
	put(pa[ea+1 : na])
	put(pa[:ea])
	put(pb[eb+1 : nb])
	put(pb[:eb])
	for s := n; s < len(tmp); s++ {
		tmp[s] = NullIndex
	}
	for s, v := range tmp[:len(pa)] {
		pa[s] = v
	}
	if move != nil {
		move(a, bi, true)
	}
	last := np - 1
	if bi != last {
		for s, v := range polys[last*nvp : (last+1)*nvp] {
			pb[s] = v
		}
	}
	if move != nil {
		move(bi, last, false)
	}
	return np - 1
}
