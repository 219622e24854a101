package voxel

import (
	"errors"
	"fmt"
	"math"

	"navviz/core/geom"
)

// Area ids (see the package documentation).
const (
	// AreaNull marks a span that is not walkable.
	AreaNull uint8 = 0
	// AreaWalkable is the default walkable area id.
	AreaWalkable uint8 = 63
	// MaxArea is the largest valid area id.
	MaxArea uint8 = 63
)

// Limits of the voxel grid.
const (
	// MaxSpanRow is the largest row a solid span may reach (its MaxRow is at
	// most this; Recast's 13-bit RC_SPAN_MAX_HEIGHT).
	MaxSpanRow = 8191
	// SkyRow is the ceiling row of the gap above a column's topmost span.
	// The filters and the compact heightfield treat it as the top of the
	// open space (Recast's 0xffff).
	SkyRow = 0xffff
	// MaxGridSide is the largest Width or Height of a grid, in cells.
	MaxGridSide = 1 << 16
	// MaxGridColumns is the largest Width*Height of a grid.
	MaxGridColumns = 1 << 26
	// MaxCoordM bounds every coordinate the voxel stages accept, in metres:
	// inputs must be finite and within ±MaxCoordM (2^21, where float32
	// positions are still spaced 0.25 m apart).
	MaxCoordM = 1 << 21
)

// Grid is the geometry shared by a solid and a compact heightfield: the
// columns of a tile's build grid (its own cells plus BorderCells on each
// side) or of a whole level.
type Grid struct {
	// Width and Height are the number of columns along x and z.
	Width, Height int
	// BorderCells is the width of the border ring on each side, in cells
	// (columns x < BorderCells or x >= Width-BorderCells, same for z). The
	// ring is built like every other column; later stages leave it out of
	// the tile's polygons.
	BorderCells int
	// OriginM is the min corner of the grid in metres: column x spans
	// [OriginM.X + x*CellSizeM, OriginM.X + (x+1)*CellSizeM), row r starts at
	// OriginM.Y + r*CellHeightM.
	OriginM geom.Vec3
	// MaxM is the max corner in metres. Rasterization skips triangles whose
	// box does not touch [OriginM, MaxM] and clamps spans to
	// [0, MaxM.Y-OriginM.Y] above the origin.
	MaxM geom.Vec3
	// CellSizeM is the column size along x and z, in metres.
	CellSizeM float32
	// CellHeightM is the row height, in metres.
	CellHeightM float32
}

// Validate checks the grid: sizes in 1..MaxGridSide with at most
// MaxGridColumns columns, 0 <= BorderCells with 2*BorderCells < Width and
// Height, finite corners within ±MaxCoordM with MaxM >= OriginM, positive
// finite cell sizes, and a vertical range whose top row
// ceil((MaxM.Y-OriginM.Y) * (1/CellHeightM)) is below MaxSpanRow.
func (g *Grid) Validate() error {
	if g == nil {
		return fmt.Errorf("voxel: nil grid")
	}
	if g.Width < 1 || g.Width > MaxGridSide {
		return fmt.Errorf("voxel: grid Width %d out of range 1..%d", g.Width, MaxGridSide)
	}
	if g.Height < 1 || g.Height > MaxGridSide {
		return fmt.Errorf("voxel: grid Height %d out of range 1..%d", g.Height, MaxGridSide)
	}
	if g.Width*g.Height > MaxGridColumns {
		return fmt.Errorf("voxel: grid of %d x %d columns exceeds %d columns", g.Width, g.Height, MaxGridColumns)
	}
	if g.BorderCells < 0 || 2*g.BorderCells >= g.Width || 2*g.BorderCells >= g.Height {
		return fmt.Errorf("voxel: grid BorderCells %d out of range for a %d x %d grid", g.BorderCells, g.Width, g.Height)
	}
	if !finiteSize(g.CellSizeM) {
		return fmt.Errorf("voxel: grid CellSizeM %v is not a positive finite number", g.CellSizeM)
	}
	if !finiteSize(g.CellHeightM) {
		return fmt.Errorf("voxel: grid CellHeightM %v is not a positive finite number", g.CellHeightM)
	}
	if err := checkCoord("grid OriginM", g.OriginM); err != nil {
		return err
	}
	if err := checkCoord("grid MaxM", g.MaxM); err != nil {
		return err
	}
	if g.MaxM.X < g.OriginM.X || g.MaxM.Y < g.OriginM.Y || g.MaxM.Z < g.OriginM.Z {
		return fmt.Errorf("voxel: grid MaxM %v is below OriginM %v", g.MaxM, g.OriginM)
	}
	by := g.MaxM.Y - g.OriginM.Y
	top := math.Ceil(float64(by * (1 / g.CellHeightM)))
	if !(top < MaxSpanRow) {
		return fmt.Errorf("voxel: grid vertical range %v m is %v rows of %v m, want below %d", by, top, g.CellHeightM, MaxSpanRow)
	}
	return nil
}

// InBorder reports whether column (x, z) lies in the border ring.
func (g *Grid) InBorder(x, z int) bool {
	b := g.BorderCells
	return x < b || z < b || x >= g.Width-b || z >= g.Height-b
}

// CellCenterM returns the centre of column (x, z) in x and z, in double:
// OriginM + (index + 0.5) * CellSizeM with the product rounded before the sum.
func (g *Grid) CellCenterM(x, z int) (cx, cz float64) {
	cs := float64(g.CellSizeM)
	cx = float64(g.OriginM.X) + float64((float64(x)+0.5)*cs)
	cz = float64(g.OriginM.Z) + float64((float64(z)+0.5)*cs)
	return cx, cz
}

// RowHeightM returns the height of row r in metres, in double:
// OriginM.Y + r * CellHeightM with the product rounded before the sum.
func (g *Grid) RowHeightM(r int) float64 {
	return float64(g.OriginM.Y) + float64(float64(r)*float64(g.CellHeightM))
}

func finiteSize(v float32) bool {
	return v > 0 && !math.IsInf(float64(v), 1)
}

func finiteCoord(v float32) bool {
	return v >= -MaxCoordM && v <= MaxCoordM // false for NaN
}

func checkCoord(what string, p geom.Vec3) error {
	if !finiteCoord(p.X) || !finiteCoord(p.Y) || !finiteCoord(p.Z) {
		return fmt.Errorf("voxel: %s %v is not finite or outside ±%d m", what, p, MaxCoordM)
	}
	return nil
}

// Span is a solid span of a heightfield column: rows [MinRow, MaxRow) are
// solid (MinRow < MaxRow <= MaxSpanRow); MaxRow is the floor an agent stands
// on. Area is the area id of that floor (0..63).
type Span struct {
	MinRow, MaxRow uint16
	Area           uint8
}

// spanNode is a pooled span with the index of the next span up the column
// (-1 at the top).
type spanNode struct {
	Span
	next int32
}

// Heightfield is a solid heightfield: for each column (x, z) a list of solid
// spans sorted by row with gaps between them (next.MinRow > prev.MaxRow).
// Spans live in one pool linked by int32 indices; spans freed by merging are
// reused. The zero value is not usable; call NewHeightfield or Reset.
type Heightfield struct {
	Grid

	heads []int32 // per column (x + z*Width): first span index, -1 if empty
	// last is, per column, the span mergeSpan made last there (it is
	// still in the column: a later merge absorbing it makes the next), or
	// -1: a new span above it is merged from there, not from the head, so
	// floors rasterized bottom up cost one step each, not the column.
	last   []int32
	pool   []spanNode
	free   int32 // head of the free list, -1 if empty
	nspans int
	// walkable is the number of spans with an area other than AreaNull
	// when FilterSpans counted them and nothing changed since (every
	// change of a span sets it to -1), else -1: compaction then need not
	// count them again.
	walkable int
	// lone is FilterSpans' scratch (loneFloors).
	lone []uint16
	same []uint8 // FilterSpans' scratch: sameX, sameZ per column
}

// NewHeightfield returns an empty heightfield on grid g (validated).
func NewHeightfield(g Grid) (*Heightfield, error) {
	h := &Heightfield{}
	if err := h.Reset(g); err != nil {
		return nil, err
	}
	return h, nil
}

// errNilHeightfield is the error of the methods of a nil *Heightfield.
var errNilHeightfield = errors.New("voxel: nil heightfield")

// Reset empties h and sets its grid to g, reusing h's memory. On error h is
// unchanged.
func (h *Heightfield) Reset(g Grid) error {
	if h == nil {
		return errNilHeightfield
	}
	if err := g.Validate(); err != nil {
		return err
	}
	h.Grid = g
	n := g.Width * g.Height
	if cap(h.heads) < n {
		h.heads = make([]int32, n)
	}
	h.heads = h.heads[:n]
	for i := range h.heads {
		h.heads[i] = -1
	}
	h.last = resized(h.last, n)
	for i := range h.last {
		h.last[i] = -1
	}
	h.pool = h.pool[:0]
	h.free = -1
	h.nspans = 0
	h.walkable = -1
	return nil
}

// NewHeightfieldFromColumns returns a heightfield on grid g holding the given
// spans (voxel input): columns[x+z*Width] lists the spans of column (x, z)
// bottom up. Each column must be sorted with gaps (MinRow < MaxRow <=
// MaxSpanRow, next.MinRow > prev.MaxRow) and every area id in 0..63; the
// error names the first bad column and span. The vertical range of g does
// not constrain the spans.
func NewHeightfieldFromColumns(g Grid, columns [][]Span) (*Heightfield, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	if len(columns) != g.Width*g.Height {
		return nil, fmt.Errorf("voxel: %d columns for a %d x %d grid, want %d", len(columns), g.Width, g.Height, g.Width*g.Height)
	}
	total := 0
	for c, col := range columns {
		for i, s := range col {
			if s.MinRow >= s.MaxRow || s.MaxRow > MaxSpanRow {
				return nil, fmt.Errorf("voxel: column (%d, %d) span %d has rows [%d, %d), want MinRow < MaxRow <= %d",
					c%g.Width, c/g.Width, i, s.MinRow, s.MaxRow, MaxSpanRow)
			}
			if s.Area > MaxArea {
				return nil, fmt.Errorf("voxel: column (%d, %d) span %d has area id %d, want 0..%d", c%g.Width, c/g.Width, i, s.Area, MaxArea)
			}
			if i > 0 && s.MinRow <= col[i-1].MaxRow {
				return nil, fmt.Errorf("voxel: column (%d, %d) span %d starts at row %d, not above span %d ending at row %d",
					c%g.Width, c/g.Width, i, s.MinRow, i-1, col[i-1].MaxRow)
			}
		}
		total += len(col)
	}
	h := &Heightfield{}
	if err := h.Reset(g); err != nil {
		return nil, err
	}
	h.pool = make([]spanNode, 0, total)
	for c, col := range columns {
		h.setColumn(c, col)
	}
	return h, nil
}

// setColumn replaces the (empty) column c by the sorted spans col.
func (h *Heightfield) setColumn(c int, col []Span) {
	h.walkable = -1
	prev := int32(-1)
	for _, s := range col {
		n := h.alloc()
		h.pool[n] = spanNode{Span: s, next: -1}
		if prev < 0 {
			h.heads[c] = n
		} else {
			h.pool[prev].next = n
		}
		prev = n
	}
}

// CopyWindow fills the empty heightfield h with the columns of src starting at
// src column (srcX0, srcZ0): h's column (x, z) receives src's column
// (srcX0+x, srcZ0+z), or nothing where that lies outside src. Rows are copied
// unchanged, so both grids must share CellSizeM, CellHeightM and OriginM.Y.
func (h *Heightfield) CopyWindow(src *Heightfield, srcX0, srcZ0 int) error {
	if h == nil || src == nil {
		return fmt.Errorf("voxel: CopyWindow: nil heightfield")
	}
	if h.nspans != 0 {
		return fmt.Errorf("voxel: CopyWindow into a heightfield with %d spans, want an empty one", h.nspans)
	}
	if src.CellSizeM != h.CellSizeM || src.CellHeightM != h.CellHeightM || src.OriginM.Y != h.OriginM.Y {
		return fmt.Errorf("voxel: CopyWindow from cells %v x %v m at y %v into cells %v x %v m at y %v",
			src.CellSizeM, src.CellHeightM, src.OriginM.Y, h.CellSizeM, h.CellHeightM, h.OriginM.Y)
	}
	var buf []Span
	for z := 0; z < h.Height; z++ {
		sz := srcZ0 + z
		if sz < 0 || sz >= src.Height {
			continue
		}
		for x := 0; x < h.Width; x++ {
			sx := srcX0 + x
			if sx < 0 || sx >= src.Width {
				continue
			}
			buf = src.AppendColumn(buf[:0], sx, sz)
			h.setColumn(x+z*h.Width, buf)
		}
	}
	return nil
}

func (h *Heightfield) alloc() int32 {
	h.nspans++
	if h.free >= 0 {
		n := h.free
		h.free = h.pool[n].next
		return n
	}
	h.pool = append(h.pool, spanNode{})
	return int32(len(h.pool) - 1)
}

func (h *Heightfield) release(n int32) {
	h.nspans--
	h.pool[n].next = h.free
	h.free = n
}

// SpanCount returns the number of solid spans in h.
func (h *Heightfield) SpanCount() int {
	if h == nil {
		return 0
	}
	return h.nspans
}

// AppendColumn appends the spans of column (x, z), bottom up, to dst and
// returns it; a column outside the grid appends nothing.
func (h *Heightfield) AppendColumn(dst []Span, x, z int) []Span {
	if h == nil {
		return dst
	}
	if x < 0 || z < 0 || x >= h.Width || z >= h.Height {
		return dst
	}
	for i := h.heads[x+z*h.Width]; i >= 0; i = h.pool[i].next {
		dst = append(dst, h.pool[i].Span)
	}
	return dst
}

// AddSpan adds the solid rows [minRow, maxRow) with area id area to column
// (x, z), merging it with every span it overlaps or touches (Recast's
// rcAddSpan). The merged span covers the union; its area is decided span by
// span, bottom up: after widening to each merged span S, when
// |merged.MaxRow - S.MaxRow| <= mergeClimbCells the area becomes
// max(area, S.Area), otherwise it is kept. Invalid arguments return an error
// naming them and change nothing.
func (h *Heightfield) AddSpan(x, z, minRow, maxRow int, area uint8, mergeClimbCells int) error {
	if h == nil {
		return errNilHeightfield
	}
	if x < 0 || z < 0 || x >= h.Width || z >= h.Height {
		return fmt.Errorf("voxel: AddSpan column (%d, %d) outside the %d x %d grid", x, z, h.Width, h.Height)
	}
	if minRow < 0 || minRow >= maxRow || maxRow > MaxSpanRow {
		return fmt.Errorf("voxel: AddSpan rows [%d, %d), want 0 <= min < max <= %d", minRow, maxRow, MaxSpanRow)
	}
	if area > MaxArea {
		return fmt.Errorf("voxel: AddSpan area id %d, want 0..%d", area, MaxArea)
	}
	if mergeClimbCells < 0 {
		return fmt.Errorf("voxel: AddSpan mergeClimbCells %d, want >= 0", mergeClimbCells)
	}
	h.addSpan(x+z*h.Width, uint16(minRow), uint16(maxRow), area, mergeClimbCells)
	return nil
}

// addSpan is AddSpan on column index c without checks.
func (h *Heightfield) addSpan(c int, smin, smax uint16, area uint8, mergeThr int) {
	if !h.raiseLowest(c, smin, smax, area) {
		h.mergeSpan(c, smin, smax, area, mergeThr)
	}
}

// raiseLowest is addSpan's commonest case, small enough to inline into
// rasterization's loops: when [smin, smax) lies within the lowest span of
// column c, that span is the whole merge (see mergeSpan) and only its area
// rises to area. It reports whether that was the case.
func (h *Heightfield) raiseLowest(c int, smin, smax uint16, area uint8) bool {
	if head := h.heads[c]; head >= 0 {
		if s := &h.pool[head]; s.MinRow <= smin && smax <= s.MaxRow {
			s.Area = max(area, s.Area)
			h.walkable = -1
			return true
		}
	}
	return false
}

// mergeSpan is addSpan walking up the column, from the head or, when the
// new span lies above it (no touching), from the column's last made span:
// every span below that one lies below the new span too.
func (h *Heightfield) mergeSpan(c int, smin, smax uint16, area uint8, mergeThr int) {
	h.walkable = -1
	prev := int32(-1)
	cur := h.heads[c]
	if l := h.last[c]; l >= 0 && h.pool[l].MaxRow < smin {
		prev, cur = l, h.pool[l].next
	}
	for cur >= 0 {
		s := &h.pool[cur]
		if s.MinRow > smax {
			break // s and everything above lie above the new span
		}
		if s.MaxRow < smin {
			prev = cur
			cur = s.next
			continue
		}
		if s.MinRow <= smin && smax <= s.MaxRow {
			// The new span lies within s, so it reaches no other span and
			// the merge is s itself with the higher area (the tops are
			// equal: within any climb). Updating s in place leaves the
			// pool as releasing s and allocating it again would.
			s.Area = max(area, s.Area)
			return
		}
		// Overlapping or touching: absorb s.
		smin = min(smin, s.MinRow)
		smax = max(smax, s.MaxRow)
		d := int(smax) - int(s.MaxRow)
		if d <= mergeThr && -d <= mergeThr {
			area = max(area, s.Area)
		}
		next := s.next
		h.release(cur)
		if prev >= 0 {
			h.pool[prev].next = next
		} else {
			h.heads[c] = next
		}
		cur = next
	}
	n := h.alloc()
	h.pool[n] = spanNode{Span: Span{MinRow: smin, MaxRow: smax, Area: area}, next: cur}
	h.last[c] = n
	if prev >= 0 {
		h.pool[prev].next = n
	} else {
		h.heads[c] = n
	}
}
