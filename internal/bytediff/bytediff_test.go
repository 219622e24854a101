package bytediff

import (
	"math/rand/v2"
	"testing"
)

// TestWindows checks on random arrays (lengths across the 256-byte blocks
// and the eight-byte windows, dense and sparse differences, unequal
// lengths) that the windows Windows reports are, in order, exactly the
// eight-byte windows holding a difference, and that it stops when told.
func TestWindows(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 17))
	for it := range 3000 {
		n := r.IntN(1200)
		every := 1 + r.IntN(20)
		if it%2 == 1 {
			every = 1 + r.IntN(3000)
		}
		a := make([]byte, n)
		for i := range a {
			a[i] = byte(r.IntN(4))
		}
		b := append([]byte(nil), a...)
		for i := range b {
			if r.IntN(every) == 0 {
				b[i] ^= 1
			}
		}
		if it%3 == 0 {
			b = append(b, make([]byte, r.IntN(20))...) // extra bytes are not compared
		}
		var want [][2]int
		for i := 0; i < n; i += 8 {
			end := min(i+8, n)
			for k := i; k < end; k++ {
				if a[k] != b[k] {
					want = append(want, [2]int{i, end})
					break
				}
			}
		}
		var got [][2]int
		if !Windows(a, b, func(i, end int) bool { got = append(got, [2]int{i, end}); return true }) {
			t.Fatalf("iteration %d: Windows reports a stop f never asked for", it)
		}
		if len(got) != len(want) {
			t.Fatalf("iteration %d: %d windows %v, want %d %v", it, len(got), got, len(want), want)
		}
		for k := range want {
			if got[k] != want[k] {
				t.Fatalf("iteration %d: window %d is %v, want %v", it, k, got[k], want[k])
			}
		}
		if len(want) > 1 {
			calls := 0
			if Windows(a, b, func(int, int) bool { calls++; return calls < 2 }) || calls != 2 {
				t.Fatalf("iteration %d: Windows went on after f returned false (%d calls)", it, calls)
			}
		}
	}
}
