package voxel

import (
	"fmt"
	"math"

	"navviz/core/geom"
)

// ObstacleShape names the shape of an Obstacle.
type ObstacleShape uint8

const (
	// ShapeCylinder is a vertical cylinder: base centre, radius, height.
	ShapeCylinder ObstacleShape = 1
	// ShapeBox is an axis-aligned box: min and max corners.
	ShapeBox ObstacleShape = 2
	// ShapeOrientedBox is a box turned about the vertical axis: centre, half
	// sizes and yaw.
	ShapeOrientedBox ObstacleShape = 3
)

var shapeNames = [...]string{ShapeCylinder: "cylinder", ShapeBox: "box", ShapeOrientedBox: "oriented box"}

// String returns "cylinder", "box" or "oriented box" (or "ObstacleShape(n)"
// for an invalid value).
func (s ObstacleShape) String() string {
	if s >= ShapeCylinder && int(s) < len(shapeNames) {
		return shapeNames[s]
	}
	return fmt.Sprintf("ObstacleShape(%d)", uint8(s))
}

// Obstacle is a shape with a height range that makes walkable spans not
// walkable (build3d-runtime.md, "Obstacles (step 4)"; docs/tilecache.md,
// "Obstacles"). It is applied after erosion, so MarkObstacle grows it by the
// agent radius instead. Only the fields of its Shape are used; the others
// should be zero (Normalized clears them). Build obstacles with Cylinder,
// Box and OrientedBox. All values are metres (YawRad radians).
type Obstacle struct {
	// Shape selects the shape and the fields below that are used.
	Shape ObstacleShape
	// CentreM is the cylinder's base centre (the bottom of its height
	// range) or the oriented box's centre, metres.
	CentreM geom.Vec3
	// RadiusM (> 0) and HeightM (>= 0) are the cylinder's radius and
	// height, metres; its height range is [CentreM.Y, CentreM.Y+HeightM].
	RadiusM, HeightM float32
	// MinM and MaxM are the box's corners, metres (MinM <= MaxM on every
	// axis); its height range is [MinM.Y, MaxM.Y].
	MinM, MaxM geom.Vec3
	// HalfM holds the oriented box's half sizes along its own axes, metres:
	// X (> 0) and Z (> 0) before the turn, Y (>= 0) vertical; its height
	// range is [CentreM.Y-HalfM.Y, CentreM.Y+HalfM.Y].
	HalfM geom.Vec3
	// YawRad turns the oriented box about the vertical axis, radians, from
	// the +x axis towards the +z axis.
	YawRad float32
}

// Cylinder returns a cylinder obstacle with base centre baseM, radius
// radiusM and height heightM (metres).
func Cylinder(baseM geom.Vec3, radiusM, heightM float32) Obstacle {
	return Obstacle{Shape: ShapeCylinder, CentreM: baseM, RadiusM: radiusM, HeightM: heightM}
}

// Box returns an axis-aligned box obstacle with corners minM and maxM
// (metres).
func Box(minM, maxM geom.Vec3) Obstacle {
	return Obstacle{Shape: ShapeBox, MinM: minM, MaxM: maxM}
}

// OrientedBox returns a box obstacle with centre centreM, half sizes halfM
// (metres) and yaw yawRad (radians, from +x towards +z).
func OrientedBox(centreM, halfM geom.Vec3, yawRad float32) Obstacle {
	return Obstacle{Shape: ShapeOrientedBox, CentreM: centreM, HalfM: halfM, YawRad: yawRad}
}

// Normalized returns o with the fields its shape does not use set to zero.
// Two obstacles that mark the same spans under every grid have equal
// normalized forms when they were built with the same values.
func (o Obstacle) Normalized() Obstacle {
	switch o.Shape {
	case ShapeCylinder:
		return Cylinder(o.CentreM, o.RadiusM, o.HeightM)
	case ShapeBox:
		return Box(o.MinM, o.MaxM)
	case ShapeOrientedBox:
		return OrientedBox(o.CentreM, o.HalfM, o.YawRad)
	}
	return o
}

// ObstacleError is the error of Obstacle.Validate: the shape, the value that
// is wrong (a field such as "radius" or "centre x", or an extent such as
// "extent x max (centre x + rotated half size)") and what it must be.
type ObstacleError struct {
	Shape ObstacleShape
	// Value names the bad value.
	Value string
	// Got is the value as given (or as computed, for an extent).
	Got float64
	// Want says what it must be.
	Want string
}

// Error returns e.g. "obstacle cylinder radius = NaN, want a finite number > 0".
func (e *ObstacleError) Error() string {
	if e == nil {
		return "<nil>"
	}
	return fmt.Sprintf("obstacle %s %s = %v, want %s", e.Shape, e.Value, e.Got, e.Want)
}

const wantCoord = "a finite number within ±2^21"

// Validate checks the obstacle: a known shape; every number of the shape
// finite and within ±MaxCoordM (2^21 m; the yaw too, in radians); a
// cylinder's radius > 0 and height >= 0, a box's MinM <= MaxM on every axis,
// an oriented box's half sizes X and Z > 0 and Y >= 0; and every extent of
// the shape within ±MaxCoordM: the cylinder's centre ± radius in x and z and
// its top (base y + height), the oriented box's centre ± its rotated half
// size in x and z (|hx·cos| + |hz·sin| and |hx·sin| + |hz·cos|, SinCos of
// the yaw) and centre y ± half height, all in double. The error is an
// *ObstacleError naming the first bad value.
func (o *Obstacle) Validate() error {
	if o == nil {
		return fmt.Errorf("voxel: nil obstacle")
	}
	bad := func(value string, got float64, want string) error {
		return &ObstacleError{Shape: o.Shape, Value: value, Got: got, Want: want}
	}
	coord := func(value string, v float64) error {
		if !(v >= -MaxCoordM && v <= MaxCoordM) {
			return bad(value, v, wantCoord)
		}
		return nil
	}
	// extents checks computed extents of the shape in order.
	type extent struct {
		name string
		v    float64
	}
	extents := func(es ...extent) error {
		for _, e := range es {
			if err := coord(e.name, e.v); err != nil {
				return err
			}
		}
		return nil
	}
	// vec names a bad component only when there is one (no string is
	// made for a valid obstacle).
	vec := func(name string, v geom.Vec3) error {
		for i, c := range [3]float64{float64(v.X), float64(v.Y), float64(v.Z)} {
			if !(c >= -MaxCoordM && c <= MaxCoordM) {
				return bad(name+" "+"xyz"[i:i+1], c, wantCoord)
			}
		}
		return nil
	}
	switch o.Shape {
	case ShapeCylinder:
		if err := vec("base", o.CentreM); err != nil {
			return err
		}
		r, h := float64(o.RadiusM), float64(o.HeightM)
		if !(r > 0 && r <= MaxCoordM) {
			return bad("radius", r, "a finite number > 0 within 2^21")
		}
		if !(h >= 0 && h <= MaxCoordM) {
			return bad("height", h, "a finite number >= 0 within 2^21")
		}
		c := o.CentreM.F64()
		if err := extents(
			extent{"extent x min (base x - radius)", c.X - r},
			extent{"extent x max (base x + radius)", c.X + r},
			extent{"extent z min (base z - radius)", c.Z - r},
			extent{"extent z max (base z + radius)", c.Z + r},
			extent{"extent y max (base y + height)", c.Y + h},
		); err != nil {
			return err
		}
	case ShapeBox:
		if err := vec("min", o.MinM); err != nil {
			return err
		}
		if err := vec("max", o.MaxM); err != nil {
			return err
		}
		lo, hi := o.MinM.F64(), o.MaxM.F64()
		for _, a := range []struct {
			axis   string
			lo, hi float64
		}{{"x", lo.X, hi.X}, {"y", lo.Y, hi.Y}, {"z", lo.Z, hi.Z}} {
			if a.lo > a.hi {
				return bad("min "+a.axis, a.lo, fmt.Sprintf("at most max %s = %v", a.axis, a.hi))
			}
		}
	case ShapeOrientedBox:
		if err := vec("centre", o.CentreM); err != nil {
			return err
		}
		hx, hy, hz := float64(o.HalfM.X), float64(o.HalfM.Y), float64(o.HalfM.Z)
		if !(hx > 0 && hx <= MaxCoordM) {
			return bad("half size x", hx, "a finite number > 0 within 2^21")
		}
		if !(hy >= 0 && hy <= MaxCoordM) {
			return bad("half size y", hy, "a finite number >= 0 within 2^21")
		}
		if !(hz > 0 && hz <= MaxCoordM) {
			return bad("half size z", hz, "a finite number > 0 within 2^21")
		}
		if err := coord("yaw", float64(o.YawRad)); err != nil {
			return err
		}
		ex, ez := o.rotatedHalf(0)
		c := o.CentreM.F64()
		if err := extents(
			extent{"extent x min (centre x - rotated half size)", c.X - ex},
			extent{"extent x max (centre x + rotated half size)", c.X + ex},
			extent{"extent z min (centre z - rotated half size)", c.Z - ez},
			extent{"extent z max (centre z + rotated half size)", c.Z + ez},
			extent{"extent y min (centre y - half size y)", c.Y - hy},
			extent{"extent y max (centre y + half size y)", c.Y + hy},
		); err != nil {
			return err
		}
	default:
		return &ObstacleError{Shape: o.Shape, Value: "shape", Got: float64(o.Shape),
			Want: "ShapeCylinder (1), ShapeBox (2) or ShapeOrientedBox (3)"}
	}
	return nil
}

// rotatedHalf returns the oriented box's half extents along world x and z
// with its half sizes grown by growM: |hx·c| + |hz·s| and |hx·s| + |hz·c|
// with hx, hz the grown half sizes and (s, c) = SinCos(yaw), in double.
func (o *Obstacle) rotatedHalf(growM float64) (ex, ez float64) {
	s, c := geom.SinCos(float64(o.YawRad))
	hx, hz := float64(o.HalfM.X)+growM, float64(o.HalfM.Z)+growM
	ex = math.Abs(float64(hx*c)) + math.Abs(float64(hz*s))
	ez = math.Abs(float64(hx*s)) + math.Abs(float64(hz*c))
	return ex, ez
}

// BoundsXZ returns the x/z bounding box of the obstacle's shape (not grown),
// metres, in double: the cylinder's base centre ± radius, the box's corners,
// the oriented box's centre ± its rotated half size (see Validate). The
// obstacle should be valid.
func (o *Obstacle) BoundsXZ() (minX, minZ, maxX, maxZ float64) {
	if o == nil {
		return
	}
	return o.GrownBoundsXZ(0)
}

// GrownBoundsXZ returns the x/z bounding box of the obstacle's footprint
// grown by growM metres, in double: the cylinder's base centre ± (radius +
// growM), the box's corners moved out by growM, the oriented box's centre ±
// the rotated grown half sizes (|(hx+g)·cos| + |(hz+g)·sin| along x,
// |(hx+g)·sin| + |(hz+g)·cos| along z). For an oriented box this reaches
// further than BoundsXZ widened by growM (up to growM·√2 at 45°). Every
// point ContainsXZ accepts lies in it, up to the rounding of the last bit.
// The obstacle should be valid.
func (o *Obstacle) GrownBoundsXZ(growM float64) (minX, minZ, maxX, maxZ float64) {
	if o == nil {
		return
	}
	c := o.CentreM.F64()
	switch o.Shape {
	case ShapeCylinder:
		r := float64(o.RadiusM) + growM
		return c.X - r, c.Z - r, c.X + r, c.Z + r
	case ShapeBox:
		return float64(o.MinM.X) - growM, float64(o.MinM.Z) - growM, float64(o.MaxM.X) + growM, float64(o.MaxM.Z) + growM
	case ShapeOrientedBox:
		ex, ez := o.rotatedHalf(growM)
		return c.X - ex, c.Z - ez, c.X + ex, c.Z + ez
	}
	return 0, 0, 0, 0
}

// HeightRangeM returns the obstacle's height range [lo, hi], metres, in
// double: [y, y+h] for a cylinder, [min y, max y] for a box, [y-hy, y+hy]
// for an oriented box. A span is marked when its floor lies in it (both
// ends included).
func (o *Obstacle) HeightRangeM() (lo, hi float64) {
	if o == nil {
		return
	}
	c := o.CentreM.F64()
	switch o.Shape {
	case ShapeCylinder:
		return c.Y, c.Y + float64(o.HeightM)
	case ShapeBox:
		return float64(o.MinM.Y), float64(o.MaxM.Y)
	case ShapeOrientedBox:
		return c.Y - float64(o.HalfM.Y), c.Y + float64(o.HalfM.Y)
	}
	return 0, 0
}

// ObstacleGrowthM returns the growth g of build3d-runtime.md: radiusCells
// (the settings' WalkableRadiusCells) times cellSizeM, in double.
func ObstacleGrowthM(radiusCells int, cellSizeM float32) float64 {
	return float64(float64(radiusCells) * float64(cellSizeM))
}

// footprint is an obstacle prepared for many footprint tests: its shape's
// numbers in double with the growth applied and, for an oriented box, the
// sine and cosine of its yaw.
type footprint struct {
	shape                  ObstacleShape
	cx, cz                 float64 // cylinder base / oriented box centre
	r2                     float64 // cylinder: (r+g)²
	minX, minZ, maxX, maxZ float64 // box: grown corners
	hx, hz                 float64 // oriented box: grown half sizes
	s, c                   float64 // oriented box: SinCos(yaw)
}

func (o *Obstacle) footprint(growM float64) footprint {
	f := footprint{shape: o.Shape, cx: float64(o.CentreM.X), cz: float64(o.CentreM.Z)}
	switch o.Shape {
	case ShapeCylinder:
		rg := float64(o.RadiusM) + growM
		f.r2 = float64(rg * rg)
	case ShapeBox:
		f.minX, f.minZ = float64(o.MinM.X)-growM, float64(o.MinM.Z)-growM
		f.maxX, f.maxZ = float64(o.MaxM.X)+growM, float64(o.MaxM.Z)+growM
	case ShapeOrientedBox:
		f.hx, f.hz = float64(o.HalfM.X)+growM, float64(o.HalfM.Z)+growM
		f.s, f.c = geom.SinCos(float64(o.YawRad))
	}
	return f
}

// contains is the footprint test of build3d-runtime.md's table for the
// point (x, z), boundary included, in double. Every product is rounded
// before it feeds a sum (no fused multiply-add).
func (f footprint) contains(x, z float64) bool {
	switch f.shape {
	case ShapeCylinder:
		dx, dz := x-f.cx, z-f.cz
		return float64(dx*dx)+float64(dz*dz) <= f.r2
	case ShapeBox:
		return x >= f.minX && x <= f.maxX && z >= f.minZ && z <= f.maxZ
	case ShapeOrientedBox:
		dx, dz := x-f.cx, z-f.cz
		u := float64(dx*f.c) + float64(dz*f.s)
		v := float64(dz*f.c) - float64(dx*f.s)
		return math.Abs(u) <= f.hx && math.Abs(v) <= f.hz
	}
	return false
}

// ContainsXZ reports whether the point (xM, zM) lies in the obstacle's
// footprint grown by growM metres (boundary included), with the test of
// build3d-runtime.md's table in double. The obstacle should be valid.
func (o *Obstacle) ContainsXZ(xM, zM, growM float64) bool {
	if o == nil {
		return false
	}
	f := o.footprint(growM)
	return f.contains(xM, zM)
}

// MarkObstacle applies obstacle o to c (build3d-runtime.md, "Obstacles
// (step 4)"): the footprint is grown by g = radiusCells * CellSizeM
// (ObstacleGrowthM; pass the settings' WalkableRadiusCells), and every span
// of every column of c's grid (border included) whose cell centre
// (Grid.CellCenterM, double) lies in the grown footprint (boundary included)
// and whose floor height (Grid.RowHeightM, double) lies in the obstacle's
// height range (both ends included) gets AreaNull, when its area is not
// AreaNull already. Marking is idempotent per span, so the order of several
// obstacles does not matter. It returns the number of spans set to
// AreaNull. The obstacle and radiusCells (0..MaxErodeRadiusCells) are
// validated first; on error c is unchanged.
func MarkObstacle(c *CompactHeightfield, o *Obstacle, radiusCells int) (int, error) {
	if err := o.Validate(); err != nil {
		return 0, fmt.Errorf("voxel: %w", err)
	}
	if radiusCells < 0 || radiusCells > MaxErodeRadiusCells {
		return 0, fmt.Errorf("voxel: obstacle growth radiusCells %d out of range 0..%d", radiusCells, MaxErodeRadiusCells)
	}
	if c == nil {
		return 0, fmt.Errorf("voxel: MarkObstacle: nil compact heightfield")
	}
	if len(c.Cells) != c.Width*c.Height || len(c.Areas) != len(c.Spans) {
		return 0, fmt.Errorf("voxel: MarkObstacle: compact heightfield of %d x %d columns has %d cells, %d spans and %d areas",
			c.Width, c.Height, len(c.Cells), len(c.Spans), len(c.Areas))
	}
	n, _ := markObstacle(compactColumns{c}, &c.Grid, c.Areas, o, radiusCells)
	return n, nil
}

// markObstacle is MarkObstacle on valid input: cols are the spans of grid
// g, areas their areas (one per span). It also returns the spans it looked
// at (markColumns).
func markObstacle[C spanColumns](cols C, g *Grid, areas []uint8, o *Obstacle, radiusCells int) (int, SpanRange) {
	grow := ObstacleGrowthM(radiusCells, g.CellSizeM)
	f := o.footprint(grow)
	minX, minZ, maxX, maxZ := o.GrownBoundsXZ(grow)
	x0, x1 := columnRange(minX, maxX, g.OriginM.X, g.CellSizeM, g.Width)
	z0, z1 := columnRange(minZ, maxZ, g.OriginM.Z, g.CellSizeM, g.Height)
	ylo, yhi := o.HeightRangeM()
	// Every footprint's inside set meets a row in one run of columns, in
	// double as in exact arithmetic: the column centres grow with the
	// column; a disc's test, fl(fl(dx·dx) + fl(dz·dz)) ≤ r², does not
	// increase then does not decrease along a row (fl(dx·dx) follows |dx|);
	// a box's is two bounds; an oriented box's u and v are each monotone
	// along a row (fl(dx·c) follows dx, adding a constant keeps the order),
	// so each bound holds on a run. TestMarkObstacleReference checks the
	// marking against the table column by column.
	return markColumns(cols, g, areas, x0, x1, z0, z1, ylo, yhi, AreaNull, f, true)
}

// spanColumns is what marking reads of a heightfield's open spans (spans
// are numbered column by column, x + z*Width, bottom up): the first span
// of column (x, z), the number of spans of a column, and each span's floor
// row. Marking asks first once a row and count along it, left to right.
// Its implementations are small value types and markColumns is generic in
// them, so a reader does not escape to the heap (an interface value did,
// one allocation per marking).
type spanColumns interface {
	first(x, z int) int
	count(x, z int) int
	floorRow(i int) int
}

// compactColumns are the spanColumns of a compact heightfield.
type compactColumns struct{ c *CompactHeightfield }

func (cc compactColumns) first(x, z int) int { return int(cc.c.Cells[x+z*cc.c.Width].Index) }
func (cc compactColumns) count(x, z int) int { return int(cc.c.Cells[x+z*cc.c.Width].Count) }
func (cc compactColumns) floorRow(i int) int { return int(cc.c.Spans[i].Y) }

// inside is a footprint test in x/z (metres, double): an obstacle's
// footprint or a volume's polygon.
type inside interface {
	contains(x, z float64) bool
}

// markColumns sets to area every span of the columns [x0, x1] x [z0, z1]
// of cols (spans of grid g, areas one per span) whose area is not
// AreaNull, whose floor height (Grid.RowHeightM, double) lies in [ylo, yhi]
// (both ends included) and whose column centre (Grid.CellCenterM, double)
// in.contains takes. A row's columns are first asked from each end until
// one is inside (a disc's rows are mostly outside its box), then the
// columns between are walked, in asked at most once a column, when its
// first span passes the other tests. With runs set, in's inside set meets
// every row of columns in one run, so the columns between the first and
// the last inside are inside without asking (true of the obstacle
// footprints, markObstacle). Spans beyond len(areas) are passed over. It
// returns the number of spans set and a range of spans outside which none
// changed (from the first span of column (x0, z0) to the end of the last
// column walked; empty when none is).
func markColumns[C spanColumns, F inside](cols C, g *Grid, areas []uint8, x0, x1, z0, z1 int, ylo, yhi float64, area uint8, in F, runs bool) (int, SpanRange) {
	if x0 > x1 || z0 > z1 {
		return 0, SpanRange{}
	}
	rlo, rhi := rowRange(g, ylo, yhi)
	marked := 0
	looked := SpanRange{Lo: cols.first(x0, z0)}
	for z := z0; z <= z1; z++ {
		xa, xb := x0, x1
		for xa <= xb && !in.contains(g.CellCenterM(xa, z)) {
			xa++
		}
		for xb > xa && !in.contains(g.CellCenterM(xb, z)) {
			xb--
		}
		if xa > xb {
			continue
		}
		i := cols.first(xa, z)
		for x := xa; x <= xb; x++ {
			lo := i
			i += cols.count(x, z)
			asked, yes := false, false
			for k := lo; k < i && k < len(areas); k++ {
				if areas[k] == AreaNull {
					continue
				}
				if r := cols.floorRow(k); r < rlo || r > rhi {
					continue
				}
				if !asked {
					asked, yes = true, runs || in.contains(g.CellCenterM(x, z))
				}
				if yes {
					areas[k] = area
					marked++
				}
			}
		}
		looked.Hi = i
	}
	return marked, looked
}

// SpanRange is a range [Lo, Hi) of span indices of a heightfield (spans
// numbered column by column, x + z*Width, bottom up); empty when Lo >= Hi.
type SpanRange struct{ Lo, Hi int }

// Empty reports whether r holds no span.
func (r SpanRange) Empty() bool { return r.Lo >= r.Hi }

// Union returns the smallest range holding r and o.
func (r SpanRange) Union(o SpanRange) SpanRange {
	switch {
	case o.Empty():
		return r
	case r.Empty():
		return o
	}
	return SpanRange{min(r.Lo, o.Lo), max(r.Hi, o.Hi)}
}

// rowRange returns the floor rows [rlo, rhi] whose height Grid.RowHeightM
// lies in [ylo, yhi] (empty when rlo > rhi). RowHeightM does not decrease
// with the row, so they are a range; its ends are estimated by division and
// then moved until RowHeightM itself agrees, so that the rows are exactly
// those the height test takes. Floor rows are 16-bit: the range is clamped
// to -1..65536.
func rowRange(g *Grid, ylo, yhi float64) (rlo, rhi int) {
	const top = 1 << 16
	est := func(y float64) int {
		r := math.Floor((y - float64(g.OriginM.Y)) / float64(g.CellHeightM))
		return int(min(max(r, -1), top))
	}
	rlo = est(ylo)
	for rlo > -1 && g.RowHeightM(rlo-1) >= ylo {
		rlo--
	}
	for rlo < top && g.RowHeightM(rlo) < ylo {
		rlo++
	}
	rhi = est(yhi)
	for rhi < top && g.RowHeightM(rhi+1) <= yhi {
		rhi++
	}
	for rhi > -1 && g.RowHeightM(rhi) > yhi {
		rhi--
	}
	return rlo, rhi
}

// columnRange returns the columns [a, b] (clamped to 0..n-1; empty when
// a > b) whose centres may lie in [lo, hi] along an axis with origin o and
// cell size cs: a superset by one column on each side, so that the exact
// test decides.
func columnRange(lo, hi float64, o, cs float32, n int) (int, int) {
	c := float64(cs)
	a := math.Floor((lo-float64(o))/c) - 1
	b := math.Floor((hi-float64(o))/c) + 1
	a = min(max(a, 0), float64(n))
	b = min(max(b, -1), float64(n-1))
	return int(a), int(b)
}
