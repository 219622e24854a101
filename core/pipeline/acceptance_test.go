package pipeline

import (
	"bytes"
	"context"
	"math"
	"slices"
	"testing"

	"navviz/core/level/leveltest"
)

// The acceptance tests of the plain build (issue 4): the solo dungeon
// against Recast's published figures, tiled against solo, links, overlaps,
// the layer-first path against the general path, parallel against serial.
// docs/build.md lists the figures.

// build runs BuildSolo (solo) or BuildLevel on a level with settings s.
func build(t testing.TB, src *Source, s *NavSettings, solo bool, workers int) *Build {
	t.Helper()
	var b *Build
	var err error
	if solo {
		b, err = BuildSolo(context.Background(), s, src, BuildOptions{Workers: workers})
	} else {
		b, err = BuildLevel(context.Background(), s, src, BuildOptions{Workers: workers})
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// within reports whether got is within frac of want (relative).
func within(got, want, frac float64) bool {
	return math.Abs(got-want) <= frac*math.Abs(want)
}

// TestSoloRecastFigures builds dungeon.obj as one tile (BuildSolo, default
// settings) with watershed and monotone regions and compares the counts
// with Recast's published figures (../shared/levels/README.md, DotRecast's
// RecastSoloMeshTest): each within 1 %. Every figure equals Recast's.
// Recast's "regions" is chf.maxRegions, which also numbers the unused last
// entry of its region table: it equals region.Result.Count, one more than
// the regions (Build.Regions); see docs/regions.md.
func TestSoloRecastFigures(t *testing.T) {
	src := chunkySource(t, leveltest.Soup(t, "dungeon.obj"))
	for _, tc := range []struct {
		p PartitionType
		// regions (Recast's count), contours, verts, polys, detail
		// meshes, detail verts, detail tris
		recast [7]int
	}{
		{Watershed, [7]int{16, 15, 223, 118, 118, 513, 291}},
		{Monotone, [7]int{17, 16, 210, 100, 100, 453, 264}},
	} {
		t.Run(tc.p.String(), func(t *testing.T) {
			s := DefaultSettings()
			s.Partition = tc.p
			b := build(t, src, &s, true, 0)
			if len(b.Tiles) != 1 || b.NavTiles != 1 || !b.Solo || b.Tiles[0].Spans.BorderCells != 0 {
				t.Fatalf("%d tiles, %d navmesh tiles, solo %v", len(b.Tiles), b.NavTiles, b.Solo)
			}
			got := [7]int{b.Tiles[0].Regions.Count, b.Contours, b.Verts, b.Polys, b.DetailMeshes, b.DetailVerts, b.DetailTris}
			t.Logf("dungeon solo %v: regions %d (Count %d), contours %d, verts %d, polys %d, detail meshes %d, verts %d, tris %d, walkable %.2f m²; Recast %v",
				tc.p, b.Regions, got[0], got[1], got[2], got[3], got[4], got[5], got[6], b.WalkableAreaM2, tc.recast)
			names := [7]string{"regions", "contours", "verts", "polys", "detail meshes", "detail verts", "detail tris"}
			for i := range got {
				if !within(float64(got[i]), float64(tc.recast[i]), 0.01) {
					t.Errorf("%s %d, Recast %d: more than 1 %% apart", names[i], got[i], tc.recast[i])
				}
				if got[i] != tc.recast[i] {
					t.Errorf("%s %d, Recast %d (pinned: equal)", names[i], got[i], tc.recast[i])
				}
			}
			if b.Regions != got[0]-1 {
				t.Errorf("Build.Regions %d, Count %d", b.Regions, got[0])
			}
		})
	}
}

// seamMaxWidthM is the widest overlap allowed between two layers of one
// tile position: each layer's contour sees the other as a wall and is
// simplified on its own, within EdgeMaxErrorCells of the seam, so the two
// outlines may cross by up to twice that.
func seamMaxWidthM(s *NavSettings) float64 {
	return 2 * float64(s.EdgeMaxErrorCells) * float64(s.CellSizeM)
}

// TestTiledVsSolo builds dungeon.obj, nav_test.obj and city tiled and solo
// (default settings, watershed; and the layer-first setting): the walkable
// areas agree within 1 %, every link has its reverse and no two polygons
// overlap on one floor (findOverlaps: x/z interiors intersecting and the
// surfaces less than the agent height apart there), within a tile or
// across tiles, except along a seam between two layers of one layer-first
// tile position, where the overlap must be narrower than seamMaxWidthM.
func TestTiledVsSolo(t *testing.T) {
	for _, name := range []string{"dungeon.obj", "nav_test.obj", "city"} {
		for _, layered := range []bool{false, true} {
			s := DefaultSettings()
			label := "watershed"
			if layered {
				s.Partition, s.DetailSampleDistCells, label = Layers, 0, "layers"
			}
			t.Run(name+"/"+label, func(t *testing.T) {
				if testing.Short() && name == "city" {
					t.Skip("short")
				}
				src := chunkySource(t, leveltest.Soup(t, name))
				tiled := build(t, src, &s, false, 0)
				solo := build(t, src, &s, true, 0)
				ta, sa := tiled.WalkableAreaM2, solo.WalkableAreaM2
				t.Logf("%s %s: tiled %.2f m² (%d navmesh tiles, %d polys), solo %.2f m² (%d polys): %+.3f %%",
					name, label, ta, tiled.NavTiles, tiled.Polys, sa, solo.Polys, 100*(ta-sa)/sa)
				if !within(ta, sa, 0.01) {
					t.Errorf("tiled area %.2f m², solo %.2f m²: more than 1 %% apart", ta, sa)
				}
				for _, c := range []struct {
					kind string
					b    *Build
				}{{"tiled", tiled}, {"solo", solo}} {
					if ma := meshAreaM2(t, c.b.Mesh); !within(ma, c.b.WalkableAreaM2, 1e-9) {
						t.Errorf("%s: area from the tile data %.4f m², from the meshes %.4f m²", c.kind, ma, c.b.WalkableAreaM2)
					}
					border, internal, err := c.b.Mesh.CheckLinks()
					if err != nil {
						t.Errorf("%s: %v", c.kind, err)
					}
					over, stacked := findOverlaps(t, c.b.Mesh, float64(s.AgentHeightM))
					seams, widest := 0, 0.0
					for _, o := range over {
						if o.seam && o.widthM <= seamMaxWidthM(&s) {
							seams++
							widest = max(widest, o.widthM)
							t.Logf("%s: layer seam: %s", c.kind, o.desc)
							continue
						}
						t.Errorf("%s: %s", c.kind, o.desc)
					}
					t.Logf("%s: %d border links, %d internal links, all reciprocal; %d overlapping pairs on one floor (%d layer seams, widest %.3f m), %d pairs stacked %v m or more apart",
						c.kind, border, internal, len(over), seams, widest, stacked, s.AgentHeightM)
					if c.kind == "tiled" && border == 0 {
						t.Errorf("tiled build without border links")
					}
					if c.kind == "solo" && border != 0 {
						t.Errorf("solo build with %d border links", border)
					}
				}
			})
		}
	}
}

// TestLayerFirstVsGeneral compares, tile by tile, the layer-first path with
// the general path on the same settings (Layers, no detail sampling): a
// tile with one height layer gives the same tile data byte for byte; a tile
// with several gives the same walkable area within 1 % (build3d-runtime.md,
// "Layer-first tiles").
func TestLayerFirstVsGeneral(t *testing.T) {
	for _, name := range []string{"city", "nav_test.obj", "dungeon.obj", "bridge.obj"} {
		t.Run(name, func(t *testing.T) {
			s := DefaultSettings()
			s.Partition, s.DetailSampleDistCells = Layers, 0
			if !s.LayerFirst() {
				t.Fatal("settings do not build layer first")
			}
			src := chunkySource(t, leveltest.Soup(t, name))
			b := build(t, src, &s, false, 0)
			var scratch Scratch
			single, multi, equal, empty := 0, 0, 0, 0
			var areaLF, areaGen, worst float64
			for i := range b.Tiles {
				tb := &b.Tiles[i]
				if !tb.LayerFirst {
					t.Fatalf("tile (%d, %d) not built layer first", tb.TX, tb.TZ)
				}
				at, err := b.Grid.Place(tb.TX, tb.TZ)
				if err != nil {
					t.Fatal(err)
				}
				gen, err := buildTileMesh(&b.Settings, at, tb.Spans, tb.ErodedAreas, nil, &scratch, nil, true, nil)
				if err != nil {
					t.Fatal(err)
				}
				if gen.LayerFirst || gen.Regions.LayerCount != tb.Regions.LayerCount {
					t.Fatalf("tile (%d, %d): general path %v with %d layers, layer first %d", tb.TX, tb.TZ, gen.LayerFirst, gen.Regions.LayerCount, tb.Regions.LayerCount)
				}
				// The tile-wide ids are those of region.Layers.
				if !slices.Equal(gen.Regions.IDs, tb.Regions.IDs) || gen.Regions.Count != tb.Regions.Count {
					t.Errorf("tile (%d, %d): layer-first region ids differ from region.Layers'", tb.TX, tb.TZ)
				}
				la, ga := tb.Counts.WalkableAreaM2, gen.Counts.WalkableAreaM2
				if tb.Regions.LayerCount == 1 {
					single++
					if len(tb.Layers) != len(gen.Layers) {
						t.Errorf("tile (%d, %d), one layer: %d tiles layer first, %d general", tb.TX, tb.TZ, len(tb.Layers), len(gen.Layers))
						continue
					}
					for li := range tb.Layers {
						if !bytes.Equal(tb.Layers[li].Data, gen.Layers[li].Data) {
							t.Errorf("tile (%d, %d), one layer: tile data differ", tb.TX, tb.TZ)
						} else {
							equal++
						}
					}
					if len(tb.Layers) == 0 {
						empty++
					}
					continue
				}
				multi++
				areaLF += la
				areaGen += ga
				d := math.Abs(la-ga) / ga
				worst = max(worst, d)
				t.Logf("tile (%d, %d): %d layers, %d navmesh tiles layer first: %.2f m², general %.2f m² (%+.3f %%)",
					tb.TX, tb.TZ, tb.Regions.LayerCount, len(tb.Layers), la, ga, 100*(la-ga)/ga)
				if !within(la, ga, 0.01) {
					t.Errorf("tile (%d, %d): walkable area layer first %.2f m², general %.2f m², more than 1 %% apart", tb.TX, tb.TZ, la, ga)
				}
			}
			t.Logf("%s: %d tiles with one layer (%d navmesh tiles byte for byte equal, %d tiles without polygons on both paths), %d with several: %.2f m² layer first, %.2f m² general, worst tile %.3f %%",
				name, single, equal, empty, multi, areaLF, areaGen, 100*worst)
			if name == "bridge.obj" && multi != 0 {
				t.Errorf("bridge.obj has %d tiles with several layers, docs/layers.md says none", multi)
			}
			if name == "city" && multi == 0 {
				t.Error("city has no tile with several layers")
			}
		})
	}
}

// TestBuildParallelEqualsSerialMesh builds dungeon and city with 1, 2 and 4
// workers (and twice with 4), tiled and solo, watershed and layer first:
// the serialized meshes are equal byte for byte.
func TestBuildParallelEqualsSerialMesh(t *testing.T) {
	for _, name := range []string{"dungeon.obj", "city"} {
		for _, layered := range []bool{false, true} {
			s := DefaultSettings()
			if layered {
				s.Partition, s.DetailSampleDistCells = Layers, 0
			}
			t.Run(name+"/"+s.Partition.String(), func(t *testing.T) {
				if testing.Short() && name == "city" {
					t.Skip("short")
				}
				src := chunkySource(t, leveltest.Soup(t, name))
				for _, solo := range []bool{false, true} {
					var want []byte
					for _, w := range []int{1, 2, 4, 4} {
						b := build(t, src, &s, solo, w)
						got, err := b.Mesh.MarshalBinary()
						if err != nil {
							t.Fatal(err)
						}
						if want == nil {
							want = got
							t.Logf("solo %v: %d navmesh tiles, %d bytes", solo, b.NavTiles, len(got))
							continue
						}
						if !bytes.Equal(got, want) {
							t.Errorf("solo %v, %d workers: mesh differs from the serial build", solo, w)
						}
					}
				}
			})
		}
	}
}
