package geom

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// piDigits is pi to 120 decimals (about 400 bits), an independent check of
// the 1500-bit pi computed by Machin's formula.
const piDigits = "3.141592653589793238462643383279502884197169399375105820974944592307816406286208998628034825342117067982148086513282306647"

func TestBigPi(t *testing.T) {
	pi := bigPi()
	want, _, err := big.ParseFloat(piDigits, 10, bigPrec, big.ToNearestEven)
	if err != nil {
		t.Fatal(err)
	}
	diff := new(big.Float).SetPrec(bigPrec).Sub(pi, want)
	if diff.Abs(diff).Cmp(big.NewFloat(1e-119)) > 0 {
		t.Fatalf("pi differs from its decimal digits by %g", diff)
	}
	// Stormer's formula pi = 24 atan(1/8) + 8 atan(1/57) + 4 atan(1/239)
	// must agree with Machin's to the full 1500 bits.
	f := func(k int64, n int64) *big.Float {
		return new(big.Float).SetPrec(bigPrec).Mul(big.NewFloat(float64(k)), bigAtanInv(n))
	}
	st := new(big.Float).SetPrec(bigPrec).Add(f(24, 8), f(8, 57))
	st.Add(st, f(4, 239))
	diff.Sub(pi, st)
	if diff.Sign() != 0 && diff.MantExp(nil) > -bigPrec+8 {
		t.Fatalf("Machin and Stormer differ by %g", diff)
	}
}

func TestPiParts(t *testing.T) {
	bigPiOnce.Do(initBigPi)
	for _, p := range []float64{pio2a, pio2b, pio2c} {
		m, _ := floatParts(p)
		for m&1 == 0 {
			m >>= 1
		}
		if m >= 1<<24 {
			t.Errorf("%x has more than 24 significant bits", p)
		}
	}
	sum := new(big.Float).SetPrec(bigPrec)
	for _, p := range []float64{pio2a, pio2b, pio2c, pio2d} {
		sum.Add(sum, big.NewFloat(p))
	}
	sum.Sub(sum, bigPio2)
	if e := sum.MantExp(nil); sum.Sign() != 0 && e > -124 {
		t.Fatalf("pio2a+b+c+d - pi/2 = %g, want below 2^-124", sum)
	}
	if f, _ := bigPio2.Float64(); f/2 != piOver4 {
		t.Fatalf("piOver4 = %x, want %x", piOver4, f/2)
	}
	if f, _ := bigTwoOPi.Float64(); f != twoOverPi {
		t.Fatalf("twoOverPi = %x, want %x", twoOverPi, f)
	}
}

// refSinCos returns sin x and cos x to about 300 bits: x is reduced modulo
// 2*pi with the 1500-bit pi, then summed by Taylor series.
func refSinCos(x float64) (sin, cos *big.Float) {
	bigPiOnce.Do(initBigPi)
	const prec = 320
	bx := new(big.Float).SetPrec(bigPrec).SetFloat64(x)
	twoPi := new(big.Float).SetPrec(bigPrec).Mul(bigPio2, big.NewFloat(4))
	q := new(big.Float).SetPrec(bigPrec).Quo(bx, twoPi)
	k, _ := q.Int(nil)
	r := new(big.Float).SetPrec(bigPrec).SetInt(k)
	r.Mul(r, twoPi)
	r.Sub(bx, r) // |r| < 2 pi
	r.SetPrec(prec)
	sin = new(big.Float).SetPrec(prec)
	cos = new(big.Float).SetPrec(prec)
	term := new(big.Float).SetPrec(prec).SetInt64(1) // r^n / n!
	eps := new(big.Float).SetPrec(prec).SetMantExp(big.NewFloat(1), -prec-8)
	for n := int64(0); ; n++ {
		switch n % 4 {
		case 0:
			cos.Add(cos, term)
		case 1:
			sin.Add(sin, term)
		case 2:
			cos.Sub(cos, term)
		case 3:
			sin.Sub(sin, term)
		}
		term.Mul(term, r)
		term.Quo(term, new(big.Float).SetInt64(n+1))
		if n > 8 && new(big.Float).Abs(term).Cmp(eps) < 0 {
			return sin, cos
		}
	}
}

// ulpErr returns |got - want| in units of the last place of want rounded to
// float64 (for a want of zero, of the smallest normal).
func ulpErr(got float64, want *big.Float) float64 {
	w, _ := want.Float64()
	w = math.Abs(w)
	if w < 0x1p-1022 {
		w = 0x1p-1022
	}
	ulp := math.Nextafter(w, math.Inf(1)) - w
	d := new(big.Float).SetPrec(want.Prec()).Sub(new(big.Float).SetFloat64(got), want)
	f, _ := d.Float64()
	return math.Abs(f) / ulp
}

// sinCosInputs returns n inputs spread over [-limit, limit], with extra
// points next to multiples of pi/4 where reduction and kernels switch.
func sinCosInputs(rng *rand.Rand, limit float64, n int) []float64 {
	xs := make([]float64, 0, n)
	for len(xs) < n {
		switch rng.IntN(4) {
		case 0: // near a multiple of pi/4
			k := math.Round((rng.Float64()*2 - 1) * limit / piOver4)
			x := k * piOver4
			for j := rng.IntN(40) - 20; j != 0; j -= sgnInt(j) {
				x = math.Nextafter(x, math.Inf(sgnInt(j)))
			}
			if math.Abs(x) <= limit {
				xs = append(xs, x)
			}
		case 1: // log-uniform magnitude
			xs = append(xs, math.Copysign(limit*math.Exp2(-40*rng.Float64()), rng.Float64()-0.5))
		default:
			xs = append(xs, (rng.Float64()*2-1)*limit)
		}
	}
	return xs
}

func sgnInt(j int) int {
	if j < 0 {
		return -1
	}
	return 1
}

// TestSinCosError measures the error against the 300-bit reference and
// against math.Sin/math.Cos, and asserts the bounds the doc comment states.
func TestSinCosError(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	ranges := []struct {
		name      string
		limit     float64
		n         int
		maxUlp    float64
		maxAbsLib float64 // against math.Sin / math.Cos
	}{
		{"2pi", 2 * math.Pi, 20000, 0.6, 2.3e-16},
		{"2^21", 1 << 21, 5000, 0.6, 2.3e-16},
		{"1e300", 1e300, 300, 0.6, 0},
	}
	if testing.Short() {
		for i := range ranges {
			ranges[i].n /= 10
		}
	}
	for _, rg := range ranges {
		var worstS, worstC float64
		var worstSx, worstCx float64
		for _, x := range sinCosInputs(rng, rg.limit, rg.n) {
			s, c := SinCos(x)
			rs, rc := refSinCos(x)
			if e := ulpErr(s, rs); e > worstS {
				worstS, worstSx = e, x
			}
			if e := ulpErr(c, rc); e > worstC {
				worstC, worstCx = e, x
			}
		}
		t.Logf("|x| <= %s: max error sin %.3f ulp (x=%v), cos %.3f ulp (x=%v)", rg.name, worstS, worstSx, worstC, worstCx)
		if worstS > rg.maxUlp || worstC > rg.maxUlp {
			t.Errorf("|x| <= %s: error sin %.3f, cos %.3f ulp, want <= %.2f", rg.name, worstS, worstC, rg.maxUlp)
		}
		if rg.maxAbsLib == 0 {
			continue
		}
		var absS, absC float64
		for _, x := range sinCosInputs(rng, rg.limit, 200000) {
			s, c := SinCos(x)
			absS = max(absS, math.Abs(s-math.Sin(x)))
			absC = max(absC, math.Abs(c-math.Cos(x)))
		}
		t.Logf("|x| <= %s: max |SinCos - math| sin %.3g, cos %.3g", rg.name, absS, absC)
		if absS > rg.maxAbsLib || absC > rg.maxAbsLib {
			t.Errorf("|x| <= %s: difference to math sin %.3g, cos %.3g, want <= %.3g", rg.name, absS, absC, rg.maxAbsLib)
		}
	}
}

func TestSinCosSpecial(t *testing.T) {
	for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		s, c := SinCos(x)
		if !math.IsNaN(s) || !math.IsNaN(c) {
			t.Errorf("SinCos(%v) = %v, %v, want NaN, NaN", x, s, c)
		}
	}
	s, c := SinCos(math.Copysign(0, -1))
	if s != 0 || !math.Signbit(s) || c != 1 {
		t.Errorf("SinCos(-0) = %v, %v, want -0, 1", s, c)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for _, x := range sinCosInputs(rng, 1e6, 10000) {
		s1, c1 := SinCos(x)
		s2, c2 := SinCos(-x)
		if math.Float64bits(s2) != math.Float64bits(-s1) || math.Float64bits(c2) != math.Float64bits(c1) {
			t.Fatalf("SinCos(%v) = %v, %v but SinCos(-x) = %v, %v", x, s1, c1, s2, c2)
		}
		if s1 < -1 || s1 > 1 || c1 < -1 || c1 > 1 {
			t.Fatalf("SinCos(%v) = %v, %v out of [-1, 1]", x, s1, c1)
		}
	}
}

// TestSinCosBits pins the exact output bits, so any change of method or any
// platform difference (a fused multiply-add creeping in) is caught.
func TestSinCosBits(t *testing.T) {
	tests := []struct {
		x        float64
		sin, cos uint64
	}{
		// Every row also equals glibc's (correctly rounded) sin and cos.
		{0, 0x0000000000000000, 0x3ff0000000000000},
		{5e-324, 0x0000000000000001, 0x3ff0000000000000},
		{1e-300, 0x01a56e1fc2f8f359, 0x3ff0000000000000},
		{1e-08, 0x3e45798ee2308c3a, 0x3ff0000000000000},
		{0.1, 0x3fb98eaecb8bcb2c, 0x3fefd712f9a817c1},
		{0.5, 0x3fdeaee8744b05f0, 0x3fec1528065b7d50},
		{0.7853981633974483, 0x3fe6a09e667f3bcc, 0x3fe6a09e667f3bcd},
		{0.7853981633974484, 0x3fe6a09e667f3bcd, 0x3fe6a09e667f3bcc},
		{1, 0x3feaed548f090cee, 0x3fe14a280fb5068c},
		{-1, 0xbfeaed548f090cee, 0x3fe14a280fb5068c},
		{math.Pi / 2, 0x3ff0000000000000, 0x3c91a62633145c07},
		{2, 0x3fed18f6ead1b446, 0xbfdaa22657537205},
		{math.Pi, 0x3ca1a62633145c07, 0xbff0000000000000},
		{3 * math.Pi / 4, 0x3fe6a09e667f3bcd, 0xbfe6a09e667f3bcc},
		{-2.5, 0xbfe326af0dcfcab1, 0xbfe9a2f7ef858b7d},
		{2 * math.Pi, 0xbcb1a62633145c07, 0x3ff0000000000000},
		{10, 0xbfe1689ef5f34f52, 0xbfead9ac890c6b1f},
		{100, 0xbfe03425b78c4db8, 0x3feb981dbf665fdf},
		{-1234.5678, 0xbfb3fa00084ee3dd, 0xbfefe7053dc31387},
		{1e+06, 0xbfd6664b2568d867, 0x3fedf9df9906d32c},
		{1<<21 - 0.5, 0x3fc61dace9df937b, 0x3fef84cb87f27aca},
		{1 << 29, 0x3fd4e67c0e2622de, 0xbfee3edd2dfeef90},
		{1e+09, 0x3fe1778cae83c69b, 0x3feacff8c7364234},
		{1e+22, 0xbfeb453ab76bf397, 0x3fe0be2cef01c8f4},
		{-1e+300, 0x3fea2c16b010e385, 0xbfe2699022adc4c1},
		{math.MaxFloat64, 0x3f7452fc98b34e97, 0xbfefffe62ecfab75},
	}
	for _, tc := range tests {
		s, c := SinCos(tc.x)
		if math.Float64bits(s) != tc.sin || math.Float64bits(c) != tc.cos {
			t.Errorf("SinCos(%v) = %#016x, %#016x, want %#016x, %#016x",
				tc.x, math.Float64bits(s), math.Float64bits(c), tc.sin, tc.cos)
		}
	}
}

var sinkF float64

func BenchmarkSinCos(b *testing.B) {
	for i := range b.N {
		s, c := SinCos(float64(i&1023) * 0.0123) // yaw-sized angles
		sinkF += s + c
	}
}

func BenchmarkSinCosLarge(b *testing.B) {
	for i := range b.N {
		s, c := SinCos(1e6 + float64(i&1023)*1234.5)
		sinkF += s + c
	}
}

func BenchmarkSinCosHuge(b *testing.B) {
	for i := range b.N {
		s, c := SinCos(1e200 * float64(1+i&1023))
		sinkF += s + c
	}
}

func TestTaylorConstants(t *testing.T) {
	sum := new(big.Float).SetPrec(200).Add(big.NewFloat(s3), big.NewFloat(s3lo))
	want := new(big.Float).SetPrec(200).Quo(big.NewFloat(-1), big.NewFloat(6))
	d := new(big.Float).SetPrec(200).Sub(sum, want)
	if d.Sign() != 0 && d.MantExp(nil) > -110 {
		t.Fatalf("s3+s3lo - (-1/6) = %g", d)
	}
}
