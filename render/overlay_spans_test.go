package render

import (
	"context"
	"image/color"
	"math"
	"reflect"
	"strings"
	"testing"

	"navviz/assets"
	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/pipeline"
	"navviz/core/voxel"
)

// spanGrid is a w x h grid of 1 m cells and 0.5 m rows at the origin.
func spanGrid(w, h, border int) voxel.Grid {
	return voxel.Grid{
		Width: w, Height: h, BorderCells: border,
		MaxM:      geom.V3(float32(w), 100, float32(h)),
		CellSizeM: 1, CellHeightM: 0.5,
	}
}

// hfOf builds a heightfield whose column (x, z) holds cols[z][x] (pairs of
// min and max rows; area 63).
func hfOf(t *testing.T, border int, cols [][][][2]uint16) *voxel.Heightfield {
	t.Helper()
	h, w := len(cols), len(cols[0])
	g := spanGrid(w, h, border)
	flat := make([][]voxel.Span, w*h)
	for z := range cols {
		for x, spans := range cols[z] {
			for _, s := range spans {
				flat[x+z*w] = append(flat[x+z*w], voxel.Span{MinRow: s[0], MaxRow: s[1], Area: voxel.AreaWalkable})
			}
		}
	}
	hf, err := voxel.NewHeightfieldFromColumns(g, flat)
	if err != nil {
		t.Fatal(err)
	}
	return hf
}

func sp(pairs ...uint16) [][2]uint16 {
	var out [][2]uint16
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, [2]uint16{pairs[i], pairs[i+1]})
	}
	return out
}

func TestBoxFaceCounts(t *testing.T) {
	for _, tc := range []struct {
		name   string
		border int
		cols   [][][][2]uint16
		quads  int
	}{
		// Top, bottom and four sides.
		{"floating", 0, [][][][2]uint16{{sp(2, 5)}}, 6},
		// No bottom face at row 0.
		{"grounded", 0, [][][][2]uint16{{sp(0, 5)}}, 5},
		// Two columns side by side: the shared faces are hidden, the
		// tops and the +z and -z sides merge.
		{"pair", 0, [][][][2]uint16{{sp(0, 5), sp(0, 5)}}, 1 + 4},
		// A tall and a short column: the tall one shows its upper part
		// towards the short one; the short one hides its side.
		{"step", 0, [][][][2]uint16{{sp(0, 10), sp(0, 4)}}, (1 + 3 + 1) + (1 + 3)},
		// A neighbour with a gap: the tall column shows two pieces; the
		// upper short span has a bottom face.
		{"gap", 0, [][][][2]uint16{{sp(0, 10), sp(0, 2, 5, 7)}}, (1 + 3 + 2) + (1 + 3) + (1 + 1 + 3)},
		// Two spans in one column (a bridge over a street).
		{"stacked", 0, [][][][2]uint16{{sp(0, 1, 20, 22)}}, (1 + 4) + (1 + 1 + 4)},
		// Border ring: only the centre column is drawn, and its
		// neighbours cover all of its sides.
		{"border", 1, [][][][2]uint16{
			{sp(0, 1), sp(0, 1), sp(0, 1)},
			{sp(0, 1), sp(0, 1), sp(0, 1)},
			{sp(0, 1), sp(0, 1), sp(0, 1)},
		}, 1},
		// Empty columns draw nothing.
		{"empty", 0, [][][][2]uint16{{nil, nil}}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := hfOf(t, tc.border, tc.cols)
			f := gridFrame(&h.Grid)
			tris := appendBoxes(nil, h, &f, solidColour, nil)
			if len(tris) != 6*tc.quads {
				t.Errorf("%d vertices (%d quads), want %d quads", len(tris), len(tris)/6, tc.quads)
			}
			// Every vertex lies on a cell line and a row.
			for _, v := range tris {
				if v.Pos.X != float32(int(v.Pos.X)) || v.Pos.Z != float32(int(v.Pos.Z)) || v.Pos.Y*2 != float32(int(v.Pos.Y*2)) {
					t.Fatalf("vertex %v off the grid", v.Pos)
				}
			}
		})
	}
}

func TestBoxSideGeometry(t *testing.T) {
	// The "step" case: the tall column's +x face shows rows 4..10 only.
	h := hfOf(t, 0, [][][][2]uint16{{sp(0, 10), sp(0, 4)}})
	f := gridFrame(&h.Grid)
	tris := appendBoxes(nil, h, &f, solidColour, nil)
	found := false
	for i := 0; i < len(tris); i += 6 {
		q := tris[i : i+6]
		allX1 := true
		minY, maxY := float32(1e9), float32(-1e9)
		for _, v := range q {
			allX1 = allX1 && v.Pos.X == 1
			minY, maxY = min(minY, v.Pos.Y), max(maxY, v.Pos.Y)
		}
		if allX1 && minY != maxY {
			found = true
			if minY != 2 || maxY != 5 {
				t.Errorf("side face at x = 1 spans y %v..%v, want 2..5", minY, maxY)
			}
		}
	}
	if !found {
		t.Error("no side face at x = 1")
	}
}

func TestForUncovered(t *testing.T) {
	var got [][2]int
	emit := func(lo, hi int) { got = append(got, [2]int{lo, hi}) }
	s := func(a, b uint16) voxel.Span { return voxel.Span{MinRow: a, MaxRow: b} }
	for _, tc := range []struct {
		lo, hi int
		nb     []voxel.Span
		want   [][2]int
	}{
		{0, 10, nil, [][2]int{{0, 10}}},
		{0, 10, []voxel.Span{s(0, 10)}, nil},
		{2, 8, []voxel.Span{s(0, 3), s(5, 6), s(7, 20)}, [][2]int{{3, 5}, {6, 7}}},
		{5, 8, []voxel.Span{s(0, 2), s(9, 12)}, [][2]int{{5, 8}}},
		{5, 8, []voxel.Span{s(0, 6)}, [][2]int{{6, 8}}},
		{5, 8, []voxel.Span{s(7, 9)}, [][2]int{{5, 7}}},
	} {
		got = nil
		forUncovered(tc.lo, tc.hi, tc.nb, emit)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("forUncovered(%d, %d, %v) = %v, want %v", tc.lo, tc.hi, tc.nb, got, tc.want)
		}
	}
}

func TestFloorQuads(t *testing.T) {
	// Column (0, 0): a bridge deck over a floor; column (1, 0): a floor.
	h := hfOf(t, 0, [][][][2]uint16{{sp(0, 1, 20, 22), sp(0, 1)}})
	c, err := voxel.BuildCompactHeightfield(h, 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	type floor struct {
		y      float32 // floor row + 0.1 row, 0.5 m rows
		x0, x1 float32
		col    color.RGBA
	}
	for _, tc := range []struct {
		name  string
		areas []uint8 // of spans 0 (low floor), 1 (deck), 2 (floor of column 1)
		want  []floor
	}{
		{"three colours", []uint8{voxel.AreaNull, 5, voxel.AreaWalkable}, []floor{
			{0.55, 0, 1, assets.AreaNullColour}, {11.05, 0, 1, assets.AreaColour(5)}, {0.55, 1, 2, assets.AreaWalkableColour},
		}},
		// Floors of one height and colour merge.
		{"merged", []uint8{voxel.AreaWalkable, 5, voxel.AreaWalkable}, []floor{
			{0.55, 0, 2, assets.AreaWalkableColour}, {11.05, 0, 1, assets.AreaColour(5)},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			copy(c.Areas, tc.areas)
			f := gridFrame(&c.Grid)
			tris := appendFloors(nil, c, &f, func(i int) (color.RGBA, bool) { return assets.AreaColour(c.Areas[i]), true }, nil)
			if len(tris) != 6*len(tc.want) {
				t.Fatalf("%d vertices, want %d quads", len(tris), len(tc.want))
			}
			var got []floor
			for q := 0; q < len(tris); q += 6 {
				fl := floor{y: tris[q].Pos.Y, x0: 1e9, x1: -1e9, col: tris[q].Col}
				for _, v := range tris[q : q+6] {
					fl.x0, fl.x1 = min(fl.x0, v.Pos.X), max(fl.x1, v.Pos.X)
					if v.Pos.Y != fl.y || v.Col != fl.col || (v.Pos.Z != 0 && v.Pos.Z != 1) {
						t.Fatalf("quad %d not flat, one colour, on row z 0..1: %v", q/6, tris[q:q+6])
					}
				}
				got = append(got, fl)
			}
			for _, w := range tc.want {
				found := false
				for _, g := range got {
					found = found || (math.Abs(float64(g.y-w.y)) < 1e-5 && g.x0 == w.x0 && g.x1 == w.x1 && g.col == w.col)
				}
				if !found {
					t.Errorf("no floor %+v in %+v", w, got)
				}
			}
		})
	}
}

func TestVolumesOverlay(t *testing.T) {
	vols := []voxel.ConvexVolume{
		{VertsXZ: [][2]float32{{0, 0}, {4, 0}, {4, 4}, {0, 4}}, MinYM: -1e6, MaxYM: 2, Area: 7},
		{VertsXZ: [][2]float32{{0, 0}, {1, 0}}, MaxYM: 1}, // skipped: 2 corners
	}
	o := VolumesOverlay(vols, geom.Box3{Min: geom.V3(0, 0, 0), Max: geom.V3(10, 5, 10)})
	// A quad prism: 2 caps of 2 triangles, 4 sides of 2 triangles; 12 edges.
	if len(o.Tris) != 3*(4+8) || len(o.Lines) != 2*12 {
		t.Fatalf("%d tris, %d lines", len(o.Tris)/3, len(o.Lines)/2)
	}
	for _, v := range o.Tris {
		if v.Col.A != volumeFillAlpha || v.Pos.Y < -1 || v.Pos.Y > 2 {
			t.Fatalf("fill vertex %+v", v)
		}
	}
	for _, v := range o.Lines {
		if v.Col != assets.AreaColour(7) {
			t.Fatalf("line colour %v", v.Col)
		}
	}
}

// upBoxesSoup is boxesSoup with every triangle's winding reversed, so that
// floors and box tops face up (walkable).
func upBoxesSoup() *level.Soup {
	s := boxesSoup()
	for i, t := range s.Tris {
		s.Tris[i] = [3]int32{t[0], t[2], t[1]}
	}
	return s
}

// buildBoxes builds upBoxesSoup with the default settings, keeping the
// stages.
func buildBoxes(t testing.TB, workers int) *pipeline.Build {
	t.Helper()
	src, err := pipeline.NewSoupSource(upBoxesSoup(), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := pipeline.DefaultSettings()
	s.TileSizeCells = 32
	s.Volumes = []voxel.ConvexVolume{{VertsXZ: [][2]float32{{-15, -15}, {-5, -15}, {-5, -5}}, MinYM: -1, MaxYM: 1, Area: 9}}
	b, err := pipeline.BuildLevel(context.Background(), &s, src, pipeline.BuildOptions{Workers: workers, KeepStages: true})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSpanOverlaysFromBuild(t *testing.T) {
	b1, b2 := buildBoxes(t, 1), buildBoxes(t, 3)
	for _, name := range SpanOverlayNames {
		o1, err := SpanOverlay(name, b1, nil)
		if err != nil {
			t.Fatal(err)
		}
		o2, _ := SpanOverlay(name, b2, nil)
		if o1.Name != name || !o1.Visible {
			t.Errorf("%s: header %q %v", name, o1.Name, o1.Visible)
		}
		if len(o1.Tris) == 0 {
			t.Errorf("%s: no triangles", name)
		}
		if !reflect.DeepEqual(o1, o2) {
			t.Errorf("%s: differs between builds on 1 and 3 workers", name)
		}
		// A filter restricting to one tile draws less, inside that tile.
		tb := b1.Tiles[0]
		one, _ := SpanOverlay(name, b1, func(tx, tz int) bool { return tx == tb.TX && tz == tb.TZ })
		if name == OverlayVolumes {
			continue // volumes are not per tile
		}
		if len(one.Tris) == 0 || len(one.Tris) >= len(o1.Tris) {
			t.Errorf("%s: one tile gives %d vertices, all %d", name, len(one.Tris), len(o1.Tris))
		}
		box, _ := b1.Grid.TileBoxM(tb.TX, tb.TZ)
		for _, v := range one.Tris {
			if v.Pos.X < box.Min.X || v.Pos.X > box.Max.X || v.Pos.Z < box.Min.Z || v.Pos.Z > box.Max.Z {
				t.Fatalf("%s: vertex %v outside tile box %v", name, v.Pos, box)
			}
		}
	}
	// The compact overlay shows the volume's area and the default area;
	// the eroded overlay shows erosion.
	colours := func(o *Overlay) map[color.RGBA]int {
		m := map[color.RGBA]int{}
		for _, v := range o.Tris {
			m[v.Col]++
		}
		return m
	}
	cc := colours(CompactOverlay(b1, nil))
	if cc[assets.AreaColour(9)] == 0 || cc[assets.AreaWalkableColour] == 0 {
		t.Errorf("compact colours %v", cc)
	}
	if ec := colours(ErodedOverlay(b1, nil)); ec[erodedColour] == 0 {
		t.Errorf("eroded colours %v", ec)
	}
	wc := colours(WalkableOverlay(b1, nil))
	if wc[walkableTop] == 0 {
		t.Errorf("walkable colours %v", wc)
	}
	// Without kept stages the stage overlays are empty, compact is not.
	src, _ := pipeline.NewSoupSource(upBoxesSoup(), nil)
	s := pipeline.DefaultSettings()
	plain, err := pipeline.BuildLevel(context.Background(), &s, src, pipeline.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(SolidOverlay(plain, nil).Tris) != 0 || len(ErodedOverlay(plain, nil).Tris) != 0 || len(CompactOverlay(plain, nil).Tris) == 0 {
		t.Error("overlays of a build without stages")
	}
	// Nil build and unknown names.
	for _, name := range SpanOverlayNames {
		if o, err := SpanOverlay(name, nil, nil); err != nil || len(o.Tris) != 0 {
			t.Errorf("%s of nil build: %v", name, err)
		}
	}
	if _, err := SpanOverlay("regions", b1, nil); err == nil || !strings.Contains(err.Error(), "compact") {
		t.Errorf("unknown name: %v", err)
	}
}

func TestSpanOverlayRasterizes(t *testing.T) {
	b := buildBoxes(t, 0)
	sc := LevelScene(upBoxesSoup())
	sc.Add(CompactOverlay(b, nil))
	cam := DefaultCamera()
	cam.TopDown = true
	cam.Frame(sc.Bounds())
	img := Rasterize(sc, cam, 200, 200, color.RGBA{0, 0, 0, 255})
	blue := 0
	for i := 0; i < len(img.Pix); i += 4 {
		c := color.RGBA{img.Pix[i], img.Pix[i+1], img.Pix[i+2], 255}
		if c == assets.AreaWalkableColour {
			blue++
		}
	}
	if blue < 200*200/4 {
		t.Errorf("%d walkable-blue pixels", blue)
	}
}

func TestSelectionOverlay(t *testing.T) {
	o := SelectionOverlay([]geom.Box3{{Min: geom.V3(0, 0, 0), Max: geom.V3(1, 1, 1)}, geom.EmptyBox()})
	if len(o.Lines) != 24 || o.Name != OverlaySelection {
		t.Errorf("%d line vertices", len(o.Lines))
	}
}
