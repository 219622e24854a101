package contour

import (
	"cmp"
	"slices"
)

// JoinLoops orders loops in place by smallest edge key (MinKey; a stable
// sort, so equal keys keep their order) and returns the contours (Recast's
// hole merging, see docs/contours.md):
//
//   - a loop with fewer than 3 simplified vertices makes no contour;
//   - a loop with IsHole false is an outline and makes a contour; if its
//     region has several outlines, the holes go to the last one in loop
//     order (Recast keeps the last outline it met);
//   - the holes of a region with an outline are joined to it one by one,
//     from the hole whose lowest (x, z) vertex comes first, each through the
//     shortest bridge from one of its vertices to an outline vertex that
//     crosses neither the outline nor a hole still to be joined;
//   - a hole not joined (no outline in its region, no bridge) stays a
//     contour of its own.
//
// Contours come in the order of their first loop. Each contour's Loops index
// into the (sorted) loops; Verts and RawVerts of a contour without holes
// share memory with its loop.
func JoinLoops(loops []Loop) []Contour {
	var s joinScratch // fresh: the contours share no memory with a later call
	return s.joinLoops(loops)
}

// joinScratch is the memory of JoinLoops, reusable: the contours of
// joinLoops live in it (their joined vertices in verts, their loop lists
// in loopIdx) until reset.
type joinScratch struct {
	kind       []int8
	kept       []int32
	joinedInto []int32
	merged     []int32 // per loop: 1 + its entry in outs, 0 none
	outs       []mergedOutline
	holes      []holeRef
	diags      []bridge
	contours   []Contour
	verts      []Vertex
	loopIdx    []int32
	keys       []int32
	perm       []int
	tmp        []Loop
}

// reset lets go of the contours made since the last reset: their memory
// is reused by the next joinLoops.
func (s *joinScratch) reset() {
	s.verts, s.loopIdx = s.verts[:0], s.loopIdx[:0]
}

// joinLoops is JoinLoops with s's memory: the contours it returns (in
// s.contours) are valid until the next joinLoops call, their vertices and
// loop lists until s.reset.
func (s *joinScratch) joinLoops(loops []Loop) []Contour {
	n := len(loops)
	s.sortLoops(loops)

	// Classify: 0 no contour, 1 outline, -1 hole.
	kind := slices.Grow(s.kind[:0], n)[:n]
	clear(kind)
	s.kind = kind
	kept := s.kept[:0]
	for i := range loops {
		switch {
		case len(loops[i].Simplified) < 3:
			continue
		case loops[i].IsHole():
			kind[i] = -1
		default:
			kind[i] = 1
		}
		kept = append(kept, int32(i))
	}
	s.kept = kept

	// Group by region (then loop order) to join holes.
	slices.SortFunc(kept, func(a, b int32) int {
		if c := cmp.Compare(loops[a].Region, loops[b].Region); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	joinedInto := slices.Grow(s.joinedInto[:0], n)[:n] // outline a hole was joined to, or -1
	s.joinedInto = joinedInto
	for i := range joinedInto {
		joinedInto[i] = -1
	}
	merged := slices.Grow(s.merged[:0], n)[:n] // per outline loop with holes joined
	clear(merged)
	s.merged = merged
	s.outs = s.outs[:0]
	for g := 0; g < len(kept); {
		e := g
		for e < len(kept) && loops[kept[e]].Region == loops[kept[g]].Region {
			e++
		}
		outline := int32(-1)
		holes := s.holes[:0]
		for _, i := range kept[g:e] {
			if kind[i] > 0 {
				outline = i
			} else {
				holes = append(holes, holeRef{loop: i})
			}
		}
		s.holes = holes
		if outline >= 0 && len(holes) > 0 {
			m := s.joinHoles(loops, outline, holes)
			for _, h := range m.loops[1:] {
				joinedInto[h] = outline
			}
			s.outs = append(s.outs, m)
			merged[outline] = int32(len(s.outs))
		}
		g = e
	}

	contours := slices.Grow(s.contours[:0], len(kept))
	for i := range loops {
		if kind[i] == 0 || joinedInto[i] >= 0 {
			continue
		}
		l := &loops[i]
		c := Contour{
			Verts:    l.Simplified[:len(l.Simplified):len(l.Simplified)],
			RawVerts: l.Raw[:len(l.Raw):len(l.Raw)],
			Region:   l.Region,
			Area:     l.Area,
		}
		if m := merged[i]; m > 0 {
			c.Verts = s.outs[m-1].verts
			c.Loops = s.outs[m-1].loops
		} else {
			st := len(s.loopIdx)
			s.loopIdx = append(s.loopIdx, int32(i))
			c.Loops = s.loopIdx[st : st+1 : st+1]
		}
		contours = append(contours, c)
	}
	s.contours = contours
	return contours
}

// sortLoops sorts loops stably by MinKey, computing each key once.
func (s *joinScratch) sortLoops(loops []Loop) {
	n := len(loops)
	keys := slices.Grow(s.keys[:0], n)[:n]
	s.keys = keys
	for i := range loops {
		keys[i] = loops[i].MinKey()
	}
	if slices.IsSorted(keys) {
		return
	}
	perm := slices.Grow(s.perm[:0], n)[:n]
	s.perm = perm
	for i := range perm {
		perm[i] = i
	}
	slices.SortStableFunc(perm, func(a, b int) int { return cmp.Compare(keys[a], keys[b]) })
	tmp := slices.Grow(s.tmp[:0], n)[:n]
	for i, p := range perm {
		tmp[i] = loops[p]
	}
	copy(loops, tmp)
	clear(tmp) // hold no loop's memory
	s.tmp = tmp
}

// holeRef is a hole to join: its loop, its lowest vertex in (x, z) order
// and the box of its vertices.
type holeRef struct {
	loop       int32
	minX, minZ int32
	leftmost   int
	box        xzBox
}

// xzBox is the box [x0, x1] x [z0, z1] of a loop's vertices in x and z;
// zeroEdge: the loop has an edge of zero length (two equal vertices in a
// row, which no simplified loop has, but a caller's loops may).
type xzBox struct {
	x0, x1, z0, z1 int32
	zeroEdge       bool
}

// boxOfLoop returns the box of the loop v (not empty).
func boxOfLoop(v []Vertex) xzBox {
	b := xzBox{v[0].X, v[0].X, v[0].Z, v[0].Z, sameXZ(v[0], v[len(v)-1])}
	for i, p := range v[1:] {
		b.x0, b.x1 = min(b.x0, p.X), max(b.x1, p.X)
		b.z0, b.z1 = min(b.z0, p.Z), max(b.z1, p.Z)
		b.zeroEdge = b.zeroEdge || sameXZ(p, v[i])
	}
	return b
}

// apart reports whether segCrossesLoop(d0, d1, v) is false for the loop v
// of box b by its box rule alone: d0-d1 has non-zero length, so has every
// edge of v, and the segment's box is apart from b, which holds every
// edge's box.
func (b xzBox) apart(d0, d1 Vertex) bool {
	return !b.zeroEdge && !sameXZ(d0, d1) && (max(d0.X, d1.X) < b.x0 || min(d0.X, d1.X) > b.x1 ||
		max(d0.Z, d1.Z) < b.z0 || min(d0.Z, d1.Z) > b.z1)
}

// mergedOutline is an outline with holes joined: the vertices and the loops
// (outline first, then the joined holes in join order).
type mergedOutline struct {
	verts []Vertex
	loops []int32
}

// bridge is a candidate outline vertex and its squared distance to the
// hole vertex.
type bridge struct {
	vert int
	dist int64
}

// joinHoles joins holes to the outline loop (Recast's mergeRegionHoles).
// The joined vertices and the loop list are at the ends of s.verts and
// s.loopIdx (a slice made before they grow keeps its memory).
func (s *joinScratch) joinHoles(loops []Loop, outline int32, holes []holeRef) mergedOutline {
	for k := range holes {
		hv := loops[holes[k].loop].Simplified
		lm := 0
		for j := 1; j < len(hv); j++ {
			if lexLess(hv[j].X, hv[j].Z, hv[lm].X, hv[lm].Z) {
				lm = j
			}
		}
		holes[k].leftmost = lm
		holes[k].minX, holes[k].minZ = hv[lm].X, hv[lm].Z
		holes[k].box = boxOfLoop(hv)
	}
	// Holes arrive in loop order; the stable sort keeps it among equals.
	slices.SortStableFunc(holes, func(a, b holeRef) int {
		if c := cmp.Compare(a.minX, b.minX); c != 0 {
			return c
		}
		return cmp.Compare(a.minZ, b.minZ)
	})

	ls := len(s.loopIdx)
	s.loopIdx = append(s.loopIdx, outline)
	verts := loops[outline].Simplified
	diags := s.diags
	for hi, h := range holes {
		hv := loops[h.loop].Simplified
		index := -1
		best := h.leftmost
		for iter := 0; iter < len(hv); iter++ {
			corner := hv[best]
			diags = diags[:0]
			for j := range verts {
				dx := int64(verts[j].X - corner.X)
				dz := int64(verts[j].Z - corner.Z)
				diags = append(diags, bridge{vert: j, dist: dx*dx + dz*dz})
			}
			// The outline vertices in the corner's cone, shortest first;
			// equal distances in outline vertex order (the order of a stable
			// sort by distance, taken one at a time: the first bridge tried
			// is usually free, so the cone is tested only on the vertices
			// taken).
			for tried := 0; tried < len(diags); tried++ {
				m := tried
				for k := tried + 1; k < len(diags); k++ {
					if diags[k].dist < diags[m].dist {
						m = k
					}
				}
				dg := diags[m]
				copy(diags[tried+1:m+1], diags[tried:m])
				diags[tried] = dg
				if !inCone(verts, dg.vert, corner) {
					continue
				}
				pt := verts[dg.vert]
				hit := segCrossesLoop(pt, corner, verts)
				// A hole whose box is apart from the bridge has no edge it
				// can meet (apart).
				for k := hi; k < len(holes) && !hit; k++ {
					hit = !holes[k].box.apart(pt, corner) &&
						segCrossesLoop(pt, corner, loops[holes[k].loop].Simplified)
				}
				if !hit {
					index = dg.vert
					break
				}
			}
			if index != -1 {
				break
			}
			best = (best + 1) % len(hv)
		}
		if index == -1 {
			continue // stays a contour of its own
		}
		vs := len(s.verts)
		s.verts = appendClosed(s.verts, verts, index)
		s.verts = appendClosed(s.verts, hv, best)
		verts = s.verts[vs:len(s.verts):len(s.verts)]
		s.loopIdx = append(s.loopIdx, h.loop)
	}
	s.diags = diags
	out := mergedOutline{loops: s.loopIdx[ls:len(s.loopIdx):len(s.loopIdx)]}
	out.verts = verts[:len(verts):len(verts)]
	return out
}

// area2 returns (b−a)×(c−a) in the x-z plane: (bx−ax)(cz−az) − (cx−ax)(bz−az).
func area2(a, b, c Vertex) int64 {
	return int64(b.X-a.X)*int64(c.Z-a.Z) - int64(c.X-a.X)*int64(b.Z-a.Z)
}

// appendClosed appends to dst the loop v from vertex start round to start
// again (len(v)+1 vertices) and returns dst.
func appendClosed(dst, v []Vertex, start int) []Vertex {
	return append(append(dst, v[start:]...), v[:start+1]...)
}

// left is Recast's strict side test: area2(a, b, c) < 0.
func left(a, b, c Vertex) bool { return area2(a, b, c) < 0 }

// leftOn is left or collinear.
func leftOn(a, b, c Vertex) bool { return area2(a, b, c) <= 0 }

func collinear(a, b, c Vertex) bool { return area2(a, b, c) == 0 }

func sameXZ(a, b Vertex) bool { return a.X == b.X && a.Z == b.Z }

// properCross reports whether ab and cd cross at a point inside both.
func properCross(a, b, c, d Vertex) bool {
	if collinear(a, b, c) || collinear(a, b, d) || collinear(c, d, a) || collinear(c, d, b) {
		return false
	}
	return (left(a, b, c) != left(a, b, d)) && (left(c, d, a) != left(c, d, b))
}

// between reports whether c is on the closed segment ab (collinear, and
// within it along x, or along z when ab is vertical in x).
func between(a, b, c Vertex) bool {
	if !collinear(a, b, c) {
		return false
	}
	if a.X != b.X {
		return (a.X <= c.X && c.X <= b.X) || (a.X >= c.X && c.X >= b.X)
	}
	return (a.Z <= c.Z && c.Z <= b.Z) || (a.Z >= c.Z && c.Z >= b.Z)
}

// segsIntersect reports whether the closed segments ab and cd meet.
func segsIntersect(a, b, c, d Vertex) bool {
	return properCross(a, b, c, d) || between(a, b, c) || between(a, b, d) || between(c, d, a) || between(c, d, b)
}

// segCrossesLoop reports whether segment d0-d1 meets an edge of the loop v
// that has no end equal (in x and z) to d0 or d1.
func segCrossesLoop(d0, d1 Vertex, v []Vertex) bool {
	// Two segments of non-zero length whose boxes are apart do not meet
	// (segsIntersect's rules compare one coordinate only for a segment of
	// zero length, so those skip the box test).
	minX, maxX := min(d0.X, d1.X), max(d0.X, d1.X)
	minZ, maxZ := min(d0.Z, d1.Z), max(d0.Z, d1.Z)
	box := !sameXZ(d0, d1)
	for k := range v {
		p0, p1 := v[k], v[0]
		if k+1 < len(v) {
			p1 = v[k+1]
		}
		if box && (max(p0.X, p1.X) < minX || min(p0.X, p1.X) > maxX || max(p0.Z, p1.Z) < minZ || min(p0.Z, p1.Z) > maxZ) &&
			!sameXZ(p0, p1) {
			continue
		}
		if sameXZ(d0, p0) || sameXZ(d1, p0) || sameXZ(d0, p1) || sameXZ(d1, p1) {
			continue
		}
		if segsIntersect(d0, d1, p0, p1) {
			return true
		}
	}
	return false
}

// inCone reports whether p lies in the interior angle of the loop v at
// vertex i (between the edges to its neighbours), Recast's inCone.
func inCone(v []Vertex, i int, p Vertex) bool {
	pi, next, prev := v[i], v[nextRaw(i, len(v))], v[len(v)-1]
	if i > 0 {
		prev = v[i-1]
	}
	if leftOn(prev, pi, next) { // convex vertex
		return left(pi, p, prev) && left(p, pi, next)
	}
	return !(leftOn(pi, p, next) && leftOn(p, pi, prev))
}
