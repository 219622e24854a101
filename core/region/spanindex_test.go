package region_test

import (
	"slices"
	"testing"

	"navviz/core/region"
)

func TestSpanIndex(t *testing.T) {
	for _, tc := range []struct {
		name  string
		index []int32
		runs  int
	}{
		{"empty", nil, 0},
		{"one span", []int32{7}, 1},
		{"identity", []int32{0, 1, 2, 3, 4}, 1},
		{"two layers interleaved", []int32{0, 2, 3, 4, 7, 8, 10}, 4},
		{"descending (not a split's, kept as given)", []int32{5, 4, 3}, 3},
		{"repeated", []int32{2, 2, 3}, 2},
		{"negative and large", []int32{-3, -2, -1, 1 << 30, 1<<30 + 1}, 2},
	} {
		s := region.NewSpanIndex(tc.index)
		if s.Len() != len(tc.index) || s.Runs() != tc.runs {
			t.Errorf("%s: %d spans in %d runs, want %d in %d", tc.name, s.Len(), s.Runs(), len(tc.index), tc.runs)
		}
		if got := s.AppendTo(nil); !slices.Equal(got, tc.index) {
			t.Errorf("%s: AppendTo gives %v, want %v", tc.name, got, tc.index)
		}
		for k, i := range tc.index {
			if got := s.At(k); got != i {
				t.Errorf("%s: At(%d) = %d, want %d", tc.name, k, got, i)
			}
		}
		n := 0
		for k, i := range s.All() {
			if k != n || i != tc.index[k] {
				t.Fatalf("%s: All yields (%d, %d) at step %d", tc.name, k, i, n)
			}
			n++
		}
		if n != len(tc.index) {
			t.Errorf("%s: All yields %d spans, want %d", tc.name, n, len(tc.index))
		}
	}
}

// TestGatherAreasRuns: the gather of every view of a split tile, copied a
// run at a time, is the span-by-span gather through At.
func TestGatherAreasRuns(t *testing.T) {
	c := layBridge(t)
	areas := make([]uint8, len(c.Spans))
	for i := range areas {
		areas[i] = uint8(i*7 + 1)
	}
	views, _, err := region.SplitLayers(c, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(views) < 2 {
		t.Fatalf("test setup: %d layers, want several", len(views))
	}
	for li := range views {
		v := &views[li]
		want := []uint8{9}
		for k := range v.Len() {
			want = append(want, areas[v.Index.At(k)])
		}
		if got := v.GatherAreas([]uint8{9}, areas); !slices.Equal(got, want) {
			t.Errorf("view %d: gathered areas differ from the span-by-span gather", li)
		}
		if v.Index.Runs() >= v.Len() {
			t.Errorf("view %d: %d runs for %d spans", li, v.Index.Runs(), v.Len())
		}
	}
}
