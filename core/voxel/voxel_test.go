package voxel

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"navviz/core/geom"
	"navviz/core/level"
)

// unitGrid returns a w x h grid with 1 m cells and rows, origin 0, vertical
// range [0, top] m.
func unitGrid(w, h int, top float32) Grid {
	return Grid{
		Width: w, Height: h,
		OriginM:   geom.Vec3{},
		MaxM:      geom.Vec3{X: float32(w), Y: top, Z: float32(h)},
		CellSizeM: 1, CellHeightM: 1,
	}
}

// columnsOf builds a heightfield from a function giving each column's spans.
func columnsOf(t testing.TB, g Grid, f func(x, z int) []Span) *Heightfield {
	t.Helper()
	cols := make([][]Span, g.Width*g.Height)
	for z := 0; z < g.Height; z++ {
		for x := 0; x < g.Width; x++ {
			cols[x+z*g.Width] = f(x, z)
		}
	}
	h, err := NewHeightfieldFromColumns(g, cols)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// areaMap renders the area (or '.' for no span, '#' for area 0, 'W' for 63,
// a letter otherwise) of the span at index layer in each column of a compact
// heightfield, z rows top to bottom as z = 0 first.
func areaMap(c *CompactHeightfield, layer int) string {
	var b strings.Builder
	for z := 0; z < c.Height; z++ {
		for x := 0; x < c.Width; x++ {
			cell := c.Cells[x+z*c.Width]
			if int(cell.Count) <= layer {
				b.WriteByte('.')
				continue
			}
			switch a := c.Areas[int(cell.Index)+layer]; a {
			case AreaNull:
				b.WriteByte('#')
			case AreaWalkable:
				b.WriteByte('W')
			default:
				b.WriteByte(byte('a' + a%26))
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func columnString(h *Heightfield, x, z int) string {
	var parts []string
	for _, s := range h.AppendColumn(nil, x, z) {
		parts = append(parts, fmt.Sprintf("[%d,%d)a%d", s.MinRow, s.MaxRow, s.Area))
	}
	return strings.Join(parts, " ")
}

func TestAddSpanMerge(t *testing.T) {
	type add struct {
		min, max int
		area     uint8
	}
	tests := []struct {
		name string
		adds []add
		want string
	}{
		{"separate", []add{{0, 5, 63}, {6, 8, 1}}, "[0,5)a63 [6,8)a1"},
		{"separate reversed", []add{{6, 8, 1}, {0, 5, 63}}, "[0,5)a63 [6,8)a1"},
		{"touching merge", []add{{0, 5, 63}, {5, 8, 1}}, "[0,8)a1"},
		{"tops within climb keep max", []add{{0, 10, 0}, {8, 12, 63}}, "[0,12)a63"},
		{"new top above climb keeps its area", []add{{0, 10, 63}, {8, 13, 0}}, "[0,13)a0"},
		{"new top within climb keeps max", []add{{0, 10, 63}, {8, 12, 0}}, "[0,12)a63"},
		// Recast's rule: the merged top is the old span's top, so |top-top| = 0.
		{"inside an old span takes max", []add{{0, 10, 0}, {2, 5, 63}}, "[0,10)a63"},
		{"old span inside the new one", []add{{2, 5, 63}, {0, 10, 0}}, "[0,10)a0"},
		{"bridges two spans", []add{{0, 3, 5}, {6, 9, 7}, {2, 7, 1}}, "[0,9)a7"},
		{"three apart", []add{{20, 30, 2}, {0, 3, 5}, {10, 12, 7}}, "[0,3)a5 [10,12)a7 [20,30)a2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, err := NewHeightfield(unitGrid(1, 1, 100))
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range tc.adds {
				if err := h.AddSpan(0, 0, a.min, a.max, a.area, 2); err != nil {
					t.Fatal(err)
				}
			}
			if got := columnString(h, 0, 0); got != tc.want {
				t.Errorf("column = %s, want %s", got, tc.want)
			}
			if n := len(h.AppendColumn(nil, 0, 0)); h.SpanCount() != n {
				t.Errorf("SpanCount = %d, want %d", h.SpanCount(), n)
			}
		})
	}
}

func TestAddSpanErrors(t *testing.T) {
	h, _ := NewHeightfield(unitGrid(2, 2, 10))
	for _, tc := range []struct {
		x, z, lo, hi int
		area         uint8
		climb        int
		want         string
	}{
		{2, 0, 0, 1, 63, 0, "column (2, 0)"},
		{0, -1, 0, 1, 63, 0, "column (0, -1)"},
		{0, 0, 3, 3, 63, 0, "rows [3, 3)"},
		{0, 0, 0, MaxSpanRow + 1, 63, 0, "rows [0, 8192)"},
		{0, 0, 0, 1, 64, 0, "area id 64"},
		{0, 0, 0, 1, 63, -1, "mergeClimbCells -1"},
	} {
		err := h.AddSpan(tc.x, tc.z, tc.lo, tc.hi, tc.area, tc.climb)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("AddSpan(%d,%d,%d,%d,%d,%d) = %v, want error with %q", tc.x, tc.z, tc.lo, tc.hi, tc.area, tc.climb, err, tc.want)
		}
	}
	if h.SpanCount() != 0 {
		t.Errorf("failed calls added spans")
	}
}

func TestFromColumnsErrors(t *testing.T) {
	g := unitGrid(1, 1, 10)
	for _, tc := range []struct {
		col  []Span
		want string
	}{
		{[]Span{{3, 2, 63}}, "rows [3, 2)"},
		{[]Span{{0, 2, 64}}, "area id 64"},
		{[]Span{{0, 2, 63}, {2, 4, 63}}, "not above span 0"},
		{[]Span{{0, 2, 63}, {1, 4, 63}}, "not above span 0"},
	} {
		_, err := NewHeightfieldFromColumns(g, [][]Span{tc.col})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("columns %v: err %v, want %q", tc.col, err, tc.want)
		}
	}
	if _, err := NewHeightfieldFromColumns(g, nil); err == nil {
		t.Errorf("wrong column count accepted")
	}
}

func TestGridValidate(t *testing.T) {
	good := unitGrid(4, 4, 10)
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	nan := float32(math.NaN())
	for _, tc := range []struct {
		mod  func(*Grid)
		want string
	}{
		{func(g *Grid) { g.Width = 0 }, "Width 0"},
		{func(g *Grid) { g.Height = MaxGridSide + 1 }, "Height 65537"},
		{func(g *Grid) { g.BorderCells = 2 }, "BorderCells 2"},
		{func(g *Grid) { g.CellSizeM = 0 }, "CellSizeM 0"},
		{func(g *Grid) { g.CellHeightM = nan }, "CellHeightM NaN"},
		{func(g *Grid) { g.OriginM.X = nan }, "OriginM"},
		{func(g *Grid) { g.MaxM.Y = -1 }, "below OriginM"},
		{func(g *Grid) { g.MaxM.Y = 9000 }, "vertical range"},
	} {
		g := good
		tc.mod(&g)
		if err := g.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err %v, want %q", err, tc.want)
		}
	}
}

// TestRasterizeCellEdges rasterizes triangles whose vertices and edges lie on
// cell lines (1 m cells and rows).
func TestRasterizeCellEdges(t *testing.T) {
	// The right triangle (1,1)-(1,3)-(3,1) at y = 2 covers cell (1,1) fully
	// and half of (2,1) and (1,2); its hypotenuse only touches cell (2,2) at
	// a corner, and its legs lie on lines x = 1 and z = 1, which belong to
	// the cells on the triangle's side. A flat span gets rows
	// [floor(2), max(ceil(2), 2+1)) = [2, 3).
	h, _ := NewHeightfield(unitGrid(4, 4, 10))
	if err := h.RasterizeTriangle(geom.V3(1, 2, 1), geom.V3(1, 2, 3), geom.V3(3, 2, 1), 63, 0); err != nil {
		t.Fatal(err)
	}
	want := map[[2]int]string{{1, 1}: "[2,3)a63", {2, 1}: "[2,3)a63", {1, 2}: "[2,3)a63"}
	for z := 0; z < 4; z++ {
		for x := 0; x < 4; x++ {
			if got := columnString(h, x, z); got != want[[2]int{x, z}] {
				t.Errorf("column (%d,%d) = %q, want %q", x, z, got, want[[2]int{x, z}])
			}
		}
	}

	// A vertical wall lying in the plane x = 2 (a cell line) belongs to
	// column x = 2, the cell whose min edge it is; y from 1 to 3.5 gives rows
	// [1, ceil(3.5)) = [1, 4) in the columns z = 1 and 2 it covers (its edge
	// z = 3 only touches column 3).
	h, _ = NewHeightfield(unitGrid(4, 4, 10))
	_ = h.RasterizeTriangle(geom.V3(2, 1, 1), geom.V3(2, 1, 3), geom.V3(2, 3.5, 1), 0, 0)
	_ = h.RasterizeTriangle(geom.V3(2, 1, 3), geom.V3(2, 3.5, 3), geom.V3(2, 3.5, 1), 0, 0)
	want = map[[2]int]string{{2, 1}: "[1,4)a0", {2, 2}: "[1,4)a0"}
	for z := 0; z < 4; z++ {
		for x := 0; x < 4; x++ {
			if got := columnString(h, x, z); got != want[[2]int{x, z}] {
				t.Errorf("wall column (%d,%d) = %q, want %q", x, z, got, want[[2]int{x, z}])
			}
		}
	}
}

// TestRasterizeClipAndClamp checks clipping at the grid's sides and clamping
// to its vertical range.
func TestRasterizeClipAndClamp(t *testing.T) {
	g := unitGrid(2, 2, 4)
	g.OriginM = geom.V3(10, 0.5, 20)
	g.MaxM = geom.V3(12, 6.75, 22)
	h, _ := NewHeightfield(g)
	// A slope y = 2(x-8) over x 8..14, z 19..23 (two triangles), clipped to
	// the grid's x 10..12, z 20..22. Column x = 0 covers x 10..11: y 4..6,
	// 3.5..5.5 above the origin: rows [3, 6). Column x = 1: y 6..8, 5.5..7.5
	// above the origin, clamped to the range top 6.25: rows [5, 7). (Heights
	// are kept off row lines: clipping interpolates in float32.)
	//
	// Recast's truncation quirk: in row z = 1 (z 21..22) the second
	// triangle starts at x = 9.5, half a cell left of the grid, so its first
	// column is trunc(-0.5) = 0, not -1, and nothing cuts the sliver x
	// 9.5..10 off: column (0, 1) reaches down to y = 3 (2.5 above the
	// origin), rows [2, 6).
	_ = h.RasterizeTriangle(geom.V3(8, 0, 19), geom.V3(8, 0, 23), geom.V3(14, 12, 19), 63, 0)
	_ = h.RasterizeTriangle(geom.V3(8, 0, 23), geom.V3(14, 12, 23), geom.V3(14, 12, 19), 63, 0)
	for _, tc := range []struct {
		x, z int
		want string
	}{{0, 0, "[3,6)a63"}, {0, 1, "[2,6)a63"}, {1, 0, "[5,7)a63"}, {1, 1, "[5,7)a63"}} {
		if got := columnString(h, tc.x, tc.z); got != tc.want {
			t.Errorf("column (%d,%d) = %s, want %s", tc.x, tc.z, got, tc.want)
		}
	}
	// A triangle above the range or beside the grid adds nothing.
	n := h.SpanCount()
	_ = h.RasterizeTriangle(geom.V3(10, 6.8, 20), geom.V3(10, 6.8, 22), geom.V3(12, 6.8, 20), 63, 0)
	_ = h.RasterizeTriangle(geom.V3(12.5, 2, 20), geom.V3(12.5, 2, 22), geom.V3(14, 2, 20), 63, 0)
	if h.SpanCount() != n {
		t.Errorf("triangles outside the grid added spans")
	}
	if err := h.RasterizeTriangle(geom.V3(float32(math.Inf(1)), 0, 0), geom.V3(0, 0, 0), geom.V3(1, 0, 0), 63, 0); err == nil {
		t.Errorf("infinite vertex accepted")
	}
}

func TestSlope(t *testing.T) {
	thr := WalkableSlopeCos(45)
	if math.Abs(float64(thr)-math.Sqrt(0.5)) > 1e-7 {
		t.Fatalf("cos 45 = %v", thr)
	}
	// A triangle rising h metres per metre along x has slope atan(h).
	tri := func(deg float64) (geom.Vec3, geom.Vec3, geom.Vec3) {
		h := float32(math.Tan(deg * math.Pi / 180))
		return geom.V3(0, 0, 0), geom.V3(0, 0, 1), geom.V3(1, h, 0)
	}
	for _, tc := range []struct {
		deg  float64
		want uint8
	}{
		{0, 7}, {30, 7}, {44.9, 7}, {45.1, AreaNull}, {60, AreaNull}, {89.9, AreaNull},
	} {
		v0, v1, v2 := tri(tc.deg)
		if got := TriangleArea(v0, v1, v2, 7, thr); got != tc.want {
			t.Errorf("slope %v°: area %d, want %d", tc.deg, got, tc.want)
		}
	}
	// Walkable means strictly above the threshold.
	v0, v1, v2 := tri(30)
	ny := TriangleNormalY(v0, v1, v2)
	if TriangleArea(v0, v1, v2, 7, ny) != AreaNull {
		t.Errorf("normal y equal to the threshold counted as walkable")
	}
	// Facing down or degenerate: never walkable.
	if TriangleArea(v0, v2, v1, 7, thr) != AreaNull {
		t.Errorf("downward triangle walkable")
	}
	if TriangleArea(v0, v0, v1, 7, thr) != AreaNull {
		t.Errorf("degenerate triangle walkable")
	}
	// Through RasterizeSoup: the soup's area id survives only below the slope.
	for _, tc := range []struct {
		deg  float64
		want string
	}{{44.5, "a9"}, {45.5, "a0"}} {
		v0, v1, v2 := tri(tc.deg)
		s := &level.Soup{Verts: []geom.Vec3{v0, v1, v2}, Tris: [][3]int32{{0, 1, 2}}, Areas: []uint8{9}}
		h, _ := NewHeightfield(unitGrid(1, 1, 2))
		if err := h.RasterizeSoup(s, nil, 45, 1); err != nil {
			t.Fatal(err)
		}
		if got := columnString(h, 0, 0); !strings.HasSuffix(got, tc.want) {
			t.Errorf("slope %v°: column %s, want area %s", tc.deg, got, tc.want)
		}
	}
}

func TestRasterizeSoupErrors(t *testing.T) {
	s := &level.Soup{
		Verts: []geom.Vec3{geom.V3(0, 0, 0), geom.V3(0, 0, 1), geom.V3(1, 0, 0), geom.V3(float32(math.NaN()), 0, 0)},
		Tris:  [][3]int32{{0, 1, 2}, {0, 1, 3}, {0, 1, 7}, {0, 1, 2}},
		Areas: []uint8{63, 63, 63, 99},
	}
	h, _ := NewHeightfield(unitGrid(2, 2, 2))
	for _, tc := range []struct {
		tris []int32
		want string
	}{
		{[]int32{0, 1}, "triangle 1 vertex 3"},
		{[]int32{2}, "triangle 2 has vertex index 7"},
		{[]int32{3}, "triangle 3 has area id 99"},
		{[]int32{0, 9}, "triangle index 9"},
	} {
		err := h.RasterizeSoup(s, tc.tris, 45, 1)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("tris %v: err %v, want %q", tc.tris, err, tc.want)
		}
		if h.SpanCount() != 0 {
			t.Fatalf("failed RasterizeSoup changed the heightfield")
		}
	}
	if err := h.RasterizeSoup(s, []int32{0}, 91, 1); err == nil {
		t.Errorf("slope 91 accepted")
	}
}

// stepScene is a 12 x 12 floor (solid rows [0, 10)) whose columns x >= 6 rise
// to 10+step, built with agent height 3 rows and climb 2 rows.
func stepScene(t *testing.T, step int) *CompactHeightfield {
	h := columnsOf(t, unitGrid(12, 12, 100), func(x, z int) []Span {
		if x >= 6 {
			return []Span{{0, uint16(10 + step), 63}}
		}
		return []Span{{0, 10, 63}}
	})
	return filterAndCompact(t, h, 3, 2)
}

func filterAndCompact(t *testing.T, h *Heightfield, height, climb int) *CompactHeightfield {
	t.Helper()
	if err := h.FilterLowHangingWalkableObstacles(climb); err != nil {
		t.Fatal(err)
	}
	if err := h.FilterLedgeSpans(height, climb); err != nil {
		t.Fatal(err)
	}
	if err := h.FilterWalkableLowHeightSpans(height); err != nil {
		t.Fatal(err)
	}
	c, err := BuildCompactHeightfield(h, height, climb)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestStepClimb(t *testing.T) {
	// Step of exactly the climb: every inner column stays walkable and the
	// two sides link.
	c := stepScene(t, 2)
	want := "" +
		"............\n" +
		".WWWWWWWWWW.\n" +
		".WWWWWWWWWW.\n" +
		".WWWWWWWWWW.\n" +
		".WWWWWWWWWW.\n" +
		".WWWWWWWWWW.\n" +
		".WWWWWWWWWW.\n" +
		".WWWWWWWWWW.\n" +
		".WWWWWWWWWW.\n" +
		".WWWWWWWWWW.\n" +
		".WWWWWWWWWW.\n" +
		"............\n"
	if got := areaMap(c, 0); got != want {
		t.Errorf("step 2 areas:\n%swant\n%s", got, want)
	}
	i := int(c.Cells[5+5*12].Index)
	if j := c.Neighbour(5, 5, i, 2); j != int(c.Cells[6+5*12].Index) {
		t.Errorf("step 2: span (5,5) links +x to %d, want the span of (6,5)", j)
	}
	// One row more: the upper edge is a ledge (removed), the lower side
	// does not link up.
	c = stepScene(t, 3)
	want = "" +
		"............\n" +
		".WWWWW.WWWW.\n" +
		".WWWWW.WWWW.\n" +
		".WWWWW.WWWW.\n" +
		".WWWWW.WWWW.\n" +
		".WWWWW.WWWW.\n" +
		".WWWWW.WWWW.\n" +
		".WWWWW.WWWW.\n" +
		".WWWWW.WWWW.\n" +
		".WWWWW.WWWW.\n" +
		".WWWWW.WWWW.\n" +
		"............\n"
	if got := areaMap(c, 0); got != want {
		t.Errorf("step 3 areas:\n%swant\n%s", got, want)
	}
	i = int(c.Cells[5+5*12].Index)
	if j := c.Neighbour(5, 5, i, 2); j != -1 {
		t.Errorf("step 3: span (5,5) links +x to %d, want none", j)
	}
	i = int(c.Cells[7+5*12].Index)
	if c.Spans[i].Y != 13 || c.Neighbour(7, 5, i, 0) != -1 {
		t.Errorf("step 3: span (7,5) Y %d link -x %d, want 13 and none", c.Spans[i].Y, c.Neighbour(7, 5, i, 0))
	}
}

func TestLedgePlatform(t *testing.T) {
	// A 5 x 5 platform (rows [10, 11)) over empty columns: its rim drops to
	// the open space below the neighbours, so only the inner 3 x 3 stays.
	h := columnsOf(t, unitGrid(9, 9, 100), func(x, z int) []Span {
		if x >= 2 && x <= 6 && z >= 2 && z <= 6 {
			return []Span{{10, 11, 63}}
		}
		return nil
	})
	c := filterAndCompact(t, h, 3, 2)
	if c.SpanCount() != 9 {
		t.Errorf("platform keeps %d spans, want 9\n%s", c.SpanCount(), areaMap(c, 0))
	}
	// Same platform on a floor 2 rows below (within climb): nothing drops
	// more than the climb, so all of it stays, as does the floor around it
	// (except the grid's outer ring).
	h = columnsOf(t, unitGrid(9, 9, 100), func(x, z int) []Span {
		if x >= 2 && x <= 6 && z >= 2 && z <= 6 {
			return []Span{{0, 11, 63}}
		}
		return []Span{{0, 9, 63}}
	})
	c = filterAndCompact(t, h, 3, 2)
	if c.SpanCount() != 49 {
		t.Errorf("platform on a floor keeps %d spans, want 49\n%s", c.SpanCount(), areaMap(c, 0))
	}
}

func TestSteepSlopeLedge(t *testing.T) {
	// Floors rising 2 rows per column (= climb): a span whose reachable
	// neighbours range from f-2 to f+2 spans 4 > climb rows: a steep slope.
	h := columnsOf(t, unitGrid(7, 3, 100), func(x, z int) []Span {
		return []Span{{0, uint16(10 + 2*x), 63}}
	})
	c := filterAndCompact(t, h, 3, 2)
	if got, want := areaMap(c, 0), ".......\n.......\n.......\n"; got != want {
		t.Errorf("steep slope:\n%swant\n%s", got, want)
	}
	// 1 row per column: highest - lowest = 2 <= climb, walkable.
	h = columnsOf(t, unitGrid(7, 3, 100), func(x, z int) []Span {
		return []Span{{0, uint16(10 + x), 63}}
	})
	c = filterAndCompact(t, h, 3, 2)
	if got, want := areaMap(c, 0), ".......\n.WWWWW.\n.......\n"; got != want {
		t.Errorf("gentle slope:\n%swant\n%s", got, want)
	}
}

func TestLowCeiling(t *testing.T) {
	for _, tc := range []struct {
		gap  int
		want int // walkable floor spans
	}{{2, 0}, {3, 1}, {4, 1}} {
		h := columnsOf(t, unitGrid(3, 3, 100), func(x, z int) []Span {
			return []Span{{0, 10, 63}, {uint16(10 + tc.gap), uint16(12 + tc.gap), 0}}
		})
		// No ledge filter here (the grid is tiny): only the clearance rule.
		if err := h.FilterWalkableLowHeightSpans(3); err != nil {
			t.Fatal(err)
		}
		c, err := BuildCompactHeightfield(h, 3, 2)
		if err != nil {
			t.Fatal(err)
		}
		// The ceiling's top is unwalkable (area 0) and never an open span.
		if got := c.SpanCount(); got != 9*tc.want {
			t.Errorf("gap %d: %d open spans, want %d", tc.gap, got, 9*tc.want)
		}
		if tc.want > 0 && int(c.Spans[0].H) != tc.gap {
			t.Errorf("gap %d: clearance %d", tc.gap, c.Spans[0].H)
		}
	}
}

func TestLowHangingObstacle(t *testing.T) {
	for _, tc := range []struct {
		name string
		col  []Span
		want string
	}{
		{"kerb within climb", []Span{{0, 10, 5}, {11, 12, 0}}, "[0,10)a5 [11,12)a5"},
		{"too high", []Span{{0, 10, 5}, {11, 13, 0}}, "[0,10)a5 [11,13)a0"},
		{"stack lifts one", []Span{{0, 10, 5}, {11, 12, 0}, {13, 14, 0}}, "[0,10)a5 [11,12)a5 [13,14)a0"},
		{"walkable above kept", []Span{{0, 10, 5}, {11, 12, 7}}, "[0,10)a5 [11,12)a7"},
	} {
		h := columnsOf(t, unitGrid(1, 1, 100), func(x, z int) []Span { return tc.col })
		if err := h.FilterLowHangingWalkableObstacles(2); err != nil {
			t.Fatal(err)
		}
		if got := columnString(h, 0, 0); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestBridgeTwoFloors(t *testing.T) {
	// Ground at y = 0 over 12 x 12 m and a deck at y = 5 over x 3..7 m, all
	// z; cells 1 m, rows 0.5 m, agent 2 m high (4 rows), climb 1 row.
	var s level.Soup
	quad := func(x0, x1, y, z0, z1 float32) {
		n := int32(len(s.Verts))
		s.Verts = append(s.Verts, geom.V3(x0, y, z0), geom.V3(x0, y, z1), geom.V3(x1, y, z1), geom.V3(x1, y, z0))
		s.Tris = append(s.Tris, [3]int32{n, n + 1, n + 2}, [3]int32{n, n + 2, n + 3})
		s.Areas = append(s.Areas, 63, 63)
	}
	quad(0, 12, 0, 0, 12)
	quad(3, 7, 5, 0, 12)
	g := Grid{Width: 12, Height: 12, MaxM: geom.V3(12, 5, 12), CellSizeM: 1, CellHeightM: 0.5}
	h, _ := NewHeightfield(g)
	if err := h.RasterizeSoup(&s, nil, 45, 1); err != nil {
		t.Fatal(err)
	}
	if got := columnString(h, 4, 5); got != "[0,1)a63 [10,11)a63" {
		t.Fatalf("column (4,5) = %s", got)
	}
	c := filterAndCompact(t, h, 4, 1)
	cell := c.Cells[4+5*12]
	if cell.Count != 2 {
		t.Fatalf("column (4,5) has %d open spans, want 2", cell.Count)
	}
	lo, hi := c.Spans[cell.Index], c.Spans[cell.Index+1]
	if lo.Y != 1 || lo.H != 9 || hi.Y != 11 || hi.H != MaxClearanceCells {
		t.Errorf("spans %+v %+v, want Y 1 H 9 and Y 11 H 255", lo, hi)
	}
	if c.Areas[cell.Index] != AreaWalkable || c.Areas[cell.Index+1] != AreaWalkable {
		t.Errorf("areas %d %d, want both walkable", c.Areas[cell.Index], c.Areas[cell.Index+1])
	}
	// Each floor links to its own floor in the next column.
	for layer := uint32(0); layer < 2; layer++ {
		i := int(cell.Index + layer)
		j := c.Neighbour(4, 5, i, 1) // +z
		if want := int(c.Cells[4+6*12].Index + layer); j != want {
			t.Errorf("layer %d links +z to %d, want %d", layer, j, want)
		}
	}
	// The deck's rim (x = 3 and 6) is a ledge; beneath it the ground stays.
	want := ".WWWWWWWWWW.\n"
	for z := 1; z < 11; z++ {
		if got := areaMap(c, 0)[z*13 : z*13+13]; got != want {
			t.Errorf("ground row %d = %q, want %q", z, got, want)
		}
	}
	if got := areaMap(c, 1)[5*13 : 5*13+13]; got != "....WW......\n" {
		t.Errorf("deck row 5 = %q", got)
	}
}

// flatCompact returns a compact heightfield of w x h columns, each with one
// walkable floor at row 10, where in(x, z) is true; others are empty.
func flatCompact(t *testing.T, w, h int, in func(x, z int) bool) *CompactHeightfield {
	hf := columnsOf(t, unitGrid(w, h, 100), func(x, z int) []Span {
		if in(x, z) {
			return []Span{{0, 10, 63}}
		}
		return nil
	})
	c, err := BuildCompactHeightfield(hf, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestErosionSquare(t *testing.T) {
	// A 9 x 9 walkable square inside an 11 x 11 grid: the chamfer distance
	// (x2) of column (x, z) is 2 * min(x-1, z-1, 9-x, 9-z).
	c := flatCompact(t, 11, 11, func(x, z int) bool { return x >= 1 && x <= 9 && z >= 1 && z <= 9 })
	dist := c.ErosionDistances(nil)
	for z := 1; z <= 9; z++ {
		for x := 1; x <= 9; x++ {
			want := 2 * min(x-1, z-1, 9-x, 9-z)
			if got := dist[c.Cells[x+z*11].Index]; int(got) != want {
				t.Errorf("dist (%d,%d) = %d, want %d", x, z, got, want)
			}
		}
	}
	if _, err := c.ErodeWalkableArea(2, nil); err != nil {
		t.Fatal(err)
	}
	if n := c.WalkableSpanCount(); n != 25 {
		t.Errorf("radius 2 leaves %d spans, want 25\n%s", n, areaMap(c, 0))
	}
	// Radius 0 changes nothing; out of range is an error.
	c = flatCompact(t, 5, 5, func(x, z int) bool { return true })
	if _, err := c.ErodeWalkableArea(0, nil); err != nil || c.WalkableSpanCount() != 25 {
		t.Errorf("radius 0: err %v, %d spans", err, c.WalkableSpanCount())
	}
	if _, err := c.ErodeWalkableArea(128, nil); err == nil {
		t.Errorf("radius 128 accepted")
	}
}

func TestErosionDiagonal(t *testing.T) {
	// A single unwalkable span in the middle of a walkable field: it and its
	// four neighbours (which see it) are the boundary, as is the grid rim;
	// distances grow by 2 straight and 3 diagonally from there.
	c := flatCompact(t, 9, 9, func(x, z int) bool { return true })
	c.Areas[c.Cells[4+4*9].Index] = AreaNull
	dist := c.ErosionDistances(nil)
	at := func(x, z int) int { return int(dist[c.Cells[x+z*9].Index]) }
	for _, tc := range []struct{ x, z, want int }{
		{4, 4, 0}, {3, 4, 0}, {4, 5, 0}, {3, 3, 2}, {5, 5, 2}, {2, 4, 2}, {2, 3, 3}, {6, 5, 3}, {2, 2, 4}, {0, 4, 0}, {1, 1, 2},
	} {
		if got := at(tc.x, tc.z); got != tc.want {
			t.Errorf("dist (%d,%d) = %d, want %d", tc.x, tc.z, got, tc.want)
		}
	}
}

func TestVolumesOverlap(t *testing.T) {
	square := func(x0, z0, x1, z1 float32, area uint8) ConvexVolume {
		return ConvexVolume{VertsXZ: [][2]float32{{x0, z0}, {x1, z0}, {x1, z1}, {x0, z1}}, MinYM: 9, MaxYM: 11, Area: area}
	}
	a := square(2, 2, 6, 6, 1)   // 'b'
	b := square(4, 4, 8.5, 8, 2) // 'c'; clockwise in x/z drawn as here
	b.VertsXZ[1], b.VertsXZ[3] = b.VertsXZ[3], b.VertsXZ[1]
	run := func(vols ...ConvexVolume) string {
		c := flatCompact(t, 10, 10, func(x, z int) bool { return true })
		for i := range vols {
			if err := MarkConvexVolume(c, &vols[i]); err != nil {
				t.Fatal(err)
			}
		}
		return areaMap(c, 0)
	}
	// Cell centres are at n + 0.5; a volume edge at 8.5 includes column 8.
	rows := func(r ...string) string { return strings.Join(r, "\n") + "\n" }
	want := rows(
		"WWWWWWWWWW",
		"WWWWWWWWWW",
		"WWbbbbWWWW",
		"WWbbbbWWWW",
		"WWbbcccccW",
		"WWbbcccccW",
		"WWWWcccccW",
		"WWWWcccccW",
		"WWWWWWWWWW",
		"WWWWWWWWWW")
	if got := run(a, b); got != want {
		t.Errorf("a then b:\n%swant\n%s", got, want)
	}
	want = rows(
		"WWWWWWWWWW",
		"WWWWWWWWWW",
		"WWbbbbWWWW",
		"WWbbbbWWWW",
		"WWbbbbcccW",
		"WWbbbbcccW",
		"WWWWcccccW",
		"WWWWcccccW",
		"WWWWWWWWWW",
		"WWWWWWWWWW")
	if got := run(b, a); got != want {
		t.Errorf("b then a:\n%swant\n%s", got, want)
	}
	// A volume whose height range misses the floor (at 10 m) changes nothing.
	high := square(0, 0, 10, 10, 3)
	high.MinYM, high.MaxYM = 10.5, 20
	if got := run(high); strings.Contains(got, "d") {
		t.Errorf("volume above the floor marked spans:\n%s", got)
	}
	// Boundary included: floor exactly at MaxYM and centres on the edge.
	edge := square(0.5, 0.5, 2.5, 2.5, 3)
	edge.MinYM, edge.MaxYM = 0, 10
	if got := run(edge); got[:33] != "dddWWWWWWW\ndddWWWWWWW\ndddWWWWWWW\n" {
		t.Errorf("boundary volume:\n%s", got)
	}
	// Area 0 makes spans unwalkable, and unwalkable spans stay so.
	c := flatCompact(t, 10, 10, func(x, z int) bool { return true })
	hole := square(0, 0, 10, 10, 0)
	_ = MarkConvexVolume(c, &hole)
	back := square(0, 0, 10, 10, 5)
	_ = MarkConvexVolume(c, &back)
	if c.WalkableSpanCount() != 0 {
		t.Errorf("volume made unwalkable spans walkable")
	}
}

func TestVolumeValidate(t *testing.T) {
	nan := float32(math.NaN())
	for _, tc := range []struct {
		v    ConvexVolume
		want string
	}{
		{ConvexVolume{VertsXZ: [][2]float32{{0, 0}, {1, 0}}}, "2 corners"},
		{ConvexVolume{VertsXZ: [][2]float32{{0, 0}, {1, 0}, {nan, 1}}}, "corner 2"},
		{ConvexVolume{VertsXZ: [][2]float32{{0, 0}, {1, 0}, {1, 1}}, MinYM: 2, MaxYM: 1}, "MinYM 2 above MaxYM 1"},
		{ConvexVolume{VertsXZ: [][2]float32{{0, 0}, {1, 0}, {1, 1}}, Area: 64}, "area id 64"},
		{ConvexVolume{VertsXZ: [][2]float32{{0, 0}, {1, 0}, {2, 0}}}, "doubles back"},
		{ConvexVolume{VertsXZ: [][2]float32{{1, 1}, {1, 1}, {1, 1}}}, "collinear"},
		{ConvexVolume{VertsXZ: [][2]float32{{0, 0}, {2, 0}, {1, 0.2}, {2, 2}, {0, 2}}}, "not convex"},
		// A pentagram turns the same way at every corner but winds twice.
		{ConvexVolume{VertsXZ: [][2]float32{{0, 3}, {2, -3}, {-3, 1}, {3, 1}, {-2, -3}}}, "more than once"},
		{ConvexVolume{VertsXZ: [][2]float32{{0, 0}, {2, 0}, {1, 0}, {1, 1}}}, "not convex"},
		{ConvexVolume{VertsXZ: [][2]float32{{0, 0}, {1, 0}, {1, 1}}, MaxYM: 1e9}, "MaxYM"},
	} {
		err := tc.v.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err %v, want %q", tc.v.VertsXZ, err, tc.want)
		}
	}
	ok := ConvexVolume{VertsXZ: [][2]float32{{0, 0}, {1, 0}, {2, 0}, {2, 2}, {0, 2}}, MaxYM: 1, Area: 63}
	if err := ok.Validate(); err != nil {
		t.Errorf("square with a collinear corner: %v", err)
	}
}

func TestLinkLayerLimit(t *testing.T) {
	// 300 floors stacked in two columns: spans above index MaxLinkLayer in
	// the neighbour column are never linked.
	g := unitGrid(2, 1, 100)
	var col []Span
	for i := 0; i < 300; i++ {
		col = append(col, Span{uint16(i * 4), uint16(i*4 + 1), 63})
	}
	h := columnsOf(t, g, func(x, z int) []Span { return col })
	c, err := BuildCompactHeightfield(h, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 300; i++ {
		l := c.Spans[i].Link(2)
		want := i
		if i > MaxLinkLayer {
			want = NotConnected
		}
		if l != want {
			t.Fatalf("span %d links to %d, want %d", i, l, want)
		}
	}
}

func TestSerializeRoundTrip(t *testing.T) {
	c := flatCompact(t, 6, 5, func(x, z int) bool { return (x+z)%3 != 0 })
	c.Areas[2] = 17
	b, err := c.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var d CompactHeightfield
	if err := d.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	b2, _ := d.MarshalBinary()
	if string(b) != string(b2) || d.Hash() != c.Hash() || c.Hash() == 0 {
		t.Errorf("round trip differs")
	}
	if cl := c.Clone(); cl.Hash() != c.Hash() {
		t.Errorf("clone differs")
	}
	// Corruptions are errors, never panics.
	for i := 0; i < len(b); i++ {
		bad := append([]byte(nil), b...)
		bad[i] ^= 0x5a
		var e CompactHeightfield
		_ = e.UnmarshalBinary(bad)
	}
	if err := d.UnmarshalBinary(b[:len(b)-1]); err == nil {
		t.Errorf("truncated data accepted")
	}
}
