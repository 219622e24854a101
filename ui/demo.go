package ui

import (
	"fmt"
	"math"

	"navviz/core/geom"
	"navviz/render"
)

// The --demo-obstacles scenario: the obstacle preset, a cache build, then
// obstacles and a volume placed through the tools.

// demoStage is how far the --demo-obstacles scenario got.
type demoStage int

const (
	demoIdle     demoStage = iota // not started
	demoBuilding                  // the cache is being built
	demoDone                      // placed and updated (or failed)
)

// maxDemoObstacles bounds Options.DemoObstacles.
const maxDemoObstacles = 200

// cacheDemoPending reports whether the --demo-obstacles scenario has not
// finished yet (the scripted frames are counted once it has).
func (g *Game) cacheDemoPending() bool {
	return g.opts.DemoObstacles > 0 && g.cache.demo != demoDone
}

// runDemo advances the --demo-obstacles scenario: the obstacle preset and
// a cache build, then demoScene.
func (g *Game) runDemo() {
	a := g.App
	switch {
	case g.opts.DemoObstacles <= 0 || g.cache.demo == demoDone:
	case g.cache.demo == demoIdle:
		g.setCachePanel(true)
		g.applyObstaclePreset()
		g.startCacheBuild()
		g.cache.demo = demoBuilding
		if a.CacheErr != "" {
			g.cache.demo = demoDone
		}
	case a.cv().has:
		g.cache.demo = demoDone
		a.report(g.demoScene(g.opts.DemoObstacles))
	default:
		if running, _, _ := g.cache.runner.Progress(); !running {
			g.cache.demo = demoDone // the build failed (shown)
		}
	}
}

// demoScene places n obstacles (cylinder, box, oriented box in turn, the
// oriented boxes turned by 25° more each) on walkable points of the cache's
// mesh spiralling out from the level's centre, through the Obstacle tool
// (press and release), and with n >= 3 a volume of area 1 on a further
// point (Volume tool); runs UpdateAll; then places the last obstacle (an
// 8 m oriented box across the nearest tile corner) and updates one tile,
// so that the queue, the tile just rebuilt and the swaps are all visible,
// with auto update off. The camera frames the points.
func (g *Game) demoScene(n int) error {
	a := g.App
	if !a.cv().has || a.Soup == nil {
		return a.report(errNoCache)
	}
	pts := a.demoPoints(n + 2)
	if len(pts) < n+1 {
		return a.report(fmt.Errorf("ui: demo: found %d walkable points for %d obstacles", len(pts), n))
	}
	a.Auto.SetOn(false)
	t := g.tools.obstacle
	g.setTool(t)
	place := func(i int) error {
		t.ShapeIdx = i % len(obstacleShapes)
		t.YawDeg = float64(25 * (i + 1))
		a.Selection.SetObstacle(0)
		t.press(a, pts[i])
		return t.release(a)
	}
	for i := 0; i+1 < n; i++ {
		if err := place(i); err != nil {
			return err
		}
	}
	if n >= 3 && len(pts) > n {
		c := pts[n]
		const r = 3
		v := g.tools.volume
		g.setTool(v)
		v.AreaID = defaultVolumeArea
		for _, d := range [][2]float32{{-r, -r}, {r, -r}, {r, r}, {-r, r}} {
			if err := v.click(a, geom.V3(c.X+d[0], c.Y, c.Z+d[1])); err != nil {
				return err
			}
		}
		if err := v.close(a); err != nil {
			return err
		}
		g.setTool(t)
	}
	if err := a.UpdateAllCache(); err != nil {
		return err
	}
	// The last one is a long box across the tile corner nearest its
	// point, so that it queues several tiles.
	last := a.nearestTileCorner(pts[n-1])
	t.ShapeIdx, t.YawDeg = len(obstacleShapes)-1, 30
	t.SizeXM, t.SizeZM = 8, 2
	a.Selection.SetObstacle(0)
	t.press(a, last)
	if err := t.release(a); err != nil {
		return err
	}
	if _, err := a.StepCache(1); err != nil {
		return err
	}
	b := geom.EmptyBox().Extend(last)
	for _, p := range pts[:min(len(pts), n+1)] {
		b = b.Extend(p)
	}
	const marginM = 10
	b.Min = b.Min.Sub(geom.V3(marginM, 1, marginM))
	b.Max = b.Max.Add(geom.V3(marginM, 3, marginM))
	if a.aspect > 0 {
		a.Camera.FrameAspect(b, a.aspect)
	} else {
		a.Camera.Frame(b)
	}
	v := a.cv()
	a.reportOK(fmt.Sprintf("demo: %d obstacles placed, %d tiles queued; Step or Update all to go on", len(v.obstacles), len(v.queue)))
	return nil
}

// nearestTileCorner returns a point of the cache's mesh at (or within a
// metre of) a tile corner, seen from above: of the corners that have a
// polygon there, the one nearest p in x and z (p itself when none has).
func (a *App) nearestTileCorner(p geom.Vec3) geom.Vec3 {
	v := a.cv()
	g := v.grid
	ts := float64(g.TileSizeM())
	x0, z0 := float64(g.BoundsM.Min.X), float64(g.BoundsM.Min.Z)
	top := float64(a.Soup.Bounds().Max.Y) + 10
	best, bestD := p, math.Inf(1)
	for kz := 1; kz < g.TilesZ; kz++ {
		for kx := 1; kx < g.TilesX; kx++ {
			x, z := x0+float64(kx)*ts, z0+float64(kz)*ts
			d := math.Hypot(x-float64(p.X), z-float64(p.Z))
			if d >= bestD {
				continue
			}
			for _, o := range [][2]float64{{0, 0}, {0.5, 0.5}, {-0.5, 0.5}, {0.5, -0.5}, {-0.5, -0.5}} {
				if hit, ok := render.PickPoly(v.mesh, [3]float64{x + o[0], top, z + o[1]}, [3]float64{0, -1, 0}, 0); ok {
					best, bestD = hit.Pos, d
					break
				}
			}
		}
	}
	return best
}

// demoPoints returns up to n points of the cache's mesh, seen from above
// along a golden-angle spiral around the level's centre, at least 6 m
// apart.
func (a *App) demoPoints(n int) []geom.Vec3 {
	m := a.cv().mesh
	b := a.Soup.Bounds()
	c := b.Center()
	top := float64(b.Max.Y) + 10
	var out []geom.Vec3
	const minApartM, stepM = 6.0, 2.5
	golden := math.Pi * (3 - math.Sqrt(5))
	for k := 0; len(out) < n && k < 4000; k++ {
		r := stepM * math.Sqrt(float64(k))
		x := float64(c.X) + r*math.Cos(float64(k)*golden)
		z := float64(c.Z) + r*math.Sin(float64(k)*golden)
		hit, ok := render.PickPoly(m, [3]float64{x, top, z}, [3]float64{0, -1, 0}, 0)
		if !ok {
			continue
		}
		far := true
		for _, p := range out {
			if math.Hypot(float64(p.X-hit.Pos.X), float64(p.Z-hit.Pos.Z)) < minApartM {
				far = false
				break
			}
		}
		if far {
			out = append(out, hit.Pos)
		}
	}
	return out
}
