package region_test

import (
	"slices"
	"testing"

	"navviz/core/region"
	"navviz/core/voxel"
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

// TestLargeLayerViews splits heightfields whose layer 0 holds more than
// 32,768 spans (its links in 4 bytes each), with and without a second
// layer, and checks every link against the span graph, and the views'
// regions against Layers.
func TestLargeLayerViews(t *testing.T) {
	const side = 190 // 36,100 columns
	for _, deck := range []int{0, 20} {
		c := layCHF(t, side, side, 2, 3, 2, func(x, z int) []layFloor {
			if x < deck {
				return []layFloor{{Y: 10, Area: voxel.AreaWalkable}, {Y: 40, Area: voxel.AreaWalkable}}
			}
			return []layFloor{{Y: 10, Area: voxel.AreaWalkable}}
		})
		views, spanLayer, err := region.SplitLayers(c, 2)
		if err != nil {
			t.Fatal(err)
		}
		if want := 1 + min(deck, 1); len(views) != want || views[0].Len() <= 32768 {
			t.Fatalf("deck %d: %d views, layer 0 of %d spans; want %d, more than 32,768", deck, len(views), views[0].Len(), want)
		}
		graph := c.SpanGraph(nil)
		for li := range views {
			v := &views[li]
			if err := v.Validate(); err != nil || !v.LinksMutual() {
				t.Fatalf("deck %d view %d: %v, links mutual %v", deck, li, err, v.LinksMutual())
			}
			for k, i := range v.Index.All() {
				for d := range 4 {
					want := int32(-1)
					if j := graph[4*int(i)+d]; j >= 0 && spanLayer[j] == uint8(li) {
						at, _ := slices.BinarySearch(v.Index.AppendTo(nil), j)
						want = int32(at)
					}
					if got := v.Links.To(k, d); got != want {
						t.Fatalf("deck %d view %d: span %d links %d in direction %d, want %d", deck, li, k, got, d, want)
					}
				}
			}
		}
		res, err := region.Layers(c, 2, 8)
		if err != nil {
			t.Fatal(err)
		}
		layCompareViews(t, c, 2, 8, res)
	}
}
