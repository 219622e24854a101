package polymesh

import "slices"

// Merging a contour's (or a hole's) triangles into convex polygons of at
// most nvp vertices (docs/polys.md, "Merging").

// mergeValue returns the squared length of the edge pa and pb share when
// they can merge into one convex polygon of at most nvp vertices, else -1;
// ea and eb are the shared edge's slots in pa and pb, and shared the
// number of edges of pa that pb also has (0: not adjacent) (Recast's
// getPolyMergeValue, with convexity required in cells and in the stored
// float32 positions). With one shared edge the value is the same for
// (pb, pa), with ea and eb swapped.
func (b *builder) mergeValue(pa, pb []uint16) (val, ea, eb, shared int) {
	var ka, kb polyEdges
	ka.set(pa)
	kb.set(pb)
	return b.mergeValueEdges(pa, pb, &ka, &kb)
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
	if n == 0 {
		return
	}
	for i := 0; i+1 < n; i++ {
		e.key[i] = vertPairKey(p[i], p[i+1])
		e.mask |= keyBit(e.key[i])
	}
	e.key[n-1] = vertPairKey(p[n-1], p[0])
	e.mask |= keyBit(e.key[n-1])
}

// mergeValueEdges is mergeValue given the edges of pa and pb.
func (b *builder) mergeValueEdges(pa, pb []uint16, ka, kb *polyEdges) (val, ea, eb, shared int) {
	if ka.mask&kb.mask == 0 {
		return -1, -1, -1, 0
	}
	na, nb := int(ka.n), int(kb.n)
	// The shared edge is the last i of pa (first j of pb within it) with
	// equal keys.
	ea, eb = -1, -1
	for i, a := range ka.key[:na] {
		if keyBit(a)&kb.mask == 0 {
			continue
		}
		for j, b := range kb.key[:nb] {
			if a == b {
				ea, eb = i, j
				shared++
				break
			}
		}
	}
	if ea < 0 {
		return -1, -1, -1, 0
	}
	if na+nb-2 > b.nvp {
		return -1, ea, eb, shared
	}
	vs := b.m.Verts
	corner := func(a, bv, c uint16) bool {
		return b.o.convex(int(vs[a][0]), int(vs[a][2]), int(vs[bv][0]), int(vs[bv][2]), int(vs[c][0]), int(vs[c][2]))
	}
	// Slots around the shared edge (next and prev: no division).
	if !corner(pa[prev(ea, na)], pa[ea], pb[next(next(eb, nb), nb)]) {
		return -1, ea, eb, shared
	}
	if !corner(pb[prev(eb, nb)], pb[eb], pa[next(next(ea, na), na)]) {
		return -1, ea, eb, shared
	}
	v0, v1 := vs[pa[ea]], vs[pa[next(ea, na)]]
	dx := int(v0[0]) - int(v1[0])
	dz := int(v0[2]) - int(v1[2])
	return dx*dx + dz*dz, ea, eb, shared
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
	// are kept with their merge values, each in the lists of both its
	// polygons, and those that can merge in a list sorted by value, ties
	// to the smaller (j, k) (the pair a scan of every j < k would meet
	// first) last: each round takes the last live pair, and the pairs a
	// round enters are then put in place (rankNew; a contour has some tens
	// of pairs, so the moves are short). A merge changes only the two polygons it writes (the merged
	// one, A, and the one moved into B's slot), so only their pairs die
	// and are evaluated again; every other pair stays valid. The result
	// equals evaluating every pair in every round
	// (TestMergeCacheMatchesFullScan).
	b.pairs, b.pnext, b.ranked = b.pairs[:0], b.pnext[:0], b.ranked[:0]
	b.phead = slices.Grow(b.phead[:0], np)[:np]
	for i := range b.phead {
		b.phead[i] = -1
	}
	mark := slices.Grow(b.mark[:0], np)[:np]
	clear(mark)
	defer func() { b.mark = mark[:0] }()
	b.pedges = slices.Grow(b.pedges[:0], np)[:np]
	for k := range np {
		b.pedges[k].set(polys[k*nvp : (k+1)*nvp])
	}
	// Pairs sharing an edge: every edge goes into a hash table of edge
	// keys (chained); an edge meeting an earlier polygon's equal key pairs
	// the two (entered once, however many edges they share).
	edges := 0
	for k := range np {
		edges += int(b.pedges[k].n)
	}
	shift := uint(32 - 6) // 64 slots at least, twice the edges
	for 1<<(32-shift) < 2*edges {
		shift--
	}
	table := slices.Grow(b.etable[:0], 1<<(32-shift))[:1<<(32-shift)]
	for i := range table {
		table[i] = -1
	}
	chain := b.echain[:0]
	for k := 0; k < np; k++ {
		e := &b.pedges[k]
		seen := len(b.pairs)
		for _, key := range e.key[:e.n] {
			h := (key * 0x9e3779b1) >> shift
			for c := table[h]; c >= 0; c = chain[c].next {
				if e := chain[c]; e.key == key && int(e.poly) != k {
					j, dup := int(e.poly), false
					for _, pr := range b.pairs[seen:] {
						dup = dup || int(pr.j) == j
					}
					if !dup {
						b.addPair(polys, j, k)
					}
				}
			}
			chain = append(chain, keyedEdge{key, int32(k), table[h]})
			table[h] = int32(len(chain) - 1)
		}
	}
	b.etable, b.echain = table[:0], chain[:0]
	candA, candL := b.candA[:0], b.candL[:0]
	defer func() { b.candA, b.candL = candA[:0], candL[:0] }()
	b.rankNew(0)
	for {
		r := b.ranked
		for len(r) > 0 && b.pairs[r[len(r)-1].id].dead {
			r = r[:len(r)-1]
		}
		if len(r) == 0 {
			b.ranked = r
			return np
		}
		bp := b.pairs[r[len(r)-1].id]
		b.ranked = r[:len(r)-1]
		entered := len(b.ranked)
		bestA, bestB, last := int(bp.j), int(bp.k), np-1
		// The pairs of A and B die; their other polygons are the merged
		// polygon's candidate neighbours. The pairs of the polygon that
		// moves into B's slot die too, to be entered again under B.
		candA, candL = candA[:0], candL[:0]
		for _, x := range [2]int{bestA, bestB} {
			for n := b.phead[x]; n >= 0; n = b.pnext[n] {
				pr := &b.pairs[n>>1]
				if pr.dead {
					continue
				}
				pr.dead = true
				y := int(pr.k) // the other polygon: node 2i is in j's list
				if n&1 != 0 {
					y = int(pr.j)
				}
				if y != bestA && y != bestB && !mark[y] {
					mark[y] = true
					candA = append(candA, y)
				}
			}
			b.phead[x] = -1
		}
		if bestB != last {
			for n := b.phead[last]; n >= 0; n = b.pnext[n] {
				if pr := &b.pairs[n>>1]; !pr.dead {
					pr.dead = true
					candL = append(candL, *pr)
				}
			}
		}
		b.phead[last] = -1
		for _, x := range candA {
			mark[x] = false
		}
		np = b.mergePair(polys, np, bestA, bestB, int(bp.ea), int(bp.eb), move, tmp)
		b.pedges[bestA].set(polys[bestA*nvp : (bestA+1)*nvp])
		if bestB != last {
			b.pedges[bestB] = b.pedges[last]
		}
		for _, x := range candA {
			if x == last {
				x = bestB
			}
			b.addPair(polys, bestA, x)
		}
		// The moved polygon's pairs with A or B are the merged polygon's,
		// entered above (it is then a neighbour of A or B). Its others keep
		// their value: the same two polygons in the same order give the
		// same value, and so do both orders with one shared edge (slots
		// swapped). A pair with several shared edges whose order flips is
		// evaluated again (the first polygon's last shared edge is taken).
		for _, pr := range candL {
			y := int(pr.j) // the partner: the moved polygon was the last, the larger index
			if y == bestA || y == bestB {
				continue
			}
			if y > bestB {
				if !pr.single {
					b.addPair(polys, bestB, y)
					continue
				}
				pr.j, pr.k, pr.ea, pr.eb = int32(bestB), int32(y), pr.eb, pr.ea
			} else {
				pr.k = int32(bestB)
			}
			pr.dead = false
			b.pushPair(pr)
		}
		b.rankNew(entered)
	}
}

// addPair enters the pair of polygons j and k (either order), which
// shared an edge before the round, when they share one (pushPair), with
// its merge value (from the polygons' kept edges, pedges). A pair too big
// to merge is entered without its edges looked at (value -1, taken as
// sharing one edge): an extra pair of value -1 only makes its polygons
// each other's candidates when one of them next changes, which
// evaluates them again, so the merges are the same.
func (b *builder) addPair(polys []uint16, j, k int) {
	if j > k {
		j, k = k, j
	}
	nvp := b.nvp
	if int(b.pedges[j].n)+int(b.pedges[k].n)-2 > nvp {
		b.pushPair(mergePairEntry{j: int32(j), k: int32(k), val: -1, ea: -1, eb: -1, single: true})
		return
	}
	v, ea, eb, shared := b.mergeValueEdges(polys[j*nvp:(j+1)*nvp], polys[k*nvp:(k+1)*nvp], &b.pedges[j], &b.pedges[k])
	if shared > 0 {
		b.pushPair(mergePairEntry{j: int32(j), k: int32(k), val: int32(v), ea: int8(ea), eb: int8(eb), single: shared == 1})
	}
}

// pushPair adds pair e to the lists of its polygons and, when it can
// merge, to the end of the ranked list (rankNew puts it in place).
func (b *builder) pushPair(e mergePairEntry) {
	id := int32(len(b.pairs))
	b.pairs = append(b.pairs, e)
	b.pnext = append(b.pnext, b.phead[e.j], b.phead[e.k])
	b.phead[e.j], b.phead[e.k] = 2*id, 2*id+1
	if e.val > 0 {
		b.ranked = append(b.ranked, rankedPair{e.rankKey(), id})
	}
}

// rankNew puts the ranked pairs from index from on, one by one, in place
// among those before them (sorted by key, ascending).
func (b *builder) rankNew(from int) {
	r := b.ranked
	for i := max(from, 1); i < len(r); i++ {
		e := r[i]
		lo, hi := 0, i // the first position whose key is above e's
		for lo < hi {
			if m := int(uint(lo+hi) >> 1); r[m].key > e.key {
				hi = m
			} else {
				lo = m + 1
			}
		}
		copy(r[lo+1:i+1], r[lo:i])
		r[lo] = e
	}
}

// rankedPair is a pair that can merge in the ranked list of mergePolys:
// its key (rankKey) and its index in the builder's pairs.
type rankedPair struct {
	key uint64
	id  int32
}

// rankKey orders the pairs that can merge as numbers, the pair to merge
// first the largest: the value (positive, below 2^31) in the high 32 bits,
// then 0xffff-j and 0xffff-k (polygon indices are below MaxVerts), so ties
// go to the smaller (j, k). Live pairs never share (j, k).
func (e *mergePairEntry) rankKey() uint64 {
	return uint64(uint32(e.val))<<32 | uint64(0xffff-uint32(e.j))<<16 | uint64(0xffff-uint32(e.k))
}

// mergePairEntry is a pair of polygons j < k sharing an edge, with its merge
// value and shared edge slots.
type mergePairEntry struct {
	j, k   int32
	val    int32
	ea, eb int8
	single bool // they share one edge (see mergeValue)
	dead   bool // a polygon of the pair changed since (mergePolys)
}

// keyedEdge is a polygon edge in its chain of the hash table of edge keys
// (the initial pairs of mergePolys).
type keyedEdge struct {
	key        uint32
	poly, next int32
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
