package pipeline

import (
	"bytes"
	"testing"

	"github.com/cespare/xxhash/v2"

	"navviz/core/level"
	"navviz/core/level/leveltest"
)

// sharedLevel is leveltest.Load: a shared test level, skipping the test
// when it is absent (the benchmarks call it).
var sharedLevel = leveltest.Load

func chunkySource(t testing.TB, s *level.Soup) *Source {
	t.Helper()
	c, err := level.NewChunky(s, 256)
	if err != nil {
		t.Fatal(err)
	}
	src, err := NewSoupSource(s, c)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestSharedLevels builds steps 1-3 of every tile of the shared test levels
// with the default settings and pins the number of walkable spans (non-zero
// area after erosion), the tile count and a hash of all tiles.
func TestSharedLevels(t *testing.T) {
	for _, tc := range []struct {
		name     string
		tiles    int
		walkable int
		hash     uint64
	}{
		{"dungeon.obj", 24, 18746, 0x16acf9f534ef5732},
		{"nav_test.obj", 25, 49618, 0x9dbcf733e894c78d},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := DefaultSettings()
			soup := leveltest.Load(t, tc.name)
			src := chunkySource(t, soup)
			tiles := buildAll(t, &s, src)
			got := walkableTotal(t, tiles)
			t.Logf("%s: %d tiles, %d walkable spans", tc.name, len(tiles), got)
			if len(tiles) != tc.tiles || got != tc.walkable {
				t.Errorf("%d tiles with %d walkable spans, want %d and %d", len(tiles), got, tc.tiles, tc.walkable)
			}
			if h := xxhash.Sum64(bytes.Join(tiles, nil)); h != tc.hash {
				t.Errorf("hash of all tiles %#x, want %#x", h, tc.hash)
			}
			// The chunky query and the full scan give the same bytes.
			plain, err := NewSoupSource(soup, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i, b := range buildAll(t, &s, plain) {
				if !bytes.Equal(b, tiles[i]) {
					t.Fatalf("tile %d differs between chunky and full scan", i)
				}
			}
		})
	}
}

// TestLayersRecastFigures builds dungeon.obj and nav_test.obj tiled with the
// layer partition (default settings, tile 64) and compares the polygon and
// vertex counts with those of Recast's tiled build with its layers
// partition and the same settings: detail sampling on (6 cells), which is
// this project's general path. The island removal keeps a component that
// reaches the tile's border ring (docs/layers.md §5), as Recast keeps a
// region touching the border; without that, nav_test.obj lost 23 m² and 18
// polygons. The layer-first path (DetailSampleDistCells 0) is pinned too: it
// welds per layer, so its counts differ slightly where a tile has several
// layers, and its walkable area is the general path's within 1 %.
func TestLayersRecastFigures(t *testing.T) {
	for _, tc := range []struct {
		name string
		// polygons and vertices: Recast's (general path), layer first
		recast, layerFirst [2]int
	}{
		{"dungeon.obj", [2]int{109, 250}, [2]int{110, 250}},
		{"nav_test.obj", [2]int{186, 485}, [2]int{186, 489}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := chunkySource(t, leveltest.Soup(t, tc.name))
			s := DefaultSettings()
			s.Partition = Layers
			gen := build(t, src, &s, false, 0)
			s.DetailSampleDistCells = 0
			lf := build(t, src, &s, false, 0)
			if gen.Tiles[0].LayerFirst || !lf.Tiles[0].LayerFirst {
				t.Fatalf("layer first: general build %v, layer-first build %v", gen.Tiles[0].LayerFirst, lf.Tiles[0].LayerFirst)
			}
			t.Logf("%s layers: general %d polygons, %d vertices, %.2f m²; layer first %d polygons, %d vertices, %.2f m²; Recast %v",
				tc.name, gen.Polys, gen.Verts, gen.WalkableAreaM2, lf.Polys, lf.Verts, lf.WalkableAreaM2, tc.recast)
			if got := [2]int{gen.Polys, gen.Verts}; got != tc.recast {
				t.Errorf("general path: polygons and vertices %v, Recast %v", got, tc.recast)
			}
			if got := [2]int{lf.Polys, lf.Verts}; got != tc.layerFirst {
				t.Errorf("layer first: polygons and vertices %v, want %v", got, tc.layerFirst)
			}
			if !within(lf.WalkableAreaM2, gen.WalkableAreaM2, 0.01) {
				t.Errorf("walkable area: layer first %.2f m², general %.2f m², more than 1 %% apart", lf.WalkableAreaM2, gen.WalkableAreaM2)
			}
		})
	}
}

// TestLayersPortalsLinked builds city tiled with watershed and with the
// layer partition on both paths (default settings; DetailSampleDistCells 0
// for layer first) and counts the portal edges no link uses: the layer
// partition leaves no more than watershed, since a component reaching a
// tile's border ring is kept (docs/layers.md §5) like the part of it that
// the neighbouring tile builds.
func TestLayersPortalsLinked(t *testing.T) {
	if testing.Short() {
		t.Skip("short: three builds of city")
	}
	src := chunkySource(t, leveltest.Soup(t, "city"))
	count := func(p PartitionType, detail float32) (unlinked, portals int) {
		s := DefaultSettings()
		s.Partition, s.DetailSampleDistCells = p, detail
		b := build(t, src, &s, false, 0)
		unlinked, portals = unlinkedPortalEdges(t, b.Mesh)
		t.Logf("city %v, detail %v cells: %d of %d portal edges unlinked, %.2f m²", p, detail, unlinked, portals, b.WalkableAreaM2)
		return unlinked, portals
	}
	ws, _ := count(Watershed, 6)
	for _, detail := range []float32{6, 0} {
		if got, _ := count(Layers, detail); got > ws {
			t.Errorf("layers (detail %v cells): %d portal edges unlinked, watershed %d", detail, got, ws)
		}
	}
}
