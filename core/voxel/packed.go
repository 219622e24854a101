package voxel

import (
	"fmt"
	"math"
	"slices"
)

// PackedHeightfield is a compact heightfield stored small, for keeping
// many of them (the tile cache keeps one per tile): per column its span
// count in two bits (3 meaning "3 or more", the exact count then in a
// sorted list of such columns), per span its floor row (two bytes), its
// clearance (one byte) and its area (one byte), and per row the index of
// its first span. The links are not stored: they are a function of the
// floors and clearances (BuildCompactHeightfield's rule) and Unpack makes
// them again. About 4 bytes a span and a quarter of a byte a column,
// against 8 and 8 for a CompactHeightfield.
//
// Spans are numbered as in the CompactHeightfield it was packed from
// (column order x + z*Width, bottom up in a column), so per-span values
// such as areas index both alike.
type PackedHeightfield struct {
	Grid
	// WalkableHeightCells and WalkableClimbCells are the agent height and
	// climb the links are made with, in rows.
	WalkableHeightCells int
	WalkableClimbCells  int
	// Areas holds the area id of each span.
	Areas []uint8

	rowFirst  []uint32 // index of the first span of each row, and the span count at Height
	counts    []uint8  // spans per column, two bits each (column ci: bits 2(ci%4) of byte ci/4), 3: see many
	manyCol   []uint32 // the columns of 3 spans or more, ascending
	manyCount []uint32 // their span counts
	y         []uint16 // floor row per span
	h         []uint8  // clearance per span
}

// manyMark is the two-bit count of a column of manyMark spans or more.
const manyMark = 3

// Pack returns c stored as a PackedHeightfield. The packed heightfield
// shares c.Areas (Areas is the same slice); everything else is new memory.
// c's cells must number its spans column by column (as
// BuildCompactHeightfield does); an inconsistent c is an error naming the
// value.
func Pack(c *CompactHeightfield) (*PackedHeightfield, error) {
	if c == nil {
		return nil, fmt.Errorf("voxel: Pack: nil compact heightfield")
	}
	if err := c.Grid.Validate(); err != nil {
		return nil, fmt.Errorf("voxel: Pack: %w", err)
	}
	w, ht := c.Width, c.Height
	if len(c.Cells) != w*ht || len(c.Areas) != len(c.Spans) {
		return nil, fmt.Errorf("voxel: Pack: compact heightfield of %d x %d columns has %d cells, %d spans and %d areas",
			w, ht, len(c.Cells), len(c.Spans), len(c.Areas))
	}
	if uint64(len(c.Spans)) > math.MaxUint32 {
		return nil, fmt.Errorf("voxel: Pack: %d spans, more than %d", len(c.Spans), uint64(math.MaxUint32))
	}
	p := &PackedHeightfield{
		Grid:                c.Grid,
		WalkableHeightCells: c.WalkableHeightCells,
		WalkableClimbCells:  c.WalkableClimbCells,
		Areas:               c.Areas,
		rowFirst:            make([]uint32, ht+1),
		counts:              make([]uint8, (len(c.Cells)+3)/4),
		y:                   make([]uint16, len(c.Spans)),
		h:                   make([]uint8, len(c.Spans)),
	}
	next := uint32(0)
	for ci, cell := range c.Cells {
		if cell.Index != next {
			return nil, fmt.Errorf("voxel: Pack: column %d starts at span %d, want %d", ci, cell.Index, next)
		}
		if uint64(next)+uint64(cell.Count) > uint64(len(c.Spans)) {
			return nil, fmt.Errorf("voxel: Pack: column %d ends at span %d, beyond the %d spans", ci, uint64(next)+uint64(cell.Count), len(c.Spans))
		}
		next += cell.Count
	}
	if int(next) != len(c.Spans) {
		return nil, fmt.Errorf("voxel: Pack: the cells hold %d spans, the heightfield %d", next, len(c.Spans))
	}
	for ci, cell := range c.Cells {
		if ci%w == 0 {
			p.rowFirst[ci/w] = cell.Index
		}
		k := min(cell.Count, manyMark)
		if k == manyMark {
			p.manyCol = append(p.manyCol, uint32(ci))
			p.manyCount = append(p.manyCount, cell.Count)
		}
		p.counts[ci>>2] |= uint8(k) << (2 * (ci & 3))
	}
	p.rowFirst[ht] = next
	for i, s := range c.Spans {
		p.y[i], p.h[i] = s.Y, s.H
	}
	return p, nil
}

// SpanCount returns the number of open spans.
func (p *PackedHeightfield) SpanCount() int {
	if p == nil {
		return 0
	}
	return len(p.y)
}

// SizeBytes returns the bytes p holds: its slices' lengths (Areas
// included) times their element sizes, without the fixed header.
func (p *PackedHeightfield) SizeBytes() int {
	if p == nil {
		return 0
	}
	return 4*len(p.rowFirst) + len(p.counts) + 4*len(p.manyCol) + 4*len(p.manyCount) + 2*len(p.y) + len(p.h) + len(p.Areas)
}

// count returns the number of spans of column ci.
func (p *PackedHeightfield) count(ci int) int {
	k := int(p.counts[ci>>2]>>(2*(ci&3))) & 3
	if k < manyMark {
		return k
	}
	return p.manyOf(ci)
}

// manyOf returns the number of spans of column ci, one of the columns of
// manyMark spans or more.
func (p *PackedHeightfield) manyOf(ci int) int {
	i, _ := slices.BinarySearch(p.manyCol, uint32(ci))
	return int(p.manyCount[i])
}

// countSums holds, per byte of PackedHeightfield.counts, the sum of its
// four two-bit counts (low byte) and how many of them are manyMark (high
// byte).
var countSums = func() (t [256]uint16) {
	for b := range t {
		for f := 0; f < 4; f++ {
			k := uint16(b>>(2*f)) & 3
			t[b] += k
			if k == manyMark {
				t[b] += 1 << 8
			}
		}
	}
	return t
}()

// sumCounts returns the number of spans of columns a..b-1.
func (p *PackedHeightfield) sumCounts(a, b int) int {
	s, many := 0, 0
	ci := a
	add := func(ci int) {
		k := int(p.counts[ci>>2]>>(2*(ci&3))) & 3
		s += k
		if k == manyMark {
			many++
		}
	}
	for ; ci < b && ci&3 != 0; ci++ {
		add(ci)
	}
	for ; ci+4 <= b; ci += 4 {
		t := countSums[p.counts[ci>>2]]
		s += int(t & 0xff)
		many += int(t >> 8)
	}
	for ; ci < b; ci++ {
		add(ci)
	}
	if many > 0 {
		lo, _ := slices.BinarySearch(p.manyCol, uint32(a))
		for _, n := range p.manyCount[lo : lo+many] {
			s += int(n) - manyMark
		}
	}
	return s
}

// Unpack writes the compact heightfield p was packed from into dst, links
// included (made again by BuildCompactHeightfield's rule), reusing dst's
// Cells and Spans when they are large enough, and returns dst (a new one
// when dst is nil). dst.Areas is set to p.Areas (shared: treat it as
// read-only, or replace it). The result equals the packed heightfield
// field for field.
func (p *PackedHeightfield) Unpack(dst *CompactHeightfield) *CompactHeightfield {
	if p == nil {
		return nil
	}
	if dst == nil {
		dst = &CompactHeightfield{}
	}
	n, cols := len(p.y), p.Width*p.Height
	cells, spans := dst.Cells, dst.Spans
	if cap(cells) < cols {
		cells = make([]CompactCell, cols)
	}
	if cap(spans) < n {
		spans = make([]CompactSpan, n)
	}
	*dst = CompactHeightfield{
		Grid:                p.Grid,
		WalkableHeightCells: p.WalkableHeightCells,
		WalkableClimbCells:  p.WalkableClimbCells,
		Cells:               cells[:cols],
		Spans:               spans[:n],
		Areas:               p.Areas,
	}
	idx, many := uint32(0), 0
	for ci := range dst.Cells {
		k := uint32(p.counts[ci>>2]>>(2*(ci&3))) & 3
		if k == manyMark {
			k = p.manyCount[many]
			many++
		}
		dst.Cells[ci] = CompactCell{Index: idx, Count: k}
		idx += k
	}
	for i := range dst.Spans {
		dst.Spans[i] = CompactSpan{Y: p.y[i], H: p.h[i], Con: 0xffffffff}
	}
	dst.linkSpans(nil)
	return dst
}

// packedColumns are the spanColumns of a packed heightfield.
type packedColumns struct{ p *PackedHeightfield }

func (pc packedColumns) first(x, z int) int {
	p := pc.p
	return int(p.rowFirst[z]) + p.sumCounts(z*p.Width, z*p.Width+x)
}
func (pc packedColumns) count(x, z int) int { return pc.p.count(x + z*pc.p.Width) }
func (pc packedColumns) floorRow(i int) int { return int(pc.p.y[i]) }

// checkAreas checks that areas holds one area per span of p (fn names the
// caller).
func (p *PackedHeightfield) checkAreas(fn string, areas []uint8) error {
	if p == nil {
		return fmt.Errorf("voxel: %s: nil packed heightfield", fn)
	}
	if len(areas) != len(p.y) {
		return fmt.Errorf("voxel: %s: %d areas for a packed heightfield of %d spans", fn, len(areas), len(p.y))
	}
	return nil
}

// MarkObstacle is MarkObstacle (the package function) on the spans of p
// with the areas given (one per span; not p.Areas unless passed): every
// span of areas it marks gets AreaNull. It returns the number of spans
// set and a range of spans outside which none changed. The obstacle and
// radiusCells are validated first; on error areas is unchanged.
func (p *PackedHeightfield) MarkObstacle(areas []uint8, o *Obstacle, radiusCells int) (int, SpanRange, error) {
	if err := o.Validate(); err != nil {
		return 0, SpanRange{}, fmt.Errorf("voxel: %w", err)
	}
	if radiusCells < 0 || radiusCells > MaxErodeRadiusCells {
		return 0, SpanRange{}, fmt.Errorf("voxel: obstacle growth radiusCells %d out of range 0..%d", radiusCells, MaxErodeRadiusCells)
	}
	if err := p.checkAreas("PackedHeightfield.MarkObstacle", areas); err != nil {
		return 0, SpanRange{}, err
	}
	if len(areas) == 0 {
		return 0, SpanRange{}, nil // nothing to mark (and no grid to read in a zero p)
	}
	n, r := markObstacle(packedColumns{p}, &p.Grid, areas, o, radiusCells)
	return n, r, nil
}

// MarkConvexVolume is MarkConvexVolume (the package function) on the spans
// of p with the areas given (one per span). It returns a range of spans
// outside which none changed. The volume is validated first; on error
// areas is unchanged.
func (p *PackedHeightfield) MarkConvexVolume(areas []uint8, v *ConvexVolume) (SpanRange, error) {
	if err := v.Validate(); err != nil {
		return SpanRange{}, err
	}
	if err := p.checkAreas("PackedHeightfield.MarkConvexVolume", areas); err != nil {
		return SpanRange{}, err
	}
	if len(areas) == 0 {
		return SpanRange{}, nil
	}
	return markVolume(packedColumns{p}, &p.Grid, areas, v), nil
}
