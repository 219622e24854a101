package geom

import (
	"math"
	"math/big"
)

// Error bound of the float filter in Orient2D, after Shewchuk, "Adaptive
// Precision Floating-Point Arithmetic and Fast Robust Geometric Predicates"
// (1997), section 4.2: with eps = 2^-53 (half an ulp of 1, round to nearest),
// the computed determinant differs from the exact one by at most
// (3 + 16 eps) eps (|detleft| + |detright|) when nothing overflows or
// underflows. The constant used here is slightly larger, (3 + 64 eps) eps,
// which leaves room for the absolute error (at most 2^-1075 per product) of a
// product that underflows while the sum stays above orientMinSum.
const (
	orientEps    = 1.0 / (1 << 53)
	orientBound  = (3 + 64*orientEps) * orientEps
	orientMinSum = 0x1p-900 // below this the bound may no longer be relative
)

// Orient2D returns the sign of the cross product (b-a)×(c-a), that is of
//
//	(bx-ax)*(cy-ay) - (by-ay)*(cx-ax),
//
// computed exactly: +1 when a, b, c turn counter-clockwise in a right-handed
// x/y plane (x to the right, y up), -1 when they turn clockwise, 0 when they
// are collinear (including coincident points). The answer is the sign of the
// exact real value for every finite input; it never suffers from rounding.
//
// For x/z use (positions in the ground plane of the y-up world), pass x as the
// first and z as the second coordinate, as OrientXZ does: +1 then means
// counter-clockwise with x drawn to the right and z drawn upward, which is
// clockwise when looking down on the level from +y.
//
// Method: the determinant is first evaluated in float64 and accepted when its
// magnitude exceeds a rigorous bound on its rounding error (Shewchuk's
// semi-static filter); only when that test cannot decide (nearly collinear
// points, overflow, underflow) is it recomputed in exact integer arithmetic
// (math/big), which is slower (about a microsecond) but rare. Any NaN or
// infinite input gives 0.
func Orient2D(ax, ay, bx, by, cx, cy float64) int {
	acx, bcy := ax-cx, by-cy
	acy, bcx := ay-cy, bx-cx
	detleft := float64(acx * bcy)
	detright := float64(acy * bcx)
	det := detleft - detright
	detsum := math.Abs(detleft) + math.Abs(detright)
	if detsum >= orientMinSum && detsum <= math.MaxFloat64 {
		bound := float64(orientBound * detsum)
		if det > bound {
			return 1
		}
		if -det > bound {
			return -1
		}
	}
	// A difference computes to zero only when its operands are equal, so a
	// zero factor in both products means the exact determinant is zero.
	if (acx == 0 || bcy == 0) && (acy == 0 || bcx == 0) {
		return 0
	}
	return orient2DExact(ax, ay, bx, by, cx, cy)
}

// OrientXZ returns Orient2D of a, b, c projected on the x/z plane (x first,
// z second); see Orient2D for which side is positive.
func OrientXZ(a, b, c Vec3) int {
	return Orient2D(float64(a.X), float64(a.Z), float64(b.X), float64(b.Z), float64(c.X), float64(c.Z))
}

// orient2DExact evaluates (ax-cx)*(by-cy) - (ay-cy)*(bx-cx) exactly. Every
// finite float64 is an integer multiple of 2^e for its own exponent e, so all
// six values are scaled by 2^-emin (emin the smallest exponent among them) to
// big integers, on which the determinant is exact.
func orient2DExact(ax, ay, bx, by, cx, cy float64) int {
	vals := [6]float64{ax, ay, bx, by, cx, cy}
	var mant [6]int64
	var exp [6]int
	emin := math.MaxInt
	for i, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0
		}
		mant[i], exp[i] = floatParts(v)
		if mant[i] != 0 && exp[i] < emin {
			emin = exp[i]
		}
	}
	var ints [6]big.Int
	for i := range vals {
		ints[i].SetInt64(mant[i])
		if mant[i] != 0 {
			ints[i].Lsh(&ints[i], uint(exp[i]-emin))
		}
	}
	var d1, d2, d3, d4, l, r big.Int
	d1.Sub(&ints[0], &ints[4]) // ax-cx
	d2.Sub(&ints[3], &ints[5]) // by-cy
	d3.Sub(&ints[1], &ints[5]) // ay-cy
	d4.Sub(&ints[2], &ints[4]) // bx-cx
	l.Mul(&d1, &d2)
	r.Mul(&d3, &d4)
	return l.Cmp(&r)
}

// floatParts returns m and e with v == m * 2^e exactly, |m| < 2^53, for a
// finite v (m == 0 for ±0).
func floatParts(v float64) (m int64, e int) {
	bits := math.Float64bits(v)
	be := int(bits>>52) & 0x7ff
	frac := int64(bits & (1<<52 - 1))
	if be == 0 {
		m, e = frac, -1074 // zero or subnormal
	} else {
		m, e = frac|1<<52, be-1075
	}
	if bits>>63 != 0 {
		m = -m
	}
	return m, e
}
