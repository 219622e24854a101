package polymesh

import (
	"math"
	"slices"
)

// Ear-clipping triangulation of a simple polygon given by vertex cell
// coordinates (x, z), after Recast's triangulate (itself after O'Rourke,
// "Computational Geometry in C"): see docs/polys.md, "Triangulation".

// triangulator holds the scratch of a triangulation.
type triangulator struct {
	xs, zs []int // vertex coordinates, by vertex number (0..65535)
	// vs is the remaining polygon, a loop linked by vertex number: a clip
	// unlinks one vertex. Clipping keeps the other vertices in their
	// order, so positions 0..n-1 of the remaining polygon are its vertex
	// numbers in increasing order, from head.
	vs   []triVert
	head int // the remaining vertex of smallest number: position 0
	// ears is a tree of the tips' ear keys (earKey), eight children a
	// node: level 0 holds tip b's key at b, each level above the smallest
	// key of each eight of the level below, the last level one node (the
	// key of the ear to clip). Each level starts at levels[l] and but for
	// the root is padded with noEar to a multiple of eight.
	ears   []uint64
	levels []int
	ox, oz int  // the polygon's smallest x and z, the boxes' origin
	wide   bool // the polygon spans more than boxMax cells: diagonalie tests every edge
	// plain tests every edge in diagonalie and picks the ear by a scan of
	// the positions (tests).
	plain bool
	high  uint64 // boxHigh (see overlapsHigh)
	// slivers counts the triangles emit dropped (not strictly convex in
	// cells or in stored positions).
	slivers int
	tris    []int // output: vertex numbers, three per triangle
	o       *orienter
}

// triVert is a vertex of the remaining polygon, by its number.
type triVert struct {
	// box bounds the edge from the vertex to nxt (boxOf); an edge of zero
	// length gets a box that meets every box (diagonalie tests it always).
	box      edgeBox
	x, z     int // coordinates
	nxt, prv int // the next and previous remaining vertices
}

// noEar is the ear key of a tip that is no clippable ear (or is clipped).
const noEar = math.MaxUint64

// edgeBox is the x/z box [x0, x1] x [z0, z1] of an edge of the remaining
// polygon, in cells from the polygon's smallest x and z (ox, oz), packed in
// four 16-bit lanes for a branch-free overlap test (overlaps): x1,
// boxMax-x0, z1 and boxMax-z0 from the top lane down, each with its top bit
// set. run keeps every coordinate in 0..boxMax (a polygon wider than that
// has boxes that meet every box), so the values fit below that bit.
type edgeBox uint64

const (
	boxMax  = 0x7fff
	boxHigh = 0x8000_8000_8000_8000 // the top bit of each lane
)

// boxOf packs the box [x0, x1] x [z0, z1].
func boxOf(x0, x1, z0, z1 int) edgeBox {
	return edgeBox(uint64(x1)<<48 | uint64(boxMax-x0)<<32 | uint64(z1)<<16 | uint64(boxMax-z0) | boxHigh)
}

// boxQuery is the diagonal's box [x0, x1] x [z0, z1] packed so that
// e.overlaps(q) is x0 <= e.x1 && e.x0 <= x1 && z0 <= e.z1 && e.z0 <= z1
// (boxes touching count).
func boxQuery(x0, x1, z0, z1 int) edgeBox {
	return edgeBox(uint64(x0)<<48 | uint64(boxMax-x1)<<32 | uint64(z0)<<16 | uint64(boxMax-z1))
}

// overlaps compares the four lanes at once: with the top bit of each lane
// set in e, subtracting q's lane (at most boxMax) borrows from that bit
// exactly when e's lane is the smaller, and never across lanes.
func (e edgeBox) overlaps(q edgeBox) bool {
	return e.overlapsHigh(q, boxHigh)
}

// overlapsHigh is overlaps with boxHigh given as high. diagonalie passes
// triangulator.high, which holds it: a value read from memory stays in a
// register through the loop over the edges, where the 64-bit constant
// would be loaded again at every edge.
func (e edgeBox) overlapsHigh(q edgeBox, high uint64) bool {
	return (uint64(e)-uint64(q))&high == high
}

// setBox sets the box of the edge from vertex k to the next.
func (t *triangulator) setBox(k int) {
	a, b := &t.vs[k], &t.vs[t.vs[k].nxt]
	ax, az, bx, bz := a.x-t.ox, a.z-t.oz, b.x-t.ox, b.z-t.oz
	if (ax == bx && az == bz) || t.wide {
		a.box = boxOf(0, boxMax, 0, boxMax)
		return
	}
	a.box = boxOf(min(ax, bx), max(ax, bx), min(az, bz), max(az, bz))
}

// next and prev step a position i of a loop of n (0..n-1) forward and
// back, wrapping without a division (the merge and the detail hull).
func next(i, n int) int {
	if i+1 < n {
		return i + 1
	}
	return 0
}

func prev(i, n int) int {
	if i-1 >= 0 {
		return i - 1
	}
	return n - 1
}

func left(ax, az, bx, bz, cx, cz int) bool   { return area2(ax, az, bx, bz, cx, cz) < 0 }
func leftOn(ax, az, bx, bz, cx, cz int) bool { return area2(ax, az, bx, bz, cx, cz) <= 0 }

// intersectProp reports whether segments ab and cd cross at a point interior
// to both (no three of the points collinear).
func intersectProp(ax, az, bx, bz, cx, cz, dx, dz int) bool {
	return segmentsMeet(ax, az, bx, bz, cx, cz, dx, dz, true)
}

// intersect reports whether segments ab and cd meet, properly or not:
// intersectProp, or one end lies on the other segment (collinear and within
// it along x, or along z when that segment is parallel to z, ends included).
func intersect(ax, az, bx, bz, cx, cz, dx, dz int) bool {
	return segmentsMeet(ax, az, bx, bz, cx, cz, dx, dz, false)
}

// segmentsMeet is intersectProp (proper) or intersect (not proper), the
// four orientations computed once. Two segments of non-zero length whose
// bounding boxes are disjoint meet neither way: diagonalie rejects those
// before (a segment of zero length is collinear with every point, and the
// rules then compare one coordinate only, Recast's behaviour, kept, so it
// is always tested).
func segmentsMeet(ax, az, bx, bz, cx, cz, dx, dz int, proper bool) bool {
	c1 := area2(ax, az, bx, bz, cx, cz)
	c2 := area2(ax, az, bx, bz, dx, dz)
	c3 := area2(cx, cz, dx, dz, ax, az)
	c4 := area2(cx, cz, dx, dz, bx, bz)
	if c1 != 0 && c2 != 0 && c3 != 0 && c4 != 0 {
		return (c1 < 0) != (c2 < 0) && (c3 < 0) != (c4 < 0)
	}
	if proper {
		return false
	}
	return (c1 == 0 && within(ax, az, bx, bz, cx, cz)) || (c2 == 0 && within(ax, az, bx, bz, dx, dz)) ||
		(c3 == 0 && within(cx, cz, dx, dz, ax, az)) || (c4 == 0 && within(cx, cz, dx, dz, bx, bz))
}

// within reports whether c, collinear with ab, lies on the closed segment ab
// (tested along x unless ab is parallel to z).
func within(ax, az, bx, bz, cx, cz int) bool {
	if ax != bx {
		return (ax <= cx && cx <= bx) || (ax >= cx && cx >= bx)
	}
	return (az <= cz && cz <= bz) || (az >= cz && cz >= bz)
}

// diagonalie reports whether segment (i, j) of the remaining polygon (n
// vertices; j is two after i) crosses no edge that does not touch i or j;
// with loose, only proper crossings count. Edges with an end at the same
// point as i or j are skipped.
func (t *triangulator) diagonalie(i, j, n int, loose bool) bool {
	vs := t.vs
	if t.plain || t.wide {
		// Every edge, those touching i or j skipped by their ends.
		for k, c := t.head, 0; c < n; k, c = vs[k].nxt, c+1 {
			k1 := vs[k].nxt
			if k != i && k1 != i && k != j && k1 != j && t.blocks(i, j, k, loose) {
				return false
			}
		}
		return true
	}
	if n < 5 {
		return true // every edge touches i, next(i) or j
	}
	// Box of the diagonal: an edge of non-zero length entirely to one side
	// of it cannot meet it, whatever the rules below (see segmentsMeet).
	d0x, d0z := vs[i].x, vs[i].z
	d1x, d1z := vs[j].x, vs[j].z
	q := boxQuery(min(d0x, d1x)-t.ox, max(d0x, d1x)-t.ox, min(d0z, d1z)-t.oz, max(d0z, d1z)-t.oz)
	if d0x == d1x && d0z == d1z {
		q = boxQuery(0, boxMax, 0, boxMax) // every edge's box meets it
	}
	// The edges touching neither i nor j: from next(j) to the one that
	// ends at prev(i). The next edge, from prev(i) to i, ends the walk:
	// its box holds i as the diagonal's does, so it always meets it, and
	// only the edges that pass the box test need the stop test.
	stop, high := vs[i].prv, t.high
	for k := vs[j].nxt; ; k = vs[k].nxt {
		if !vs[k].box.overlapsHigh(q, high) {
			continue
		}
		if k == stop {
			return true
		}
		if t.blocks(i, j, k, loose) {
			return false
		}
	}
}

// blocks reports whether the edge from vertex k to the next keeps (i, j)
// from being a diagonal: it has no end at the same point as i or j, and
// meets the segment (loose: crosses it properly).
func (t *triangulator) blocks(i, j, k int, loose bool) bool {
	vs := t.vs
	d0x, d0z := vs[i].x, vs[i].z
	d1x, d1z := vs[j].x, vs[j].z
	p0x, p0z := vs[k].x, vs[k].z
	p1 := &vs[vs[k].nxt]
	p1x, p1z := p1.x, p1.z
	if (d0x == p0x && d0z == p0z) || (d1x == p0x && d1z == p0z) ||
		(d0x == p1x && d0z == p1z) || (d1x == p1x && d1z == p1z) {
		return false
	}
	if loose {
		return intersectProp(d0x, d0z, d1x, d1z, p0x, p0z, p1x, p1z)
	}
	return intersect(d0x, d0z, d1x, d1z, p0x, p0z, p1x, p1z)
}

// inCone reports whether the diagonal (i, j) leaves vertex i into the
// polygon's interior (strictly; loose accepts the cone's sides).
func (t *triangulator) inCone(i, j int, loose bool) bool {
	vs := t.vs
	pix, piz := vs[i].x, vs[i].z
	pjx, pjz := vs[j].x, vs[j].z
	pn, pp := &vs[vs[i].nxt], &vs[vs[i].prv]
	pnx, pnz, ppx, ppz := pn.x, pn.z, pp.x, pp.z
	if leftOn(ppx, ppz, pix, piz, pnx, pnz) { // convex corner at i
		if loose {
			return leftOn(pix, piz, pjx, pjz, ppx, ppz) && leftOn(pjx, pjz, pix, piz, pnx, pnz)
		}
		return left(pix, piz, pjx, pjz, ppx, ppz) && left(pjx, pjz, pix, piz, pnx, pnz)
	}
	// reflex corner at i
	return !(leftOn(pix, piz, pjx, pjz, pnx, pnz) && leftOn(pjx, pjz, pix, piz, ppx, ppz))
}

// earKey is the key of the tip after vertex a as an ear: the squared
// length of its diagonal (from a to the vertex after the tip) above a's
// number in the low 16 bits, or noEar when the tip is no clippable ear:
// the diagonal is not proper (inCone, diagonalie) or the tip is not a
// strictly convex corner, in cells and in the stored float32 positions.
// The smallest key is the shortest diagonal, ties to the smallest a.
func (t *triangulator) earKey(a, n int) uint64 {
	vs := t.vs
	b := vs[a].nxt
	c := vs[b].nxt
	ax, az := vs[a].x, vs[a].z
	bx, bz := vs[b].x, vs[b].z
	cx, cz := vs[c].x, vs[c].z
	// A tip that is not convex in cells fails convex without its exact
	// test: decide that first, before the diagonal's edge tests.
	turn := area2(ax, az, bx, bz, cx, cz)
	if turn >= 0 {
		return noEar
	}
	// inCone(a, c) for a convex tip: its tests left(c, a, b) and
	// leftOn(a, c, b) are the tip's turn (the same for a rotated triple),
	// so only the convex-corner test at a is left.
	p := &vs[vs[a].prv]
	if (leftOn(p.x, p.z, ax, az, bx, bz) && !left(ax, az, cx, cz, p.x, p.z)) || !t.diagonalie(a, c, n, false) {
		return noEar
	}
	// The exact test of convex only runs for turns below the bound.
	if -turn < t.o.bound && !t.o.convex(ax, az, bx, bz, cx, cz) {
		return noEar
	}
	return uint64(dist2(ax, az, cx, cz))<<16 | uint64(a)
}

func dist2(ax, az, bx, bz int) int64 {
	dx, dz := int64(bx-ax), int64(bz-az)
	return dx*dx + dz*dz
}

// setEars stores the ear keys of tips a and c, clears that of the
// clipped tip b, and refreshes their ancestors level by level (the three
// paths soon meet).
func (t *triangulator) setEars(a, b, c int, ka, kc uint64) {
	e := t.ears
	e[a], e[b], e[c] = ka, noEar, kc
	for l := 1; l < len(t.levels); l++ {
		below, at := t.levels[l-1], t.levels[l]
		a, b, c = a>>3, b>>3, c>>3
		e[at+a] = min8(e[below+8*a:])
		if b != a {
			e[at+b] = min8(e[below+8*b:])
		}
		if c != a && c != b {
			e[at+c] = min8(e[below+8*c:])
		}
	}
}

// min8 is the smallest of the first eight keys of e.
func min8(e []uint64) uint64 {
	g := (*[8]uint64)(e)
	return min(g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7])
}

// buildEars adds the levels above level 0, whose n keys are set.
func (t *triangulator) buildEars(n int) {
	e := t.ears[:n]
	t.levels = append(t.levels[:0], 0)
	for size := n; size > 1; size = (size + 7) / 8 {
		below := t.levels[len(t.levels)-1]
		for len(e)%8 != 0 {
			e = append(e, noEar)
		}
		at := len(e)
		t.levels = append(t.levels, at)
		for g := below; g < at; g += 8 {
			e = append(e, min8(e[g:]))
		}
	}
	t.ears = e
}

// nextEar returns the vertex before the tip of the ear to clip, or -1
// when no tip is an ear. The plain form applies the rule as stated: the
// smallest distance, ties to the smallest position of the vertex before
// the tip (tips at positions 1..n-1, then tip 0 with position n-1).
// Positions and vertex numbers have the same order, so the tree's keys
// (ties to the smallest number) pick the same ear.
func (t *triangulator) nextEar(n int) int {
	if !t.plain {
		root := t.ears[len(t.ears)-1]
		if root == noEar {
			return -1
		}
		return int(root & 0xffff)
	}
	leaves := t.ears
	best, mini := uint64(noEar>>16), -1
	for b, c := t.vs[t.head].nxt, 0; c < n; b, c = t.vs[b].nxt, c+1 {
		if d := leaves[b] >> 16; d < best {
			best, mini = d, t.vs[b].prv
		}
	}
	return mini
}

// looseEar returns the vertex i whose loose diagonal (i, next(next(i)))
// is the shortest by Recast's key, the distance from i to the vertex after
// next(next(i)) (first position on ties), or -1 when there is none.
func (t *triangulator) looseEar(n int) int {
	vs := t.vs
	best, mini := int64(-1), -1
	for i, c := t.head, 0; c < n; i, c = vs[i].nxt, c+1 {
		i2 := vs[vs[i].nxt].nxt
		if !(t.inCone(i, i2, true) && t.diagonalie(i, i2, n, true)) {
			continue
		}
		p := &vs[vs[i2].nxt]
		if d := dist2(vs[i].x, vs[i].z, p.x, p.z); best < 0 || d < best {
			best, mini = d, i
		}
	}
	return mini
}

// emit outputs the triangle of vertices a, b, c. A proper ear is strictly
// convex in cells and in stored positions (earKey); the last triangle and
// one found by the loose rule are checked, and dropped (counted in
// slivers) unless they are too.
func (t *triangulator) emit(a, b, c int, check bool) {
	if check {
		vs := t.vs
		if !t.o.convex(vs[a].x, vs[a].z, vs[b].x, vs[b].z, vs[c].x, vs[c].z) {
			t.slivers++
			return
		}
	}
	t.tris = append(t.tris, a, b, c)
}

// run triangulates vertices 0..n-1 (in t.xs, t.zs) and reports whether it
// completed. The triangles (vertex numbers) are in t.tris; on failure they
// are the ones found before the polygon could not be clipped further.
func (t *triangulator) run(n int) bool {
	t.tris = t.tris[:0]
	if n < 3 {
		return false
	}
	t.vs = slices.Grow(t.vs[:0], n)[:n]
	vs := t.vs
	for i := range vs {
		vs[i] = triVert{x: t.xs[i], z: t.zs[i], nxt: next(i, n), prv: prev(i, n)}
	}
	t.head, t.high = 0, boxHigh
	t.ox, t.oz = slices.Min(t.xs[:n]), slices.Min(t.zs[:n])
	t.wide = slices.Max(t.xs[:n])-t.ox > boxMax || slices.Max(t.zs[:n])-t.oz > boxMax
	for k := range vs {
		t.setBox(k)
	}
	t.ears = slices.Grow(t.ears[:0], n)[:n]
	for a := range vs {
		t.ears[vs[a].nxt] = t.earKey(a, n)
	}
	t.buildEars(n)
	for n > 3 {
		loose := false
		a := t.nextEar(n)
		if a < 0 {
			// No proper ear (overlapping contour segments): accept a loose
			// diagonal.
			if a = t.looseEar(n); a < 0 {
				return false
			}
			loose = true
		}
		b := vs[a].nxt
		c := vs[b].nxt
		t.emit(a, b, c, loose)
		// Unlink the tip b; a's edge now ends at c, and the tips a and c
		// have new diagonals.
		vs[a].nxt, vs[c].prv = c, a
		if b == t.head {
			t.head = c
		}
		n--
		if n == 3 {
			break // the last triangle needs no ears
		}
		t.setBox(a)
		t.setEars(a, b, c, t.earKey(vs[a].prv, n), t.earKey(a, n))
	}
	h := t.head
	t.emit(h, vs[h].nxt, vs[vs[h].nxt].nxt, true)
	return true
}
