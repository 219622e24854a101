package polymesh

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// TestEarTreeRandom checks the tree of ear keys against the smallest key
// of its leaves, after building it and after each update of three tips
// (setEars), for sizes from one leaf to several levels.
func TestEarTreeRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 17))
	key := func() uint64 {
		if r.IntN(4) == 0 {
			return noEar
		}
		return uint64(r.IntN(50))<<16 | uint64(r.IntN(1<<16)) // many equal distances
	}
	for it := range 3000 {
		n := 3 + r.IntN(10)
		if it%3 == 0 {
			n = 3 + r.IntN(700)
		}
		tr := &triangulator{}
		leaves := make([]uint64, n)
		for b := range leaves {
			leaves[b] = key()
		}
		tr.ears = slices.Clone(leaves)
		tr.buildEars(n)
		for step := range 40 {
			if got, want := tr.ears[len(tr.ears)-1], slices.Min(leaves); got != want {
				t.Fatalf("iteration %d (%d tips), step %d: root %#x, smallest leaf %#x", it, n, step, got, want)
			}
			abc := r.Perm(n)[:3]
			a, b, c := abc[0], abc[1], abc[2]
			ka, kc := key(), key()
			leaves[a], leaves[b], leaves[c] = ka, noEar, kc
			tr.setEars(a, b, c, ka, kc)
		}
	}
}

// TestTriangulateWalkRandom compares the ear clipping (the walk over the
// edges with its box test, the tree of ear keys) with the plain rules
// (every edge, a scan of the positions) on polygons beyond
// TestTriangulateShortcutsRandom's: up to 600 vertices (a deeper tree),
// and points on tiny grids, where many ear diagonals tie, edges and
// diagonals have zero length and the loose rule is needed.
func TestTriangulateWalkRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 33))
	cm := CoordMap{CellSizeM: 0.3, CellHeightM: 0.2, WidthCells: 65535, HeightCells: 65535}
	o := newOrienter(&cm)
	failed, slivers := 0, 0
	for it := range 2000 {
		var xs, zs []int
		switch it % 3 {
		case 0: // a large star
			n := 100 + r.IntN(500)
			for k := range n {
				a := -2 * math.Pi * float64(k) / float64(n) // the turn of contours
				rad := 50 + r.Float64()*150
				xs = append(xs, 300+int(math.Round(rad*math.Cos(a))))
				zs = append(zs, 300+int(math.Round(rad*math.Sin(a))))
			}
		case 1: // a square's outline with its corners, cells on a tiny grid
			g := 2 + r.IntN(4)
			for k := range 4 * g {
				s, d := k/g, k%g
				x, z := [4]int{d, g, g - d, 0}[s], [4]int{0, d, g, g - d}[s]
				xs = append(xs, x+r.IntN(2))
				zs = append(zs, z+r.IntN(2))
			}
		default: // random points on a tiny grid
			n := 3 + r.IntN(40)
			g := 2 + r.IntN(5)
			for range n {
				xs = append(xs, r.IntN(g))
				zs = append(zs, r.IntN(g))
			}
		}
		n := len(xs)
		out := triangulateBoth(&o, xs, zs)
		if !reflect.DeepEqual(out[0], out[1]) {
			t.Fatalf("iteration %d (%d vertices %v %v): the walk gives %v, plain rules %v", it, n, xs, zs, out[0], out[1])
		}
		if !out[0].ok {
			failed++
		}
		slivers += out[0].slivers
	}
	t.Logf("%d triangulations stopped part way, %d slivers", failed, slivers)
}

// triangulation is what one triangulation gives: whether it completed, its
// triangles and its slivers.
type triangulation struct {
	ok      bool
	tris    []int
	slivers int
}

// triangulateBoth triangulates the polygon xs, zs with the shortcuts and
// with the plain rules (in that order).
func triangulateBoth(o *orienter, xs, zs []int) [2]triangulation {
	var out [2]triangulation
	for pi, plain := range []bool{false, true} {
		tr := &triangulator{o: o, plain: plain}
		tr.xs, tr.zs = xs, zs
		out[pi].ok = tr.run(len(xs))
		out[pi].tris, out[pi].slivers = slices.Clone(tr.tris), tr.slivers
	}
	return out
}
