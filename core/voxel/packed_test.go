package voxel

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"navviz/core/geom"
)

// randomCompact returns a compact heightfield of w x h columns with up to
// four spans a column at random floors, clearances and areas (some columns
// empty), linked with agent height 6 and climb 3.
func randomCompact(t testing.TB, seed uint64, w, h int) *CompactHeightfield {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 3))
	g := Grid{Width: w, Height: h, BorderCells: 2, OriginM: geom.V3(-1.3, -2, 4.4), CellSizeM: 0.3, CellHeightM: 0.2}
	g.MaxM = geom.V3(g.OriginM.X+float32(w)*0.3, 60, g.OriginM.Z+float32(h)*0.3)
	hf := columnsOf(t, g, func(x, z int) []Span {
		var col []Span
		row := uint16(rng.IntN(6))
		for k := rng.IntN(5); k > 0; k-- {
			top := row + 1 + uint16(rng.IntN(3))
			col = append(col, Span{MinRow: row, MaxRow: top, Area: uint8(rng.IntN(3)) * 31})
			row = top + 2 + uint16(rng.IntN(12))
		}
		return col
	})
	c, err := BuildCompactHeightfield(hf, 6, 3)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestPackRoundTrip: Unpack gives back the heightfield Pack was given,
// links included, into a fresh or a reused CompactHeightfield, and the
// packed form is smaller.
func TestPackRoundTrip(t *testing.T) {
	var tall []Span
	for i := range 300 {
		tall = append(tall, Span{uint16(i * 4), uint16(i*4 + 1), 63})
	}
	cases := []struct {
		name string
		c    func(t *testing.T) *CompactHeightfield
	}{
		{"step", func(t *testing.T) *CompactHeightfield { return stepScene(t, 2) }},
		{"flat with holes", func(t *testing.T) *CompactHeightfield {
			return flatCompact(t, 9, 7, func(x, z int) bool { return (x+z)%3 != 0 })
		}},
		{"random 40x30", func(t *testing.T) *CompactHeightfield { return randomCompact(t, 1, 40, 30) }},
		{"random 7x50", func(t *testing.T) *CompactHeightfield { return randomCompact(t, 2, 7, 50) }},
		{"300 floors (counts in the side list)", func(t *testing.T) *CompactHeightfield {
			h := columnsOf(t, unitGrid(2, 2, 1300), func(x, z int) []Span {
				if x == 0 {
					return tall
				}
				return tall[:3]
			})
			c, err := BuildCompactHeightfield(h, 3, 0)
			if err != nil {
				t.Fatal(err)
			}
			return c
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.c(t)
			p, err := Pack(c)
			if err != nil {
				t.Fatal(err)
			}
			if p.SpanCount() != len(c.Spans) || &p.Areas[0] != &c.Areas[0] {
				t.Fatalf("SpanCount %d, want %d; Areas shared: %v", p.SpanCount(), len(c.Spans), &p.Areas[0] == &c.Areas[0])
			}
			if got, full := p.SizeBytes(), 8*len(c.Cells)+9*len(c.Spans); got >= full {
				t.Errorf("packed %d bytes, unpacked %d", got, full)
			}
			for ci, cell := range c.Cells {
				if n := p.sumCounts(0, ci); n != int(cell.Index) {
					t.Fatalf("columns 0..%d hold %d spans, want %d", ci-1, n, cell.Index)
				}
				if n := p.sumCounts(ci/2, ci+1); n != int(cell.Index+cell.Count-c.Cells[ci/2].Index) {
					t.Fatalf("columns %d..%d hold %d spans, want %d", ci/2, ci, n, cell.Index+cell.Count-c.Cells[ci/2].Index)
				}
			}
			got := p.Unpack(nil)
			if !reflect.DeepEqual(got, c) {
				t.Fatalf("Unpack differs from the packed heightfield")
			}
			// Reused memory, larger than needed and full of other values.
			reuse := randomCompact(t, 9, 50, 50)
			if got := p.Unpack(reuse); got != reuse || !reflect.DeepEqual(got, c) {
				t.Fatalf("Unpack into reused memory differs from the packed heightfield")
			}
		})
	}
}

// TestPackedMarking: marking obstacles and volumes on a packed heightfield
// gives the areas the package functions give on the compact one.
func TestPackedMarking(t *testing.T) {
	c := randomCompact(t, 5, 30, 26)
	p, err := Pack(c)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(17, 4))
	f32 := func(lo, hi float64) float32 { return float32(lo + rng.Float64()*(hi-lo)) }
	for iter := range 300 {
		var o Obstacle
		switch iter % 3 {
		case 0:
			o = Cylinder(geom.V3(f32(-3, 9), f32(-2, 4), f32(3, 13)), f32(0.01, 3), f32(0, 4))
		case 1:
			x0, z0, y0 := f32(-3, 9), f32(3, 13), f32(-2, 4)
			o = Box(geom.V3(x0, y0, z0), geom.V3(x0+f32(0, 3), y0+f32(0, 3), z0+f32(0, 3)))
		case 2:
			o = OrientedBox(geom.V3(f32(-3, 9), f32(-2, 4), f32(3, 13)), geom.V3(f32(0.01, 3), f32(0, 2), f32(0.01, 3)), f32(-7, 7))
		}
		radius := rng.IntN(5)
		x0, z0 := f32(-3, 9), f32(3, 13)
		v := ConvexVolume{VertsXZ: [][2]float32{{x0, z0}, {x0 + f32(0.1, 3), z0}, {x0, z0 + f32(0.1, 3)}}, MinYM: f32(-2, 1), MaxYM: f32(1, 5), Area: 7}
		want := c.Clone()
		nWant, err := MarkObstacle(want, &o, radius)
		if err != nil {
			t.Fatal(err)
		}
		if err := MarkConvexVolume(want, &v); err != nil {
			t.Fatal(err)
		}
		areas := append([]uint8(nil), c.Areas...)
		n, ro, err := p.MarkObstacle(areas, &o, radius)
		if err != nil {
			t.Fatal(err)
		}
		afterObstacle := append([]uint8(nil), areas...)
		rv, err := p.MarkConvexVolume(areas, &v)
		if err != nil {
			t.Fatal(err)
		}
		if n != nWant || !reflect.DeepEqual(areas, want.Areas) {
			t.Fatalf("iter %d %+v: %d marked, want %d; areas equal: %v", iter, o, n, nWant, reflect.DeepEqual(areas, want.Areas))
		}
		// Every span a marking changed lies in the range it returned.
		for i := range areas {
			if afterObstacle[i] != c.Areas[i] && (i < ro.Lo || i >= ro.Hi) {
				t.Fatalf("iter %d: obstacle changed span %d outside its range %+v", iter, i, ro)
			}
			if areas[i] != afterObstacle[i] && (i < rv.Lo || i >= rv.Hi) {
				t.Fatalf("iter %d: volume changed span %d outside its range %+v", iter, i, rv)
			}
		}
		if ro.Lo < 0 || ro.Hi > len(areas) || rv.Lo < 0 || rv.Hi > len(areas) {
			t.Fatalf("iter %d: ranges %+v, %+v beyond %d spans", iter, ro, rv, len(areas))
		}
	}
}

// TestPackErrors: inconsistent input is refused with an error naming it,
// and marking with the wrong number of areas changes nothing.
func TestPackErrors(t *testing.T) {
	c := randomCompact(t, 4, 6, 5)
	bad := func(f func(c *CompactHeightfield)) *CompactHeightfield {
		d := c.Clone()
		f(d)
		return d
	}
	cases := []struct {
		name string
		c    *CompactHeightfield
		want string
	}{
		{"nil", nil, "nil compact heightfield"},
		{"bad grid", bad(func(d *CompactHeightfield) { d.CellSizeM = 0 }), "voxel: Pack: voxel: grid"},
		{"short areas", bad(func(d *CompactHeightfield) { d.Areas = d.Areas[1:] }), "areas"},
		{"short cells", bad(func(d *CompactHeightfield) { d.Cells = d.Cells[1:] }), "cells"},
		{"gap", bad(func(d *CompactHeightfield) { d.Cells[3].Index++ }), "column 3 starts at span"},
		{"overrun", bad(func(d *CompactHeightfield) { d.Cells[len(d.Cells)-1].Count += 2 }), "beyond the"},
		{"underrun", bad(func(d *CompactHeightfield) { d.Spans = append(d.Spans, CompactSpan{}); d.Areas = append(d.Areas, 0) }), "the cells hold"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Pack(tc.c)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Pack: %v, want an error with %q", err, tc.want)
			}
		})
	}
	p, err := Pack(c)
	if err != nil {
		t.Fatal(err)
	}
	o := Cylinder(geom.V3(0, 0, 5), 5, 50)
	short := append([]uint8(nil), c.Areas[1:]...)
	if _, _, err := p.MarkObstacle(short, &o, 1); err == nil || !reflect.DeepEqual(short, c.Areas[1:]) {
		t.Errorf("MarkObstacle with %d areas for %d spans: %v", len(short), p.SpanCount(), err)
	}
	v := ConvexVolume{VertsXZ: [][2]float32{{-9, -9}, {9, -9}, {0, 19}}, MinYM: -9, MaxYM: 99, Area: 3}
	if _, err := p.MarkConvexVolume(short, &v); err == nil || !reflect.DeepEqual(short, c.Areas[1:]) {
		t.Errorf("MarkConvexVolume with %d areas for %d spans: %v", len(short), p.SpanCount(), err)
	}
}

// BenchmarkPackedMarkObstacle marks a cylinder of the city cycle's size
// (radius 0.75 m, grown by 2 cells) on a random 80 x 80 packed
// heightfield, one op an obstacle.
func BenchmarkPackedMarkObstacle(b *testing.B) {
	c := randomCompact(b, 5, 80, 80)
	p, err := Pack(c)
	if err != nil {
		b.Fatal(err)
	}
	areas := append([]uint8(nil), c.Areas...)
	o := Cylinder(geom.V3(10, -2, 16), 0.75, 4)
	b.ReportAllocs()
	for b.Loop() {
		copy(areas, c.Areas)
		if _, _, err := p.MarkObstacle(areas, &o, 2); err != nil {
			b.Fatal(err)
		}
	}
}
