// Package region splits the walkable spans of a compact heightfield into
// regions: Recast's distance field with watershed regions (DistanceField,
// Watershed), monotone regions (Monotone), and the layer partition of
// build3d-runtime.md (height layers, then connected components per layer).
// See docs/regions.md, the normative description: a second implementation
// following it gets the same region id for every span.
//
// # Units
//
// Every size is in cells of the compact heightfield: borderCells is a width
// in columns, minAreaCells and mergeAreaCells count spans (one span covers one
// cell of CellSizeM x CellSizeM). Distances of the distance field are in half
// cells (a step to a side neighbour costs 2, a diagonal step 3).
//
// # Determinism and memory
//
// Every result is a function of the inputs only: spans are visited in
// compact-heightfield order (z, then x, then bottom up in a column), no map is
// iterated and no goroutine is started. Scratch memory is pooled between calls
// (safe for concurrent use); only the returned Result is new memory.
//
// # Shared helpers (for the layer partition in this package)
//
// While partitioning, region ids are uint32 per span (region 1.., 0 none,
// internalBorder set on border ids) so that no partition runs out of ids
// before merging; only the final ids must fit a uint16 below BorderFlag.
//
//   - checkCompact validates a compact heightfield (cells, areas, links);
//     spanLinks does the same and returns the span graph (linked span per
//     span and direction), which every stage here walks instead of the
//     packed links.
//   - paintBorder paints the border ring as Recast's four border regions.
//   - mergeAndFilter is Recast's island removal and small-region merge on
//     the internal ids (merge.go), numbering the survivors 1..count.
//   - finishIDs turns the internal ids into a Result.
//   - getScratch/putScratch hand out pooled scratch memory.
//
// No method panics on a nil receiver: a nil LayerView has no spans (Len
// 0; its checked methods fail) and a nil RepairBase reads as empty (nil
// view, areas and labels, 0, false) and fails Repair; LayerView.InBorder,
// an inner-loop accessor, needs its documented index precondition.
package region

import (
	"fmt"
	"math/bits"
	"sync"

	"navviz/core/voxel"
)

// BorderFlag is set on the region id of spans in the tile's border ring
// (and on the border region of the layer partition). The contour stage treats
// a change into a flagged id as the tile border. Watershed and Monotone give
// the border ring Recast's four strips: ids BorderFlag|1 (x < border),
// BorderFlag|2 (x >= Width-border), BorderFlag|3 (z < border) and
// BorderFlag|4 (z >= Height-border), later strips overwriting earlier ones in
// the corners.
const BorderFlag uint16 = 0x8000

// NoRegion is the region id of a span in no region (not walkable, or dropped).
const NoRegion uint16 = 0

// MaxRegions is the largest number of (non-border) regions a partition may
// return: ids 1..MaxRegions fit below BorderFlag. A partition that would give
// more returns an error.
const MaxRegions = int(BorderFlag) - 1

// Result is the output of a partition: one region id per span of the compact
// heightfield (same index as CompactHeightfield.Spans).
type Result struct {
	// IDs holds each span's region id: NoRegion, a region 1..Count-1, or a
	// region id with BorderFlag set.
	IDs []uint16
	// Count is one more than the largest region id in use, border ids not
	// counted (their flag set): the regions are 1..Count-1. For Watershed
	// and Monotone every one of them holds at least one span. Recast's
	// chf.maxRegions equals Count for a build without border (Recast also
	// numbers the unused last entry of its region table) and Count+4 with a
	// border (its four border strips' table entries); see docs/regions.md.
	Count int
	// MaxDistance is the largest value of the distance field before its blur
	// (watershed only; 0 otherwise), in half-cells as Recast counts it
	// (Recast's chf.maxDistance).
	MaxDistance uint16
	// Layers holds each span's height layer for the layer partition (nil for
	// the other partitions), and LayerCount the number of layers.
	Layers     []uint8
	LayerCount int
}

// RegionCount returns the number of (non-border) regions, Count-1 (0 for a
// nil or empty result).
func (r *Result) RegionCount() int {
	if r == nil || r.Count < 1 {
		return 0
	}
	return r.Count - 1
}

// internalBorder marks a border id in the internal uint32 id arrays used
// while partitioning (the internal ids are wider than the uint16 result so
// that a partition never runs out of ids before merging).
const internalBorder uint32 = 1 << 31

// checkCompact validates c for the partitions: a non-nil heightfield whose
// grid is 1..voxel.MaxGridSide columns each way, one cell per column, cells
// that index the spans contiguously in column order (Index = the number of
// spans of all earlier columns, so span order is column order), one area per
// span, fewer than 2^30 spans, and every link inside the grid and below its
// neighbour column's span count. The error names the first bad value. The
// partitions never read outside the arrays of a heightfield that passes.
func checkCompact(c *voxel.CompactHeightfield) error {
	_, err := spanLinks(c, nil)
	return err
}

// spanLinks validates c (see checkCompact) and returns the span graph in
// nb (grown as needed): nb[4*i+d] is the index of the span linked from span
// i in direction d, or -1.
func spanLinks(c *voxel.CompactHeightfield, nb []int32) ([]int32, error) {
	if err := checkCells(c); err != nil {
		return nb, err
	}
	nb = grow(nb, 4*len(c.Spans))
	return nb, linkGraph(c, nb)
}

// checkCells checks c's grid, cells and areas (checkCompact without the
// links).
func checkCells(c *voxel.CompactHeightfield) error {
	if c == nil {
		return fmt.Errorf("region: nil compact heightfield")
	}
	w, h := c.Width, c.Height
	if w < 1 || h < 1 || w > voxel.MaxGridSide || h > voxel.MaxGridSide {
		return fmt.Errorf("region: compact heightfield of %d x %d columns, want 1..%d each", w, h, voxel.MaxGridSide)
	}
	if len(c.Cells) != w*h {
		return fmt.Errorf("region: compact heightfield has %d cells for %d x %d columns", len(c.Cells), w, h)
	}
	if len(c.Areas) != len(c.Spans) {
		return fmt.Errorf("region: compact heightfield has %d areas for %d spans", len(c.Areas), len(c.Spans))
	}
	if len(c.Spans) >= 1<<30 {
		return fmt.Errorf("region: compact heightfield has %d spans, want below 2^30", len(c.Spans))
	}
	next := uint64(0)
	for ci, cell := range c.Cells {
		if uint64(cell.Index) != next {
			return fmt.Errorf("region: cell (%d, %d) starts at span %d, want %d (spans in column order)", ci%w, ci/w, cell.Index, next)
		}
		next += uint64(cell.Count)
		if next > uint64(len(c.Spans)) {
			return fmt.Errorf("region: cell (%d, %d) runs to span %d of %d", ci%w, ci/w, next, len(c.Spans))
		}
	}
	if next != uint64(len(c.Spans)) {
		return fmt.Errorf("region: cells cover %d of %d spans", next, len(c.Spans))
	}
	return nil
}

// checkGraph checks that graph has four entries per span of c, each -1 or
// a span index (what the partitions need to never read outside c; a graph
// that is not c's gives wrong results, never a panic).
func checkGraph(c *voxel.CompactHeightfield, graph []int32) error {
	n := len(c.Spans)
	if len(graph) != 4*n {
		return fmt.Errorf("region: span graph of %d entries for %d spans, want %d", len(graph), n, 4*n)
	}
	// The largest entry plus one, without a branch per entry.
	hi := uint32(0)
	for _, g := range graph {
		hi = max(hi, uint32(g+1))
	}
	if hi > uint32(n) {
		return fmt.Errorf("region: span graph links to span %d of %d", int32(hi-1), n)
	}
	return nil
}

// linkGraph fills nb (4 per span of c, checked by checkCells) with c's span
// graph, checking every link.
func linkGraph(c *voxel.CompactHeightfield, nb []int32) error {
	w, h := c.Width, c.Height
	cells, spans := c.Cells, c.Spans
	for z := 0; z < h; z++ {
		for x := 0; x < w; x++ {
			ci := x + z*w
			cell := cells[ci]
			if cell.Count == 0 {
				continue
			}
			// The neighbour columns, looked up once for the column's spans;
			// one outside the grid stays empty, so any link into it fails
			// the count test of link.
			var ncs [4]voxel.CompactCell
			if x > 0 {
				ncs[0] = cells[ci-1]
			}
			if z < h-1 {
				ncs[1] = cells[ci+w]
			}
			if x < w-1 {
				ncs[2] = cells[ci+1]
			}
			if z > 0 {
				ncs[3] = cells[ci-w]
			}
			for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
				con := spans[i].Con
				l4 := (*[4]int32)(nb[4*i : 4*i+4])
				var bad uint32 // bit d: direction d links past its column
				for d := range 4 {
					l := con >> (8 * uint(d)) & 0xff
					v := int32(-1)
					if l != voxel.NotConnected {
						v = int32(ncs[d].Index + l)
						if l >= ncs[d].Count {
							bad |= 1 << d
						}
					}
					l4[d] = v
				}
				if bad != 0 {
					return linkError(c, i, x, z, bits.TrailingZeros32(bad))
				}
			}
		}
	}
	return nil
}

// linkError describes the bad link of span i of column (x, z) in
// direction d: out of the grid, or past the neighbour column's spans.
func linkError(c *voxel.CompactHeightfield, i, x, z, d int) error {
	nx, nz := x+dirX[d], z+dirZ[d]
	if nx < 0 || nz < 0 || nx >= c.Width || nz >= c.Height {
		return fmt.Errorf("region: span %d of column (%d, %d) links out of the grid in direction %d", i, x, z, d)
	}
	return fmt.Errorf("region: span %d of column (%d, %d) links in direction %d to span %d of a column of %d",
		i, x, z, d, c.Spans[i].Link(d), c.Cells[nx+nz*c.Width].Count)
}

// checkArgs validates the common arguments of Watershed and Monotone and
// returns the span graph of c in nb (see spanLinks).
func checkArgs(fn string, c *voxel.CompactHeightfield, nb []int32, borderCells, minAreaCells, mergeAreaCells int) ([]int32, error) {
	nb, err := spanLinks(c, nb)
	if err != nil {
		return nb, err
	}
	if borderCells < 0 || 2*borderCells >= c.Width || 2*borderCells >= c.Height {
		return nb, fmt.Errorf("region: %s borderCells %d, want 0 <= borderCells and 2*borderCells below the grid's %d x %d columns",
			fn, borderCells, c.Width, c.Height)
	}
	if minAreaCells < 0 {
		return nb, fmt.Errorf("region: %s minAreaCells %d, want >= 0", fn, minAreaCells)
	}
	if mergeAreaCells < 0 {
		return nb, fmt.Errorf("region: %s mergeAreaCells %d, want >= 0", fn, mergeAreaCells)
	}
	return nb, nil
}

// dirtyEntry is a region assignment made during one expansion round and
// applied at its end.
type dirtyEntry struct {
	i    int32
	reg  uint32
	dist uint16
}

// sweepSpan is a run of spans of one monotone row with a common row-local id.
type sweepSpan struct {
	id  uint32 // the global id it takes
	ns  int32  // spans of the run linked to nei in -z
	nei uint32 // the region below (-z), 0 none, noNeighbour several
}

// scratch is the memory reused between partition calls.
type scratch struct {
	reg     []uint32 // region id per span
	srcDist []uint16 // watershed: distance to the region's seed per span
	dist    []uint16 // distance field (blurred)
	tmp     []uint16 // distance field before the blur

	nb     []int32 // span graph (see spanLinks)
	stacks [8][]int32
	stack  []int32
	dirty  []dirtyEntry

	sweeps  []sweepSpan
	prev    []int32
	touched []uint32

	regions []regionInfo
	ints    []uint32 // merge: copy of connections; removal: stack
	trace   []uint32
	col     []uint32 // merge: the region ids of a column
	lastCol []uint32 // merge: the ids of the last column that added floors
	sorted  []uint32 // merge: a column's ids, sorted
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

func getScratch() *scratch  { return scratchPool.Get().(*scratch) }
func putScratch(s *scratch) { scratchPool.Put(s) }

// grow returns b resized to n elements (contents unspecified).
func grow[T any](b []T, n int) []T {
	switch {
	case cap(b) >= n:
		return b[:n]
	case cap(b) == 0:
		return make([]T, n) // new memory (a result): exactly n
	default:
		// Reused memory (scratch, such as a Splitter's views) that is too
		// small: a quarter more, so tiles of growing sizes do not
		// reallocate it each time.
		return make([]T, n, n+n/4)
	}
}

// zeroed returns b resized to n zero elements.
func zeroed[T any](b []T, n int) []T {
	b = grow(b, n)
	clear(b)
	return b
}

// paintBorder gives every walkable span (area not AreaNull) of the border
// ring a border id, as Recast's paintRectRegion does: the strip x < b gets
// internal id first, x >= Width-b first+1, z < b first+2 and z >= Height-b
// first+3 (with the internal border bit), painted in that order, so the z
// strips own the corners. It returns first+4. b must be at least 1.
func paintBorder(c *voxel.CompactHeightfield, b int, reg []uint32, first uint32) uint32 {
	w, h := c.Width, c.Height
	bw, bh := min(w, b), min(h, b)
	paint := func(x0, x1, z0, z1 int, id uint32) {
		for z := z0; z < z1; z++ {
			for x := x0; x < x1; x++ {
				cell := c.Cells[x+z*w]
				for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
					if c.Areas[i] != voxel.AreaNull {
						reg[i] = id
					}
				}
			}
		}
	}
	paint(0, bw, 0, h, (first+0)|internalBorder)
	paint(w-bw, w, 0, h, (first+1)|internalBorder)
	paint(0, w, 0, bh, (first+2)|internalBorder)
	paint(0, w, h-bh, h, (first+3)|internalBorder)
	return first + 4
}
