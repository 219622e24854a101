package geom

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// ratOrient is the reference: the sign of (b-a)×(c-a) in exact rational
// arithmetic (a different pivot from Orient2D's float filter), 0 for
// non-finite input.
func ratOrient(ax, ay, bx, by, cx, cy float64) int {
	for _, v := range []float64{ax, ay, bx, by, cx, cy} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0
		}
	}
	r := func(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }
	sub := func(a, b *big.Rat) *big.Rat { return new(big.Rat).Sub(a, b) }
	mul := func(a, b *big.Rat) *big.Rat { return new(big.Rat).Mul(a, b) }
	a := [2]*big.Rat{r(ax), r(ay)}
	b := [2]*big.Rat{r(bx), r(by)}
	c := [2]*big.Rat{r(cx), r(cy)}
	l := mul(sub(b[0], a[0]), sub(c[1], a[1]))
	rr := mul(sub(b[1], a[1]), sub(c[0], a[0]))
	return l.Cmp(rr)
}

type tri2 struct{ ax, ay, bx, by, cx, cy float64 }

func checkOrient(t *testing.T, name string, p tri2) {
	t.Helper()
	got := Orient2D(p.ax, p.ay, p.bx, p.by, p.cx, p.cy)
	want := ratOrient(p.ax, p.ay, p.bx, p.by, p.cx, p.cy)
	if got != want {
		t.Fatalf("%s: Orient2D(%v, %v, %v, %v, %v, %v) = %d, exact %d",
			name, p.ax, p.ay, p.bx, p.by, p.cx, p.cy, got, want)
	}
	// The sign is invariant under rotation of the triple and flips under a swap.
	if g := Orient2D(p.bx, p.by, p.cx, p.cy, p.ax, p.ay); g != want {
		t.Fatalf("%s: rotated triple gives %d, want %d", name, g, want)
	}
	if g := Orient2D(p.bx, p.by, p.ax, p.ay, p.cx, p.cy); g != -want {
		t.Fatalf("%s: swapped triple gives %d, want %d", name, g, -want)
	}
}

func TestOrient2DTable(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	tiny := math.SmallestNonzeroFloat64
	big := math.MaxFloat64
	ulp1 := math.Nextafter(1, 2) - 1
	tests := []struct {
		name string
		p    tri2
		want int
	}{
		{"ccw unit", tri2{0, 0, 1, 0, 0, 1}, 1},
		{"cw unit", tri2{0, 0, 0, 1, 1, 0}, -1},
		{"collinear", tri2{0, 0, 1, 1, 2, 2}, 0},
		{"coincident", tri2{3, 4, 3, 4, 3, 4}, 0},
		{"two coincident", tri2{3, 4, 3, 4, 5, 6}, 0},
		{"axis aligned collinear", tri2{1, 7, 2, 7, 9, 7}, 0},
		{"ulp above diagonal", tri2{0, 0, 1, 1, 2, 2 + 2*ulp1}, 1},
		{"ulp below diagonal", tri2{0, 0, 1, 1, 2, 2 - 2*ulp1}, -1},
		{"classic 0.5 grid", tri2{0.5 + ulp1, 0.5, 12, 12, 24, 24}, -1},
		{"large collinear", tri2{1e300, 1e300, -1e300, -1e300, 3e299, 3e299}, 0},
		{"large overflow ccw", tri2{-big, -big, big, -big, big, big}, 1},
		{"max magnitude cw", tri2{-big, -big, big, big, big, math.Nextafter(big, 0)}, -1},
		{"subnormal ccw", tri2{0, 0, tiny, 0, 0, tiny}, 1},
		{"subnormal cw", tri2{0, 0, 0, tiny, tiny, 0}, -1},
		{"underflowing products", tri2{0, 0, 1e-200, 1e-200, 1e-200, 2e-200}, 1},
		{"mixed scales", tri2{0, 0, 1e300, 1, -1e300, -1}, 0},
		{"mixed scales off", tri2{tiny, 0, 1e300, 1, -1e300, -1}, 1},
		{"negative zero", tri2{math.Copysign(0, -1), 0, 1, 0, 0, 1}, 1},
		{"nan", tri2{nan, 0, 1, 0, 0, 1}, 0},
		{"inf", tri2{inf, 0, 1, 0, 0, 1}, 0},
		{"minus inf c", tri2{0, 0, 1, 0, 0, -inf}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.p
			if got := Orient2D(p.ax, p.ay, p.bx, p.by, p.cx, p.cy); got != tc.want {
				t.Fatalf("Orient2D = %d, want %d", got, tc.want)
			}
			checkOrient(t, tc.name, p)
		})
	}
}

func TestOrient2DRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	scales := []float64{1e-310, 1e-300, 1e-10, 1, 300, 1e10, 1e150, 1e300}
	for _, s := range scales {
		for range 2000 {
			v := func() float64 { return (rng.Float64()*2 - 1) * s }
			checkOrient(t, "random", tri2{v(), v(), v(), v(), v(), v()})
		}
	}
	// Small integers: many exact zeros.
	for range 5000 {
		v := func() float64 { return float64(rng.IntN(5) - 2) }
		checkOrient(t, "integers", tri2{v(), v(), v(), v(), v(), v()})
	}
}

// TestOrient2DNearlyCollinear puts b on the segment a-c (rounded, so at most
// an ulp or so off the line) and then nudges it by a few ulps in x or y.
func TestOrient2DNearlyCollinear(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	scales := []float64{1e-300, 1e-5, 1, 1000, 1e15, 1e300}
	nudge := func(v float64, n int) float64 {
		for ; n > 0; n-- {
			v = math.Nextafter(v, math.Inf(1))
		}
		for ; n < 0; n++ {
			v = math.Nextafter(v, math.Inf(-1))
		}
		return v
	}
	var zero, pos, neg int
	for _, s := range scales {
		for range 3000 {
			ax, ay := (rng.Float64()*2-1)*s, (rng.Float64()*2-1)*s
			cx, cy := (rng.Float64()*2-1)*s, (rng.Float64()*2-1)*s
			u := rng.Float64()
			bx := ax + (cx-ax)*u
			by := ay + (cy-ay)*u
			switch rng.IntN(4) {
			case 1:
				bx = nudge(bx, rng.IntN(7)-3)
			case 2:
				by = nudge(by, rng.IntN(7)-3)
			case 3:
				// Exactly collinear: points on an axis-aligned or diagonal line.
				by = ay + (bx - ax)
				cy = ay + (cx - ax)
				if by-ay != bx-ax || cy-ay != cx-ax {
					continue
				}
			}
			p := tri2{ax, ay, bx, by, cx, cy}
			checkOrient(t, "nearly collinear", p)
			switch ratOrient(ax, ay, bx, by, cx, cy) {
			case 0:
				zero++
			case 1:
				pos++
			default:
				neg++
			}
		}
	}
	if zero < 100 || pos < 100 || neg < 100 {
		t.Fatalf("weak test: %d zero, %d ccw, %d cw", zero, pos, neg)
	}
}

// TestOrient2DGrid is Kettner et al.'s "classroom example": a 256x256 grid
// of points an ulp apart near (0.5, 0.5) against the line through (12, 12)
// and (24, 24), where naive float evaluation gets many signs wrong.
func TestOrient2DGrid(t *testing.T) {
	x0 := 0.5
	ulp := math.Nextafter(x0, 1) - x0
	naiveWrong := 0
	for i := range 256 {
		for j := range 256 {
			p := tri2{x0 + float64(i)*ulp, x0 + float64(j)*ulp, 12, 12, 24, 24}
			checkOrient(t, "grid", p)
			naive := float64((p.bx-p.ax)*(p.cy-p.ay)) - float64((p.by-p.ay)*(p.cx-p.ax))
			if sgn(naive) != ratOrient(p.ax, p.ay, p.bx, p.by, p.cx, p.cy) {
				naiveWrong++
			}
		}
	}
	if naiveWrong == 0 {
		t.Fatal("naive evaluation got every sign right: the grid does not test the fallback")
	}
	t.Logf("naive float evaluation gets %d of 65536 signs wrong", naiveWrong)
}

func sgn(v float64) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

func TestOrientXZ(t *testing.T) {
	a, b, c := V3(0, 5, 0), V3(1, -2, 0), V3(0, 9, 1)
	if got := OrientXZ(a, b, c); got != 1 {
		t.Fatalf("OrientXZ = %d, want 1", got)
	}
	if got := OrientXZ(a, c, b); got != -1 {
		t.Fatalf("OrientXZ swapped = %d, want -1", got)
	}
}

func FuzzOrient2D(f *testing.F) {
	f.Add(0.5, 0.5, 12.0, 12.0, 24.0, 24.0)
	f.Add(1e300, 1e300, -1e300, 1e-300, 0.0, 5e-324)
	f.Fuzz(func(t *testing.T, ax, ay, bx, by, cx, cy float64) {
		checkOrient(t, "fuzz", tri2{ax, ay, bx, by, cx, cy})
	})
}

var sinkInt int

func BenchmarkOrient2D(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	pts := make([]float64, 6*1024)
	for i := range pts {
		pts[i] = rng.Float64()*100 - 50
	}
	b.ResetTimer()
	for i := range b.N {
		p := pts[6*(i&1023):]
		sinkInt += Orient2D(p[0], p[1], p[2], p[3], p[4], p[5])
	}
}

func BenchmarkOrient2DNearlyCollinear(b *testing.B) {
	ulp := math.Nextafter(0.5, 1) - 0.5
	for i := range b.N {
		sinkInt += Orient2D(0.5+float64(i&255)*ulp, 0.5+float64((i>>8)&255)*ulp, 12, 12, 24, 24)
	}
}
