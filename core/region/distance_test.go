package region

import (
	"strings"
	"testing"

	"navviz/core/geom"
	"navviz/core/voxel"
)

// Test helpers of the watershed/monotone tests. Names carry a "part" prefix
// so that they do not collide with the layer partition's tests.

// partPlanCHF builds a compact heightfield from a plan: one string per row z
// (row 0 first), one byte per column x: '.' empty, '#' a walkable floor at
// row 10, 'a'..'z' a floor of area 1..26, 'o' a non-walkable (area 0) span
// (kept as a span, as erosion leaves it), '2' two walkable floors (rows 10
// and 40). Links use height 3 and climb 2.
func partPlanCHF(t testing.TB, border int, plan ...string) *voxel.CompactHeightfield {
	t.Helper()
	h := len(plan)
	w := len(plan[0])
	cols := make([][]voxel.Span, w*h)
	for z, row := range plan {
		if len(row) != w {
			t.Fatalf("plan row %d has %d columns, want %d", z, len(row), w)
		}
		for x := 0; x < w; x++ {
			var col []voxel.Span
			switch ch := row[x]; {
			case ch == '.':
			case ch == '#':
				col = []voxel.Span{{MinRow: 0, MaxRow: 10, Area: voxel.AreaWalkable}}
			case ch == 'o':
				col = []voxel.Span{{MinRow: 0, MaxRow: 10, Area: voxel.AreaWalkable}}
			case ch == '2':
				col = []voxel.Span{{MinRow: 0, MaxRow: 10, Area: voxel.AreaWalkable}, {MinRow: 30, MaxRow: 40, Area: voxel.AreaWalkable}}
			case ch >= 'a' && ch <= 'z':
				col = []voxel.Span{{MinRow: 0, MaxRow: 10, Area: ch - 'a' + 1}}
			default:
				t.Fatalf("plan byte %q", ch)
			}
			cols[x+z*w] = col
		}
	}
	g := voxel.Grid{Width: w, Height: h, BorderCells: border, MaxM: geom.V3(float32(w), 100, float32(h)), CellSizeM: 1, CellHeightM: 1}
	hf, err := voxel.NewHeightfieldFromColumns(g, cols)
	if err != nil {
		t.Fatal(err)
	}
	c, err := voxel.BuildCompactHeightfield(hf, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	for z, row := range plan {
		for x := 0; x < w; x++ {
			if row[x] == 'o' {
				c.Areas[c.Cells[x+z*w].Index] = voxel.AreaNull
			}
		}
	}
	return c
}

// partIDMap renders the region id of the lowest span of each column: '.' no
// span or NoRegion, 'B' a border id, else the id in base 36 ('1'..'9', 'a'..).
func partIDMap(c *voxel.CompactHeightfield, ids []uint16) string {
	var b strings.Builder
	for z := 0; z < c.Height; z++ {
		for x := 0; x < c.Width; x++ {
			cell := c.Cells[x+z*c.Width]
			switch {
			case cell.Count == 0 || ids[cell.Index] == NoRegion:
				b.WriteByte('.')
			case ids[cell.Index]&BorderFlag != 0:
				b.WriteByte('B')
			case ids[cell.Index] < 36:
				b.WriteByte("0123456789abcdefghijklmnopqrstuvwxyz"[ids[cell.Index]])
			default:
				b.WriteByte('+')
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func TestDistanceFieldSquare(t *testing.T) {
	// A 9 x 9 floor in an 11 x 11 grid: the spans of its outer ring lack a
	// link and start at 0; the centre is 4 straight steps (8 half cells) from
	// the ring.
	c := partPlanCHF(t, 0,
		"...........",
		".#########.",
		".#########.",
		".#########.",
		".#########.",
		".#########.",
		".#########.",
		".#########.",
		".#########.",
		".#########.",
		"...........",
	)
	dist, maxDist, err := DistanceField(c)
	if err != nil {
		t.Fatal(err)
	}
	if maxDist != 8 {
		t.Errorf("maxDist %d, want 8 (centre 4 cells from the boundary ring)", maxDist)
	}
	// The ring stays 0 after the blur and the field keeps the square's
	// symmetries.
	at := func(x, z int) uint16 { return dist[c.Cells[x+z*11].Index] }
	for k := 1; k <= 9; k++ {
		for _, p := range [][2]int{{k, 1}, {k, 9}, {1, k}, {9, k}} {
			if v := at(p[0], p[1]); v != 0 {
				t.Errorf("ring (%d, %d) = %d, want 0", p[0], p[1], v)
			}
		}
	}
	for z := 1; z <= 9; z++ {
		for x := 1; x <= 9; x++ {
			if at(x, z) != at(10-x, z) || at(x, z) != at(x, 10-z) || at(x, z) != at(z, x) {
				t.Fatalf("blurred field not symmetric at (%d, %d)", x, z)
			}
		}
	}
	// Raw centre 8 and its 8 neighbours 6: (8 + 8*6 + 5) / 9 = 6.
	if v := at(5, 5); v != 6 {
		t.Errorf("blurred centre %d, want 6", v)
	}
}

func TestDistanceFieldErrors(t *testing.T) {
	c := partPlanCHF(t, 0, "###", "###")
	bad := c.Clone()
	bad.Areas = bad.Areas[:5]
	for _, tc := range []struct {
		c    *voxel.CompactHeightfield
		want string
	}{
		{nil, "nil compact heightfield"},
		{bad, "5 areas for 6 spans"},
	} {
		if _, _, err := DistanceField(tc.c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("DistanceField error %v, want %q", err, tc.want)
		}
	}
}
