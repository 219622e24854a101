package voxel

import (
	"math"
	"math/rand/v2"
	"testing"

	"navviz/core/geom"
)

// footprintCount returns the columns TriangleFootprint visits on g's cells
// and checks its rows and ranges are in the grid.
func footprintCount(t *testing.T, g *Grid, v0, v1, v2 geom.Vec3) (map[int]bool, int) {
	t.Helper()
	cells := CellRows{OriginX: g.OriginM.X, OriginZ: g.OriginM.Z, CellSizeM: g.CellSizeM, Width: g.Width, Height: g.Height}
	seen := map[int]bool{}
	n, lastZ := 0, -1
	TriangleFootprint(cells, v0, v1, v2, func(z, x0, x1 int) {
		if z <= lastZ || z >= g.Height || x0 < 0 || x1 < x0 || x1 >= g.Width {
			t.Fatalf("row %d (after %d) columns %d..%d on a %d x %d grid", z, lastZ, x0, x1, g.Width, g.Height)
		}
		lastZ = z
		for x := x0; x <= x1; x++ {
			seen[x+z*g.Width] = true
		}
		n += x1 - x0 + 1
	})
	return seen, n
}

// checkFootprint rasterizes triangle v alone into h (emptied) and checks
// that every column given a span is in its footprint.
func checkFootprint(t *testing.T, h *Heightfield, v [3]geom.Vec3) {
	t.Helper()
	g := h.Grid
	if err := h.Reset(g); err != nil {
		t.Fatal(err)
	}
	if err := h.RasterizeTriangle(v[0], v[1], v[2], AreaWalkable, 0); err != nil {
		t.Fatal(err)
	}
	foot, n := footprintCount(t, &g, v[0], v[1], v[2])
	if h.SpanCount() > n {
		t.Fatalf("triangle %v: %d spans, footprint %d columns", v, h.SpanCount(), n)
	}
	for z := 0; z < g.Height; z++ {
		for x := 0; x < g.Width; x++ {
			if len(h.AppendColumn(nil, x, z)) > 0 && !foot[x+z*g.Width] {
				t.Fatalf("triangle %v: span in column (%d, %d), not in the footprint", v, x, z)
			}
		}
	}
}

// FuzzTriangleFootprint checks the footprint of any triangle within
// ±MaxCoordM covers every column its rasterization gives a span, on a
// small grid.
func FuzzTriangleFootprint(f *testing.F) {
	f.Add(float32(0.5), float32(0), float32(0.5), float32(0.5), float32(0), float32(2.5), float32(2.5), float32(0), float32(0.5))
	f.Add(float32(-5), float32(1), float32(-5), float32(-5), float32(2), float32(30), float32(30), float32(3), float32(-5))
	f.Add(float32(1), float32(0), float32(1), float32(1.001), float32(5), float32(1), float32(1), float32(9), float32(1))
	g := Grid{Width: 12, Height: 9, OriginM: geom.V3(-1, -2, -1), MaxM: geom.V3(2.6, 10, 1.7), CellSizeM: 0.3, CellHeightM: 0.2}
	h, err := NewHeightfield(g)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, x0, y0, z0, x1, y1, z1, x2, y2, z2 float32) {
		v := [3]geom.Vec3{geom.V3(x0, y0, z0), geom.V3(x1, y1, z1), geom.V3(x2, y2, z2)}
		for _, p := range v {
			if !finiteCoord(p.X) || !finiteCoord(p.Y) || !finiteCoord(p.Z) {
				return // RasterizeTriangle refuses it; TriangleFootprint gives nothing
			}
		}
		checkFootprint(t, h, v)
	})
}

// TestTriangleFootprintBoundsRaster rasterizes random triangles, each
// alone into an empty heightfield, and checks that every column given a
// span is in the triangle's footprint: the footprint's columns bound the
// spans one triangle adds. An axis-aligned floor's footprint is exactly
// its columns.
func TestTriangleFootprintBoundsRaster(t *testing.T) {
	g := Grid{Width: 23, Height: 17, OriginM: geom.V3(-2.1, -5, 1.3), CellSizeM: 0.3, CellHeightM: 0.2}
	g.MaxM = geom.V3(g.OriginM.X+float32(g.Width)*g.CellSizeM, 20, g.OriginM.Z+float32(g.Height)*g.CellSizeM)
	rng := rand.New(rand.NewPCG(28, 5))
	coord := func(lo, size float32) float32 { return lo - 1 + rng.Float32()*(size+2) }
	h, err := NewHeightfield(g)
	if err != nil {
		t.Fatal(err)
	}
	sx, sz := g.MaxM.X-g.OriginM.X, g.MaxM.Z-g.OriginM.Z
	for i := 0; i < 3000; i++ {
		var v [3]geom.Vec3
		for k := range v {
			v[k] = geom.V3(coord(g.OriginM.X, sx), coord(-4, 20), coord(g.OriginM.Z, sz))
		}
		if i%3 == 0 { // thin slivers and walls
			v[2] = geom.V3(v[0].X+float32(rng.Float32()*0.01), v[2].Y, v[0].Z)
		}
		checkFootprint(t, h, v)
	}

	// A floor from cell line 2 to 9 along x and 3 to 7 along z (inset by
	// a tenth of a cell) covers 7 x 4 columns; its two triangles share the
	// diagonal's columns.
	at := func(x, z float32) geom.Vec3 {
		return geom.V3(g.OriginM.X+x*g.CellSizeM, 1, g.OriginM.Z+z*g.CellSizeM)
	}
	a, b, c, d := at(2.1, 3.1), at(8.9, 3.1), at(8.9, 6.9), at(2.1, 6.9)
	f1, n1 := footprintCount(t, &g, a, c, b)
	f2, n2 := footprintCount(t, &g, a, d, c)
	for k := range f2 {
		f1[k] = true
	}
	if len(f1) != 7*4 || n1+n2 < 7*4 || n1+n2 > 7*4+2*7 {
		t.Errorf("floor footprint: %d columns (%d + %d counted), want 28 (28 to 42 counted)", len(f1), n1, n2)
	}
}

// TestTriangleFootprintEdges: nothing outside the grid, nothing for a
// vertex that is not finite or an empty grid.
func TestTriangleFootprintEdges(t *testing.T) {
	cells := CellRows{CellSizeM: 1, Width: 10, Height: 10}
	inf := float32(math.Inf(1))
	tests := []struct {
		name       string
		cells      CellRows
		v0, v1, v2 geom.Vec3
		want       int
	}{
		{"inside", cells, geom.V3(0.5, 0, 0.5), geom.V3(0.5, 0, 2.5), geom.V3(2.5, 0, 0.5), 8},
		{"outside", cells, geom.V3(20, 0, 20), geom.V3(20, 0, 22), geom.V3(22, 0, 20), 0},
		{"clipped", cells, geom.V3(-5, 0, -5), geom.V3(-5, 0, 30), geom.V3(30, 0, -5), 100},
		{"infinite", cells, geom.V3(inf, 0, 0), geom.V3(0, 0, 2), geom.V3(2, 0, 0), 0},
		{"no cells", CellRows{CellSizeM: 1}, geom.V3(0, 0, 0), geom.V3(0, 0, 2), geom.V3(2, 0, 0), 0},
	}
	for _, tc := range tests {
		n := 0
		TriangleFootprint(tc.cells, tc.v0, tc.v1, tc.v2, func(z, x0, x1 int) { n += x1 - x0 + 1 })
		if n != tc.want {
			t.Errorf("%s: %d columns, want %d", tc.name, n, tc.want)
		}
	}
}
