package voxel

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"

	"navviz/core/geom"
	"navviz/core/level/leveltest"
)

// recastGrid returns the grid Recast's demo (Sample_TileMesh) builds for
// tile (tx, tz) of a level with bounds b (cell 0.3 m, row 0.2 m, tile 64,
// border 5), or the solo grid (rcCalcGridSize) for tx < 0.
func recastGrid(b geom.Box3, tx, tz int) Grid {
	cs, ch := float32(0.3), float32(0.2)
	if tx < 0 {
		gw := int((b.Max.X-b.Min.X)/cs + 0.5)
		gh := int((b.Max.Z-b.Min.Z)/cs + 0.5)
		return Grid{Width: gw, Height: gh, OriginM: b.Min, MaxM: b.Max, CellSizeM: cs, CellHeightM: ch}
	}
	const T, B = 64, 5
	tw := float32(T) * cs
	mn := geom.V3(b.Min.X+float32(float32(tx)*tw), b.Min.Y, b.Min.Z+float32(float32(tz)*tw))
	mx := geom.V3(b.Min.X+float32(float32(tx+1)*tw), b.Max.Y, b.Min.Z+float32(float32(tz+1)*tw))
	bs := float32(float32(B) * cs)
	mn.X, mn.Z, mx.X, mx.Z = mn.X-bs, mn.Z-bs, mx.X+bs, mx.Z+bs
	return Grid{Width: T + 2*B, Height: T + 2*B, BorderCells: B, OriginM: mn, MaxM: mx, CellSizeM: cs, CellHeightM: ch}
}

// compactDump is a text form of a compact heightfield independent of this
// package's layout: per column "y h link0 link1 link2 link3 area" for each
// span, spans joined by '|', columns ended by ';' (255 = not linked).
func compactDump(c *CompactHeightfield) string {
	var b strings.Builder
	for _, cell := range c.Cells {
		for i := cell.Index; i < cell.Index+cell.Count; i++ {
			s := c.Spans[i]
			if i > cell.Index {
				b.WriteByte('|')
			}
			fmt.Fprintf(&b, "%d %d %d %d %d %d %d", s.Y, s.H, s.Link(0), s.Link(1), s.Link(2), s.Link(3), c.Areas[i])
		}
		b.WriteByte(';')
	}
	return b.String()
}

// TestMatchesRecast pins steps 1-3 (without volumes) against Recast itself:
// the hashes below are of compactDump of what Recast (recastnavigation commit
// 9f4ce644, Recast/Source, compiled with -ffp-contract=off) builds on the same
// grids with rcMarkWalkableTriangles(45°), rcRasterizeTriangles (all
// triangles in index order, climb 4), the three filters (height 10, climb
// 4), rcBuildCompactHeightfield and rcErodeWalkableArea(2). This package
// reproduces them bit for bit.
func TestMatchesRecast(t *testing.T) {
	for _, tc := range []struct {
		level  string
		tx, tz int // -1: solo grid
		spans  int
		hash   uint64
	}{
		{"dungeon.obj", -1, -1, 23569, 0x859c50e91b156cf},
		{"dungeon.obj", 2, 1, 2387, 0x103ab416b2777688},
		{"nav_test.obj", -1, -1, 56795, 0x2b58a8c9ad855f7c},
		{"nav_test.obj", 2, 2, 3646, 0x45e25063065a9b31},
	} {
		s := leveltest.Load(t, tc.level)
		h, err := NewHeightfield(recastGrid(s.Bounds(), tc.tx, tc.tz))
		if err != nil {
			t.Fatal(err)
		}
		if err := h.RasterizeSoup(s, nil, 45, 4); err != nil {
			t.Fatal(err)
		}
		c := filterAndCompact(t, h, 10, 4)
		if _, err := c.ErodeWalkableArea(2, nil); err != nil {
			t.Fatal(err)
		}
		d := compactDump(c)
		if got := xxhash.Sum64String(d); c.SpanCount() != tc.spans || got != tc.hash {
			t.Errorf("%s tile (%d, %d): %d spans hash %#x, Recast: %d spans hash %#x", tc.level, tc.tx, tc.tz, c.SpanCount(), got, tc.spans, tc.hash)
		}
	}
}
