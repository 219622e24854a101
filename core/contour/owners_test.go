package contour

import "testing"

// TestLoopOwners: the narrow owners a repair base keeps answer as
// Set.EdgeOwners does, at each width (1, 2 and 4 bytes a key), keys out of
// range ignored; none tells the spans none of whose edges is owned.
func TestLoopOwners(t *testing.T) {
	cases := []struct {
		loops, width int
	}{{0, 1}, {3, 1}, {254, 1}, {255, 2}, {70000, 4}}
	for _, tc := range cases {
		spans := tc.loops/2 + 3
		set := &Set{Loops: make([]Loop, tc.loops)}
		for li := range set.Loops {
			// Loop li holds keys 2li and 2li+1 (mod the key count), the
			// last loops also one key out of range.
			k := int32(2*li) % int32(4*spans)
			set.Loops[li].Keys = []int32{k, k + 1}
			if li >= tc.loops-2 {
				set.Loops[li].Keys = append(set.Loops[li].Keys, int32(4*spans+li), -1)
			}
		}
		o := newLoopOwners(set, spans)
		if o.width != tc.width {
			t.Errorf("%d loops: width %d, want %d", tc.loops, o.width, tc.width)
		}
		want := set.EdgeOwners(spans, nil)
		for k, w := range want {
			if got := o.at(k); got != int(w) {
				t.Fatalf("%d loops: key %d owned by %d, want %d", tc.loops, k, got, w)
			}
		}
		// none: no key of the span owned; the keys 2li, 2li+1 leave spans
		// of no loop at the end when there are few loops.
		for k := range spans {
			wantNone := true
			for d := range 4 {
				wantNone = wantNone && want[4*k+d] < 0
			}
			if got := o.none(k); got != wantNone {
				t.Fatalf("%d loops: span %d none %v, want %v", tc.loops, k, got, wantNone)
			}
		}
	}
}

// TestRotateLeft: rotateLeft gives the naive rotation for every length up
// to 80 and every start, on both sides of its buffer's size.
func TestRotateLeft(t *testing.T) {
	for n := 0; n <= 80; n++ {
		for m := 0; m < max(n, 1); m++ {
			s := make([]Vertex, n)
			want := make([]Vertex, n)
			for i := range s {
				s[i] = Vertex{X: int32(i), Z: int32(-i)}
			}
			for i := range want {
				want[i] = s[(i+m)%n]
			}
			if n == 0 {
				m = 0
			}
			rotateLeft(s, m)
			for i := range want {
				if s[i] != want[i] {
					t.Fatalf("n %d m %d: position %d holds %v, want %v", n, m, i, s[i], want[i])
				}
			}
		}
	}
}
