package region

import (
	"fmt"

	"navviz/core/voxel"
)

// Labels is a labelling of the spans of a LayerView: the connected
// components that LayerView.Components finds, or the layer's regions once
// LayerView.DropIslands and LayerView.JoinBorder have run. The tile cache
// keeps it per layer (each region's size and first span are what its repair
// checks), so its meaning is fixed:
//
//   - IDs[k] is the id of span k of the view: NoRegion, a label 1..Count,
//     or (after JoinBorder) LayerBorder;
//   - labels are numbered in the order of their first span: label a < b
//     exactly when First[a] < First[b];
//   - First[a] is the view index of the first span of label a and Size[a]
//     the number of spans of the component, border-ring spans included
//     (JoinBorder does not change them); First[0] is -1 and Size[0] 0.
//
// The zero value is ready to use; the slices are reused by later calls.
type Labels struct {
	IDs   []uint16
	Count int
	First []int32
	Size  []int32

	parent []int32  // Components: union-find forest
	remap  []uint16 // DropIslands, JoinBorder: new label of each label
	keep   []bool   // DropIslands, JoinBorder: the labels kept
}

// check validates lab against a view of n spans: one id per span, Count+1
// entries in First and Size, and every id NoRegion, LayerBorder (when
// border is true) or in 1..Count.
func (lab *Labels) check(fn string, n int, border bool) error {
	if lab == nil {
		return fmt.Errorf("region: %s: nil labels", fn)
	}
	if len(lab.IDs) != n || lab.Count < 0 || lab.Count > MaxRegions || len(lab.First) != lab.Count+1 || len(lab.Size) != lab.Count+1 {
		return fmt.Errorf("region: %s: labels with %d ids, Count %d, %d First and %d Size for a view of %d spans",
			fn, len(lab.IDs), lab.Count, len(lab.First), len(lab.Size), n)
	}
	for k, id := range lab.IDs {
		if int(id) > lab.Count && !(border && id == LayerBorder) {
			return fmt.Errorf("region: %s: span %d has label %d, want 0..%d", fn, k, id, lab.Count)
		}
	}
	return nil
}

// viewAreas returns areas, or v.Areas when areas is nil, checking the length.
func (v *LayerView) viewAreas(fn string, areas []uint8) ([]uint8, error) {
	if areas == nil {
		areas = v.Areas
	}
	if len(areas) != v.Index.Len() {
		return nil, fmt.Errorf("region: %s: %d areas for a layer view of %d spans", fn, len(areas), v.Index.Len())
	}
	return areas, nil
}

// Components labels the connected components of the view's walkable spans
// (docs/layers.md §4) into lab: two spans are in one component when a chain
// of −x and −z links (Links directions 0 and 3) joins them through spans of
// one non-zero area. Each span is joined with its −x and −z linked spans of
// its own area, and the components are numbered 1..Count in the order of
// their first span (view index). A span of area voxel.AreaNull gets
// NoRegion. The first span of a component is its lowest view index.
//
// areas holds the areas in force (one per span; nil means v.Areas). More
// than MaxRegions components, an invalid view or a wrong areas length are
// errors (the view is checked as Validate does, except that a column outside
// the grid is not an error); lab is then left unchanged.
func (v *LayerView) Components(areas []uint8, lab *Labels) error {
	if lab == nil {
		return fmt.Errorf("region: Components: nil labels")
	}
	if err := v.check(); err != nil {
		return err
	}
	areas, err := v.viewAreas("Components", areas)
	if err != nil {
		return err
	}
	return v.components(areas, lab)
}

// components is Components on checked arguments.
func (v *LayerView) components(areas []uint8, lab *Labels) error {
	n := v.Index.Len()
	links := &v.Links
	parent := grow(lab.parent, n)
	lab.parent = parent
	for k := range parent {
		parent[k] = int32(k)
	}
	// A union hangs the root with the higher index under the other, and
	// path halving only moves a pointer to an ancestor, so parent[k] <= k
	// always: the root of a set is its lowest index, its first span.
	roots := 0
	for k := range int32(n) {
		a := areas[k]
		if a == voxel.AreaNull {
			continue
		}
		roots++
		for _, d := range [2]int{0, 3} {
			j := links.To(int(k), d)
			if j < 0 || areas[j] != a {
				continue
			}
			rj := findRoot(parent, j)
			rk := parent[k] // k's root: k, or a root it was just hung under
			if rk != k {
				rk = findRoot(parent, rk)
			}
			if rk == rj {
				continue
			}
			if rk < rj {
				rk, rj = rj, rk
			}
			parent[rk] = rj
			roots--
		}
	}
	if roots > MaxRegions {
		return fmt.Errorf("region: Components: %d components in layer %d, more than %d", roots, v.Layer, MaxRegions)
	}

	ids := grow(lab.IDs, n)
	first := grow(lab.First, roots+1)
	size := zeroed(lab.Size, roots+1)
	first[0] = -1
	count := 0
	for k := range int32(n) {
		if areas[k] == voxel.AreaNull {
			ids[k] = NoRegion
			continue
		}
		id := uint16(0)
		if p := parent[k]; p == k {
			count++
			first[count] = k
			id = uint16(count)
		} else {
			id = ids[p] // p < k, in k's set: labelled already
		}
		ids[k] = id
		size[id]++
	}
	lab.IDs, lab.First, lab.Size, lab.Count = ids, first, size, count
	return nil
}

// Touching reports, for each label a of lab (dst[a], a in 1..lab.Count;
// dst[0] is false), whether a span with label a has a link to a walkable
// span (area not voxel.AreaNull) of another area than its own: the test of
// the island removal (docs/layers.md §5). areas holds the areas in force
// (nil: v.Areas); lab must label v (Components). dst is reused when large
// enough.
func (v *LayerView) Touching(areas []uint8, lab *Labels, dst []bool) ([]bool, error) {
	if err := v.check(); err != nil {
		return dst, err
	}
	areas, err := v.viewAreas("Touching", areas)
	if err != nil {
		return dst, err
	}
	if err := lab.check("Touching", v.Index.Len(), true); err != nil {
		return dst, err
	}
	return v.touching(areas, lab, dst), nil
}

// findRoot returns the root of k in the union-find forest parent, halving
// the path on the way.
func findRoot(parent []int32, k int32) int32 {
	for parent[k] != k {
		parent[k] = parent[parent[k]]
		k = parent[k]
	}
	return k
}

// touching is Touching on checked arguments. Spans with LayerBorder are
// skipped.
func (v *LayerView) touching(areas []uint8, lab *Labels, dst []bool) []bool {
	dst = zeroed(dst, lab.Count+1)
	v.markTouching(areas, lab, dst)
	return dst
}

// markTouching sets dst[a] (len lab.Count+1) for every label a that is
// touching; labels with dst[a] already set are not tested.
func (v *LayerView) markTouching(areas []uint8, lab *Labels, dst []bool) {
	links := &v.Links
	for k, id := range lab.IDs {
		if id == NoRegion || int(id) > lab.Count || dst[id] {
			continue
		}
		a := areas[k]
		for d := range 4 {
			if j := links.To(k, d); j >= 0 {
				if b := areas[j]; b != voxel.AreaNull && b != a {
					dst[id] = true
					break
				}
			}
		}
	}
}

// markRing sets keep[a] (len lab.Count+1) for every label a with a span in
// the border ring (InBorder).
func (v *LayerView) markRing(lab *Labels, keep []bool) {
	for k, id := range lab.IDs {
		if id != NoRegion && int(id) <= lab.Count && !keep[id] && v.InBorder(k) {
			keep[id] = true
		}
	}
}

// DropIslands removes the small islands from a labelling made by
// Components (docs/layers.md §5): a label with fewer than minAreaCells spans
// (Size), none of them in the border ring (InBorder) and none linking to a
// walkable span of another area (Touching), is dropped, its spans set to
// NoRegion. A component reaching the ring is kept whatever its size, as the
// island removal of the other partitions keeps a region touching the border
// (docs/regions.md §5.3): its size inside this tile says nothing of its
// size across tiles. The labels left are renumbered
// 1..Count keeping their order (so still in the order of their first span),
// with their First and Size. areas holds the areas in force (nil: v.Areas).
// It returns the number of labels dropped; on an error lab is unchanged.
func (v *LayerView) DropIslands(areas []uint8, lab *Labels, minAreaCells int) (dropped int, err error) {
	if err := v.check(); err != nil {
		return 0, err
	}
	areas, err = v.viewAreas("DropIslands", areas)
	if err != nil {
		return 0, err
	}
	if err := lab.check("DropIslands", v.Index.Len(), false); err != nil {
		return 0, err
	}
	if minAreaCells < 0 {
		return 0, fmt.Errorf("region: DropIslands: minAreaCells %d, want >= 0", minAreaCells)
	}
	return v.dropIslands(areas, lab, minAreaCells), nil
}

// dropIslands is DropIslands on checked arguments.
func (v *LayerView) dropIslands(areas []uint8, lab *Labels, minAreaCells int) int {
	// Only small labels need the touching test: keep starts true for the
	// others, which markTouching then skips.
	keep := grow(lab.keep, lab.Count+1)
	lab.keep = keep
	keep[0] = false
	small := 0
	for a := 1; a <= lab.Count; a++ {
		keep[a] = int(lab.Size[a]) >= minAreaCells
		if !keep[a] {
			small++
		}
	}
	if small > 0 {
		v.markRing(lab, keep)
		v.markTouching(areas, lab, keep)
	}
	before := lab.Count
	return before - lab.compact(keep)
}

// JoinBorder makes the border region of a labelling (docs/layers.md §6):
// every span of the view in the border ring (InBorder) with a label gets
// LayerBorder, and the labels that keep no span outside the ring are
// removed; the labels left are renumbered 1..Count keeping their order, with
// the First and Size of their component (a first span may be a border span
// now). It returns the number of labels left; on an error lab is unchanged.
func (v *LayerView) JoinBorder(lab *Labels) (int, error) {
	if err := v.check(); err != nil {
		return 0, err
	}
	if err := lab.check("JoinBorder", v.Index.Len(), true); err != nil {
		return 0, err
	}
	return v.joinBorder(lab), nil
}

// joinBorder is JoinBorder on checked arguments.
func (v *LayerView) joinBorder(lab *Labels) int {
	keep := zeroed(lab.keep, lab.Count+1)
	lab.keep = keep
	for k, id := range lab.IDs {
		if id == NoRegion || id == LayerBorder {
			continue
		}
		if v.InBorder(k) {
			lab.IDs[k] = LayerBorder
		} else {
			keep[id] = true
		}
	}
	return lab.compact(keep)
}

// compact keeps the labels a with keep[a] (1..Count), renumbering them in
// order; the spans of the others get NoRegion. LayerBorder stays. It
// returns the new Count.
func (lab *Labels) compact(keep []bool) int {
	remap := grow(lab.remap, lab.Count+1)
	lab.remap = remap
	remap[0] = NoRegion
	next := 0
	for a := 1; a <= lab.Count; a++ {
		if !keep[a] {
			remap[a] = NoRegion
			continue
		}
		next++
		remap[a] = uint16(next)
		lab.First[next] = lab.First[a]
		lab.Size[next] = lab.Size[a]
	}
	if next == lab.Count {
		return next
	}
	for k, id := range lab.IDs {
		if id != LayerBorder {
			lab.IDs[k] = remap[id]
		}
	}
	lab.First, lab.Size, lab.Count = lab.First[:next+1], lab.Size[:next+1], next
	return next
}

// Regions partitions the view into its regions (docs/layers.md §4-§6):
// Components, then DropIslands with minAreaCells, then JoinBorder. In lab,
// IDs holds each span's region (NoRegion, 1..Count in the order of their
// first span, or LayerBorder) and First and Size each region's first span
// and the spans of its component. areas holds the areas in force (nil:
// v.Areas). Invalid arguments are reported with an error naming the value.
func (v *LayerView) Regions(areas []uint8, minAreaCells int, lab *Labels) error {
	if minAreaCells < 0 {
		return fmt.Errorf("region: Regions: minAreaCells %d, want >= 0", minAreaCells)
	}
	if lab == nil {
		return fmt.Errorf("region: Regions: nil labels")
	}
	if err := v.check(); err != nil {
		return err
	}
	areas, err := v.viewAreas("Regions", areas)
	if err != nil {
		return err
	}
	return v.regions(areas, minAreaCells, lab)
}

// regions is Regions on checked arguments.
func (v *LayerView) regions(areas []uint8, minAreaCells int, lab *Labels) error {
	if err := v.components(areas, lab); err != nil {
		return err
	}
	v.dropIslands(areas, lab, minAreaCells)
	v.joinBorder(lab)
	return nil
}
