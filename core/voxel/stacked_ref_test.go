package voxel

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// stackedColumns returns random columns of a w x h grid with up to maxSpans
// spans each, many of them copies of the column before or of a shared
// stack (as stacked floors give), some with one span moved, so that the
// filters' and the linking's shortcuts for equal columns and their cursors
// both run.
func stackedColumns(rng *rand.Rand, w, h, maxSpans int) [][]Span {
	stack := func() []Span {
		var col []Span
		row := rng.IntN(6)
		for range rng.IntN(maxSpans + 1) {
			lo := row
			hi := lo + 1 + rng.IntN(4) + rng.IntN(2)*rng.IntN(20)
			if hi > MaxSpanRow {
				break
			}
			col = append(col, Span{MinRow: uint16(lo), MaxRow: uint16(hi), Area: uint8(rng.IntN(2)) * AreaWalkable})
			row = hi + 1 + rng.IntN(14)
		}
		return col
	}
	shared := stack()
	cols := make([][]Span, w*h)
	for ci := range cols {
		switch k := rng.IntN(10); {
		case k < 4:
			cols[ci] = slices.Clone(shared)
		case k < 7 && ci > 0:
			cols[ci] = slices.Clone(cols[ci-1])
		default:
			cols[ci] = stack()
		}
		if c := cols[ci]; len(c) > 0 && rng.IntN(4) == 0 {
			// Move a span up a row, or only its bottom (up to its top).
			k := rng.IntN(len(c))
			if rng.IntN(2) == 0 {
				c[k].MinRow += uint16(rng.IntN(int(c[k].MaxRow - c[k].MinRow)))
			} else if k+1 == len(c) || c[k].MaxRow+1 < c[k+1].MinRow {
				c[k].MinRow, c[k].MaxRow = c[k].MinRow+1, c[k].MaxRow+1
			}
		}
	}
	return cols
}

// naiveLedge is FilterLedgeSpans' rule for span k of column (x, z) as
// Recast scans it: every span of every neighbour column.
func naiveLedge(cols [][]Span, w, h, x, z, k, height, climb int) bool {
	col := cols[x+z*w]
	ceilOf := func(c []Span, k int) int {
		if k+1 < len(c) {
			return int(c[k+1].MinRow)
		}
		return SkyRow
	}
	floor, ceiling := int(col[k].MaxRow), ceilOf(col, k)
	lowest, highest := floor, floor
	for d := range 4 {
		nx, nz := x+DirOffsetX[d], z+DirOffsetZ[d]
		if nx < 0 || nz < 0 || nx >= w || nz >= h {
			return true
		}
		n := cols[nx+nz*w]
		nceil := SkyRow
		if len(n) > 0 {
			nceil = int(n[0].MinRow)
		}
		if min(ceiling, nceil)-floor >= height {
			return true
		}
		for j := range n {
			nf, nc := int(n[j].MaxRow), ceilOf(n, j)
			if min(ceiling, nc)-max(floor, nf) < height {
				continue
			}
			if nf-floor < -climb {
				return true
			}
			if nf-floor <= climb {
				lowest, highest = min(lowest, nf), max(highest, nf)
			}
		}
	}
	return highest-lowest > climb
}

// TestStackedFiltersMatchNaive: FilterSpans and FilterLedgeSpans on random
// stacked columns against the rule scanning every neighbour span, and the
// compact heightfield's links against a scan of every neighbour span.
func TestStackedFiltersMatchNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 1))
	w, h := 9, 8
	g := unitGrid(w, h, 400)
	for round := 0; round < 300; round++ {
		cols := stackedColumns(rng, w, h, 1+rng.IntN(30))
		height, climb := 1+rng.IntN(10), rng.IntN(5)
		// The ledge rule alone.
		want := make([][]Span, len(cols))
		for ci, col := range cols {
			want[ci] = slices.Clone(col)
			for k := range col {
				if col[k].Area != AreaNull && naiveLedge(cols, w, h, ci%w, ci/w, k, height, climb) {
					want[ci][k].Area = AreaNull
				}
			}
		}
		hf := columnsOf(t, g, func(x, z int) []Span { return cols[x+z*w] })
		if err := hf.FilterLedgeSpans(height, climb); err != nil {
			t.Fatal(err)
		}
		checkColumns(t, fmt.Sprintf("round %d FilterLedgeSpans(%d, %d)", round, height, climb), hf, want)
		// The three filters: low-hanging obstacles, ledges, low clearance.
		for ci, col := range cols {
			want[ci] = slices.Clone(col)
			for k := 1; k < len(col); k++ {
				if col[k].Area == AreaNull && col[k-1].Area != AreaNull && int(col[k].MaxRow)-int(col[k-1].MaxRow) <= climb {
					want[ci][k].Area = want[ci][k-1].Area
				}
			}
		}
		lifted := make([][]Span, len(cols))
		for ci := range want {
			lifted[ci] = slices.Clone(want[ci])
		}
		for ci, col := range lifted {
			for k := range col {
				ceil := SkyRow
				if k+1 < len(col) {
					ceil = int(col[k+1].MinRow)
				}
				if col[k].Area != AreaNull && (ceil-int(col[k].MaxRow) < height ||
					naiveLedge(lifted, w, h, ci%w, ci/w, k, height, climb)) {
					want[ci][k].Area = AreaNull
				}
			}
		}
		hf = columnsOf(t, g, func(x, z int) []Span { return cols[x+z*w] })
		if err := hf.FilterSpans(height, climb); err != nil {
			t.Fatal(err)
		}
		checkColumns(t, fmt.Sprintf("round %d FilterSpans(%d, %d)", round, height, climb), hf, want)
		c, err := BuildCompactHeightfield(hf, height, climb)
		if err != nil {
			t.Fatal(err)
		}
		checkLinksNaive(t, fmt.Sprintf("round %d", round), c)
		// Unfiltered, with clearances below the walkable height.
		hf = columnsOf(t, g, func(x, z int) []Span { return cols[x+z*w] })
		if c, err = BuildCompactHeightfield(hf, height, climb); err != nil {
			t.Fatal(err)
		}
		checkLinksNaive(t, fmt.Sprintf("round %d unfiltered", round), c)
	}
}

// checkColumns compares every column of hf with want.
func checkColumns(t *testing.T, what string, hf *Heightfield, want [][]Span) {
	t.Helper()
	for ci := range want {
		if got := hf.AppendColumn(nil, ci%hf.Width, ci/hf.Width); !slices.Equal(got, want[ci]) && len(got)+len(want[ci]) > 0 {
			t.Fatalf("%s: column %d is %v, want %v", what, ci, got, want[ci])
		}
	}
}

// checkLinksNaive checks each link of c is the first span of the neighbour
// column (among its first MaxLinkLayer+1) passing the link test.
func checkLinksNaive(t *testing.T, what string, c *CompactHeightfield) {
	t.Helper()
	for ci, cell := range c.Cells {
		x, z := ci%c.Width, ci/c.Width
		for i := cell.Index; i < cell.Index+cell.Count; i++ {
			for d := range 4 {
				want := NotConnected
				nx, nz := x+DirOffsetX[d], z+DirOffsetZ[d]
				if nx >= 0 && nz >= 0 && nx < c.Width && nz < c.Height {
					n := c.Cells[nx+nz*c.Width]
					for k := range min(int(n.Count), MaxLinkLayer+1) {
						if c.canLink(c.Spans[i], c.Spans[int(n.Index)+k]) {
							want = k
							break
						}
					}
				}
				if got := c.Spans[i].Link(d); got != want {
					t.Fatalf("%s: column (%d, %d) span %d direction %d links %d, want %d", what, x, z, i-cell.Index, d, got, want)
				}
			}
		}
	}
}

// TestAddSpanAnyOrderMatchesNaive adds random spans to a column in
// ascending, descending and random order and compares the column with
// Recast's merge walked from the bottom every time.
func TestAddSpanAnyOrderMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 2))
	for round := 0; round < 300; round++ {
		var spans []Span
		for range 1 + rng.IntN(40) {
			lo := rng.IntN(300)
			spans = append(spans, Span{MinRow: uint16(lo), MaxRow: uint16(lo + 1 + rng.IntN(8)), Area: uint8(rng.IntN(64))})
		}
		switch round % 3 {
		case 0:
			slices.SortFunc(spans, func(a, b Span) int { return int(a.MinRow) - int(b.MinRow) })
		case 1:
			slices.SortFunc(spans, func(a, b Span) int { return int(b.MinRow) - int(a.MinRow) })
		}
		thr := rng.IntN(4)
		hf, err := NewHeightfield(unitGrid(2, 1, 100))
		if err != nil {
			t.Fatal(err)
		}
		var want []Span
		for _, s := range spans {
			if err := hf.AddSpan(1, 0, int(s.MinRow), int(s.MaxRow), s.Area, thr); err != nil {
				t.Fatal(err)
			}
			want = naiveAddSpan(want, s, thr)
		}
		if got := hf.AppendColumn(nil, 1, 0); !slices.Equal(got, want) {
			t.Fatalf("round %d: column %v, want %v", round, got, want)
		}
	}
}

// naiveAddSpan is Recast's rcAddSpan on a sorted column.
func naiveAddSpan(col []Span, s Span, thr int) []Span {
	var out []Span
	k := 0
	for ; k < len(col) && col[k].MaxRow < s.MinRow; k++ {
		out = append(out, col[k])
	}
	for ; k < len(col) && col[k].MinRow <= s.MaxRow; k++ {
		c := col[k]
		s.MinRow, s.MaxRow = min(s.MinRow, c.MinRow), max(s.MaxRow, c.MaxRow)
		if d := int(s.MaxRow) - int(c.MaxRow); d <= thr && -d <= thr {
			s.Area = max(s.Area, c.Area)
		}
	}
	out = append(out, s)
	return append(out, col[k:]...)
}
