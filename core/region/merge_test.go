package region

import (
	"slices"
	"testing"

	"navviz/core/voxel"
)

func TestDedupeCyclic(t *testing.T) {
	for _, tc := range []struct{ in, want []uint32 }{
		{nil, nil},
		{[]uint32{5}, []uint32{5}},
		{[]uint32{5, 5}, []uint32{5}},
		{[]uint32{1, 2, 1}, []uint32{1, 2}},
		{[]uint32{1, 1, 2, 2, 3, 1}, []uint32{1, 2, 3}},
		{[]uint32{0, 3, 0, 3}, []uint32{0, 3, 0, 3}},
		{[]uint32{7, 7, 7}, []uint32{7}},
	} {
		if got := dedupeCyclic(slices.Clone(tc.in)); !slices.Equal(got, tc.want) {
			t.Errorf("dedupeCyclic(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestMergeInto(t *testing.T) {
	// a's outline meets 0, b(2), 3; b's meets 1(a), 4, 0. The merged outline
	// is a's after b then b's after a: 3 0 | 4 0 -> 3 0 4 0.
	// The floors are a sorted set: {9} joined with {8, 9} is {8, 9}.
	a := regionInfo{id: 1, spanCount: 10, conn: []uint32{0, 2, 3}, floors: []uint32{9}}
	b := regionInfo{id: 2, spanCount: 5, conn: []uint32{1, 4, 0}, floors: []uint32{8, 9}}
	if _, ok := mergeInto(&a, &b, nil); !ok {
		t.Fatal("mergeInto failed")
	}
	if !slices.Equal(a.conn, []uint32{3, 0, 4, 0}) || !slices.Equal(a.floors, []uint32{8, 9}) || a.spanCount != 15 ||
		b.spanCount != 0 || len(b.conn) != 0 {
		t.Errorf("merged a %+v, b %+v", a, b)
	}
	// Not neighbours both ways: nothing changes.
	c := regionInfo{id: 3, spanCount: 5, conn: []uint32{0}}
	before := a
	if _, ok := mergeInto(&a, &c, nil); ok || !slices.Equal(a.conn, before.conn) || a.spanCount != 15 {
		t.Errorf("mergeInto of a non-neighbour: ok %v, a %+v", ok, a)
	}
}

func TestCanMerge(t *testing.T) {
	a := regionInfo{id: 1, area: 63, conn: []uint32{0, 2}}
	b := regionInfo{id: 2, area: 63, conn: []uint32{0, 1}}
	if !canMerge(&a, &b) || !canMerge(&b, &a) {
		t.Error("plain neighbours cannot merge")
	}
	twice := regionInfo{id: 1, area: 63, conn: []uint32{0, 2, 0, 2}}
	if canMerge(&twice, &b) {
		t.Error("a region met twice along the outline (it would make a hole) merges")
	}
	floor := regionInfo{id: 1, area: 63, conn: []uint32{0, 2}, floors: []uint32{2}}
	if canMerge(&floor, &b) {
		t.Error("regions sharing a column merge")
	}
	other := regionInfo{id: 2, area: 5, conn: []uint32{0, 1}}
	if canMerge(&a, &other) {
		t.Error("regions of different areas merge")
	}
}

// partMergeIDs runs mergeAndFilter on hand-made ids of c (internal ids,
// table size nreg) and returns the final ids and count.
func partMergeIDs(t *testing.T, c *voxel.CompactHeightfield, ids []uint32, nreg, minA, mergeA int) ([]uint32, int) {
	t.Helper()
	s := getScratch()
	defer putScratch(s)
	nb, err := spanLinks(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	reg := slices.Clone(ids)
	count, _ := mergeAndFilter(c, nb, reg, nreg, minA, mergeA, s)
	return reg, count
}

func TestMergeOverlapRules(t *testing.T) {
	// Two unlinked floors over 6 x 3 columns. On the lower floor region 1
	// holds x < 3 and region 2 x >= 3: small neighbours that merge.
	c := partPlanCHF(t, 0, "222222", "222222", "222222")
	low := func(x, z int) int { return int(c.Cells[x+z*6].Index) }
	base := make([]uint32, len(c.Spans))
	for z := 0; z < 3; z++ {
		for x := 0; x < 6; x++ {
			base[low(x, z)] = 1
			if x >= 3 {
				base[low(x, z)] = 2
			}
		}
	}
	got, n := partMergeIDs(t, c, base, 4, 0, 100)
	if n != 1 || got[low(0, 0)] != 1 || got[low(5, 2)] != 1 {
		t.Fatalf("neighbours did not merge: %d regions", n)
	}

	// Region 2 also holds upper-floor spans above region 1 (columns shared,
	// after its first span): the two may not merge.
	floors := slices.Clone(base)
	for x := 0; x < 3; x++ {
		floors[low(x, 1)+1] = 2
	}
	if _, n := partMergeIDs(t, c, floors, 4, 0, 100); n != 2 {
		t.Errorf("regions sharing columns merged: %d regions, want 2", n)
	}

	// Region 1 holds both spans of column (1, 1): it overlaps itself, so it
	// neither takes nor joins a neighbour.
	overlap := slices.Clone(base)
	overlap[low(1, 1)+1] = 1
	if _, n := partMergeIDs(t, c, overlap, 4, 0, 100); n != 2 {
		t.Errorf("an overlapping region merged: %d regions, want 2", n)
	}

	// Island removal: the group {1, 2} has 18 spans; minArea 19 drops both,
	// 18 keeps them. Unused table entries (id 3) get no id.
	if got, n := partMergeIDs(t, c, base, 4, 19, 0); n != 0 || got[low(0, 0)] != 0 || got[low(5, 0)] != 0 {
		t.Errorf("small group kept: %d regions", n)
	}
	if _, n := partMergeIDs(t, c, base, 4, 18, 0); n != 2 {
		t.Errorf("group of minArea spans dropped: %d regions, want 2", n)
	}

	// A border id in the outline keeps a small group.
	border := slices.Clone(base)
	for z := 0; z < 3; z++ {
		border[low(5, z)] = 1 | internalBorder
	}
	if got, n := partMergeIDs(t, c, border, 4, 100, 0); n != 2 || got[low(5, 0)] != 1|internalBorder {
		t.Errorf("group touching the border dropped or border id changed: %d regions", n)
	}
}

func TestResultRegionCount(t *testing.T) {
	var nilRes *Result
	if nilRes.RegionCount() != 0 || (&Result{}).RegionCount() != 0 || (&Result{Count: 4}).RegionCount() != 3 {
		t.Error("RegionCount")
	}
}
