package voxel

import "fmt"

// NotConnected is the link value of a direction without a neighbour span.
const NotConnected = 0xff

// MaxLinkLayer is the largest index, within its column, of a span a link can
// point to. A neighbour span further up its column is never linked (Recast
// stops at 62 with 6-bit links; this format has 8 bits per direction).
const MaxLinkLayer = NotConnected - 1

// MaxClearanceCells is the cap of CompactSpan.H.
const MaxClearanceCells = 0xff

// CompactCell locates the open spans of one column: Spans[Index :
// Index+Count]. Index is the number of open spans in all earlier columns
// (column order x + z*Width), also for an empty column.
type CompactCell struct {
	Index uint32
	Count uint32
}

// CompactSpan is an open span: the walkable gap above a solid span.
type CompactSpan struct {
	// Y is the floor row (the solid span's MaxRow).
	Y uint16
	// H is the clearance in rows: the next solid span's MinRow (SkyRow at the
	// top of the column) minus Y, capped at MaxClearanceCells.
	H uint8
	// Con packs the four links, 8 bits each: byte d (bits 8d..8d+7) is the
	// index within the neighbour column (direction d) of the linked span, or
	// NotConnected.
	Con uint32
}

// Link returns the link in direction d (0..3): the index within the
// neighbour column of the linked span, or NotConnected.
func (s CompactSpan) Link(d int) int { return int(s.Con>>(8*uint(d&3))) & 0xff }

// CompactHeightfield is the open-span heightfield of a tile (Recast's
// rcCompactHeightfield): columns of open spans with 4-neighbour links, and an
// area id per span in the separate Areas slice (erosion, volumes and later
// obstacles change Areas only; the span graph never changes after
// BuildCompactHeightfield).
type CompactHeightfield struct {
	Grid
	// WalkableHeightCells is the agent height the links were built with, in rows.
	WalkableHeightCells int
	// WalkableClimbCells is the agent climb the links were built with, in rows.
	WalkableClimbCells int
	// Cells has one entry per column, index x + z*Width.
	Cells []CompactCell
	// Spans lists the open spans column by column, bottom up in each column.
	Spans []CompactSpan
	// Areas holds the area id of each span (same index as Spans).
	Areas []uint8
}

// BuildCompactHeightfield returns the compact heightfield of h (Recast's
// rcBuildCompactHeightfield). Every solid span with a non-zero area becomes
// an open span with Y = its MaxRow, H = min(ceiling - Y, 255) (ceiling: next
// solid span's MinRow, or SkyRow) and its area. Span s in column (x, z) links
// in direction d to the first span k (bottom up) of the neighbour column with
//
//	min(s.Y+s.H, k.Y+k.H) - max(s.Y, k.Y) >= heightCells  and  |k.Y - s.Y| <= climbCells,
//
// unless k's index in its column exceeds MaxLinkLayer (then not linked).
// Columns outside the grid are never linked.
func BuildCompactHeightfield(h *Heightfield, heightCells, climbCells int) (*CompactHeightfield, error) {
	c, _, err := buildCompact(nil, h, heightCells, climbCells, nil, false)
	return c, err
}

// BuildCompactHeightfieldGraph is BuildCompactHeightfield that also returns
// the span graph of the result (SpanGraph's), made with the links, into
// graph (grown as needed).
func BuildCompactHeightfieldGraph(h *Heightfield, heightCells, climbCells int, graph []int32) (*CompactHeightfield, []int32, error) {
	return buildCompact(nil, h, heightCells, climbCells, graph, true)
}

// BuildCompactHeightfieldInto is BuildCompactHeightfieldGraph into dst
// (not nil), which it returns: the Cells and Spans reuse dst's memory
// (grown as needed), so a builder of many tiles need not allocate them
// per tile; Areas is always new memory, exactly the span count long (a
// caller may keep it after giving dst to the next build). The result is
// the same as BuildCompactHeightfieldGraph's, field for field.
func BuildCompactHeightfieldInto(dst *CompactHeightfield, h *Heightfield, heightCells, climbCells int, graph []int32) (*CompactHeightfield, []int32, error) {
	if dst == nil {
		return nil, graph, fmt.Errorf("voxel: BuildCompactHeightfieldInto: nil destination")
	}
	return buildCompact(dst, h, heightCells, climbCells, graph, true)
}

// buildCompact is BuildCompactHeightfield into dst (nil: new memory), and
// with withGraph the span graph in graph.
func buildCompact(dst *CompactHeightfield, h *Heightfield, heightCells, climbCells int, graph []int32, withGraph bool) (*CompactHeightfield, []int32, error) {
	if h == nil {
		return nil, graph, errNilHeightfield
	}
	if heightCells < 1 {
		return nil, graph, fmt.Errorf("voxel: heightCells %d, want >= 1", heightCells)
	}
	if climbCells < 0 {
		return nil, graph, fmt.Errorf("voxel: climbCells %d, want >= 0", climbCells)
	}
	w, ht := h.Width, h.Height
	count := h.walkable // known after FilterSpans
	if count < 0 {
		count = 0
		for _, head := range h.heads {
			for n := head; n >= 0; n = h.pool[n].next {
				if h.pool[n].Area != AreaNull {
					count++
				}
			}
		}
	}
	var cells []CompactCell
	var spans []CompactSpan
	c := dst
	if c == nil {
		c = &CompactHeightfield{}
		cells, spans = make([]CompactCell, w*ht), make([]CompactSpan, count)
	} else {
		// Every cell and span is written below: reused memory needs no
		// clearing.
		cells, spans = resized(c.Cells, w*ht), resized(c.Spans, count)
	}
	areas := make([]uint8, count)
	*c = CompactHeightfield{
		Grid:                h.Grid,
		WalkableHeightCells: heightCells,
		WalkableClimbCells:  climbCells,
		Cells:               cells,
		Spans:               spans,
		Areas:               areas,
	}
	pool := h.pool
	idx := 0
	for ci, head := range h.heads {
		start := idx
		for n := head; n >= 0; n = pool[n].next {
			s := &pool[n]
			if s.Area == AreaNull {
				continue
			}
			bot := int(s.MaxRow)
			clear := min(h.ceilingOf(n)-bot, MaxClearanceCells)
			spans[idx] = CompactSpan{Y: uint16(bot), H: uint8(clear), Con: 0xffffffff}
			areas[idx] = s.Area
			idx++
		}
		cells[ci] = CompactCell{Index: uint32(start), Count: uint32(idx - start)}
	}
	if withGraph {
		graph = growInt32(graph, 4*count)
		c.linkSpans(graph)
	} else {
		c.linkSpans(nil)
	}
	return c, graph, nil
}

// growInt32 returns b with length n, reallocated when too small.
func growInt32(b []int32, n int) []int32 { return resized(b, n) }

// resized returns b with length n (contents unspecified), reallocated
// with a quarter more room when too small, so that scratch reused for
// tiles of growing sizes is not reallocated for each.
func resized[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n, n+n/4)
	}
	return b[:n]
}

// SpanGraph returns the span graph of c in dst (grown as needed):
// dst[4*i+d] is the index in Spans of the span linked from span i in
// direction d, or -1. c must be consistent (as BuildCompactHeightfield
// makes it: cells indexing the spans in column order, links inside the
// grid and below the neighbour column's count).
func (c *CompactHeightfield) SpanGraph(dst []int32) []int32 {
	if c == nil {
		return dst[:0]
	}
	dst = growInt32(dst, 4*len(c.Spans))
	w := c.Width
	off := [4]int{-1, w, 1, -w}
	for ci, cell := range c.Cells {
		for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
			con := c.Spans[i].Con
			for d := range 4 {
				g := int32(-1)
				if l := con >> (8 * uint(d)) & 0xff; l != NotConnected {
					g = int32(c.Cells[ci+off[d]].Index + l)
				}
				dst[4*i+d] = g
			}
		}
	}
	return dst
}

// linkSpans sets the links of every span of c from the spans' floors and
// clearances, with c.WalkableHeightCells and c.WalkableClimbCells (the rule
// of BuildCompactHeightfield); every span must come unlinked (Con
// 0xffffffff). graph, when not nil (4 per span), receives the span graph
// (SpanGraph).
//
// The links are made a pair of adjacent columns at a time, first along x,
// then along z: the spans of both columns are linked toward each other.
func (c *CompactHeightfield) linkSpans(graph []int32) {
	for i := range graph {
		graph[i] = -1
	}
	c.linkPairs(2, graph)
	c.linkPairs(1, graph)
}

// linkPairs links every pair of adjacent columns (ci-step, ci) in the grid
// whose second lies in direction d (2: +x, step 1; 1: +z, step Width) of
// the first, both ways. The link test is symmetric, so between two
// one-span columns (most pairs) one test decides both links.
func (c *CompactHeightfield) linkPairs(d int, graph []int32) {
	w, ht := c.Width, c.Height
	cells, spans := c.Cells, c.Spans
	step, x0, z0 := 1, 1, 0
	if d == 1 {
		step, x0, z0 = w, 0, 1
	}
	back := d ^ 2 // the opposite direction
	for z := z0; z < ht; z++ {
		for ci := z*w + x0; ci < z*w+w; ci++ {
			a, b := cells[ci-step], cells[ci]
			if a.Count != 1 || b.Count != 1 {
				if a.Count > 0 && b.Count > 0 {
					c.linkColumns(a, b, d, graph)
				}
				continue
			}
			if i, j := a.Index, b.Index; c.canLink(spans[i], spans[j]) {
				// Link 0 both ways: the direction's byte goes from 0xff to 0.
				spans[i].Con &^= 0xff << (8 * d)
				spans[j].Con &^= 0xff << (8 * back)
				if graph != nil {
					graph[4*int(i)+d] = int32(j)
					graph[4*int(j)+back] = int32(i)
				}
			}
		}
	}
}

// canLink reports whether open spans s and t of adjacent columns pass the
// link test: min(s.Y+s.H, t.Y+t.H) - max(s.Y, t.Y) >= WalkableHeightCells
// and |t.Y - s.Y| <= WalkableClimbCells (uint(dy+climb) <= 2*climb). The
// test is symmetric in s and t.
func (c *CompactHeightfield) canLink(s, t CompactSpan) bool {
	dy := int(t.Y) - int(s.Y)
	return min(int(s.Y)+int(s.H), int(t.Y)+int(t.H))-max(int(s.Y), int(t.Y)) >= c.WalkableHeightCells &&
		uint(dy+c.WalkableClimbCells) <= uint(2*c.WalkableClimbCells)
}

// linkColumns links the spans of column a in direction d to column b (the
// neighbour column there) and those of b in the opposite direction to a,
// each to the first span (bottom up) of the other column that passes the
// link test, unless its index in that column exceeds MaxLinkLayer.
//
// The spans of a column are read bottom up with one cursor into the other
// column: a span there more than WalkableClimbCells below the floor, or
// whose top is below floor+WalkableHeightCells, fails the test for this
// span and every higher one (floors and tops only grow up a column), so
// the cursor passes it for good; the search stops at the first span more
// than WalkableClimbCells above the floor. Linking a column pair is so
// linear in their spans, not their product.
func (c *CompactHeightfield) linkColumns(a, b CompactCell, d int, graph []int32) {
	spans := c.Spans
	climb, height := c.WalkableClimbCells, c.WalkableHeightCells
	if c.sameFloors(a, b) {
		// Span k of each column can link only to span k of the other: a
		// lower span there ends at or below its floor, a higher one
		// starts at or above its top.
		for k := range min(a.Count, MaxLinkLayer+1) {
			i, j := a.Index+k, b.Index+k
			if !c.canLink(spans[i], spans[j]) {
				continue
			}
			spans[i].Con = spans[i].Con&^(0xff<<(8*d)) | k<<(8*d)
			spans[j].Con = spans[j].Con&^(0xff<<(8*(d^2))) | k<<(8*(d^2))
			if graph != nil {
				graph[4*int(i)+d] = int32(j)
				graph[4*int(j)+d^2] = int32(i)
			}
		}
		return
	}
	// link links the spans of column from in direction dir to column to.
	link := func(from, to CompactCell, dir int) {
		// The first match past MaxLinkLayer is none: the search stops
		// there.
		n := min(int(to.Count), MaxLinkLayer+1)
		k := 0 // cursor into to
		for i := from.Index; i < from.Index+from.Count; i++ {
			s := spans[i]
			y := int(s.Y)
			for k < n {
				t := spans[int(to.Index)+k]
				if int(t.Y) >= y-climb && int(t.Y)+int(t.H)-y >= height {
					break
				}
				k++
			}
			for j := k; j < n; j++ {
				t := spans[int(to.Index)+j]
				if int(t.Y) > y+climb {
					break
				}
				if c.canLink(s, t) {
					sh := 8 * uint(dir)
					spans[i].Con = spans[i].Con&^(0xff<<sh) | uint32(j)<<sh
					if graph != nil {
						graph[4*int(i)+dir] = int32(int(to.Index) + j)
					}
					break
				}
			}
		}
	}
	link(a, b, d)
	link(b, a, d^2) // the opposite direction
}

// sameFloors reports whether columns a and b hold as many spans with the
// same floors.
func (c *CompactHeightfield) sameFloors(a, b CompactCell) bool {
	if a.Count != b.Count {
		return false
	}
	sa := c.Spans[a.Index : a.Index+a.Count]
	sb := c.Spans[b.Index : b.Index+a.Count]
	for k := range sa {
		if sa[k].Y != sb[k].Y {
			return false
		}
	}
	return true
}

// SpanCount returns the number of open spans.
func (c *CompactHeightfield) SpanCount() int {
	if c == nil {
		return 0
	}
	return len(c.Spans)
}

// WalkableSpanCount returns the number of open spans with a non-zero area.
func (c *CompactHeightfield) WalkableSpanCount() int {
	if c == nil {
		return 0
	}
	n := 0
	for _, a := range c.Areas {
		if a != AreaNull {
			n++
		}
	}
	return n
}

// StackedColumns returns the number of the grid's own columns (the border
// ring excluded) with two or more walkable open spans (area not AreaNull):
// places where one floor lies over another, such as under a bridge.
func (c *CompactHeightfield) StackedColumns() int {
	if c == nil {
		return 0
	}
	n := 0
	for z := c.BorderCells; z < c.Height-c.BorderCells; z++ {
		for x := c.BorderCells; x < c.Width-c.BorderCells; x++ {
			cell := c.Cells[x+z*c.Width]
			k := 0
			for i := cell.Index; i < cell.Index+cell.Count; i++ {
				if c.Areas[i] != AreaNull {
					k++
				}
			}
			if k >= 2 {
				n++
			}
		}
	}
	return n
}

// Neighbour returns the index in Spans of the span linked from span i of
// column (x, z) in direction d, or -1 when it is not linked.
func (c *CompactHeightfield) Neighbour(x, z, i, d int) int {
	l := c.Spans[i].Link(d)
	if l == NotConnected {
		return -1
	}
	return int(c.Cells[x+DirOffsetX[d]+(z+DirOffsetZ[d])*c.Width].Index) + l
}

// Clone returns a deep copy of c.
func (c *CompactHeightfield) Clone() *CompactHeightfield {
	if c == nil {
		return nil
	}
	d := *c
	d.Cells = append([]CompactCell(nil), c.Cells...)
	d.Spans = append([]CompactSpan(nil), c.Spans...)
	d.Areas = append([]uint8(nil), c.Areas...)
	return &d
}
