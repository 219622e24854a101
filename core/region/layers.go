package region

import (
	"fmt"
	"slices"
	"sync"

	"navviz/core/voxel"
)

// The layer partition (PartitionType.Layers) of build3d-runtime.md, as
// docs/layers.md specifies it: the spans of a tile are split into height
// layers, and each layer is partitioned on its own into the connected
// components of LayerView.Components (components.go).

// MaxLayers is the largest number of height layers a tile may have: layer
// numbers are 0..MaxLayers-1 and fit a uint8 below 0xff. A split that would
// give more returns an error.
const MaxLayers = 255

// LayerBorder is the region id of the one border region of the layer
// partition: every border-ring span of a kept component of any layer takes
// it (see LayerView.JoinBorder).
const LayerBorder = BorderFlag | 1

// layerHeightRangeRows bounds the floor rows a layer may span: regions are
// not put on one layer when their floor rows would then range over this many
// rows or more (Recast keeps a layer's heights in a byte).
const layerHeightRangeRows = 255

// layerMergeFactor times the walkable height is the vertical gap (in rows)
// across which two layers may still be merged (Recast's walkableHeight*4).
const layerMergeFactor = 4

// LayerView is one height layer of a tile: its spans in compact-heightfield
// order (column order x + z*Width, bottom up in a column), with their column,
// floor row, base area and the links between spans of this layer. A link to
// a span of another layer is dropped (-1), so the layer sees the other layer
// as a wall. Span k of the view is span Index.At(k) of the compact heightfield
// it was split from; every slice but Links has one entry per span.
//
// SplitLayers makes the views of a tile. The methods check a view before
// use (a view built or changed by hand gets an error, never a panic, except
// InBorder, an accessor); Validate checks it fully.
type LayerView struct {
	// Layer is the layer number (0..MaxLayers-1).
	Layer int
	// Width and Height are the grid's columns along x and z, BorderCells
	// the width of its border ring (the borderCells of the split).
	Width, Height, BorderCells int
	// Index maps each span to its compact-heightfield span (ascending).
	Index SpanIndex
	// X and Z hold each span's column.
	X, Z []uint16
	// Y holds each span's floor row (voxel.CompactSpan.Y).
	Y []uint16
	// Areas holds each span's area at the split (the first-build areas).
	Areas []uint8
	// Links holds the view index of the span linked from span k in
	// direction d (0..3: −x, +z, +x, −z) when that span is in this layer,
	// else -1: Links.To(k, d).
	Links LayerLinks
}

// Len returns the number of spans of the view.
func (v *LayerView) Len() int {
	if v == nil {
		return 0
	}
	return v.Index.Len()
}

// GatherAreas appends areas[Index.At(k)] for every span k of the view to dst:
// per-span values of the compact heightfield (such as the areas in force)
// in the view's order. areas must hold every span of Index.
func (v *LayerView) GatherAreas(dst, areas []uint8) []uint8 {
	if v == nil {
		return dst
	}
	n := len(dst)
	dst = slices.Grow(dst, v.Index.Len())[:n+v.Index.Len()]
	out := dst[n:]
	for r := range v.Index.runs {
		k, i, m := v.Index.run(r)
		copy(out[k:k+m], areas[i:i+m])
	}
	return dst
}

// InBorder reports whether span k of the view lies in the border ring.
// k must be in 0..Len()-1.
func (v *LayerView) InBorder(k int) bool {
	b := v.BorderCells
	x, z := int(v.X[k]), int(v.Z[k])
	return x < b || z < b || x >= v.Width-b || z >= v.Height-b
}

// Validate checks that the view is consistent: a grid of 1..MaxGridSide
// columns each way with 0 <= BorderCells and 2*BorderCells below both, a
// layer number in 0..MaxLayers-1, one entry per span in Index, X, Z, Y and
// Areas and four in Links, fewer than 2^30 spans, columns inside the grid
// and links in -1..Len()-1. The error names the first bad value.
func (v *LayerView) Validate() error {
	if err := v.check(); err != nil {
		return err
	}
	// The largest column, without a branch per span; only a bad view is
	// scanned again for the error.
	mx, mz := uint16(0), uint16(0)
	for k := range v.X {
		mx = max(mx, v.X[k])
		mz = max(mz, v.Z[k])
	}
	if int(mx) < v.Width && int(mz) < v.Height {
		return nil
	}
	for k := range v.X {
		if int(v.X[k]) >= v.Width || int(v.Z[k]) >= v.Height {
			return fmt.Errorf("region: layer view span %d in column (%d, %d), outside %d x %d", k, v.X[k], v.Z[k], v.Width, v.Height)
		}
	}
	return nil
}

// check is Validate without the column range test: what the methods of
// LayerView need to never index out of range (a column outside the grid
// only changes which spans count as in the ring).
func (v *LayerView) check() error {
	if v == nil {
		return fmt.Errorf("region: nil layer view")
	}
	if v.Width < 1 || v.Height < 1 || v.Width > voxel.MaxGridSide || v.Height > voxel.MaxGridSide {
		return fmt.Errorf("region: layer view of %d x %d columns, want 1..%d each", v.Width, v.Height, voxel.MaxGridSide)
	}
	if v.BorderCells < 0 || 2*v.BorderCells >= v.Width || 2*v.BorderCells >= v.Height {
		return fmt.Errorf("region: layer view BorderCells %d, want 0 <= BorderCells and 2*BorderCells below %d x %d",
			v.BorderCells, v.Width, v.Height)
	}
	if v.Layer < 0 || v.Layer >= MaxLayers {
		return fmt.Errorf("region: layer view Layer %d, want 0..%d", v.Layer, MaxLayers-1)
	}
	n := v.Index.Len()
	if n >= 1<<30 {
		return fmt.Errorf("region: layer view of %d spans, want below 2^30", n)
	}
	if len(v.X) != n || len(v.Z) != n || len(v.Y) != n || len(v.Areas) != n || v.Links.Len() != 4*n {
		return fmt.Errorf("region: layer view of %d spans has %d X, %d Z, %d Y, %d Areas and %d Links, want %d each and %d Links",
			n, len(v.X), len(v.Z), len(v.Y), len(v.Areas), v.Links.Len(), n, 4*n)
	}
	if !v.Links.ok {
		for k := range n {
			for d := range 4 {
				if l := v.Links.To(k, d); uint32(l+1) > uint32(n) { // l < -1 || l >= n
					return fmt.Errorf("region: layer view span %d links in direction %d to %d, want -1..%d", k, d, l, n-1)
				}
			}
		}
	}
	return nil
}

// SplitLayers splits the spans of c into height layers (docs/layers.md §2
// and §3) and returns one view per layer, in layer order, and the layer of
// every span of c (same index as c.Spans). Walkable spans (area not
// voxel.AreaNull) are split so that no layer holds two walkable spans of
// one column; a non-walkable span goes with the layer of its first walkable
// linked neighbour in the direction order −x, +z, +x, −z, else layer 0. A
// heightfield with spans but no walkable span has one layer, one without
// spans none. borderCells (0 <= borderCells, 2*borderCells below the grid's
// width and height) is the width of the border ring recorded in the views.
//
// Everything returned is new memory; c is not changed. Invalid arguments
// are reported with an error naming the value.
func SplitLayers(c *voxel.CompactHeightfield, borderCells int) (views []LayerView, spanLayer []uint8, err error) {
	s := getLayerScratch()
	defer putLayerScratch(s)
	if s.nb, err = checkArgs("SplitLayers", c, s.nb, borderCells, 0, 0); err != nil {
		return nil, nil, err
	}
	spanLayer = make([]uint8, len(c.Spans))
	count, err := s.assignLayers(c, s.nb, spanLayer)
	if err != nil {
		return nil, nil, err
	}
	views = make([]LayerView, count)
	s.buildViews(c, s.nb, spanLayer, borderCells, views)
	return views, spanLayer, nil
}

// Splitter splits compact heightfields into height layers as SplitLayers
// does, reusing its memory from one call to the next: the views Split
// returns are overwritten by its next call (the span layers it returns are
// new memory). The zero value is ready to use. A Splitter is not safe for
// concurrent use.
type Splitter struct {
	s     layerScratch
	views []LayerView
}

// Split is SplitLayers(c, borderCells) with the views in sp's memory.
func (sp *Splitter) Split(c *voxel.CompactHeightfield, borderCells int) (views []LayerView, spanLayer []uint8, err error) {
	if sp == nil {
		return nil, nil, fmt.Errorf("region: Split on a nil Splitter")
	}
	if sp.s.nb, err = checkArgs("SplitLayers", c, sp.s.nb, borderCells, 0, 0); err != nil {
		return nil, nil, err
	}
	return sp.split(c, sp.s.nb, borderCells)
}

// SplitGraph is Split given c's span graph (voxel.CompactHeightfield's
// SpanGraph, or what voxel.BuildCompactHeightfieldGraph returned with c),
// which it does not make again: the graph must have four entries per span,
// each -1 or a span index; one that is not c's gives wrong layers, never a
// panic. graph is only read.
func (sp *Splitter) SplitGraph(c *voxel.CompactHeightfield, borderCells int, graph []int32) (views []LayerView, spanLayer []uint8, err error) {
	if sp == nil {
		return nil, nil, fmt.Errorf("region: SplitGraph on a nil Splitter")
	}
	if err := checkCells(c); err != nil {
		return nil, nil, err
	}
	if borderCells < 0 || 2*borderCells >= c.Width || 2*borderCells >= c.Height {
		return nil, nil, fmt.Errorf("region: SplitGraph borderCells %d, want 0 <= borderCells and 2*borderCells below the grid's %d x %d columns",
			borderCells, c.Width, c.Height)
	}
	if err := checkGraph(c, graph); err != nil {
		return nil, nil, err
	}
	return sp.split(c, graph, borderCells)
}

// split is Split and SplitGraph on checked arguments; nb is c's span graph.
func (sp *Splitter) split(c *voxel.CompactHeightfield, nb []int32, borderCells int) (views []LayerView, spanLayer []uint8, err error) {
	s := &sp.s
	spanLayer = make([]uint8, len(c.Spans))
	count, err := s.assignLayers(c, nb, spanLayer)
	if err != nil {
		return nil, nil, err
	}
	if cap(sp.views) < count {
		sp.views = append(sp.views[:cap(sp.views)], make([]LayerView, count-cap(sp.views))...)
	}
	views = sp.views[:count]
	s.buildViews(c, nb, spanLayer, borderCells, views)
	return views, spanLayer, nil
}

// Layers is the layer partition of build3d-runtime.md (docs/layers.md): the
// spans of c are split into height layers as SplitLayers does, and each
// layer is partitioned as LayerView.Regions does with minAreaCells:
// connected components of spans of one area under the −x and −z links,
// small islands dropped (a component reaching the border ring is kept),
// border-ring spans made the one border region LayerBorder.
//
// Region ids are numbered layer by layer: the regions of layer 0 are
// 1..n0 in the order of their first span, those of layer 1 are n0+1..n0+n1,
// and so on (the id of a region is its id within its layer's view plus the
// number of regions of all lower layers; LayerView.TileIDs). Result.Layers
// holds every span's layer and LayerCount the number of layers;
// MaxDistance is 0. The result is new memory; c is not changed. Invalid
// arguments (and more than MaxRegions regions or MaxLayers layers) are
// reported with an error naming the value.
func Layers(c *voxel.CompactHeightfield, borderCells, minAreaCells int) (*Result, error) {
	return layers("Layers", c, nil, borderCells, minAreaCells)
}

// LayersSplitOn is Layers with the layers decided on other areas: split
// (one per span of c; nil means c.Areas) decides the split, which reads
// walkability only, and c.Areas, the areas in force, the regions of each
// layer. The pipeline passes the areas after erosion as split, so that
// the layer of every span is fixed by the first build whatever obstacles
// and volumes are marked later (build3d-runtime.md, "What is cached";
// docs/build.md §2). Layers(c, ...) is LayersSplitOn(c, nil, ...).
func LayersSplitOn(c *voxel.CompactHeightfield, split []uint8, borderCells, minAreaCells int) (*Result, error) {
	return layers("LayersSplitOn", c, split, borderCells, minAreaCells)
}

// layers is Layers and LayersSplitOn (fn names the caller in errors).
func layers(fn string, c *voxel.CompactHeightfield, split []uint8, borderCells, minAreaCells int) (*Result, error) {
	s := getLayerScratch()
	defer putLayerScratch(s)
	var err error
	if s.nb, err = checkArgs(fn, c, s.nb, borderCells, minAreaCells, 0); err != nil {
		return nil, err
	}
	n := len(c.Spans)
	sc := c // the heightfield the split is made on
	if split != nil {
		if len(split) != n {
			return nil, fmt.Errorf("region: %s: %d split areas for a compact heightfield of %d spans", fn, len(split), n)
		}
		cs := *c
		cs.Areas = split
		sc = &cs
	}
	spanLayer := make([]uint8, n)
	count, err := s.assignLayers(sc, s.nb, spanLayer)
	if err != nil {
		return nil, err
	}
	if cap(s.views) < count {
		s.views = append(s.views[:cap(s.views)], make([]LayerView, count-cap(s.views))...)
	}
	views := s.views[:count]
	s.buildViews(sc, s.nb, spanLayer, borderCells, views)

	ids := make([]uint16, n)
	total := 0
	for li := range views {
		v := &views[li]
		va := v.Areas
		if split != nil {
			va = v.GatherAreas(s.areas[:0], c.Areas)
			s.areas = va
		}
		if err := v.regions(va, minAreaCells, &s.lab); err != nil {
			return nil, err
		}
		if err := v.TileIDs(&s.lab, total, ids); err != nil {
			return nil, fmt.Errorf("region: %s: %w", fn, err)
		}
		total += s.lab.Count
	}
	return &Result{IDs: ids, Count: total + 1, Layers: spanLayer, LayerCount: count}, nil
}

// TileIDs writes the tile-wide region ids of the view's labelling lab
// (LayerView.Regions) into ids, indexed by compact-heightfield span
// (docs/layers.md §7): for view span k, ids[v.Index.At(k)] is NoRegion or
// LayerBorder as in lab, else lab's id plus base, the number of regions of
// the lower layers. More than MaxRegions regions in all (base plus
// lab.Count), a labelling of another size or an ids slice too short for
// the view's spans are errors (ids unchanged).
func (v *LayerView) TileIDs(lab *Labels, base int, ids []uint16) error {
	// Only Index and the labels are read: the view's other slices need no
	// check here.
	if v == nil {
		return fmt.Errorf("region: TileIDs: nil layer view")
	}
	if err := lab.check("TileIDs", v.Index.Len(), true); err != nil {
		return err
	}
	if base < 0 || base+lab.Count > MaxRegions {
		return fmt.Errorf("region: TileIDs: more than %d regions (%d below layer %d, %d in it)", MaxRegions, base, v.Layer, lab.Count)
	}
	if !v.Index.inRange(len(ids)) {
		for _, i := range v.Index.All() {
			if uint64(uint32(i)) >= uint64(len(ids)) { // also i < 0
				return fmt.Errorf("region: TileIDs: span index %d of layer %d outside %d ids", i, v.Layer, len(ids))
			}
		}
	}
	off := uint16(base)
	for r := range v.Index.runs {
		k, i, m := v.Index.run(r)
		for j, id := range lab.IDs[k : k+m] {
			if id != NoRegion && id != LayerBorder {
				id += off
			}
			ids[i+j] = id
		}
	}
	return nil
}

// layerNone marks a span without a sweep region (not walkable).
const layerNone = int32(-1)

// layerRun is a run of spans of one sweep row joined by −x links.
type layerRun struct {
	id    int32 // the region it becomes
	nei   int32 // the region below (−z): layerNone none yet, -2 several
	ns    int32 // spans of the run linked to nei in −z
	lastX int32 // column x of the run's last span
}

// layerSeveral marks a run linked in −z to more than one region.
const layerSeveral = int32(-2)

// layerRegion is a sweep region of the layer split (Recast's
// rcLayerRegion).
type layerRegion struct {
	ymin, ymax int32   // floor rows of its spans (for a base: of its layer)
	layer      int32   // layer id, layerNone before assignment
	base       bool    // the region a layer was grown from
	neis       []int32 // regions linked to it, in order of discovery
	over       []int32 // regions sharing a column with it (for a base: with its layer); a set
}

// absorb adds region o's overlaps and height range to base region r's (its
// layer's): every region of o.over not marked st is marked and appended to
// r.over, and r's rows grow to cover o's.
func (r *layerRegion) absorb(o *layerRegion, mark []uint32, st uint32) {
	for _, k := range o.over {
		if mark[k] != st {
			mark[k] = st
			r.over = append(r.over, k)
		}
	}
	r.ymin = min(r.ymin, o.ymin)
	r.ymax = max(r.ymax, o.ymax)
}

// layerScratch is the memory reused between calls of the layer partition.
type layerScratch struct {
	nb          []int32 // span graph (spanLinks)
	reg         []int32 // sweep region of each span
	runs        []layerRun
	prev        []int32 // per region of the row below: spans of this row linked to it
	touched     []int32
	regions     []layerRegion
	col         []int32 // regions of one column
	lastCol     []int32 // the last column's regions that added overlaps
	sorted      []int32 // a column's distinct regions
	queue       []int32
	mark        []uint32 // per region: stamp of the current overlap set
	stamp       uint32
	remap       []int32
	regionLayer []uint8 // final layer of each sweep region
	local       []int32 // view index of each span
	views       []LayerView
	lab         Labels
	areas       []uint8 // LayersSplitOn: the areas in force of one view
}

var layerScratchPool = sync.Pool{New: func() any { return new(layerScratch) }}

func getLayerScratch() *layerScratch  { return layerScratchPool.Get().(*layerScratch) }
func putLayerScratch(s *layerScratch) { layerScratchPool.Put(s) }

// containsInt32 reports whether l holds v.
func containsInt32(l []int32, v int32) bool {
	for _, u := range l {
		if u == v {
			return true
		}
	}
	return false
}

// addUniqueInt32 appends v to l unless l holds it.
func addUniqueInt32(l []int32, v int32) []int32 {
	if containsInt32(l, v) {
		return l
	}
	return append(l, v)
}

// newRegion appends a region to the table, reusing the slices of an entry
// left from an earlier call, and returns its id.
func (s *layerScratch) newRegion() int32 {
	id := int32(len(s.regions))
	if len(s.regions) < cap(s.regions) {
		s.regions = s.regions[:id+1]
		r := &s.regions[id]
		*r = layerRegion{ymin: 1 << 30, ymax: -1, layer: layerNone, neis: r.neis[:0], over: r.over[:0]}
	} else {
		s.regions = append(s.regions, layerRegion{ymin: 1 << 30, ymax: -1, layer: layerNone})
	}
	return id
}

// assignLayers writes the layer of every span of c into layer (len
// c.Spans) and returns the number of layers (docs/layers.md §2, §3). nb is
// c's span graph.
func (s *layerScratch) assignLayers(c *voxel.CompactHeightfield, nb []int32, layer []uint8) (int, error) {
	n := len(c.Spans)
	w, h := c.Width, c.Height
	areas := c.Areas[:n]
	nb = nb[:4*n]
	if n > 0 && !noOneLayerShortcut && oneLayer(c) {
		clear(layer[:n])
		return 1, nil
	}
	reg := grow(s.reg, n)
	s.reg = reg
	for i := range reg {
		reg[i] = layerNone
	}
	s.regions = s.regions[:0]

	// §2.1 Sweep rows of constant z into monotone regions, ignoring areas.
	prev, touched, runs := s.prev[:0], s.touched[:0], s.runs[:0]
	for z := range h {
		runs = runs[:0]
		for x := range w {
			cell := c.Cells[x+z*w]
			for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
				if areas[i] == voxel.AreaNull {
					continue
				}
				run := layerNone
				if a := nb[4*i]; a >= 0 && reg[a] != layerNone && runs[reg[a]].lastX != int32(x) {
					run = reg[a]
				}
				if run == layerNone {
					run = int32(len(runs))
					runs = append(runs, layerRun{nei: layerNone})
				}
				rs := &runs[run]
				rs.lastX = int32(x)
				if b := nb[4*i+3]; b >= 0 && reg[b] != layerNone {
					nr := reg[b]
					if rs.ns == 0 {
						rs.nei = nr
					}
					if rs.nei == nr {
						rs.ns++
						if prev[nr] == 0 {
							touched = append(touched, nr)
						}
						prev[nr]++
					} else {
						rs.nei = layerSeveral
					}
				}
				reg[i] = run
			}
		}
		for k := range runs {
			rs := &runs[k]
			if rs.nei >= 0 && prev[rs.nei] == rs.ns {
				rs.id = rs.nei
			} else {
				rs.id = s.newRegion()
				prev = append(prev, 0)
			}
		}
		for _, r := range touched {
			prev[r] = 0
		}
		touched = touched[:0]
		row := c.Cells[z*w : (z+1)*w]
		lo, hi := int(row[0].Index), int(row[w-1].Index+row[w-1].Count)
		for i := lo; i < hi; i++ {
			if reg[i] != layerNone {
				reg[i] = runs[reg[i]].id
			}
		}
	}
	s.prev, s.touched, s.runs = prev, touched, runs
	regions := s.regions
	nreg := len(regions)

	// §2.2 Height range, neighbours and overlaps of each region.
	col, last, sorted := s.col[:0], s.lastCol[:0], s.sorted
	spans := c.Spans[:n]
	for _, cell := range c.Cells {
		col = col[:0]
		for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
			r := reg[i]
			if r == layerNone {
				continue
			}
			rg := &regions[r]
			y := int32(spans[i].Y)
			rg.ymin = min(rg.ymin, y)
			rg.ymax = max(rg.ymax, y)
			if cell.Count > 1 {
				col = append(col, r)
			}
			for _, j := range nb[4*i : 4*i+4 : 4*i+4] {
				if j >= 0 {
					if rj := reg[j]; rj != layerNone && rj != r {
						rg.neis = addUniqueInt32(rg.neis, rj)
					}
				}
			}
		}
		// The overlaps are a set (read only to mark regions), kept sorted
		// here: each distinct pair of the column's ids is added once, and
		// a column of the same ids as the last one that added any adds
		// nothing (stacked floors repeat their columns).
		if len(col) > 1 && !slices.Equal(col, last) {
			last = append(last[:0], col...)
			sorted = append(sorted[:0], col...)
			slices.Sort(sorted)
			sorted = slices.Compact(sorted)
			for _, ra := range sorted {
				for _, rb := range sorted {
					if ra != rb {
						regions[ra].over = addFloor(regions[ra].over, rb)
					}
				}
			}
		}
	}
	s.col, s.lastCol, s.sorted = col, last, sorted

	// §2.3 Grow layers from regions breadth first.
	if cap(s.mark) < nreg {
		s.mark = make([]uint32, nreg)
		s.stamp = 0
	}
	mark := s.mark[:nreg]
	nextStamp := func() uint32 {
		s.stamp++
		if s.stamp == 0 {
			clear(s.mark[:cap(s.mark)])
			s.stamp = 1
		}
		return s.stamp
	}
	nlayers := int32(0)
	queue := s.queue[:0]
	for ri := range regions {
		root := &regions[ri]
		if root.layer != layerNone {
			continue
		}
		root.layer = nlayers
		root.base = true
		st := nextStamp()
		for _, o := range root.over {
			mark[o] = st
		}
		queue = append(queue[:0], int32(ri))
		for head := 0; head < len(queue); head++ {
			cur := queue[head]
			for _, nei := range regions[cur].neis {
				rn := &regions[nei]
				if rn.layer != layerNone || mark[nei] == st {
					continue
				}
				if max(root.ymax, rn.ymax)-min(root.ymin, rn.ymin) >= layerHeightRangeRows {
					continue
				}
				rn.layer = nlayers
				queue = append(queue, nei)
				root.absorb(rn, mark, st)
			}
		}
		nlayers++
	}
	s.queue = queue

	// §2.4 Merge layers close in height that do not overlap.
	mergeRows := int32(min(max(c.WalkableHeightCells, 0), voxel.MaxSpanRow)) * layerMergeFactor
	for i := range regions {
		ri := &regions[i]
		if !ri.base {
			continue
		}
		for {
			st := nextStamp()
			for _, o := range ri.over {
				mark[o] = st
			}
			old := layerNone
			for j := range regions {
				rj := &regions[j]
				if j == i || !rj.base {
					continue
				}
				if ri.ymin > rj.ymax+mergeRows || ri.ymax+mergeRows < rj.ymin {
					continue
				}
				if max(ri.ymax, rj.ymax)-min(ri.ymin, rj.ymin) >= layerHeightRangeRows {
					continue
				}
				overlap := false
				for k := range regions {
					if regions[k].layer == rj.layer && mark[k] == st {
						overlap = true
						break
					}
				}
				if !overlap {
					old = rj.layer
					break
				}
			}
			if old == layerNone {
				break
			}
			for k := range regions {
				rk := &regions[k]
				if rk.layer != old {
					continue
				}
				rk.base = false
				rk.layer = ri.layer
				ri.absorb(rk, mark, st)
			}
		}
	}

	// §2.5 Number the layers in the order of their ids.
	remap := grow(s.remap, int(nlayers))
	s.remap = remap
	for k := range remap {
		remap[k] = layerNone
	}
	for k := range regions {
		remap[regions[k].layer] = 0
	}
	count := 0
	for k := range remap {
		if remap[k] == 0 {
			remap[k] = int32(count)
			count++
		}
	}
	if count > MaxLayers {
		return 0, fmt.Errorf("region: the heightfield splits into %d layers, more than %d", count, MaxLayers)
	}

	// §2.5 and §3: the layer of every span, in one pass: a walkable span's
	// is its region's, and a non-walkable span takes that of its first
	// walkable linked neighbour (walkable exactly when it has a region).
	rl := grow(s.regionLayer, nreg)
	s.regionLayer = rl
	for r := range regions {
		rl[r] = uint8(remap[regions[r].layer])
	}
	for i := range n {
		if r := reg[i]; r != layerNone {
			layer[i] = rl[r]
			continue
		}
		l := uint8(0)
		for _, j := range nb[4*i : 4*i+4 : 4*i+4] {
			if j >= 0 {
				if r := reg[j]; r != layerNone {
					l = rl[r]
					break
				}
			}
		}
		layer[i] = l
	}
	if count == 0 && n > 0 {
		count = 1
	}
	return count, nil
}

// noOneLayerShortcut turns oneLayer's shortcut off (for the test comparing
// both ways).
var noOneLayerShortcut = false

// oneLayer reports whether c, with spans, surely splits into one layer:
// no column holds two walkable spans, so no two sweep regions overlap, and
// the walkable floors range over at most mergeRows rows (layerMergeFactor
// times the walkable height) and fewer than layerHeightRangeRows. Then
// §2.3 never stops a layer for its height range, and §2.4 merges every
// layer with every other (none is more than mergeRows away, none
// overlaps), so every walkable span is on layer 0, and so is every other
// span (its first walkable neighbour's layer, or 0).
func oneLayer(c *voxel.CompactHeightfield) bool {
	mergeRows := min(max(c.WalkableHeightCells, 0), voxel.MaxSpanRow) * layerMergeFactor
	lo, hi := int(voxel.MaxSpanRow)+1, -1
	areas := c.Areas[:len(c.Spans)]
	for _, cell := range c.Cells {
		walkable := 0
		for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
			if areas[i] == voxel.AreaNull {
				continue
			}
			walkable++
			y := int(c.Spans[i].Y)
			lo, hi = min(lo, y), max(hi, y)
		}
		if walkable > 1 {
			return false
		}
	}
	return hi < 0 || (hi-lo <= mergeRows && hi-lo < layerHeightRangeRows)
}

// buildViews fills views (len = number of layers) with the layers of c,
// reusing their slices. nb is c's span graph (s.nb), layer each span's
// layer.
func (s *layerScratch) buildViews(c *voxel.CompactHeightfield, nb []int32, layer []uint8, borderCells int, views []LayerView) {
	n := len(c.Spans)
	layer = layer[:n]
	nb = nb[:4*n]
	for li := range views {
		v := &views[li]
		v.Layer, v.Width, v.Height, v.BorderCells = li, c.Width, c.Height, borderCells
		v.Index.reset()
	}
	if len(views) == 1 {
		// One layer: the view is the heightfield.
		v := &views[0]
		if n > 0 {
			v.Index.add(0)
			v.Index.n = n // one run
		}
		v.Links.reset(4 * n)
		for key, j := range nb {
			v.Links.set(key, j)
		}
		v.Links.ok = true // nb is a checked span graph
		v.Areas = append(v.Areas[:0], c.Areas[:n]...)
		v.X, v.Z, v.Y = grow(v.X, n), grow(v.Z, n), grow(v.Y, n)
		w := c.Width
		spans := c.Spans[:n]
		for z := range c.Height {
			row := c.Cells[z*w : (z+1)*w]
			for x, cell := range row {
				for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
					v.X[i], v.Z[i], v.Y[i] = uint16(x), uint16(z), spans[i].Y
				}
			}
		}
		return
	}
	local := grow(s.local, n)
	s.local = local
	// Each view's slices sized exactly first (views kept by a caller, as the
	// tile cache keeps them, hold no spare capacity), then filled.
	var counts, runs [MaxLayers]int32
	prev := -1
	for _, l := range layer {
		counts[l]++
		if int(l) != prev { // a run of the layer's index starts
			runs[l]++
		}
		prev = int(l)
	}
	for li := range views {
		views[li].Index.runs = grow(views[li].Index.runs, int(runs[li]))[:0]
	}
	for i, l := range layer {
		v := &views[l]
		local[i] = int32(v.Index.Len())
		v.Index.add(int32(i))
	}
	for li := range views {
		v := &views[li]
		m := v.Index.Len()
		v.X, v.Z, v.Y = grow(v.X, m), grow(v.Z, m), grow(v.Y, m)
		v.Areas = grow(v.Areas, m)
		v.Links.reset(4 * m)
	}
	w := c.Width
	spans, areas := c.Spans[:n], c.Areas[:n]
	for z := range c.Height {
		row := c.Cells[z*w : (z+1)*w]
		for x, cell := range row {
			for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
				l := layer[i]
				v := &views[l]
				k := local[i]
				v.X[k], v.Z[k], v.Y[k], v.Areas[k] = uint16(x), uint16(z), spans[i].Y, areas[i]
				in := nb[4*i : 4*i+4 : 4*i+4]
				for d, j := range in {
					lk := int32(-1)
					if j >= 0 && layer[j] == l {
						lk = local[j]
					}
					v.Links.set(4*int(k)+d, lk)
				}
			}
		}
	}
	for li := range views {
		views[li].Links.ok = true // view indices of the same view, or -1
	}
}
