package level

import (
	"math"
	"slices"
	"sort"

	"navviz/core/geom"
)

// This file holds what the generated levels (city.go, terrain.go) share: a
// seeded PRNG of our own, a small float64 vocabulary written so that no
// multiply-add can be fused, and meshBuilder, which emits closed boxes, floors
// with holes, ramps and stairs as indexed triangles.
//
// Winding: every face is emitted counter-clockwise seen from the side it faces,
// so the Recast normal cross(v1-v0, v2-v0) points out of the solid; an
// up-facing floor has a normal with y > 0.
//
// Determinism: every product that feeds a sum is wrapped in float64(...), which
// the Go spec forbids fusing, and so is every product a small function returns
// (inlined, it would feed its caller's sum) and every division by a power of
// two (x/2 compiles to x*0.5); the only math functions used are Floor, Ceil and
// Sqrt, which are exact (correctly rounded) on every platform.
// core/geom's TestNoFusedMultiplyAdd checks the compiled code.

// rng is splitmix64 (Steele, Lea, Flood 2014): a 64-bit counter passed
// through a mixing function. Its stream depends only on the seed, never on the
// Go version (unlike math/rand).
type rng struct{ state uint64 }

func newRNG(seed uint64) *rng { return &rng{state: seed} }

// mix64 is the splitmix64 finaliser, a bijection on uint64 with good avalanche.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// next returns the next 64 random bits.
func (r *rng) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	return mix64(r.state)
}

// float returns a uniform value in [0, 1) with 53 random bits.
func (r *rng) float() float64 { return float64(float64(r.next()>>11) * 0x1p-53) }

// intn returns a value in [0, n); n <= 0 gives 0. The modulo bias (< n/2^64)
// is irrelevant for level layout.
func (r *rng) intn(n int) int {
	if n <= 0 {
		return 0
	}
	return int(r.next() % uint64(n))
}

// chance reports true with probability p.
func (r *rng) chance(p float64) bool { return r.float() < p }

// lerp returns a + (b-a)*t without a fusable multiply-add.
func lerp(a, b, t float64) float64 { return a + float64((b-a)*t) }

// smoothstep is 3t²-2t³ for t clamped to [0, 1].
func smoothstep(t float64) float64 {
	t = min(max(t, 0), 1)
	return float64(float64(t*t) * (3 - float64(2*t)))
}

// rect is an axis-aligned rectangle in a horizontal plane: world x/z, or a
// frame's a/s coordinates (x0,x1 along a; z0,z1 along s).
type rect struct{ x0, z0, x1, z1 float64 }

// inset returns r shrunk by d on every side (grown when d < 0).
func (r rect) inset(d float64) rect { return rect{r.x0 + d, r.z0 + d, r.x1 - d, r.z1 - d} }

func (r rect) w() float64 { return r.x1 - r.x0 }
func (r rect) d() float64 { return r.z1 - r.z0 }

// cx and cz return the centre.
func (r rect) cx() float64 { return float64((r.x0 + r.x1) / 2) }
func (r rect) cz() float64 { return float64((r.z0 + r.z1) / 2) }

// contains reports whether (x, z) is strictly inside r.
func (r rect) contains(x, z float64) bool { return x > r.x0 && x < r.x1 && z > r.z0 && z < r.z1 }

// overlaps reports whether r and o share interior area.
func (r rect) overlaps(o rect) bool {
	return r.x0 < o.x1 && o.x0 < r.x1 && r.z0 < o.z1 && o.z0 < r.z1
}

// centered returns the w × d rectangle centred on (x, z).
func centered(x, z, w, d float64) rect {
	hw, hd := float64(w/2), float64(d/2)
	return rect{x - hw, z - hd, x + hw, z + hd}
}

// frame places local coordinates (a, h, s) in the world: a runs along the
// horizontal direction dir, h is up, s is across, with s = a × h so that the
// local axes are right-handed like the world's (x, y, z) and local windings
// keep their meaning. dir 0 is +x (s = +z), 1 is +z (s = -x), 2 is -x (s = -z),
// 3 is -z (s = +x). Only additions and sign changes: no rounding beyond the sum.
type frame struct {
	x, y, z float64 // origin in metres
	dir     int
}

// world is the identity frame: a = x, h = y, s = z.
var world = frame{}

// at maps local (a, h, s) to a world position.
func (f frame) at(a, h, s float64) geom.Vec3 {
	x, z := f.x, f.z
	switch f.dir & 3 {
	case 0:
		x, z = x+a, z+s
	case 1:
		x, z = x-s, z+a
	case 2:
		x, z = x-a, z-s
	default:
		x, z = x+s, z-a
	}
	return geom.Vec3{X: float32(x), Y: float32(f.y + h), Z: float32(z)}
}

// divide returns n+1 evenly spaced values from v0 to v1 (both exact), with n
// the fewest pieces no longer than cell (at least one).
func divide(v0, v1, cell float64) []float64 {
	n := 1
	if cell > 0 {
		n = max(1, int(math.Ceil((v1-v0)/cell-1e-9)))
	}
	out := make([]float64, n+1)
	for k := range n {
		out[k] = lerp(v0, v1, float64(k)/float64(n))
	}
	out[n] = v1
	return out
}

// divideAt is divide with extra cut values (hole edges) forced in; even lines
// closer than cell/4 to a cut are dropped so that no sliver cell appears, and
// values equal in float32 are merged so that no cell is degenerate.
func divideAt(v0, v1, cell float64, cuts []float64) []float64 {
	out := []float64{v0, v1}
	for _, c := range cuts {
		if c > v0 && c < v1 {
			out = append(out, c)
		}
	}
	forced := len(out)
	even := divide(v0, v1, cell)
	for _, u := range even[1 : len(even)-1] {
		keep := true
		for _, c := range out[:forced] {
			if math.Abs(u-c) < cell/4 {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, u)
		}
	}
	sort.Float64s(out)
	k := 1
	for _, u := range out[1:] {
		if float32(u) != float32(out[k-1]) {
			out[k] = u
			k++
		}
	}
	return out[:k]
}

// meshBuilder accumulates an indexed triangle soup.
type meshBuilder struct {
	verts []geom.Vec3
	tris  [][3]int32
}

func (b *meshBuilder) vert(p geom.Vec3) int32 {
	b.verts = append(b.verts, p)
	return int32(len(b.verts) - 1)
}

func (b *meshBuilder) tri(i, j, k int32) { b.tris = append(b.tris, [3]int32{i, j, k}) }

// soup returns the accumulated triangles, every one AreaWalkable (the build
// decides walkability from the slope). The vertices and triangles are
// copied to slices of their exact length (appending left up to a quarter
// of spare room, kept as long as the level is) and the builder emptied.
func (b *meshBuilder) soup() *Soup {
	areas := make([]uint8, len(b.tris))
	for i := range areas {
		areas[i] = AreaWalkable
	}
	s := &Soup{Verts: slices.Clone(b.verts), Tris: slices.Clone(b.tris), Areas: areas}
	b.verts, b.tris = nil, nil
	return s
}

// sheet emits a grid of quads: at(i, j) is the vertex where line i of the
// first family meets line j of the second (0 <= i <= nu, 0 <= j <= nv). Quad
// (i, j) has corners at(i,j), at(i+1,j), at(i+1,j+1), at(i,j+1) and faces
// the side of ∂at/∂i × ∂at/∂j. Quads with skip(i, j) true are left out (skip
// may be nil); vertices are shared inside the sheet and made only when used.
func (b *meshBuilder) sheet(nu, nv int, at func(i, j int) geom.Vec3, skip func(i, j int) bool) {
	idx := make([]int32, (nu+1)*(nv+1))
	for k := range idx {
		idx[k] = -1
	}
	get := func(i, j int) int32 {
		k := i*(nv+1) + j
		if idx[k] < 0 {
			idx[k] = b.vert(at(i, j))
		}
		return idx[k]
	}
	for i := range nu {
		for j := range nv {
			if skip != nil && skip(i, j) {
				continue
			}
			p00, p10, p11, p01 := get(i, j), get(i+1, j), get(i+1, j+1), get(i, j+1)
			b.tri(p00, p10, p11)
			b.tri(p00, p11, p01)
		}
	}
}

// poly fans the convex polygon ps (counter-clockwise seen from its front),
// dropping repeated corners first, so a quad with two equal corners becomes
// a triangle rather than a degenerate one.
func (b *meshBuilder) poly(ps ...geom.Vec3) {
	var q []geom.Vec3
	for i, p := range ps {
		if p != ps[(i+len(ps)-1)%len(ps)] {
			q = append(q, p)
		}
	}
	if len(q) < 3 {
		return
	}
	first := b.vert(q[0])
	prev := b.vert(q[1])
	for _, p := range q[2:] {
		cur := b.vert(p)
		b.tri(first, prev, cur)
		prev = cur
	}
}

// floor emits the up-facing plane h of frame f over r (in a/s coordinates),
// in cells of at most cell metres, leaving out the cells inside holes; the
// cell lines pass through every hole edge so holes are cut exactly.
func (b *meshBuilder) floor(f frame, r rect, h, cell float64, holes []rect) {
	var ca, cs []float64
	for _, o := range holes {
		ca = append(ca, o.x0, o.x1)
		cs = append(cs, o.z0, o.z1)
	}
	as := divideAt(r.x0, r.x1, cell, ca)
	ss := divideAt(r.z0, r.z1, cell, cs)
	var skip func(i, j int) bool
	if len(holes) > 0 {
		skip = func(i, j int) bool {
			ma, ms := (as[j]+as[j+1])/2, (ss[i]+ss[i+1])/2
			for _, o := range holes {
				if o.contains(ma, ms) {
					return true
				}
			}
			return false
		}
	}
	// ∂/∂i = +s, ∂/∂j = +a, and s × a = +h: up-facing.
	b.sheet(len(ss)-1, len(as)-1, func(i, j int) geom.Vec3 { return f.at(as[j], h, ss[i]) }, skip)
}

// faces selects the faces of a box.
type faces uint8

const (
	faceTop faces = 1 << iota
	faceBottom
	faceSides
	faceAll = faceTop | faceBottom | faceSides
)

// cuboid is a box in a frame's local coordinates, metres.
type cuboid struct{ a0, a1, h0, h1, s0, s1 float64 }

// box emits the chosen faces of c in frame f, facing outwards. Sides are cut
// into panels at most cellH wide and cellV high, the top into cells of at most
// cellH with holes cut out (for what stands on it); the bottom, never seen nor
// walked on, is one quad.
func (b *meshBuilder) box(f frame, c cuboid, cellH, cellV float64, which faces, topHoles []rect) {
	if which&faceTop != 0 {
		b.floor(f, rect{c.a0, c.s0, c.a1, c.s1}, c.h1, cellH, topHoles)
	}
	if which&faceBottom != 0 {
		b.poly(f.at(c.a0, c.h0, c.s0), f.at(c.a1, c.h0, c.s0), f.at(c.a1, c.h0, c.s1), f.at(c.a0, c.h0, c.s1))
	}
	if which&faceSides == 0 {
		return
	}
	as := divide(c.a0, c.a1, cellH)
	ss := divide(c.s0, c.s1, cellH)
	hs := divide(c.h0, c.h1, cellV)
	na, ns, nh := len(as)-1, len(ss)-1, len(hs)-1
	// +a: h × s = +a.
	b.sheet(nh, ns, func(i, j int) geom.Vec3 { return f.at(c.a1, hs[i], ss[j]) }, nil)
	// -a: s × h = -a.
	b.sheet(ns, nh, func(i, j int) geom.Vec3 { return f.at(c.a0, hs[j], ss[i]) }, nil)
	// +s: a × h = +s.
	b.sheet(na, nh, func(i, j int) geom.Vec3 { return f.at(as[i], hs[j], c.s1) }, nil)
	// -s: h × a = -s.
	b.sheet(nh, na, func(i, j int) geom.Vec3 { return f.at(as[j], hs[i], c.s0) }, nil)
}

// ramp emits a solid wedge in frame f that climbs along +a from height 0 at
// a = 0 to rise at a = run, across s in [s0, s1]: the sloped top (cells of at
// most cell), both sides and the high end. No bottom: it stands on a floor.
// Its slope is atan(rise/run).
func (b *meshBuilder) ramp(f frame, run, rise, s0, s1, cell float64) {
	as := divide(0, run, cell)
	ss := divide(s0, s1, cell)
	hs := make([]float64, len(as))
	for k, a := range as {
		hs[k] = float64(rise*a) / run
	}
	hs[len(hs)-1] = rise
	// Top: ∂/∂i = +s, ∂/∂j = +a with rise, so the normal points up and back.
	b.sheet(len(ss)-1, len(as)-1, func(i, j int) geom.Vec3 { return f.at(as[j], hs[j], ss[i]) }, nil)
	for j := range len(as) - 1 {
		a0, a1, h0, h1 := as[j], as[j+1], hs[j], hs[j+1]
		b.poly(f.at(a0, 0, s1), f.at(a1, 0, s1), f.at(a1, h1, s1), f.at(a0, h0, s1))
		b.poly(f.at(a0, 0, s0), f.at(a0, h0, s0), f.at(a1, h1, s0), f.at(a1, 0, s0))
	}
	end := divide(0, rise, cell)
	b.sheet(len(end)-1, len(ss)-1, func(i, j int) geom.Vec3 { return f.at(run, end[i], ss[j]) }, nil)
}

// stairs emits a solid flight of n steps in frame f climbing along +a: step k
// (from 0) has its tread at height (k+1)·rise/n over a in [k·tread,
// (k+1)·tread], across s in [s0, s1]; treads are cut every cell metres
// across. Risers, the stepped sides and the back are closed; no bottom. Each
// step is rise/n high, which must stay below the agent's climb.
func (b *meshBuilder) stairs(f frame, n int, tread, rise, s0, s1, cell float64) {
	if n < 1 {
		return
	}
	hAt := func(k int) float64 {
		if k == n {
			return rise
		}
		return float64(rise*float64(k)) / float64(n)
	}
	aAt := func(k int) float64 { return float64(tread * float64(k)) }
	ss := divide(s0, s1, cell)
	for k := range n {
		a0, a1, h0, h1 := aAt(k), aAt(k+1), hAt(k), hAt(k+1)
		// Riser, facing -a: s × h = -a.
		riser := [2]float64{h0, h1}
		b.sheet(len(ss)-1, 1, func(i, j int) geom.Vec3 { return f.at(a0, riser[j], ss[i]) }, nil)
		b.floor(f, rect{a0, s0, a1, s1}, h1, cell, nil)
		b.poly(f.at(a0, 0, s1), f.at(a1, 0, s1), f.at(a1, h1, s1), f.at(a0, h1, s1))
		b.poly(f.at(a0, 0, s0), f.at(a0, h1, s0), f.at(a1, h1, s0), f.at(a1, 0, s0))
	}
	// Back, facing +a: h × s = +a.
	end := divide(0, rise, cell)
	top := aAt(n)
	b.sheet(len(end)-1, len(ss)-1, func(i, j int) geom.Vec3 { return f.at(top, end[i], ss[j]) }, nil)
}
