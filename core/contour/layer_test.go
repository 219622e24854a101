package contour_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"navviz/core/contour"
	"navviz/core/geom"
	"navviz/core/pipeline"
	"navviz/core/region"
	"navviz/core/voxel"
)

// layerRegions splits chf into layers and returns the views and each
// layer's region ids (LayerView.Regions with the default settings).
func layerRegions(t testing.TB, chf *voxel.CompactHeightfield) ([]region.LayerView, [][]uint16) {
	t.Helper()
	s := pipeline.DefaultSettings()
	views, _, err := region.SplitLayers(chf, chf.BorderCells)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([][]uint16, len(views))
	for li := range views {
		var lab region.Labels
		if err := views[li].Regions(nil, s.RegionMinAreaCells(), &lab); err != nil {
			t.Fatal(err)
		}
		ids[li] = lab.IDs
	}
	return views, ids
}

// TestBuildLayerCity builds the contours of every layer of every city tile.
// A tile with one layer gives exactly Build's set on the layer partition's
// ids (the view holds every span in heightfield order). On every layer the
// exported steps (LayerEdgeFlags, TraceLayerLoop from the last edges first,
// RotateLoop, SimplifyLoop, JoinLoops) give BuildLayer's loops and contours,
// and every vertex lies inside the tile's own cells.
func TestBuildLayerCity(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	tiles, _ := cityTiles(t)
	s := pipeline.DefaultSettings()
	maxErr, maxLen := s.EdgeMaxErrorCells, s.EdgeMaxLenCells()
	single, layers := 0, 0
	for ti, chf := range tiles {
		views, ids := layerRegions(t, chf)
		if len(views) == 1 {
			single++
			regs, err := region.Layers(chf, chf.BorderCells, s.RegionMinAreaCells())
			if err != nil {
				t.Fatal(err)
			}
			want, err := contour.Build(chf, regs, maxErr, maxLen, contour.DefaultBuildFlags)
			if err != nil {
				t.Fatal(err)
			}
			got, err := contour.BuildLayer(&chf.Grid, &views[0], nil, ids[0], maxErr, maxLen, contour.DefaultBuildFlags)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("tile %d, one layer: BuildLayer differs from Build", ti)
			}
		}
		for li := range views {
			layers++
			v := &views[li]
			set, err := contour.BuildLayer(&chf.Grid, v, nil, ids[li], maxErr, maxLen, contour.DefaultBuildFlags)
			if err != nil {
				t.Fatal(err)
			}
			b, w, h := int32(set.Border), int32(set.Width), int32(set.Height)
			for _, c := range set.Contours {
				for _, p := range c.Verts {
					if p.X < b || p.Z < b || p.X > w-b || p.Z > h-b {
						t.Fatalf("tile %d layer %d: vertex (%d, %d) in the border ring", ti, li, p.X, p.Z)
					}
				}
			}
			flags, err := contour.LayerEdgeFlags(v, ids[li], nil)
			if err != nil {
				t.Fatal(err)
			}
			var loops []contour.Loop
			for k := v.Len() - 1; k >= 0; k-- {
				for d := 3; d >= 0; d-- {
					if flags[k]&(1<<d) == 0 {
						continue
					}
					l, err := contour.TraceLayerLoop(v, nil, ids[li], flags, k, d)
					if err != nil {
						t.Fatal(err)
					}
					contour.RotateLoop(&l)
					if err := contour.SimplifyLoop(&l, maxErr, maxLen, contour.DefaultBuildFlags); err != nil {
						t.Fatal(err)
					}
					loops = append(loops, l)
				}
			}
			cs := contour.JoinLoops(loops)
			if !reflect.DeepEqual(loops, set.Loops) || !reflect.DeepEqual(cs, set.Contours) {
				t.Fatalf("tile %d layer %d: the steps differ from BuildLayer", ti, li)
			}
		}
	}
	t.Logf("city: %d tiles (%d with one layer), %d layers", len(tiles), single, layers)
	if single == 0 || layers == len(tiles) {
		t.Errorf("%d tiles with one layer, %d layers in %d tiles: want both kinds", single, layers, len(tiles))
	}
}

// spiral is laySpiral of core/region's tests: a ground at row 10 over x
// 0..9, z 0..13, a ramp along +z at x 10..13 rising 2 rows a column from
// row 10 (z = 0) to a landing at row 30 (z >= 10), and a deck at row 30 over
// the ground at z 10..13: one connected surface over itself, split into two
// layers (ground and the ramp's first two rows; the rest of the ramp and
// the deck).
func spiral(t testing.TB) *voxel.CompactHeightfield {
	const w, h = 14, 14
	spans := make([][]voxel.Span, w*h)
	for z := range h {
		for x := range w {
			var floors []uint16
			if x >= 10 {
				floors = []uint16{uint16(10 + 2*min(z, 10))}
			} else {
				floors = []uint16{10}
				if z >= 10 {
					floors = append(floors, 30)
				}
			}
			for _, y := range floors {
				spans[x+z*w] = append(spans[x+z*w], voxel.Span{MinRow: y - 1, MaxRow: y, Area: voxel.AreaWalkable})
			}
		}
	}
	g := voxel.Grid{Width: w, Height: h, MaxM: geom.V3(w, 100, h), CellSizeM: 1, CellHeightM: 1}
	hf, err := voxel.NewHeightfieldFromColumns(g, spans)
	if err != nil {
		t.Fatal(err)
	}
	c, err := voxel.BuildCompactHeightfield(hf, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestBuildLayerWall checks that a layer sees the other layer as a wall: on
// the spiral, the ramp's step from row 12 (layer 0) to row 14 (layer 1),
// between z = 1 and z = 2, is a region edge for Build on the layer
// partition and a wall for BuildLayer, whose corner heights there ignore
// the higher floor.
func TestBuildLayerWall(t *testing.T) {
	c := spiral(t)
	views, ids := layerRegions(t, c)
	if len(views) != 2 {
		t.Fatalf("%d layers, want 2", len(views))
	}
	regs, err := region.Layers(c, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := contour.Build(c, regs, 0, 0, contour.DefaultBuildFlags)
	if err != nil {
		t.Fatal(err)
	}
	lower, err := contour.BuildLayer(&c.Grid, &views[0], nil, ids[0], 0, 0, contour.DefaultBuildFlags)
	if err != nil {
		t.Fatal(err)
	}
	upper, err := contour.BuildLayer(&c.Grid, &views[1], nil, ids[1], 0, 0, contour.DefaultBuildFlags)
	if err != nil {
		t.Fatal(err)
	}
	// The seam: raw vertices at z = 2 on the ramp (x 10..14) of layer 0.
	seam := func(set *contour.Set, region uint16) (n int, flags []uint32, ys []int32) {
		for _, l := range set.Loops {
			if l.Region != region {
				continue
			}
			for _, v := range l.Raw {
				if v.Z == 2 && v.X >= 11 && v.X <= 13 {
					n++
					flags = append(flags, v.Flags&contour.RegionMask)
					ys = append(ys, v.Y)
				}
			}
		}
		return n, flags, ys
	}
	n, wf, wy := seam(whole, 1)
	m, lf, ly := seam(lower, 1)
	if n == 0 || n != m {
		t.Fatalf("seam vertices: %d in Build, %d in BuildLayer", n, m)
	}
	for i := range wf {
		if wf[i] != 2 || lf[i] != 0 {
			t.Errorf("seam vertex %d: neighbour region %d in Build (want 2), %d in BuildLayer (want 0, a wall)", i, wf[i], lf[i])
		}
		if wy[i] != 14 || ly[i] != 12 {
			t.Errorf("seam vertex %d: height %d in Build (want 14), %d in BuildLayer (want 12)", i, wy[i], ly[i])
		}
	}
	// Keys are view indices: below 4 * the layer's spans.
	for li, set := range []*contour.Set{lower, upper} {
		for _, l := range set.Loops {
			for _, k := range l.Keys {
				if k < 0 || int(k) >= 4*views[li].Len() {
					t.Fatalf("layer %d: key %d out of range", li, k)
				}
			}
		}
		if len(set.Contours) != 1 {
			t.Errorf("layer %d: %d contours, want 1", li, len(set.Contours))
		}
	}
}

func TestBuildLayerErrors(t *testing.T) {
	c := spiral(t)
	views, ids := layerRegions(t, c)
	v := &views[0]
	g := c.Grid
	badGrid := g
	badGrid.BorderCells = 1
	broken := *v
	links := v.Links.AppendTo(nil)
	links[5] = int32(v.Len())
	broken.Links = region.NewLayerLinks(links)
	for _, tc := range []struct {
		name  string
		g     *voxel.Grid
		v     *region.LayerView
		areas []uint8
		ids   []uint16
		err   float32
		want  string
	}{
		{"nil grid", nil, v, nil, ids[0], 1, "nil grid"},
		{"grid", &badGrid, v, nil, ids[0], 1, "border 1"},
		{"nil view", &g, nil, nil, ids[0], 1, "nil layer view"},
		{"ids", &g, v, nil, ids[0][:3], 1, "3 region ids"},
		{"areas", &g, v, []uint8{1, 1}, ids[0], 1, "2 areas"},
		{"links", &g, &broken, nil, ids[0], 1, "links in direction 1"},
		{"max error", &g, v, nil, ids[0], -1, "max error -1"},
	} {
		set, err := contour.BuildLayer(tc.g, tc.v, tc.areas, tc.ids, tc.err, 0, contour.DefaultBuildFlags)
		if err == nil || set != nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
	}
	flags, err := contour.LayerEdgeFlags(v, ids[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := contour.LayerEdgeFlags(v, ids[0][:1], nil); err == nil {
		t.Error("LayerEdgeFlags with short ids")
	}
	for _, tc := range []struct {
		name      string
		flags     []uint8
		span, dir int
		want      string
	}{
		{"span", flags, v.Len(), 0, "out of range"},
		{"direction", flags, 0, 4, "direction 4"},
		{"flags", flags[:2], 0, 0, "2 flags"},
		{"not flagged", make([]uint8, len(flags)), 0, 0, "not a flagged boundary edge"},
	} {
		if _, err := contour.TraceLayerLoop(v, nil, ids[0], slices.Clone(tc.flags), tc.span, tc.dir); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("TraceLayerLoop %s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// FuzzBuildLayer builds the contours of arbitrary small layer views (any
// links within the view, any columns, areas and ids): BuildLayer and the
// steps may fail but never panic, and a set is well formed.
func FuzzBuildLayer(f *testing.F) {
	f.Add([]byte{4, 3, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14})
	f.Add([]byte("\x06\x05\x20layerlayerlayerlayerlayerlayerlayerlayer"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		w, h, n := int(data[0]%6)+1, int(data[1]%6)+1, int(data[2]%24)
		data = data[3:]
		next := func() byte {
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return b
		}
		v := &region.LayerView{Width: w, Height: h, Layer: int(next() % 3)}
		ids := make([]uint16, n)
		var links, index []int32
		for k := range n {
			index = append(index, int32(k))
			v.X = append(v.X, uint16(int(next())%w))
			v.Z = append(v.Z, uint16(int(next())%h))
			v.Y = append(v.Y, uint16(next()))
			v.Areas = append(v.Areas, next()%3)
			for range 4 {
				l := int32(next())%int32(n+1) - 1
				links = append(links, l)
			}
			switch id := next() % 4; id {
			case 3:
				ids[k] = region.LayerBorder
			default:
				ids[k] = uint16(id)
			}
		}
		v.Index, v.Links = region.NewSpanIndex(index), region.NewLayerLinks(links)
		g := voxel.Grid{Width: w, Height: h, CellSizeM: 1, CellHeightM: 1}
		mode := next()
		set, err := contour.BuildLayer(&g, v, nil, ids, float32(mode%3), int(mode%5), contour.BuildFlags(mode%4))
		if err == nil {
			for _, l := range set.Loops {
				if len(l.Raw) != len(l.Keys) {
					t.Fatalf("loop with %d raw vertices and %d keys", len(l.Raw), len(l.Keys))
				}
			}
		}
		flags, err := contour.LayerEdgeFlags(v, ids, nil)
		if err != nil {
			return
		}
		for k := range flags {
			flags[k] |= next() & 0xf
		}
		for k := range flags {
			for d := range 4 {
				if flags[k]&(1<<d) != 0 {
					if l, err := contour.TraceLayerLoop(v, nil, ids, flags, k, d); err == nil {
						contour.RotateLoop(&l)
						_ = contour.SimplifyLoop(&l, 1, 3, contour.DefaultBuildFlags)
					}
				}
			}
		}
	})
}
