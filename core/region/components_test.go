package region_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"navviz/core/geom"
	"navviz/core/region"
	"navviz/core/voxel"
)

// The tests of the layer partition are an external package (region_test) so
// that they may import core/pipeline even once the pipeline imports region.
// Helper names start with "lay".

// layFloor is one floor of a synthetic column: a solid span ending at row Y
// (one row thick) with area Area; Null keeps the span but sets its area to
// voxel.AreaNull after compaction (as erosion does).
type layFloor struct {
	Y    uint16
	Area uint8
	Null bool
}

// layCHF builds a w x h compact heightfield whose column (x, z) holds the
// floors cols(x, z) (bottom up, at least two rows apart), linked for agent
// height heightCells and climb climbCells.
func layCHF(t testing.TB, w, h, border, heightCells, climbCells int, cols func(x, z int) []layFloor) *voxel.CompactHeightfield {
	t.Helper()
	spans := make([][]voxel.Span, w*h)
	for z := range h {
		for x := range w {
			for _, f := range cols(x, z) {
				spans[x+z*w] = append(spans[x+z*w], voxel.Span{MinRow: f.Y - 1, MaxRow: f.Y, Area: max(f.Area, 1)})
			}
		}
	}
	g := voxel.Grid{Width: w, Height: h, BorderCells: border, MaxM: geom.V3(float32(w), 100, float32(h)), CellSizeM: 1, CellHeightM: 1}
	hf, err := voxel.NewHeightfieldFromColumns(g, spans)
	if err != nil {
		t.Fatal(err)
	}
	c, err := voxel.BuildCompactHeightfield(hf, heightCells, climbCells)
	if err != nil {
		t.Fatal(err)
	}
	for z := range h {
		for x := range w {
			cell := c.Cells[x+z*w]
			for k, f := range cols(x, z) {
				if f.Null {
					c.Areas[int(cell.Index)+k] = voxel.AreaNull
				}
			}
		}
	}
	return c
}

// layPlan builds a heightfield from a plan: one string per row z (row 0
// first), one byte per column x: '.' no span, '#' a floor of area 63 at row
// 10, 'a'..'z' a floor of area 1..26, 'o' a non-walkable floor. Height 3,
// climb 2.
func layPlan(t testing.TB, border int, plan ...string) *voxel.CompactHeightfield {
	t.Helper()
	w := len(plan[0])
	for z, row := range plan {
		if len(row) != w {
			t.Fatalf("plan row %d has %d columns, want %d", z, len(row), w)
		}
	}
	return layCHF(t, w, len(plan), border, 3, 2, func(x, z int) []layFloor {
		switch ch := plan[z][x]; {
		case ch == '.':
			return nil
		case ch == '#':
			return []layFloor{{Y: 10, Area: voxel.AreaWalkable}}
		case ch == 'o':
			return []layFloor{{Y: 10, Null: true}}
		case ch >= 'a' && ch <= 'z':
			return []layFloor{{Y: 10, Area: ch - 'a' + 1}}
		default:
			t.Fatalf("plan byte %q", ch)
			return nil
		}
	})
}

// layView returns the one layer of a single-floor heightfield.
func layView(t testing.TB, c *voxel.CompactHeightfield, border int) *region.LayerView {
	t.Helper()
	views, _, err := region.SplitLayers(c, border)
	if err != nil {
		t.Fatal(err)
	}
	if len(views) != 1 {
		t.Fatalf("%d layers, want 1", len(views))
	}
	return &views[0]
}

// layMap renders a labelling of a one-floor view as a plan: '.' no span or
// NoRegion, 'B' LayerBorder, else the id in base 36.
func layMap(v *region.LayerView, ids []uint16) string {
	grid := make([][]byte, v.Height)
	for z := range grid {
		grid[z] = []byte(strings.Repeat(".", v.Width))
	}
	for k, id := range ids {
		b := byte('+')
		switch {
		case id == region.NoRegion:
			b = '.'
		case id == region.LayerBorder:
			b = 'B'
		case id < 36:
			b = "0123456789abcdefghijklmnopqrstuvwxyz"[id]
		}
		grid[v.Z[k]][v.X[k]] = b
	}
	var sb strings.Builder
	for _, row := range grid {
		sb.Write(row)
		sb.WriteByte('\n')
	}
	return sb.String()
}

func layJoin(rows ...string) string { return strings.Join(rows, "\n") + "\n" }

// layCheckLabels checks the invariants of a labelling: ids 1..Count used,
// numbered by first span, First and Size consistent with the ids (Size
// counts border spans of the component only when border is false).
func layCheckLabels(t *testing.T, lab *region.Labels, border bool) {
	t.Helper()
	if len(lab.First) != lab.Count+1 || len(lab.Size) != lab.Count+1 {
		t.Fatalf("Count %d with %d First and %d Size", lab.Count, len(lab.First), len(lab.Size))
	}
	if lab.First[0] != -1 || lab.Size[0] != 0 {
		t.Errorf("First[0] %d Size[0] %d, want -1 and 0", lab.First[0], lab.Size[0])
	}
	size := make([]int32, lab.Count+1)
	first := make([]int32, lab.Count+1)
	for k, id := range lab.IDs {
		if id == region.NoRegion || id == region.LayerBorder {
			continue
		}
		if int(id) > lab.Count {
			t.Fatalf("span %d has id %d > Count %d", k, id, lab.Count)
		}
		if size[id] == 0 {
			first[id] = int32(k)
		}
		size[id]++
	}
	for a := 1; a <= lab.Count; a++ {
		if size[a] == 0 {
			t.Errorf("label %d has no span", a)
			continue
		}
		if a > 1 && lab.First[a] <= lab.First[a-1] {
			t.Errorf("label %d first span %d not after label %d's %d", a, lab.First[a], a-1, lab.First[a-1])
		}
		if !border {
			if first[a] != lab.First[a] || size[a] != lab.Size[a] {
				t.Errorf("label %d: First %d Size %d, spans say %d and %d", a, lab.First[a], lab.Size[a], first[a], size[a])
			}
		} else if size[a] > lab.Size[a] || first[a] < lab.First[a] {
			t.Errorf("label %d: First %d Size %d, its non-border spans start at %d and count %d", a, lab.First[a], lab.Size[a], first[a], size[a])
		}
	}
}

func TestComponents(t *testing.T) {
	cases := []struct {
		name  string
		plan  []string
		want  string
		count int
	}{
		{
			name:  "flat square",
			plan:  []string{"####", "####", "####"},
			want:  layJoin("1111", "1111", "1111"),
			count: 1,
		},
		{
			// The blob met first in span order (row 0) is 1 although the
			// other reaches further left.
			name:  "numbered by first span",
			plan:  []string{"...##", "#..##", "#....", "##.#."},
			want:  layJoin("...11", "2..11", "2....", "22.3."),
			count: 3,
		},
		{
			// Arms pointing -z: the right arm is met first; the base joins
			// both arms through -x and -z links only.
			name:  "U open to -z",
			plan:  []string{"#...#", "#...#", "#####"},
			want:  layJoin("1...1", "1...1", "11111"),
			count: 1,
		},
		{
			name:  "U open to +z",
			plan:  []string{"#####", "#...#", "#...#"},
			want:  layJoin("11111", "1...1", "1...1"),
			count: 1,
		},
		{
			name:  "U open to -x",
			plan:  []string{"####", "...#", "####"},
			want:  layJoin("1111", "...1", "1111"),
			count: 1,
		},
		{
			name:  "U open to +x",
			plan:  []string{"####", "#...", "####"},
			want:  layJoin("1111", "1...", "1111"),
			count: 1,
		},
		{
			// A staircase: each span joins its -z neighbour only.
			name:  "staircase",
			plan:  []string{"...##", "..##.", ".##..", "##...", "#...."},
			want:  layJoin("...11", "..11.", ".11..", "11...", "1...."),
			count: 1,
		},
		{
			// Diagonal contact does not join.
			name:  "diagonal",
			plan:  []string{"#.", ".#"},
			want:  layJoin("1.", ".2"),
			count: 2,
		},
		{
			// Areas never mix; a non-walkable span splits.
			name:  "areas",
			plan:  []string{"aab#", "aab#", "ccoa"},
			want:  layJoin("1123", "1123", "44.5"),
			count: 5,
		},
		{
			name:  "nothing walkable",
			plan:  []string{"oo", "o."},
			want:  layJoin("..", ".."),
			count: 0,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := layPlan(t, 0, tc.plan...)
			v := layView(t, c, 0)
			var lab region.Labels
			if err := v.Components(nil, &lab); err != nil {
				t.Fatal(err)
			}
			if got := layMap(v, lab.IDs); got != tc.want {
				t.Errorf("components\n%s\nwant\n%s", got, tc.want)
			}
			if lab.Count != tc.count {
				t.Errorf("Count %d, want %d", lab.Count, tc.count)
			}
			layCheckLabels(t, &lab, false)
		})
	}
}

// TestComponentsUShapeLarge checks on a large U (and its mirror images)
// that -x and -z links give the connectivity of all four links: one
// component, whatever the orientation.
func TestComponentsUShapeLarge(t *testing.T) {
	const n = 40
	for orient := range 4 {
		t.Run(fmt.Sprint(orient), func(t *testing.T) {
			plan := make([]string, n)
			for z := range n {
				row := make([]byte, n)
				for x := range n {
					// A U open towards -z: two arms and a base at z = n-1.
					x2, z2 := x, z
					switch orient {
					case 1:
						z2 = n - 1 - z
					case 2:
						x2, z2 = z, x
					case 3:
						x2, z2 = z, n-1-x
					}
					if x2 < 3 || x2 >= n-3 || z2 >= n-3 {
						row[x] = '#'
					} else {
						row[x] = '.'
					}
				}
				plan[z] = string(row)
			}
			v := layView(t, layPlan(t, 0, plan...), 0)
			var lab region.Labels
			if err := v.Components(nil, &lab); err != nil {
				t.Fatal(err)
			}
			if lab.Count != 1 || int(lab.Size[1]) != v.Len() || lab.First[1] != 0 {
				t.Errorf("Count %d Size %v First %v, want one component of %d spans from span 0", lab.Count, lab.Size, lab.First, v.Len())
			}
		})
	}
}

func TestDropIslands(t *testing.T) {
	cases := []struct {
		name    string
		plan    []string
		min     int
		want    string
		dropped int
	}{
		{
			// A lone span and a pair are below 3; the square is kept.
			name:    "isolated",
			plan:    []string{"#.##", "....", "##..", "##.#"},
			min:     3,
			want:    layJoin("....", "....", "11..", "11.."),
			dropped: 3,
		},
		{
			name:    "min zero keeps all",
			plan:    []string{"#.##", "....", "##..", "##.#"},
			min:     0,
			want:    layJoin("1.22", "....", "33..", "33.4"),
			dropped: 0,
		},
		{
			// The single 'a' span touches area 'b' (walkable, another
			// area) and is kept; 'b' touches 'a' and is kept too.
			name:    "different area neighbour",
			plan:    []string{"ab..", "....", "c..."},
			min:     3,
			want:    layJoin("12..", "....", "...."),
			dropped: 1,
		},
		{
			// A non-walkable neighbour does not save an island.
			name:    "non-walkable neighbour",
			plan:    []string{"ao..", "....", "...."},
			min:     2,
			want:    layJoin("....", "....", "...."),
			dropped: 1,
		},
		{
			// Exactly minAreaCells spans are kept.
			name:    "at the limit",
			plan:    []string{"##.#", "....", "#..."},
			min:     2,
			want:    layJoin("11..", "....", "...."),
			dropped: 2,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := layView(t, layPlan(t, 0, tc.plan...), 0)
			var lab region.Labels
			if err := v.Components(nil, &lab); err != nil {
				t.Fatal(err)
			}
			dropped, err := v.DropIslands(nil, &lab, tc.min)
			if err != nil {
				t.Fatal(err)
			}
			if got := layMap(v, lab.IDs); got != tc.want || dropped != tc.dropped {
				t.Errorf("dropped %d, regions\n%s\nwant %d\n%s", dropped, got, tc.dropped, tc.want)
			}
			layCheckLabels(t, &lab, false)
		})
	}
}

// TestDropIslandsAreasInForce checks that the areas argument, not the
// view's, decides: marking the neighbour non-walkable drops the island.
func TestDropIslandsAreasInForce(t *testing.T) {
	v := layView(t, layPlan(t, 0, "ab...", ".....", "#####"), 0)
	areas := append([]uint8(nil), v.Areas...)
	var lab region.Labels
	for _, tc := range []struct {
		name string
		b    uint8
		want string
	}{
		{"b walkable", 2, layJoin("12...", ".....", "33333")},
		{"b removed", voxel.AreaNull, layJoin(".....", ".....", "11111")},
		{"b same area", 1, layJoin(".....", ".....", "11111")},
	} {
		areas[1] = tc.b
		if err := v.Regions(areas, 3, &lab); err != nil {
			t.Fatal(err)
		}
		if got := layMap(v, lab.IDs); got != tc.want {
			t.Errorf("%s:\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}

func TestJoinBorder(t *testing.T) {
	cases := []struct {
		name   string
		border int
		plan   []string
		want   string
		first  []int32 // First[1..] as view indices
	}{
		{
			name:   "square",
			border: 2,
			plan:   []string{"######", "######", "######", "######", "######", "######"},
			want:   layJoin("BBBBBB", "BBBBBB", "BB11BB", "BB11BB", "BBBBBB", "BBBBBB"),
			first:  []int32{0},
		},
		{
			// The first component lies in the ring only and vanishes; the
			// second is numbered 1, its first span a border span; areas
			// of the ring all join one border region.
			name:   "ring only component",
			border: 1,
			plan:   []string{"aa.bb", "...b.", "b.bb.", "..bb.", "cc..."},
			want:   layJoin("BB.BB", "...1.", "B.11.", "..11.", "BB..."),
			first:  []int32{2},
		},
		{
			name:   "no border",
			border: 0,
			plan:   []string{"##", "##"},
			want:   layJoin("11", "11"),
			first:  []int32{0},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := layView(t, layPlan(t, tc.border, tc.plan...), tc.border)
			var lab region.Labels
			if err := v.Regions(nil, 0, &lab); err != nil {
				t.Fatal(err)
			}
			if got := layMap(v, lab.IDs); got != tc.want {
				t.Errorf("regions\n%s\nwant\n%s", got, tc.want)
			}
			if fmt.Sprint(lab.First[1:]) != fmt.Sprint(tc.first) {
				t.Errorf("First %v, want %v", lab.First[1:], tc.first)
			}
			layCheckLabels(t, &lab, true)
			for k, id := range lab.IDs {
				if (id == region.LayerBorder) != (id != region.NoRegion && v.InBorder(k)) {
					t.Errorf("span %d (%d, %d): id %#x, in border %v", k, v.X[k], v.Z[k], id, v.InBorder(k))
				}
			}
		})
	}
}

// TestRegionsSizeKeepsRing checks that a region's Size counts the ring
// spans of its component, and that a component reaching the ring is kept
// below minAreaCells (docs/layers.md §5).
func TestRegionsSizeKeepsRing(t *testing.T) {
	v := layView(t, layPlan(t, 1, "###..", "###..", ".....", ".....", "....."), 1)
	var lab region.Labels
	for _, min := range []int{6, 7, 100} {
		if err := v.Regions(nil, min, &lab); err != nil {
			t.Fatal(err)
		}
		if lab.Count != 1 || lab.Size[1] != 6 || lab.First[1] != 0 {
			t.Fatalf("min %d: Count %d Size %v First %v, want 1 region of 6 spans from span 0", min, lab.Count, lab.Size, lab.First)
		}
	}
}

// TestDropIslandsRing checks the border clause of the island removal
// (docs/layers.md §5): a small component with a span in the border ring is
// kept, its ring spans joining the border region and the rest a region,
// while one of the same size wholly inside the ring is dropped; a small
// component lying in the ring only is kept too, as border spans.
func TestDropIslandsRing(t *testing.T) {
	cases := []struct {
		name     string
		plan     []string
		dropped  int
		comps    string // after DropIslands
		regions  string // after JoinBorder
		nRegions int
	}{
		{
			// Rows 1..2 of the left pair straddle the ring (column 0); the
			// pair at columns 4..5 lies wholly inside.
			name:     "straddling and inside",
			plan:     []string{"........", "##..##..", "##..##..", "........", "........"},
			dropped:  1,
			comps:    layJoin("........", "11......", "11......", "........", "........"),
			regions:  layJoin("........", "B1......", "B1......", "........", "........"),
			nRegions: 1,
		},
		{
			// A ring-only component (row 0) is kept as border spans; the
			// inside square is dropped.
			name:     "ring only",
			plan:     []string{"###.....", "........", "....##..", "....##..", "........"},
			dropped:  1,
			comps:    layJoin("111.....", "........", "........", "........", "........"),
			regions:  layJoin("BBB.....", "........", "........", "........", "........"),
			nRegions: 0,
		},
		{
			// The straddling component touches the ring at its far
			// corner only.
			name:     "corner of the ring",
			plan:     []string{"........", "........", "........", "......##", "......##"},
			dropped:  0,
			comps:    layJoin("........", "........", "........", "......11", "......11"),
			regions:  layJoin("........", "........", "........", "......1B", "......BB"),
			nRegions: 1,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := layView(t, layPlan(t, 1, tc.plan...), 1)
			var lab region.Labels
			if err := v.Components(nil, &lab); err != nil {
				t.Fatal(err)
			}
			dropped, err := v.DropIslands(nil, &lab, 5)
			if err != nil {
				t.Fatal(err)
			}
			if got := layMap(v, lab.IDs); got != tc.comps || dropped != tc.dropped {
				t.Errorf("dropped %d, components\n%s\nwant %d\n%s", dropped, got, tc.dropped, tc.comps)
			}
			if _, err := v.JoinBorder(&lab); err != nil {
				t.Fatal(err)
			}
			if got := layMap(v, lab.IDs); got != tc.regions || lab.Count != tc.nRegions {
				t.Errorf("%d regions\n%s\nwant %d\n%s", lab.Count, got, tc.nRegions, tc.regions)
			}
			// Regions does the same in one call.
			var all region.Labels
			if err := v.Regions(nil, 5, &all); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(all.IDs, lab.IDs) || all.Count != lab.Count {
				t.Errorf("Regions %v (%d), DropIslands+JoinBorder %v (%d)", all.IDs, all.Count, lab.IDs, lab.Count)
			}
		})
	}
}

func TestComponentsErrors(t *testing.T) {
	good := func() *region.LayerView {
		views, _, err := region.SplitLayers(layPlan(t, 0, "##", "##"), 0)
		if err != nil {
			t.Fatal(err)
		}
		return &views[0]
	}
	var lab region.Labels
	cases := []struct {
		name string
		edit func(v *region.LayerView)
		call func(v *region.LayerView) error
	}{
		{"nil labels", nil, func(v *region.LayerView) error { return v.Components(nil, nil) }},
		{"short areas", nil, func(v *region.LayerView) error { return v.Components([]uint8{1}, &lab) }},
		{"link out of range", func(v *region.LayerView) { setLink(v, 3, 4) }, func(v *region.LayerView) error { return v.Components(nil, &lab) }},
		{"link below -1", func(v *region.LayerView) { setLink(v, 0, -2) }, func(v *region.LayerView) error { return v.Components(nil, &lab) }},
		{"short links", func(v *region.LayerView) { v.Links = region.NewLayerLinks(v.Links.AppendTo(nil)[:5]) }, func(v *region.LayerView) error { return v.Components(nil, &lab) }},
		{"column outside", func(v *region.LayerView) { v.X[1] = 2 }, func(v *region.LayerView) error { return v.Validate() }},
		{"bad border", func(v *region.LayerView) { v.BorderCells = 1 }, func(v *region.LayerView) error { return v.Components(nil, &lab) }},
		{"bad layer", func(v *region.LayerView) { v.Layer = 300 }, func(v *region.LayerView) error { return v.Components(nil, &lab) }},
		{"negative min", nil, func(v *region.LayerView) error { return v.Regions(nil, -1, &lab) }},
		{"unlabelled drop", nil, func(v *region.LayerView) error {
			var l region.Labels
			_, err := v.DropIslands(nil, &l, 1)
			return err
		}},
		{"label above count", nil, func(v *region.LayerView) error {
			l := region.Labels{IDs: []uint16{1, 2, 0, 0}, Count: 1, First: []int32{-1, 0}, Size: []int32{0, 1}}
			_, err := v.JoinBorder(&l)
			return err
		}},
		{"nil view", nil, func(*region.LayerView) error { return (*region.LayerView)(nil).Components(nil, &lab) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := good()
			if tc.edit != nil {
				tc.edit(v)
			}
			if err := tc.call(v); err == nil {
				t.Errorf("no error")
			} else {
				t.Log(err)
			}
		})
	}
}

// setLink sets link key (4k+d) of v to j in a copy of its links (v's old
// links are left alone, so a copy of a view can be broken on its own).
func setLink(v *region.LayerView, key int, j int32) {
	links := v.Links.AppendTo(nil)
	links[key] = j
	v.Links = region.NewLayerLinks(links)
}
