package render

import (
	"image/color"
	"math"

	"navviz/core/geom"
)

// ScreenVertex is a vertex after projection and clipping: a position in
// pixels of the viewport (origin top-left, y down), a depth key for a depth
// buffer, the depth in metres and the colour. ProjectTris, ProjectLines and
// ProjectPoints produce them; the software rasterizer and the GUI draw them.
type ScreenVertex struct {
	XPx, YPx float64
	// Z is the depth-buffer key z/w of clip space (see Mat4): 0 at the near
	// plane, increasing away from the viewer, and affine in screen space, so
	// it may be interpolated linearly in pixels across a triangle.
	Z float64
	// DepthM is the distance in metres from the eye along the viewing
	// direction (Camera.Project returns it). It may be
	// negative in orthographic mode, whose depth range starts behind the eye.
	DepthM float64
	Col    color.RGBA
}

// GuardBandPx is how far outside the viewport (in pixels, on each side)
// projected geometry may reach before it is clipped. Clipping happens off
// screen, so it cannot change what is drawn, and it keeps screen
// coordinates within [−GuardBandPx, size+GuardBandPx].
const GuardBandPx = 2048

// clipVert is a vertex in homogeneous clip space plus its depth in metres.
type clipVert struct {
	x, y, z, w, d float64
	col           color.RGBA
}

// Plane indices for outcodes; a vertex is inside plane k when dist(k) ≥ 0.
const (
	planeNear = iota
	planeFar
	planeGuardLeft
	planeGuardRight
	planeGuardBottom
	planeGuardTop
	numClipPlanes
)

// Bits above the clip planes: outside the viewport (trivial reject only).
const (
	outViewLeft   = 1 << (numClipPlanes + iota)
	outViewRight  = 1 << (numClipPlanes + iota)
	outViewBottom = 1 << (numClipPlanes + iota)
	outViewTop    = 1 << (numClipPlanes + iota)
	clipMask      = 1<<numClipPlanes - 1
)

// projector holds everything needed to take world vertices to the screen for
// one camera and viewport; every path (Project, ProjectTris, ProjectLines,
// ProjectPoints, Rasterize) goes through it.
type projector struct {
	m            Mat4
	depthRow     [4]float64 // depth in metres = depthRow · (p, 1)
	halfWPx      float64
	halfHPx      float64
	gx, gy       float64 // guard band as multiples of w
	ortho        bool
	lineBiasRel  float64 // perspective: relative depth bias of lines/points
	lineBiasKeyO float64 // orthographic: depth-key bias of lines/points
}

// LineDepthBiasPx is the depth bias of lines and points in the software
// rasterizer, in pixel footprints at the fragment's depth: a line lying on a
// surface wins the depth test against it even where the surface slopes away.
const LineDepthBiasPx = 2

func (c Camera) projector(wPx, hPx int) *projector {
	c = c.sanitized()
	w, h := max(wPx, 1), max(hPx, 1)
	p := &projector{
		m:       c.ViewProj(w, h),
		halfWPx: float64(w) / 2,
		halfHPx: float64(h) / 2,
		ortho:   c.Ortho,
	}
	p.gx = 1 + GuardBandPx/p.halfWPx
	p.gy = 1 + GuardBandPx/p.halfHPx
	eye, _, _, fwd := c.basis()
	p.depthRow = [4]float64{fwd[0], fwd[1], fwd[2], -dot3(fwd, eye)}
	footRel := 2 * c.tanHalfFov() / float64(h) // metres per pixel per metre of depth
	if c.Ortho {
		nearM, farM := c.depthRangeM()
		p.lineBiasKeyO = LineDepthBiasPx * footRel * c.DistanceM / (farM - nearM)
	} else {
		p.lineBiasRel = min(LineDepthBiasPx*footRel, 0.5)
	}
	return p
}

func (p *projector) clip(v geom.Vec3) clipVert {
	// Mat4.MulPoint written out on p.m in place (the call copied the
	// matrix); the same operations in the same order.
	x, y, z := float64(v.X), float64(v.Y), float64(v.Z)
	m := &p.m
	r := &p.depthRow
	return clipVert{
		x: float64(m[0]*x) + float64(m[1]*y) + float64(m[2]*z) + m[3],
		y: float64(m[4]*x) + float64(m[5]*y) + float64(m[6]*z) + m[7],
		z: float64(m[8]*x) + float64(m[9]*y) + float64(m[10]*z) + m[11],
		w: float64(m[12]*x) + float64(m[13]*y) + float64(m[14]*z) + m[15],
		d: float64(r[0]*x) + float64(r[1]*y) + float64(r[2]*z) + r[3],
	}
}

func (p *projector) vert(v Vertex) clipVert {
	cv := p.clip(v.Pos)
	cv.col = v.Col
	return cv
}

// dist returns the signed distance of v to clip plane k (≥ 0 inside).
func (p *projector) dist(k int, v *clipVert) float64 {
	switch k {
	case planeNear:
		return v.z
	case planeFar:
		return v.w - v.z
	case planeGuardLeft:
		return float64(p.gx*v.w) + v.x
	case planeGuardRight:
		return float64(p.gx*v.w) - v.x
	case planeGuardBottom:
		return float64(p.gy*v.w) + v.y
	default:
		return float64(p.gy*v.w) - v.y
	}
}

// outcode returns the clip-plane bits a vertex violates plus the viewport
// bits (for trivial rejection). A non-finite vertex returns -1.
func (p *projector) outcode(v *clipVert) int {
	// x − x is 0 for a finite x and NaN for an infinite or NaN one.
	if !(v.x-v.x == 0 && v.y-v.y == 0 && v.z-v.z == 0 && v.w-v.w == 0 && v.d-v.d == 0) {
		return -1
	}
	// The planes' distances as dist computes them, written out.
	code := 0
	gx, gy := float64(p.gx*v.w), float64(p.gy*v.w)
	if !(v.z >= 0) {
		code |= 1 << planeNear
	}
	if !(v.w-v.z >= 0) {
		code |= 1 << planeFar
	}
	if !(gx+v.x >= 0) {
		code |= 1 << planeGuardLeft
	}
	if !(gx-v.x >= 0) {
		code |= 1 << planeGuardRight
	}
	if !(gy+v.y >= 0) {
		code |= 1 << planeGuardBottom
	}
	if !(gy-v.y >= 0) {
		code |= 1 << planeGuardTop
	}
	if v.x < -v.w {
		code |= outViewLeft
	}
	if v.x > v.w {
		code |= outViewRight
	}
	if v.y < -v.w {
		code |= outViewBottom
	}
	if v.y > v.w {
		code |= outViewTop
	}
	return code
}

func lerp(a, b, t float64) float64 { return float64(t*(b-a)) + a }

func lerp8(a, b uint8, t float64) uint8 {
	v := lerp(float64(a), float64(b), t)
	return uint8(max(0, min(255, math.Floor(v+0.5))))
}

// intersect returns the point where the edge from the inside vertex in to
// the outside vertex out crosses the plane. Always interpolating from the
// inside vertex makes two triangles sharing an edge compute the same point.
func intersect(in, out *clipVert, dIn, dOut float64) clipVert {
	t := dIn / (dIn - dOut)
	return clipVert{
		x: lerp(in.x, out.x, t),
		y: lerp(in.y, out.y, t),
		z: lerp(in.z, out.z, t),
		w: lerp(in.w, out.w, t),
		d: lerp(in.d, out.d, t),
		col: color.RGBA{
			lerp8(in.col.R, out.col.R, t), lerp8(in.col.G, out.col.G, t),
			lerp8(in.col.B, out.col.B, t), lerp8(in.col.A, out.col.A, t),
		},
	}
}

func (p *projector) screen(v *clipVert) ScreenVertex {
	iw := 1 / v.w
	return ScreenVertex{
		XPx:    float64(float64(v.x*iw)*p.halfWPx) + p.halfWPx,
		YPx:    p.halfHPx - float64(float64(v.y*iw)*p.halfHPx),
		Z:      v.z * iw,
		DepthM: v.d,
		Col:    v.col,
	}
}

// maxClipVerts bounds a triangle clipped by numClipPlanes planes.
const maxClipVerts = 3 + numClipPlanes

// clipPoly clips the convex polygon poly[:n] against the planes in mask and
// returns the new vertex count (0 when nothing is left). buf is scratch.
func (p *projector) clipPoly(poly, buf *[maxClipVerts + 1]clipVert, n, mask int) int {
	for k := 0; k < numClipPlanes && n > 0; k++ {
		if mask&(1<<k) == 0 {
			continue
		}
		m := 0
		for i := 0; i < n; i++ {
			a, b := &poly[i], &poly[(i+1)%n]
			da, db := p.dist(k, a), p.dist(k, b)
			ina, inb := da >= 0, db >= 0
			if ina {
				buf[m] = *a
				m++
			}
			if ina != inb {
				if ina {
					buf[m] = intersect(a, b, da, db)
				} else {
					buf[m] = intersect(b, a, db, da)
				}
				m++
			}
		}
		*poly, *buf = *buf, *poly
		n = m
	}
	return n
}

// ProjectTris projects the triangles tris (three consecutive vertices each;
// a trailing partial triangle is ignored) for a wPx x hPx viewport and
// appends the screen-space triangles to dst, three vertices each, in input
// order. Triangles entirely outside the view are dropped; triangles crossing
// the near plane (orthographic: also the far plane) or the guard band are
// clipped and fan-triangulated, so one input triangle may give up to
// maxClipVerts−2 output triangles. Triangles with a non-finite vertex are
// dropped. No culling of back faces. Colours are interpolated at clip points.
func (c Camera) ProjectTris(tris []Vertex, wPx, hPx int, dst []ScreenVertex) []ScreenVertex {
	return c.projector(wPx, hPx).tris(tris, dst)
}

func (p *projector) tris(tris []Vertex, dst []ScreenVertex) []ScreenVertex {
	var poly, buf [maxClipVerts + 1]clipVert
	rc := newRecentVerts()
	for i := 0; i+2 < len(tris); i += 3 {
		a, oa := rc.vert(p, &tris[i])
		b, ob := rc.vert(p, &tris[i+1])
		c, oc := rc.vert(p, &tris[i+2])
		if oa < 0 || ob < 0 || oc < 0 || oa&ob&oc != 0 {
			continue
		}
		if (oa|ob|oc)&clipMask == 0 {
			dst = append(dst, p.screen(&a), p.screen(&b), p.screen(&c))
			continue
		}
		dst = p.clipTri(&a, &b, &c, (oa|ob|oc)&clipMask, &poly, &buf, dst)
	}
	return dst
}

// clipTri clips the triangle abc against the planes in mask and appends
// the fan of what is left to dst. poly and buf are scratch.
func (p *projector) clipTri(a, b, c *clipVert, mask int, poly, buf *[maxClipVerts + 1]clipVert, dst []ScreenVertex) []ScreenVertex {
	poly[0], poly[1], poly[2] = *a, *b, *c
	n := p.clipPoly(poly, buf, 3, mask)
	if n < 3 {
		return dst
	}
	s0 := p.screen(&poly[0])
	prev := p.screen(&poly[1])
	for j := 2; j < n; j++ {
		cur := p.screen(&poly[j])
		dst = append(dst, s0, prev, cur)
		prev = cur
	}
	return dst
}

// projected is a vertex list projected once: clip-space vertex, outcode
// and screen vertex of each (the screen vertex is used only when no plane
// clips the triangle).
type projected struct {
	cv   []clipVert
	code []int
	sv   []ScreenVertex
}

// projectVerts projects verts into pr[lo:hi] (pr's slices hold
// len(verts) entries).
func (p *projector) projectVerts(verts []Vertex, pr *projected, lo, hi int) {
	for j := lo; j < hi; j++ {
		cv := p.vert(verts[j])
		pr.cv[j], pr.code[j] = cv, p.outcode(&cv)
		pr.sv[j] = p.screen(&cv)
	}
}

// indexedTris is tris for triangles given as three indices each into the
// projected vertices pr: the same screen triangles as tris gives for the
// vertices the indices name.
func (p *projector) indexedTris(idx []int32, pr *projected, dst []ScreenVertex) []ScreenVertex {
	var poly, buf [maxClipVerts + 1]clipVert
	for i := 0; i+2 < len(idx); i += 3 {
		ia, ib, ic := idx[i], idx[i+1], idx[i+2]
		oa, ob, oc := pr.code[ia], pr.code[ib], pr.code[ic]
		if oa < 0 || ob < 0 || oc < 0 || oa&ob&oc != 0 {
			continue
		}
		if (oa|ob|oc)&clipMask == 0 {
			dst = append(dst, pr.sv[ia], pr.sv[ib], pr.sv[ic])
			continue
		}
		dst = p.clipTri(&pr.cv[ia], &pr.cv[ib], &pr.cv[ic], (oa|ob|oc)&clipMask, &poly, &buf, dst)
	}
	return dst
}

// recentVerts remembers the last few vertices projected, bit for bit with
// their results: consecutive triangles of a mesh share vertices (a quad's
// two triangles share two), so about two in five lookups on a level hit.
// A hit returns exactly what projecting again would, so the output does not
// depend on it.
type recentVerts struct {
	key  [recentN][4]uint32
	cv   [recentN]clipVert
	code [recentN]int
	next int
}

const recentN = 4

// newRecentVerts returns an empty recentVerts.
func newRecentVerts() recentVerts {
	var r recentVerts
	for i := range r.code {
		r.code[i] = outUnset
	}
	return r
}

// vert returns the clip-space vertex of v and its outcode.
func (r *recentVerts) vert(p *projector, v *Vertex) (clipVert, int) {
	k := vertexKey(v)
	for i := range r.key {
		if r.key[i] == k && r.code[i] != outUnset {
			return r.cv[i], r.code[i]
		}
	}
	cv := p.vert(*v)
	code := p.outcode(&cv)
	i := r.next
	r.key[i], r.cv[i], r.code[i] = k, cv, code
	r.next = (i + 1) % recentN
	return cv, code
}

// vertexKey returns the bits of v: equal keys, equal projections.
func vertexKey(v *Vertex) [4]uint32 {
	return [4]uint32{math.Float32bits(v.Pos.X), math.Float32bits(v.Pos.Y), math.Float32bits(v.Pos.Z),
		uint32(v.Col.R) | uint32(v.Col.G)<<8 | uint32(v.Col.B)<<16 | uint32(v.Col.A)<<24}
}

// outUnset marks an empty recentVerts entry (outcodes are -1 or ≥ 0).
const outUnset = -2

// ProjectLines projects the segments lines (two consecutive vertices each;
// a trailing odd vertex is ignored) and appends the visible screen-space
// segments to dst, two vertices each, in input order, clipped like
// ProjectTris.
func (c Camera) ProjectLines(lines []Vertex, wPx, hPx int, dst []ScreenVertex) []ScreenVertex {
	return c.projector(wPx, hPx).lines(lines, dst)
}

func (p *projector) lines(lines []Vertex, dst []ScreenVertex) []ScreenVertex {
	for i := 0; i+1 < len(lines); i += 2 {
		a, b := p.vert(lines[i]), p.vert(lines[i+1])
		oa, ob := p.outcode(&a), p.outcode(&b)
		if oa < 0 || ob < 0 || oa&ob != 0 {
			continue
		}
		mask := (oa | ob) & clipMask
		visible := true
		for k := 0; k < numClipPlanes && visible; k++ {
			if mask&(1<<k) == 0 {
				continue
			}
			da, db := p.dist(k, &a), p.dist(k, &b)
			switch {
			case da >= 0 && db >= 0:
			case da >= 0:
				b = intersect(&a, &b, da, db)
			case db >= 0:
				a = intersect(&b, &a, db, da)
			default:
				visible = false
			}
		}
		if !visible {
			continue
		}
		dst = append(dst, p.screen(&a), p.screen(&b))
	}
	return dst
}

// ProjectPoints projects pts and appends those inside the depth range and
// the guard band to dst, in input order.
func (c Camera) ProjectPoints(pts []Vertex, wPx, hPx int, dst []ScreenVertex) []ScreenVertex {
	return c.projector(wPx, hPx).points(pts, dst)
}

func (p *projector) points(pts []Vertex, dst []ScreenVertex) []ScreenVertex {
	for _, v := range pts {
		a := p.vert(v)
		if p.outcode(&a)&^(outViewLeft|outViewRight|outViewBottom|outViewTop) != 0 {
			continue // clipped or non-finite (-1 has every bit set)
		}
		dst = append(dst, p.screen(&a))
	}
	return dst
}
