package geom

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestHypot checks Hypot's special cases and compares it with math.Hypot:
// bit for bit where math.Hypot is the assembly Hypot follows (amd64, 386),
// within two ulps elsewhere (on arm64 math.Hypot rounds 1+q·q once, with
// a fused multiply-add, and can differ from amd64 by two ulps).
func TestHypot(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, tc := range []struct{ x, y, want float64 }{
		{0, 0, 0},
		{3, 4, 5},
		{-3, 4, 5},
		{3, -4, 5},
		{0, -2.5, 2.5},
		{1e300, 1e300, 1e300 * math.Sqrt2},
		{inf, nan, inf},
		{nan, -inf, inf},
		{nan, 1, nan},
		{1, nan, nan},
	} {
		got := Hypot(tc.x, tc.y)
		if !(got == tc.want || math.IsNaN(got) && math.IsNaN(tc.want)) {
			t.Errorf("Hypot(%v, %v) = %v, want %v", tc.x, tc.y, got, tc.want)
		}
	}
	exact := runtime.GOARCH == "amd64" || runtime.GOARCH == "386"
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 100000 {
		x := (r.Float64() - 0.5) * math.Pow(10, float64(r.IntN(20)-10))
		y := (r.Float64() - 0.5) * math.Pow(10, float64(r.IntN(20)-10))
		got, want := Hypot(x, y), math.Hypot(x, y)
		if exact && got != want || !exact && math.Abs(got-want) > want*0x1p-51 {
			t.Fatalf("case %d: Hypot(%v, %v) = %v, math.Hypot %v", i, x, y, got, want)
		}
	}
}
