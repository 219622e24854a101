package render

import (
	"cmp"
	"image/color"
	"slices"
)

// Merging of the span overlays' unit faces into larger quads. A span top,
// bottom or floor is a unit square on the cell grid at some row and in some
// colour; rectMerger covers the unit squares of each (row, colour) group
// with rectangles (greedy: each rectangle grows along +x as far as the group
// goes, then along +z as far as every cell of its x range does). A side of a
// span box is a row interval on a cell edge; sideMerger joins the equal
// intervals (same rows, same colour) of consecutive cells along a grid line
// into one face. Both cover exactly the unit faces they are given, each once,
// and their output depends only on the faces given (never on map order), so
// a scene is the same bytes every time.

// planeKey is the group of a unit square: its row in the high 32 bits, its
// colour (R, G, B, A bytes) in the low 32. Squares merge only within a group.
type planeKey uint64

func makePlaneKey(row uint32, c color.RGBA) planeKey {
	return planeKey(uint64(row)<<32 | uint64(c.R)<<24 | uint64(c.G)<<16 | uint64(c.B)<<8 | uint64(c.A))
}

// row returns the row of k.
func (k planeKey) row() uint32 { return uint32(k >> 32) }

// colour returns the colour of k.
func (k planeKey) colour() color.RGBA {
	return color.RGBA{uint8(k >> 24), uint8(k >> 16), uint8(k >> 8), uint8(k)}
}

// unitSquare is a unit square waiting to be merged: its group and its cell
// index z*w + x in the merger's grid.
type unitSquare struct {
	key  planeKey
	cell uint32
}

// rectMerger merges unit squares on a w x h grid of cells into rectangles.
// The zero value is ready for reset; one merger can serve many grids in
// turn (its buffers are reused).
type rectMerger struct {
	w, h    int
	squares []unitSquare
	packed  []uint64 // sortSquares' buffer
	mark    []bool   // the current group's cells; all false between groups
}

// reset empties m for a grid of w x h cells.
func (m *rectMerger) reset(w, h int) {
	m.w, m.h = max(w, 0), max(h, 0)
	m.squares = m.squares[:0]
	if n := m.w * m.h; cap(m.mark) < n {
		m.mark = make([]bool, n)
	} else {
		m.mark = m.mark[:n]
	}
}

// add adds the unit square of cell (x, z) (0 <= x < w, 0 <= z < h) in
// group key.
func (m *rectMerger) add(x, z int, key planeKey) {
	m.squares = append(m.squares, unitSquare{key, uint32(z*m.w + x)})
}

// merge calls emit for every rectangle covering the squares added since
// reset, cells [x0, x1) x [z0, z1) of group key: groups in increasing key
// order, within a group by the rectangles' first cell in (z, x) order. A
// square added twice is covered once. merge leaves m empty.
func (m *rectMerger) merge(emit func(key planeKey, x0, z0, x1, z1 int)) {
	sq := m.squares
	m.sortSquares()
	w := m.w
	for s := 0; s < len(sq); {
		e := s
		for e < len(sq) && sq[e].key == sq[s].key {
			m.mark[sq[e].cell] = true
			e++
		}
		for _, u := range sq[s:e] {
			if !m.mark[u.cell] {
				continue // inside an earlier rectangle of the group
			}
			x0, z0 := int(u.cell)%w, int(u.cell)/w
			x1 := x0 + 1
			for x1 < w && m.mark[z0*w+x1] {
				x1++
			}
			z1 := z0 + 1
			for z1 < m.h && allTrue(m.mark[z1*w+x0:z1*w+x1]) {
				z1++
			}
			for z := z0; z < z1; z++ {
				clear(m.mark[z*w+x0 : z*w+x1])
			}
			emit(sq[s].key, x0, z0, x1, z1)
		}
		s = e
	}
	m.squares = sq[:0]
}

// sortSquares sorts m.squares by group, then cell. When every row and
// cell index fits in 16 bits (always, for tiles of up to 65536 columns) it
// sorts them packed in one uint64 each, which is several times faster
// than comparing structs.
func (m *rectMerger) sortSquares() {
	sq := m.squares
	packable := m.w*m.h <= 1<<16
	for i := 0; packable && i < len(sq); i++ {
		packable = sq[i].key.row() < 1<<16
	}
	if !packable {
		slices.SortFunc(sq, func(a, b unitSquare) int {
			if a.key != b.key {
				return cmp.Compare(a.key, b.key)
			}
			return cmp.Compare(a.cell, b.cell)
		})
		return
	}
	p := m.packed[:0]
	for _, u := range sq {
		p = append(p, uint64(u.key)<<16|uint64(u.cell)) // row 16 bits, colour 32, cell 16
	}
	slices.Sort(p)
	for i, v := range p {
		sq[i] = unitSquare{planeKey(v >> 16), uint32(v & 0xffff)}
	}
	m.packed = p
}

func allTrue(bs []bool) bool {
	for _, b := range bs {
		if !b {
			return false
		}
	}
	return true
}

// sideRun is a face of equal side pieces of consecutive cells along a grid
// line: rows [lo, hi) in colour col, cells first..last along the line.
type sideRun struct {
	lo, hi      int
	col         color.RGBA
	first, last int
}

// sideMerger joins the side pieces of consecutive cells along grid lines.
// Pieces are given line by line in slots (one slot per line being walked at
// the same time), cells along each slot's line in increasing order.
type sideMerger struct {
	open [][]sideRun // per slot, the runs that may still grow
	// emit receives every finished run of slot slot.
	emit func(slot int, r sideRun)
}

// reset empties m for n slots.
func (m *sideMerger) reset(n int) {
	if cap(m.open) < n {
		m.open = make([][]sideRun, n)
	}
	m.open = m.open[:n]
	for i := range m.open {
		m.open[i] = m.open[i][:0]
	}
}

// add adds the piece rows [lo, hi) in colour col of cell at along slot's
// line: it extends the run of equal pieces that ended at the cell before,
// or starts a run.
func (m *sideMerger) add(slot, at, lo, hi int, col color.RGBA) {
	runs := m.open[slot]
	for i := range runs {
		r := &runs[i]
		if r.last == at-1 && r.lo == lo && r.hi == hi && r.col == col {
			r.last = at
			return
		}
	}
	m.open[slot] = append(runs, sideRun{lo: lo, hi: hi, col: col, first: at, last: at})
}

// endCell finishes the cell at along slot's line: every run of the slot
// that the cell did not extend is emitted (in the order the runs started).
func (m *sideMerger) endCell(slot, at int) {
	runs := m.open[slot]
	k := 0
	for _, r := range runs {
		if r.last < at {
			m.emit(slot, r)
			continue
		}
		runs[k] = r
		k++
	}
	m.open[slot] = runs[:k]
}

// flush emits every open run of slot.
func (m *sideMerger) flush(slot int) {
	for _, r := range m.open[slot] {
		m.emit(slot, r)
	}
	m.open[slot] = m.open[slot][:0]
}
