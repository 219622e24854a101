package ui

import (
	"fmt"

	"navviz/core/geom"
	"navviz/ui/session"
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
		g.setTab(dockRight, tabCache)
		g.applyObstaclePreset()
		g.startCacheBuild()
		g.cache.demo = demoBuilding
		if a.CacheErr() != "" {
			g.cache.demo = demoDone
		}
	case a.CacheView().Has:
		g.cache.demo = demoDone
		a.Report(g.demoScene(g.opts.DemoObstacles))
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
	if !a.CacheView().Has || a.Soup() == nil {
		return a.Report(session.ErrNoCache)
	}
	pts := a.DemoPoints(n + 2)
	if len(pts) < n+1 {
		return a.Report(fmt.Errorf("ui: demo: found %d walkable points for %d obstacles", len(pts), n))
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
	last := a.NearestTileCorner(pts[n-1])
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
	if a.Aspect() > 0 {
		a.Camera.FrameAspect(b, a.Aspect())
	} else {
		a.Camera.Frame(b)
	}
	v := a.CacheView()
	a.ReportOK(fmt.Sprintf("demo: %d obstacles placed, %d tiles queued; Step or Update all to go on", len(v.Obstacles), len(v.Queue)))
	return nil
}
