package contour

import (
	"fmt"

	"navviz/core/region"
	"navviz/core/voxel"
)

// The contours of one height layer (build3d-runtime.md, "Layer-first tiles",
// step 3; docs/contours.md §12): the same flags, walk, corner test,
// simplification and hole joining as Build, on the spans of a
// region.LayerView with the layer's own links. A link to a span of another
// layer is not in the view, so that layer is a wall for the trace and its
// floors never raise a corner. Span indices and edge keys are view indices
// (view span k has keys 4k..4k+3); since a view lists its spans in
// compact-heightfield order, a layer holding every span of a tile traces
// exactly the loops Build traces.

// checkLayer validates a layer view with its areas and region ids (one per
// view span each) and returns the areas to use (v.Areas when areas is nil).
func checkLayer(v *region.LayerView, areas []uint8, ids []uint16) ([]uint8, error) {
	if err := v.Validate(); err != nil {
		return nil, fmt.Errorf("contour: %w", err)
	}
	n := v.Len()
	if n > MaxSpans {
		return nil, fmt.Errorf("contour: layer of %d spans, more than %d", n, MaxSpans)
	}
	if areas == nil {
		areas = v.Areas
	}
	if len(areas) != n {
		return nil, fmt.Errorf("contour: %d areas for a layer of %d spans", len(areas), n)
	}
	if len(ids) != n {
		return nil, fmt.Errorf("contour: %d region ids for a layer of %d spans", len(ids), n)
	}
	return areas, nil
}

// LayerEdgeFlags is EdgeFlags on one height layer: for every span k of the
// view (view index), bit d is set when the span is in a region (ids[k] not
// region.NoRegion and without region.BorderFlag) and the layer has no span
// linked to it in direction d or that span has another id; a lone span gets
// no bit. ids holds the layer's region ids (region.Labels.IDs after
// LayerView.Regions: NoRegion, 1..Count or region.LayerBorder), one per view
// span. dst is reused when large enough. The view is validated
// (LayerView.Validate); the error names the bad value.
func LayerEdgeFlags(v *region.LayerView, ids []uint16, dst []uint8) ([]uint8, error) {
	if _, err := checkLayer(v, v.Areas, ids); err != nil {
		return nil, err
	}
	return layerFlags(v, ids, dst), nil
}

// layerFlags computes LayerEdgeFlags on checked arguments.
func layerFlags(v *region.LayerView, ids []uint16, dst []uint8) []uint8 {
	n := v.Len()
	if cap(dst) < n {
		dst = make([]uint8, n)
	}
	dst = dst[:n]
	links := &v.Links
	for k := range n {
		dst[k] = spanFlags(links, ids, k)
	}
	return dst
}

// spanFlags is the LayerEdgeFlags entry of view span k (links: the view's
// Links; ids: one per span).
func spanFlags(links *region.LayerLinks, ids []uint16, k int) uint8 {
	r := ids[k]
	if !inRegion(r) {
		return 0
	}
	var f uint8
	for d := range 4 {
		if j := links.To(k, d); j < 0 || ids[j] != r {
			f |= 1 << d
		}
	}
	return boundaryBits(f)
}

// TraceLayerLoop is TraceLoop on one height layer: it traces the loop of
// view span span's region from its edge dir, which must be flagged in flags
// (from LayerEdgeFlags with the same ids), walking the layer's links only.
// areas holds the areas in force (one per view span; nil: v.Areas), which
// give the loop's area and the AreaBorder bits; ids the layer's region ids.
// flags is changed: every visited edge is cleared. The loop starts at the
// given edge (call RotateLoop to start it at its smallest key) and has no
// simplified form yet.
func TraceLayerLoop(v *region.LayerView, areas []uint8, ids []uint16, flags []uint8, span, dir int) (Loop, error) {
	areas, err := checkLayer(v, areas, ids)
	if err != nil {
		return Loop{}, err
	}
	n := v.Len()
	if len(flags) != n {
		return Loop{}, fmt.Errorf("contour: %d flags for a layer of %d spans", len(flags), n)
	}
	if span < 0 || span >= n {
		return Loop{}, fmt.Errorf("contour: span %d out of range 0..%d", span, n-1)
	}
	t := tracer{g: &spanGraph{view: v}, ids: ids, areas: areas, flags: flags}
	return t.trace(span, dir)
}

// BuildLayer is Build on one height layer of a tile: the contours of every
// region of view v (ids: the layer's region ids, region.Labels.IDs after
// LayerView.Regions, one per view span), traced with the layer's links only
// and simplified with maxErrorCells, maxEdgeLenCells and flags as Build
// does. Spans with region.LayerBorder (the border region) and without a
// region are not traced: the border region is the tile border. areas holds
// the areas in force, one per view span (nil: v.Areas).
//
// g is the grid the view was split from (the compact heightfield's Grid):
// its Width, Height and BorderCells must equal the view's; the set takes
// its origin and cell sizes. Loops are in edge-key order of the view (span
// index × 4 + direction, view indices) and each contour's region is the
// layer's id. Invalid input gives an error naming the value and no set.
func BuildLayer(g *voxel.Grid, v *region.LayerView, areas []uint8, ids []uint16, maxErrorCells float32, maxEdgeLenCells int, flags BuildFlags) (*Set, error) {
	if err := checkSimplifyParams(maxErrorCells, maxEdgeLenCells, flags); err != nil {
		return nil, err
	}
	if g == nil {
		return nil, fmt.Errorf("contour: nil grid")
	}
	areas, err := checkLayer(v, areas, ids)
	if err != nil {
		return nil, err
	}
	if g.Width != v.Width || g.Height != v.Height || g.BorderCells != v.BorderCells {
		return nil, fmt.Errorf("contour: grid of %d x %d columns with border %d, layer view of %d x %d with border %d",
			g.Width, g.Height, g.BorderCells, v.Width, v.Height, v.BorderCells)
	}
	set := takeSet()
	set.mem.flags = layerFlags(v, ids, set.mem.flags)
	t := tracer{g: &spanGraph{view: v}, ids: ids, areas: areas, flags: set.mem.flags}
	if err := set.fill(g, &t, maxErrorCells, maxEdgeLenCells, flags); err != nil {
		Recycle(set)
		return nil, err
	}
	return set, nil
}
