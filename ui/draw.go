package ui

import (
	"image"
	"image/color"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"navviz/render"
)

// Drawing parameters of the GPU path.
const (
	// lineWidthPx is the width of a drawn line segment.
	lineWidthPx = 1.5
	// defaultPointSizePx is used when an overlay gives no point size.
	defaultPointSizePx = 4
	// maxTriEdgePx and maxLinePiecePx bound the screen-space size of the
	// pieces that triangles and segments are cut into before sorting.
	// Painter's algorithm orders whole primitives by one depth each; small
	// pieces keep that order right where surfaces overlap (a roof over the
	// street behind it, a grid line across the level).
	maxTriEdgePx   = 16
	maxLinePiecePx = 8
	// maxSplitDepth bounds the recursive bisection of one triangle (at most
	// 2^maxSplitDepth pieces).
	maxSplitDepth = 14
	// lineBiasPx pulls lines and points towards the viewer in the sort by
	// this many pixel footprints (the size of a pixel at their depth), so
	// that a line lying on a surface is drawn after that surface.
	lineBiasPx = 6
)

// primKind says what a sorted primitive is.
type primKind uint8

const (
	primTri primKind = iota
	primLine
	primPoint
)

// prim is one screen-space primitive waiting to be sorted: depth is its
// painter's key in metres (larger is farther), first the index of its first
// vertex in the projected buffer, and size the point size in pixels. Its
// index in the list is its scene order.
type prim struct {
	depth float64
	first int32
	kind  primKind
	size  float32
}

// viewKey is everything the cached triangles depend on: the camera, the
// view's size in pixels and its top-left corner on the screen (x0, y0),
// the scene and its generation, and the resolution divisor (1: full;
// movingScale while the camera moves, see jobs.go).
type viewKey struct {
	cam    render.Camera
	w, h   int
	x0, y0 int
	scene  *render.Scene
	gen    uint64
	scale  int
}

// sceneView draws a render.Scene with DrawTriangles. It projects on the CPU
// through the render camera (render.Camera.ProjectTris/ProjectLines/
// ProjectPoints, the same projection and clipping as the software
// rasterizer), sorts everything back to front (Ebitengine has no depth
// buffer) and keeps the sorted batches (of the view key) until it is built
// again. Building touches only v and the scene snapshot, so it runs in a
// background job (jobs.go) while the game goroutine draws another
// sceneView.
type sceneView struct {
	valid bool
	key   viewKey
	bt    *batcher

	sv    []render.ScreenVertex // projected vertices of all primitives
	tmp   []render.ScreenVertex // projection scratch
	prims []prim
	keys  []uint64 // drawing order of prims (see sortKeys)

	// Per-build projection parameters.
	vw, vh           float64 // viewport size in pixels
	ortho            bool    // orthographic camera
	biasRel, biasAbs float64 // line/point sort bias (see lineBias)
	// triangle sort bias of the overlay being added (Overlay.SortBiasPx)
	triBiasRel, triBiasAbs float64

	// coarse multiplies the piece sizes (maxTriEdgePx, maxLinePiecePx):
	// 0 or 1 for a still view, movingScale for a moving one (fewer,
	// larger pieces; the order is less exact, for a fraction of a second).
	coarse int
	// ox, oy are added to the screen positions of the batches: the
	// view's corner on the screen (0 for a reduced-resolution view, which
	// is drawn into an image of its own).
	ox, oy float64

	drawnTris, drawnBatches int     // of the last build, for the Stats panel
	buildMs                 float64 // time of the last build, milliseconds
	builds                  int     // builds so far
}

// whiteImage is the 1x1 white source image of every DrawTriangles call
// (a sub-image of a 3x3 white image, so that sampling never bleeds from a
// texture atlas neighbour), made on first use.
var whiteImage struct {
	once sync.Once
	img  *ebiten.Image
}

// whiteSource returns the 1x1 white source image.
func whiteSource() *ebiten.Image {
	whiteImage.once.Do(func() {
		img := ebiten.NewImage(3, 3)
		img.Fill(color.White)
		whiteImage.img = img.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image)
	})
	return whiteImage.img
}

// sceneKey returns the key of the view a's scene and camera give in the
// rectangle vp of the screen.
func sceneKey(a *App, vp image.Rectangle) viewKey {
	return viewKey{cam: a.Camera, w: vp.Dx(), h: vp.Dy(), x0: vp.Min.X, y0: vp.Min.Y, scene: a.Scene, gen: a.Gen, scale: 1}
}

// current reports whether v shows key.
func (v *sceneView) current(key viewKey) bool { return v.valid && v.key == key }

// draw draws the visible overlays of a.Scene through a.Camera onto dst
// (the view fills dst's bounds, which may be a sub-image of the screen),
// projecting them first (on this goroutine) when v does not show them
// yet.
func (v *sceneView) draw(dst *ebiten.Image, a *App) {
	key := sceneKey(a, dst.Bounds())
	if !v.current(key) {
		v.buildKey(visibleScene(a.Scene), key)
	}
	v.drawBatches(dst)
}

// visibleScene returns a scene of copies of the visible overlays of s: a
// snapshot a background job may read while the game goroutine goes on
// (it toggles Visible in place; the triangles, lines and points of an
// overlay in a scene are replaced, never changed in place: see
// syncOverlay, so the copies share them).
func visibleScene(s *render.Scene) *render.Scene {
	out := &render.Scene{}
	if s == nil {
		return out
	}
	for _, o := range s.Overlays {
		if o != nil && o.Visible {
			c := *o
			out.Overlays = append(out.Overlays, &c)
		}
	}
	return out
}

// projScratch holds a sceneView's projection buffers between builds. The
// batches are all a view needs to be drawn, so the two views of the
// background projection (jobs.go) share one scratch, handed to the view
// being built and taken back after (one build runs at a time).
type projScratch struct {
	sv, tmp []render.ScreenVertex
	prims   []prim
	keys    []uint64
}

// buildShared is buildKey with the projection buffers of sc, which it
// takes back afterwards (v keeps only its batches).
func (v *sceneView) buildShared(s *render.Scene, key viewKey, sc *projScratch) {
	v.sv, v.tmp, v.prims, v.keys = sc.sv, sc.tmp, sc.prims, sc.keys
	v.buildKey(s, key)
	sc.sv, sc.tmp, sc.prims, sc.keys = v.sv[:0], v.tmp[:0], v.prims[:0], v.keys[:0]
	v.sv, v.tmp, v.prims, v.keys = nil, nil, nil, nil
}

// buildKey builds the view of the snapshot s (visibleScene) for key, at
// the key's resolution (viewSize).
func (v *sceneView) buildKey(s *render.Scene, key viewKey) {
	w, h := key.viewSize()
	v.coarse = key.scale
	v.ox, v.oy = 0, 0
	if key.scale <= 1 {
		v.ox, v.oy = float64(key.x0), float64(key.y0)
	}
	v.build(s, key.cam, w, h)
	v.key, v.valid = key, true
}

// viewSize returns the size in pixels the view of k is projected at: the
// screen size divided by k.scale.
func (k viewKey) viewSize() (wPx, hPx int) {
	d := max(k.scale, 1)
	return max(k.w/d, 1), max(k.h/d, 1)
}

// drawBatches draws the batches of the last build onto dst.
func (v *sceneView) drawBatches(dst *ebiten.Image) {
	if v.bt == nil {
		return
	}
	src := whiteSource()
	// Scene colours are straight alpha (render.Overlay).
	op := &ebiten.DrawTrianglesOptions{ColorScaleMode: ebiten.ColorScaleModeStraightAlpha}
	for _, b := range v.bt.batches {
		if len(b.Indices) > 0 {
			dst.DrawTriangles(b.Verts, b.Indices, src, op)
		}
	}
}

// build projects, sorts and batches the scene for camera cam and a w x h
// viewport.
func (v *sceneView) build(s *render.Scene, cam render.Camera, w, h int) {
	t0 := time.Now()
	defer func() {
		v.buildMs = float64(time.Since(t0)) / float64(time.Millisecond)
		v.builds++
	}()
	if v.bt == nil {
		v.bt = newBatcher(MaxBatchVertices)
	}
	v.sv, v.prims = v.sv[:0], v.prims[:0]
	if s != nil {
		for _, o := range s.Overlays {
			if o == nil || !o.Visible {
				continue
			}
			v.addOverlay(o, cam, w, h)
		}
	}
	v.keys = sortKeys(v.prims, v.keys)
	v.bt.reset()
	v.drawnTris = emitPrims(v.bt, v.prims, v.keys, v.sv, v.ox, v.oy)
	v.drawnBatches = len(v.bt.batches)
}

// addOverlay projects one overlay and records its primitives.
func (v *sceneView) addOverlay(o *render.Overlay, cam render.Camera, w, h int) {
	v.vw, v.vh, v.ortho = float64(w), float64(h), cam.Ortho
	v.biasRel, v.biasAbs = lineBias(cam, h)
	v.triBiasRel, v.triBiasAbs = 0, 0
	if b := float64(o.SortBiasPx); b > 0 && b < 1000 {
		v.triBiasRel, v.triBiasAbs = v.biasRel*b/lineBiasPx, v.biasAbs*b/lineBiasPx
	}
	if len(o.Tris) >= 3 {
		v.tmp = cam.ProjectTris(o.Tris, w, h, v.tmp[:0])
		for i := 0; i+2 < len(v.tmp); i += 3 {
			v.pushTri(v.tmp[i], v.tmp[i+1], v.tmp[i+2], 0)
		}
	}
	if len(o.Lines) >= 2 {
		v.tmp = cam.ProjectLines(o.Lines, w, h, v.tmp[:0])
		for i := 0; i+1 < len(v.tmp); i += 2 {
			v.pushLine(v.tmp[i], v.tmp[i+1])
		}
	}
	if len(o.Points) > 0 {
		size := o.PointSizePx
		if !(size > 0) || size > 256 {
			size = defaultPointSizePx
		}
		v.tmp = cam.ProjectPoints(o.Points, w, h, v.tmp[:0])
		for _, p := range v.tmp {
			if p.XPx < -float64(size) || p.YPx < -float64(size) || p.XPx > v.vw+float64(size) || p.YPx > v.vh+float64(size) {
				continue
			}
			v.push(primPoint, v.biased(p.DepthM), size, p)
		}
	}
}

// lineBias returns the sort bias of lines and points for camera cam and a
// viewport hPx high: a fraction of the depth (perspective, where a pixel's
// footprint grows with depth) or metres (orthographic).
func lineBias(cam render.Camera, hPx int) (rel, abs float64) {
	fov := cam.FovYRad
	if !(fov > 0.01 && fov < 3) {
		fov = render.DefaultCamera().FovYRad
	}
	perPx := 2 * math.Tan(fov/2) / float64(max(hPx, 1)) // footprint per metre of depth
	if cam.Ortho {
		return 0, lineBiasPx * perPx * cam.DistanceM
	}
	return min(lineBiasPx*perPx, 0.5), 0
}

// biased returns the sort depth of a line or point at depth d.
func (v *sceneView) biased(d float64) float64 { return d*(1-v.biasRel) - v.biasAbs }

// push records a primitive made of the vertices vs.
func (v *sceneView) push(kind primKind, depth float64, size float32, vs ...render.ScreenVertex) {
	v.prims = append(v.prims, prim{
		depth: depth,
		first: int32(len(v.sv)),
		kind:  kind,
		size:  size,
	})
	v.sv = append(v.sv, vs...)
}

// offscreen reports whether a box of screen coordinates misses the viewport.
func (v *sceneView) offscreen(x0, y0, x1, y1 float64) bool {
	return x1 < 0 || y1 < 0 || x0 > v.vw || y0 > v.vh
}

// pushTri records the screen triangle abc, bisecting its longest edge
// until every edge is at most maxTriEdgePx long, and dropping the pieces
// that fall outside the viewport. Depths of new vertices are exact (see
// lerpScreen).
func (v *sceneView) pushTri(a, b, c render.ScreenVertex, level int) {
	if v.offscreen(min(a.XPx, b.XPx, c.XPx), min(a.YPx, b.YPx, c.YPx), max(a.XPx, b.XPx, c.XPx), max(a.YPx, b.YPx, c.YPx)) {
		return
	}
	ab, bc, ca := dist2(a, b), dist2(b, c), dist2(c, a)
	longest := max(ab, bc, ca)
	if v.coarse > 1 && level == 0 && triArea2(a, b, c) < minMovingTriArea2Px {
		return // level of detail while moving: drop tiny triangles
	}
	lim := float64(maxTriEdgePx * max(v.coarse, 1))
	if !(longest > lim*lim) || level >= maxSplitDepth {
		d := (a.DepthM + b.DepthM + c.DepthM) / 3
		v.push(primTri, d*(1-v.triBiasRel)-v.triBiasAbs, 0, a, b, c)
		return
	}
	// Rotate so that ab is the longest edge, then split it at m.
	switch longest {
	case bc:
		a, b, c = b, c, a
	case ca:
		a, b, c = c, a, b
	}
	m := lerpScreen(a, b, 0.5, v.ortho)
	v.pushTri(a, m, c, level+1)
	v.pushTri(m, b, c, level+1)
}

// minMovingTriArea2Px is twice the screen area in pixels below which a
// moving (coarse) view drops a triangle: under 2 pixels of the
// reduced-resolution view (small props vanish while the camera moves; on
// city 22k triangles a frame instead of 36k). At 4 pixels whole buildings
// vanished: city's walls are 3 x 3.5 m panels, about 4 such pixels each
// with the level framed.
const minMovingTriArea2Px = 4

// triArea2 returns twice the screen area of abc in square pixels.
func triArea2(a, b, c render.ScreenVertex) float64 {
	return math.Abs((b.XPx-a.XPx)*(c.YPx-a.YPx) - (c.XPx-a.XPx)*(b.YPx-a.YPx))
}

// dist2 returns the squared screen distance of a and b in pixels.
func dist2(a, b render.ScreenVertex) float64 {
	dx, dy := b.XPx-a.XPx, b.YPx-a.YPx
	return dx*dx + dy*dy
}

// pushLine records the segment a-b cut into pieces of at most
// maxLinePiecePx pixels, dropping the pieces outside the viewport.
func (v *sceneView) pushLine(a, b render.ScreenVertex) {
	n := splitCountPx(a, b, float64(maxLinePiecePx*max(v.coarse, 1)))
	prev := a
	for i := 1; i <= n; i++ {
		cur := b
		if i < n {
			cur = lerpScreen(a, b, float64(i)/float64(n), v.ortho)
		}
		const m = lineWidthPx
		if !v.offscreen(min(prev.XPx, cur.XPx)-m, min(prev.YPx, cur.YPx)-m, max(prev.XPx, cur.XPx)+m, max(prev.YPx, cur.YPx)+m) {
			v.push(primLine, v.biased((prev.DepthM+cur.DepthM)/2), 0, prev, cur)
		}
		prev = cur
	}
}

// splitCount returns how many pieces a still view cuts the segment a-b
// into.
func splitCount(a, b render.ScreenVertex) int { return splitCountPx(a, b, maxLinePiecePx) }

// splitCountPx returns how many pieces of at most piecePx pixels the
// segment a-b is cut into.
func splitCountPx(a, b render.ScreenVertex, piecePx float64) int {
	l := math.Hypot(b.XPx-a.XPx, b.YPx-a.YPx)
	if !(l > piecePx) {
		return 1
	}
	return min(int(math.Ceil(l/piecePx)), 4096)
}

// lerpScreen returns the point at fraction t from a to b in screen space.
// Depth is exact for a planar primitive: linear in screen space for an
// orthographic camera, and through its reciprocal (which is affine in
// screen space) for a perspective one.
func lerpScreen(a, b render.ScreenVertex, t float64, ortho bool) render.ScreenVertex {
	l := func(x, y float64) float64 { return x + (y-x)*t }
	d := l(a.DepthM, b.DepthM)
	if !ortho && a.DepthM > 0 && b.DepthM > 0 {
		d = 1 / l(1/a.DepthM, 1/b.DepthM)
	}
	l8 := func(x, y uint8) uint8 { return uint8(math.Round(l(float64(x), float64(y)))) }
	return render.ScreenVertex{
		XPx:    l(a.XPx, b.XPx),
		YPx:    l(a.YPx, b.YPx),
		Z:      l(a.Z, b.Z),
		DepthM: d,
		Col:    color.RGBA{l8(a.Col.R, b.Col.R), l8(a.Col.G, b.Col.G), l8(a.Col.B, b.Col.B), l8(a.Col.A, b.Col.A)},
	}
}

// sortKeys returns the drawing order of ps, far to near, as keys whose low
// 32 bits are indices into ps: the high 32 bits hold the depth as float32,
// transformed so that unsigned order is descending depth, and the index
// breaks ties in scene order (later overlays win). keys is reused.
func sortKeys(ps []prim, keys []uint64) []uint64 {
	keys = keys[:0]
	for i, p := range ps {
		b := math.Float32bits(float32(p.depth))
		if b>>31 != 0 {
			b = ^b // negative: larger magnitude sorts first when ascending
		} else {
			b |= 1 << 31
		}
		// b now increases with depth; invert it for far to near.
		keys = append(keys, uint64(^b)<<32|uint64(uint32(i)))
	}
	slices.Sort(keys)
	return keys
}

// emitPrims turns the primitives ps, in the order of keys (see sortKeys),
// into batched Ebitengine vertices moved by (ox, oy) pixels and returns
// the number of triangles emitted.
func emitPrims(bt *batcher, ps []prim, keys []uint64, sv []render.ScreenVertex, ox, oy float64) int {
	tris := 0
	move := func(q *[4]ebiten.Vertex) {
		for i := range q {
			q[i].DstX += float32(ox)
			q[i].DstY += float32(oy)
		}
	}
	for _, k := range keys {
		p := &ps[uint32(k)]
		vs := sv[p.first:]
		switch p.kind {
		case primTri:
			bt.addTri(ebVertex(vs[0].XPx+ox, vs[0].YPx+oy, vs[0].Col), ebVertex(vs[1].XPx+ox, vs[1].YPx+oy, vs[1].Col), ebVertex(vs[2].XPx+ox, vs[2].YPx+oy, vs[2].Col))
			tris++
		case primLine:
			if q, ok := lineQuad(vs[0], vs[1], lineWidthPx); ok {
				move(&q)
				bt.addQuad(q[0], q[1], q[2], q[3])
				tris += 2
			}
		case primPoint:
			q := pointQuad(vs[0], float64(p.size))
			move(&q)
			bt.addQuad(q[0], q[1], q[2], q[3])
			tris += 2
		}
	}
	return tris
}

// ebVertex converts a screen position and a premultiplied colour to an
// Ebitengine vertex sampling the white source image.
func ebVertex(x, y float64, c color.RGBA) ebiten.Vertex {
	return ebiten.Vertex{
		DstX: float32(x), DstY: float32(y),
		SrcX: 1.5, SrcY: 1.5,
		ColorR: float32(c.R) / 255,
		ColorG: float32(c.G) / 255,
		ColorB: float32(c.B) / 255,
		ColorA: float32(c.A) / 255,
	}
}

// lineQuad returns the corners of a quad of width widthPx around the
// segment a-b; ok is false for a segment of zero length.
func lineQuad(a, b render.ScreenVertex, widthPx float64) (q [4]ebiten.Vertex, ok bool) {
	dx, dy := b.XPx-a.XPx, b.YPx-a.YPx
	l := math.Hypot(dx, dy)
	if !(l > 1e-6) {
		return q, false
	}
	// Unit normal times half the width.
	nx, ny := -dy/l*widthPx/2, dx/l*widthPx/2
	q[0] = ebVertex(a.XPx+nx, a.YPx+ny, a.Col)
	q[1] = ebVertex(b.XPx+nx, b.YPx+ny, b.Col)
	q[2] = ebVertex(b.XPx-nx, b.YPx-ny, b.Col)
	q[3] = ebVertex(a.XPx-nx, a.YPx-ny, a.Col)
	return q, true
}

// pointQuad returns the corners of a square of side sizePx centred on p.
func pointQuad(p render.ScreenVertex, sizePx float64) [4]ebiten.Vertex {
	r := sizePx / 2
	return [4]ebiten.Vertex{
		ebVertex(p.XPx-r, p.YPx-r, p.Col),
		ebVertex(p.XPx+r, p.YPx-r, p.Col),
		ebVertex(p.XPx+r, p.YPx+r, p.Col),
		ebVertex(p.XPx-r, p.YPx+r, p.Col),
	}
}
