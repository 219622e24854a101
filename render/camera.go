package render

import (
	"math"

	"navviz/core/geom"
)

const (
	// OrbitRadPerPx is the yaw/pitch change of Orbit per pixel of mouse motion.
	OrbitRadPerPx = 0.005
	// ZoomFactorPerStep multiplies DistanceM per wheel step of Zoom (steps > 0
	// zoom in).
	ZoomFactorPerStep = 0.85
	// MinDistanceM and MaxDistanceM bound DistanceM after Zoom and Frame.
	MinDistanceM = 0.01
	MaxDistanceM = 1e7

	pitchLimitRad  = math.Pi/2 - 0.01
	nearFraction   = 0.01
	minNearM       = 1e-4
	orthoRangeMult = 1000
	minFovYRad     = 0.01
	maxFovYRad     = 3.0
	frameMargin    = 1.05
)

// Camera looks at a level: an orbit camera (yaw/pitch/distance around a
// target) or a top-down camera, each perspective or orthographic. The zero
// Camera is not useful; start from DefaultCamera.
//
// Conventions (world: metres, right-handed, y up).
//
// Orbit mode: the eye sits DistanceM from Target in the direction
// (sin(yaw)·cos(pitch), sin(pitch), cos(yaw)·cos(pitch)); the camera looks at
// Target. Yaw 0 looks down -z with +x to the right of the screen; positive
// pitch raises the eye above the target (looking down). Pitch is clamped to
// ±(π/2 − 0.01) rad.
//
// TopDown mode ignores yaw and pitch: the eye is DistanceM above Target
// looking straight down -y, with +x to the right of the screen and +z towards
// the bottom of the screen.
//
// Screen: pixels, origin at the top-left corner of the viewport, y down; the
// centre of pixel (i, j) is (i+0.5, j+0.5).
//
// Projection: FovYRad is the full vertical field of view. In orthographic
// mode the visible half-height is DistanceM·tan(FovYRad/2), the height that
// perspective mode shows at the depth of Target, so switching modes keeps the
// target's scale and Zoom scales both.
//
// Depth: "depth" (DepthM) is the signed distance in metres from the eye along
// the viewing direction. Perspective: near plane at NearM() =
// max(DistanceM·0.01, 1e-4) m, far plane at infinity. Orthographic: the eye
// is at the same place, but the depth range is centred on Target:
// [DistanceM − R, DistanceM + R] with R = 1000·max(DistanceM, 1) m, so that
// zooming in never cuts roofs.
//
// The near (and, orthographic, far) planes clip; the triangles and segments
// crossing them are clipped, not dropped, by ProjectTris and ProjectLines.
//
// Fields that would make the projection undefined (a non-positive or NaN
// distance, a field of view outside [0.01, 3] rad, non-finite angles or
// target) are clamped or zeroed where the camera is used; nothing panics.
type Camera struct {
	Target    geom.Vec3 // orbit centre, metres
	YawRad    float64   // rotation about +y; 0 looks down -z
	PitchRad  float64   // elevation of the eye above the target's horizon
	DistanceM float64   // eye to target, metres
	FovYRad   float64   // full vertical field of view
	Ortho     bool      // orthographic instead of perspective
	TopDown   bool      // look straight down -y (x right, +z down the screen)
}

// DefaultCamera returns a perspective orbit camera 50 m from the origin, 45°
// vertical field of view, looking down at 35° from yaw 30°.
func DefaultCamera() Camera {
	return Camera{
		YawRad:    30 * math.Pi / 180,
		PitchRad:  35 * math.Pi / 180,
		DistanceM: 50,
		FovYRad:   math.Pi / 4,
	}
}

// Mat4 is a 4x4 matrix of float64 in row-major order: element (row r, column
// c) is M[r*4+c]. It multiplies column vectors: clip = M · (x, y, z, 1).
//
// The clip space of ViewProj: a point is visible when −w ≤ x ≤ w, −w ≤ y ≤ w
// and 0 ≤ z ≤ w, with y up. Pixel coordinates are xPx = (x/w+1)·wPx/2 and
// yPx = (1−y/w)·hPx/2. Perspective: w is the depth in metres and
// z = depth − near (far plane at infinity, so z/w = 1 − near/depth).
// Orthographic: w = 1 and z = (depth − near)/(far − near).
type Mat4 [16]float64

// MulPoint returns M · (p, 1) as homogeneous clip coordinates.
func (m Mat4) MulPoint(p [3]float64) (x, y, z, w float64) {
	x = float64(m[0]*p[0]) + float64(m[1]*p[1]) + float64(m[2]*p[2]) + m[3]
	y = float64(m[4]*p[0]) + float64(m[5]*p[1]) + float64(m[6]*p[2]) + m[7]
	z = float64(m[8]*p[0]) + float64(m[9]*p[1]) + float64(m[10]*p[2]) + m[11]
	w = float64(m[12]*p[0]) + float64(m[13]*p[1]) + float64(m[14]*p[2]) + m[15]
	return x, y, z, w
}

func dot3(a, b [3]float64) float64 {
	return float64(a[0]*b[0]) + float64(a[1]*b[1]) + float64(a[2]*b[2])
}

func vec64(v geom.Vec3) [3]float64 { return [3]float64{float64(v.X), float64(v.Y), float64(v.Z)} }

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// sanitized returns c with fields that would make the projection undefined
// replaced by usable values: distance clamped to [MinDistanceM, MaxDistanceM],
// field of view to [0.01, 3.0] rad, non-finite angles and target zeroed.
func (c Camera) sanitized() Camera {
	if !finite(c.DistanceM) || c.DistanceM < MinDistanceM {
		c.DistanceM = MinDistanceM
	}
	if c.DistanceM > MaxDistanceM {
		c.DistanceM = MaxDistanceM
	}
	if !finite(c.FovYRad) || c.FovYRad < minFovYRad {
		c.FovYRad = minFovYRad
	}
	if c.FovYRad > maxFovYRad {
		c.FovYRad = maxFovYRad
	}
	if !finite(c.YawRad) {
		c.YawRad = 0
	}
	if !finite(c.PitchRad) {
		c.PitchRad = 0
	}
	c.PitchRad = max(-pitchLimitRad, min(pitchLimitRad, c.PitchRad))
	if !c.Target.Finite() {
		c.Target = geom.Vec3{}
	}
	return c
}

// NearM returns the distance of the perspective near plane from the eye in
// metres: max(DistanceM·0.01, 1e-4).
func (c Camera) NearM() float64 {
	c = c.sanitized()
	return max(c.DistanceM*nearFraction, minNearM)
}

// depthRangeM returns the near and far plane depths in metres (far is +Inf
// in perspective).
func (c Camera) depthRangeM() (nearM, farM float64) {
	if c.Ortho {
		r := float64(orthoRangeMult * max(c.DistanceM, 1))
		return c.DistanceM - r, c.DistanceM + r
	}
	return max(c.DistanceM*nearFraction, minNearM), math.Inf(1)
}

// tanHalfFov returns tan(FovYRad/2) computed with the deterministic SinCos.
func (c Camera) tanHalfFov() float64 {
	s, co := geom.SinCos(c.FovYRad / 2)
	return s / co
}

// basis returns the eye position and the right, up and forward unit vectors
// of the (sanitized) camera.
func (c Camera) basis() (eye, right, up, fwd [3]float64) {
	t := vec64(c.Target)
	if c.TopDown {
		right = [3]float64{1, 0, 0}
		up = [3]float64{0, 0, -1}
		fwd = [3]float64{0, -1, 0}
	} else {
		sy, cy := geom.SinCos(c.YawRad)
		sp, cp := geom.SinCos(c.PitchRad)
		fwd = [3]float64{-float64(sy * cp), -sp, -float64(cy * cp)}
		right = [3]float64{cy, 0, -sy}
		// up = right × fwd
		up = [3]float64{
			float64(right[1]*fwd[2]) - float64(right[2]*fwd[1]),
			float64(right[2]*fwd[0]) - float64(right[0]*fwd[2]),
			float64(right[0]*fwd[1]) - float64(right[1]*fwd[0]),
		}
	}
	for i := range eye {
		eye[i] = t[i] - float64(fwd[i]*c.DistanceM)
	}
	return eye, right, up, fwd
}

// aspect returns wPx/hPx, or 1 for a degenerate viewport.
func aspect(wPx, hPx int) float64 {
	if wPx <= 0 || hPx <= 0 {
		return 1
	}
	return float64(wPx) / float64(hPx)
}

// ViewProj returns the matrix from world coordinates to clip coordinates for
// a viewport of wPx x hPx pixels (see Mat4 for the clip-space convention).
func (c Camera) ViewProj(wPx, hPx int) Mat4 {
	c = c.sanitized()
	eye, right, up, fwd := c.basis()
	nearM, farM := c.depthRangeM()
	tanH := c.tanHalfFov()
	asp := aspect(wPx, hPx)
	var m Mat4
	row := func(r int, v [3]float64, s, extra float64) {
		m[r*4+0] = v[0] * s
		m[r*4+1] = v[1] * s
		m[r*4+2] = v[2] * s
		m[r*4+3] = float64(-dot3(v, eye)*s) + extra
	}
	if c.Ortho {
		halfH := c.DistanceM * tanH
		halfW := halfH * asp
		row(0, right, 1/halfW, 0)
		row(1, up, 1/halfH, 0)
		span := farM - nearM
		row(2, fwd, 1/span, -nearM/span)
		m[15] = 1
	} else {
		sy := 1 / tanH
		sx := sy / asp
		row(0, right, sx, 0)
		row(1, up, sy, 0)
		row(2, fwd, 1, -nearM)
		row(3, fwd, 1, 0)
	}
	return m
}

// Project maps the world point p to pixel coordinates of a wPx x hPx
// viewport. depth is the distance in metres from the eye along the viewing
// direction (it increases away from the viewer). ok is false when p is
// nearer than the near plane (in particular behind the viewer), beyond the
// far plane, or not finite; the pixel coordinates are then meaningless. Points outside the
// viewport but inside the depth range give ok = true with coordinates off
// screen.
func (c Camera) Project(p geom.Vec3, wPx, hPx int) (xPx, yPx, depth float64, ok bool) {
	pr := c.projector(wPx, hPx)
	v := pr.clip(p)
	if !(v.z >= 0 && v.z <= v.w && v.w > 0) || !finite(v.x) || !finite(v.y) {
		return 0, 0, v.d, false
	}
	sv := pr.screen(&v)
	return sv.XPx, sv.YPx, sv.DepthM, true
}

// Ray returns the world-space ray through the pixel position (xPx, yPx) of a
// wPx x hPx viewport, for picking. dir has unit length. Perspective: origin
// is the eye. Orthographic: origin lies on the near plane, dir is the viewing
// direction.
func (c Camera) Ray(xPx, yPx float64, wPx, hPx int) (origin, dir [3]float64) {
	c = c.sanitized()
	eye, right, up, fwd := c.basis()
	if wPx <= 0 || hPx <= 0 {
		return eye, fwd
	}
	ndcX := 2*xPx/float64(wPx) - 1
	ndcY := 1 - 2*yPx/float64(hPx)
	tanH := c.tanHalfFov()
	halfH := tanH
	halfW := halfH * aspect(wPx, hPx)
	if c.Ortho {
		nearM, _ := c.depthRangeM()
		ox := float64(ndcX*halfW) * c.DistanceM
		oy := float64(ndcY*halfH) * c.DistanceM
		for i := range origin {
			origin[i] = eye[i] + float64(right[i]*ox) + float64(up[i]*oy) + float64(fwd[i]*nearM)
		}
		return origin, fwd
	}
	var l2 float64
	for i := range dir {
		dir[i] = fwd[i] + float64(right[i]*float64(ndcX*halfW)) + float64(up[i]*float64(ndcY*halfH))
		l2 += float64(dir[i] * dir[i])
	}
	l := math.Sqrt(l2)
	for i := range dir {
		dir[i] /= l
	}
	return eye, dir
}

// Frame fits the box b in view, keeping yaw, pitch, field of view and mode:
// Target becomes the centre of b and DistanceM the smallest distance at which
// all eight corners of b lie inside the view (with a 5% margin) in any
// viewport at least as wide as it is high. FrameAspect fits a given
// viewport shape tightly. An empty or non-finite box leaves the camera
// unchanged. On a nil *Camera, Frame, FrameAspect, Orbit, Pan and Zoom do
// nothing.
func (c *Camera) Frame(b geom.Box3) { c.FrameAspect(b, 1) }

// FrameAspect is Frame for a viewport whose width/height ratio is aspectWH
// (wPx/hPx): the box fits that viewport exactly (with the margin). A ratio
// that is not a positive finite number frames as 1.
func (c *Camera) FrameAspect(b geom.Box3, aspectWH float64) {
	if c == nil || b.Empty() || !b.Min.Finite() || !b.Max.Finite() {
		return
	}
	if !finite(aspectWH) || aspectWH <= 0 {
		aspectWH = 1
	}
	s := c.sanitized()
	s.Target = b.Center()
	_, right, up, fwd := s.basis()
	tanY := s.tanHalfFov()
	tanX := tanY * aspectWH
	t := vec64(s.Target)
	lo, hi := vec64(b.Min), vec64(b.Max)
	var d float64
	for i := 0; i < 8; i++ {
		var rel [3]float64
		for k := 0; k < 3; k++ {
			v := lo[k]
			if i&(1<<k) != 0 {
				v = hi[k]
			}
			rel[k] = v - t[k]
		}
		// View-space offsets of the corner from the target; its depth is
		// DistanceM + zf.
		xr := math.Abs(dot3(rel, right)) * frameMargin
		yu := math.Abs(dot3(rel, up)) * frameMargin
		zf := dot3(rel, fwd)
		if s.Ortho {
			d = max(d, xr/tanX, yu/tanY)
		} else {
			// |xr| ≤ tanX·(D+zf), |yu| ≤ tanY·(D+zf), and in front of the
			// near plane: D+zf ≥ 0.01·D.
			d = max(d, xr/tanX-zf, yu/tanY-zf, -zf/(1-nearFraction)*frameMargin)
		}
	}
	if !finite(d) || d < MinDistanceM {
		d = MinDistanceM
	}
	c.Target = s.Target
	c.DistanceM = min(d, MaxDistanceM)
}

// Orbit turns the camera by a mouse motion of (dxPx, dyPx) pixels: moving
// right turns yaw (the scene spins with the mouse), moving down raises the
// pitch (the eye goes up). Pitch is clamped to ±(π/2 − 0.01) rad. Orbit has
// no effect while TopDown is set.
func (c *Camera) Orbit(dxPx, dyPx float64) {
	if c == nil || c.TopDown || !finite(dxPx) || !finite(dyPx) {
		return
	}
	c.YawRad -= float64(dxPx * OrbitRadPerPx)
	c.YawRad = math.Remainder(c.YawRad, 2*math.Pi)
	c.PitchRad += float64(dyPx * OrbitRadPerPx)
	c.PitchRad = max(-pitchLimitRad, min(pitchLimitRad, c.PitchRad))
}

// Pan moves Target in the view plane by a mouse motion of (dxPx, dyPx) pixels
// in a wPx x hPx viewport so that the point under the cursor at the depth of
// Target follows the cursor.
func (c *Camera) Pan(dxPx, dyPx float64, wPx, hPx int) {
	if c == nil || hPx <= 0 || !finite(dxPx) || !finite(dyPx) {
		return
	}
	s := c.sanitized()
	_, right, up, _ := s.basis()
	mPerPx := 2 * s.DistanceM * s.tanHalfFov() / float64(hPx)
	mx := -dxPx * mPerPx
	my := dyPx * mPerPx
	t := vec64(s.Target)
	var n geom.Vec3
	n.X = float32(t[0] + float64(right[0]*mx) + float64(up[0]*my))
	n.Y = float32(t[1] + float64(right[1]*mx) + float64(up[1]*my))
	n.Z = float32(t[2] + float64(right[2]*mx) + float64(up[2]*my))
	if n.Finite() {
		c.Target = n
	}
}

// Zoom moves the eye towards Target by ZoomFactorPerStep per wheel step
// (steps > 0 zoom in, fractional steps allowed), which also scales the
// orthographic view. DistanceM stays within [MinDistanceM, MaxDistanceM].
func (c *Camera) Zoom(steps float64) {
	if c == nil || !finite(steps) {
		return
	}
	d := c.DistanceM
	if !finite(d) || d <= 0 {
		d = MinDistanceM
	}
	d *= math.Pow(ZoomFactorPerStep, steps)
	c.DistanceM = max(MinDistanceM, min(MaxDistanceM, d))
}

// ZoomToward is Zoom keeping the world point p where it is on the screen
// (zoom towards the cursor: p is a point on the ray through it): Target
// moves towards p by the factor DistanceM changes by, so that the eye
// does too and the view turns by nothing. Every point of the ray through
// p's pixel keeps that pixel, in perspective (the eye stays on the ray)
// and orthographic mode (offsets from the view's axis scale with its
// height); which point of the ray p is only decides how far along it
// Target goes. A p that is not finite zooms as Zoom does.
func (c *Camera) ZoomToward(p geom.Vec3, steps float64) {
	if c == nil || !finite(steps) {
		return
	}
	before := c.sanitized().DistanceM
	c.Zoom(steps)
	if !p.Finite() || !c.Target.Finite() {
		return
	}
	f := c.DistanceM / before
	t, q := vec64(c.Target), vec64(p)
	n := geom.Vec3{
		X: float32(q[0] + float64((t[0]-q[0])*f)),
		Y: float32(q[1] + float64((t[1]-q[1])*f)),
		Z: float32(q[2] + float64((t[2]-q[2])*f)),
	}
	if n.Finite() {
		c.Target = n
	}
}
