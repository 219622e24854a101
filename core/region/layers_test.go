package region_test

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"

	"navviz/core/internal/spantest"
	"navviz/core/pipeline"
	"navviz/core/region"
	"navviz/core/voxel"
	"navviz/internal/cputime"
)

// layHand is a span of a hand-made compact heightfield: floor row, area and
// the index, within each neighbour column, of the linked span (-1 none).
type layHand struct {
	Y    uint16
	Area uint8
	Con  [4]int
}

// layHandCHF builds a w x h compact heightfield from columns of hand-made
// spans (cols[x+z*w], bottom up), links as given, walkable height 3.
func layHandCHF(w, h int, cols [][]layHand) *voxel.CompactHeightfield {
	c := &voxel.CompactHeightfield{
		Grid:                voxel.Grid{Width: w, Height: h, CellSizeM: 1, CellHeightM: 1},
		WalkableHeightCells: 3,
		WalkableClimbCells:  2,
		Cells:               make([]voxel.CompactCell, w*h),
	}
	for ci := range w * h {
		c.Cells[ci] = voxel.CompactCell{Index: uint32(len(c.Spans)), Count: uint32(len(cols[ci]))}
		for _, s := range cols[ci] {
			con := uint32(0)
			for d := 3; d >= 0; d-- {
				l := uint32(voxel.NotConnected)
				if s.Con[d] >= 0 {
					l = uint32(s.Con[d])
				}
				con = con<<8 | l
			}
			c.Spans = append(c.Spans, voxel.CompactSpan{Y: s.Y, H: 20, Con: con})
			c.Areas = append(c.Areas, s.Area)
		}
	}
	return c
}

// layCheckResult checks a layer partition of c: one id and one layer per
// span, layers below LayerCount, no layer with two walkable spans of one
// column, every region 1..Count-1 used, a region's spans of one layer and
// one area, NoRegion on non-walkable spans, LayerBorder exactly on the
// ring's spans with a region. It returns the number of columns where a
// non-walkable span shares a layer with another span of its column.
func layCheckResult(t *testing.T, c *voxel.CompactHeightfield, border int, res *region.Result) (nullShared int) {
	t.Helper()
	n := len(c.Spans)
	if len(res.IDs) != n || len(res.Layers) != n {
		t.Fatalf("%d ids and %d layers for %d spans", len(res.IDs), len(res.Layers), n)
	}
	if res.LayerCount < 0 || res.LayerCount > region.MaxLayers || (n > 0) != (res.LayerCount > 0) {
		t.Fatalf("LayerCount %d for %d spans", res.LayerCount, n)
	}
	used := make([]bool, res.LayerCount)
	regLayer := make([]int, res.Count)
	regArea := make([]int, res.Count)
	for r := range regLayer {
		regLayer[r], regArea[r] = -1, -1
	}
	w := c.Width
	for ci, cell := range c.Cells {
		x, z := ci%w, ci/w
		ring := x < border || z < border || x >= w-border || z >= c.Height-border
		var seen [region.MaxLayers + 1]int8
		nullHere := false
		for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
			l := int(res.Layers[i])
			if l >= res.LayerCount {
				t.Fatalf("span %d in layer %d of %d", i, l, res.LayerCount)
			}
			used[l] = true
			walk := c.Areas[i] != voxel.AreaNull
			if walk {
				if seen[l]&1 != 0 {
					t.Errorf("column (%d, %d): layer %d holds two walkable spans", x, z, l)
				}
				seen[l] |= 1
			} else {
				if seen[l] != 0 {
					nullHere = true
				}
				seen[l] |= 2
				if seen[l]&1 != 0 {
					nullHere = true
				}
			}
			id := res.IDs[i]
			switch {
			case !walk && id != region.NoRegion:
				t.Fatalf("non-walkable span %d has region %#x", i, id)
			case id == region.NoRegion:
			case id == region.LayerBorder:
				if !ring {
					t.Fatalf("span %d at (%d, %d) outside the ring has the border id", i, x, z)
				}
			case id&region.BorderFlag != 0 || int(id) >= res.Count:
				t.Fatalf("span %d has region %#x, Count %d", i, id, res.Count)
			default:
				if ring {
					t.Fatalf("span %d at (%d, %d) in the ring has region %d", i, x, z, id)
				}
				if regLayer[id] < 0 {
					regLayer[id], regArea[id] = l, int(c.Areas[i])
				} else if regLayer[id] != l || regArea[id] != int(c.Areas[i]) {
					t.Fatalf("region %d spans layers %d and %d, areas %d and %d", id, regLayer[id], l, regArea[id], c.Areas[i])
				}
			}
		}
		if nullHere {
			nullShared++
		}
	}
	for l, u := range used {
		if !u {
			t.Errorf("layer %d of %d holds no span", l, res.LayerCount)
		}
	}
	for r := 1; r < res.Count; r++ {
		if regLayer[r] < 0 {
			t.Errorf("region %d of %d holds no span", r, res.Count-1)
		}
		if r > 1 && regLayer[r] < regLayer[r-1] {
			t.Errorf("region %d in layer %d after region %d in layer %d", r, regLayer[r], r-1, regLayer[r-1])
		}
	}
	return nullShared
}

// layReference is a plain re-implementation of the partition within the
// layers res.Layers (docs/layers.md §4-§7) by breadth-first search: the ids
// Layers must give.
func layReference(c *voxel.CompactHeightfield, border, minArea int, layers []uint8, layerCount int) []uint16 {
	n := len(c.Spans)
	w := c.Width
	colX, colZ := make([]int, n), make([]int, n)
	for ci, cell := range c.Cells {
		for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
			colX[i], colZ[i] = ci%w, ci/w
		}
	}
	link := func(i, d int) int {
		j := c.Neighbour(colX[i], colZ[i], i, d)
		if j >= 0 && layers[j] != layers[i] {
			return -1
		}
		return j
	}
	walk := func(i int) bool { return c.Areas[i] != voxel.AreaNull }
	adj := make([][]int, n)
	for i := range n {
		for _, d := range []int{0, 3} {
			if j := link(i, d); j >= 0 && walk(i) && c.Areas[j] == c.Areas[i] {
				adj[i] = append(adj[i], j)
				adj[j] = append(adj[j], i)
			}
		}
	}
	comp := make([]int, n)
	for i := range comp {
		comp[i] = -1
	}
	var members [][]int
	for l := range layerCount {
		for i := range n {
			if int(layers[i]) != l || !walk(i) || comp[i] >= 0 {
				continue
			}
			k := len(members)
			comp[i] = k
			queue := []int{i}
			for h := 0; h < len(queue); h++ {
				for _, j := range adj[queue[h]] {
					if comp[j] < 0 {
						comp[j] = k
						queue = append(queue, j)
					}
				}
			}
			members = append(members, queue)
		}
	}
	ids := make([]uint16, n)
	next := uint16(0)
	for _, m := range members {
		touch := false
		inner, ring := false, false
		for _, i := range m {
			for d := range 4 {
				if j := link(i, d); j >= 0 && walk(j) && c.Areas[j] != c.Areas[i] {
					touch = true
				}
			}
			x, z := colX[i], colZ[i]
			if x >= border && z >= border && x < w-border && z < c.Height-border {
				inner = true
			} else {
				ring = true
			}
		}
		if len(m) < minArea && !touch && !ring {
			continue
		}
		id := uint16(0)
		if inner {
			next++
			id = next
		}
		for _, i := range m {
			x, z := colX[i], colZ[i]
			if x < border || z < border || x >= w-border || z >= c.Height-border {
				ids[i] = region.LayerBorder
			} else {
				ids[i] = id
			}
		}
	}
	return ids
}

func TestLayersFlatSquare(t *testing.T) {
	for _, border := range []int{0, 2} {
		plan := make([]string, 10)
		for z := range plan {
			plan[z] = "##########"
		}
		c := layPlan(t, border, plan...)
		res, err := region.Layers(c, border, 8)
		if err != nil {
			t.Fatal(err)
		}
		layCheckResult(t, c, border, res)
		if res.LayerCount != 1 || res.Count != 2 || res.MaxDistance != 0 {
			t.Errorf("border %d: LayerCount %d Count %d MaxDistance %d, want 1 layer and 1 region", border, res.LayerCount, res.Count, res.MaxDistance)
		}
		for i, id := range res.IDs {
			if res.Layers[i] != 0 || (id != 1 && id != region.LayerBorder) {
				t.Fatalf("span %d: layer %d region %#x", i, res.Layers[i], id)
			}
		}
	}
}

// layBridge is a deck at row 30 over columns x 6..13 of a ground at row 10,
// reached by a ramp descending along +x to the ground at x >= 23 (no ground
// under the lowest ramp columns 21 and 22).
func layBridge(t testing.TB) *voxel.CompactHeightfield {
	return layCHF(t, 26, 6, 0, 3, 2, func(x, z int) []layFloor {
		var f []layFloor
		if x <= 20 || x >= 23 {
			f = append(f, layFloor{Y: 10, Area: voxel.AreaWalkable})
		}
		switch {
		case x >= 6 && x <= 13:
			f = append(f, layFloor{Y: 30, Area: voxel.AreaWalkable})
		case x >= 14 && x <= 22:
			f = append(f, layFloor{Y: uint16(30 - 2*(x-13)), Area: voxel.AreaWalkable})
		}
		return f
	})
}

// laySpiral is a ground at row 10 over x 0..9, z 0..13, a ramp along +z at
// x 10..13 rising 2 rows a column from row 10 (z = 0) to a landing at row
// 30 (z >= 10), and a deck at row 30 over the ground at z 10..13: one
// connected surface over itself.
func laySpiral(t testing.TB) *voxel.CompactHeightfield {
	return layCHF(t, 14, 14, 0, 3, 2, func(x, z int) []layFloor {
		if x >= 10 {
			return []layFloor{{Y: uint16(10 + 2*min(z, 10)), Area: voxel.AreaWalkable}}
		}
		f := []layFloor{{Y: 10, Area: voxel.AreaWalkable}}
		if z >= 10 {
			f = append(f, layFloor{Y: 30, Area: voxel.AreaWalkable})
		}
		return f
	})
}

// laySpanAt returns the index of the span of column (x, z) with floor row y.
func laySpanAt(t testing.TB, c *voxel.CompactHeightfield, x, z int, y uint16) int {
	t.Helper()
	cell := c.Cells[x+z*c.Width]
	for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
		if c.Spans[i].Y == y {
			return i
		}
	}
	t.Fatalf("no span at (%d, %d) row %d", x, z, y)
	return -1
}

func TestLayersTwoFloors(t *testing.T) {
	t.Run("bridge", func(t *testing.T) {
		c := layBridge(t)
		res, err := region.Layers(c, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		layCheckResult(t, c, 0, res)
		if res.LayerCount != 2 || res.Count != 3 {
			t.Fatalf("LayerCount %d Count %d, want 2 layers and 2 regions", res.LayerCount, res.Count)
		}
		ground := res.Layers[laySpanAt(t, c, 0, 0, 10)]
		deck := res.Layers[laySpanAt(t, c, 8, 3, 30)]
		if ground == deck {
			t.Fatalf("ground and deck on layer %d", ground)
		}
		for _, p := range [][3]int{{6, 0, 10}, {13, 5, 10}, {20, 2, 10}} {
			if l := res.Layers[laySpanAt(t, c, p[0], p[1], uint16(p[2]))]; l != ground {
				t.Errorf("ground under the deck at %v on layer %d, want %d", p, l, ground)
			}
		}
		for _, p := range [][3]int{{14, 0, 28}, {22, 5, 12}, {23, 1, 10}, {25, 5, 10}} {
			if l := res.Layers[laySpanAt(t, c, p[0], p[1], uint16(p[2]))]; l != deck {
				t.Errorf("ramp or far ground at %v on layer %d, want the deck's %d", p, l, deck)
			}
		}
	})
	t.Run("spiral", func(t *testing.T) {
		c := laySpiral(t)
		res, err := region.Layers(c, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		layCheckResult(t, c, 0, res)
		if res.LayerCount != 2 || res.Count != 3 {
			t.Fatalf("LayerCount %d Count %d, want 2 layers and 2 regions", res.LayerCount, res.Count)
		}
		// Layer 0 is grown from the first sweep region (rows 0 and 1 of
		// ground and ramp) over the rest of the ground; the ramp from row
		// 2 up and the deck overlap that ground and take layer 1.
		want := map[[3]int]uint8{
			{0, 0, 10}: 0, {12, 1, 12}: 0, {5, 12, 10}: 0, {9, 2, 10}: 0,
			{12, 2, 14}: 1, {11, 10, 30}: 1, {0, 13, 30}: 1,
		}
		for p, l := range want {
			i := laySpanAt(t, c, p[0], p[1], uint16(p[2]))
			if res.Layers[i] != l || int(res.IDs[i]) != int(l)+1 {
				t.Errorf("span at %v: layer %d region %d, want layer %d region %d", p, res.Layers[i], res.IDs[i], l, l+1)
			}
		}
		// The views drop the link from the ramp's row 1 to its row 2.
		views, spanLayer, err := region.SplitLayers(c, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(spanLayer, res.Layers) {
			t.Fatalf("SplitLayers layers differ from Layers")
		}
		if c.Spans[laySpanAt(t, c, 12, 1, 12)].Link(1) == voxel.NotConnected {
			t.Fatalf("test setup: ramp rows 1 and 2 not linked")
		}
		v := &views[0]
		k, _ := slices.BinarySearch(v.Index.AppendTo(nil), int32(laySpanAt(t, c, 12, 1, 12)))
		if v.Links.To(k, 1) != -1 {
			t.Errorf("layer 0 keeps the link to layer 1: %d", v.Links.To(k, 1))
		}
	})
}

// TestLayersNonWalkable checks that a non-walkable span takes the layer of
// its first walkable linked neighbour in the order -x, +z, +x, -z. The four
// neighbour columns of (1, 1) each hold a walkable span at row 10 (all on
// one layer) and one at row 30 (on the other); column (0, 1) also holds a
// non-walkable span (index 2). The span at (1, 1) is non-walkable with the
// links of each case.
func TestLayersNonWalkable(t *testing.T) {
	const lo, hi, null, none = 0, 1, 2, -1
	cases := []struct {
		name string
		con  [4]int // -x, +z, +x, -z: index in the neighbour column
		want int    // lo, hi or -1 for layer 0
	}{
		{"-x hi", [4]int{hi, lo, lo, lo}, hi},
		{"-x lo", [4]int{lo, hi, hi, hi}, lo},
		{"+z first", [4]int{none, hi, lo, lo}, hi},
		{"+x first", [4]int{none, none, hi, lo}, hi},
		{"-z only", [4]int{none, none, none, hi}, hi},
		{"-z only lo", [4]int{none, none, none, lo}, lo},
		{"non-walkable skipped", [4]int{null, hi, lo, lo}, hi},
		{"only non-walkable", [4]int{null, none, none, none}, none},
		{"none", [4]int{none, none, none, none}, none},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cols := make([][]layHand, 9)
			for _, ci := range []int{0 + 1*3, 1 + 2*3, 2 + 1*3, 1 + 0*3} {
				cols[ci] = []layHand{
					{Y: 10, Area: voxel.AreaWalkable, Con: [4]int{-1, -1, -1, -1}},
					{Y: 30, Area: voxel.AreaWalkable, Con: [4]int{-1, -1, -1, -1}},
				}
			}
			cols[0+1*3] = append(cols[0+1*3], layHand{Y: 50, Area: voxel.AreaNull, Con: [4]int{-1, -1, -1, -1}})
			cols[1+1*3] = []layHand{{Y: 20, Area: voxel.AreaNull, Con: tc.con}}
			c := layHandCHF(3, 3, cols)
			res, err := region.Layers(c, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			layCheckResult(t, c, 0, res)
			loL, hiL := res.Layers[c.Cells[1].Index], res.Layers[c.Cells[1].Index+1]
			if res.LayerCount != 2 || loL == hiL {
				t.Fatalf("LayerCount %d, low floor on %d, high floor on %d: want two layers", res.LayerCount, loL, hiL)
			}
			for _, ci := range []int{3, 5, 7} {
				if res.Layers[c.Cells[ci].Index] != loL || res.Layers[c.Cells[ci].Index+1] != hiL {
					t.Fatalf("column %d floors on layers %d, %d; want %d, %d", ci, res.Layers[c.Cells[ci].Index], res.Layers[c.Cells[ci].Index+1], loL, hiL)
				}
			}
			want := uint8(0)
			switch tc.want {
			case lo:
				want = loL
			case hi:
				want = hiL
			}
			if got := res.Layers[c.Cells[4].Index]; got != want {
				t.Errorf("non-walkable span on layer %d, want %d", got, want)
			}
		})
	}
}

// TestLayersRegionNumbering checks the numbering across layers: layer by
// layer, then by first span; each view's region ids plus the regions of
// the layers below.
func TestLayersRegionNumbering(t *testing.T) {
	// A ground split in two by a gap at x = 6, and two decks over it on the
	// upper layer: deck B (x 8..10, z 0..4) is met before deck A (x 1..3,
	// z 3..7) in span order although A lies further left.
	c := layCHF(t, 12, 8, 0, 3, 2, func(x, z int) []layFloor {
		var f []layFloor
		if x != 6 {
			f = append(f, layFloor{Y: 10, Area: voxel.AreaWalkable})
		}
		if (x >= 1 && x <= 3 && z >= 3) || (x >= 8 && x <= 10 && z <= 4) {
			f = append(f, layFloor{Y: 30, Area: voxel.AreaWalkable})
		}
		return f
	})
	res, err := region.Layers(c, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	layCheckResult(t, c, 0, res)
	if res.LayerCount != 2 || res.Count != 5 {
		t.Fatalf("LayerCount %d Count %d, want 2 layers and 4 regions", res.LayerCount, res.Count)
	}
	for _, p := range []struct {
		x, z int
		y    uint16
		id   uint16
	}{{0, 0, 10, 1}, {7, 0, 10, 2}, {8, 0, 30, 3}, {1, 3, 30, 4}} {
		if got := res.IDs[laySpanAt(t, c, p.x, p.z, p.y)]; got != p.id {
			t.Errorf("span (%d, %d) row %d: region %d, want %d", p.x, p.z, p.y, got, p.id)
		}
	}
	layCompareViews(t, c, 0, 0, res)
}

// layCompareViews checks Layers against SplitLayers and LayerView.Regions:
// same layers, and each view's ids offset by the regions of lower layers.
func layCompareViews(t *testing.T, c *voxel.CompactHeightfield, border, minArea int, res *region.Result) {
	t.Helper()
	views, spanLayer, err := region.SplitLayers(c, border)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(spanLayer, res.Layers) || len(views) != res.LayerCount {
		t.Fatalf("SplitLayers: %d views, layers equal %v; Layers: %d", len(views), slices.Equal(spanLayer, res.Layers), res.LayerCount)
	}
	var lab region.Labels
	off := 0
	for li := range views {
		v := &views[li]
		if err := v.Validate(); err != nil {
			t.Fatal(err)
		}
		if v.Layer != li {
			t.Fatalf("view %d has Layer %d", li, v.Layer)
		}
		if err := v.Regions(nil, minArea, &lab); err != nil {
			t.Fatal(err)
		}
		for k, id := range lab.IDs {
			i := v.Index.At(k)
			if k > 0 && i <= v.Index.At(k-1) {
				t.Fatalf("view %d not in heightfield order at %d", li, k)
			}
			if spanLayer[i] != uint8(li) || v.Y[k] != c.Spans[i].Y || v.Areas[k] != c.Areas[i] {
				t.Fatalf("view %d span %d does not match heightfield span %d", li, k, i)
			}
			want := res.IDs[i]
			if want != region.NoRegion && want != region.LayerBorder {
				want -= uint16(off)
			}
			if id != want {
				t.Fatalf("view %d span %d: region %d, Layers says %d (offset %d)", li, k, id, res.IDs[i], off)
			}
		}
		off += lab.Count
	}
	if off != res.Count-1 {
		t.Fatalf("views hold %d regions, Layers %d", off, res.Count-1)
	}
}

// layOneWayLinks counts the links of the layer views of c between walkable
// spans that have no link back (docs/layers.md §4: where every link is
// mutual, the −x and −z joins give four-link connectivity).
func layOneWayLinks(t *testing.T, c *voxel.CompactHeightfield, border int) int {
	t.Helper()
	views, _, err := region.SplitLayers(c, border)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, v := range views {
		for k := range v.Index.Len() {
			if v.Areas[k] == voxel.AreaNull {
				continue
			}
			for d := range 4 {
				if j := v.Links.To(k, d); j >= 0 && v.Areas[j] != voxel.AreaNull && v.Links.To(int(j), (d+2)%4) != int32(k) {
					n++
				}
			}
		}
	}
	return n
}

// layStacked reports whether some column of c holds two walkable spans.
func layStacked(c *voxel.CompactHeightfield) bool {
	for _, cell := range c.Cells {
		k := 0
		for i := cell.Index; i < cell.Index+cell.Count; i++ {
			if c.Areas[i] != voxel.AreaNull {
				k++
			}
		}
		if k >= 2 {
			return true
		}
	}
	return false
}

func TestLayersLevels(t *testing.T) {
	s := pipeline.DefaultSettings()
	border, minArea := s.BorderCells(), s.RegionMinAreaCells()
	for _, tc := range []struct {
		name      string
		minLayers int // the most layers of a tile must reach this
	}{
		{"city", 2},
		{"nav_test.obj", 2},
		// bridge.obj is a closed bridge solid with no ground under it: no
		// column holds two open spans (its underside is not walkable), so
		// each of its tiles has one layer.
		{"bridge.obj", 1},
		{"dungeon.obj", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.name != "bridge.obj" {
				t.Skip("short")
			}
			tiles := spantest.Tiles(t, tc.name)
			hist := make([]int, region.MaxLayers+1)
			maxLayers, regions, stacked, nullShared, oneWay := 0, 0, 0, 0, 0
			for ti, c := range tiles {
				res, err := region.Layers(c, border, minArea)
				if err != nil {
					t.Fatalf("tile %d: %v", ti, err)
				}
				nullShared += layCheckResult(t, c, border, res)
				if ref := layReference(c, border, minArea, res.Layers, res.LayerCount); !slices.Equal(ref, res.IDs) {
					t.Fatalf("tile %d: ids differ from the reference partition", ti)
				}
				again, err := region.Layers(c, border, minArea)
				if err != nil || !slices.Equal(again.IDs, res.IDs) || !slices.Equal(again.Layers, res.Layers) || again.Count != res.Count {
					t.Fatalf("tile %d: second run differs (%v)", ti, err)
				}
				layCompareViews(t, c, border, minArea, res)
				oneWay += layOneWayLinks(t, c, border)
				if layStacked(c) {
					stacked++
					if res.LayerCount < 2 {
						t.Errorf("tile %d has a column with two walkable spans but %d layer", ti, res.LayerCount)
					}
				}
				hist[res.LayerCount]++
				maxLayers = max(maxLayers, res.LayerCount)
				regions += res.Count - 1
			}
			var h []string
			for l, k := range hist {
				if k > 0 {
					h = append(h, fmt.Sprintf("%d layers: %d", l, k))
				}
			}
			t.Logf("%s: %d tiles, %v; %d tiles with stacked walkable spans; %d regions; %d columns where a non-walkable span shares a layer with another span; %d one-way links between walkable spans of a layer",
				tc.name, len(tiles), h, stacked, regions, nullShared, oneWay)
			if maxLayers < tc.minLayers {
				t.Errorf("at most %d layers in a tile, want >= %d", maxLayers, tc.minLayers)
			}
		})
	}
}

// TestLayersConcurrent checks that concurrent calls (the pipeline builds
// tiles on several goroutines) give the serial results.
func TestLayersConcurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	tiles := spantest.Tiles(t, "city")
	s := pipeline.DefaultSettings()
	border, minArea := s.BorderCells(), s.RegionMinAreaCells()
	want := make([]*region.Result, len(tiles))
	for i, c := range tiles {
		res, err := region.Layers(c, border, minArea)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = res
	}
	got := make([]*region.Result, len(tiles))
	errs := make([]error, len(tiles))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := g; i < len(tiles); i += 4 {
				got[i], errs[i] = region.Layers(tiles[i], border, minArea)
			}
		})
	}
	wg.Wait()
	for i := range tiles {
		if errs[i] != nil || !slices.Equal(got[i].IDs, want[i].IDs) || !slices.Equal(got[i].Layers, want[i].Layers) {
			t.Fatalf("tile %d: concurrent result differs (%v)", i, errs[i])
		}
	}
}

// layRandomCHF decodes bytes into a small compact heightfield with
// arbitrary (valid) links: width and height 1..8, 0..3 spans a column with
// rising floors, areas 0, 1, 2 or 63, and each link none or any span of the
// neighbour column. Links need not be geometric or mutual.
func layRandomCHF(data []byte) *voxel.CompactHeightfield {
	pos := 0
	next := func() int {
		if pos >= len(data) {
			return 0
		}
		pos++
		return int(data[pos-1])
	}
	w, h := 1+next()%8, 1+next()%8
	cols := make([][]layHand, w*h)
	for ci := range cols {
		y := uint16(next() % 16)
		for range next() % 4 {
			y += uint16(1 + next()%20)
			cols[ci] = append(cols[ci], layHand{Y: y, Area: [4]uint8{0, 1, 2, 63}[next()%4]})
		}
	}
	for ci := range cols {
		x, z := ci%w, ci/w
		for k := range cols[ci] {
			for d := range 4 {
				cols[ci][k].Con[d] = -1
				nx, nz := x+voxel.DirOffsetX[d], z+voxel.DirOffsetZ[d]
				if nx < 0 || nz < 0 || nx >= w || nz >= h {
					continue
				}
				if m := len(cols[nx+nz*w]); m > 0 {
					if l := next() % (m + 1); l < m {
						cols[ci][k].Con[d] = l
					}
				}
			}
		}
	}
	return layHandCHF(w, h, cols)
}

// FuzzLayers checks on arbitrary heightfields that Layers does not fail or
// panic, keeps its invariants and equals the reference partition.
func FuzzLayers(f *testing.F) {
	for seed := range 64 {
		b := make([]byte, 600)
		x := uint32(seed)*2654435761 + 1
		for i := range b {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			b[i] = byte(x >> 3)
		}
		f.Add(b, uint8(seed%3), uint8(seed%5))
	}
	f.Fuzz(func(t *testing.T, data []byte, border, minArea uint8) {
		c := layRandomCHF(data)
		b := int(border) % 3
		if 2*b >= c.Width || 2*b >= c.Height {
			b = 0
		}
		res, err := region.Layers(c, b, int(minArea))
		if err != nil {
			t.Fatal(err)
		}
		layCheckResult(t, c, b, res)
		if ref := layReference(c, b, int(minArea), res.Layers, res.LayerCount); !slices.Equal(ref, res.IDs) {
			t.Fatalf("ids %v, reference %v", res.IDs, ref)
		}
		layCompareViews(t, c, b, int(minArea), res)
	})
}

func TestLayersErrors(t *testing.T) {
	good := layPlan(t, 0, "####", "####", "####", "####")
	badLink := good.Clone()
	badLink.Spans[0].Con = 0xffffff00 // links -x out of the grid
	short := good.Clone()
	short.Areas = short.Areas[:3]
	cases := []struct {
		name           string
		c              *voxel.CompactHeightfield
		border, minAra int
	}{
		{"nil", nil, 0, 0},
		{"negative border", good, -1, 0},
		{"border too wide", good, 2, 0},
		{"negative min area", good, 0, -1},
		{"link out of grid", badLink, 0, 0},
		{"short areas", short, 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := region.Layers(tc.c, tc.border, tc.minAra); err == nil {
				t.Errorf("Layers: no error")
			}
			if tc.minAra >= 0 {
				if _, _, err := region.SplitLayers(tc.c, tc.border); err == nil {
					t.Errorf("SplitLayers: no error")
				}
			}
		})
	}
	// No span: no layer, no region.
	empty := layPlan(t, 0, "...", "...")
	res, err := region.Layers(empty, 0, 0)
	if err != nil || res.LayerCount != 0 || res.Count != 1 || len(res.IDs) != 0 {
		t.Errorf("empty: %+v, %v", res, err)
	}
	// Only non-walkable spans: one layer, no region.
	null := layPlan(t, 0, "oo", "o.")
	res, err = region.Layers(null, 0, 0)
	if err != nil || res.LayerCount != 1 || res.Count != 1 {
		t.Errorf("non-walkable: %+v, %v", res, err)
	}
}

// BenchmarkLayersCityTile runs Layers round-robin over the city's tiles
// (default settings); the time per op is one tile.
func BenchmarkLayersCityTile(b *testing.B) {
	tiles := spantest.Tiles(b, "city")
	s := pipeline.DefaultSettings()
	border, minArea := s.BorderCells(), s.RegionMinAreaCells()
	spans := 0
	for _, c := range tiles {
		spans += len(c.Spans)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := region.Layers(tiles[i%len(tiles)], border, minArea); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(spans)/float64(len(tiles)), "spans/tile")
}

// BenchmarkLayerRegionsCity runs LayerView.Regions (what a layer rebuild
// of the tile cache runs) round-robin over the layers of the city's tiles;
// the time per op is one layer.
func BenchmarkLayerRegionsCity(b *testing.B) {
	tiles := spantest.Tiles(b, "city")
	s := pipeline.DefaultSettings()
	border, minArea := s.BorderCells(), s.RegionMinAreaCells()
	var views []region.LayerView
	spans := 0
	for _, c := range tiles {
		vs, _, err := region.SplitLayers(c, border)
		if err != nil {
			b.Fatal(err)
		}
		views = append(views, vs...)
		spans += len(c.Spans)
	}
	var lab region.Labels
	b.ReportAllocs()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, _ := cputime.Thread()
	n := 0
	for i := 0; b.Loop(); i++ {
		v := &views[i%len(views)]
		if err := v.Regions(nil, minArea, &lab); err != nil {
			b.Fatal(err)
		}
		n++
	}
	t1, _ := cputime.Thread()
	b.ReportMetric(float64(t1-t0)/float64(n), "cpu-ns/op")
	b.ReportMetric(float64(spans)/float64(len(views)), "spans/layer")
}

// TestLayersSplitOn marks a disc of spans non-walkable (as an obstacle) at
// the centre of every multi-layer tile of city and checks LayersSplitOn on
// the marked areas with the unmarked ones as split: the layer of every span
// is the unmarked split's (SplitLayers), the ids are those of the plain
// re-implementation within those layers on the marked areas, and a nil
// split is Layers. The figure shows why it matters: on some tiles Layers on
// the marked areas splits differently.
func TestLayersSplitOn(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	s := pipeline.DefaultSettings()
	border, minArea := s.BorderCells(), s.RegionMinAreaCells()
	tiles := spantest.Tiles(t, "city")
	multi, resplit := 0, 0
	for ti, c := range tiles {
		_, layers, err := region.SplitLayers(c, border)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Max(append([]uint8{0}, layers...)) == 0 {
			continue
		}
		multi++
		// An 8 m disc (radius 4 m plus the agent's 0.6 m, 15 cells) at the
		// centre.
		marked := c.Clone()
		r := int((4 + s.AgentRadiusM) / s.CellSizeM)
		cx, cz := c.Width/2, c.Height/2
		for ci, cell := range c.Cells {
			x, z := ci%c.Width-cx, ci/c.Width-cz
			if x*x+z*z > r*r {
				continue
			}
			for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
				marked.Areas[i] = voxel.AreaNull
			}
		}
		res, err := region.LayersSplitOn(marked, c.Areas, border, minArea)
		if err != nil {
			t.Fatalf("tile %d: %v", ti, err)
		}
		if !slices.Equal(res.Layers, layers) {
			t.Fatalf("tile %d: layers differ from the split of the unmarked areas", ti)
		}
		if ref := layReference(marked, border, minArea, res.Layers, res.LayerCount); !slices.Equal(ref, res.IDs) {
			t.Fatalf("tile %d: ids differ from the reference partition", ti)
		}
		if direct, err := region.Layers(marked, border, minArea); err != nil {
			t.Fatal(err)
		} else if !slices.Equal(direct.Layers, layers) {
			resplit++
		}
		plain, err := region.Layers(c, border, minArea)
		if err != nil {
			t.Fatal(err)
		}
		same, err := region.LayersSplitOn(c, nil, border, minArea)
		if err != nil || !slices.Equal(same.IDs, plain.IDs) || !slices.Equal(same.Layers, plain.Layers) || same.Count != plain.Count {
			t.Fatalf("tile %d: LayersSplitOn with a nil split differs from Layers (%v)", ti, err)
		}
	}
	t.Logf("city: %d multi-layer tiles, %d split differently on the marked areas", multi, resplit)
	if multi == 0 {
		t.Fatal("no multi-layer tile")
	}
	if _, err := region.LayersSplitOn(tiles[0], make([]uint8, 3), border, minArea); err == nil {
		t.Error("split of 3 areas: no error")
	}
}

// TestTileIDs checks the numbering of LayerView.TileIDs and its errors.
func TestTileIDs(t *testing.T) {
	c := layPlan(t, 1, "#####", "#####", "#####", "#####")
	v := layView(t, c, 1)
	var lab region.Labels
	if err := v.Regions(nil, 0, &lab); err != nil {
		t.Fatal(err)
	}
	ids := make([]uint16, len(c.Spans))
	if err := v.TileIDs(&lab, 5, ids); err != nil {
		t.Fatal(err)
	}
	for k, id := range lab.IDs {
		want := id
		if id != region.NoRegion && id != region.LayerBorder {
			want = id + 5
		}
		if ids[v.Index.At(k)] != want {
			t.Fatalf("span %d: id %d, want %d", k, ids[v.Index.At(k)], want)
		}
	}
	for _, tc := range []struct {
		name string
		base int
		ids  []uint16
	}{
		{"too many regions", region.MaxRegions, make([]uint16, len(c.Spans))},
		{"negative base", -1, make([]uint16, len(c.Spans))},
		{"short ids", 0, make([]uint16, 3)},
	} {
		if err := v.TileIDs(&lab, tc.base, tc.ids); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// TestSplitterEqualsSplitLayers runs one Splitter over the tiles of some
// levels, forwards then backwards (so that views are reused across tiles of
// other sizes and layer counts), and over the fuzz seeds: every view and
// the span layers equal SplitLayers'.
func TestSplitterEqualsSplitLayers(t *testing.T) {
	var tiles []*voxel.CompactHeightfield
	names := []string{"bridge.obj", "dungeon.obj"}
	if !testing.Short() {
		names = append(names, "city", "nav_test.obj")
	}
	for _, name := range names {
		tiles = append(tiles, spantest.Tiles(t, name)...)
	}
	for seed := range 64 {
		b := make([]byte, 600)
		x := uint32(seed)*2654435761 + 1
		for i := range b {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			b[i] = byte(x >> 3)
		}
		tiles = append(tiles, layRandomCHF(b))
	}
	set := pipeline.DefaultSettings()
	border := set.BorderCells()
	var sp region.Splitter
	check := func(ti int) {
		c := tiles[ti]
		b := border
		if 2*b >= c.Width || 2*b >= c.Height {
			b = 0
		}
		want, wantLayer, err := region.SplitLayers(c, b)
		if err != nil {
			t.Fatal(err)
		}
		for _, withGraph := range []bool{false, true} {
			var got []region.LayerView
			var gotLayer []uint8
			var err error
			if withGraph {
				got, gotLayer, err = sp.SplitGraph(c, b, c.SpanGraph(nil))
			} else {
				got, gotLayer, err = sp.Split(c, b)
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(gotLayer, wantLayer) || len(got) != len(want) {
				t.Fatalf("tile %d (graph %v): %d views, span layers equal %v; SplitLayers: %d views", ti, withGraph, len(got), slices.Equal(gotLayer, wantLayer), len(want))
			}
			for li := range want {
				g, w := &got[li], &want[li]
				if g.Layer != w.Layer || g.Width != w.Width || g.Height != w.Height || g.BorderCells != w.BorderCells ||
					!slices.Equal(g.Index.AppendTo(nil), w.Index.AppendTo(nil)) || !slices.Equal(g.X, w.X) || !slices.Equal(g.Z, w.Z) ||
					!slices.Equal(g.Y, w.Y) || !slices.Equal(g.Areas, w.Areas) || !slices.Equal(g.Links.AppendTo(nil), w.Links.AppendTo(nil)) {
					t.Fatalf("tile %d view %d (graph %v) differs from SplitLayers'", ti, li, withGraph)
				}
			}
		}
	}
	for ti := range tiles {
		check(ti)
	}
	for ti := len(tiles) - 1; ti >= 0; ti-- {
		check(ti)
	}
	c := tiles[0]
	if _, _, err := sp.SplitGraph(c, border, c.SpanGraph(nil)[1:]); err == nil {
		t.Error("SplitGraph with a short graph: no error")
	}
	bad := c.SpanGraph(nil)
	bad[0] = int32(len(c.Spans))
	if _, _, err := sp.SplitGraph(c, border, bad); err == nil {
		t.Error("SplitGraph with a link past the spans: no error")
	}
}

// BenchmarkSplitCity runs Splitter.Split (the layer-first build's split)
// round-robin over the city's tiles; the time per op is one tile.
func BenchmarkSplitCity(b *testing.B) {
	tiles := spantest.Tiles(b, "city")
	set := pipeline.DefaultSettings()
	border := set.BorderCells()
	var sp region.Splitter
	b.ReportAllocs()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, _ := cputime.Thread()
	n := 0
	for i := 0; b.Loop(); i++ {
		if _, _, err := sp.Split(tiles[i%len(tiles)], border); err != nil {
			b.Fatal(err)
		}
		n++
	}
	t1, _ := cputime.Thread()
	b.ReportMetric(float64(t1-t0)/float64(n), "cpu-ns/op")
}

// TestOneLayerShortcut splits the tiles of the test levels, the fuzz seeds
// and hand-made flat heightfields with the one-layer shortcut and without
// it: the same layers.
func TestOneLayerShortcut(t *testing.T) {
	var tiles []*voxel.CompactHeightfield
	names := []string{"bridge.obj", "dungeon.obj"}
	if !testing.Short() {
		names = append(names, "city", "nav_test.obj")
	}
	for _, name := range names {
		tiles = append(tiles, spantest.Tiles(t, name)...)
	}
	for seed := range 256 {
		b := make([]byte, 600)
		x := uint32(seed)*2654435761 + 1
		for i := range b {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			b[i] = byte(x >> 3)
		}
		c := layRandomCHF(b)
		tiles = append(tiles, c)
		// One span a column at most, on floors 0..12 rows (walkable height
		// 3: merge range 12), some not walkable: the shortcut's case.
		flat := layRandomCHF(b)
		for ci, cell := range flat.Cells {
			for i := cell.Index; i < cell.Index+cell.Count; i++ {
				flat.Spans[i].Y = uint16((ci*7 + int(i)) % 13)
				if i > cell.Index {
					flat.Areas[i] = voxel.AreaNull
				}
			}
		}
		tiles = append(tiles, flat)
	}
	short := 0
	for ti, c := range tiles {
		region.SetOneLayerShortcut(false)
		want, wantLayer, err := region.SplitLayers(c, 0)
		region.SetOneLayerShortcut(true)
		if err != nil {
			t.Fatal(err)
		}
		got, gotLayer, err := region.SplitLayers(c, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) || !slices.Equal(gotLayer, wantLayer) {
			t.Fatalf("tile %d: %d layers with the shortcut, %d without (span layers equal %v)", ti, len(got), len(want), slices.Equal(gotLayer, wantLayer))
		}
		if len(want) == 1 {
			short++
		}
	}
	t.Logf("%d of %d heightfields have one layer", short, len(tiles))
}
