package geom

import "math"

// Vec3d is a position or direction in metres in float64, for the geometric
// tests the spec writes in double. Convert with Vec3.F64 and Vec3d.F32.
type Vec3d struct{ X, Y, Z float64 }

// F64 returns a widened to float64 (exact).
func (a Vec3) F64() Vec3d { return Vec3d{float64(a.X), float64(a.Y), float64(a.Z)} }

// F32 returns a rounded to float32 (round to nearest even).
func (a Vec3d) F32() Vec3 { return Vec3{float32(a.X), float32(a.Y), float32(a.Z)} }

// Add returns a+b.
func (a Vec3d) Add(b Vec3d) Vec3d { return Vec3d{a.X + b.X, a.Y + b.Y, a.Z + b.Z} }

// Sub returns a-b.
func (a Vec3d) Sub(b Vec3d) Vec3d { return Vec3d{a.X - b.X, a.Y - b.Y, a.Z - b.Z} }

// Scale returns a*s.
func (a Vec3d) Scale(s float64) Vec3d { return Vec3d{a.X * s, a.Y * s, a.Z * s} }

// Dot returns the dot product a·b, summed left to right with no fused
// multiply-add.
func (a Vec3d) Dot(b Vec3d) float64 {
	return float64(a.X*b.X) + float64(a.Y*b.Y) + float64(a.Z*b.Z)
}

// Cross returns the cross product a×b with no fused multiply-add.
func (a Vec3d) Cross(b Vec3d) Vec3d {
	return Vec3d{
		float64(a.Y*b.Z) - float64(a.Z*b.Y),
		float64(a.Z*b.X) - float64(a.X*b.Z),
		float64(a.X*b.Y) - float64(a.Y*b.X),
	}
}

// Len returns the Euclidean length of a in metres.
func (a Vec3d) Len() float64 { return math.Sqrt(a.Dot(a)) }

// Lerp returns a + (b-a)*t, computed with no fused multiply-add.
func Lerp(a, b, t float64) float64 { return a + float64((b-a)*t) }
