package polymesh

import (
	"fmt"
	"math"

	"navviz/core/geom"
)

// CoordMap is the tile coordinate map: it turns a mesh vertex (cells and
// rows of the tile's own grid) into the float32 position a tile stores, and
// it exposes the bound below which an orientation test in cells cannot be
// trusted to give the sign of the same test in those float32 positions.
//
// Position of vertex (x, y, z), each product rounded to float32 before the
// sum (never fused):
//
//	X = BaseM.X + float32(float32(CellX0 + x) * CellSizeM)
//	Y = BaseM.Y + float32(float32(y) * CellHeightM)
//	Z = BaseM.Z + float32(float32(CellZ0 + z) * CellSizeM)
//
// BaseM is the world position of cell line 0 of the grid the map counts in
// and CellX0, CellZ0 the cell line of the tile's min corner in it. Build's
// default map has BaseM = the tile's min corner and CellX0 = CellZ0 = 0
// (Recast's bmin + v*cs); a tiled build passes the level's grid (BaseM = the
// level's min corner, CellX0 = tx*TileSizeCells), so that neighbouring tiles
// give their shared border vertices the same bits.
type CoordMap struct {
	BaseM          geom.Vec3
	CellX0, CellZ0 int
	CellSizeM      float32
	CellHeightM    float32
	// WidthCells and HeightCells are the tile's extent in cells: vertices
	// lie in [0, WidthCells] x [0, HeightCells].
	WidthCells, HeightCells int
}

// maxMapCell bounds |CellX0|, |CellZ0|, WidthCells and HeightCells: float32
// holds every integer below 2^24 exactly.
const maxMapCell = 1 << 24

// Validate checks the map: finite BaseM within ±2^21 m, positive finite cell
// sizes, extents in 1..65535 and cell offsets with |CellX0|+WidthCells (and
// the same for z) below 2^24.
func (c *CoordMap) Validate() error {
	if c == nil {
		return fmt.Errorf("polymesh: nil CoordMap")
	}
	for _, v := range [3]float32{c.BaseM.X, c.BaseM.Y, c.BaseM.Z} {
		if !(v >= -(1<<21) && v <= 1<<21) {
			return fmt.Errorf("polymesh: CoordMap BaseM %v not finite or outside ±2^21 m", c.BaseM)
		}
	}
	if !(c.CellSizeM > 0) || math.IsInf(float64(c.CellSizeM), 1) {
		return fmt.Errorf("polymesh: CoordMap CellSizeM %v, want a positive finite number", c.CellSizeM)
	}
	if !(c.CellHeightM > 0) || math.IsInf(float64(c.CellHeightM), 1) {
		return fmt.Errorf("polymesh: CoordMap CellHeightM %v, want a positive finite number", c.CellHeightM)
	}
	if c.WidthCells < 1 || c.WidthCells > 0xffff || c.HeightCells < 1 || c.HeightCells > 0xffff {
		return fmt.Errorf("polymesh: CoordMap extent %d x %d cells, want 1..65535 each", c.WidthCells, c.HeightCells)
	}
	if abs(c.CellX0)+c.WidthCells >= maxMapCell || abs(c.CellZ0)+c.HeightCells >= maxMapCell {
		return fmt.Errorf("polymesh: CoordMap cell offset (%d, %d) with extent %d x %d reaches 2^24 cells",
			c.CellX0, c.CellZ0, c.WidthCells, c.HeightCells)
	}
	return nil
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// Pos returns the stored float32 position of vertex (x, y, z).
func (c *CoordMap) Pos(x, y, z uint16) geom.Vec3 {
	return geom.Vec3{
		X: c.BaseM.X + float32(float32(c.CellX0+int(x))*c.CellSizeM),
		Y: c.BaseM.Y + float32(float32(y)*c.CellHeightM),
		Z: c.BaseM.Z + float32(float32(c.CellZ0+int(z))*c.CellSizeM),
	}
}

// posXZ returns the stored x and z of a vertex as float64 (exact).
func (c *CoordMap) posXZ(x, z int) (float64, float64) {
	px := c.BaseM.X + float32(float32(c.CellX0+x)*c.CellSizeM)
	pz := c.BaseM.Z + float32(float32(c.CellZ0+z)*c.CellSizeM)
	return float64(px), float64(pz)
}

// CellsAcross returns W, the "cells across the grid" of the spec's bound: a
// count of cells large enough that rounding any stored coordinate of the map
// to float32 moves it by at most 2^-24 W cells. It is
//
//	max(|CellX0|, |CellZ0|) + max(WidthCells, HeightCells) + ceil(A / CellSizeM) + 1
//
// with A the largest magnitude of a stored x or z coordinate (reached at a
// corner of the tile: Pos is monotonic). The first two terms cover the
// rounding of the product (cell line × cell size), the third the rounding of
// the sum with BaseM, so the bound holds wherever the tile lies in the world
// and not only for a grid anchored at the world origin. See docs/polys.md.
func (c *CoordMap) CellsAcross() int64 {
	if c == nil {
		return 0
	}
	a := 0.0
	for _, x := range [2]int{0, c.WidthCells} {
		for _, z := range [2]int{0, c.HeightCells} {
			px, pz := c.posXZ(x, z)
			a = max(a, math.Abs(px), math.Abs(pz))
		}
	}
	q := math.Ceil(a / float64(c.CellSizeM))
	if !(q < 1<<40) { // only for an invalid map; keeps the sum finite
		q = 1 << 40
	}
	return int64(max(abs(c.CellX0), abs(c.CellZ0))) + int64(max(c.WidthCells, c.HeightCells)) + int64(q) + 1
}

// OrientBoundCells2 returns the spec's bound for this map,
// OrientExactThreshold(CellsAcross()): an orientation determinant of
// integer cell coordinates (in cell² units) whose magnitude is at least
// this has the same sign as the determinant of the stored float32
// positions.
func (c *CoordMap) OrientBoundCells2() int64 {
	return OrientExactThreshold(c.CellsAcross())
}

// OrientExactThreshold returns ((cellsAcross)² >> 19) + 1, the bound of
// build3d-runtime.md, "Orientation tests in the polygon stage": a turn of at
// least that many cell areas keeps its sign when the coordinates are rounded
// to float32. (When each coordinate moves by at most 2^-24 W cells and the
// three points lie within W cells of each other, the determinant moves by
// less than 2^-21 W² + 2^-45 W² < 2^-19 W².) A value of cellsAcross whose
// square overflows int64 gives math.MaxInt64; a negative one is taken as 0.
func OrientExactThreshold(cellsAcross int64) int64 {
	if cellsAcross < 0 {
		cellsAcross = 0
	}
	if cellsAcross > 3037000499 { // floor(sqrt(MaxInt64))
		return math.MaxInt64
	}
	return (cellsAcross*cellsAcross)>>19 + 1
}

// area2 is Recast's doubled signed area of (a, b, c) in cells:
// (bx-ax)(cz-az) - (cx-ax)(bz-az). It is negative when c lies to the left of
// a→b in Recast's sense, which is the turn of a convex corner of a contour
// or polygon (Recast's "left").
func area2(ax, az, bx, bz, cx, cz int) int64 {
	return int64(bx-ax)*int64(cz-az) - int64(cx-ax)*int64(bz-az)
}

// orienter decides convex corners both in cells and in the map's stored
// float32 positions.
type orienter struct {
	m     *CoordMap
	bound int64
	// exactCalls counts the exact predicate calls (Mesh.ExactOrientCalls).
	exactCalls int
}

func newOrienter(m *CoordMap) orienter {
	return orienter{m: m, bound: m.OrientBoundCells2()}
}

// convex reports whether b is a strictly convex corner of a→b→c: the
// integer area2 is negative, and, when its magnitude is below the bound, the
// exact orientation of the stored float32 positions is negative too.
func (o *orienter) convex(ax, az, bx, bz, cx, cz int) bool {
	d := area2(ax, az, bx, bz, cx, cz)
	if d >= 0 {
		return false
	}
	if -d >= o.bound {
		return true
	}
	o.exactCalls++
	fax, faz := o.m.posXZ(ax, az)
	fbx, fbz := o.m.posXZ(bx, bz)
	fcx, fcz := o.m.posXZ(cx, cz)
	return geom.Orient2D(fax, faz, fbx, fbz, fcx, fcz) < 0
}

// OrientCells returns the sign of (b-a)×(c-a) of the cell coordinates
// (x first, z second): -1 when b is a convex corner of a→b→c in the turn
// of contours and polygons (Recast's "c left of ab"), +1 for a reflex one,
// 0 when collinear. With OrientStored it lets tests and tools check a mesh
// in both senses.
func (c *CoordMap) OrientCells(ax, az, bx, bz, cx, cz int) int {
	d := area2(ax, az, bx, bz, cx, cz)
	switch {
	case d < 0:
		return -1
	case d > 0:
		return 1
	}
	return 0
}

// OrientStored returns the exact sign of (b-a)×(c-a) of the stored float32
// x/z positions of cells a, b, c (geom.Orient2D with x first and z second),
// the same sign convention as OrientCells.
func (c *CoordMap) OrientStored(ax, az, bx, bz, cx, cz int) int {
	fax, faz := c.posXZ(ax, az)
	fbx, fbz := c.posXZ(bx, bz)
	fcx, fcz := c.posXZ(cx, cz)
	return geom.Orient2D(fax, faz, fbx, fbz, fcx, fcz)
}
