package voxel

import "navviz/core/geom"

// CellRows is a grid of square cells for TriangleFootprint: width x height
// columns of side CellSizeM from (OriginX, OriginZ). Unlike a Grid it has
// no vertical range and may be as large as a whole level (up to 2^24
// cells a side).
type CellRows struct {
	OriginX, OriginZ float32
	CellSizeM        float32
	Width, Height    int
}

// TriangleFootprint calls row(z, x0, x1) for every row z of g where
// rasterizing triangle (v0, v1, v2) on a grid with g's cells visits
// columns, with the columns it visits, x0..x1 (0 <= x0 <= x1 < g.Width):
// the rasterizer's own cuts into rows and its column range per row, without
// the cuts into cells or any height. A triangle adds at most one span to
// each column it visits, so the columns counted over a soup's triangles
// bound the spans of its solid heightfield (merging only lowers the count)
// at a cost of one cut per row, not per cell. Nothing is allocated; a
// vertex that is not finite gives no row.
func TriangleFootprint(g CellRows, v0, v1, v2 geom.Vec3, row func(z, x0, x1 int)) {
	if g.Width < 1 || g.Height < 1 || !finiteSize(g.CellSizeM) {
		return
	}
	for _, v := range [3]geom.Vec3{v0, v1, v2} {
		if !finiteCoord(v.X) || !finiteCoord(v.Z) {
			return
		}
	}
	tmin := v0.Min(v1).Min(v2)
	tmax := v0.Max(v1).Max(v2)
	r := raster{bmin: geom.Vec3{X: g.OriginX, Z: g.OriginZ}, cs: g.CellSizeM, ics: 1 / g.CellSizeM}
	r.bmax = geom.Vec3{X: r.cut(g.OriginX, g.Width-1), Z: r.cut(g.OriginZ, g.Height-1)}
	if tmin.X > r.bmax.X || tmax.X < r.bmin.X || tmin.Z > r.bmax.Z || tmax.Z < r.bmin.Z {
		return
	}
	z0, z1 := r.rowRange(tmin.Z, tmax.Z, g.Height)
	in, rest := &r.tri[0], &r.tri[1]
	cells := &r.row[0]
	in.n = 3
	in.x[0], in.z[0] = v0.X, v0.Z
	in.x[1], in.z[1] = v1.X, v1.Z
	in.x[2], in.z[2] = v2.X, v2.Z
	for z := z0; z <= z1 && in.n > 0; z++ {
		splitZ(in, r.cut(r.bmin.Z, z), cells, rest)
		in, rest = rest, in
		if cells.n < 3 || z < 0 {
			continue
		}
		if x0, x1, ok := r.columnRange(cells, g.Width); ok {
			row(z, max(x0, 0), x1)
		}
	}
}
