package contour_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"navviz/core/contour"
	"navviz/core/internal/spantest"
	"navviz/core/pipeline"
	"navviz/core/region"
	"navviz/core/voxel"
)

// repairLayers removes random discs and scattered spans from the layers of
// a level's tiles and checks that every repair whose preconditions hold
// (region.RepairBase.Repair) gives, with contour.RepairBase.Repair, exactly
// the set BuildLayer gives from scratch. It returns how many repairs ran
// and how many layers needed loops traced anew.
func repairLayers(t *testing.T, level string, every, tries int) (repaired, traced int) {
	t.Helper()
	s := pipeline.DefaultSettings()
	maxErr, maxLen, minArea := s.EdgeMaxErrorCells, s.EdgeMaxLenCells(), s.RegionMinAreaCells()
	rng := rand.New(rand.NewPCG(uint64(len(level)), 4))
	var rr region.RegionRepair
	var cr contour.LayerRepair
	for ti, chf := range spantest.Tiles(t, level) {
		if ti%every != 0 {
			continue
		}
		views, _, err := region.SplitLayers(chf, chf.BorderCells)
		if err != nil {
			t.Fatal(err)
		}
		for li := range views {
			v := &views[li]
			rb, err := v.NewRepairBase(nil, minArea)
			if err != nil {
				t.Fatal(err)
			}
			first, err := contour.BuildLayer(&chf.Grid, v, nil, rb.Regions().IDs, maxErr, maxLen, contour.DefaultBuildFlags)
			if err != nil {
				t.Fatal(err)
			}
			cb, err := contour.NewRepairBase(v, rb.Regions().IDs, first)
			if err != nil {
				t.Fatal(err)
			}
			for range tries {
				areas := slices.Clone(v.Areas)
				k0 := rng.IntN(v.Len())
				cx, cz, r := int(v.X[k0]), int(v.Z[k0]), 1+rng.IntN(8)
				scatter := rng.IntN(4) == 0
				for k := range areas {
					dx, dz := int(v.X[k])-cx, int(v.Z[k])-cz
					if (scatter && dx*dx+dz*dz <= 400 && rng.IntN(40) == 0) || (!scatter && dx*dx+dz*dz <= r*r) {
						areas[k] = voxel.AreaNull
					}
				}
				if err := rb.Repair(areas, &rr); err != nil {
					t.Fatal(err)
				}
				if !rr.Verdict.OK() {
					continue
				}
				if err := cb.Repair(areas, rr.IDs, rr.Removed, &cr); err != nil {
					t.Fatal(err)
				}
				repaired++
				if len(cr.NewLoops) > 0 {
					traced++
				}
				want, err := contour.BuildLayer(&chf.Grid, v, areas, rr.IDs, maxErr, maxLen, contour.DefaultBuildFlags)
				if err != nil {
					t.Fatal(err)
				}
				if d := cr.Set.Diff(want); d != "" {
					t.Fatalf("%s tile %d layer %d, disc (%d, %d) r %d scatter %v: %s", level, ti, li, cx, cz, r, scatter, d)
				}
			}
			// The base is unchanged by the repairs.
			again, err := contour.BuildLayer(&chf.Grid, v, nil, rb.Regions().IDs, maxErr, maxLen, contour.DefaultBuildFlags)
			if err != nil {
				t.Fatal(err)
			}
			if d := first.Diff(again); d != "" {
				t.Fatalf("%s tile %d layer %d: the base set changed: %s", level, ti, li, d)
			}
		}
	}
	return repaired, traced
}

// TestRepairLayerLevels runs repairLayers on city and dungeon tiles.
func TestRepairLayerLevels(t *testing.T) {
	every, tries := 1, 12
	if testing.Short() {
		every, tries = 5, 6
	}
	for _, level := range []string{"city", "dungeon"} {
		repaired, traced := repairLayers(t, level, every, tries)
		t.Logf("%s: %d repairs, %d of them traced new loops", level, repaired, traced)
		if repaired == 0 || traced == 0 {
			t.Errorf("%s: %d repairs, %d traced", level, repaired, traced)
		}
	}
}

// TestRepairLayerErrors: bad bases and arguments are errors, never panics.
func TestRepairLayerErrors(t *testing.T) {
	chf := spantest.Tiles(t, "city")[0]
	views, _, err := region.SplitLayers(chf, chf.BorderCells)
	if err != nil {
		t.Fatal(err)
	}
	v := &views[0]
	var lab region.Labels
	if err := v.Regions(nil, 64, &lab); err != nil {
		t.Fatal(err)
	}
	set, err := contour.BuildLayer(&chf.Grid, v, nil, lab.IDs, 1.3, 40, contour.DefaultBuildFlags)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := contour.NewRepairBase(v, lab.IDs, nil); err == nil {
		t.Errorf("nil set accepted")
	}
	if _, err := contour.NewRepairBase(v, lab.IDs[:1], set); err == nil {
		t.Errorf("short ids accepted")
	}
	bad := *set
	bad.Width++
	if _, err := contour.NewRepairBase(v, lab.IDs, &bad); err == nil {
		t.Errorf("set of another grid accepted")
	}
	if len(set.Loops) > 1 {
		bad = *set
		bad.Loops = slices.Clone(set.Loops)
		bad.Loops[0], bad.Loops[1] = bad.Loops[1], bad.Loops[0]
		if _, err := contour.NewRepairBase(v, lab.IDs, &bad); err == nil {
			t.Errorf("loops out of order accepted")
		}
	}
	b, err := contour.NewRepairBase(v, lab.IDs, set)
	if err != nil {
		t.Fatal(err)
	}
	var r contour.LayerRepair
	if err := b.Repair(v.Areas[:1], lab.IDs, nil, &r); err == nil {
		t.Errorf("short areas accepted")
	}
	if err := b.Repair(v.Areas, lab.IDs, []int32{int32(v.Len())}, &r); err == nil {
		t.Errorf("removed span out of range accepted")
	}
	// Nothing removed: the first build's set.
	if err := b.Repair(v.Areas, lab.IDs, nil, &r); err != nil {
		t.Fatal(err)
	}
	if d := r.Set.Diff(set); d != "" || len(r.NewLoops) != 0 || len(r.Gone) != 0 {
		t.Errorf("no change: %s, %d new, %d gone", d, len(r.NewLoops), len(r.Gone))
	}
}
