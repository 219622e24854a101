package voxel

import (
	"fmt"
	"math"

	"navviz/core/geom"
	"navviz/core/level"
)

// WalkableSlopeCos returns the walkability threshold for a maximum slope of
// maxSlopeDeg degrees: float32(cos(maxSlopeDeg * (pi/180))), with the angle
// in double and the cosine from the deterministic geom.SinCos. A triangle is
// walkable when its unit normal's y is strictly greater than this value.
func WalkableSlopeCos(maxSlopeDeg float32) float32 {
	_, c := geom.SinCos(float64(maxSlopeDeg) * (math.Pi / 180))
	return float32(c)
}

// TriangleNormalY returns the y component of the unit normal of triangle
// (v0, v1, v2), computed in float32 as Recast's calcTriNormal does:
// n = (v1-v0) × (v2-v0), l = sqrt(n·n) (correctly rounded), y = n.Y * (1/l).
// A triangle wound counter-clockwise when seen from +y with x to the right
// and z downwards, e.g. (0,0,0), (0,0,1), (1,0,0), faces up (y > 0). A
// degenerate triangle (l == 0) returns NaN, which no threshold accepts.
func TriangleNormalY(v0, v1, v2 geom.Vec3) float32 {
	n := v1.Sub(v0).Cross(v2.Sub(v0))
	l := n.Len()
	if l == 0 {
		return float32(math.NaN())
	}
	return n.Y * (1 / l)
}

// TriangleArea returns the area id a triangle with soup area id area gets:
// area when its normal's y is strictly greater than slopeCos
// (WalkableSlopeCos), AreaNull otherwise (Recast's rcMarkWalkableTriangles,
// with the soup's id instead of RC_WALKABLE_AREA).
func TriangleArea(v0, v1, v2 geom.Vec3, area uint8, slopeCos float32) uint8 {
	if TriangleNormalY(v0, v1, v2) > slopeCos {
		return area
	}
	return AreaNull
}

// RasterizeTriangle rasterizes one triangle with area id area into h, merging
// spans with mergeClimbCells as AddSpan does. The area is used as given (no
// slope test; see TriangleArea). Vertices must be finite and within
// ±MaxCoordM; on error h is unchanged.
func (h *Heightfield) RasterizeTriangle(v0, v1, v2 geom.Vec3, area uint8, mergeClimbCells int) error {
	if h == nil {
		return errNilHeightfield
	}
	for i, v := range [3]geom.Vec3{v0, v1, v2} {
		if !finiteCoord(v.X) || !finiteCoord(v.Y) || !finiteCoord(v.Z) {
			return checkCoord(fmt.Sprintf("triangle vertex %d", i), v)
		}
	}
	if area > MaxArea {
		return fmt.Errorf("voxel: triangle area id %d, want 0..%d", area, MaxArea)
	}
	if mergeClimbCells < 0 {
		return fmt.Errorf("voxel: mergeClimbCells %d, want >= 0", mergeClimbCells)
	}
	r := newRaster(h, mergeClimbCells)
	r.triangle(v0, v1, v2, area)
	return nil
}

// RasterizeSoup rasterizes triangles of s into h in the order of tris (soup
// triangle indices; nil means every triangle in index order). Each triangle
// gets TriangleArea(its vertices, s.Areas[t], WalkableSlopeCos(maxSlopeDeg)).
// Spans merge with mergeClimbCells (the agent's climb in rows).
//
// Every listed triangle is checked before anything is rasterized (index in
// range, vertex indices in range, vertices finite within ±MaxCoordM, area id
// 0..63); on error h is unchanged and the error names the triangle.
func (h *Heightfield) RasterizeSoup(s *level.Soup, tris []int32, maxSlopeDeg float32, mergeClimbCells int) error {
	if h == nil {
		return errNilHeightfield
	}
	if s == nil {
		return fmt.Errorf("voxel: RasterizeSoup of a nil soup")
	}
	if !(maxSlopeDeg >= 0 && maxSlopeDeg <= 90) {
		return fmt.Errorf("voxel: maxSlopeDeg %v out of range 0..90", maxSlopeDeg)
	}
	if mergeClimbCells < 0 {
		return fmt.Errorf("voxel: mergeClimbCells %d, want >= 0", mergeClimbCells)
	}
	if len(s.Areas) != len(s.Tris) {
		return fmt.Errorf("voxel: soup has %d area ids for %d triangles", len(s.Areas), len(s.Tris))
	}
	nt := len(s.Tris)
	check := func(t int) error {
		if t < 0 || t >= nt {
			return fmt.Errorf("voxel: triangle index %d out of range 0..%d", t, nt-1)
		}
		if a := s.Areas[t]; a > MaxArea {
			return fmt.Errorf("voxel: triangle %d has area id %d, want 0..%d", t, a, MaxArea)
		}
		for _, vi := range s.Tris[t] {
			if vi < 0 || int(vi) >= len(s.Verts) {
				return fmt.Errorf("voxel: triangle %d has vertex index %d, want 0..%d", t, vi, len(s.Verts)-1)
			}
			if v := s.Verts[vi]; !finiteCoord(v.X) || !finiteCoord(v.Y) || !finiteCoord(v.Z) {
				return checkCoord(fmt.Sprintf("triangle %d vertex %d", t, vi), v)
			}
		}
		return nil
	}
	if tris == nil {
		for t := 0; t < nt; t++ {
			if err := check(t); err != nil {
				return err
			}
		}
	} else {
		for _, t := range tris {
			if err := check(int(t)); err != nil {
				return err
			}
		}
	}
	slopeCos := WalkableSlopeCos(maxSlopeDeg)
	r := newRaster(h, mergeClimbCells)
	one := func(t int) {
		tri := s.Tris[t]
		v0, v1, v2 := s.Verts[tri[0]], s.Verts[tri[1]], s.Verts[tri[2]]
		r.triangle(v0, v1, v2, TriangleArea(v0, v1, v2, s.Areas[t], slopeCos))
	}
	if tris == nil {
		for t := 0; t < nt; t++ {
			one(t)
		}
	} else {
		for _, t := range tris {
			one(int(t))
		}
	}
	return nil
}

// maxClipVerts bounds the vertex count of a clipped polygon. A triangle cut
// by two lines per axis has at most 7 vertices; rounding cannot add more
// than a few, and a vertex beyond the bound is dropped (never observed).
const maxClipVerts = 12

type vert = [3]float32

type clipBuf struct {
	n int
	v [maxClipVerts]vert
}

func (b *clipBuf) push(p vert) {
	if b.n < maxClipVerts {
		b.v[b.n] = p
		b.n++
	}
}

// extent returns the least and the greatest coordinate axis of b's
// vertices (b.n >= 1).
func (b *clipBuf) extent(axis int) (lo, hi float32) {
	lo, hi = b.v[0][axis], b.v[0][axis]
	for i := 1; i < b.n; i++ {
		if c := b.v[i][axis]; c < lo {
			lo = c
		} else if c > hi {
			hi = c
		}
	}
	return lo, hi
}

// raster holds the per-call constants of rasterization.
type raster struct {
	h        *Heightfield
	bmin     geom.Vec3
	bmax     geom.Vec3
	by       float32 // vertical range MaxM.Y - OriginM.Y
	cs       float32
	ics, ich float32 // 1/CellSizeM, 1/CellHeightM
	mergeThr int
	bufs     [4]clipBuf
}

func newRaster(h *Heightfield, mergeThr int) *raster {
	return &raster{
		h:        h,
		bmin:     h.OriginM,
		bmax:     h.MaxM,
		by:       h.MaxM.Y - h.OriginM.Y,
		cs:       h.CellSizeM,
		ics:      1 / h.CellSizeM,
		ich:      1 / h.CellHeightM,
		mergeThr: mergeThr,
	}
}

// rowFloor returns floor(v) clamped to [0, hi] for v >= 0 (NaN gives 0).
func rowFloor(v float32, hi int) int {
	if !(v < float32(hi)) {
		if v >= float32(hi) {
			return hi
		}
		return 0
	}
	return int(v) // truncation is floor for v >= 0
}

// rowCeil returns ceil(v) clamped to [0, hi] for v >= 0 (NaN gives 0).
func rowCeil(v float32, hi int) int {
	if !(v < float32(hi)) {
		if v >= float32(hi) {
			return hi
		}
		return 0
	}
	i := int(v)
	if float32(i) < v {
		i++
	}
	return i
}

// truncSat returns v truncated toward zero (C's (int) conversion), saturated
// at ±2^30; NaN gives -2^30.
func truncSat(v float32) int {
	const lim = 1 << 30
	if !(v > -lim) {
		return -lim
	}
	if v >= lim {
		return lim
	}
	return int(v)
}

func clampInt(v, lo, hi int) int { return min(max(v, lo), hi) }

// divide splits the convex polygon in along the plane where coordinate axis
// equals c: lo receives the part with coordinate <= c, hi the part with
// coordinate >= c (a vertex on the plane goes to both). An edge crossing the
// plane gets the point p_j + (p_i - p_j) * t, t = d_j / (d_j - d_i), with
// d = c - coordinate, added to both sides (Recast's dividePoly).
func divide(in *clipBuf, axis int, c float32, lo, hi *clipBuf) {
	lo.n, hi.n = 0, 0
	n := in.n
	if n == 0 {
		return
	}
	j := n - 1
	dj := c - in.v[j][axis]
	for i := 0; i < n; j, i = i, i+1 {
		di := c - in.v[i][axis]
		if (di >= 0) != (dj >= 0) {
			t := dj / (dj - di)
			pj, pi := in.v[j], in.v[i]
			p := vert{
				pj[0] + float32((pi[0]-pj[0])*t),
				pj[1] + float32((pi[1]-pj[1])*t),
				pj[2] + float32((pi[2]-pj[2])*t),
			}
			lo.push(p)
			hi.push(p)
			if di > 0 {
				lo.push(pi)
			} else if di < 0 {
				hi.push(pi)
			}
		} else {
			if di >= 0 {
				lo.push(in.v[i])
			}
			if di <= 0 {
				hi.push(in.v[i])
			}
		}
		dj = di
	}
}

// cut returns the far side of cell k along an axis whose grid starts at o:
// (o + float32(k)*cs) + cs, each operation rounded to float32 (Recast's
// cellZ + cellSize and cx + cellSize).
func (r *raster) cut(o float32, k int) float32 {
	return (o + float32(float32(k)*r.cs)) + r.cs
}

// triangle rasterizes one triangle (Recast's rasterizeTri, see docs/spans.md).
func (r *raster) triangle(v0, v1, v2 geom.Vec3, area uint8) {
	tmin := v0.Min(v1).Min(v2)
	tmax := v0.Max(v1).Max(v2)
	if tmin.X > r.bmax.X || tmax.X < r.bmin.X ||
		tmin.Y > r.bmax.Y || tmax.Y < r.bmin.Y ||
		tmin.Z > r.bmax.Z || tmax.Z < r.bmin.Z {
		return
	}
	h := r.h
	w, ht := h.Width, h.Height
	z0 := clampInt(truncSat((tmin.Z-r.bmin.Z)*r.ics), -1, ht-1)
	z1 := clampInt(truncSat((tmax.Z-r.bmin.Z)*r.ics), 0, ht-1)

	in, row, col, rest := &r.bufs[0], &r.bufs[1], &r.bufs[2], &r.bufs[3]
	in.n = 3
	in.v[0] = vert{v0.X, v0.Y, v0.Z}
	in.v[1] = vert{v1.X, v1.Y, v1.Z}
	in.v[2] = vert{v2.X, v2.Y, v2.Z}
	for z := z0; z <= z1; z++ {
		divide(in, 2, r.cut(r.bmin.Z, z), row, rest)
		in, rest = rest, in
		if row.n < 3 || z < 0 {
			continue
		}
		minX, maxX := row.extent(0)
		x0 := truncSat((minX - r.bmin.X) * r.ics)
		x1 := truncSat((maxX - r.bmin.X) * r.ics)
		if x1 < 0 || x0 >= w {
			continue
		}
		x0 = clampInt(x0, -1, w-1)
		x1 = clampInt(x1, 0, w-1)
		cur, spare := row, rest
		for x := x0; x <= x1; x++ {
			divide(cur, 0, r.cut(r.bmin.X, x), col, spare)
			cur, spare = spare, cur
			if col.n < 3 || x < 0 {
				continue
			}
			ymin, ymax := col.extent(1)
			ymin -= r.bmin.Y
			ymax -= r.bmin.Y
			if ymax < 0 || ymin > r.by {
				continue
			}
			if ymin < 0 {
				ymin = 0
			}
			if ymax > r.by {
				ymax = r.by
			}
			smin := rowFloor(ymin*r.ich, MaxSpanRow)
			smax := max(rowCeil(ymax*r.ich, MaxSpanRow), smin+1)
			if smax > MaxSpanRow {
				smax = MaxSpanRow
			}
			if smin >= smax {
				continue // only when smin == MaxSpanRow; Grid.Validate excludes it
			}
			h.addSpan(x+z*w, uint16(smin), uint16(smax), area, r.mergeThr)
		}
	}
}
