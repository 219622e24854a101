package contour

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"

	"navviz/core/region"
)

// The contour half of the layer repair of build3d-runtime.md ("Repairing a
// layer", docs/tilecache.md §11, docs/contours.md §8): once the region
// half (region.RepairBase.Repair) has shown that the regions of a layer are
// the first build's with some spans removed, only the loops that pass next
// to a removed span change. They are traced again from the edges that look
// at a removed span; every other loop, and every region none of whose loops
// changed, is the first build's.

// RepairBase is what the repair of a layer's contours keeps from the first
// build: the layer, the region ids its contours were traced with, the
// contours, the edge flags before the trace consumed them and the loop
// owning every edge. Make it with NewRepairBase (the zero value repairs
// nothing: Repair returns an error); it is read-only afterwards and may be
// shared by any number of repairs (each with its own LayerRepair).
type RepairBase struct {
	view   *region.LayerView // not copied: must not change while the base is used
	ids    []uint16          // the first build's region ids (not copied)
	set    *Set              // the first build's contours, shared with every repaired set
	flags  []uint8           // LayerEdgeFlags of ids, before any trace
	owners loopOwners        // set.EdgeOwners, narrow: per edge key, the loop holding it
	mutual bool              // every link of the view has its reverse (reuse)
}

// reuse gives a repair's walk the first build's raw vertex of an edge
// whose surroundings did not change (Repair).
type reuse struct {
	near     []uint32 // per span: stamp when a removed span is near
	stamp    uint32
	owners   *loopOwners
	loops    []Loop // the first build's
	cur, pos int    // the loop and position taken last
	// dead is the repair's: a loop a vertex is taken from loses that edge
	// to the new loop (Repair step 3), marked here since the owner is
	// known; emitted lists the walk's other keys, whose owners step 3
	// looks up.
	dead    []bool
	emitted []int32
}

// vertex returns the first build's raw vertex of edge key of span i, false
// when i is near a removed span or no first-build loop holds the edge.
func (u *reuse) vertex(i, key int) (Vertex, bool) {
	if u.near[i] == u.stamp {
		return Vertex{}, false
	}
	o := u.owners.at(key)
	if o < 0 {
		return Vertex{}, false
	}
	keys := u.loops[o].Keys
	m := u.pos + 1 // a walk along the loop takes its keys in order
	if m == len(keys) {
		m = 0
	}
	if o != u.cur || m >= len(keys) || keys[m] != int32(key) {
		if m = slices.Index(keys, int32(key)); m < 0 {
			return Vertex{}, false
		}
	}
	u.cur, u.pos = o, m
	u.dead[o] = true
	return u.loops[o].Raw[m], true
}

// follow appends to l the keys and raw vertices of the first build's loop
// after the one vertex took last, up to the first whose span is near a
// removed span, and returns the last key appended (-1: none). It reports
// closed when that key is start: the walk is back where it began (start,
// an edge looking at a removed span, is always near one). The flags of
// the keys copied are left set: a walk never comes back to an edge of its
// own loop before it closes, no other loop's walk reaches them, and the
// trace starts of Repair are edges of spans near a removed span, which
// follow never copies; so nothing reads them again. Why the walk goes on as the
// first build's did: from an edge of a span i with no removed span one
// link or a diagonal away, the walk's next edge is decided by the flags
// of the edges meeting at the edge's end corner, edges of i and of the
// spans one link or a diagonal from it, whose neighbours across those
// edges are among the same spans; none is removed, so those flags are the
// first build's (ids and areas change only on removed spans), and so is
// the next edge. Its vertex is reused when its span is not near either.
func (u *reuse) follow(l *Loop, start int32) (last int32, closed bool) {
	lp := &u.loops[u.cur]
	keys, raw := lp.Keys, lp.Raw
	// Count the keys after u.pos to take, then append the run in one or
	// two copies (it may wrap past the loop's end).
	taken := 0
	for m := u.pos; taken < len(keys)-1; taken++ {
		if m++; m == len(keys) {
			m = 0
		}
		if key := keys[m]; u.near[key>>2] == u.stamp {
			closed = key == start
			break
		}
	}
	if taken == 0 {
		return -1, closed
	}
	from := u.pos + 1
	if from == len(keys) {
		from = 0
	}
	end := min(from+taken, len(keys))
	l.Raw = append(l.Raw, raw[from:end]...)
	l.Keys = append(l.Keys, keys[from:end]...)
	if rest := taken - (end - from); rest > 0 {
		l.Raw = append(l.Raw, raw[:rest]...)
		l.Keys = append(l.Keys, keys[:rest]...)
	}
	if u.pos = from + taken - 1; u.pos >= len(keys) {
		u.pos -= len(keys)
	}
	return keys[u.pos], closed
}

// loopOwners is Set.EdgeOwners stored in the fewest bytes the number of
// loops allows (a repair base is kept per layer, the owners are most of
// it): per edge key, one plus the index of the loop holding the edge (0:
// none) in width bytes, little-endian: 1 for fewer than 255 loops, 2 for
// fewer than 65535, else 4.
type loopOwners struct {
	width int
	keys  int
	b     []byte
}

// newLoopOwners returns the owners of set's loops' edge keys in a layer
// of spanCount spans (keys out of range are ignored, as EdgeOwners does).
func newLoopOwners(set *Set, spanCount int) loopOwners {
	o := loopOwners{width: 4, keys: 4 * max(spanCount, 0)}
	switch nl := len(set.Loops); {
	case nl < 0xff:
		o.width = 1
	case nl < 0xffff:
		o.width = 2
	}
	o.b = make([]byte, o.width*o.keys)
	for li := range set.Loops {
		v := uint32(li) + 1
		for _, k := range set.Loops[li].Keys {
			if k < 0 || int(k) >= o.keys {
				continue
			}
			i := o.width * int(k)
			switch o.width {
			case 1:
				o.b[i] = uint8(v)
			case 2:
				binary.LittleEndian.PutUint16(o.b[i:], uint16(v))
			default:
				binary.LittleEndian.PutUint32(o.b[i:], v)
			}
		}
	}
	return o
}

// at returns the loop holding edge key (0 <= key < o.keys), or -1.
func (o *loopOwners) at(key int) int {
	i := o.width * key
	switch o.width {
	case 1:
		return int(o.b[i]) - 1
	case 2:
		return int(binary.LittleEndian.Uint16(o.b[i:])) - 1
	}
	return int(binary.LittleEndian.Uint32(o.b[i:])) - 1
}

// none reports whether no loop holds an edge of span k (keys 4k..4k+3,
// 0 <= k < o.keys/4), reading them at once: most removed spans lie
// inside their region.
func (o *loopOwners) none(k int) bool {
	i := 4 * o.width * k
	switch o.width {
	case 1:
		return binary.LittleEndian.Uint32(o.b[i:]) == 0
	case 2:
		return binary.LittleEndian.Uint64(o.b[i:]) == 0
	}
	return binary.LittleEndian.Uint64(o.b[i:]) == 0 && binary.LittleEndian.Uint64(o.b[i+8:]) == 0
}

// View returns the layer the base was made from.
func (b *RepairBase) View() *region.LayerView {
	if b == nil {
		return nil
	}
	return b.view
}

// Set returns the first build's contours of the layer (read-only; a
// repaired set shares its unchanged loops and contours).
func (b *RepairBase) Set() *Set {
	if b == nil {
		return nil
	}
	return b.set
}

// Owner returns the index in Set().Loops of the loop holding edge key
// (span × 4 + direction), or -1 (no loop, or a key out of range).
func (b *RepairBase) Owner(key int) int {
	if b == nil || key < 0 || key >= b.owners.keys {
		return -1
	}
	return b.owners.at(key)
}

// NewRepairBase returns the repair base of a layer: v the view, ids the
// region ids the set was traced with (one per view span) and set the
// layer's contours as BuildLayer made them (loops rotated to their smallest
// key and ordered by it). It checks the view (region.LayerView.Validate),
// the sizes, that the set's grid is the view's and that its loops and
// contours are consistent; ids and set are kept, not copied.
func NewRepairBase(v *region.LayerView, ids []uint16, set *Set) (*RepairBase, error) {
	if set == nil {
		return nil, fmt.Errorf("contour: NewRepairBase: nil set")
	}
	if _, err := checkLayer(v, nil, ids); err != nil {
		return nil, err
	}
	if set.Width != v.Width || set.Height != v.Height || set.Border != v.BorderCells {
		return nil, fmt.Errorf("contour: NewRepairBase: set of %d x %d cells with border %d, layer view of %d x %d with border %d",
			set.Width, set.Height, set.Border, v.Width, v.Height, v.BorderCells)
	}
	n := v.Len()
	prev := int32(-1)
	for li := range set.Loops {
		l := &set.Loops[li]
		if len(l.Keys) == 0 || len(l.Keys) != len(l.Raw) {
			return nil, fmt.Errorf("contour: NewRepairBase: loop %d has %d keys and %d raw vertices", li, len(l.Keys), len(l.Raw))
		}
		k0 := l.Keys[0]
		for _, k := range l.Keys {
			if k < 0 || int(k) >= 4*n || k < k0 {
				return nil, fmt.Errorf("contour: NewRepairBase: loop %d has key %d, want %d..%d and not below its first key %d", li, k, 0, 4*n-1, k0)
			}
		}
		if k0 <= prev {
			return nil, fmt.Errorf("contour: NewRepairBase: loop %d starts at key %d, not after the loop before it (%d)", li, k0, prev)
		}
		prev = k0
	}
	for ci := range set.Contours {
		c := &set.Contours[ci]
		if len(c.Loops) == 0 {
			return nil, fmt.Errorf("contour: NewRepairBase: contour %d has no loop", ci)
		}
		for _, li := range c.Loops {
			if li < 0 || int(li) >= len(set.Loops) {
				return nil, fmt.Errorf("contour: NewRepairBase: contour %d names loop %d of %d", ci, li, len(set.Loops))
			}
		}
	}
	return &RepairBase{view: v, ids: ids, set: set, flags: layerFlags(v, ids, nil), owners: newLoopOwners(set, n), mutual: v.LinksMutual()}, nil
}

// LayerRepair is the result of RepairBase.Repair, with the memory it reuses
// between calls (the zero value is ready; one per goroutine).
type LayerRepair struct {
	// Set is the repaired contour set: equal to BuildLayer's on the same
	// areas and ids. Its unchanged loops and contours share memory with the
	// base's set; the set itself and its Loops and Contours slices are
	// r's memory, valid until the next Repair into r.
	Set *Set
	// NewLoops lists the indices in Set.Loops of the loops traced anew,
	// ascending.
	NewLoops []int32
	// Gone lists the indices in the base's Set.Loops of the first build's
	// loops that changed (replaced by new ones), ascending.
	Gone []int32
	// Regions lists the regions whose contours were made again from their
	// surviving and new loops, ascending; every other region kept the
	// first build's contours.
	Regions []uint16
	// Starts is the number of edges that looked at a removed span and
	// started (or would have started, had an earlier trace not taken them)
	// a trace.
	Starts int

	flags   []uint8
	gone    []uint32 // per span: stamp when removed
	near    []uint32 // per span: stamp when a removed span is one link or a diagonal away
	reuse   reuse
	stamp   uint32
	dead    []bool  // per base loop: gone
	remap   []int32 // per base loop: index in the new set
	regMark []bool  // per region id: contours remade
	starts  []int32
	walk    Loop
	idx     []int32
	sel     []int32
	// The memory of Set, reused.
	set      Set
	loops    []Loop
	contours []Contour
	kept     []int32
	sub      []Loop
	fresh    []Loop
	// The new loops' vertices and keys and the joined contours' memory,
	// reused: the Set of one Repair lives in them.
	verts []Vertex
	keys  []int32
	join  joinScratch
}

// Repair repairs the layer's contours (build3d-runtime.md, "Repairing a
// layer", steps 2 and 3) into r. areas are the areas in force and ids the
// region ids (one per view span each), which must be the base's areas and
// ids with the removed spans set to 0 and region.NoRegion, as
// region.RepairBase.Repair gives them when its preconditions hold; removed
// lists the removed spans (view indices).
//
//  1. The edge flags are the first build's, with those of the removed spans
//     and of their linked spans computed again.
//  2. Every edge of a span not removed that looks at a removed span and is
//     flagged starts a trace (in edge-key order, skipping an edge an
//     earlier trace took): the same walk as BuildLayer, rotated to its
//     smallest key and simplified with the set's parameters.
//  3. A first-build loop is gone when it holds an edge of a new loop, an
//     edge of a removed span, or an edge no longer flagged (a span left
//     with four boundary edges is never traced).
//  4. A region with no new and no gone loop keeps its contours. Every other
//     one takes its surviving loops (their simplified forms kept) and its
//     new loops and joins them (JoinLoops).
//  5. The set's loops are the surviving and new loops ordered by smallest
//     key, its contours ordered by the smallest key of their first loop.
//
// Errors only for sizes or indices out of range, or a walk that does not
// close (inconsistent input).
func (b *RepairBase) Repair(areas []uint8, ids []uint16, removed []int32, r *LayerRepair) error {
	if b == nil || b.view == nil || b.set == nil || r == nil {
		return fmt.Errorf("contour: Repair: nil base, view, set or result")
	}
	v := b.view
	n := v.Len()
	if len(areas) != n || len(ids) != n || len(b.flags) != n || b.owners.keys != 4*n {
		return fmt.Errorf("contour: Repair: %d areas and %d ids for a layer of %d spans", len(areas), len(ids), n)
	}
	for _, k := range removed {
		if k < 0 || int(k) >= n {
			return fmt.Errorf("contour: Repair: removed span %d out of range 0..%d", k, n-1)
		}
	}
	base := b.set
	links, owners := &v.Links, &b.owners
	if len(r.gone) < n {
		r.gone, r.near, r.stamp = make([]uint32, n), make([]uint32, n), 0
	}
	r.stamp++
	if r.stamp == 0 {
		clear(r.gone)
		clear(r.near)
		r.stamp = 1
	}
	st := r.stamp
	nl := len(base.Loops)
	r.dead = slices.Grow(r.dead[:0], nl)[:nl]
	clear(r.dead)

	// 1. Flags, and the loops that lose an edge. 2. New loops, from every
	// flagged edge that looks at a removed span. One pass over the links of
	// the removed spans does both (a linked span's flags depend on the links
	// and ids only: computing them at each visit gives the same value) and,
	// with mutual links, stamps the spans near a removed span (below).
	flags := append(r.flags[:0], b.flags...)
	r.flags = flags
	for _, k := range removed {
		r.gone[k] = st
		flags[k] = 0
		if owners.none(int(k)) {
			continue
		}
		for d := range 4 {
			if o := owners.at(4*int(k) + d); o >= 0 {
				r.dead[o] = true
			}
		}
	}
	// The walk takes the raw vertex of an edge of a span with no removed
	// span around it from the first build's loop holding the edge: every
	// span the corner test and the edge's neighbour read is one link or a
	// diagonal (two links) away, and with mutual links marking those of
	// every removed span finds them all. The ids and areas there are the
	// first build's, so is the vertex.
	mutual, near := b.mutual, r.near
	starts := r.starts[:0]
	for _, k := range removed {
		if mutual {
			near[k] = st
		}
		for d, lj := range links.Four(int(k)) {
			j := int(lj)
			if j < 0 || r.gone[j] == st {
				continue // a removed j marks its own neighbours near
			}
			if mutual {
				near[j] = st
				if jj := links.To(j, (d+1)&3); jj >= 0 {
					near[jj] = st
				}
				if jj := links.To(j, (d+3)&3); jj >= 0 {
					near[jj] = st
				}
			}
			f := spanFlags(links, ids, j)
			for lost := b.flags[j] &^ f; lost != 0; lost &= lost - 1 {
				if o := owners.at(4*j + bits.TrailingZeros8(lost)); o >= 0 {
					r.dead[o] = true
				}
			}
			flags[j] = f
			if e := (d + 2) & 3; f&(1<<e) != 0 {
				starts = append(starts, int32(4*j+e))
			}
		}
	}
	slices.Sort(starts)
	r.starts = starts
	r.Starts = len(starts)
	t := tracer{g: &spanGraph{view: v}, ids: ids, areas: areas, flags: flags}
	if mutual {
		r.reuse = reuse{near: r.near, stamp: st, owners: owners, loops: base.Loops, cur: -1, dead: r.dead, emitted: r.reuse.emitted[:0]}
		t.reuse = &r.reuse
	}
	fresh := r.fresh[:0]
	verts, keys := r.verts[:0], r.keys[:0]
	for _, s := range starts {
		j, e := int(s>>2), int(s&3)
		if flags[j]&(1<<e) == 0 {
			continue
		}
		if err := t.walk(int(v.X[j]), int(v.Z[j]), j, e, &r.walk); err != nil {
			return err
		}
		RotateLoop(&r.walk)
		// Raw, keys and simplified vertices go to the ends of r's
		// arrays (a slice made before the arrays grow keeps its memory).
		l := Loop{Region: r.walk.Region, Area: r.walk.Area}
		vs, ks := len(verts), len(keys)
		verts, keys = append(verts, r.walk.Raw...), append(keys, r.walk.Keys...)
		l.Raw, l.Keys = verts[vs:len(verts):len(verts)], keys[ks:len(keys):len(keys)]
		vs = len(verts)
		verts = simplify(l.Raw, l.Keys, base.MaxErrorCells, base.MaxEdgeLenCells, base.Flags, &r.idx, verts)
		l.Simplified = verts[vs:len(verts):len(verts)]
		// 3. A first-build loop holding an edge of the new loop is gone
		// (those the walk took vertices from are marked already).
		rest := l.Keys
		if t.reuse != nil {
			// The next walk refills emitted; rest is read before it.
			rest, r.reuse.emitted = r.reuse.emitted, r.reuse.emitted[:0]
		}
		for _, key := range rest {
			if o := owners.at(int(key)); o >= 0 {
				r.dead[o] = true
			}
		}
		fresh = append(fresh, l)
	}
	r.fresh, r.verts, r.keys = fresh, verts, keys
	slices.SortFunc(fresh, func(a, b Loop) int { return cmp.Compare(a.Keys[0], b.Keys[0]) })

	// 4. The regions whose contours are made again.
	if r.regMark == nil {
		r.regMark = make([]bool, region.BorderFlag)
	}
	regs := r.Regions[:0]
	mark := func(reg uint16) {
		if int(reg) < len(r.regMark) && !r.regMark[reg] {
			r.regMark[reg] = true
			regs = append(regs, reg)
		}
	}
	r.Gone = r.Gone[:0]
	for o, dead := range r.dead {
		if dead {
			r.Gone = append(r.Gone, int32(o))
			mark(base.Loops[o].Region)
		}
	}
	for i := range fresh {
		mark(fresh[i].Region)
	}
	slices.Sort(regs)
	r.Regions = regs
	defer func() {
		for _, reg := range regs {
			r.regMark[reg] = false
		}
	}()

	// 5. The loops: surviving and new, by smallest key.
	loops := slices.Grow(r.loops[:0], nl-len(r.Gone)+len(fresh))
	remap := slices.Grow(r.remap[:0], nl)[:nl]
	r.remap = remap
	r.NewLoops = r.NewLoops[:0]
	for o, f := 0, 0; o < nl || f < len(fresh); {
		if o < nl && r.dead[o] {
			remap[o] = -1
			o++
			continue
		}
		if f == len(fresh) || (o < nl && base.Loops[o].Keys[0] < fresh[f].Keys[0]) {
			remap[o] = int32(len(loops))
			loops = append(loops, base.Loops[o])
			o++
		} else {
			r.NewLoops = append(r.NewLoops, int32(len(loops)))
			loops = append(loops, fresh[f])
			f++
		}
	}

	// The contours: kept ones with their loops renumbered, then those of
	// the regions made again, all by their first loop.
	contours := slices.Grow(r.contours[:0], len(base.Contours)+len(fresh))
	nk := 0
	for ci := range base.Contours {
		if c := &base.Contours[ci]; int(c.Region) >= len(r.regMark) || !r.regMark[c.Region] {
			nk += len(c.Loops)
		}
	}
	kept := slices.Grow(r.kept[:0], nk)
	for ci := range base.Contours {
		c := base.Contours[ci]
		if int(c.Region) < len(r.regMark) && r.regMark[c.Region] {
			continue
		}
		s := len(kept)
		for _, li := range c.Loops {
			kept = append(kept, remap[li])
		}
		c.Loops = kept[s:len(kept):len(kept)]
		contours = append(contours, c)
	}
	if len(regs) > 0 {
		sel := r.sel[:0]
		for i := range loops {
			if reg := loops[i].Region; int(reg) < len(r.regMark) && r.regMark[reg] {
				sel = append(sel, int32(i))
			}
		}
		// By region, then loop order.
		slices.SortStableFunc(sel, func(a, b int32) int { return cmp.Compare(loops[a].Region, loops[b].Region) })
		r.sel = sel
		r.join.reset()
		for g := 0; g < len(sel); {
			e := g
			for e < len(sel) && loops[sel[e]].Region == loops[sel[g]].Region {
				e++
			}
			sub := r.sub[:0]
			for _, li := range sel[g:e] {
				sub = append(sub, loops[li])
			}
			r.sub = sub
			for _, c := range r.join.joinLoops(sub) {
				for i, li := range c.Loops {
					c.Loops[i] = sel[g+int(li)]
				}
				contours = append(contours, c)
			}
			g = e
		}
		slices.SortFunc(contours, func(a, b Contour) int { return cmp.Compare(a.Loops[0], b.Loops[0]) })
	}

	r.loops, r.contours, r.kept = loops, contours, kept
	r.set = *base
	r.set.Loops, r.set.Contours = loops, contours
	r.Set = &r.set
	return nil
}
