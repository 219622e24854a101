package render

import (
	"bytes"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"

	"navviz/core/geom"
	"navviz/core/level"
)

// boxesSoup returns a small synthetic level: a ground quad and a few boxes.
func boxesSoup() *level.Soup {
	s := &level.Soup{}
	quad := func(a, b, c, d geom.Vec3) {
		n := int32(len(s.Verts))
		s.Verts = append(s.Verts, a, b, c, d)
		s.Tris = append(s.Tris, [3]int32{n, n + 1, n + 2}, [3]int32{n, n + 2, n + 3})
		s.Areas = append(s.Areas, level.AreaWalkable, level.AreaWalkable)
	}
	quad(geom.V3(-20, 0, -20), geom.V3(20, 0, -20), geom.V3(20, 0, 20), geom.V3(-20, 0, 20))
	box := func(x0, z0, x1, z1, h float32) {
		v := func(x, y, z float32) geom.Vec3 { return geom.V3(x, y, z) }
		quad(v(x0, h, z0), v(x1, h, z0), v(x1, h, z1), v(x0, h, z1))
		quad(v(x0, 0, z0), v(x1, 0, z0), v(x1, h, z0), v(x0, h, z0))
		quad(v(x0, 0, z1), v(x1, 0, z1), v(x1, h, z1), v(x0, h, z1))
		quad(v(x0, 0, z0), v(x0, 0, z1), v(x0, h, z1), v(x0, h, z0))
		quad(v(x1, 0, z0), v(x1, 0, z1), v(x1, h, z1), v(x1, h, z0))
	}
	box(-15, -15, -5, -8, 12)
	box(2, -12, 12, -2, 6)
	box(-10, 4, -2, 14, 3)
	box(6, 6, 16, 16, 20)
	// a ramp
	quad(geom.V3(-2, 0, -2), geom.V3(2, 0, -2), geom.V3(2, 3, 3), geom.V3(-2, 3, 3))
	return s
}

func TestProjectKnownPoints(t *testing.T) {
	const w, h = 640, 400
	for _, ortho := range []bool{false, true} {
		c := DefaultCamera()
		c.Ortho = ortho
		c.Target = geom.V3(1, 2, 3)
		x, y, d, ok := c.Project(c.Target, w, h)
		if !ok || math.Abs(x-w/2) > 1e-9 || math.Abs(y-h/2) > 1e-9 || math.Abs(d-c.DistanceM) > 1e-9 {
			t.Errorf("ortho=%v: target projects to (%v, %v, %v, %v), want centre at depth %v", ortho, x, y, d, ok, c.DistanceM)
		}
		// Top-down: +x right, +z down the screen, depth from above.
		c.TopDown = true
		c.Target = geom.Vec3{}
		c.DistanceM = 10
		x, y, d, ok = c.Project(geom.V3(0, 0, 0), w, h)
		if !ok || x != w/2 || y != h/2 || d != 10 {
			t.Errorf("top-down origin: (%v, %v, %v, %v)", x, y, d, ok)
		}
		// At the target's depth the half-height is DistanceM*tan(fov/2).
		halfH := 10 * math.Tan(math.Pi/8)
		x, y, _, _ = c.Project(geom.V3(float32(halfH), 0, 0), w, h)
		if math.Abs(x-(w/2+h/2)) > 1e-4 || math.Abs(y-h/2) > 1e-4 {
			t.Errorf("ortho=%v: +x at half-height: (%v, %v), want (%v, %v)", ortho, x, y, w/2+h/2, h/2)
		}
		x, y, _, _ = c.Project(geom.V3(0, 0, float32(halfH)), w, h)
		if math.Abs(x-w/2) > 1e-4 || math.Abs(y-h) > 1e-4 {
			t.Errorf("ortho=%v: +z at half-height: (%v, %v), want (%v, %v)", ortho, x, y, w/2, h)
		}
		_, _, d, _ = c.Project(geom.V3(0, 4, 0), w, h)
		if math.Abs(d-6) > 1e-6 {
			t.Errorf("ortho=%v: depth of a point 4 m above target = %v, want 6", ortho, d)
		}
	}
	// Perspective: behind the eye is not ok, and Project agrees with ViewProj.
	c := DefaultCamera()
	eye, _, _, fwd := c.basis()
	behind := geom.V3(float32(eye[0]+fwd[0]*(-1)), float32(eye[1]-fwd[1]), float32(eye[2]-fwd[2]))
	if _, _, _, ok := c.Project(behind, 640, 400); ok {
		t.Errorf("point behind the eye projected ok")
	}
	m := c.ViewProj(640, 400)
	p := geom.V3(3, 1, -4)
	cx, cy, cz, cw := m.MulPoint(vec64(p))
	x, y, d, ok := c.Project(p, 640, 400)
	if !ok || math.Abs(x-(cx/cw+1)*320) > 1e-9 || math.Abs(y-(1-cy/cw)*200) > 1e-9 || math.Abs(d-cw) > 1e-9 || cz < 0 {
		t.Errorf("Project (%v,%v,%v) disagrees with ViewProj clip (%v,%v,%v,%v)", x, y, d, cx, cy, cz, cw)
	}
}

func TestYawPitchConvention(t *testing.T) {
	c := DefaultCamera()
	c.YawRad, c.PitchRad = 0, 0.3
	eye, right, _, _ := c.basis()
	if !(eye[2] > 0) || math.Abs(eye[0]) > 1e-9 || !(eye[1] > 0) {
		t.Errorf("yaw 0 pitch>0: eye %v, want on +z and above", eye)
	}
	if right != [3]float64{1, 0, 0} {
		t.Errorf("yaw 0: right %v, want +x", right)
	}
	x, _, _, _ := c.Project(geom.V3(1, 0, 0), 640, 400)
	if x <= 320 {
		t.Errorf("yaw 0: +x projects to x=%v, want right of centre", x)
	}
}

func TestRayThroughProjectedPoint(t *testing.T) {
	for _, c := range testCameras() {
		p := geom.V3(3, 2, -5)
		x, y, d, ok := c.Project(p, 640, 400)
		if !ok {
			t.Fatalf("%+v: point not visible", c)
		}
		o, dir := c.Ray(x, y, 640, 400)
		// Distance from p to the ray.
		v := [3]float64{float64(p.X) - o[0], float64(p.Y) - o[1], float64(p.Z) - o[2]}
		tt := dot3(v, dir)
		var e2 float64
		for i := range v {
			e := v[i] - tt*dir[i]
			e2 += e * e
		}
		if math.Sqrt(e2) > 1e-4*max(1, d) || tt < 0 {
			t.Errorf("%+v: ray misses the projected point by %v m (t=%v)", c, math.Sqrt(e2), tt)
		}
	}
}

func testCameras() []Camera {
	var cs []Camera
	for _, ortho := range []bool{false, true} {
		for _, top := range []bool{false, true} {
			for _, yaw := range []float64{0, 0.7, -2.5} {
				c := DefaultCamera()
				c.Ortho, c.TopDown, c.YawRad = ortho, top, yaw
				c.Target = geom.V3(1, 0, -2)
				c.DistanceM = 40
				cs = append(cs, c)
			}
		}
	}
	return cs
}

func TestFramePutsCornersOnScreen(t *testing.T) {
	boxes := []geom.Box3{
		{Min: geom.V3(-100, 0, -100), Max: geom.V3(100, 30, 100)},
		{Min: geom.V3(10, -5, 3), Max: geom.V3(11, 80, 4)},
		{Min: geom.V3(-1000, 0, 0), Max: geom.V3(1000, 1, 5)},
	}
	for _, b := range boxes {
		for _, c := range testCameras() {
			for _, pitch := range []float64{-1.2, 0.1, 0.6, 1.5} {
				c.PitchRad = pitch
				c.Frame(b)
				for _, wh := range [][2]int{{640, 400}, {400, 400}, {1280, 800}} {
					for i := 0; i < 8; i++ {
						p := b.Min
						if i&1 != 0 {
							p.X = b.Max.X
						}
						if i&2 != 0 {
							p.Y = b.Max.Y
						}
						if i&4 != 0 {
							p.Z = b.Max.Z
						}
						x, y, _, ok := c.Project(p, wh[0], wh[1])
						if !ok || x < 0 || y < 0 || x > float64(wh[0]) || y > float64(wh[1]) {
							t.Errorf("box %v camera %+v %v: corner %v at (%v, %v) ok=%v, off screen", b, c, wh, p, x, y, ok)
						}
					}
				}
			}
		}
	}
	// Portrait viewport via FrameAspect.
	c := DefaultCamera()
	b := boxes[0]
	c.FrameAspect(b, 0.5)
	for _, p := range []geom.Vec3{b.Min, b.Max, geom.V3(b.Min.X, 0, b.Max.Z), geom.V3(b.Max.X, 30, b.Min.Z)} {
		x, y, _, ok := c.Project(p, 300, 600)
		if !ok || x < 0 || y < 0 || x > 300 || y > 600 {
			t.Errorf("portrait: corner %v at (%v, %v)", p, x, y)
		}
	}
	// Landscape via FrameAspect: on screen, and tight (some corner reaches
	// the margin).
	for _, cam := range testCameras() {
		cam.FrameAspect(b, 1.6)
		worst := 0.0
		for i := 0; i < 8; i++ {
			p := b.Min
			if i&1 != 0 {
				p.X = b.Max.X
			}
			if i&2 != 0 {
				p.Y = b.Max.Y
			}
			if i&4 != 0 {
				p.Z = b.Max.Z
			}
			x, y, _, ok := cam.Project(p, 1280, 800)
			if !ok || x < 0 || y < 0 || x > 1280 || y > 800 {
				t.Errorf("landscape %+v: corner %v at (%v, %v)", cam, p, x, y)
			}
			worst = max(worst, math.Abs(x/640-1), math.Abs(y/400-1))
		}
		if worst < 0.9 {
			t.Errorf("landscape %+v: framing not tight, corners reach only %.3f of the half-size", cam, worst)
		}
	}
	// Empty box: unchanged.
	c2 := c
	c2.Frame(geom.EmptyBox())
	if c2 != c {
		t.Errorf("Frame(empty) changed the camera")
	}
}

func TestPanFollowsCursor(t *testing.T) {
	for _, c := range testCameras() {
		c.PitchRad = 0.5
		p := c.Target
		x0, y0, _, _ := c.Project(p, 640, 400)
		c.Pan(37, -12, 640, 400)
		x1, y1, _, _ := c.Project(p, 640, 400)
		if math.Abs(x1-x0-37) > 1e-2 || math.Abs(y1-y0+12) > 1e-2 {
			t.Errorf("%+v: pan (37,-12) moved the target point by (%v, %v)", c, x1-x0, y1-y0)
		}
	}
}

func TestOrbitZoomClamp(t *testing.T) {
	c := DefaultCamera()
	c.Orbit(0, 1e6)
	if c.PitchRad > math.Pi/2 {
		t.Errorf("pitch not clamped: %v", c.PitchRad)
	}
	c.Orbit(0, -1e6)
	if c.PitchRad < -math.Pi/2 {
		t.Errorf("pitch not clamped: %v", c.PitchRad)
	}
	c.Orbit(math.NaN(), 1)
	if math.IsNaN(c.YawRad) || math.IsNaN(c.PitchRad) {
		t.Errorf("NaN orbit leaked into the camera")
	}
	d := c.DistanceM
	c.Zoom(1)
	if math.Abs(c.DistanceM-d*ZoomFactorPerStep) > 1e-9 {
		t.Errorf("zoom 1 step: %v, want %v", c.DistanceM, d*ZoomFactorPerStep)
	}
	c.Zoom(-1)
	if math.Abs(c.DistanceM-d) > 1e-9 {
		t.Errorf("zoom back: %v, want %v", c.DistanceM, d)
	}
	c.Zoom(1e6)
	if c.DistanceM != MinDistanceM {
		t.Errorf("zoom in clamp: %v", c.DistanceM)
	}
	c.Zoom(-1e6)
	if c.DistanceM != MaxDistanceM {
		t.Errorf("zoom out clamp: %v", c.DistanceM)
	}
}

// coverage counts, per pixel, how many of the screen triangles tris cover
// its centre, using the rasterizer's own scan conversion.
func coverage(tris []ScreenVertex, w, h int) []int {
	for i := range tris {
		tris[i].Col = color.RGBA{0, 0, 0, 255}
		tris[i].Z = 0.5
	}
	var b batch
	setupTris(&b, tris, w, h)
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	tg := &target{pix: img.Pix, stride: img.Stride, depth: make([]float64, w*h), w: w, h: h}
	count := make([]int, w*h)
	for i := range b.tris {
		for k := range tg.depth {
			tg.depth[k] = 1
		}
		clear(img.Pix)
		tg.drawTri(&b.tris[i], 0, h)
		for k := range count {
			if tg.depth[k] != 1 {
				count[k]++
			}
		}
	}
	return count
}

func convex(q ...[2]float64) bool {
	pos, neg := false, false
	for i := range q {
		a, b, c := q[i], q[(i+1)%len(q)], q[(i+2)%len(q)]
		cr := (b[0]-a[0])*(c[1]-b[1]) - (b[1]-a[1])*(c[0]-b[0])
		pos = pos || cr > 0
		neg = neg || cr < 0
	}
	return !(pos && neg)
}

func TestTopLeftRuleCoversEachPixelOnce(t *testing.T) {
	const w, h = 64, 48
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 20; trial++ {
		// A jittered grid of vertices whose outer ring lies off screen,
		// split into two triangles per cell (diagonal chosen at random):
		// a tiling of the whole viewport. Coordinates are multiples of
		// 0.5 px (so many edges pass exactly through pixel centres) or
		// multiples of 1/256 px.
		const n = 7
		var g [n + 1][n + 1][2]float64
		for i := 0; i <= n; i++ {
			for j := 0; j <= n; j++ {
				x := -4 + float64(i)*float64(w+8)/n
				y := -4 + float64(j)*float64(h+8)/n
				if i > 0 && i < n && j > 0 && j < n {
					x += rng.Float64()*3 - 1.5 // small enough to keep every cell convex
					y += rng.Float64()*3 - 1.5
				}
				if trial%2 == 0 {
					x, y = math.Round(x*2)/2, math.Round(y*2)/2
				} else {
					x, y = math.Round(x*256)/256, math.Round(y*256)/256
				}
				g[i][j] = [2]float64{x, y}
			}
		}
		var tris []ScreenVertex
		sv := func(p [2]float64) ScreenVertex { return ScreenVertex{XPx: p[0], YPx: p[1]} }
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				a, b, c, d := g[i][j], g[i+1][j], g[i+1][j+1], g[i][j+1]
				if !convex(a, b, c, d) {
					t.Fatalf("test set-up: cell %d,%d not convex", i, j)
				}
				if rng.IntN(2) == 0 {
					tris = append(tris, sv(a), sv(b), sv(c), sv(a), sv(d), sv(c)) // mixed winding on purpose
				} else {
					tris = append(tris, sv(a), sv(b), sv(d), sv(b), sv(c), sv(d))
				}
			}
		}
		cnt := coverage(tris, w, h)
		for k, c := range cnt {
			if c != 1 {
				t.Fatalf("trial %d: pixel (%d, %d) covered %d times, want 1", trial, k%w, k/w, c)
			}
		}
	}
	// Edges through pixel centres: the top and left edges own them, the
	// bottom and right ones do not.
	sq := []ScreenVertex{{XPx: 1.5, YPx: 1.5}, {XPx: 3.5, YPx: 1.5}, {XPx: 3.5, YPx: 3.5},
		{XPx: 1.5, YPx: 1.5}, {XPx: 3.5, YPx: 3.5}, {XPx: 1.5, YPx: 3.5}}
	cnt := coverage(sq, 6, 6)
	for k, c := range cnt {
		x, y := k%6, k/6
		want := 0
		if x >= 1 && x <= 2 && y >= 1 && y <= 2 {
			want = 1
		}
		if c != want {
			t.Errorf("square: pixel (%d, %d) covered %d times, want %d", x, y, c, want)
		}
	}
	// A fan around a centre that sits exactly on a pixel centre, with
	// spokes along the axes and diagonals.
	var tris []ScreenVertex
	cx, cy := 16.5, 16.5
	for k := 0; k < 8; k++ {
		a0 := float64(k) * math.Pi / 4
		a1 := float64(k+1) * math.Pi / 4
		tris = append(tris,
			ScreenVertex{XPx: cx, YPx: cy},
			ScreenVertex{XPx: cx + 40*math.Round(math.Cos(a0)*1e6)/1e6, YPx: cy + 40*math.Round(math.Sin(a0)*1e6)/1e6},
			ScreenVertex{XPx: cx + 40*math.Round(math.Cos(a1)*1e6)/1e6, YPx: cy + 40*math.Round(math.Sin(a1)*1e6)/1e6})
	}
	cnt = coverage(tris, 33, 33)
	for k, c := range cnt {
		if c != 1 {
			t.Fatalf("fan: pixel (%d, %d) covered %d times, want 1", k%33, k/33, c)
		}
	}
}

func TestNearPlaneClipping(t *testing.T) {
	c := DefaultCamera()
	c.Target = geom.V3(0, 1.7, 0)
	c.PitchRad = 0.2
	c.DistanceM = 2
	c.YawRad = 0
	eye, _, _, _ := c.basis()
	// A big ground triangle with one vertex behind the eye.
	gcol := color.RGBA{200, 50, 50, 255}
	tri := []Vertex{
		{geom.V3(-50, 0, -100), gcol},
		{geom.V3(50, 0, -100), gcol},
		{geom.V3(0, 0, float32(eye[2]+50)), gcol},
	}
	out := c.ProjectTris(tri, 320, 200, nil)
	if len(out) < 3 || len(out)%3 != 0 {
		t.Fatalf("crossing triangle gave %d screen vertices", len(out))
	}
	for _, v := range out {
		if v.Z < -1e-12 || v.DepthM < c.NearM()*(1-1e-9) {
			t.Errorf("clipped vertex in front of the near plane: %+v", v)
		}
	}
	s := &Scene{}
	s.Add(&Overlay{Name: "g", Visible: true, Tris: tri})
	img := Rasterize(s, c, 320, 200, color.RGBA{0, 0, 0, 255})
	// The bottom row of the screen looks at the ground just ahead of the
	// eye: it must be filled (the clipped part), as must the pixel below
	// the horizon at the centre column.
	for _, y := range []int{199, 150} {
		if got := img.RGBAAt(160, y); got != gcol {
			t.Errorf("pixel (160, %d) = %v, want ground %v", y, got, gcol)
		}
	}
	if got := img.RGBAAt(160, 5); got == gcol {
		t.Errorf("sky pixel painted as ground")
	}
	// Entirely behind: nothing.
	back := []Vertex{
		{geom.V3(-1, 0, float32(eye[2]+5)), gcol},
		{geom.V3(1, 0, float32(eye[2]+5)), gcol},
		{geom.V3(0, 3, float32(eye[2]+5)), gcol},
	}
	if out := c.ProjectTris(back, 320, 200, nil); len(out) != 0 {
		t.Errorf("triangle behind the eye gave %d vertices", len(out))
	}
	// A line crossing the near plane is clipped, not dropped.
	ln := []Vertex{tri[0], tri[2]}
	if out := c.ProjectLines(ln, 320, 200, nil); len(out) != 2 || out[1].Z < -1e-12 {
		t.Errorf("crossing line: %+v", out)
	}
}

func TestGuardBandClipping(t *testing.T) {
	// A huge triangle that reaches far outside the viewport on all sides is
	// clipped to the guard band and still fills the screen.
	c := DefaultCamera()
	c.TopDown = true
	c.DistanceM = 10
	col := color.RGBA{10, 200, 10, 255}
	tri := []Vertex{{geom.V3(-1e5, 0, -1e5), col}, {geom.V3(1e5, 0, -1e5), col}, {geom.V3(0, 0, 1e5), col}}
	out := c.ProjectTris(tri, 100, 80, nil)
	for _, v := range out {
		if v.XPx < -GuardBandPx-1 || v.XPx > 100+GuardBandPx+1 || v.YPx < -GuardBandPx-1 || v.YPx > 80+GuardBandPx+1 {
			t.Fatalf("vertex outside the guard band: %+v", v)
		}
	}
	s := &Scene{Overlays: []*Overlay{{Name: "t", Visible: true, Tris: tri}}}
	img := Rasterize(s, c, 100, 80, color.RGBA{})
	for y := 0; y < 80; y++ {
		for x := 0; x < 100; x++ {
			if img.RGBAAt(x, y) != col {
				t.Fatalf("pixel (%d, %d) not filled", x, y)
			}
		}
	}
}

func TestLinesShowOnCoincidentSurface(t *testing.T) {
	c := DefaultCamera()
	c.Frame(geom.Box3{Min: geom.V3(-10, 0, -10), Max: geom.V3(10, 0, 10)})
	s := &Scene{}
	gc := color.RGBA{100, 100, 100, 255}
	s.Add(&Overlay{Name: "floor", Visible: true, Tris: []Vertex{
		{geom.V3(-10, 0, -10), gc}, {geom.V3(10, 0, -10), gc}, {geom.V3(10, 0, 10), gc},
		{geom.V3(-10, 0, -10), gc}, {geom.V3(10, 0, 10), gc}, {geom.V3(-10, 0, 10), gc},
	}})
	g := GridOverlay(geom.Box3{Min: geom.V3(-10, 0, -10), Max: geom.V3(10, 0, 10)}, 2)
	s.Add(g)
	img := Rasterize(s, c, 320, 200, color.RGBA{})
	n := 0
	for i := 0; i < len(img.Pix); i += 4 {
		if img.Pix[i] == gridMinorCl.R || img.Pix[i] == gridMajorCl.R {
			n++
		}
	}
	if n < 1000 {
		t.Errorf("only %d grid pixels visible over a coincident floor", n)
	}
}

func TestPointsAndTranslucency(t *testing.T) {
	c := DefaultCamera()
	c.TopDown, c.Ortho, c.DistanceM = true, true, 10
	pc := color.RGBA{255, 255, 0, 255}
	s := &Scene{Overlays: []*Overlay{{Name: "p", Visible: true, Points: []Vertex{{geom.V3(0, 0, 0), pc}}, PointSizePx: 4}}}
	img := Rasterize(s, c, 64, 64, color.RGBA{0, 0, 0, 255})
	n := 0
	for y := 0; y < 64; y++ {
		for x := 0; x < 64; x++ {
			if img.RGBAAt(x, y) == pc {
				n++
				if x < 30 || x > 33 || y < 30 || y > 33 {
					t.Errorf("point pixel at (%d, %d)", x, y)
				}
			}
		}
	}
	if n != 16 {
		t.Errorf("point of size 4 covers %d pixels, want 16", n)
	}
	half := color.RGBA{255, 0, 0, 128}
	s = &Scene{Overlays: []*Overlay{{Name: "t", Visible: true, Tris: []Vertex{
		{geom.V3(-100, 0, -100), half}, {geom.V3(100, 0, -100), half}, {geom.V3(0, 0, 100), half},
	}}}}
	img = Rasterize(s, c, 8, 8, color.RGBA{0, 0, 0, 255})
	if got := img.RGBAAt(4, 4); got != (color.RGBA{128, 0, 0, 255}) {
		t.Errorf("half-transparent red over black = %v", got)
	}
}

func TestRasterizeDeterministic(t *testing.T) {
	s := LevelScene(boxesSoup())
	for _, c := range testCameras() {
		c.Frame(s.Bounds())
		a := rasterize(s, c, 333, 211, color.RGBA{20, 20, 30, 255}, 1)
		b := rasterize(s, c, 333, 211, color.RGBA{20, 20, 30, 255}, 7)
		d := Rasterize(s, c, 333, 211, color.RGBA{20, 20, 30, 255})
		if !bytes.Equal(a.Pix, b.Pix) || !bytes.Equal(a.Pix, d.Pix) {
			t.Errorf("%+v: renders differ between worker counts", c)
		}
	}
}

func TestRasterizeBadInput(t *testing.T) {
	bg := color.RGBA{1, 2, 3, 255}
	if img := Rasterize(nil, DefaultCamera(), 10, 10, bg); img.RGBAAt(5, 5) != bg {
		t.Errorf("nil scene not cleared")
	}
	if img := Rasterize(&Scene{}, DefaultCamera(), -5, 0, bg); img.Bounds().Dx() != 0 {
		t.Errorf("negative size gave %v", img.Bounds())
	}
	nan := float32(math.NaN())
	s := &Scene{Overlays: []*Overlay{nil, {Name: "x", Visible: true,
		Tris:   []Vertex{{Pos: geom.V3(nan, 0, 0)}, {}, {Pos: geom.V3(1, 0, 0)}, {}},
		Lines:  []Vertex{{Pos: geom.V3(0, nan, 0)}, {}, {}},
		Points: []Vertex{{Pos: geom.V3(0, 0, float32(math.Inf(1)))}},
	}}}
	c := Camera{DistanceM: math.NaN(), FovYRad: -1, YawRad: math.Inf(1)}
	Rasterize(s, c, 16, 16, bg) // must not panic
	c.Frame(geom.Box3{Min: geom.V3(nan, 0, 0), Max: geom.V3(1, 1, 1)})
	c.Pan(1, 1, 0, 0)
	c.Zoom(math.Inf(1))
}

func TestInputOverlayShading(t *testing.T) {
	s := boxesSoup()
	o := InputOverlay(s)
	if o.Name != "input" || !o.Visible || len(o.Tris) != 3*len(s.Tris) {
		t.Fatalf("overlay %q visible=%v with %d vertices", o.Name, o.Visible, len(o.Tris))
	}
	floor := o.Tris[0].Col
	wall := o.Tris[3*4].Col // first box side
	if !(floor.B > floor.R) {
		t.Errorf("floor colour %v not bluish", floor)
	}
	if int(wall.R)+int(wall.G)+int(wall.B) >= int(floor.R)+int(floor.G)+int(floor.B) {
		t.Errorf("wall %v not darker than floor %v", wall, floor)
	}
	a := InputOverlay(s)
	for i := range a.Tris {
		if a.Tris[i] != o.Tris[i] {
			t.Fatalf("shading not deterministic")
		}
	}
	sc := LevelScene(s)
	if sc.Overlay("input") == nil || sc.Overlay("grid") == nil || len(sc.Overlay("grid").Lines) == 0 {
		t.Errorf("LevelScene overlays: %+v", sc.Overlays)
	}
	if sc := LevelScene(nil); len(sc.Overlays) != 2 {
		t.Errorf("LevelScene(nil): %d overlays", len(sc.Overlays))
	}
}

func TestGridOverlay(t *testing.T) {
	b := geom.Box3{Min: geom.V3(-3, 1.5, 0.5), Max: geom.V3(7, 4, 9.5)}
	g := GridOverlay(b, 2)
	// x lines at -4..8 (7), z lines at 0..10 (6)
	if len(g.Lines) != 2*(7+6) {
		t.Errorf("%d line vertices, want %d", len(g.Lines), 2*13)
	}
	for _, v := range g.Lines {
		if v.Pos.Y != 1.5 {
			t.Fatalf("grid vertex %v not at min y", v.Pos)
		}
	}
	if g := GridOverlay(b, 0); len(g.Lines) != 0 {
		t.Errorf("step 0 gave lines")
	}
	if g := GridOverlay(geom.Box3{Max: geom.V3(1e9, 0, 1e9)}, 1); len(g.Lines) > 4*(maxGridLinesPerAxis+1) {
		t.Errorf("huge box gave %d line vertices", len(g.Lines))
	}
	if s := GridStepM(geom.Box3{Max: geom.V3(200, 0, 150)}); s != 10 {
		t.Errorf("GridStepM(200 m) = %v, want 10", s)
	}
}

func TestClippedMeshHasNoCracks(t *testing.T) {
	// A tessellated ground plane around a low perspective camera: many
	// triangles cross the near plane and the guard band, and the clipped
	// pieces must still tile the ground without gaps.
	var tris []Vertex
	const n, ext = 24, 500
	col := func(i, j int) color.RGBA { return color.RGBA{uint8(100 + 5*(i%2)), uint8(100 + 5*(j%2)), 120, 255} }
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			x0, x1 := float32(-ext+2*ext*i/n), float32(-ext+2*ext*(i+1)/n)
			z0, z1 := float32(-ext+2*ext*j/n), float32(-ext+2*ext*(j+1)/n)
			c := col(i, j)
			tris = append(tris,
				Vertex{geom.V3(x0, 0, z0), c}, Vertex{geom.V3(x1, 0, z0), c}, Vertex{geom.V3(x1, 0, z1), c},
				Vertex{geom.V3(x0, 0, z0), c}, Vertex{geom.V3(x1, 0, z1), c}, Vertex{geom.V3(x0, 0, z1), c})
		}
	}
	s := &Scene{Overlays: []*Overlay{{Name: "ground", Visible: true, Tris: tris}}}
	bg := color.RGBA{0, 0, 0, 255}
	for _, yaw := range []float64{0, 0.4, 2} {
		c := DefaultCamera()
		c.Target = geom.V3(3, 0.5, 7)
		c.YawRad, c.PitchRad, c.DistanceM = yaw, 0.3, 3
		img := Rasterize(s, c, 320, 200, bg)
		for y := 40; y < 200; y++ {
			for x := 0; x < 320; x++ {
				if img.RGBAAt(x, y) == bg {
					t.Fatalf("yaw %v: crack at pixel (%d, %d)", yaw, x, y)
				}
			}
		}
	}
}

// TestRasterizerReuse: a Rasterizer drawing view after view (its buffers
// reused, the level's triangles indexed from the second draw on) gives
// each time the picture a fresh Rasterize gives, also after the scene's
// lists are replaced and for a size change.
func TestRasterizerReuse(t *testing.T) {
	soup := builtinCity(t)
	scene := LevelScene(soup)
	if n := len(scene.Overlays[0].Tris) / 3; n < minIndexedTris {
		t.Fatalf("city has %d triangles: too few to test the index", n)
	}
	cam := DefaultCamera()
	cam.FrameAspect(soup.Bounds(), 1.2)
	near := cam
	near.Zoom(10) // the near plane and the guard band clip
	near.PitchRad = 0.1
	var r Rasterizer
	for i, step := range []struct {
		cam  Camera
		w, h int
	}{{cam, 240, 200}, {near, 240, 200}, {cam, 240, 200}, {near, 120, 90}, {cam, 240, 200}} {
		if i == 3 { // the lists replaced: new slices, same vertices
			scene = LevelScene(soup)
		}
		got := r.Draw(scene, step.cam, step.w, step.h, goldenBG)
		want := rasterize(scene, step.cam, step.w, step.h, goldenBG, 1)
		if !bytes.Equal(got.Pix, want.Pix) || got.Rect != want.Rect {
			t.Errorf("draw %d: the reused Rasterizer's picture differs from a fresh one", i)
		}
		if i >= 1 && len(r.meshes) == 0 {
			t.Errorf("draw %d: the level is not indexed", i)
		}
	}
}
