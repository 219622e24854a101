package pipeline

import (
	"bytes"
	"context"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"navviz/core/geom"
	"navviz/core/level/leveltest"
	"navviz/core/navmesh"
	"navviz/core/region"
	"navviz/core/voxel"
)

// layerSettings are the default settings on the layer-first path.
func layerSettings() NavSettings {
	s := DefaultSettings()
	s.Partition, s.DetailSampleDistCells = Layers, 0
	return s
}

func TestLayerFirstSettings(t *testing.T) {
	s := DefaultSettings()
	for _, tc := range []struct {
		p    PartitionType
		dsd  float32
		want bool
	}{
		{Layers, 0, true}, {Layers, 0.9, true}, {Layers, 0.91, false}, {Layers, 6, false},
		{Watershed, 0, false}, {Monotone, 0, false},
	} {
		s.Partition, s.DetailSampleDistCells = tc.p, tc.dsd
		if got := s.LayerFirst(); got != tc.want {
			t.Errorf("%v with detail sample distance %v cells: LayerFirst %v, want %v", tc.p, tc.dsd, got, tc.want)
		}
	}
}

// TestBuildLevelMesh checks a whole build's step 5 on the test level and
// on city: the counts are the sums of the tiles' and of their meshes; the
// Mesh holds every LayerBuild's data in order, each decodes to its tile
// position and layer with the vertical origin at its lowest vertex; each
// tile equals BuildTileMesh's result; SpansOnly stops after step 3.
func TestBuildLevelMesh(t *testing.T) {
	for _, name := range []string{"test", "city"} {
		for _, s := range []NavSettings{DefaultSettings(), layerSettings()} {
			t.Run(name+"/"+s.Partition.String(), func(t *testing.T) {
				src := chunkySource(t, testLevel())
				if name == "city" {
					src = chunkySource(t, leveltest.Soup(t, "city"))
				}
				b, err := BuildLevel(context.Background(), &s, src, BuildOptions{Workers: 2})
				if err != nil {
					t.Fatal(err)
				}
				var sum MeshCounts
				var datas [][]byte
				var scratch Scratch
				layered := false
				for i := range b.Tiles {
					tb := &b.Tiles[i]
					sum.add(&tb.Counts)
					if tb.Regions == nil || len(tb.Regions.IDs) != len(tb.Spans.Spans) || tb.LayerFirst != s.LayerFirst() {
						t.Fatalf("tile (%d, %d): regions %v, layer first %v", tb.TX, tb.TZ, tb.Regions != nil, tb.LayerFirst)
					}
					var c MeshCounts
					for li := range tb.Layers {
						lb := &tb.Layers[li]
						c.addLayer(lb)
						datas = append(datas, lb.Data)
						if li > 0 && lb.Layer <= tb.Layers[li-1].Layer {
							t.Errorf("tile (%d, %d): layers out of order", tb.TX, tb.TZ)
						}
						layered = layered || lb.Layer > 0
						tile, err := navmesh.DecodeTile(lb.Data)
						if err != nil {
							t.Fatal(err)
						}
						h := tile.Header
						if h.TileX != int32(tb.TX) || h.TileZ != int32(tb.TZ) || int(h.Layer) != lb.Layer || navmesh.ContentID(lb.Data) != lb.ContentID {
							t.Errorf("tile (%d, %d) layer %d: header (%d, %d) layer %d", tb.TX, tb.TZ, lb.Layer, h.TileX, h.TileZ, h.Layer)
						}
						lowest := float32(math.Inf(1))
						for _, v := range tile.Verts {
							lowest = min(lowest, v.Y)
						}
						if h.OriginY != lowest {
							t.Errorf("tile (%d, %d) layer %d: vertical origin %v, lowest vertex %v", tb.TX, tb.TZ, lb.Layer, h.OriginY, lowest)
						}
						if lb.AreaM2() != PolyAreaM2(lb.Mesh) || lb.AreaM2() <= 0 {
							t.Errorf("tile (%d, %d) layer %d: area %v", tb.TX, tb.TZ, lb.Layer, lb.AreaM2())
						}
					}
					if c.Polys != tb.Counts.Polys || c.NavTiles != len(tb.Layers) || c.DetailTris != tb.Counts.DetailTris {
						t.Errorf("tile (%d, %d): counts %+v, from its layers %+v", tb.TX, tb.TZ, tb.Counts, c)
					}
					at, err := b.Grid.Place(tb.TX, tb.TZ)
					if err != nil {
						t.Fatal(err)
					}
					tm, err := BuildTileMesh(&s, at, tb.Spans, tb.ErodedAreas, nil, &scratch)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(tm.Regions, tb.Regions) || !slices.EqualFunc(tm.Layers, tb.Layers, sameLayer) || tm.Counts != tb.Counts {
						t.Errorf("tile (%d, %d): BuildTileMesh differs from the build's tile", tb.TX, tb.TZ)
					}
				}
				if sum != b.MeshCounts {
					t.Errorf("counts %+v, sum of tiles %+v", b.MeshCounts, sum)
				}
				if b.Mesh.TileCount() != b.NavTiles || b.NavTiles != len(datas) || b.NavTiles == 0 {
					t.Fatalf("mesh of %d tiles, %d counted, %d made", b.Mesh.TileCount(), b.NavTiles, len(datas))
				}
				refs := b.Mesh.Tiles()
				for i, ref := range refs {
					d, err := b.Mesh.TileData(ref)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(d, datas[i]) {
						t.Fatalf("mesh tile %d is not the %d-th layer built", i, i)
					}
				}
				if s.LayerFirst() && name == "city" && !layered {
					t.Error("no tile with a layer above 0")
				}
				for st := StageRegions; st < NumStages; st++ {
					if b.StageTotals[st] <= 0 {
						t.Errorf("stage %v not timed", st)
					}
				}

				// SpansOnly: the same spans, no step 5.
				o, err := BuildLevel(context.Background(), &s, src, BuildOptions{SpansOnly: true})
				if err != nil {
					t.Fatal(err)
				}
				if o.Mesh != nil || o.MeshCounts != (MeshCounts{}) || len(o.Tiles) != len(b.Tiles) {
					t.Fatalf("SpansOnly: mesh %v, counts %+v, %d tiles", o.Mesh != nil, o.MeshCounts, len(o.Tiles))
				}
				for i := range o.Tiles {
					if o.Tiles[i].Layers != nil || o.Tiles[i].Regions != nil || o.Tiles[i].Spans.Hash() != b.Tiles[i].Spans.Hash() {
						t.Fatalf("SpansOnly tile %d differs", i)
					}
				}
			})
		}
	}
}

// firstLayeredTile returns the first city tile (of a layer-first build)
// with at least two navmesh tiles.
func firstLayeredTile(t testing.TB) (*Build, *TileBuild) {
	t.Helper()
	s := layerSettings()
	b := build(t, chunkySource(t, leveltest.Soup(t, "city")), &s, false, 0)
	for i := range b.Tiles {
		if len(b.Tiles[i].Layers) >= 2 {
			return b, &b.Tiles[i]
		}
	}
	t.Fatal("city has no tile with two navmesh tiles")
	return nil, nil
}

// TestBuildLayerMesh rebuilds every layer of a city tile with
// BuildLayerMesh on the views of region.SplitLayers: the same LayerBuild as
// the tile's, but for the region base.
func TestBuildLayerMesh(t *testing.T) {
	b, tb := firstLayeredTile(t)
	s := &b.Settings
	at, err := b.Grid.Place(tb.TX, tb.TZ)
	if err != nil {
		t.Fatal(err)
	}
	views, _, err := region.SplitLayers(tb.Spans, tb.Spans.BorderCells)
	if err != nil {
		t.Fatal(err)
	}
	var lab region.Labels
	k := 0
	base := 0
	for li := range views {
		lb, err := BuildLayerMesh(s, at, &tb.Spans.Grid, &views[li], nil, &lab)
		if err != nil {
			t.Fatal(err)
		}
		if lb.Regions != lab.Count || lb.RegionBase != 0 {
			t.Errorf("layer %d: %d regions, labels %d, base %d", li, lb.Regions, lab.Count, lb.RegionBase)
		}
		if lb.Data == nil {
			base += lab.Count
			continue
		}
		want := tb.Layers[k]
		k++
		if want.RegionBase != base {
			t.Errorf("layer %d: region base %d, want %d", li, want.RegionBase, base)
		}
		// BuildLayerMesh skips the detail stage (it samples nothing): no
		// Detail, the same data.
		want.RegionBase, want.Detail = 0, nil
		if !sameLayer(lb, want) {
			t.Errorf("layer %d: BuildLayerMesh differs from the tile's layer", li)
		}
		// The tile-wide ids of the layer's regions are the labels plus the base.
		for v, id := range lab.IDs {
			got := tb.Regions.IDs[views[li].Index.At(v)]
			if id != region.NoRegion && id != region.LayerBorder {
				id += uint16(base)
			}
			if got != id {
				t.Fatalf("layer %d span %d: tile-wide id %d, label %d with base %d", li, v, got, lab.IDs[v], base)
			}
		}
		base += lab.Count
	}
	if k != len(tb.Layers) {
		t.Errorf("%d layers with tiles, the tile has %d", k, len(tb.Layers))
	}

	// Errors.
	v := &views[0]
	g := &tb.Spans.Grid
	ws := DefaultSettings()
	bad := *s
	bad.CellSizeM = -1
	small := at
	small.Map.WidthCells--
	for _, tc := range []struct {
		name string
		call func() error
		want string
	}{
		{"nil settings", func() error { _, err := BuildLayerMesh(nil, at, g, v, nil, &lab); return err }, "nil settings"},
		{"bad settings", func() error { _, err := BuildLayerMesh(&bad, at, g, v, nil, &lab); return err }, "CellSizeM"},
		{"watershed", func() error { _, err := BuildLayerMesh(&ws, at, g, v, nil, &lab); return err }, "Partition watershed"},
		{"nil view", func() error { _, err := BuildLayerMesh(s, at, g, nil, nil, &lab); return err }, "nil grid, view or labels"},
		{"nil labels", func() error { _, err := BuildLayerMesh(s, at, g, v, nil, nil); return err }, "nil grid, view or labels"},
		{"place", func() error { _, err := BuildLayerMesh(s, small, g, v, nil, &lab); return err }, "63 x 64 cells"},
		{"areas", func() error { _, err := BuildLayerMesh(s, at, g, v, []uint8{1}, &lab); return err }, "1 areas"},
	} {
		if err := tc.call(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}

// TestBuildTileMeshAreas builds a tile with areas in force that differ from
// the heightfield's (a strip made unwalkable): the result equals the build
// of a heightfield holding those areas (split on the same eroded areas),
// and the heightfield is not changed.
func TestBuildTileMeshAreas(t *testing.T) {
	for _, s := range []NavSettings{DefaultSettings(), layerSettings()} {
		b, tb := firstLayeredTile(t)
		at, err := b.Grid.Place(tb.TX, tb.TZ)
		if err != nil {
			t.Fatal(err)
		}
		chf := tb.Spans
		before := chf.Hash()
		areas := slices.Clone(chf.Areas)
		for z := 30; z < 34; z++ {
			for x := 0; x < chf.Width; x++ {
				cell := chf.Cells[x+z*chf.Width]
				for i := cell.Index; i < cell.Index+cell.Count; i++ {
					areas[i] = voxel.AreaNull
				}
			}
		}
		got, err := BuildTileMesh(&s, at, chf, nil, areas, nil)
		if err != nil {
			t.Fatal(err)
		}
		c := chf.Clone()
		c.Areas = areas
		want, err := BuildTileMesh(&s, at, c, chf.Areas, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if chf.Hash() != before {
			t.Fatal("BuildTileMesh changed the heightfield")
		}
		if got.Counts != want.Counts || len(got.Layers) != len(want.Layers) {
			t.Fatalf("%v: counts %+v, want %+v", s.Partition, got.Counts, want.Counts)
		}
		for i := range got.Layers {
			if !bytes.Equal(got.Layers[i].Data, want.Layers[i].Data) {
				t.Errorf("%v layer %d: tile data differ", s.Partition, i)
			}
		}
		full, err := BuildTileMesh(&s, at, chf, nil, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if full.Counts.WalkableAreaM2 <= got.Counts.WalkableAreaM2 {
			t.Errorf("%v: the strip removed nothing: %.1f m² before, %.1f after", s.Partition, full.Counts.WalkableAreaM2, got.Counts.WalkableAreaM2)
		}
	}
}

func TestBuildTileMeshErrors(t *testing.T) {
	b, tb := firstLayeredTile(t)
	s := b.Settings
	at, err := b.Grid.Place(tb.TX, tb.TZ)
	if err != nil {
		t.Fatal(err)
	}
	bad := s
	bad.VertsPerPoly = 9
	wide := at
	wide.Map.HeightCells++
	far := at
	far.TX = math.MaxInt32 + 1
	broken := tb.Spans.Clone()
	broken.Cells[3].Index++
	for _, tc := range []struct {
		name  string
		s     *NavSettings
		at    TilePlace
		chf   *voxel.CompactHeightfield
		areas []uint8
		want  string
	}{
		{"nil settings", nil, at, tb.Spans, nil, "nil settings"},
		{"bad settings", &bad, at, tb.Spans, nil, "VertsPerPoly = 9"},
		{"nil heightfield", &s, at, nil, nil, "nil compact heightfield"},
		{"areas", &s, at, tb.Spans, make([]uint8, 5), "5 areas"},
		{"place", &s, wide, tb.Spans, nil, "64 x 65 cells"},
		{"far", &s, far, tb.Spans, nil, "outside int32"},
		{"broken", &s, at, broken, nil, "starts at span"},
	} {
		tm, err := BuildTileMesh(tc.s, tc.at, tc.chf, nil, tc.areas, nil)
		if err == nil || tm != nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, %v; want an error with %q", tc.name, tm != nil, err, tc.want)
		}
	}
	if _, err := BuildTileMesh(&s, at, tb.Spans, make([]uint8, 7), nil, nil); err == nil || !strings.Contains(err.Error(), "eroded areas: pipeline: 7 areas") {
		t.Errorf("short eroded areas: %v", err)
	}
	if _, err := (&TileGrid{TilesX: 1, TilesZ: 1, TileSizeCells: 8}).Place(1, 0); err == nil {
		t.Error("Place outside the grid")
	}
}

func TestSoloGrid(t *testing.T) {
	s := DefaultSettings()
	soup := testLevel() // 40 x 40 m
	src := chunkySource(t, soup)
	g, err := SoloGrid(&s, src)
	if err != nil {
		t.Fatal(err)
	}
	bb := soup.Bounds()
	want := func(lo, hi float32) int { return int(float32((hi-lo)/s.CellSizeM) + 0.5) }
	if g.Width != want(bb.Min.X, bb.Max.X) || g.Height != want(bb.Min.Z, bb.Max.Z) || g.BorderCells != 0 || g.OriginM != bb.Min || g.MaxM != bb.Max {
		t.Errorf("solo grid %+v for bounds %v", g, bb)
	}
	if g.Width != 133 { // 40 / 0.3 = 133.33
		t.Errorf("width %d, want 133", g.Width)
	}
	chf, err := BuildSoloSpans(&s, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := BuildSolo(context.Background(), &s, src, BuildOptions{KeepStages: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Tiles) != 1 || b.Tiles[0].Spans.Hash() != chf.Hash() || b.Tiles[0].Stages == nil || !b.Solo {
		t.Fatalf("solo build: %d tiles", len(b.Tiles))
	}
	if gr := b.Grid; gr.TilesX != 1 || gr.TilesZ != 1 || gr.BorderCells != 0 || gr.CellsX != 133 || b.Tile(0, 0) == nil {
		t.Errorf("solo grid %+v", gr)
	}

	// A voxel source: the solo grid is the source's own.
	h, err := voxel.NewHeightfield(voxel.Grid{Width: 20, Height: 12, BorderCells: 3, MaxM: geom.V3(6, 10, 3.6), CellSizeM: 0.3, CellHeightM: 0.2})
	if err != nil {
		t.Fatal(err)
	}
	cols := make([][]voxel.Span, 20*12)
	for i := range cols {
		cols[i] = []voxel.Span{{MinRow: 0, MaxRow: 5, Area: voxel.AreaWalkable}}
	}
	h, err = voxel.NewHeightfieldFromColumns(h.Grid, cols)
	if err != nil {
		t.Fatal(err)
	}
	vsrc, err := NewVoxelSource(h)
	if err != nil {
		t.Fatal(err)
	}
	vg, err := SoloGrid(&s, vsrc)
	if err != nil {
		t.Fatal(err)
	}
	if vg.Width != 20 || vg.Height != 12 || vg.BorderCells != 0 {
		t.Errorf("voxel solo grid %+v", vg)
	}
	vb, err := BuildSolo(context.Background(), &s, vsrc, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if vb.NavTiles != 1 || vb.Polys == 0 {
		t.Errorf("voxel solo build: %+v", vb.MeshCounts)
	}
	// 20 x 12 cells: erosion by 2 cells removes the spans whose distance
	// (0 on the edge, 2 per cell inward) is below 4, the 3 nearest the
	// grid's edge, leaving 14 x 6 cells of 0.09 m².
	if a := vb.WalkableAreaM2; math.Abs(a-14*6*0.09) > 1e-3 {
		t.Errorf("voxel solo area %v m², want %v", a, 14*6*0.09)
	}

	// Errors.
	if _, err := SoloGrid(nil, src); err == nil {
		t.Error("nil settings")
	}
	if _, err := SoloGrid(&s, nil); err == nil {
		t.Error("nil source")
	}
	other := s
	other.CellSizeM = 0.25
	if _, err := SoloGrid(&other, vsrc); err == nil || !strings.Contains(err.Error(), "voxel source cells") {
		t.Errorf("voxel cell size mismatch: %v", err)
	}
	if _, err := BuildSolo(context.Background(), &other, vsrc, BuildOptions{}); err == nil {
		t.Error("BuildSolo with mismatched cells")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := BuildSolo(ctx, &s, src, BuildOptions{}); err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Errorf("cancelled solo build: %v", err)
	}
}

// TestObstaclesBakedEqualMarked checks what the tile cache relies on: a
// level built with obstacles and a volume in the settings (marked after
// erosion by BuildTileSpans) equals, tile for tile and byte for byte, the
// level built without them whose tiles are rebuilt by BuildTileMesh on the
// areas with the same obstacles and volume marked. On the layer-first path
// this holds because the layers are split on the areas after erosion,
// which marking never changes: rebuilding each layer of the plain build's
// split (BuildLayerMesh, as the cache does) gives the baked tiles too. The
// layer partition's general path (detail sampling on) splits the same way.
func TestObstaclesBakedEqualMarked(t *testing.T) {
	b0, tb := firstLayeredTile(t)
	g := b0.Grid
	box, err := g.TileBoxM(tb.TX, tb.TZ)
	if err != nil {
		t.Fatal(err)
	}
	c := box.Center()
	obstacles := []voxel.Obstacle{
		voxel.Cylinder(geom.V3(c.X, box.Min.Y, c.Z), 3, box.Max.Y-box.Min.Y),
		// On tile (4, 8) of city: split on the marked areas, that tile would
		// have other layers and other polygons.
		voxel.Cylinder(geom.V3(81.6, box.Min.Y, 168), 1, box.Max.Y-box.Min.Y),
		voxel.Box(geom.V3(box.Min.X+2, box.Min.Y, box.Min.Z+1), geom.V3(box.Min.X+6, box.Max.Y, box.Min.Z+4)),
	}
	vol := voxel.ConvexVolume{VertsXZ: [][2]float32{{box.Max.X - 8, box.Max.Z - 8}, {box.Max.X - 1, box.Max.Z - 8}, {box.Max.X - 1, box.Max.Z - 1}},
		MinYM: box.Min.Y, MaxYM: box.Max.Y, Area: 0}
	generalLayers := DefaultSettings()
	generalLayers.Partition = Layers
	for _, base := range []NavSettings{layerSettings(), DefaultSettings(), generalLayers} {
		s := base
		s.Obstacles = obstacles
		s.Volumes = []voxel.ConvexVolume{vol}
		src := chunkySource(t, leveltest.Soup(t, "city"))
		baked := build(t, src, &s, false, 0)
		plain := build(t, src, &base, false, 0)
		if len(baked.Tiles) != len(plain.Tiles) {
			t.Fatalf("%d tiles baked, %d plain", len(baked.Tiles), len(plain.Tiles))
		}
		var scratch Scratch
		changed, splitChanged := 0, 0
		for i := range plain.Tiles {
			p, bk := &plain.Tiles[i], &baked.Tiles[i]
			marked := slices.Clone(p.Spans.Areas)
			m := *p.Spans
			m.Areas = marked
			if err := voxel.MarkConvexVolume(&m, &vol); err != nil {
				t.Fatal(err)
			}
			for k := range obstacles {
				if _, err := voxel.MarkObstacle(&m, &obstacles[k], base.WalkableRadiusCells()); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(marked, bk.Spans.Areas) || !bytes.Equal(bk.ErodedAreas, p.Spans.Areas) {
				t.Fatalf("tile (%d, %d): marked areas differ from the baked build's", p.TX, p.TZ)
			}
			at, err := g.Place(p.TX, p.TZ)
			if err != nil {
				t.Fatal(err)
			}
			tm, err := BuildTileMesh(&base, at, p.Spans, nil, marked, &scratch)
			if err != nil {
				t.Fatal(err)
			}
			if len(tm.Layers) != len(bk.Layers) {
				t.Fatalf("%v tile (%d, %d): %d layers rebuilt, %d baked", base.Partition, p.TX, p.TZ, len(tm.Layers), len(bk.Layers))
			}
			for li := range tm.Layers {
				if !bytes.Equal(tm.Layers[li].Data, bk.Layers[li].Data) {
					t.Errorf("%v tile (%d, %d) layer %d: rebuilt tile differs from the baked build", base.Partition, p.TX, p.TZ, tm.Layers[li].Layer)
				}
			}
			if !slices.EqualFunc(p.Layers, bk.Layers, func(a, b LayerBuild) bool { return bytes.Equal(a.Data, b.Data) }) {
				changed++
			}
			if !base.LayerFirst() {
				continue
			}
			// Layer by layer on the plain build's split, as the cache
			// rebuilds: the same tiles.
			views, layers, err := region.SplitLayers(p.Spans, p.Spans.BorderCells)
			if err != nil {
				t.Fatal(err)
			}
			if _, l, err := region.SplitLayers(bk.Spans, p.Spans.BorderCells); err != nil {
				t.Fatal(err)
			} else if !slices.Equal(l, layers) {
				splitChanged++
			}
			var lab region.Labels
			var got [][]byte
			for li := range views {
				va := make([]uint8, views[li].Len())
				for k, i := range views[li].Index.All() {
					va[k] = marked[i]
				}
				lb, err := BuildLayerMesh(&base, at, &p.Spans.Grid, &views[li], va, &lab)
				if err != nil {
					t.Fatal(err)
				}
				if lb.Data != nil {
					got = append(got, lb.Data)
				}
			}
			if !slices.EqualFunc(got, bk.Layers, func(a []byte, b LayerBuild) bool { return bytes.Equal(a, b.Data) }) {
				t.Errorf("tile (%d, %d): layers rebuilt on the plain split differ from the baked build", p.TX, p.TZ)
			}
		}
		if changed < 2 || (base.LayerFirst() && splitChanged == 0) {
			t.Errorf("%v: the obstacles changed %d tiles and %d splits on the marked areas", base.Partition, changed, splitChanged)
		}
		t.Logf("%v: %d tiles changed by the obstacles and the volume; %d would split otherwise on the marked areas", base.Partition, changed, splitChanged)
	}
}

// TestGeneralLayersKeepSplit checks the layer rule of build3d-runtime.md
// ("What is cached") on the general path of the layer partition (detail
// sampling on): on every multi-layer tile of city, a cylinder of radius 8 m
// (the tile's full height) at the tile's centre is marked on the
// tile's areas, as the tile cache marks it; BuildTileMesh keeps the layer
// of every span from the first build (the split is made on the eroded
// areas), and its tile data equal those of a plain build with every
// cylinder baked into the settings. It also counts the tiles whose region
// ids would differ had the split been made on the marked areas.
func TestGeneralLayersKeepSplit(t *testing.T) {
	if testing.Short() {
		t.Skip("short: two builds of city")
	}
	s := DefaultSettings()
	s.Partition = Layers
	if s.LayerFirst() {
		t.Fatal("settings build layer first")
	}
	src := chunkySource(t, leveltest.Soup(t, "city"))
	plain := build(t, src, &s, false, 0)
	var obstacles []voxel.Obstacle
	var multi []int
	for i := range plain.Tiles {
		p := &plain.Tiles[i]
		if p.Regions.LayerCount < 2 {
			continue
		}
		box, err := plain.Grid.TileBoxM(p.TX, p.TZ)
		if err != nil {
			t.Fatal(err)
		}
		c := box.Center()
		obstacles = append(obstacles, voxel.Cylinder(geom.V3(c.X, box.Min.Y, c.Z), 8, box.Max.Y-box.Min.Y))
		multi = append(multi, i)
	}
	if len(multi) == 0 {
		t.Fatal("city has no multi-layer tile")
	}
	bs := s
	bs.Obstacles = obstacles
	baked := build(t, src, &bs, false, 0)
	var scratch Scratch
	changed, resplit, idsDiffer := 0, 0, 0
	for _, i := range multi {
		p, bk := &plain.Tiles[i], &baked.Tiles[i]
		marked := slices.Clone(p.Spans.Areas)
		m := *p.Spans
		m.Areas = marked
		for k := range obstacles {
			if _, err := voxel.MarkObstacle(&m, &obstacles[k], s.WalkableRadiusCells()); err != nil {
				t.Fatal(err)
			}
		}
		at, err := plain.Grid.Place(p.TX, p.TZ)
		if err != nil {
			t.Fatal(err)
		}
		tm, err := BuildTileMesh(&s, at, p.Spans, p.ErodedAreas, marked, &scratch)
		if err != nil {
			t.Fatal(err)
		}
		if tm.LayerFirst {
			t.Fatal("built layer first")
		}
		if !slices.Equal(tm.Regions.Layers, p.Regions.Layers) || tm.Regions.LayerCount != p.Regions.LayerCount {
			t.Errorf("tile (%d, %d): the layers of the spans differ from the first build's", p.TX, p.TZ)
		}
		if !slices.Equal(bk.Regions.Layers, p.Regions.Layers) || !slices.Equal(bk.Regions.IDs, tm.Regions.IDs) {
			t.Errorf("tile (%d, %d): the baked build's layers or region ids differ", p.TX, p.TZ)
		}
		if !slices.EqualFunc(tm.Layers, bk.Layers, func(a, b LayerBuild) bool { return bytes.Equal(a.Data, b.Data) }) {
			t.Errorf("tile (%d, %d): rebuilt tile data differ from the baked build's", p.TX, p.TZ)
		}
		if !slices.EqualFunc(tm.Layers, p.Layers, func(a, b LayerBuild) bool { return bytes.Equal(a.Data, b.Data) }) {
			changed++
		}
		// A split made on the marked areas (region.Layers on them).
		direct, err := region.Layers(&m, m.BorderCells, s.RegionMinAreaCells())
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(direct.Layers, p.Regions.Layers) {
			resplit++
		}
		if !slices.Equal(direct.IDs, tm.Regions.IDs) {
			idsDiffer++
		}
	}
	t.Logf("city: %d multi-layer tiles, %d changed by their cylinder; split on the marked areas, %d would have other layers and %d other region ids",
		len(multi), changed, resplit, idsDiffer)
	if changed == 0 || resplit == 0 || idsDiffer == 0 {
		t.Errorf("the cylinders changed %d tiles, %d splits and %d region ids: the test shows nothing", changed, resplit, idsDiffer)
	}
}

// sameLayer reports whether two layer builds are equal, their built tiles
// compared by data: the build's mesh holds its layers' tiles (AddBuilt),
// which a fresh tile's bookkeeping does not show.
func sameLayer(a, b LayerBuild) bool {
	if (a.Built == nil) != (b.Built == nil) || a.Built != nil && !bytes.Equal(a.Built.Data(), b.Built.Data()) {
		return false
	}
	a.Built, b.Built = nil, nil
	return reflect.DeepEqual(a, b)
}
