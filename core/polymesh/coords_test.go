package polymesh

import (
	"math"
	"math/rand/v2"
	"testing"

	"navviz/core/geom"
)

func TestOrientExactThreshold(t *testing.T) {
	for _, tc := range []struct{ w, want int64 }{
		{-5, 1}, {0, 1}, {1, 1}, {724, 1}, {725, 2}, {1024, 3}, {1 << 19, 1<<19 + 1},
		{3037000499, 3037000499*3037000499>>19 + 1}, {3037000500, math.MaxInt64},
	} {
		if got := OrientExactThreshold(tc.w); got != tc.want {
			t.Errorf("OrientExactThreshold(%d) = %d, want %d", tc.w, got, tc.want)
		}
	}
	m := CoordMap{BaseM: geom.Vec3{X: -3, Z: 4}, CellSizeM: 0.5, CellHeightM: 0.2, WidthCells: 100, HeightCells: 60, CellX0: 7}
	// 7 + 100 + ceil(max |coordinate| = -3 + 107*0.5 = 50.5 m / 0.5 m) + 1.
	if got := m.CellsAcross(); got != 7+100+101+1 {
		t.Errorf("CellsAcross = %d, want 209", got)
	}
	if got := m.OrientBoundCells2(); got != 1 {
		t.Errorf("OrientBoundCells2 = %d, want 1", got)
	}
}

// randomMap returns a valid map with a random origin (up to ±2^maxExp m),
// cell size and extent.
func randomMap(r *rand.Rand, maxExp int) CoordMap {
	base := func() float32 {
		e := r.IntN(maxExp + 1)
		return float32((r.Float64()*2 - 1) * math.Ldexp(1, e))
	}
	cs := float32(math.Ldexp(1+r.Float64(), -r.IntN(10))) // 2^-9 .. 2
	w, h := 1+r.IntN(4000), 1+r.IntN(4000)
	m := CoordMap{
		BaseM:     geom.Vec3{X: base(), Y: base(), Z: base()},
		CellX0:    r.IntN(1<<20) - 1<<19,
		CellZ0:    r.IntN(1<<20) - 1<<19,
		CellSizeM: cs, CellHeightM: 0.2,
		WidthCells: w, HeightCells: h,
	}
	if r.IntN(4) == 0 {
		m.CellX0, m.CellZ0 = 0, 0
	}
	return m
}

// triple is three cell positions inside a map's extent.
type triple [6]int

func randomTriple(r *rand.Rand, m *CoordMap) triple {
	var t triple
	for k := 0; k < 3; k++ {
		t[2*k] = r.IntN(m.WidthCells + 1)
		t[2*k+1] = r.IntN(m.HeightCells + 1)
	}
	return t
}

// nearlyCollinear returns a, b in the extent and c on the line ab (a lattice
// point a + k*(b-a)/g) moved by at most spread cells, so that its turn is
// small.
func nearlyCollinear(r *rand.Rand, m *CoordMap, spread int) triple {
	for {
		ax, az := r.IntN(m.WidthCells+1), r.IntN(m.HeightCells+1)
		bx, bz := r.IntN(m.WidthCells+1), r.IntN(m.HeightCells+1)
		dx, dz := bx-ax, bz-az
		g := gcd(abs(dx), abs(dz))
		if g == 0 {
			continue
		}
		k := r.IntN(3*g+1) - g
		cx := ax + k*dx/g + r.IntN(2*spread+1) - spread
		cz := az + k*dz/g + r.IntN(2*spread+1) - spread
		if cx < 0 || cz < 0 || cx > m.WidthCells || cz > m.HeightCells {
			continue
		}
		return triple{ax, az, bx, bz, cx, cz}
	}
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// TestOrientBound checks the spec's bound against the exact predicate: for
// every triple whose integer turn is at least the bound, the exact sign of
// the stored float32 positions equals the integer sign; and the shortcut the
// polygon stage takes (integer sign above the bound, exact predicate below)
// decides convex corners exactly as testing both would.
func TestOrientBound(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 19))
	decided, exact := 0, 0
	for mi := 0; mi < 400; mi++ {
		m := randomMap(r, 21)
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		bound := m.OrientBoundCells2()
		o := newOrienter(&m)
		for k := 0; k < 500; k++ {
			var tr triple
			switch k % 3 {
			case 0:
				tr = randomTriple(r, &m)
			case 1:
				tr = nearlyCollinear(r, &m, 0)
			default:
				tr = nearlyCollinear(r, &m, 1+r.IntN(3))
			}
			d := area2(tr[0], tr[1], tr[2], tr[3], tr[4], tr[5])
			ic := m.OrientCells(tr[0], tr[1], tr[2], tr[3], tr[4], tr[5])
			fc := m.OrientStored(tr[0], tr[1], tr[2], tr[3], tr[4], tr[5])
			if d >= bound || -d >= bound {
				decided++
				if ic != fc {
					t.Fatalf("map %+v: triple %v turn %d >= bound %d but float32 sign %d != cell sign %d", m, tr, d, bound, fc, ic)
				}
			} else {
				exact++
			}
			want := ic < 0 && fc < 0
			if got := o.convex(tr[0], tr[1], tr[2], tr[3], tr[4], tr[5]); got != want {
				t.Fatalf("map %+v: triple %v convex %v, want %v (cells %d, stored %d)", m, tr, got, want, ic, fc)
			}
		}
	}
	if decided < 1000 || exact < 1000 {
		t.Errorf("%d triples decided by the bound and %d below it; the test needs many of both", decided, exact)
	}
	t.Logf("%d triples at or above the bound, %d below", decided, exact)
}

// TestOrientBoundIsNeeded shows that rounding to float32 does flip turns
// below the bound on a map far from the world origin (so the exact fallback
// is not dead code and TestOrientBound could fail), that the largest
// flipped turn stays below the bound, and that a bound computed from the
// grid's extent alone (ignoring its distance from the origin) would be
// wrong there.
func TestOrientBoundIsNeeded(t *testing.T) {
	m := CoordMap{
		BaseM: geom.Vec3{X: 1_500_000, Z: -1_200_000}, CellSizeM: 0.01, CellHeightM: 0.2,
		WidthCells: 3000, HeightCells: 3000,
	}
	bound := m.OrientBoundCells2()
	r := rand.New(rand.NewPCG(7, 7))
	flips := 0
	var largest int64
	for k := 0; k < 200000; k++ {
		tr := nearlyCollinear(r, &m, 1+r.IntN(40))
		d := area2(tr[0], tr[1], tr[2], tr[3], tr[4], tr[5])
		if d == 0 {
			continue
		}
		if m.OrientCells(tr[0], tr[1], tr[2], tr[3], tr[4], tr[5]) != m.OrientStored(tr[0], tr[1], tr[2], tr[3], tr[4], tr[5]) {
			flips++
			largest = max(largest, d, -d)
		}
	}
	if flips == 0 {
		t.Fatal("no turn flipped by float32 rounding; the map is too tame to test the bound")
	}
	if largest >= bound {
		t.Fatalf("a turn of %d flipped, not below the bound %d", largest, bound)
	}
	if extentOnly := OrientExactThreshold(int64(max(m.WidthCells, m.HeightCells))); largest < extentOnly {
		t.Errorf("largest flip %d is below the extent-only bound %d: the test map does not show why CellsAcross counts the distance from the origin", largest, extentOnly)
	}
	t.Logf("bound %d cell², %d flips, largest flipped turn %d", bound, flips, largest)
}
