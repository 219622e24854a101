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
	*c = CompactHeightfield{
		Grid:                h.Grid,
		WalkableHeightCells: heightCells,
		WalkableClimbCells:  climbCells,
		Cells:               cells,
		Spans:               spans,
		Areas:               make([]uint8, count),
	}
	idx := 0
	for ci, head := range h.heads {
		c.Cells[ci].Index = uint32(idx)
		for n := head; n >= 0; n = h.pool[n].next {
			s := &h.pool[n]
			if s.Area == AreaNull {
				continue
			}
			bot := int(s.MaxRow)
			clear := min(h.ceilingOf(n)-bot, MaxClearanceCells)
			c.Spans[idx] = CompactSpan{Y: uint16(bot), H: uint8(clear), Con: 0xffffffff}
			c.Areas[idx] = s.Area
			idx++
		}
		c.Cells[ci].Count = uint32(idx) - c.Cells[ci].Index
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
// of BuildCompactHeightfield; every earlier link is overwritten). graph,
// when not nil (4 per span), receives the span graph (SpanGraph).
func (c *CompactHeightfield) linkSpans(graph []int32) {
	w, ht := c.Width, c.Height
	heightCells, climbCells := c.WalkableHeightCells, c.WalkableClimbCells
	cells, spans := c.Cells, c.Spans
	off := [4]int{-1, w, 1, -w} // column index step of each direction
	// link returns the index within column nc of the first span linked
	// from a span with floor y and top (floor plus clearance), or
	// NotConnected.
	link := func(nc CompactCell, y, top int) uint32 {
		col := spans[nc.Index : nc.Index+nc.Count]
		for k := range col {
			ny := int(col[k].Y)
			dy := ny - y
			if min(top, ny+int(col[k].H))-max(y, ny) >= heightCells && dy <= climbCells && -dy <= climbCells {
				if k <= MaxLinkLayer {
					return uint32(k)
				}
				break
			}
		}
		return NotConnected
	}
	for z := 0; z < ht; z++ {
		for x := 0; x < w; x++ {
			ci := x + z*w
			cell := cells[ci]
			if cell.Count == 0 {
				continue
			}
			// in[d]: the neighbour column of direction d is in the grid.
			in := [4]bool{x > 0, z < ht-1, x < w-1, z > 0}
			var ncs [4]CompactCell // neighbour columns, empty outside the grid
			for d := range 4 {
				if in[d] {
					ncs[d] = cells[ci+off[d]]
				}
			}
			for i := cell.Index; i < cell.Index+cell.Count; i++ {
				s := &spans[i]
				y, top := int(s.Y), int(s.Y)+int(s.H)
				// Between two one-span columns the link test is symmetric,
				// so the −x and −z links of a lone span are the mirror of
				// what the neighbour's +x and +z links (made already, its
				// column coming first) found: 0 both ways, or neither.
				var l0, l3 uint32
				if cell.Count == 1 && ncs[0].Count == 1 {
					l0 = spans[ncs[0].Index].Con >> 16 & 0xff
				} else {
					l0 = link(ncs[0], y, top)
				}
				if cell.Count == 1 && ncs[3].Count == 1 {
					l3 = spans[ncs[3].Index].Con >> 8 & 0xff
				} else {
					l3 = link(ncs[3], y, top)
				}
				l1, l2 := link(ncs[1], y, top), link(ncs[2], y, top)
				s.Con = l0 | l1<<8 | l2<<16 | l3<<24
				if graph != nil {
					g := (*[4]int32)(graph[4*i : 4*i+4])
					g[0], g[1], g[2], g[3] = graphLink(ncs[0], l0), graphLink(ncs[1], l1), graphLink(ncs[2], l2), graphLink(ncs[3], l3)
				}
			}
		}
	}
}

// graphLink returns the span index of link l into column nc, or -1 for
// NotConnected.
func graphLink(nc CompactCell, l uint32) int32 {
	if l == NotConnected {
		return -1
	}
	return int32(nc.Index + l)
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
