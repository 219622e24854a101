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

// poly3 is a polygon being cut into rows: the part of the triangle at and
// beyond the last cut line along z, its vertices as separate coordinate
// arrays.
type poly3 struct {
	n       int
	x, y, z [maxClipVerts]float32
}

// poly2 is a polygon being cut into cells: the part of a row at and beyond
// the last cut line along x. A row never needs its z again, so it is not
// kept.
type poly2 struct {
	n    int
	x, y [maxClipVerts]float32
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
	tri      [2]poly3 // the rest of the triangle, swapped at every row
	row      [2]poly2 // the rest of the row, swapped at every cell
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

// The two cuts below are Recast's dividePoly (docs/spans.md §8, "divide"),
// each specialised to what its caller reads of the two sides: splitting
// polygon P along the line where a coordinate equals c, with d = c - that
// coordinate, the low side gets the vertices with d >= 0, the high side
// those with d <= 0, and an edge (j, i) whose d_j >= 0 and d_i >= 0 differ
// adds the point P_j + round32((P_i - P_j) * t), t = d_j / (d_j - d_i),
// to both sides before P_i goes to its own side. Each side keeps at most
// maxClipVerts vertices (later ones dropped). The coordinates are computed
// one by one, so leaving out one a caller never reads changes no other.

// splitZ cuts in at z = c into the row (the low side, x and y only) and
// rest (the high side); rest must not be in.
func splitZ(in *poly3, c float32, row *poly2, rest *poly3) {
	n := min(in.n, maxClipVerts)
	rn, hn := 0, 0
	if n > 0 {
		jx, jy, jz := in.x[n-1], in.y[n-1], in.z[n-1]
		dj := c - jz
		for i := 0; i < n; i++ {
			ix, iy, iz := in.x[i], in.y[i], in.z[i]
			di := c - iz
			if (di >= 0) != (dj >= 0) {
				t := dj / (dj - di)
				px := jx + float32((ix-jx)*t)
				py := jy + float32((iy-jy)*t)
				pz := jz + float32((iz-jz)*t)
				if rn < maxClipVerts {
					row.x[rn], row.y[rn] = px, py
					rn++
				}
				if hn < maxClipVerts {
					rest.x[hn], rest.y[hn], rest.z[hn] = px, py, pz
					hn++
				}
				if di > 0 {
					if rn < maxClipVerts {
						row.x[rn], row.y[rn] = ix, iy
						rn++
					}
				} else if di < 0 && hn < maxClipVerts {
					rest.x[hn], rest.y[hn], rest.z[hn] = ix, iy, iz
					hn++
				}
			} else {
				if di >= 0 && rn < maxClipVerts {
					row.x[rn], row.y[rn] = ix, iy
					rn++
				}
				if di <= 0 && hn < maxClipVerts {
					rest.x[hn], rest.y[hn], rest.z[hn] = ix, iy, iz
					hn++
				}
			}
			jx, jy, jz, dj = ix, iy, iz, di
		}
	}
	row.n, rest.n = rn, hn
}

// splitX cuts in at x = c into the cell (the low side) and rest (the high
// side); rest must not be in. Of the cell it returns only what
// rasterization reads: its vertex count and the least and greatest y of its
// vertices (+Inf and -Inf for none).
func splitX(in *poly2, c float32, rest *poly2) (cn int, ylo, yhi float32) {
	n := min(in.n, maxClipVerts)
	hn := 0
	ylo, yhi = float32(math.Inf(1)), float32(math.Inf(-1))
	// cell adds y to the cell's extent unless the cell is full.
	cell := func(y float32) {
		if cn < maxClipVerts {
			if y < ylo {
				ylo = y
			}
			if y > yhi {
				yhi = y
			}
			cn++
		}
	}
	if n > 0 {
		jx, jy := in.x[n-1], in.y[n-1]
		dj := c - jx
		for i := 0; i < n; i++ {
			ix, iy := in.x[i], in.y[i]
			di := c - ix
			if (di >= 0) != (dj >= 0) {
				t := dj / (dj - di)
				px := jx + float32((ix-jx)*t)
				py := jy + float32((iy-jy)*t)
				cell(py)
				if hn < maxClipVerts {
					rest.x[hn], rest.y[hn] = px, py
					hn++
				}
				if di > 0 {
					cell(iy)
				} else if di < 0 && hn < maxClipVerts {
					rest.x[hn], rest.y[hn] = ix, iy
					hn++
				}
			} else {
				if di >= 0 {
					cell(iy)
				}
				if di <= 0 && hn < maxClipVerts {
					rest.x[hn], rest.y[hn] = ix, iy
					hn++
				}
			}
			jx, jy, dj = ix, iy, di
		}
	}
	rest.n = hn
	return cn, ylo, yhi
}

// flatRow rasterizes columns x0..x1 of row z of a flat triangle (every
// vertex at one height), whose cells all have rows [smin, smax): the cuts
// of splitX on x alone, the cell reduced to its vertex count.
//
// With symbolic set (see triangle), a cut point is not computed but stored
// as -Inf, a value every later cut puts on the cell side (d > 0), where the
// point itself always lies: a cut point of line c is within 13u·M of c (u =
// 2^-24, M the largest magnitude of the coordinates and cut lines
// involved) and the next line is at least cs - 8u·M beyond c, so with
// 21u·M < cs the point is never on that line or beyond. A cut point is
// compared with the next line only (it leaves the polygon there), so every
// count and comparison is the computed polygon's. Then a polygon made by a
// cut whose vertices other than cut points (originals) all lie beyond the
// next line has its cut points in adjacent pairs, and that cut, and every
// later one with the originals still beyond it, gives the polygon back
// unchanged with the same count: those cells take the count without a pass
// over the polygon.
func (r *raster) flatRow(row *poly2, x0, x1, z int, smin, smax uint16, area uint8, symbolic bool) {
	// Two buffers of x, one slot more than a polygon holds: a vertex
	// beyond maxClipVerts is written to the last slot and not counted.
	var bufs [2][maxClipVerts + 1]float32
	cur, next := &bufs[0], &bufs[1]
	n := min(row.n, maxClipVerts)
	copy(cur[:n], row.x[:n])
	base := z * r.h.Width
	sentinel := float32(math.Inf(-1))
	made := false                   // cur was made by a cut
	steady := false                 // cur is a fixed point while minOrig > c
	minOrig := float32(math.Inf(1)) // least original x of cur (made by a cut)
	cn := 0
	for x := x0; x <= x1 && n > 0; x++ {
		c := r.cut(r.bmin.X, x)
		if !steady || !(minOrig > c) {
			steady = symbolic && made && minOrig > c
			cn = 0
			hn := 0
			lo := float32(math.Inf(1))
			jx := cur[n-1]
			dj := c - jx
			for i := 0; i < n; i++ {
				ix := cur[i]
				di := c - ix
				if (di >= 0) != (dj >= 0) {
					p := sentinel
					if !symbolic {
						t := dj / (dj - di)
						p = jx + float32((ix-jx)*t)
					}
					next[hn] = p
					hn += b2i(hn < maxClipVerts)
					cn++
					if di > 0 {
						cn++
					} else if di < 0 {
						next[hn] = ix
						hn += b2i(hn < maxClipVerts)
						lo = min(lo, ix)
					}
				} else {
					if di >= 0 {
						cn++
					}
					if di <= 0 {
						next[hn] = ix
						hn += b2i(hn < maxClipVerts)
						lo = min(lo, ix)
					}
				}
				jx, dj = ix, di
			}
			cn = min(cn, maxClipVerts)
			cur, next = next, cur
			n, minOrig, made = hn, lo, true
		}
		if cn >= 3 && x >= 0 && !r.h.raiseLowest(x+base, smin, smax, area) { // addSpan, its commonest case inlined
			r.h.mergeSpan(x+base, smin, smax, area, r.mergeThr)
		}
	}
}

// b2i returns 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
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
	w := h.Width
	z0, z1 := r.rowRange(tmin.Z, tmax.Z, h.Height)

	// A flat triangle's cells all have its height as their y extent (a cut
	// point interpolates between equal heights: y + round32(0*t) == y, or
	// +0 for y == -0, which gives the same rows), so its rows are found
	// once.
	flat := v0.Y == v1.Y && v1.Y == v2.Y
	var flatMin, flatMax uint16
	var symbolic bool // flatRow may leave cut points uncomputed
	if flat {
		var flatOK bool
		flatMin, flatMax, flatOK = r.rows(v0.Y, v0.Y)
		if !flatOK {
			return // no cell of it has rows in the grid
		}
		// flatRow's bound 21u·M < cs, with M the largest |x| of the
		// triangle and the grid (a cut point stays within the triangle's
		// x range up to rounding), kept with a margin of 12: M <= cs·2^16.
		symbolic = max(-tmin.X, tmax.X, -r.bmin.X, r.bmax.X) <= float32(r.cs*(1<<16))
	}

	in, rest := &r.tri[0], &r.tri[1]
	row, spare := &r.row[0], &r.row[1]
	in.n = 3
	in.x[0], in.y[0], in.z[0] = v0.X, v0.Y, v0.Z
	in.x[1], in.y[1], in.z[1] = v1.X, v1.Y, v1.Z
	in.x[2], in.y[2], in.z[2] = v2.X, v2.Y, v2.Z
	for z := z0; z <= z1 && in.n > 0; z++ {
		// An empty rest stays empty: the rows after it get nothing.
		splitZ(in, r.cut(r.bmin.Z, z), row, rest)
		in, rest = rest, in
		if row.n < 3 || z < 0 {
			continue
		}
		x0, x1, ok := r.columnRange(row, w)
		if !ok {
			continue
		}
		cur, next := row, spare
		if flat {
			r.flatRow(row, x0, x1, z, flatMin, flatMax, area, symbolic)
			continue
		}
		for x := x0; x <= x1 && cur.n > 0; x++ {
			cn, ymin, ymax := splitX(cur, r.cut(r.bmin.X, x), next)
			cur, next = next, cur
			if cn < 3 || x < 0 {
				continue
			}
			if smin, smax, ok := r.rows(ymin, ymax); ok {
				h.addSpan(x+z*w, smin, smax, area, r.mergeThr)
			}
		}
	}
}

// rowRange returns the first and last row (z) of a grid of ht rows that
// a triangle from z = tminZ to tmaxZ is cut into; the first may be -1 (the
// part before the grid, cut off and skipped).
func (r *raster) rowRange(tminZ, tmaxZ float32, ht int) (z0, z1 int) {
	z0 = clampInt(truncSat((tminZ-r.bmin.Z)*r.ics), -1, ht-1)
	z1 = clampInt(truncSat((tmaxZ-r.bmin.Z)*r.ics), 0, ht-1)
	return z0, z1
}

// columnRange returns the columns x0..x1 of a grid w columns wide that
// row, a triangle's part in one row, is cut into (x0 may be -1, the part
// before the grid), or false when the row lies outside the grid.
func (r *raster) columnRange(row *poly2, w int) (x0, x1 int, ok bool) {
	minX, maxX := row.x[0], row.x[0]
	for i := 1; i < row.n; i++ {
		if v := row.x[i]; v < minX {
			minX = v
		} else if v > maxX {
			maxX = v
		}
	}
	x0 = truncSat((minX - r.bmin.X) * r.ics)
	x1 = truncSat((maxX - r.bmin.X) * r.ics)
	if x1 < 0 || x0 >= w {
		return 0, 0, false
	}
	return clampInt(x0, -1, w-1), clampInt(x1, 0, w-1), true
}

// rows returns the rows [smin, smax) of a cell whose vertices range over
// heights [ymin, ymax] (docs/spans.md §8 step 6), or false when the cell
// lies outside the grid's vertical range.
func (r *raster) rows(ymin, ymax float32) (smin, smax uint16, ok bool) {
	ymin -= r.bmin.Y
	ymax -= r.bmin.Y
	if ymax < 0 || ymin > r.by {
		return 0, 0, false
	}
	if ymin < 0 {
		ymin = 0
	}
	if ymax > r.by {
		ymax = r.by
	}
	lo := rowFloor(ymin*r.ich, MaxSpanRow)
	hi := max(rowCeil(ymax*r.ich, MaxSpanRow), lo+1)
	if hi > MaxSpanRow {
		hi = MaxSpanRow
	}
	if lo >= hi {
		return 0, 0, false // only when lo == MaxSpanRow; Grid.Validate excludes it
	}
	return uint16(lo), uint16(hi), true
}
