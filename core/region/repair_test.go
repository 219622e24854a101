package region_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"navviz/core/region"
	"navviz/core/voxel"
)

// repairCase is a layer (a plan, see layPlan) and a removal: the spans of
// the plan marked 'x' in cut (same shape; any other byte keeps the span)
// get area 0.
type repairCase struct {
	name   string
	plan   []string
	cut    []string
	border int
	min    int
	want   region.RepairReason
	// visited is the least number of spans the search of (c) must visit
	// (more than the band holds when the second pass is needed).
	visited int
}

// cutAreas returns the areas of view v after the removal of cut.
func cutAreas(v *region.LayerView, areas []uint8, cut []string) []uint8 {
	out := slices.Clone(areas)
	for k := range out {
		if cut[v.Z[k]][v.X[k]] == 'x' {
			out[k] = voxel.AreaNull
		}
	}
	return out
}

// wantRing is RegionRepair.Ring by its definition: for each component
// that lost spans, in the order of its first removed span, its spans not
// removed linked to one of its removed spans (removed spans ascending,
// links in direction order), each once; empty when the repair failed
// before (c), and up to the failing component's when (c) failed.
func wantRing(v *region.LayerView, b *region.RepairBase, removed []int32, vd region.Verdict) []int32 {
	switch vd.Reason {
	case region.RepairOK, region.ReasonOrder, region.ReasonSplit, region.ReasonBudget:
	default:
		return nil
	}
	comp := b.Components().IDs
	gone := map[int32]bool{}
	var comps []uint16
	for _, k := range removed {
		gone[k] = true
		if c := comp[k]; c != region.NoRegion && !slices.Contains(comps, c) {
			comps = append(comps, c)
		}
	}
	var ring []int32
	for _, c := range comps {
		in := map[int32]bool{}
		for _, k := range removed {
			if comp[k] != c {
				continue
			}
			for _, j := range v.Links.Four(int(k)) {
				if j >= 0 && !gone[j] && comp[j] == c && !in[j] {
					in[j] = true
					ring = append(ring, j)
				}
			}
		}
		if (vd.Reason == region.ReasonSplit || vd.Reason == region.ReasonBudget) && int(c) == vd.Comp {
			break
		}
	}
	return ring
}

// checkRepaired checks a repair whose preconditions held against the
// from-scratch partition of the same areas.
func checkRepaired(t *testing.T, v *region.LayerView, areas []uint8, min int, r *region.RegionRepair) {
	t.Helper()
	var lab region.Labels
	if err := v.Regions(areas, min, &lab); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.IDs, lab.IDs) {
		t.Fatalf("repaired ids\n%swant\n%s", layMap(v, r.IDs), layMap(v, lab.IDs))
	}
}

// TestRepairPreconditions takes every path of RepairBase.Repair: each
// precondition's failures and a repair that holds.
func TestRepairPreconditions(t *testing.T) {
	cases := []repairCase{
		{
			name: "hole", min: 4, want: region.RepairOK,
			plan: []string{"######", "######", "######", "######"},
			cut:  []string{"......", "..x...", "..xx..", "......"},
		},
		{
			// The hole cuts the region's first span: it starts one later,
			// still before region 2.
			name: "first span moves", min: 2, want: region.RepairOK,
			plan: []string{"####", "####", "aaaa", "aaaa"},
			cut:  []string{"x...", "....", "....", "...."},
		},
		{
			name: "shrinks", min: 7, want: region.ReasonShrinks,
			plan: []string{"###.", "####", "....", "...."},
			cut:  []string{"x...", "....", "....", "...."},
		},
		{
			name: "vanishes", min: 0, want: region.ReasonVanishes,
			plan: []string{"##..", "....", "..aa", "..aa"},
			cut:  []string{"xx..", "....", "....", "...."},
		},
		{
			// Every span inside the ring is removed; the ring spans remain.
			name: "vanishes inside the tile", min: 0, border: 1, want: region.ReasonVanishes,
			plan: []string{"#####", "#####", "#####", "#####", "#####"},
			cut:  []string{".....", ".xxx.", ".xxx.", ".xxx.", "....."},
		},
		{
			// 'a' (2 spans, below 3) is kept only because 'b' touches it.
			name: "small region touched", min: 3, want: region.ReasonSmallTouched,
			plan: []string{"aab...", "..bbbb", "..bbbb", "..bbbb"},
			cut:  []string{"..x...", "......", "......", "......"},
		},
		{
			// 'a' (6 spans, below 7) reaches the border ring, so it is kept
			// whatever touches it: removing the 'b' spans that touched it
			// changes nothing of 'a', and the layer is repaired.
			name: "small region at the ring touched", min: 7, border: 1, want: region.RepairOK,
			plan: []string{"aa.....", "aabbbbb", "aabbbbb", "..bbbbb", "..bbbbb", "......."},
			cut:  []string{".......", "..x....", "..x....", ".......", ".......", "......."},
		},
		{
			// The same 'a' losing a span falls below the minimum: the
			// spec's "shrinks" (kept from scratch too, by the ring: the
			// check is on the safe side).
			name: "small region at the ring shrinks", min: 7, border: 1, want: region.ReasonShrinks,
			plan: []string{"aa.....", "aabbbbb", "aabbbbb", "..bbbbb", "..bbbbb", "......."},
			cut:  []string{".......", ".......", ".x.....", ".......", ".......", "......."},
		},
		{
			// Two blobs joined by a corridor of one span.
			name: "split", min: 2, want: region.ReasonSplit,
			plan: []string{"###.###", "#######", "###.###"},
			cut:  []string{".......", "...x...", "......."},
		},
		{
			// The hole touches a wall: its ring is one arc, joined by
			// the band around the other side.
			name: "joined by the band", min: 2, want: region.RepairOK, visited: 1,
			plan: []string{"#######", "#######", "###.###", "#######", "#######"},
			cut:  []string{".......", ".......", "..x.x..", "..xxx..", "......."},
		},
		{
			// The hole lies between two walls: its ring is two arcs that
			// meet only around a wall, outside the band (the figure of
			// docs/tilecache.md §11.3): the second pass finds the way.
			name: "joined around", min: 2, want: region.RepairOK, visited: 9,
			plan: []string{"##########", "##..##..##", "##..##..##", "##########"},
			cut:  []string{"..........", "....xx....", "....xx....", ".........."},
		},
		{
			// Region 1 starts at (3, 0) before region 2 at (0, 1); with
			// (3, 0) removed it starts at (3, 1), after region 2.
			name: "order", min: 0, want: region.ReasonOrder,
			plan: []string{"...a", "bb.a", "b.aa"},
			cut:  []string{"...x", "....", "...."},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := layView(t, layPlan(t, tc.border, tc.plan...), tc.border)
			b, err := v.NewRepairBase(nil, tc.min)
			if err != nil {
				t.Fatal(err)
			}
			areas := cutAreas(v, v.Areas, tc.cut)
			var r region.RegionRepair
			if err := b.Repair(areas, &r); err != nil {
				t.Fatal(err)
			}
			if r.Verdict.Reason != tc.want {
				t.Fatalf("verdict %v, want %v", r.Verdict, tc.want)
			}
			if s := r.Verdict.String(); s == "" || (tc.want != region.RepairOK && !strings.HasPrefix(s, "("+tc.want.Precondition()+")")) {
				t.Errorf("verdict text %q for %v", s, tc.want)
			}
			if tc.want == region.RepairOK {
				checkRepaired(t, v, areas, tc.min, &r)
			}
			if r.Verdict.Visited < tc.visited {
				t.Errorf("the search visited %d spans, want at least %d", r.Verdict.Visited, tc.visited)
			}
			if len(r.Removed) == 0 {
				t.Errorf("no removed span")
			}
		})
	}
}

// TestRepairBudget: a cut across a loop-shaped region two spans wide; the
// ring's two sides meet only around the whole loop, farther than the
// budget allows.
func TestRepairBudget(t *testing.T) {
	const w = 60
	plan := make([]string, w)
	cut := make([]string, w)
	for z := range w {
		row := []byte(strings.Repeat("#", w))
		if z >= 2 && z < w-2 {
			row = []byte("##" + strings.Repeat(".", w-4) + "##")
		}
		plan[z] = string(row)
		c := []byte(strings.Repeat(".", w))
		if z == w/2 {
			c[0], c[1] = 'x', 'x'
		}
		cut[z] = string(c)
	}
	v := layView(t, layPlan(t, 0, plan...), 0)
	b, err := v.NewRepairBase(nil, 4)
	if err != nil {
		t.Fatal(err)
	}
	areas := cutAreas(v, v.Areas, cut)
	var r region.RegionRepair
	if err := b.Repair(areas, &r); err != nil {
		t.Fatal(err)
	}
	if r.Verdict.Reason != region.ReasonBudget || r.Verdict.Budget != 256 || r.Verdict.Visited <= 256 {
		t.Fatalf("verdict %+v, want the budget of 256 spans exceeded", r.Verdict)
	}
	if len(r.Ring) != 4 {
		t.Errorf("%d ring spans, want 4", len(r.Ring))
	}
}

// TestRepairSeveralHoles: holes far apart in one large region (several
// obstacles in one component) repair, each hole's ring searched on its own
// (the whole ring's two parts meet only farther than the budget); holes
// that together cut the region still fail (split), and a hole that cuts a
// region in two next to one that does not fails too.
func TestRepairSeveralHoles(t *testing.T) {
	const w, h = 70, 8
	plan := make([]string, h)
	for z := range h {
		plan[z] = strings.Repeat("#", w)
	}
	cutOf := func(xs ...[2]int) []string {
		cut := make([]string, h)
		for z := range h {
			c := []byte(strings.Repeat(".", w))
			for _, x := range xs {
				if z >= x[1] && z < x[1]+3 {
					c[x[0]] = 'x'
				}
			}
			cut[z] = string(c)
		}
		return cut
	}
	// A full-height wall at column x (x[1] 0, but 8 rows).
	wall := func(x int) []string {
		cut := make([]string, h)
		for z := range h {
			c := []byte(strings.Repeat(".", w))
			c[x] = 'x'
			cut[z] = string(c)
		}
		return cut
	}
	merge := func(a, b []string) []string {
		out := make([]string, h)
		for z := range h {
			c := []byte(a[z])
			for x := range c {
				if b[z][x] == 'x' {
					c[x] = 'x'
				}
			}
			out[z] = string(c)
		}
		return out
	}
	v := layView(t, layPlan(t, 0, plan...), 0)
	b, err := v.NewRepairBase(nil, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		cut  []string
		want region.RepairReason
	}{
		{"two holes", cutOf([2]int{2, 3}, [2]int{w - 3, 3}), region.RepairOK},
		{"three holes", cutOf([2]int{2, 3}, [2]int{35, 1}, [2]int{w - 3, 4}), region.RepairOK},
		{"two walls", merge(cutOf([2]int{2, 3}, [2]int{w - 3, 3}), merge(wall(20), wall(50))), region.ReasonSplit},
		// The wall is searched from its large side: the budget runs out.
		{"hole and wall", merge(cutOf([2]int{2, 3}), wall(w-10)), region.ReasonBudget},
	} {
		t.Run(tc.name, func(t *testing.T) {
			areas := cutAreas(v, v.Areas, tc.cut)
			var r region.RegionRepair
			if err := b.Repair(areas, &r); err != nil {
				t.Fatal(err)
			}
			if r.Verdict.Reason != tc.want {
				t.Fatalf("verdict %v, want %v", r.Verdict, tc.want)
			}
			if tc.want == region.RepairOK {
				checkRepaired(t, v, areas, 4, &r)
			}
		})
	}
}

// TestRepairAreasAndLinks: an area that changes to another non-zero area
// fails (a); a view with a one-way link never repairs; wrong sizes are
// errors.
func TestRepairAreasAndLinks(t *testing.T) {
	v := layView(t, layPlan(t, 0, "####", "####", "####"), 0)
	b, err := v.NewRepairBase(nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	var r region.RegionRepair
	areas := slices.Clone(v.Areas)
	areas[5] = 7
	if err := b.Repair(areas, &r); err != nil || r.Verdict.Reason != region.ReasonAreaChanged || r.Verdict.Span != 5 {
		t.Fatalf("area changed: verdict %v, err %v", r.Verdict, err)
	}
	if r.Verdict.Reason.Precondition() != "a" || region.ReasonVolume.Precondition() != "a" {
		t.Errorf("precondition of %v", r.Verdict.Reason)
	}
	if err := b.Repair(areas[:3], &r); err == nil {
		t.Errorf("short areas accepted")
	}
	if err := (*region.RepairBase)(nil).Repair(areas, &r); err == nil {
		t.Errorf("nil base accepted")
	}

	// A link without its reverse.
	w := *v
	setLink(&w, 4*5+2, -1) // span 5 no longer links +x, its neighbour still links back
	if w.LinksMutual() || !v.LinksMutual() {
		t.Fatalf("LinksMutual: %v on the broken view, %v on the good one", w.LinksMutual(), v.LinksMutual())
	}
	bw, err := w.NewRepairBase(nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	areas = slices.Clone(v.Areas)
	areas[0] = voxel.AreaNull
	if err := bw.Repair(areas, &r); err != nil || r.Verdict.Reason != region.ReasonLinks {
		t.Fatalf("one-way link: verdict %v, err %v", r.Verdict, err)
	}
	if _, err := v.NewRepairBase(nil, -1); err == nil {
		t.Errorf("negative minimum accepted")
	}
	if _, err := v.NewRepairBase([]uint8{1}, 2); err == nil {
		t.Errorf("short areas accepted")
	}
	// Nothing removed: the first build's ids.
	if err := b.Repair(v.Areas, &r); err != nil || !r.Verdict.OK() || len(r.Removed) != 0 {
		t.Fatalf("no change: verdict %v, %d removed, err %v", r.Verdict, len(r.Removed), err)
	}
	checkRepaired(t, v, v.Areas, 2, &r)
	for reason := range region.NumRepairReasons {
		if region.RepairReason(reason).String() == "" {
			t.Errorf("reason %d has no name", reason)
		}
	}
}

// TestRepairRandom removes random spans from random plans (several areas,
// walls, a border ring) and checks that whenever the preconditions hold,
// the repaired ids equal the from-scratch partition, and counts the
// verdicts (every reason of (b) to (d) shows up).
// wantBlobs numbers the removed spans (ascending) of each component by a
// breadth-first search through the removed spans of that component: 0, 1,
// ... per component in the order of each blob's first span (-1 outside a
// component), the plain form of the repair's blobs.
func wantBlobs(v *region.LayerView, comp []uint16, removed []int32) []int32 {
	blob := make([]int32, len(comp))
	for k := range blob {
		blob[k] = -2 // not removed
	}
	for _, k := range removed {
		blob[k] = -1
	}
	count := map[uint16]int32{}
	for _, k := range removed {
		c := comp[k]
		if c == region.NoRegion || blob[k] != -1 {
			continue
		}
		n := count[c]
		count[c]++
		blob[k] = n
		for q := []int32{k}; len(q) > 0; q = q[1:] {
			for _, l := range v.Links.Four(int(q[0])) {
				if l >= 0 && blob[l] == -1 && comp[l] == c {
					blob[l] = n
					q = append(q, l)
				}
			}
		}
	}
	return blob
}

func TestRepairRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	var seen [region.NumRepairReasons]int
	var r region.RegionRepair // reused across layers of every size
	for iter := range 3000 {
		w, h := 4+rng.IntN(14), 4+rng.IntN(14)
		border := rng.IntN(3)
		if 2*border >= min(w, h) {
			border = 0
		}
		// Mostly one area, with patches of two others and walls.
		palette := []string{"##########a.", "#####aab..", "#######.."}[rng.IntN(3)]
		plan := make([]string, h)
		for z := range h {
			var sb strings.Builder
			for range w {
				sb.WriteByte(palette[rng.IntN(len(palette))])
			}
			plan[z] = sb.String()
		}
		v := layView(t, layPlan(t, border, plan...), border)
		minArea := rng.IntN(8)
		b, err := v.NewRepairBase(nil, minArea)
		if err != nil {
			t.Fatal(err)
		}
		// A disc, or scattered spans.
		cx, cz, rad := rng.IntN(w), rng.IntN(h), rng.IntN(3)
		scatter := rng.IntN(3) == 0
		cut := make([]string, h)
		for z := range h {
			c := []byte(strings.Repeat(".", w))
			for x := range w {
				if (scatter && rng.IntN(6) == 0) || (!scatter && (x-cx)*(x-cx)+(z-cz)*(z-cz) <= rad*rad) {
					c[x] = 'x'
				}
			}
			cut[z] = string(c)
		}
		areas := cutAreas(v, v.Areas, cut)
		if err := b.Repair(areas, &r); err != nil {
			t.Fatal(err)
		}
		seen[r.Verdict.Reason]++
		if want := wantRing(v, b, r.Removed, r.Verdict); !slices.Equal(r.Ring, want) {
			t.Fatalf("iteration %d (%v): ring %v, want %v", iter, r.Verdict, r.Ring, want)
		}
		if reached := r.Verdict.Reason; reached == region.RepairOK || reached == region.ReasonSplit || reached == region.ReasonBudget || reached == region.ReasonOrder {
			want := wantBlobs(v, b.Components().IDs, r.Removed)
			for _, k := range r.Removed {
				if want[k] >= 0 && region.RepairBlob(&r, k) != want[k] {
					t.Fatalf("iteration %d: removed span %d in blob %d, want %d", iter, k, region.RepairBlob(&r, k), want[k])
				}
			}
		}
		if r.Verdict.OK() {
			var lab region.Labels
			if err := v.Regions(areas, minArea, &lab); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(r.IDs, lab.IDs) {
				t.Fatalf("iteration %d: plan\n%s\ncut\n%s\nmin %d border %d: repaired\n%swant\n%s", iter,
					strings.Join(plan, "\n"), strings.Join(cut, "\n"), minArea, border, layMap(v, r.IDs), layMap(v, lab.IDs))
			}
		}
	}
	t.Logf("verdicts: %v", seen)
	for _, reason := range []region.RepairReason{region.RepairOK, region.ReasonShrinks, region.ReasonVanishes,
		region.ReasonSmallTouched, region.ReasonSplit, region.ReasonOrder} {
		if seen[reason] == 0 {
			t.Errorf("no verdict %v", reason)
		}
	}
}
