package voxel

import (
	"encoding/binary"
	"math"
	"testing"

	"navviz/core/geom"
)

// checkHeightfield fails t unless every column of h is sorted with gaps and
// the span count matches.
func checkHeightfield(t *testing.T, h *Heightfield) {
	t.Helper()
	total := 0
	var buf []Span
	for z := 0; z < h.Height; z++ {
		for x := 0; x < h.Width; x++ {
			buf = h.AppendColumn(buf[:0], x, z)
			for i, s := range buf {
				if s.MinRow >= s.MaxRow || s.MaxRow > MaxSpanRow || s.Area > MaxArea {
					t.Fatalf("column (%d,%d) span %d invalid: %+v", x, z, i, s)
				}
				if i > 0 && s.MinRow <= buf[i-1].MaxRow {
					t.Fatalf("column (%d,%d) spans %d and %d overlap or touch: %+v %+v", x, z, i-1, i, buf[i-1], s)
				}
			}
			total += len(buf)
		}
	}
	if total != h.SpanCount() {
		t.Fatalf("SpanCount %d, columns hold %d", h.SpanCount(), total)
	}
}

// checkCompact fails t unless every link of c is mutual-consistent with the
// link rule.
func checkCompact(t *testing.T, c *CompactHeightfield) {
	t.Helper()
	for z := 0; z < c.Height; z++ {
		for x := 0; x < c.Width; x++ {
			cell := c.Cells[x+z*c.Width]
			for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
				s := c.Spans[i]
				for d := 0; d < 4; d++ {
					j := c.Neighbour(x, z, i, d)
					if j < 0 {
						continue
					}
					n := c.Spans[j]
					bot := max(int(s.Y), int(n.Y))
					top := min(int(s.Y)+int(s.H), int(n.Y)+int(n.H))
					dy := int(n.Y) - int(s.Y)
					if top-bot < c.WalkableHeightCells || dy > c.WalkableClimbCells || -dy > c.WalkableClimbCells {
						t.Fatalf("link (%d,%d) span %d dir %d to %d breaks the rule", x, z, i, d, j)
					}
				}
			}
		}
	}
}

// FuzzRasterize rasterizes random triangles into a small grid: one with a
// free float32 vertex (fx, fy, fz), up to 32 from the bytes (10 bytes each:
// 9 coordinates as int8 eighths of a metre around the grid, then an area),
// and one from a raw float32 of the remaining bytes and checks that nothing panics and every column stays
// sorted and non-overlapping, then runs the other stages.
func FuzzRasterize(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 8, 8, 0, 0, 63}, float32(0.5), float32(1), float32(0.5), uint8(2))
	f.Add([]byte{4, 4, 4, 4, 8, 12, 4, 4, 4, 63, 250, 3, 7, 9, 1, 1, 2, 2, 2, 5}, float32(-1), float32(0.25), float32(3.5), uint8(0))
	f.Add([]byte{0x80, 0, 0x7f, 0x7f, 0x7f, 0x80, 0, 0, 0, 1}, float32(1e30), float32(-1e-30), float32(math.NaN()), uint8(9))
	g := Grid{
		Width: 8, Height: 6, BorderCells: 1,
		OriginM: geom.V3(-1, -2, -1), MaxM: geom.V3(3, 6, 2),
		CellSizeM: 0.5, CellHeightM: 0.25,
	}
	f.Fuzz(func(t *testing.T, data []byte, fx, fy, fz float32, climb uint8) {
		h, err := NewHeightfield(g)
		if err != nil {
			t.Fatal(err)
		}
		// One triangle with a free float vertex.
		if err := h.RasterizeTriangle(geom.V3(fx, fy, fz), geom.V3(0, 0, 0), geom.V3(1, 1, 1), 63, int(climb)); err != nil {
			if !(math.Abs(float64(fx)) > MaxCoordM || math.Abs(float64(fy)) > MaxCoordM || math.Abs(float64(fz)) > MaxCoordM) &&
				!math.IsNaN(float64(fx)) && !math.IsNaN(float64(fy)) && !math.IsNaN(float64(fz)) {
				t.Fatalf("valid triangle rejected: %v", err)
			}
		}
		for n := 0; len(data) >= 10 && n < 32; n++ {
			var v [3]geom.Vec3
			for k := 0; k < 3; k++ {
				q := func(b byte) float32 { return float32(int8(b)) * 0.125 }
				v[k] = geom.V3(q(data[3*k]), q(data[3*k+1]), q(data[3*k+2]))
			}
			area := data[9] % 64
			data = data[10:]
			if err := h.RasterizeTriangle(v[0], v[1], v[2], area, int(climb)); err != nil {
				t.Fatal(err)
			}
		}
		if len(data) >= 4 {
			// Extra raw float32 vertex to reach odd values (denormals, huge).
			r := math.Float32frombits(binary.LittleEndian.Uint32(data))
			_ = h.RasterizeTriangle(geom.V3(r, r, -r), geom.V3(0.25, 0.5, 0.25), geom.V3(r, 0, 1), 1, int(climb))
		}
		checkHeightfield(t, h)
		c := int(climb % 16)
		_ = h.FilterLowHangingWalkableObstacles(c)
		_ = h.FilterLedgeSpans(3, c)
		_ = h.FilterWalkableLowHeightSpans(3)
		checkHeightfield(t, h)
		ch, err := BuildCompactHeightfield(h, 3, c)
		if err != nil {
			t.Fatal(err)
		}
		checkCompact(t, ch)
		if _, err := ch.ErodeWalkableArea(1, nil); err != nil {
			t.Fatal(err)
		}
		vol := ConvexVolume{VertsXZ: [][2]float32{{0, 0}, {fx, 0}, {1, 1}}, MinYM: -1, MaxYM: fy, Area: 5}
		_ = MarkConvexVolume(ch, &vol)
		b, err := ch.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var back CompactHeightfield
		if err := back.UnmarshalBinary(b); err != nil {
			t.Fatalf("round trip: %v", err)
		}
	})
}

// FuzzUnmarshalCompact feeds arbitrary bytes to UnmarshalBinary: no panic,
// and whatever it accepts serializes back to the same bytes.
func FuzzUnmarshalCompact(f *testing.F) {
	h, _ := NewHeightfield(Grid{Width: 3, Height: 2, MaxM: geom.V3(3, 4, 2), CellSizeM: 1, CellHeightM: 1})
	_ = h.AddSpan(0, 0, 0, 1, 63, 1)
	_ = h.AddSpan(1, 0, 0, 2, 63, 1)
	_ = h.AddSpan(1, 1, 0, 1, 7, 1)
	c, _ := BuildCompactHeightfield(h, 2, 1)
	b, _ := c.MarshalBinary()
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		var c CompactHeightfield
		if err := c.UnmarshalBinary(data); err != nil {
			return
		}
		out, err := c.MarshalBinary()
		if err != nil || string(out) != string(data) {
			t.Fatalf("accepted data does not round trip")
		}
	})
}
