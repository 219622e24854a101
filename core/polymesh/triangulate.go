package polymesh

import "slices"

// Ear-clipping triangulation of a simple polygon given by vertex cell
// coordinates (x, z), after Recast's triangulate (itself after O'Rourke,
// "Computational Geometry in C"): see docs/polys.md, "Triangulation".

// triangulator holds the scratch of a triangulation.
type triangulator struct {
	xs, zs []int // vertex coordinates, by vertex number (0..65535)
	// rem is the remaining polygon, by position: one array, so that a
	// clip moves one block.
	rem    []remVert
	ox, oz int  // the polygon's smallest x and z, the boxes' origin
	wide   bool // the polygon spans more than boxMax cells: every box meets every box
	plain  bool // no box shortcut in diagonalie (tests)
	// slivers counts the triangles emit dropped (not strictly convex in
	// cells or in stored positions).
	slivers int
	tris    []int // output: vertex numbers, three per triangle
	o       *orienter
}

// remVert is a vertex of the remaining polygon at its position k.
type remVert struct {
	// earD is the squared length of the diagonal of the ear with tip at k
	// (earDist) when that tip is clippable, else -1.
	earD int64
	// box bounds the edge from k to the next position (boxOf); an edge of
	// zero length gets a box that meets every box (diagonalie tests it
	// always).
	box  edgeBox
	x, z int // coordinates
	v    int // vertex number
}

// edgeBox is the x/z box [x0, x1] x [z0, z1] of an edge of the remaining
// polygon, in cells from the polygon's smallest x and z (ox, oz), packed in
// four 16-bit lanes for a branch-free overlap test (overlaps): x1,
// boxMax-x0, z1 and boxMax-z0 from the top lane down. run keeps every
// coordinate in 0..boxMax (a polygon wider than that has boxes that meet
// every box), so the top bit of each lane is free.
type edgeBox uint64

const (
	boxMax  = 0x7fff
	boxHigh = 0x8000_8000_8000_8000 // the top bit of each lane
)

// boxOf packs the box [x0, x1] x [z0, z1].
func boxOf(x0, x1, z0, z1 int) edgeBox {
	return edgeBox(uint64(x1)<<48 | uint64(boxMax-x0)<<32 | uint64(z1)<<16 | uint64(boxMax-z0))
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
	return ((uint64(e)|boxHigh)-uint64(q))&boxHigh == boxHigh
}

// setBox sets the box of position k from positions k and next(k).
func (t *triangulator) setBox(k, n int) {
	ax, az := t.pt(k)
	bx, bz := t.pt(next(k, n))
	ax, az, bx, bz = ax-t.ox, az-t.oz, bx-t.ox, bz-t.oz
	if (ax == bx && az == bz) || t.wide {
		t.rem[k].box = boxOf(0, boxMax, 0, boxMax)
		return
	}
	t.rem[k].box = boxOf(min(ax, bx), max(ax, bx), min(az, bz), max(az, bz))
}

// next and prev step a position i of a loop of n (0..n-1) forward and
// back, wrapping without a division (the ear clipping and the merge).
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

// pt returns the coordinates of remaining-polygon position k.
func (t *triangulator) pt(k int) (int, int) {
	return t.rem[k].x, t.rem[k].z
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

// segmentsMeet is intersectProp (proper) or intersect (not proper). The
// four orientations are computed once, and two segments of non-zero length
// whose bounding boxes are disjoint are rejected first (they can meet
// neither way), which gives the same answers as testing every rule. A
// segment of zero length is collinear with every point, and the rules then
// compare one coordinate only (Recast's behaviour, kept), so it skips the
// box test.
func segmentsMeet(ax, az, bx, bz, cx, cz, dx, dz int, proper bool) bool {
	if (max(ax, bx) < min(cx, dx) || max(cx, dx) < min(ax, bx) ||
		max(az, bz) < min(cz, dz) || max(cz, dz) < min(az, bz)) &&
		(ax != bx || az != bz) && (cx != dx || cz != dz) {
		return false
	}
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
// vertices) crosses no edge that does not touch i or j; with loose, only
// proper crossings count. Edges with an end at the position of d0 or d1 are
// skipped.
func (t *triangulator) diagonalie(i, j, n int, loose bool) bool {
	d0x, d0z := t.pt(i)
	d1x, d1z := t.pt(j)
	// Box of the diagonal: an edge of non-zero length entirely to one side
	// of it cannot meet it (see segmentsMeet), whatever the rules below.
	q := boxQuery(min(d0x, d1x)-t.ox, max(d0x, d1x)-t.ox, min(d0z, d1z)-t.oz, max(d0z, d1z)-t.oz)
	if (d0x == d1x && d0z == d1z) || t.plain || t.wide {
		q = boxQuery(0, boxMax, 0, boxMax) // every edge's box meets it
	}
	rem := t.rem[:n]
	for k := range rem {
		if !rem[k].box.overlaps(q) {
			continue
		}
		k1 := k + 1
		if k1 == n {
			k1 = 0
		}
		p0x, p0z := rem[k].x, rem[k].z
		p1x, p1z := rem[k1].x, rem[k1].z
		if k == i || k1 == i || k == j || k1 == j {
			continue
		}
		if (d0x == p0x && d0z == p0z) || (d1x == p0x && d1z == p0z) ||
			(d0x == p1x && d0z == p1z) || (d1x == p1x && d1z == p1z) {
			continue
		}
		if loose {
			if intersectProp(d0x, d0z, d1x, d1z, p0x, p0z, p1x, p1z) {
				return false
			}
		} else if intersect(d0x, d0z, d1x, d1z, p0x, p0z, p1x, p1z) {
			return false
		}
	}
	return true
}

// inCone reports whether the diagonal (i, j) leaves vertex i into the
// polygon's interior (strictly; loose accepts the cone's sides).
func (t *triangulator) inCone(i, j, n int, loose bool) bool {
	pix, piz := t.pt(i)
	pjx, pjz := t.pt(j)
	pnx, pnz := t.pt(next(i, n))
	ppx, ppz := t.pt(prev(i, n))
	if leftOn(ppx, ppz, pix, piz, pnx, pnz) { // convex corner at i
		if loose {
			return leftOn(pix, piz, pjx, pjz, ppx, ppz) && leftOn(pjx, pjz, pix, piz, pnx, pnz)
		}
		return left(pix, piz, pjx, pjz, ppx, ppz) && left(pjx, pjz, pix, piz, pnx, pnz)
	}
	// reflex corner at i
	return !(leftOn(pix, piz, pjx, pjz, pnx, pnz) && leftOn(pjx, pjz, pix, piz, ppx, ppz))
}

func (t *triangulator) diagonal(i, j, n int) bool {
	return t.inCone(i, j, n, false) && t.diagonalie(i, j, n, false)
}

// isEar reports whether position k1 = next(i) is a clippable ear tip: the
// diagonal (i, next(k1)) is proper and the tip is a strictly convex corner
// in the stored float32 positions too (this last test only decides anything
// when the corner's integer turn is below the orientation bound).
func (t *triangulator) isEar(i, n int) bool {
	i1 := next(i, n)
	i2 := next(i1, n)
	ax, az := t.pt(i)
	bx, bz := t.pt(i1)
	cx, cz := t.pt(i2)
	// A tip that is not convex in cells fails convex without its exact
	// test: decide that first, before the diagonal's edge tests.
	if area2(ax, az, bx, bz, cx, cz) >= 0 || !t.diagonal(i, i2, n) {
		return false
	}
	return t.o.convex(ax, az, bx, bz, cx, cz)
}

// earDist is the squared length of the diagonal of the ear with tip at
// position i1 (from the vertex before it to the vertex after it).
func (t *triangulator) earDist(i1, n int) int64 {
	ax, az := t.pt(prev(i1, n))
	bx, bz := t.pt(next(i1, n))
	return dist2(ax, az, bx, bz)
}

func dist2(ax, az, bx, bz int) int64 {
	dx, dz := int64(bx-ax), int64(bz-az)
	return dx*dx + dz*dz
}

// emit outputs the triangle at positions a, b, c of the remaining polygon.
// A proper ear is strictly convex in cells and in stored positions (isEar);
// the last triangle and one found by the loose rule are checked, and
// dropped (counted in slivers) unless they are too.
func (t *triangulator) emit(a, b, c int, check bool) {
	if check {
		ax, az := t.pt(a)
		bx, bz := t.pt(b)
		cx, cz := t.pt(c)
		if !t.o.convex(ax, az, bx, bz, cx, cz) {
			t.slivers++
			return
		}
	}
	t.tris = append(t.tris, t.rem[a].v, t.rem[b].v, t.rem[c].v)
}

// setEar sets earD of the tip next(i) (isEar, then earDist).
func (t *triangulator) setEar(i, n int) {
	i1 := next(i, n)
	t.rem[i1].earD = -1
	if t.isEar(i, n) {
		t.rem[i1].earD = t.earDist(i1, n)
	}
}

// run triangulates vertices 0..n-1 (in t.xs, t.zs) and reports whether it
// completed. The triangles (vertex numbers) are in t.tris; on failure they
// are the ones found before the polygon could not be clipped further.
func (t *triangulator) run(n int) bool {
	t.tris = t.tris[:0]
	t.rem = t.rem[:0]
	for i := 0; i < n; i++ {
		t.rem = append(t.rem, remVert{earD: -1, x: t.xs[i], z: t.zs[i], v: i})
	}
	if n < 3 {
		return false
	}
	t.ox, t.oz = slices.Min(t.xs[:n]), slices.Min(t.zs[:n])
	t.wide = slices.Max(t.xs[:n])-t.ox > boxMax || slices.Max(t.zs[:n])-t.oz > boxMax
	for k := 0; k < n; k++ {
		t.setBox(k, n)
	}
	for i := 0; i < n; i++ {
		t.setEar(i, n)
	}
	for n > 3 {
		best := int64(-1)
		mini := -1
		loose := false
		// The shortest ear diagonal, ties to the smallest i (the vertex
		// before the tip): tips 1..n-1, then tip 0 (i = n-1). Each tip is
		// keyed distance<<16 | i and the smallest key taken (a branch-free
		// min); distances are below 2^34 and i below 2^16, and as unsigned
		// numbers the -1 of a tip that is no ear stays above every ear.
		rem := t.rem[:n]
		bk := uint64(rem[0].earD)<<16 | uint64(n-1)
		for i1 := 1; i1 < n; i1++ {
			bk = min(bk, uint64(rem[i1].earD)<<16|uint64(i1-1))
		}
		if bi := next(int(bk&0xffff), n); rem[bi].earD >= 0 {
			best, mini = rem[bi].earD, prev(bi, n)
		}
		if mini < 0 {
			// No proper ear (overlapping contour segments): accept a loose
			// diagonal, keyed like Recast by the distance from i to the
			// vertex after i+2.
			for i := 0; i < n; i++ {
				i2 := next(next(i, n), n)
				if !(t.inCone(i, i2, n, true) && t.diagonalie(i, i2, n, true)) {
					continue
				}
				p0x, p0z := t.pt(i)
				p2x, p2z := t.pt(next(i2, n))
				if d := dist2(p0x, p0z, p2x, p2z); best < 0 || d < best {
					best, mini = d, i
				}
			}
			if mini < 0 {
				return false
			}
			loose = true
		}
		i := mini
		i1 := next(i, n)
		i2 := next(i1, n)
		t.emit(i, i1, i2, loose)
		// Drop position i1.
		n--
		copy(t.rem[i1:], t.rem[i1+1:n+1])
		t.rem = t.rem[:n]
		if i1 >= n {
			i1 = 0
		}
		i = prev(i1, n)
		t.setBox(i, n) // its edge now ends at i1
		t.setEar(prev(i, n), n)
		t.setEar(i, n)
	}
	t.emit(0, 1, 2, true)
	return true
}
