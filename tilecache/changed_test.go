package tilecache

import (
	"math/rand/v2"
	"testing"

	"navviz/core/region"
	"navviz/core/voxel"
)

// TestChangedLayers checks tileLayers.changedLayers against a span by
// span comparison on random areas, layers (spans in no layer included),
// lengths that are and are not multiples of eight and of the 256-span
// blocks, dense and sparse changes, and ranges that hold every change
// (the whole tile, the changes' hull, a random superset).
func TestChangedLayers(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for iter := range 2000 {
		n := rng.IntN(70)
		if iter%2 == 1 {
			n = rng.IntN(1200)
		}
		every := 1 + rng.IntN(20)
		if iter%4 == 3 {
			every = 1 + rng.IntN(2000)
		}
		tl := &tileLayers{views: make([]region.LayerView, 1+rng.IntN(4)), spanLayer: make([]uint8, n)}
		for i := range tl.spanLayer {
			tl.spanLayer[i] = uint8(rng.IntN(len(tl.views)))
			if rng.IntN(8) == 0 {
				tl.spanLayer[i] = noLayer
			}
		}
		a, b := make([]uint8, n), make([]uint8, n)
		for i := range a {
			a[i] = uint8(rng.IntN(3))
			b[i] = a[i]
			if rng.IntN(every) == 0 {
				b[i] ^= 1
			}
		}
		want := make([]bool, len(tl.views))
		hull := voxel.SpanRange{}
		for i := range a {
			if a[i] != b[i] {
				hull = hull.Union(voxel.SpanRange{Lo: i, Hi: i + 1})
				if tl.spanLayer[i] != noLayer {
					want[tl.spanLayer[i]] = true
				}
			}
		}
		r := voxel.SpanRange{Lo: 0, Hi: n}
		switch iter % 3 {
		case 1:
			r = hull
		case 2:
			if !hull.Empty() {
				r = voxel.SpanRange{Lo: rng.IntN(hull.Lo + 1), Hi: hull.Hi + rng.IntN(n-hull.Hi+1)}
			}
		}
		got := tl.changedLayers([]bool{true, true, true, true, true, true}, a, b, r)
		if len(got) != len(want) {
			t.Fatalf("iter %d: %d layers, want %d", iter, len(got), len(want))
		}
		for li := range want {
			if got[li] != want[li] {
				t.Fatalf("iter %d: layer %d changed %v, want %v", iter, li, got[li], want[li])
			}
		}
	}
}
