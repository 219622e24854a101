package contour

import (
	"fmt"
	"slices"
)

// MinKey returns the loop's smallest edge key (-1 for a loop without
// edges). After RotateLoop it is Keys[0].
func (l *Loop) MinKey() int32 {
	if l == nil || len(l.Keys) == 0 {
		return -1
	}
	return slices.Min(l.Keys)
}

// RotateLoop rotates l.Raw and l.Keys together so that the loop starts at
// its smallest edge key: where a scan of the layer in edge-key order starts
// its trace. The simplification depends on where a loop starts, so rotate
// before SimplifyLoop. It works in place; a loop already in place is
// unchanged (so the loops of a Set are safe to pass); Simplified is never
// touched.
func RotateLoop(l *Loop) {
	n := len(l.Keys)
	if n == 0 || len(l.Raw) != n {
		return
	}
	m, least := 0, l.Keys[0]
	for k, key := range l.Keys {
		if key < least {
			m, least = k, key
		}
	}
	if m == 0 {
		return
	}
	rotateLeft(l.Raw, m)
	rotateLeft(l.Keys, m)
}

// rotateLeft moves s[m] to s[0] keeping the cyclic order, in place: the
// shorter side through a small buffer when it fits (three block moves),
// else by three reversals.
func rotateLeft[T any](s []T, m int) {
	var buf [32]T
	switch n := len(s); {
	case m <= len(buf) && m <= n-m:
		copy(buf[:], s[:m])
		copy(s, s[m:])
		copy(s[n-m:], buf[:m])
	case n-m <= len(buf):
		copy(buf[:], s[m:])
		copy(s[n-m:], s[:m])
		copy(s, buf[:n-m])
	default:
		slices.Reverse(s[:m])
		slices.Reverse(s[m:])
		slices.Reverse(s)
	}
}

// SignedArea2 returns twice the signed area of the simplified loop in the
// x-z plane, positive for an outline (counter-clockwise seen from above) and
// negative for a hole: the sum over vertices i (j the vertex before i) of
// Xi·Zj − Xj·Zi, in 64-bit integers.
func (l *Loop) SignedArea2() int64 {
	if l == nil {
		return 0
	}
	return signedArea2(l.Simplified)
}

// IsHole reports whether the simplified loop is a hole: it has at least 3
// vertices and SignedArea2 < 0. (Recast tests (area2+1)/2 < 0, which takes a
// one-cell hole, area2 = -2, for an outline; see docs/contours.md.) A loop
// with fewer than 3 simplified vertices is neither an outline nor a hole (it
// makes no contour).
func (l *Loop) IsHole() bool {
	return l != nil && len(l.Simplified) >= 3 && l.SignedArea2() < 0
}

func signedArea2(v []Vertex) int64 {
	var a int64
	for i, j := 0, len(v)-1; i < len(v); j, i = i, i+1 {
		a += int64(v[i].X)*int64(v[j].Z) - int64(v[j].X)*int64(v[i].Z)
	}
	return a
}

// checkSimplifyParams validates the simplification parameters.
func checkSimplifyParams(maxErrorCells float32, maxEdgeLenCells int, flags BuildFlags) error {
	if !(maxErrorCells >= 0 && maxErrorCells <= MaxErrorCells) {
		return fmt.Errorf("contour: max error %v cells, want a finite number in 0..%d", maxErrorCells, MaxErrorCells)
	}
	if maxEdgeLenCells < 0 || maxEdgeLenCells > MaxEdgeLenCells {
		return fmt.Errorf("contour: max edge length %d cells, want 0..%d", maxEdgeLenCells, MaxEdgeLenCells)
	}
	if flags&^allBuildFlags != 0 {
		return fmt.Errorf("contour: unknown build flags %#x", uint8(flags&^allBuildFlags))
	}
	return nil
}

// SimplifyLoop sets l.Simplified from l.Raw and l.Keys (Recast's
// simplifyContour then removeDegenerateSegments, see docs/contours.md): the
// mandatory vertices where the neighbour region, the area-border bit or the
// side of the tile border changes (or, on a loop
// with no neighbour region at all, its lowest and highest vertex in (x, z)
// order); then, segment by segment, the raw vertex farthest from a wall or
// area-border segment while farther than maxErrorCells; then, with the
// flags' TessWallEdges / TessAreaEdges, the middle raw vertex of segments
// longer than maxEdgeLenCells (0: no splitting); then the flags of each kept
// vertex from its raw edge; then adjacent vertices equal in x and z merged.
//
// The result depends on where the raw loop starts: call RotateLoop first.
// l.Simplified is replaced by new memory (never written in place).
func SimplifyLoop(l *Loop, maxErrorCells float32, maxEdgeLenCells int, flags BuildFlags) error {
	if err := checkSimplifyParams(maxErrorCells, maxEdgeLenCells, flags); err != nil {
		return err
	}
	if len(l.Keys) != len(l.Raw) {
		return fmt.Errorf("contour: loop with %d raw vertices and %d edge keys", len(l.Raw), len(l.Keys))
	}
	// New memory: the old Simplified may be shared with a contour.
	l.Simplified = simplify(l.Raw, l.Keys, maxErrorCells, maxEdgeLenCells, flags, nil, nil)
	return nil
}

// edgeClass returns what must stay constant along a simplified segment for
// the raw edge that emitted raw[k]: its neighbour region and AreaBorder bit
// (Recast), and for an edge facing the tile border (neighbour region with
// region.BorderFlag) also its direction, that is the side of the tile, so
// that a tile corner is always kept even when one border region surrounds
// the tile. Without keys the side is not known and not used.
func edgeClass(raw []Vertex, keys []int32, k int) uint32 {
	f := raw[k].Flags
	c := f & (RegionMask | AreaBorder)
	if f&borderFlag != 0 && k < len(keys) {
		c |= uint32(keys[k]&3+1) << 20
	}
	return c
}

// lexLess reports whether (ax, az) comes before (bx, bz) in x-then-z order.
func lexLess(ax, az, bx, bz int32) bool {
	return ax < bx || (ax == bx && az < bz)
}

// simplify appends the simplified form of raw to dst and returns it;
// scratch (may be nil) keeps the buffer of raw indices between calls.
func simplify(raw []Vertex, keys []int32, maxError float32, maxEdgeLen int, flags BuildFlags, scratch *[]int32, dst []Vertex) []Vertex {
	pn := len(raw)
	if pn == 0 {
		return dst
	}
	var idx []int32
	if scratch != nil {
		idx = (*scratch)[:0]
		defer func() { *scratch = idx }()
	}

	// Mandatory vertices: where the class of the edge ending at a raw vertex
	// differs from that of the next edge.
	connected := false
	for _, v := range raw {
		if v.Flags&RegionMask != 0 {
			connected = true
			break
		}
	}
	if connected {
		c0 := edgeClass(raw, keys, 0)
		c := c0
		for i := 0; i < pn; i++ {
			next := c0
			if i+1 < pn {
				next = edgeClass(raw, keys, i+1)
			}
			if c != next {
				idx = append(idx, int32(i))
			}
			c = next
		}
	}
	if len(idx) == 0 {
		lo, hi := 0, 0
		for i, v := range raw {
			if lexLess(v.X, v.Z, raw[lo].X, raw[lo].Z) {
				lo = i
			}
			if lexLess(raw[hi].X, raw[hi].Z, v.X, v.Z) {
				hi = i
			}
		}
		idx = append(idx, int32(lo), int32(hi))
	}

	// Refine by the max error: only segments whose first raw edge (in the
	// traversal below) is a wall or an area border are refined. Each
	// segment is traversed from its (x, z)-lower end so that the two sides
	// of a shared edge pick the same vertex.
	maxErr2 := float32(maxError * maxError)
	for i := 0; i < len(idx); {
		ii := nextRaw(i, len(idx))
		ai, bi := int(idx[i]), int(idx[ii])
		ax, az := raw[ai].X, raw[ai].Z
		bx, bz := raw[bi].X, raw[bi].Z
		var ci, step, end int
		if lexLess(ax, az, bx, bz) {
			step, ci, end = 1, nextRaw(ai, pn), bi
		} else {
			step, ci, end = pn-1, bi-1, ai
			if ci < 0 {
				ci = pn - 1
			}
			ax, az, bx, bz = bx, bz, ax, az
		}
		maxd := float32(0)
		maxi := -1
		if f := raw[ci].Flags; f&RegionMask == 0 || f&AreaBorder != 0 {
			sg := newSeg(ax, az, bx, bz)
			for ci != end {
				d := sg.distSq(raw[ci].X, raw[ci].Z)
				if d > maxd {
					maxd, maxi = d, ci
				}
				if ci += step; ci >= pn {
					ci -= pn
				}
			}
		}
		// len(idx) < pn always holds for a real loop (kept vertices are
		// distinct raw vertices); it bounds the work on a degenerate one.
		if maxi != -1 && maxd > maxErr2 && len(idx) < pn {
			idx = slices.Insert(idx, i+1, int32(maxi))
		} else {
			i++
		}
	}

	// Split long edges at the middle raw vertex, rounding by the segment's
	// (x, z) order so that both sides of an edge split alike.
	if maxEdgeLen > 0 && flags&(TessWallEdges|TessAreaEdges) != 0 {
		maxLen2 := int64(maxEdgeLen) * int64(maxEdgeLen)
		for i := 0; i < len(idx); {
			ii := nextRaw(i, len(idx))
			ai, bi := int(idx[i]), int(idx[ii])
			ax, az := raw[ai].X, raw[ai].Z
			bx, bz := raw[bi].X, raw[bi].Z
			maxi := -1
			f := raw[nextRaw(ai, pn)].Flags
			tess := (flags&TessWallEdges != 0 && f&RegionMask == 0) ||
				(flags&TessAreaEdges != 0 && f&AreaBorder != 0)
			if tess {
				dx, dz := int64(bx-ax), int64(bz-az)
				if dx*dx+dz*dz > maxLen2 {
					n := bi - ai
					if bi < ai {
						n += pn
					}
					if n > 1 {
						if lexLess(ax, az, bx, bz) {
							maxi = (ai + n/2) % pn
						} else {
							maxi = (ai + (n+1)/2) % pn
						}
					}
				}
			}
			if maxi != -1 && len(idx) < pn {
				idx = slices.Insert(idx, i+1, int32(maxi))
			} else {
				i++
			}
		}
	}

	// Flags: neighbour region and area border of the raw edge that starts
	// at the vertex (the next raw vertex's), border bit of the vertex's own.
	start := len(dst)
	for _, k := range idx {
		v := raw[k]
		next := raw[nextRaw(int(k), pn)].Flags
		v.Flags = next&(RegionMask|AreaBorder) | raw[k].Flags&BorderVertex
		dst = append(dst, v)
	}
	return dst[:start+removeDegenerate(dst[start:])]
}

// distPtSegSq returns the squared distance in float32 from (x, z) to the
// segment p-q, as Recast's distancePtSeg: t = clamp((pq·pd)/|pq|², 0, 1)
// (no division when |pq|² is 0), then the squared length of p + t·pq − pt.
// Every product is rounded to float32 before it is summed (no fused
// multiply-add).
func distPtSegSq(x, z, px, pz, qx, qz int32) float32 {
	sg := newSeg(px, pz, qx, qz)
	return sg.distSq(x, z)
}

// seg is a segment p-q with what distPtSegSq computes of it alone (the
// same float32 values for every point).
type seg struct {
	px, pz   int32
	pqx, pqz float32
	d        float32 // |pq|²
}

func newSeg(px, pz, qx, qz int32) seg {
	pqx, pqz := float32(qx-px), float32(qz-pz)
	return seg{px, pz, pqx, pqz, float32(pqx*pqx) + float32(pqz*pqz)}
}

// distSq is distPtSegSq of (x, z) to the segment.
func (sg *seg) distSq(x, z int32) float32 {
	dx := float32(x - sg.px)
	dz := float32(z - sg.pz)
	t := float32(sg.pqx*dx) + float32(sg.pqz*dz)
	if sg.d > 0 {
		t /= sg.d
	}
	if t < 0 {
		t = 0
	} else if t > 1 {
		t = 1
	}
	dx = float32(float32(sg.px)+float32(t*sg.pqx)) - float32(x)
	dz = float32(float32(sg.pz)+float32(t*sg.pqz)) - float32(z)
	return float32(dx*dx) + float32(dz*dz)
}

// removeDegenerate removes, in place, every vertex equal in x and z to the
// vertex after it (cyclically), keeping the later one; it scans from the
// first vertex and re-tests a position after a removal, so runs of equal
// vertices collapse to one. It returns the new length.
func removeDegenerate(v []Vertex) int {
	n := len(v)
	for i := 0; i < n && n > 1; {
		j := i + 1
		if j == n {
			j = 0
		}
		if v[i].X == v[j].X && v[i].Z == v[j].Z {
			copy(v[i:], v[i+1:n])
			n--
		} else {
			i++
		}
	}
	return n
}

// nextRaw returns i+1 wrapped to 0 at n (i in 0..n-1): the next vertex of
// a loop of n, without a division.
func nextRaw(i, n int) int {
	if i+1 == n {
		return 0
	}
	return i + 1
}
