package session

import (
	"math"

	"navviz/core/geom"
	"navviz/render"
)

// MaxDemoObstacles bounds Options.DemoObstacles.
const MaxDemoObstacles = 200

// NearestTileCorner returns a point of the cache's mesh at (or within a
// metre of) a tile corner, seen from above: of the corners that have a
// polygon there, the one nearest p in x and z (p itself when none has).
func (a *App) NearestTileCorner(p geom.Vec3) geom.Vec3 {
	v := a.CacheView()
	g := v.Grid
	ts := float64(g.TileSizeM())
	x0, z0 := float64(g.BoundsM.Min.X), float64(g.BoundsM.Min.Z)
	top := float64(a.soup.Bounds().Max.Y) + 10
	best, bestD := p, math.Inf(1)
	for kz := 1; kz < g.TilesZ; kz++ {
		for kx := 1; kx < g.TilesX; kx++ {
			x, z := x0+float64(float64(kx)*ts), z0+float64(float64(kz)*ts)
			d := geom.Hypot(x-float64(p.X), z-float64(p.Z))
			if d >= bestD {
				continue
			}
			for _, o := range [][2]float64{{0, 0}, {0.5, 0.5}, {-0.5, 0.5}, {0.5, -0.5}, {-0.5, -0.5}} {
				if hit, ok := render.PickPoly(v.Mesh, [3]float64{x + o[0], top, z + o[1]}, [3]float64{0, -1, 0}, 0); ok {
					best, bestD = hit.Pos, d
					break
				}
			}
		}
	}
	return best
}

// DemoPoints returns up to n points of the cache's mesh, seen from above
// along a golden-angle spiral around the level's centre, at least 6 m
// apart.
func (a *App) DemoPoints(n int) []geom.Vec3 {
	m := a.CacheView().Mesh
	b := a.soup.Bounds()
	c := b.Center()
	top := float64(b.Max.Y) + 10
	var out []geom.Vec3
	const minApartM, stepM = 6.0, 2.5
	golden := math.Pi * (3 - math.Sqrt(5))
	for k := 0; len(out) < n && k < 4000; k++ {
		r := stepM * math.Sqrt(float64(k))
		sin, cos := geom.SinCos(float64(k) * golden)
		x := float64(c.X) + float64(r*cos)
		z := float64(c.Z) + float64(r*sin)
		hit, ok := render.PickPoly(m, [3]float64{x, top, z}, [3]float64{0, -1, 0}, 0)
		if !ok {
			continue
		}
		far := true
		for _, p := range out {
			if geom.Hypot(float64(p.X-hit.Pos.X), float64(p.Z-hit.Pos.Z)) < minApartM {
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
