package voxel

import (
	"fmt"

	"navviz/core/geom"
)

// ConvexVolume assigns an area id to the walkable spans whose floor lies in a
// vertical prism: a convex polygon in x/z extruded from MinYM to MaxYM
// (Recast's ConvexVolume and rcMarkConvexPolyArea). Volumes are applied after
// erosion, in order; where they overlap the later one wins.
type ConvexVolume struct {
	// VertsXZ are the polygon's corners in metres as (x, z), in either
	// winding order.
	VertsXZ [][2]float32
	// MinYM and MaxYM bound the floor heights the volume affects, in metres
	// (both included).
	MinYM, MaxYM float32
	// Area is the area id given to the spans (0 makes them not walkable).
	Area uint8
}

// Validate checks the volume: at least 3 corners, every number finite and
// within ±MaxCoordM, MinYM <= MaxYM, Area in 0..63, and a convex polygon
// (exact orientation tests: consecutive corners never turn both ways, at
// least one turn is strict, the edge directions wind around once, and no
// edge doubles back on the previous one). The error names the bad value.
func (v *ConvexVolume) Validate() error {
	if v == nil {
		return fmt.Errorf("voxel: nil volume")
	}
	n := len(v.VertsXZ)
	if n < 3 {
		return fmt.Errorf("voxel: volume has %d corners, want at least 3", n)
	}
	for i, p := range v.VertsXZ {
		if !finiteCoord(p[0]) || !finiteCoord(p[1]) {
			return fmt.Errorf("voxel: volume corner %d (%v, %v) is not finite or outside ±%d m", i, p[0], p[1], MaxCoordM)
		}
	}
	if !finiteCoord(v.MinYM) {
		return fmt.Errorf("voxel: volume MinYM %v is not finite or outside ±%d m", v.MinYM, MaxCoordM)
	}
	if !finiteCoord(v.MaxYM) {
		return fmt.Errorf("voxel: volume MaxYM %v is not finite or outside ±%d m", v.MaxYM, MaxCoordM)
	}
	if v.MinYM > v.MaxYM {
		return fmt.Errorf("voxel: volume MinYM %v above MaxYM %v", v.MinYM, v.MaxYM)
	}
	if v.Area > MaxArea {
		return fmt.Errorf("voxel: volume area id %d, want 0..%d", v.Area, MaxArea)
	}
	turn := 0
	dxChanges, dzChanges := 0, 0
	lastDX, lastDZ := 0, 0
	// The signs of the last non-zero dx and dz of the loop's edge sequence,
	// so that the count of sign changes is cyclic.
	for i := 0; i < n; i++ {
		a, b := v.VertsXZ[i], v.VertsXZ[(i+1)%n]
		if s := sign32(b[0] - a[0]); s != 0 {
			lastDX = s
		}
		if s := sign32(b[1] - a[1]); s != 0 {
			lastDZ = s
		}
	}
	for i := 0; i < n; i++ {
		a, b, c := v.VertsXZ[i], v.VertsXZ[(i+1)%n], v.VertsXZ[(i+2)%n]
		o := geom.Orient2D(float64(a[0]), float64(a[1]), float64(b[0]), float64(b[1]), float64(c[0]), float64(c[1]))
		if o != 0 {
			if turn != 0 && o != turn {
				return fmt.Errorf("voxel: volume is not convex: corner %d turns the other way", (i+1)%n)
			}
			turn = o
		} else {
			// Collinear: the two edges must not point in opposite directions.
			e1x, e1z := float64(b[0])-float64(a[0]), float64(b[1])-float64(a[1])
			e2x, e2z := float64(c[0])-float64(b[0]), float64(c[1])-float64(b[1])
			if float64(e1x*e2x)+float64(e1z*e2z) < 0 {
				return fmt.Errorf("voxel: volume is not convex: edge at corner %d doubles back", (i+1)%n)
			}
		}
		if s := sign32(b[0] - a[0]); s != 0 {
			if s != lastDX {
				dxChanges++
			}
			lastDX = s
		}
		if s := sign32(b[1] - a[1]); s != 0 {
			if s != lastDZ {
				dzChanges++
			}
			lastDZ = s
		}
	}
	if turn == 0 {
		return fmt.Errorf("voxel: volume has no area (all %d corners collinear)", n)
	}
	if dxChanges > 2 || dzChanges > 2 {
		return fmt.Errorf("voxel: volume is not convex: its edges wind around more than once")
	}
	return nil
}

func sign32(v float32) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// contains reports whether (px, pz) lies inside the convex polygon or on its
// boundary: no two edges see the point on strictly opposite sides (exact).
func (v *ConvexVolume) contains(px, pz float64) bool {
	n := len(v.VertsXZ)
	side := 0
	for i := 0; i < n; i++ {
		a, b := v.VertsXZ[i], v.VertsXZ[(i+1)%n]
		o := geom.Orient2D(float64(a[0]), float64(a[1]), float64(b[0]), float64(b[1]), px, pz)
		if o == 0 {
			continue
		}
		if side != 0 && o != side {
			return false
		}
		side = o
	}
	return true
}

// MarkConvexVolume sets the area of every span of c to v.Area when the span's
// area is not AreaNull, its floor height (Grid.RowHeightM of Y, double) lies
// in [v.MinYM, v.MaxYM], and its column's centre (Grid.CellCenterM, double)
// lies inside the polygon or on its boundary (exact test). The volume is
// validated first; on error c is unchanged.
func MarkConvexVolume(c *CompactHeightfield, v *ConvexVolume) error {
	if err := v.Validate(); err != nil {
		return err
	}
	if c == nil {
		return fmt.Errorf("voxel: MarkConvexVolume: nil compact heightfield")
	}
	if len(c.Cells) != c.Width*c.Height || len(c.Areas) != len(c.Spans) {
		return fmt.Errorf("voxel: MarkConvexVolume: compact heightfield of %d x %d columns has %d cells, %d spans and %d areas",
			c.Width, c.Height, len(c.Cells), len(c.Spans), len(c.Areas))
	}
	markVolume(compactColumns{c}, &c.Grid, c.Areas, v)
	return nil
}

// markVolume is MarkConvexVolume on valid input: cols are the spans of
// grid g, areas their areas (one per span). It returns the spans it looked
// at (markColumns).
func markVolume[C spanColumns](cols C, g *Grid, areas []uint8, v *ConvexVolume) SpanRange {
	f := volumeFootprint{v: v, minX: v.VertsXZ[0][0], maxX: v.VertsXZ[0][0], minZ: v.VertsXZ[0][1], maxZ: v.VertsXZ[0][1]}
	for _, p := range v.VertsXZ[1:] {
		f.minX, f.maxX = min(f.minX, p[0]), max(f.maxX, p[0])
		f.minZ, f.maxZ = min(f.minZ, p[1]), max(f.maxZ, p[1])
	}
	// Conservative column ranges; the exact test decides.
	x0, x1 := columnRange(float64(f.minX), float64(f.maxX), g.OriginM.X, g.CellSizeM, g.Width)
	z0, z1 := columnRange(float64(f.minZ), float64(f.maxZ), g.OriginM.Z, g.CellSizeM, g.Height)
	_, r := markColumns(cols, g, areas, x0, x1, z0, z1, float64(v.MinYM), float64(v.MaxYM), v.Area, f, false)
	return r
}

// volumeFootprint is a volume's polygon test behind its box.
type volumeFootprint struct {
	v                      *ConvexVolume
	minX, maxX, minZ, maxZ float32
}

func (f volumeFootprint) contains(cx, cz float64) bool {
	return cx >= float64(f.minX) && cx <= float64(f.maxX) && cz >= float64(f.minZ) && cz <= float64(f.maxZ) && f.v.contains(cx, cz)
}
