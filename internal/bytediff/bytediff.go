// Package bytediff finds where two byte arrays differ, quickly where they
// mostly agree (the tile cache's area arrays: an obstacle changes a few
// spans of a tile's thousands).
package bytediff

import (
	"bytes"
	"encoding/binary"
)

// block is the run of bytes compared at once with bytes.Equal (vectorised).
const block = 256

// Windows calls f(i, end), in order, for every window [i, end) of the
// first min(len(a), len(b)) bytes that holds a byte where a and b differ.
// Windows are the eight bytes from a multiple of eight, or fewer at the
// end; blocks of 256 equal bytes are skipped whole. It stops when f
// returns false, and reports whether f never did.
func Windows(a, b []byte, f func(i, end int) bool) bool {
	n := min(len(a), len(b))
	for i0 := 0; i0 < n; i0 += block {
		i1 := min(i0+block, n)
		if bytes.Equal(a[i0:i1], b[i0:i1]) {
			continue
		}
		wa, wb, i := a[i0:i1], b[i0:i1:i1], i0
		for ; len(wa) >= 8 && len(wb) >= 8; wa, wb, i = wa[8:], wb[8:], i+8 {
			if binary.LittleEndian.Uint64(wa) != binary.LittleEndian.Uint64(wb) && !f(i, i+8) {
				return false
			}
		}
		if len(wa) > 0 && !bytes.Equal(wa, wb) && !f(i, i1) {
			return false
		}
	}
	return true
}
