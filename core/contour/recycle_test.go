package contour_test

import (
	"testing"

	"navviz/core/contour"
	"navviz/core/pipeline"
	"navviz/core/region"
	"navviz/core/voxel"
)

// TestRecycle builds pairs of city layers, A and B, into recycled memory
// and checks that a set built so equals one built into memory of its own;
// that Recycle of a copy of a set (what a repair holds) leaves the set
// alone; that a set recycled twice is handed out once; and that a clone
// (Clone) equals its set and keeps its vertices when the set is recycled.
func TestRecycle(t *testing.T) {
	tiles, _ := cityTiles(t)
	s := pipeline.DefaultSettings()
	maxErr, maxLen := s.EdgeMaxErrorCells, s.EdgeMaxLenCells()
	type layer struct {
		chf  *voxel.CompactHeightfield
		view *region.LayerView
		ids  []uint16
	}
	var all []layer
	for ti := 0; ti < len(tiles); ti += 7 {
		views, ids := layerRegions(t, tiles[ti])
		for li := range views {
			all = append(all, layer{tiles[ti], &views[li], ids[li]})
		}
	}
	build := func(l layer) *contour.Set {
		t.Helper()
		set, err := contour.BuildLayer(&l.chf.Grid, l.view, nil, l.ids, maxErr, maxLen, contour.DefaultBuildFlags)
		if err != nil {
			t.Fatal(err)
		}
		return set
	}
	pairs := 0
	for i := 0; i+1 < len(all); i++ {
		A, B := all[i], all[i+1]
		aRef, bRef := build(A), build(B) // never recycled
		if aRef.Diff(bRef) == "" {
			continue
		}
		pairs++
		a := build(A)
		copied := *a
		contour.Recycle(&copied) // ignored: a's memory is not handed out
		b := build(B)
		if d := a.Diff(aRef); d != "" {
			t.Fatalf("layers %d, %d: a set changed after Recycle of its copy: %s", i, i+1, d)
		}
		contour.Recycle(b)
		contour.Recycle(b) // ignored
		x := build(A)
		y := build(B)
		if d := x.Diff(aRef); d != "" {
			t.Fatalf("layer %d: the set built in recycled memory differs (or shares it with the next): %s", i, d)
		}
		if d := y.Diff(bRef); d != "" {
			t.Fatalf("layer %d: the set built in recycled memory differs: %s", i+1, d)
		}
		kept := x.Clone() // memory of its own: x's recycling leaves it alone
		if d := kept.Diff(aRef); d != "" {
			t.Fatalf("layer %d: the clone differs: %s", i, d)
		}
		contour.Recycle(a)
		contour.Recycle(x)
		contour.Recycle(y)
		if d := build(B).Diff(bRef); d != "" || kept.Diff(aRef) != "" {
			t.Fatalf("layer %d: after recycling, a build or the clone differs: %s / %s", i, d, kept.Diff(aRef))
		}
	}
	if pairs < 10 {
		t.Fatalf("%d pairs of different layers, want at least 10", pairs)
	}
	contour.Recycle(nil) // ignored
}
