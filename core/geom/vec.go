// Package geom holds the small geometric vocabulary of navviz: float32
// vectors and boxes (the storage type of every position), float64 helpers for
// tests the spec writes in double, an exact 2D orientation predicate, and a
// deterministic SinCos.
//
// Determinism: nothing here may let the compiler fuse a multiply-add. Where a
// product feeds a sum, the product is wrapped in an explicit conversion
// (float32(a*b) + c, float64(a*b) + c), which the Go spec forbids fusing;
// TestNoFusedMultiplyAdd checks the arm64 build for fused instructions.
package geom

import "math"

// Vec3 is a position or direction in metres, stored as float32.
type Vec3 struct{ X, Y, Z float32 }

// V3 returns the vector (x, y, z).
func V3(x, y, z float32) Vec3 { return Vec3{x, y, z} }

// Add returns a+b.
func (a Vec3) Add(b Vec3) Vec3 { return Vec3{a.X + b.X, a.Y + b.Y, a.Z + b.Z} }

// Sub returns a-b.
func (a Vec3) Sub(b Vec3) Vec3 { return Vec3{a.X - b.X, a.Y - b.Y, a.Z - b.Z} }

// Scale returns a*s, each product rounded (the conversions keep an inlined
// a.Add(b.Scale(s)) from being fused into multiply-adds).
func (a Vec3) Scale(s float32) Vec3 {
	return Vec3{float32(a.X * s), float32(a.Y * s), float32(a.Z * s)}
}

// Dot returns the dot product a·b.
func (a Vec3) Dot(b Vec3) float32 {
	return float32(a.X*b.X) + float32(a.Y*b.Y) + float32(a.Z*b.Z)
}

// Cross returns the cross product a×b.
func (a Vec3) Cross(b Vec3) Vec3 {
	return Vec3{
		float32(a.Y*b.Z) - float32(a.Z*b.Y),
		float32(a.Z*b.X) - float32(a.X*b.Z),
		float32(a.X*b.Y) - float32(a.Y*b.X),
	}
}

// Len returns the Euclidean length of a.
func (a Vec3) Len() float32 { return float32(math.Sqrt(float64(a.Dot(a)))) }

// Normalize returns a scaled to unit length, or a itself when it is zero.
func (a Vec3) Normalize() Vec3 {
	l := a.Len()
	if l == 0 {
		return a
	}
	return a.Scale(1 / l)
}

// Min returns the component-wise minimum of a and b.
func (a Vec3) Min(b Vec3) Vec3 {
	return Vec3{min(a.X, b.X), min(a.Y, b.Y), min(a.Z, b.Z)}
}

// Max returns the component-wise maximum of a and b.
func (a Vec3) Max(b Vec3) Vec3 {
	return Vec3{max(a.X, b.X), max(a.Y, b.Y), max(a.Z, b.Z)}
}

// Finite reports whether every component is a finite number.
func (a Vec3) Finite() bool {
	return !math.IsNaN(float64(a.X)) && !math.IsInf(float64(a.X), 0) &&
		!math.IsNaN(float64(a.Y)) && !math.IsInf(float64(a.Y), 0) &&
		!math.IsNaN(float64(a.Z)) && !math.IsInf(float64(a.Z), 0)
}

// Box3 is an axis-aligned box in metres. The zero Box3 is not empty; use
// EmptyBox to start accumulating points.
type Box3 struct{ Min, Max Vec3 }

// EmptyBox returns a box that contains nothing; Extend grows it.
func EmptyBox() Box3 {
	inf := float32(math.Inf(1))
	return Box3{Vec3{inf, inf, inf}, Vec3{-inf, -inf, -inf}}
}

// Empty reports whether b contains no point.
func (b Box3) Empty() bool { return b.Min.X > b.Max.X || b.Min.Y > b.Max.Y || b.Min.Z > b.Max.Z }

// Extend returns b grown to contain p.
func (b Box3) Extend(p Vec3) Box3 { return Box3{b.Min.Min(p), b.Max.Max(p)} }

// Union returns the smallest box containing b and o.
func (b Box3) Union(o Box3) Box3 { return Box3{b.Min.Min(o.Min), b.Max.Max(o.Max)} }

// Size returns Max-Min.
func (b Box3) Size() Vec3 { return b.Max.Sub(b.Min) }

// Center returns the centre of b.
func (b Box3) Center() Vec3 { return b.Min.Add(b.Max).Scale(0.5) }

// OverlapsXZ reports whether b and o overlap in x and z (boundaries touching count).
func (b Box3) OverlapsXZ(o Box3) bool {
	return b.Min.X <= o.Max.X && o.Min.X <= b.Max.X && b.Min.Z <= o.Max.Z && o.Min.Z <= b.Max.Z
}
