package region

import (
	"cmp"
	"slices"
)

// The floors of a region (regionInfo.floors) are a set: Recast keeps them
// in a list, added to by linear search and read only for membership
// (canMerge), renamed (replaceNeighbour) and joined (mergeInto), so a
// sorted list answers every question the same way in log time.

// addFloor adds v to the sorted set l.
func addFloor[T cmp.Ordered](l []T, v T) []T {
	k, found := slices.BinarySearch(l, v)
	if found {
		return l
	}
	return slices.Insert(l, k, v)
}

// hasFloor reports whether the sorted set l holds v.
func hasFloor(l []uint32, v uint32) bool {
	_, found := slices.BinarySearch(l, v)
	return found
}

// renameFloor replaces old by new in the sorted set l, if l holds old.
func renameFloor(l []uint32, old, new uint32) []uint32 {
	k, found := slices.BinarySearch(l, old)
	if !found {
		return l
	}
	return addFloor(slices.Delete(l, k, k+1), new)
}

// joinFloors returns the union of the sorted sets a and b in a's memory,
// with tmp as scratch (returned grown).
func joinFloors(a, b, tmp []uint32) (joined, scratch []uint32) {
	if len(b) == 0 {
		return a, tmp
	}
	tmp = append(tmp[:0], a...)
	a = a[:0]
	i, j := 0, 0
	for i < len(tmp) || j < len(b) {
		switch {
		case j == len(b) || i < len(tmp) && tmp[i] < b[j]:
			a = append(a, tmp[i])
			i++
		case i == len(tmp) || b[j] < tmp[i]:
			a = append(a, b[j])
			j++
		default: // equal
			a = append(a, tmp[i])
			i++
			j++
		}
	}
	return a, tmp
}

// columnFloors adds to the region table what one column holds (Recast's
// floor lists): for each region r of the column's ids col (the non-border
// region ids of its spans, bottom up), every id of another span of the
// column joins r's floors, and r overlaps when two spans hold it. sorted is
// scratch, returned grown. Each distinct pair is added once, not once per
// pair of spans.
func columnFloors(regions []regionInfo, col, sorted []uint32) []uint32 {
	sorted = append(sorted[:0], col...)
	slices.Sort(sorted)
	for i := 0; i < len(sorted); {
		r := sorted[i]
		n := 1
		for i+n < len(sorted) && sorted[i+n] == r {
			n++
		}
		rg := &regions[r]
		if n > 1 {
			rg.overlap = true
		}
		for j := 0; j < len(sorted); {
			f := sorted[j]
			if f != r || n > 1 {
				rg.floors = addFloor(rg.floors, f)
			}
			for j < len(sorted) && sorted[j] == f {
				j++
			}
		}
		i += n
	}
	return sorted
}
