package region_test

import (
	"slices"
	"testing"

	"navviz/core/region"
)

// TestLayerLinks: links given to NewLayerLinks read back exactly, in 2
// bytes each or, in a view of more than 32,768 spans or with a value that
// does not fit, in 4.
func TestLayerLinks(t *testing.T) {
	far := make([]int32, 4*40000)
	for i := range far {
		far[i] = -1
	}
	far[4*3+2] = 4     // fits
	far[4*39000+3] = 2 // offset -38998: does not fit
	far[4*39001] = 39000
	for _, tc := range []struct {
		name string
		to   []int32
	}{
		{"empty", nil},
		{"none", []int32{-1, -1, -1, -1}},
		{"neighbours", []int32{-1, 1, -1, -1, 0, -1, -1, -1}},
		{"self and below -1 (bad, kept for Validate)", []int32{0, -2, -1, 1, -1, -1, -1, -1}},
		{"32,768 spans", append(make([]int32, 4*32767), 0, 32767, -1, 0)},
		{"32,769 spans", append(make([]int32, 4*32768), 0, 32768, -1, 0)},
		{"40,000 spans", far},
		{"a bad link that does not fit 2 bytes", []int32{-1, 40000, -1, -1, 0, -1, -70000, -1}},
	} {
		l := region.NewLayerLinks(tc.to)
		if got := l.AppendTo(nil); !slices.Equal(got, tc.to) || l.Len() != len(tc.to) {
			t.Errorf("%s: %d links read back, %d given, or they differ", tc.name, l.Len(), len(tc.to))
		}
		for key, j := range tc.to {
			if got := l.To(key/4, key%4); got != j {
				t.Fatalf("%s: To(%d, %d) = %d, want %d", tc.name, key/4, key%4, got, j)
			}
		}
	}
}
