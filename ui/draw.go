package ui

import (
	"image"
	"image/color"
	"time"
	"unsafe"

	"github.com/hajimehoshi/ebiten/v2"

	"navviz/render"
	"navviz/ui/session"
)

// The 3D view.
//
// The view is drawn by the software rasterizer (render.Rasterizer: exact
// depth buffer, the pixels navmesh shot and the scenario goldens make) on
// the CPU, in a background job (jobs.go), and the finished image is
// written into the screen's pixels. Ebitengine has no depth buffer: the
// GPU path this replaced cut every triangle into 16-pixel pieces and
// sorted them back to front, and under a software GL (Mesa's llvmpipe,
// what CI machines and remote desktops have) setting up and filling those
// pieces was two thirds of a frame. Writing an image costs the GL a copy,
// whatever the scene holds.

// viewKey is everything a view's pixels depend on: the camera, the view's
// size in pixels and its top-left corner on the screen (x0, y0), the
// scene and its generation, and the resolution divisor (1: full;
// movingScale while the camera moves, see jobs.go).
type viewKey struct {
	cam    render.Camera
	w, h   int
	x0, y0 int
	scene  *render.Scene
	gen    uint64
	scale  int
}

// sceneView is one rendered view: the rasterized image of a key. Building
// touches only v and the scene snapshot, so it runs in a background job
// (jobs.go) while the game goroutine shows another sceneView.
type sceneView struct {
	valid bool
	key   viewKey

	ras  render.Rasterizer
	img  *image.RGBA // the last build (owned by ras)
	full []byte      // img scaled to the view's size (reduced resolution)

	drawnTris int     // triangles, lines and points set up by the last build
	buildMs   float64 // time of the last build, milliseconds
	builds    int     // builds so far
}

// sceneKey returns the key of the view a's scene and camera give in the
// rectangle vp of the screen.
func sceneKey(a *session.App, vp image.Rectangle) viewKey {
	return viewKey{cam: a.Camera, w: vp.Dx(), h: vp.Dy(), x0: vp.Min.X, y0: vp.Min.Y, scene: a.Scene(), gen: a.Gen(), scale: 1}
}

// current reports whether v shows key.
func (v *sceneView) current(key viewKey) bool { return v.valid && v.key == key }

// draw draws the visible overlays of a.Scene through a.Camera onto dst
// (the view fills dst's bounds, which may be a sub-image of the screen),
// rendering them first (on this goroutine) when v does not show them yet.
func (v *sceneView) draw(dst *ebiten.Image, a *session.App) {
	key := sceneKey(a, dst.Bounds())
	if !v.current(key) {
		v.buildKey(visibleScene(a.Scene()), key)
	}
	v.drawImage(dst)
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

// buildKey renders the snapshot s (visibleScene) for key, at the key's
// resolution (viewSize).
func (v *sceneView) buildKey(s *render.Scene, key viewKey) {
	w, h := key.viewSize()
	v.build(s, key.cam, w, h)
	v.key, v.valid = key, true
}

// viewSize returns the size in pixels the view of k is rendered at: the
// screen size divided by k.scale.
func (k viewKey) viewSize() (wPx, hPx int) {
	d := max(k.scale, 1)
	return max(k.w/d, 1), max(k.h/d, 1)
}

// build rasterizes the scene for camera cam into a w x h image.
func (v *sceneView) build(s *render.Scene, cam render.Camera, w, h int) {
	t0 := time.Now()
	v.img = v.ras.Draw(s, cam, w, h, backgroundColor)
	v.drawnTris = v.ras.Tris + v.ras.Lines + v.ras.Points
	v.buildMs = float64(time.Since(t0)) / float64(time.Millisecond)
	v.builds++
}

// drawImage writes the image of the last build into dst's pixels at the
// view's rectangle: written, not drawn, since under llvmpipe a textured
// quad costs far more than the upload (about 15 ns a pixel against 2). A
// reduced-resolution view is scaled up on the CPU first, nearest pixel.
// It runs on the game goroutine, which owns every Ebitengine image.
func (v *sceneView) drawImage(dst *ebiten.Image) {
	if v.img == nil || v.img.Rect.Empty() {
		return
	}
	r := image.Rect(v.key.x0, v.key.y0, v.key.x0+v.key.w, v.key.y0+v.key.h)
	if r.Empty() || !r.In(dst.Bounds()) {
		return // the window shrank: a new view is on its way
	}
	pix := v.img.Pix
	if w, h := v.img.Rect.Dx(), v.img.Rect.Dy(); w != v.key.w || h != v.key.h {
		v.full = scaleNearest(v.full, v.img, v.key.w, v.key.h)
		pix = v.full
	}
	dst.SubImage(r).(*ebiten.Image).WritePixels(pix)
}

// scaleNearest returns src scaled to w x h pixels (nearest pixel) as RGBA
// bytes, in buf when it is large enough. Each output row is made once and
// copied to the rows that repeat it.
func scaleNearest(buf []byte, src *image.RGBA, w, h int) []byte {
	if n := 4 * w * h; cap(buf) < n {
		buf = make([]byte, n)
	} else {
		buf = buf[:n]
	}
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	if w <= 0 || h <= 0 || sw <= 0 || sh <= 0 {
		return buf[:0]
	}
	prev := -1
	for y := range h {
		out := buf[4*w*y : 4*w*(y+1)]
		sy := y * sh / h
		if sy == prev {
			copy(out, buf[4*w*(y-1):4*w*y])
			continue
		}
		prev = sy
		in := unsafe.Slice((*uint32)(unsafe.Pointer(&src.Pix[sy*src.Stride])), sw)
		px := unsafe.Slice((*uint32)(unsafe.Pointer(&out[0])), w)
		for x := range px {
			px[x] = in[x*sw/w]
		}
	}
	return buf
}

// fillOutside fills the part of dst outside r with c.
func fillOutside(dst *ebiten.Image, r image.Rectangle, c color.Color) {
	b := dst.Bounds()
	r = r.Intersect(b)
	if r.Empty() {
		dst.Fill(c)
		return
	}
	for _, p := range []image.Rectangle{
		image.Rect(b.Min.X, b.Min.Y, b.Max.X, r.Min.Y), // above
		image.Rect(b.Min.X, r.Max.Y, b.Max.X, b.Max.Y), // below
		image.Rect(b.Min.X, r.Min.Y, r.Min.X, r.Max.Y), // left
		image.Rect(r.Max.X, r.Min.Y, b.Max.X, r.Max.Y), // right
	} {
		if !p.Empty() {
			dst.SubImage(p).(*ebiten.Image).Fill(c)
		}
	}
}
