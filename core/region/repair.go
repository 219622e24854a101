package region

import (
	"fmt"
	"slices"

	"navviz/core/voxel"
	"navviz/internal/bytediff"
)

// The region half of the layer repair of build3d-runtime.md ("Repairing a
// layer", docs/tilecache.md §11): when a rebuild of a layer only removes
// spans (sets walkable spans to area 0), the regions of the layer are those
// of the first build with the removed spans taken out, provided the
// preconditions below hold; RepairBase.Repair checks them and gives the new
// region ids without labelling the layer again.

// RepairBase is what the repair of a layer's regions keeps from the first
// build: the layer, the areas it was built from, its regions, and the
// components the island removal kept with their sizes, first spans and
// regions. Make it with LayerView.NewRepairBase (the zero value repairs
// nothing: Repair returns an error); it is read-only afterwards and may be
// shared by any number of repairs (each with its own RegionRepair).
type RepairBase struct {
	view    *LayerView // not copied: must not change while the base is used
	areas   []uint8    // the first build's areas, one per view span (not copied)
	minArea int        // the island removal's minimum size
	// regions is the layer's partition (what LayerView.Regions gives).
	regions Labels
	// comps labels the components the island removal kept, before the
	// border region is joined (Components then DropIslands).
	comps Labels
	// inner[c] is the number of spans of component c outside the border
	// ring, compRegion[c] its region id (NoRegion when inner[c] is 0).
	inner      []int32
	compRegion []uint16
	mutual     bool // LinksMutual
}

// View returns the layer the base was made from.
func (b *RepairBase) View() *LayerView {
	if b == nil {
		return nil
	}
	return b.view
}

// Areas returns the first build's areas the base was made from, one per
// view span (read-only).
func (b *RepairBase) Areas() []uint8 {
	if b == nil {
		return nil
	}
	return b.areas
}

// MinAreaCells returns the island removal's minimum size.
func (b *RepairBase) MinAreaCells() int {
	if b == nil {
		return 0
	}
	return b.minArea
}

// Regions returns the layer's partition, what LayerView.Regions gives:
// IDs, Count and each region's First and Size (those of its component, ring
// spans included). Read-only.
func (b *RepairBase) Regions() *Labels {
	if b == nil {
		return nil
	}
	return &b.regions
}

// Components returns the components the island removal kept, before the
// border region is joined (LayerView.Components then DropIslands): IDs[k]
// is the component of span k (0: none), numbered in the order of their
// first span, with First and Size. Read-only.
func (b *RepairBase) Components() *Labels {
	if b == nil {
		return nil
	}
	return &b.comps
}

// ComponentRegion returns the region id of component c (NoRegion when the
// component lies in the border ring only, or c is out of range).
func (b *RepairBase) ComponentRegion(c int) uint16 {
	if b == nil || c < 1 || c >= len(b.compRegion) {
		return NoRegion
	}
	return b.compRegion[c]
}

// Mutual reports whether every link of the view has its reverse
// (LinksMutual), which a repair needs.
func (b *RepairBase) Mutual() bool {
	if b == nil {
		return false
	}
	return b.mutual
}

// LinksMutual reports whether every link of the view has its reverse: when
// span k links to span j in direction d, j links to k in direction d+2
// (mod 4). The components, the contour walk and the repair's searches rely
// on it; it holds on every tile of the test levels (docs/layers.md §4). The
// view must be valid (false otherwise).
func (v *LayerView) LinksMutual() bool {
	if v.check() != nil {
		return false
	}
	links := &v.Links
	for k := range v.Len() {
		for d := range 4 {
			if j := links.To(k, d); j >= 0 && links.To(int(j), (d+2)&3) != int32(k) {
				return false
			}
		}
	}
	return true
}

// NewRepairBase partitions the view as Regions does (areas: the first
// build's areas, one per span; nil means v.Areas; minAreaCells the island
// removal's minimum) and returns what a repair keeps of it. The view is
// validated (Validate); areas is kept, not copied, and neither may change
// while the base is in use. Invalid arguments give an error naming the
// value.
func (v *LayerView) NewRepairBase(areas []uint8, minAreaCells int) (*RepairBase, error) {
	if minAreaCells < 0 {
		return nil, fmt.Errorf("region: NewRepairBase: minAreaCells %d, want >= 0", minAreaCells)
	}
	if err := v.Validate(); err != nil {
		return nil, err
	}
	areas, err := v.viewAreas("NewRepairBase", areas)
	if err != nil {
		return nil, err
	}
	b := &RepairBase{view: v, areas: areas, minArea: minAreaCells, mutual: v.LinksMutual()}
	if err := v.components(areas, &b.comps); err != nil {
		return nil, err
	}
	v.dropIslands(areas, &b.comps, minAreaCells)
	c := &b.comps
	b.regions = Labels{IDs: slices.Clone(c.IDs), Count: c.Count, First: slices.Clone(c.First), Size: slices.Clone(c.Size)}
	v.joinBorder(&b.regions)
	b.inner = make([]int32, c.Count+1)
	b.compRegion = make([]uint16, c.Count+1)
	for k, id := range c.IDs {
		if id != NoRegion && !v.InBorder(k) {
			b.inner[id]++
			b.compRegion[id] = b.regions.IDs[k]
		}
	}
	// Drop the scratch the labelling left, which the base never uses.
	c.parent, c.remap, c.keep = nil, nil, nil
	return b, nil
}

// RepairReason says why a layer cannot be repaired (which precondition of
// build3d-runtime.md, "Repairing a layer", failed), or RepairOK.
type RepairReason uint8

const (
	// RepairOK: every precondition holds.
	RepairOK RepairReason = iota
	// ReasonVolume, precondition (a): an area volume in force touches the
	// layer. The region repair never gives it; the tile cache does.
	ReasonVolume
	// ReasonAreaChanged, precondition (a): a span's area differs from the
	// first build's other than by becoming 0 (Verdict.Span).
	ReasonAreaChanged
	// ReasonLinks: the layer has a link without its reverse
	// (LayerView.LinksMutual), which the repair's reasoning needs.
	ReasonLinks
	// ReasonShrinks, precondition (b): a component that lost spans keeps
	// fewer than MinAreaCells (Verdict.Size of Verdict.Lost more).
	ReasonShrinks
	// ReasonVanishes, precondition (b): a component lost every span, or a
	// region every span outside the border ring.
	ReasonVanishes
	// ReasonSmallTouched, precondition (b): a span (Verdict.Span) of a
	// component kept only because a span of another area touches it
	// (smaller than MinAreaCells, no span in the border ring) has a removed
	// span next to it.
	ReasonSmallTouched
	// ReasonSplit, precondition (c): the component is in pieces, the
	// search through the whole of it did not reach every ring span.
	ReasonSplit
	// ReasonBudget, precondition (c): the search through the whole
	// component ran out of its budget (Verdict.Visited spans) before
	// reaching every ring span.
	ReasonBudget
	// ReasonOrder, precondition (d): a region whose first span was removed
	// now starts (Verdict.Span) after the first span of the next region.
	ReasonOrder
	numReasons
)

var reasonNames = [numReasons]string{
	"ok", "volume", "area changed", "links not mutual", "shrinks", "vanishes",
	"small region touched", "split", "search budget", "order",
}

// String returns a short name: "ok", "volume", "area changed", "links not
// mutual", "shrinks", "vanishes", "small region touched", "split", "search
// budget" or "order".
func (r RepairReason) String() string {
	if r < numReasons {
		return reasonNames[r]
	}
	return fmt.Sprintf("RepairReason(%d)", uint8(r))
}

// Precondition returns the precondition of build3d-runtime.md the reason
// belongs to: "a", "b", "c", "d", "links" (the repair's own need of mutual
// links) or "" for RepairOK.
func (r RepairReason) Precondition() string {
	switch r {
	case ReasonVolume, ReasonAreaChanged:
		return "a"
	case ReasonLinks:
		return "links"
	case ReasonShrinks, ReasonVanishes, ReasonSmallTouched:
		return "b"
	case ReasonSplit, ReasonBudget:
		return "c"
	case ReasonOrder:
		return "d"
	}
	return ""
}

// NumRepairReasons is the number of RepairReason values (for tables
// indexed by reason).
const NumRepairReasons = int(numReasons)

// Verdict is the outcome of the precondition checks of a layer repair.
type Verdict struct {
	// Reason is RepairOK or the first precondition that failed (checked in
	// the order (a), links, (b), (c), (d); within one, by component).
	Reason RepairReason
	// Comp is the component concerned (Comps label, 0: none) and Region
	// its region id (NoRegion for a component in the border ring only).
	Comp   int
	Region uint16
	// Span is the view span concerned (-1: none): the span whose area
	// changed, the span of a small region next to a removed span, or the
	// new first span of a region out of order.
	Span int32
	// Size is the component's size before the change and Lost the spans it
	// lost (ReasonShrinks, ReasonVanishes).
	Size, Lost int32
	// Visited is the number of spans the connectivity search visited and
	// Budget its budget for the search through the whole component
	// (ReasonSplit, ReasonBudget; also set when the search passed).
	Visited, Budget int
}

// OK reports whether every precondition held.
func (v Verdict) OK() bool { return v.Reason == RepairOK }

// String describes the verdict in one line, e.g. "ok" or "(c) split:
// region 3 (component 4): 812 spans visited, ring not reached".
func (v Verdict) String() string {
	switch v.Reason {
	case RepairOK:
		return "ok"
	case ReasonVolume:
		return "(a) an area volume in force touches the layer"
	case ReasonAreaChanged:
		return fmt.Sprintf("(a) span %d changed to an area other than 0", v.Span)
	case ReasonLinks:
		return "links: the layer has a link without its reverse"
	case ReasonShrinks:
		return fmt.Sprintf("(b) shrinks: region %d (component %d) of %d spans lost %d, below the minimum", v.Region, v.Comp, v.Size, v.Lost)
	case ReasonVanishes:
		return fmt.Sprintf("(b) vanishes: region %d (component %d) of %d spans lost %d, none left inside the tile", v.Region, v.Comp, v.Size, v.Lost)
	case ReasonSmallTouched:
		return fmt.Sprintf("(b) small region touched: span %d of region %d (component %d, %d spans, kept only while another area touches it) is next to a removed span",
			v.Span, v.Region, v.Comp, v.Size)
	case ReasonSplit:
		return fmt.Sprintf("(c) split: region %d (component %d): the whole component searched (%d spans), the ring does not hold together", v.Region, v.Comp, v.Visited)
	case ReasonBudget:
		return fmt.Sprintf("(c) search budget: region %d (component %d): %d spans visited, budget %d, the ring not all reached", v.Region, v.Comp, v.Visited, v.Budget)
	case ReasonOrder:
		return fmt.Sprintf("(d) order: region %d now starts at span %d, after the next region's first span", v.Region, v.Span)
	}
	return v.Reason.String()
}

// RegionRepair is the result of RepairBase.Repair, with the memory it
// reuses between calls (the zero value is ready; one per goroutine).
type RegionRepair struct {
	// Removed lists the removed spans (view indices, ascending): walkable
	// in the first build's areas, area 0 now.
	Removed []int32
	// Ring lists the ring spans of every component that lost spans: its
	// walkable spans next to one of its removed spans, by component, each
	// in the order found. Filled as far as the checks got.
	Ring []int32
	// IDs holds the repaired region ids (the first build's with every
	// removed span NoRegion), valid when Verdict.OK().
	IDs []uint16
	// Verdict is the outcome of the precondition checks.
	Verdict Verdict

	gone        []uint32 // per span: stamp when removed
	band        []uint32 // per span: stamp when in the search band
	seen        []uint32 // per span: search stamp when reached by a search
	target      []uint32 // per span: the search stamp of the blob whose ring it is in (connected)
	stamp       uint32
	searchStamp uint32  // the last stamp of seen (nextSearch)
	label       []int32 // per removed span: its provisional blob label (Repair)
	labParent   []int32 // per label: union-find of the labels of one blob, never after the label
	labComp     []uint16
	blob        []int32 // per label: its blob, 0, 1, ... within its component
	blobs       []int32 // per component: its number of blobs
	sub         []int32 // the ring spans of one blob
	lost        []int32 // per component: spans removed
	lostIn      []int32 // per component: spans removed outside the ring
	comps       []int32 // components that lost spans, in the order met
	ringEnd     []int32 // per entry of comps: the end of its ring in Ring
	ringTmp     []int32 // Ring grouped by component (Repair)
	queue       []int32
}

// nextStamp returns a fresh stamp for the per-span marks gone and band of
// n spans (and makes seen n long).
func (r *RegionRepair) nextStamp(n int) uint32 {
	if len(r.gone) < n {
		r.gone, r.band, r.seen, r.target = make([]uint32, n), make([]uint32, n), make([]uint32, n), make([]uint32, n)
		r.label = make([]int32, n)
		r.stamp, r.searchStamp = 0, 0
	}
	r.stamp++
	if r.stamp == 0 {
		clear(r.gone)
		clear(r.band)
		r.stamp = 1
	}
	return r.stamp
}

// nextSearch returns a fresh stamp for seen (one per search or blob
// labelling).
func (r *RegionRepair) nextSearch() uint32 {
	r.searchStamp++
	if r.searchStamp == 0 {
		clear(r.seen)
		clear(r.target)
		r.searchStamp = 1
	}
	return r.searchStamp
}

// Repair checks the preconditions of build3d-runtime.md, "Repairing a
// layer", for the areas in force (one per view span), into r:
//
//	(a) every span keeps its first-build area or becomes 0 (the removed
//	    spans; the tile cache also checks that no area volume touches the
//	    layer);
//	    the view's links are mutual (LinksMutual);
//	(b) no component that lost spans keeps fewer than MinAreaCells or loses
//	    every span (a region: every span outside the ring), and no span of
//	    a component kept only while touching another area (smaller than
//	    MinAreaCells with no span in the border ring; one with a ring span
//	    is kept whatever touches it) is next to a removed span;
//	(c) every component that lost spans is still one piece: its ring (its
//	    walkable spans next to one of its removed spans) holds together,
//	    found by a search from the first ring span through the spans of the
//	    component next to the ring, then, if that did not reach every ring
//	    span, through the whole component with a budget of a quarter of the
//	    layer (at least 256 spans);
//	(d) the regions keep their order: a region whose first span was removed
//	    starts at its first span left, which must come before the next
//	    region's (itself possibly moved).
//
// The checks cover every component the island removal kept, those in the
// border ring only too (their spans keep the border id only while kept).
// When they all hold, r.IDs are the region ids LayerView.Regions gives for
// areas (the first build's with the removed spans NoRegion; First and Size
// aside, which a repair does not need). r.Verdict says which failed
// otherwise. An error (and no verdict) only for wrong sizes.
func (b *RepairBase) Repair(areas []uint8, r *RegionRepair) error {
	if b == nil || b.view == nil || r == nil {
		return fmt.Errorf("region: Repair: nil base, view or result")
	}
	v := b.view
	n := v.Index.Len()
	if len(areas) != n || len(b.areas) != n {
		return fmt.Errorf("region: Repair: %d areas for a layer of %d spans (base of %d)", len(areas), n, len(b.areas))
	}
	r.Removed, r.Ring, r.comps = r.Removed[:0], r.Ring[:0], r.comps[:0]
	r.Verdict = Verdict{Span: -1}
	st := r.nextStamp(n)

	// (a) Only removed spans. Most of a layer is unchanged: only the
	// windows that differ are looked at span by span.
	first := b.areas
	if !bytediff.Windows(areas, first, func(k, end int) bool {
		for ; k < end; k++ {
			if a := areas[k]; a != first[k] {
				if a != voxel.AreaNull {
					r.Verdict.Reason, r.Verdict.Span = ReasonAreaChanged, int32(k)
					return false
				}
				r.Removed = append(r.Removed, int32(k))
				r.gone[k] = st
			}
		}
		return true
	}) {
		return nil
	}
	if !b.mutual {
		r.Verdict.Reason = ReasonLinks
		return nil
	}

	// (b) Sizes.
	comp := b.comps.IDs
	size := b.comps.Size
	if len(r.lost) < b.comps.Count+1 {
		r.lost, r.lostIn, r.blobs = make([]int32, b.comps.Count+1), make([]int32, b.comps.Count+1), make([]int32, b.comps.Count+1)
	}
	links := &v.Links
	fail := func(reason RepairReason, c uint16, span int32) {
		r.Verdict.Reason, r.Verdict.Comp, r.Verdict.Region, r.Verdict.Span = reason, int(c), b.compRegion[c], span
		r.Verdict.Size, r.Verdict.Lost = size[c], r.lost[c]
	}
	defer func() {
		for _, c := range r.comps {
			r.lost[c], r.lostIn[c], r.blobs[c] = 0, 0, 0
		}
	}()
	// The same pass gathers the rings of (c), marked in band: the walkable
	// spans of a removed span's component linked to it, each once; and
	// labels the blobs in one scan: a removed span takes the label of a
	// removed span of its component linked to it and met before it, or a
	// new one; two such spans of different labels make them one blob.
	labParent, labComp := r.labParent[:0], r.labComp[:0]
	for _, k := range r.Removed {
		c := comp[k]
		lk := int32(-1)
		if c != NoRegion {
			if r.lost[c] == 0 {
				r.comps = append(r.comps, int32(c))
			}
			r.lost[c]++
			if !v.InBorder(int(k)) {
				r.lostIn[c]++
			}
		}
		for _, j := range links.Four(int(k)) {
			if j < 0 {
				continue
			}
			if r.gone[j] == st {
				if j < k && comp[j] == c {
					if lj := r.label[j]; lk < 0 {
						lk = lj
					} else if lj != lk {
						joinLabels(labParent, lj, lk)
					}
				}
				continue
			}
			cj := comp[j]
			if cj != NoRegion && b.keptByTouch(cj) {
				r.Ring = r.Ring[:0]
				fail(ReasonSmallTouched, cj, j)
				return nil
			}
			if cj == c && c != NoRegion && r.band[j] != st {
				r.band[j] = st
				r.Ring = append(r.Ring, j)
			}
		}
		if lk < 0 {
			lk = int32(len(labParent))
			labParent, labComp = append(labParent, lk), append(labComp, c)
		}
		r.label[k] = lk
	}
	r.labParent, r.labComp = labParent, labComp
	for _, c32 := range r.comps {
		c := uint16(c32)
		left := size[c] - r.lost[c]
		switch {
		case left == 0 || (b.inner[c] > 0 && b.inner[c] == r.lostIn[c]):
			r.Ring = r.Ring[:0]
			fail(ReasonVanishes, c, -1)
			return nil
		case int(left) < b.minArea:
			r.Ring = r.Ring[:0]
			fail(ReasonShrinks, c, -1)
			return nil
		}
	}
	r.groupRing(comp)

	// (c) Each component that lost spans is one piece. Its blobs first:
	// labels are made in the order of their first span, so numbering the
	// root labels in label order numbers the blobs in the order of their
	// first span; every other label takes its parent's number (an earlier
	// label, numbered already).
	r.blob = slices.Grow(r.blob[:0], len(labParent))[:len(labParent)]
	for l, p := range labParent {
		if c := labComp[l]; p == int32(l) {
			r.blob[l] = r.blobs[c]
			r.blobs[c]++
		} else {
			r.blob[l] = r.blob[p]
		}
	}
	r.blobs[NoRegion] = 0 // the removed spans outside a component, labelled too, never searched
	for i, c32 := range r.comps {
		start := int32(0)
		if i > 0 {
			start = r.ringEnd[i-1]
		}
		if !r.connected(b, uint16(c32), st, r.Ring[start:r.ringEnd[i]]) {
			r.Ring = r.Ring[:r.ringEnd[i]] // as far as the checks got
			return nil
		}
	}

	// (d) Order.
	for _, c32 := range r.comps {
		c := uint16(c32)
		reg := b.compRegion[c]
		if reg == NoRegion || r.gone[b.comps.First[c]] != st || int(reg) == b.regions.Count {
			continue
		}
		f := r.firstLeft(b, c, st)
		next := r.firstLeft(b, comp[b.regions.First[reg+1]], st)
		if f >= next {
			fail(ReasonOrder, c, f)
			return nil
		}
	}

	r.IDs = append(r.IDs[:0], b.regions.IDs...)
	for _, k := range r.Removed {
		r.IDs[k] = NoRegion
	}
	return nil
}

// keptByTouch reports whether component c is kept by the island removal
// only because a span of another area touches it: it is smaller than
// MinAreaCells and has no span in the border ring (a component with a ring
// span is kept whatever touches it, DropIslands).
func (b *RepairBase) keptByTouch(c uint16) bool {
	return int(b.comps.Size[c]) < b.minArea && b.inner[c] == b.comps.Size[c]
}

// firstLeft returns the first span of component c not removed (stamp st).
func (r *RegionRepair) firstLeft(b *RepairBase, c uint16, st uint32) int32 {
	comp := b.comps.IDs
	for k := b.comps.First[c]; int(k) < len(comp); k++ {
		if comp[k] == c && r.gone[k] != st {
			return k
		}
	}
	return int32(len(comp)) // none: (b) rules this out
}

// groupRing puts r.Ring, the rings of every component in the order found,
// component by component in the order of r.comps (each in the order
// found) and sets r.ringEnd. The obstacles of an update reach a few
// components, so one scan of the rings per component is short.
func (r *RegionRepair) groupRing(comp []uint16) {
	r.ringEnd = append(r.ringEnd[:0], int32(len(r.Ring)))
	if len(r.comps) == 1 {
		return
	}
	g := r.ringTmp[:0]
	r.ringEnd = r.ringEnd[:0]
	for _, c := range r.comps {
		for _, j := range r.Ring {
			if int32(comp[j]) == c {
				g = append(g, j)
			}
		}
		r.ringEnd = append(r.ringEnd, int32(len(g)))
	}
	r.Ring, r.ringTmp = g, r.Ring[:0]
}

// connected runs precondition (c) for component c, whose ring is ring
// (marked in band): with the removed spans of c in blobs (pieces linked
// through removed spans of c, numbered by Repair) it, for each
// blob in the order of its first
// removed span, searches from the first span of the blob's ring (the ring
// spans next to the blob), first through the band (the ring and the spans
// of c linked to it), then through all of c with what is left of the
// budget, until every span of the blob's ring is reached. With one blob
// that is the search of the whole ring. It reports whether every blob's
// ring held together, setting r.Verdict otherwise.
//
// Blob by blob is enough: a path through c that crosses removed spans
// enters and leaves each blob it crosses at ring spans of that blob, and
// those are linked outside the removed spans, so c minus its removed spans
// stays connected when every blob's ring does.
func (r *RegionRepair) connected(b *RepairBase, c uint16, st uint32, ring []int32) bool {
	v := b.view
	comp, links := b.comps.IDs, &v.Links
	n := len(comp)
	if len(ring) <= 1 {
		return true // (b) guarantees spans are left; one ring span holds together
	}
	// Widen the band: every span of c linked to a ring span. The ring
	// spans stay marked, so the band is ring ∪ its neighbours in c.
	for _, j := range ring {
		for _, l := range links.Four(int(j)) {
			if l >= 0 && r.gone[l] != st && comp[l] == c {
				r.band[l] = st
			}
		}
	}
	blobs := r.blobs[c]
	budget := max(n/4, 256)
	spent := 0
	for bl := range blobs {
		sub := ring // one blob: every ring span is next to it
		if blobs > 1 {
			sub = r.sub[:0]
			for _, j := range ring {
				if r.nextToBlob(b, c, st, j, bl) {
					sub = append(sub, j)
				}
			}
			r.sub = sub
		}
		if len(sub) <= 1 {
			continue
		}
		tm := r.nextSearch()
		for _, j := range sub {
			r.target[j] = tm
		}
		ok := r.search(b, c, st, sub, tm, budget-spent)
		spent += len(r.queue)
		if !ok {
			r.Verdict.Visited, r.Verdict.Budget = spent, budget
			reason := ReasonSplit
			if spent > budget {
				reason = ReasonBudget
			}
			r.Verdict.Reason, r.Verdict.Comp, r.Verdict.Region = reason, int(c), b.compRegion[c]
			r.Verdict.Size, r.Verdict.Lost = b.comps.Size[c], r.lost[c]
			return false
		}
	}
	r.Verdict.Visited, r.Verdict.Budget = spent, budget
	return true
}

// joinLabels makes labels a and b one blob in the union-find parent (the
// root of each set its first label, so a label's parent is never after it).
func joinLabels(parent []int32, a, b int32) {
	a, b = findRoot(parent, a), findRoot(parent, b)
	if a < b {
		parent[b] = a
	} else if b < a {
		parent[a] = b
	}
}

// nextToBlob reports whether span j of c is linked to a removed span of
// blob bl.
func (r *RegionRepair) nextToBlob(b *RepairBase, c uint16, st uint32, j int32, bl int32) bool {
	comp, links := b.comps.IDs, &b.view.Links
	for _, l := range links.Four(int(j)) {
		if l >= 0 && r.gone[l] == st && comp[l] == c && r.blob[r.label[l]] == bl {
			return true
		}
	}
	return false
}

// search is one blob's connectivity search (see connected): from ring[0],
// in two passes over the same queue (r.queue), the first through the band
// only, the second, when the first did not reach every span of ring, on
// from everything the first reached to any span of c not removed until the
// queue holds more than budget spans. The spans of ring are those with
// r.target tm. It reports whether every span of ring was reached.
func (r *RegionRepair) search(b *RepairBase, c uint16, st uint32, ring []int32, tm uint32, budget int) bool {
	comp, links := b.comps.IDs, &b.view.Links
	mark := r.nextSearch()
	q := append(r.queue[:0], ring[0])
	r.seen[ring[0]] = mark
	reached := 1
	pass := func(banded bool, budget int) bool {
		for h := 0; h < len(q); h++ {
			if !banded && len(q) > budget {
				return false
			}
			k := q[h]
			for _, l := range links.Four(int(k)) {
				if l < 0 || r.seen[l] == mark {
					continue
				}
				// A band span is a span of some component that lost spans,
				// never a removed one.
				if banded && (r.band[l] != st || comp[l] != c) || !banded && (r.gone[l] == st || comp[l] != c) {
					continue
				}
				r.seen[l] = mark
				q = append(q, l)
				if r.target[l] == tm {
					reached++
					if reached == len(ring) {
						return true
					}
				}
			}
		}
		return false
	}
	ok := pass(true, 0)
	if !ok {
		ok = pass(false, budget)
	}
	r.queue = q
	return ok
}
