package render

import (
	"image"
	"image/color"
	"math"
	"runtime"
	"sync"
)

// MaxRasterPx bounds each side of the image Rasterize makes; larger sizes
// are clamped (it keeps the fixed-point edge functions far from overflow).
const MaxRasterPx = 16384

// subPxBits is the number of fractional bits of the fixed-point screen
// coordinates of the rasterizer (1/256 pixel).
const (
	subPxBits = 8
	subPx     = 1 << subPxBits
	halfSubPx = subPx / 2
)

// Rasterize draws the visible overlays of s, in order, seen by cam, into a
// new wPx x hPx image cleared to bg, with a depth buffer.
//
// Within an overlay, triangles are drawn first, then lines, then points.
// A fragment is kept when its depth key is ≤ the stored one, so of equal
// depths the later primitive wins.
//
//   - Triangles: both faces, top-left fill rule on 1/256-pixel fixed-point
//     vertices with exact integer edge functions (two triangles sharing an
//     edge cover each pixel centre exactly once); depth key (clip z/w)
//     interpolated linearly in screen space, which is the perspective-correct
//     depth; colour interpolated linearly in screen space as a GPU would for
//     2D triangles (flat when the three colours are equal).
//   - Lines: one pixel wide, half-open along the major axis, with a depth
//     bias of LineDepthBiasPx pixel footprints so that wireframes lying on
//     surfaces show.
//   - Points: squares of PointSizePx pixels (at least 1), biased like lines.
//
// Colours with alpha 255 are written with their depth; other alphas blend
// over the image (source over, integer rounding) without writing depth.
//
// The result depends only on the inputs: the image is cut into horizontal
// bands rendered in parallel, each band applying every primitive in order to
// its own pixels, and all arithmetic is integer or float64 without fused
// multiply-adds. A nil scene or an empty viewport gives the cleared image;
// sizes are clamped to [0, MaxRasterPx].
func Rasterize(s *Scene, cam Camera, wPx, hPx int, bg color.RGBA) *image.RGBA {
	var r Rasterizer
	return r.draw(s, cam, wPx, hPx, bg, runtime.GOMAXPROCS(0))
}

// Rasterizer draws scenes as Rasterize does, keeping its image, depth
// buffer and primitive lists between calls, so that drawing one view after
// another (the GUI's 3D view) allocates nothing once the sizes settle. The
// zero value is ready to use; a Rasterizer is not safe for concurrent use.
type Rasterizer struct {
	img     *image.RGBA
	depth   []float64
	batches []batch          // set-up primitives, in drawing order
	nb      int              // batches in use
	svs     [][]ScreenVertex // projection scratch, one per setup chunk
	meshes  map[*Vertex]*triIndex
	// Primitives of the last Draw: triangles, lines and points set up.
	Tris, Lines, Points int
}

// Draw draws s as Rasterize does, into the Rasterizer's own image: the
// result stays valid until the next call to Draw, which overwrites it. A
// nil Rasterizer draws into a new image, as Rasterize.
func (r *Rasterizer) Draw(s *Scene, cam Camera, wPx, hPx int, bg color.RGBA) *image.RGBA {
	if r == nil {
		return Rasterize(s, cam, wPx, hPx, bg)
	}
	return r.draw(s, cam, wPx, hPx, bg, runtime.GOMAXPROCS(0))
}

func rasterize(s *Scene, cam Camera, wPx, hPx int, bg color.RGBA, workers int) *image.RGBA {
	var r Rasterizer
	return r.draw(s, cam, wPx, hPx, bg, workers)
}

// draw is Draw on workers bands.
func (r *Rasterizer) draw(s *Scene, cam Camera, wPx, hPx int, bg color.RGBA, workers int) *image.RGBA {
	wPx = max(0, min(MaxRasterPx, wPx))
	hPx = max(0, min(MaxRasterPx, hPx))
	if r.img == nil || r.img.Rect.Dx() != wPx || r.img.Rect.Dy() != hPx {
		r.img = image.NewRGBA(image.Rect(0, 0, wPx, hPx))
	}
	img := r.img
	fillPixels(img.Pix, bg)
	r.Tris, r.Lines, r.Points = 0, 0, 0
	if s == nil || wPx == 0 || hPx == 0 {
		return img
	}
	if n := wPx * hPx; cap(r.depth) < n {
		r.depth = make([]float64, n)
	}
	t := &target{pix: img.Pix, stride: img.Stride, depth: r.depth[:wPx*hPx], w: wPx, h: hPx}
	for i := range t.depth {
		t.depth[i] = math.Inf(1)
	}

	p := cam.projector(wPx, hPx)
	r.nb = 0
	for _, o := range s.Overlays {
		if o == nil || !o.Visible {
			continue
		}
		if m := r.meshIndex(o.Tris); m != nil {
			m.project(p, workers)
			r.setupParallel(len(m.idx)/3, 3, workers, func(b *batch, sv []ScreenVertex, lo, hi int) []ScreenVertex {
				sv = p.indexedTris(m.idx[lo:hi], &m.pr, sv[:0])
				setupTris(b, sv, wPx, hPx)
				return sv
			})
		} else if len(o.Tris) >= 3 {
			r.setupParallel(len(o.Tris)/3, 3, workers, func(b *batch, sv []ScreenVertex, lo, hi int) []ScreenVertex {
				sv = p.tris(o.Tris[lo:hi], sv[:0])
				setupTris(b, sv, wPx, hPx)
				return sv
			})
		}
		if len(o.Lines) >= 2 {
			r.setupParallel(len(o.Lines)/2, 2, workers, func(b *batch, sv []ScreenVertex, lo, hi int) []ScreenVertex {
				sv = p.lines(o.Lines[lo:hi], sv[:0])
				p.setupLines(b, sv)
				return sv
			})
		}
		if len(o.Points) > 0 {
			r.setupParallel(len(o.Points), 1, workers, func(b *batch, sv []ScreenVertex, lo, hi int) []ScreenVertex {
				sv = p.points(o.Points[lo:hi], sv[:0])
				p.setupPoints(b, sv, o.PointSizePx, wPx, hPx)
				return sv
			})
		}
	}
	r.dropUnusedIndices()
	batches := r.batches[:r.nb]
	for i := range batches {
		r.Tris += len(batches[i].tris)
		r.Lines += len(batches[i].lines)
		r.Points += len(batches[i].points)
	}

	// Bands of whole rows; each pixel is owned by exactly one band, and every
	// band walks the batches in the same order, so the result does not depend
	// on the number of workers.
	workers = max(1, min(workers, hPx/8, 64))
	bandH := (hPx + workers - 1) / workers
	var wg sync.WaitGroup
	for y0 := 0; y0 < hPx; y0 += bandH {
		y1 := min(hPx, y0+bandH)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range batches {
				b := &batches[i]
				for j := range b.tris {
					t.drawTri(&b.tris[j], y0, y1)
				}
				for j := range b.lines {
					t.drawLine(&b.lines[j], y0, y1)
				}
				for j := range b.points {
					t.drawPoint(&b.points[j], y0, y1)
				}
			}
		}()
	}
	wg.Wait()
	return img
}

// batch is one run of primitives of one kind from one overlay.
type batch struct {
	tris   []triSetup
	lines  []lineSetup
	points []pointSetup
}

// triSetup is a triangle ready for scan conversion: fixed-point vertices in
// counter-clockwise-on-screen order (positive area), the pixel box it may
// cover, and depth and colour pre-divided by the doubled area.
type triSetup struct {
	x, y     [3]int64
	bias     [3]int64 // 0 for top-left edges, -1 otherwise
	px0, px1 int32    // inclusive pixel range
	py0, py1 int32
	zs       [3]float64
	col      color.RGBA     // flat colour
	cs       *[3][4]float64 // per-vertex colour / area, when not flat
	flat     bool
}

type lineSetup struct {
	x0, y0, z0, x1, y1, z1 float64
	c0, c1                 color.RGBA
}

type pointSetup struct {
	px0, px1, py0, py1 int32 // inclusive pixel range
	z                  float64
	col                color.RGBA
}

// target is the image and depth buffer being drawn.
type target struct {
	pix    []uint8
	stride int
	depth  []float64
	w, h   int
}

// Large triangle lists (a level's display mesh) that come back draw after
// draw are projected one vertex at a time: a level's triangles share most
// of their vertices (city: 129k triangle corners, 60k distinct), and
// projecting each distinct vertex once, then assembling the triangles from
// indices, gives the same screen triangles for half the work. The index is
// made on a list's second draw (lists that change every draw never pay for
// one) and dropped on the first draw without it.

// minIndexedTris is the fewest triangles a list is indexed for.
const minIndexedTris = 8192

// triIndex is the index of one triangle list.
type triIndex struct {
	// src is the indexed list: its first vertex's address names it in
	// Rasterizer.meshes, and holding it keeps that address from being
	// reused by another list while the entry lives.
	src   []Vertex
	verts []Vertex // distinct vertices, in order of first use
	idx   []int32  // three per triangle, into verts
	pr    projected
	used  bool // drawn by the current Draw
}

// meshIndex returns the index of tris when it is large and was drawn
// before, nil to project it vertex by vertex.
func (r *Rasterizer) meshIndex(tris []Vertex) *triIndex {
	n := len(tris) / 3 * 3
	if n/3 < minIndexedTris {
		return nil
	}
	if r.meshes == nil {
		r.meshes = map[*Vertex]*triIndex{}
	}
	m := r.meshes[&tris[0]]
	if m == nil || len(m.src) != len(tris) {
		r.meshes[&tris[0]] = &triIndex{src: tris, used: true} // indexed when drawn again
		return nil
	}
	m.used = true
	if m.idx == nil {
		m.build(tris[:n])
	}
	return m
}

// dropUnusedIndices forgets the lists the current Draw did not draw and
// clears the marks for the next one.
func (r *Rasterizer) dropUnusedIndices() {
	for k, m := range r.meshes {
		if !m.used {
			delete(r.meshes, k)
		}
		m.used = false
	}
}

// build indexes tris.
func (m *triIndex) build(tris []Vertex) {
	at := make(map[[4]uint32]int32, len(tris)/2)
	m.idx = make([]int32, len(tris))
	for i := range tris {
		k := vertexKey(&tris[i])
		j, ok := at[k]
		if !ok {
			j = int32(len(m.verts))
			at[k] = j
			m.verts = append(m.verts, tris[i])
		}
		m.idx[i] = j
	}
	n := len(m.verts)
	m.pr = projected{cv: make([]clipVert, n), code: make([]int, n), sv: make([]ScreenVertex, n)}
}

// project projects m's distinct vertices through p, in up to workers
// chunks run in parallel.
func (m *triIndex) project(p *projector, workers int) {
	n := len(m.verts)
	chunks := max(1, min(workers, n/minChunkPrims))
	var wg sync.WaitGroup
	for c := range chunks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.projectVerts(m.verts, &m.pr, n*c/chunks, n*(c+1)/chunks)
		}()
	}
	wg.Wait()
}

// minChunkPrims is the fewest primitives a setup chunk of its own is worth
// (a goroutine's start-up against the projection of this many).
const minChunkPrims = 2048

// setupParallel projects and sets up n primitives of per vertices each in
// up to workers chunks of consecutive primitives, each into a batch of its
// own, run in parallel. The batches follow in input order, so drawing them
// in turn draws the primitives in input order whatever the chunking. run
// projects vertices [lo, hi) into the scratch sv, sets them up in b and
// returns sv for reuse.
func (r *Rasterizer) setupParallel(n, per, workers int, run func(b *batch, sv []ScreenVertex, lo, hi int) []ScreenVertex) {
	chunks := max(1, min(workers, n/minChunkPrims))
	for len(r.batches) < r.nb+chunks {
		r.batches = append(r.batches, batch{})
	}
	for len(r.svs) < chunks {
		r.svs = append(r.svs, nil)
	}
	one := func(c int) {
		b := &r.batches[r.nb+c]
		b.tris, b.lines, b.points = b.tris[:0], b.lines[:0], b.points[:0]
		lo, hi := n*c/chunks*per, n*(c+1)/chunks*per
		r.svs[c] = run(b, r.svs[c], lo, hi)[:0]
	}
	if chunks == 1 {
		one(0)
	} else {
		var wg sync.WaitGroup
		for c := range chunks {
			wg.Add(1)
			go func() {
				defer wg.Done()
				one(c)
			}()
		}
		wg.Wait()
	}
	// Keep only the batches that hold something, in order.
	kept := r.nb
	for c := range chunks {
		b := &r.batches[r.nb+c]
		if len(b.tris)+len(b.lines)+len(b.points) == 0 {
			continue
		}
		if kept != r.nb+c {
			r.batches[kept], *b = *b, r.batches[kept]
		}
		kept++
	}
	r.nb = kept
}

// fillPixels sets every RGBA pixel of pix to c.
func fillPixels(pix []uint8, c color.RGBA) {
	if len(pix) < 4 {
		return
	}
	pix[0], pix[1], pix[2], pix[3] = c.R, c.G, c.B, c.A
	for n := 4; n < len(pix); n *= 2 {
		copy(pix[n:], pix[:n])
	}
}

// toFixed converts a pixel coordinate to 1/256-pixel fixed point, rounding
// half up. Screen coordinates from the projector lie within the guard band.
func toFixed(v float64) int64 { return int64(math.Floor(float64(v*subPx) + 0.5)) }

// ceilDivSub returns ceil(v / subPx) for any sign; floorDivSub floor(v / subPx).
func ceilDivSub(v int64) int64  { return -((-v) >> subPxBits) }
func floorDivSub(v int64) int64 { return v >> subPxBits }

func isTopLeft(ax, ay, bx, by int64) bool {
	dy := by - ay
	return dy < 0 || (dy == 0 && bx > ax)
}

// setupTris appends the triangles of sv that cover a pixel to b.tris and
// returns how many b holds.
func setupTris(b *batch, sv []ScreenVertex, wPx, hPx int) int {
	for i := 0; i+2 < len(sv); i += 3 {
		v := [3]*ScreenVertex{&sv[i], &sv[i+1], &sv[i+2]}
		var ts triSetup
		for k := 0; k < 3; k++ {
			ts.x[k], ts.y[k] = toFixed(v[k].XPx), toFixed(v[k].YPx)
		}
		area := (ts.x[1]-ts.x[0])*(ts.y[2]-ts.y[0]) - (ts.y[1]-ts.y[0])*(ts.x[2]-ts.x[0])
		if area == 0 {
			continue
		}
		if area < 0 {
			area = -area
			v[1], v[2] = v[2], v[1]
			ts.x[1], ts.x[2] = ts.x[2], ts.x[1]
			ts.y[1], ts.y[2] = ts.y[2], ts.y[1]
		}
		minX := min(ts.x[0], ts.x[1], ts.x[2])
		maxX := max(ts.x[0], ts.x[1], ts.x[2])
		minY := min(ts.y[0], ts.y[1], ts.y[2])
		maxY := max(ts.y[0], ts.y[1], ts.y[2])
		px0 := max(0, ceilDivSub(minX-halfSubPx))
		px1 := min(int64(wPx-1), floorDivSub(maxX-halfSubPx))
		py0 := max(0, ceilDivSub(minY-halfSubPx))
		py1 := min(int64(hPx-1), floorDivSub(maxY-halfSubPx))
		if px0 > px1 || py0 > py1 {
			continue
		}
		ts.px0, ts.px1, ts.py0, ts.py1 = int32(px0), int32(px1), int32(py0), int32(py1)
		// Edge k is the edge opposite vertex k: 0 = v1→v2, 1 = v2→v0, 2 = v0→v1.
		for k := 0; k < 3; k++ {
			a, c := (k+1)%3, (k+2)%3
			if !isTopLeft(ts.x[a], ts.y[a], ts.x[c], ts.y[c]) {
				ts.bias[k] = -1
			}
		}
		fa := float64(area)
		for k := 0; k < 3; k++ {
			ts.zs[k] = v[k].Z / fa
		}
		c0, c1, c2 := v[0].Col, v[1].Col, v[2].Col
		ts.flat = c0 == c1 && c1 == c2
		ts.col = c0
		if !ts.flat {
			var cs [3][4]float64
			for k := 0; k < 3; k++ {
				c := v[k].Col
				cs[k] = [4]float64{float64(c.R) / fa, float64(c.G) / fa, float64(c.B) / fa, float64(c.A) / fa}
			}
			ts.cs = &cs
		}
		b.tris = append(b.tris, ts)
	}
	return len(b.tris)
}

// plot writes colour c with depth key z at pixel index i (pixel offset o in
// pix) if it passes the depth test.
func (t *target) plot(i, o int, z float64, c color.RGBA) {
	if !(z <= t.depth[i]) {
		return
	}
	if c.A == 255 {
		t.depth[i] = z
		t.pix[o], t.pix[o+1], t.pix[o+2], t.pix[o+3] = c.R, c.G, c.B, 255
		return
	}
	a := uint32(c.A)
	na := 255 - a
	px := t.pix[o : o+4 : o+4]
	px[0] = uint8((uint32(c.R)*a + uint32(px[0])*na + 127) / 255)
	px[1] = uint8((uint32(c.G)*a + uint32(px[1])*na + 127) / 255)
	px[2] = uint8((uint32(c.B)*a + uint32(px[2])*na + 127) / 255)
	px[3] = uint8((255*a + uint32(px[3])*na + 127) / 255)
}

func round8(v float64) uint8 {
	return uint8(max(0, min(255, math.Floor(v+0.5))))
}

func (t *target) drawTri(ts *triSetup, y0, y1 int) {
	py0, py1 := max(int(ts.py0), y0), min(int(ts.py1), y1-1)
	if py0 > py1 {
		return
	}
	px0, px1 := int(ts.px0), int(ts.px1)
	x, y := &ts.x, &ts.y
	// Edge k from a=(k+1)%3 to c=(k+2)%3: E(p) = (xc-xa)(py-ya) - (yc-ya)(px-xa).
	var e0, dx, dy [3]int64
	cx := int64(px0)<<subPxBits + halfSubPx
	cy := int64(py0)<<subPxBits + halfSubPx
	for k := 0; k < 3; k++ {
		a, c := (k+1)%3, (k+2)%3
		ex, ey := x[c]-x[a], y[c]-y[a]
		e0[k] = ex*(cy-y[a]) - ey*(cx-x[a]) + ts.bias[k]
		dx[k] = -ey << subPxBits
		dy[k] = ex << subPxBits
	}
	zs0, zs1, zs2 := ts.zs[0], ts.zs[1], ts.zs[2]
	b0, b1, b2 := ts.bias[0], ts.bias[1], ts.bias[2]
	for py := py0; py <= py1; py++ {
		w0, w1, w2 := e0[0], e0[1], e0[2]
		row := py * t.w
		for px := px0; px <= px1; px++ {
			if w0|w1|w2 >= 0 {
				// Unbiased edge values are the barycentric weights × area.
				f0, f1, f2 := float64(w0-b0), float64(w1-b1), float64(w2-b2)
				z := float64(f0*zs0) + float64(f1*zs1) + float64(f2*zs2)
				i := row + px
				if z <= t.depth[i] {
					col := ts.col
					if !ts.flat {
						cs := ts.cs
						col = color.RGBA{
							round8(float64(f0*cs[0][0]) + float64(f1*cs[1][0]) + float64(f2*cs[2][0])),
							round8(float64(f0*cs[0][1]) + float64(f1*cs[1][1]) + float64(f2*cs[2][1])),
							round8(float64(f0*cs[0][2]) + float64(f1*cs[1][2]) + float64(f2*cs[2][2])),
							round8(float64(f0*cs[0][3]) + float64(f1*cs[1][3]) + float64(f2*cs[2][3])),
						}
					}
					t.plot(i, py*t.stride+px*4, z, col)
				}
			}
			w0 += dx[0]
			w1 += dx[1]
			w2 += dx[2]
		}
		e0[0] += dy[0]
		e0[1] += dy[1]
		e0[2] += dy[2]
	}
}

// biasZ moves a depth key towards the viewer by the line depth bias.
func (p *projector) biasZ(z float64) float64 {
	if p.ortho {
		return z - p.lineBiasKeyO
	}
	// Perspective z = 1 − near/depth; scaling depth by (1 − k) gives
	// 1 − (1 − z)/(1 − k).
	return 1 - (1-z)/(1-p.lineBiasRel)
}

// setupLines appends the segments of sv to b.lines and returns how many
// b holds.
func (p *projector) setupLines(b *batch, sv []ScreenVertex) int {
	for i := 0; i+1 < len(sv); i += 2 {
		a, c := &sv[i], &sv[i+1]
		b.lines = append(b.lines, lineSetup{
			x0: a.XPx, y0: a.YPx, z0: p.biasZ(a.Z), c0: a.Col,
			x1: c.XPx, y1: c.YPx, z1: p.biasZ(c.Z), c1: c.Col,
		})
	}
	return len(b.lines)
}

// drawLine draws a one-pixel line: along the major axis it covers the pixels
// whose centres lie in [start, end), and on the minor axis the pixel that
// contains the line at that centre.
func (t *target) drawLine(l *lineSetup, y0, y1 int) {
	x0, ya, z0, c0 := l.x0, l.y0, l.z0, l.c0
	x1, yb, z1, c1 := l.x1, l.y1, l.z1, l.c1
	ddx, ddy := x1-x0, yb-ya
	flat := c0 == c1
	if math.Abs(ddx) >= math.Abs(ddy) {
		if x1 < x0 {
			x0, x1, ya, yb, z0, z1, c0, c1 = x1, x0, yb, ya, z1, z0, c1, c0
			ddx, ddy = -ddx, -ddy
		}
		if ddx == 0 {
			return
		}
		// Pixel px has centre px+0.5 in [x0, x1).
		pxA := max(0, int(math.Ceil(x0-0.5)))
		pxB := min(t.w, int(math.Ceil(x1-0.5)))
		for px := pxA; px < pxB; px++ {
			u := (float64(px) + 0.5 - x0) / ddx
			py := int(math.Floor(lerp(ya, yb, u)))
			if py < y0 || py >= y1 || py < 0 || py >= t.h {
				continue
			}
			t.linePixel(px, py, lerp(z0, z1, u), c0, c1, u, flat)
		}
		return
	}
	if yb < ya {
		x0, x1, ya, yb, z0, z1, c0, c1 = x1, x0, yb, ya, z1, z0, c1, c0
		ddx, ddy = -ddx, -ddy
	}
	pyA := max(y0, int(math.Ceil(ya-0.5)))
	pyB := min(y1, int(math.Ceil(yb-0.5)))
	for py := pyA; py < pyB; py++ {
		u := (float64(py) + 0.5 - ya) / ddy
		px := int(math.Floor(lerp(x0, x1, u)))
		if px < 0 || px >= t.w {
			continue
		}
		t.linePixel(px, py, lerp(z0, z1, u), c0, c1, u, flat)
	}
}

func (t *target) linePixel(px, py int, z float64, c0, c1 color.RGBA, u float64, flat bool) {
	c := c0
	if !flat {
		c = color.RGBA{lerp8(c0.R, c1.R, u), lerp8(c0.G, c1.G, u), lerp8(c0.B, c1.B, u), lerp8(c0.A, c1.A, u)}
	}
	t.plot(py*t.w+px, py*t.stride+px*4, z, c)
}

// setupPoints appends the points of sv that cover a pixel to b.points and
// returns how many b holds.
func (p *projector) setupPoints(b *batch, sv []ScreenVertex, sizePx float32, wPx, hPx int) int {
	s := float64(sizePx)
	if !(s >= 1) {
		s = 1
	}
	s = min(s, 256)
	for i := range sv {
		v := &sv[i]
		// Pixels whose centres lie in [x − s/2, x + s/2) and likewise in y.
		hs := float64(s / 2)
		px0 := max(0, int(math.Ceil(v.XPx-hs-0.5)))
		px1 := min(wPx, int(math.Ceil(v.XPx+hs-0.5))) - 1
		py0 := max(0, int(math.Ceil(v.YPx-hs-0.5)))
		py1 := min(hPx, int(math.Ceil(v.YPx+hs-0.5))) - 1
		if px0 > px1 || py0 > py1 {
			continue
		}
		b.points = append(b.points, pointSetup{
			px0: int32(px0), px1: int32(px1), py0: int32(py0), py1: int32(py1),
			z: p.biasZ(v.Z), col: v.Col,
		})
	}
	return len(b.points)
}

func (t *target) drawPoint(ps *pointSetup, y0, y1 int) {
	py0, py1 := max(int(ps.py0), y0), min(int(ps.py1), y1-1)
	for py := py0; py <= py1; py++ {
		for px := int(ps.px0); px <= int(ps.px1); px++ {
			t.plot(py*t.w+px, py*t.stride+px*4, ps.z, ps.col)
		}
	}
}
