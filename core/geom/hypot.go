package geom

import "math"

// Hypot returns √(x²+y²) without needless overflow or underflow, with the
// same bits on every platform: the formula of math.Hypot's amd64 assembly,
// max·√(1+(min/max)²), with the square rounded before the sum. math.Hypot
// itself is that assembly on amd64 and 386 but generic Go elsewhere, which
// arm64, ppc64le, s390x, riscv64 and loong64 compile with a fused 1+q·q, so
// its last bit depends on the platform. Hypot(±Inf, y) and Hypot(x, ±Inf)
// are +Inf, otherwise a NaN argument gives NaN.
func Hypot(x, y float64) float64 {
	p, q := math.Abs(x), math.Abs(y)
	switch {
	case math.IsInf(p, 1) || math.IsInf(q, 1):
		return math.Inf(1)
	case math.IsNaN(p) || math.IsNaN(q):
		return math.NaN()
	}
	if p < q {
		p, q = q, p
	}
	if p == 0 {
		return 0
	}
	q /= p
	return p * math.Sqrt(1+float64(q*q))
}
