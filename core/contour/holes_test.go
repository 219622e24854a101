package contour

import (
	"math/rand/v2"
	"testing"
)

// TestLoopBoxApart checks the shortcut of the hole join: whenever a loop's
// box is apart from a segment, segCrossesLoop finds no edge the segment
// meets. Random small loops (with repeated vertices, hence zero-length
// edges, now and then) and segments (zero-length ones too) on a small
// grid, so that touching and crossing cases are common.
func TestLoopBoxApart(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	pt := func() Vertex { return Vertex{X: rng.Int32N(9), Z: rng.Int32N(9)} }
	apart, crossing := 0, 0
	for range 20000 {
		loop := make([]Vertex, 3+rng.IntN(5))
		for i := range loop {
			loop[i] = pt()
		}
		d0, d1 := pt(), pt()
		if rng.IntN(8) == 0 {
			d1 = d0
		}
		cross := segCrossesLoop(d0, d1, loop)
		if cross {
			crossing++
		}
		if !boxOfLoop(loop).apart(d0, d1) {
			continue
		}
		apart++
		if cross {
			t.Fatalf("loop %v: box apart from segment %v-%v, but the segment meets an edge", loop, d0, d1)
		}
	}
	if apart < 1000 || crossing < 1000 {
		t.Fatalf("only %d cases apart and %d crossing: the test does not cover the shortcut", apart, crossing)
	}
}
