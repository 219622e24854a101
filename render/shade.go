package render

import (
	"image/color"
	"math"

	"navviz/core/geom"
	"navviz/core/level"
)

// Overlay names made by this file.
const (
	OverlayInput = "input"
	OverlayGrid  = "grid"
)

// Shading of input geometry (all float32, products rounded explicitly).
var (
	// lightDir is the unit direction towards the light: from above, a little
	// from +x and +z, so that wall faces of different orientations differ.
	lightDir = geom.V3(0.55, 0.75, 0.35).Normalize()

	floorBase   = [3]float32{150, 170, 205} // up-facing, walkable slope: greyish blue
	steepBase   = [3]float32{175, 168, 160} // steeper than walkable: darker grey-brown
	unwalkBase  = [3]float32{170, 120, 110} // walkable slope but area id 0: reddish
	gridMinorCl = color.RGBA{95, 98, 108, 255}
	gridMajorCl = color.RGBA{140, 144, 156, 255}
)

const (
	ambient = float32(0.35)
	diffuse = float32(0.65)
	// cosWalkableSlope is cos(45°): a triangle whose normal has |y| at least
	// this is walkable-ish (the default agent slope).
	cosWalkableSlope = float32(0.70710677)
	// Height tint: brightness × (0.75 + 0.35·sqrt(h)) with h the centroid
	// height as a fraction of the level's height, so that roofs stand out
	// from streets even seen from straight above.
	heightTintLow  = float32(0.75)
	heightTintGain = float32(0.35)
	// maxGridLinesPerAxis bounds GridOverlay; the step grows to respect it.
	maxGridLinesPerAxis = 1000
)

// InputOverlay returns the overlay "input": every triangle of s with one
// colour per face, lit by a directional light (ambient 0.35 + 0.65·|n·l|,
// two-sided since level winding is arbitrary) and brightened with height
// (higher faces lighter). Faces within the walkable
// slope (45°) are greyish blue, steeper faces darker grey, and walkable-slope
// faces whose area id is 0 (not walkable) reddish. Degenerate triangles are
// kept (they cover no pixel); triangles with an index out of range are
// skipped. A nil soup gives an empty overlay.
func InputOverlay(s *level.Soup) *Overlay {
	o := &Overlay{Name: OverlayInput, Visible: true}
	if s == nil {
		return o
	}
	o.Tris = make([]Vertex, 0, 3*len(s.Tris))
	b := s.Bounds()
	y0, span := b.Min.Y, b.Max.Y-b.Min.Y
	if !(span > 0) || !b.Min.Finite() || !b.Max.Finite() {
		y0, span = 0, 0
	}
	nv := int32(len(s.Verts))
	for i, t := range s.Tris {
		if t[0] < 0 || t[0] >= nv || t[1] < 0 || t[1] >= nv || t[2] < 0 || t[2] >= nv {
			continue
		}
		a, b, c := s.Verts[t[0]], s.Verts[t[1]], s.Verts[t[2]]
		area := level.AreaWalkable
		if i < len(s.Areas) {
			area = s.Areas[i]
		}
		h := float32(0)
		if span > 0 {
			cy := (a.Y + b.Y + c.Y) / 3
			h = max(0, min(1, (cy-y0)/span))
		}
		col := faceColour(a, b, c, area, h)
		o.Tris = append(o.Tris, Vertex{a, col}, Vertex{b, col}, Vertex{c, col})
	}
	return o
}

func abs32(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}

// faceColour returns the lit colour of triangle abc with area id area whose
// centroid lies at the fraction h in [0, 1] of the level's height.
func faceColour(a, b, c geom.Vec3, area uint8, h float32) color.RGBA {
	n := b.Sub(a).Cross(c.Sub(a)).Normalize()
	if !n.Finite() {
		n = geom.V3(0, 1, 0)
	}
	base := steepBase
	if abs32(n.Y) >= cosWalkableSlope {
		base = floorBase
		if area == level.AreaNull {
			base = unwalkBase
		}
	}
	lit := ambient + float32(diffuse*abs32(n.Dot(lightDir)))
	lit *= heightTintLow + float32(heightTintGain*float32(math.Sqrt(float64(h))))
	var rgb [3]uint8
	for k := range rgb {
		v := float32(base[k]*lit) + 0.5
		rgb[k] = uint8(max(0, min(255, v)))
	}
	return color.RGBA{rgb[0], rgb[1], rgb[2], 255}
}

// GridOverlay returns the overlay "grid": lines on the plane y = b.Min.Y
// every stepM metres (at multiples of stepM, covering b's x/z extent rounded
// outwards), every tenth line brighter. When more than 1000 lines per axis
// would be needed, the step is multiplied by 10 until it fits. An empty or
// non-finite box, or a step that is not a positive finite number, gives an
// empty overlay.
func GridOverlay(b geom.Box3, stepM float32) *Overlay {
	o := &Overlay{Name: OverlayGrid, Visible: true}
	if b.Empty() || !b.Min.Finite() || !b.Max.Finite() || !(stepM > 0) || math.IsInf(float64(stepM), 0) {
		return o
	}
	step := float64(stepM)
	x0, x1 := float64(b.Min.X), float64(b.Max.X)
	z0, z1 := float64(b.Min.Z), float64(b.Max.Z)
	var i0, i1, k0, k1 float64
	for {
		i0, i1 = math.Floor(x0/step), math.Ceil(x1/step)
		k0, k1 = math.Floor(z0/step), math.Ceil(z1/step)
		if i1-i0 <= maxGridLinesPerAxis && k1-k0 <= maxGridLinesPerAxis {
			break
		}
		step *= 10
	}
	y := b.Min.Y
	xa, xb := float32(i0*step), float32(i1*step)
	za, zb := float32(k0*step), float32(k1*step)
	col := func(i float64) color.RGBA {
		if math.Mod(i, 10) == 0 {
			return gridMajorCl
		}
		return gridMinorCl
	}
	for i := i0; i <= i1; i++ {
		x := float32(i * step)
		c := col(i)
		o.Lines = append(o.Lines, Vertex{geom.V3(x, y, za), c}, Vertex{geom.V3(x, y, zb), c})
	}
	for k := k0; k <= k1; k++ {
		z := float32(k * step)
		c := col(k)
		o.Lines = append(o.Lines, Vertex{geom.V3(xa, y, z), c}, Vertex{geom.V3(xb, y, z), c})
	}
	return o
}

// GridStepM returns a grid spacing for a box: a 1-2-5 multiple of a power of
// ten giving about 20 cells along the larger horizontal side (1 m for an
// empty or degenerate box).
func GridStepM(b geom.Box3) float32 {
	if b.Empty() || !b.Min.Finite() || !b.Max.Finite() {
		return 1
	}
	s := b.Size()
	ext := float64(max(s.X, s.Z))
	if !(ext > 0) {
		return 1
	}
	raw := ext / 20
	// p = the largest power of ten ≤ raw, by exact-enough repeated scaling
	// (no math.Log10, whose last bits may differ between platforms).
	p := 1.0
	for p*10 <= raw {
		p *= 10
	}
	for p > raw {
		p /= 10
	}
	for _, m := range []float64{1, 2, 5} {
		if m*p >= raw {
			return float32(m * p)
		}
	}
	return float32(10 * p)
}

// LevelScene returns a scene showing the level s: the "input" overlay and
// the "grid" overlay (GridStepM spacing, under the level's bounds), both
// visible. Later stages add their overlays with Scene.Add.
func LevelScene(s *level.Soup) *Scene {
	b := geom.EmptyBox()
	if s != nil {
		b = s.Bounds()
	}
	sc := &Scene{}
	sc.Add(InputOverlay(s))
	sc.Add(GridOverlay(b, GridStepM(b)))
	return sc
}
