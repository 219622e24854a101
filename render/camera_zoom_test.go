package render

import (
	"math"
	"testing"

	"navviz/core/geom"
)

// TestZoomTowardKeepsCursorPoint: after ZoomToward a point on the ray
// through a pixel (p at several depths along it) still projects to that
// pixel within a pixel, in every camera mode, zooming in and out; the
// distance changes as Zoom's does and the orientation not at all.
func TestZoomTowardKeepsCursorPoint(t *testing.T) {
	const w, h = 700, 740
	orbit := DefaultCamera()
	orbit.Target = geom.V3(120, 4, -80)
	orbit.DistanceM = 260
	top := orbit
	top.TopDown = true
	orthoOrbit := orbit
	orthoOrbit.Ortho = true
	orthoTop := top
	orthoTop.Ortho = true
	close := orbit
	close.DistanceM = 0.5
	for _, tc := range []struct {
		name string
		cam  Camera
	}{
		{"orbit", orbit}, {"top", top}, {"ortho-orbit", orthoOrbit}, {"ortho-top", orthoTop}, {"orbit-close", close},
	} {
		for _, px := range [][2]float64{{350, 370}, {20, 30}, {690, 700}, {100, 600}} {
			for _, steps := range []float64{1, -1, 3, -2.5, 0.25} {
				for _, depth := range []float64{0.3, 1, 2.5} { // along the ray, in units of DistanceM
					c := tc.cam
					o, d := c.Ray(px[0], px[1], w, h)
					tt := depth * c.DistanceM
					if c.Ortho {
						near, _ := c.depthRangeM() // the ray starts on the near plane
						tt -= near
					}
					p := geom.Vec3{
						X: float32(o[0] + float64(d[0]*tt)),
						Y: float32(o[1] + float64(d[1]*tt)),
						Z: float32(o[2] + float64(d[2]*tt)),
					}
					want := c.DistanceM * math.Pow(ZoomFactorPerStep, steps)
					c.ZoomToward(p, steps)
					if math.Abs(c.DistanceM-want) > 1e-9*want {
						t.Errorf("%s %v steps %v: distance %v, want %v", tc.name, px, steps, c.DistanceM, want)
					}
					if c.YawRad != tc.cam.YawRad || c.PitchRad != tc.cam.PitchRad || c.TopDown != tc.cam.TopDown || c.Ortho != tc.cam.Ortho {
						t.Errorf("%s: orientation changed: %+v", tc.name, c)
					}
					x, y, _, ok := c.Project(p, w, h)
					if !ok {
						t.Errorf("%s %v steps %v depth %v: point no longer in view", tc.name, px, steps, depth)
						continue
					}
					if dx, dy := x-px[0], y-px[1]; math.Hypot(dx, dy) > 1 {
						t.Errorf("%s %v steps %v depth %v: point now at (%.2f, %.2f), %.2f px away", tc.name, px, steps, depth, x, y, math.Hypot(dx, dy))
					}
				}
			}
		}
	}
	var nilCam *Camera
	nilCam.ZoomToward(geom.V3(1, 2, 3), 1) // no panic
	c := orbit
	c.ZoomToward(geom.Vec3{X: float32(math.NaN())}, 1)
	if c.Target != orbit.Target || math.Abs(c.DistanceM-orbit.DistanceM*ZoomFactorPerStep) > 1e-9 {
		t.Errorf("NaN point: %+v, want Zoom's result", c)
	}
}

// TestFrameAspectInsideViewport: a box framed for a viewport's aspect
// projects inside that viewport (every corner) and fills it along one
// axis (70%: perspective framing fits the corners around the box centre,
// and the near ones look larger), for the shapes the dock leaves (wide,
// tall, small).
func TestFrameAspectInsideViewport(t *testing.T) {
	b := geom.Box3{Min: geom.V3(-10, -2, 5), Max: geom.V3(190, 40, 125)}
	for _, vp := range [][2]int{{660, 756}, {1280, 756}, {120, 756}, {1000, 200}, {300, 300}} {
		for _, mode := range []struct {
			name       string
			top, ortho bool
		}{{"orbit", false, false}, {"top", true, false}, {"ortho", false, true}, {"top-ortho", true, true}} {
			c := DefaultCamera()
			c.TopDown, c.Ortho = mode.top, mode.ortho
			c.FrameAspect(b, float64(vp[0])/float64(vp[1]))
			minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
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
				x, y, _, ok := c.Project(p, vp[0], vp[1])
				if !ok {
					t.Fatalf("%v %s: corner %v not in view", vp, mode.name, p)
				}
				minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
			}
			if minX < 0 || minY < 0 || maxX > float64(vp[0]) || maxY > float64(vp[1]) {
				t.Errorf("%v %s: corners span x %.1f..%.1f y %.1f..%.1f, outside the viewport", vp, mode.name, minX, maxX, minY, maxY)
			}
			if fx, fy := (maxX-minX)/float64(vp[0]), (maxY-minY)/float64(vp[1]); max(fx, fy) < 0.7 {
				t.Errorf("%v %s: the box fills only %.0f%% x %.0f%% of the viewport", vp, mode.name, 100*fx, 100*fy)
			}
		}
	}
}
