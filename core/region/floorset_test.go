package region

import (
	"math/rand/v2"
	"slices"
	"testing"

	"navviz/core/voxel"
)

// TestTableFloorsMatchesPairScan compares tableFloors with Recast's scan
// of every pair of spans of a column (each id of another span added to the
// span's region by linear search) on random stacked columns, many of them
// repeating the last one's ids (tableFloors skips those): the same floor
// sets and overlap flags.
func TestTableFloorsMatchesPairScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 5))
	for round := 0; round < 200; round++ {
		nreg := 2 + rng.IntN(40)
		c := &voxel.CompactHeightfield{}
		var reg []uint32
		var col []uint32
		for range 1 + rng.IntN(60) {
			if len(col) == 0 || rng.IntN(3) > 0 {
				col = col[:0]
				for range rng.IntN(12) {
					r := uint32(rng.IntN(nreg + 3)) // some ids >= nreg
					if rng.IntN(8) == 0 {
						r = internalBorder | uint32(rng.IntN(4))
					}
					col = append(col, r)
				}
			}
			c.Cells = append(c.Cells, voxel.CompactCell{Index: uint32(len(reg)), Count: uint32(len(col))})
			reg = append(reg, col...)
		}
		want := make([]regionInfo, nreg)
		for _, cell := range c.Cells {
			lo, hi := int(cell.Index), int(cell.Index+cell.Count)
			for i := lo; i < hi; i++ {
				r := reg[i]
				if r == 0 || r >= uint32(nreg) {
					continue
				}
				for j := lo; j < hi; j++ {
					f := reg[j]
					if j == i || f == 0 || f >= uint32(nreg) {
						continue
					}
					if f == r {
						want[r].overlap = true
					}
					if !slices.Contains(want[r].floors, f) {
						want[r].floors = append(want[r].floors, f)
					}
				}
			}
		}
		var s scratch
		got := s.regionTable(nreg)
		s.tableFloors(c, reg, got)
		for k := range want {
			slices.Sort(want[k].floors)
			if !slices.Equal(got[k].floors, want[k].floors) || got[k].overlap != want[k].overlap {
				t.Fatalf("round %d region %d: floors %v overlap %v, pair scan %v overlap %v",
					round, k, got[k].floors, got[k].overlap, want[k].floors, want[k].overlap)
			}
		}
	}
}

// TestFloorSets: the sorted-set operations against a plain set.
func TestFloorSets(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 6))
	for round := 0; round < 500; round++ {
		var a, b []uint32
		ma, mb := map[uint32]bool{}, map[uint32]bool{}
		for range rng.IntN(20) {
			v := uint32(rng.IntN(30))
			a = addFloor(a, v)
			ma[v] = true
		}
		for range rng.IntN(20) {
			v := uint32(rng.IntN(30))
			b = addFloor(b, v)
			mb[v] = true
		}
		old, nw := uint32(rng.IntN(30)), uint32(rng.IntN(30))
		a = renameFloor(a, old, nw)
		if ma[old] {
			delete(ma, old)
			ma[nw] = true
		}
		a, _ = joinFloors(a, b, nil)
		for v := range mb {
			ma[v] = true
		}
		if !slices.IsSorted(a) || len(slices.Compact(slices.Clone(a))) != len(a) || len(a) != len(ma) {
			t.Fatalf("round %d: %v, want the sorted set of %v", round, a, ma)
		}
		for v := range uint32(30) {
			if hasFloor(a, v) != ma[v] {
				t.Fatalf("round %d: hasFloor(%v, %d) = %v", round, a, v, !ma[v])
			}
		}
	}
}
