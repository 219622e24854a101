package region_test

// Tests on real levels: the solo dungeon figures of Recast, the city's
// tiles, determinism, and the benchmarks. They live in package region_test
// because they use the pipeline (which will import region).

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"navviz/core/level"
	"navviz/core/pipeline"
	"navviz/core/region"
	"navviz/core/voxel"
)

// levelsPartition is the signature shared by Watershed and Monotone.
type levelsPartition func(*voxel.CompactHeightfield, int, int, int) (*region.Result, error)

// levelsSharedLevel loads ../shared/levels/NAME or skips the test.
func levelsSharedLevel(t testing.TB, name string) *level.Soup {
	t.Helper()
	path := filepath.Join("..", "..", "..", "shared", "levels", name)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("test level %s not found (%v); it lives in ../shared/levels beside the repository", path, err)
	}
	s, err := level.LoadOBJ(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// levelsSoloCHF runs steps 1-3 on one grid covering the whole level with no
// border, as Recast's solo sample does: pipeline.BuildSoloSpans (Width =
// (int)((max.X-min.X)/cs + 0.5) in float32, rcCalcGridSize; the grid's
// corners the soup's bounds; every triangle rasterized in index order, then
// the filters, compaction and erosion of a tile build).
func levelsSoloCHF(t testing.TB, soup *level.Soup, s *pipeline.NavSettings) *voxel.CompactHeightfield {
	t.Helper()
	src, err := pipeline.NewSoupSource(soup, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := pipeline.BuildSoloSpans(s, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestSoloLevels pins the solo figures. Recast's reference (DotRecast's
// RecastSoloMeshTest, default settings) for dungeon.obj: watershed distance
// 52 and 16 regions, monotone 17; for nav_test.obj: 60, 48 and 50. Recast's
// "regions" (chf.maxRegions) also numbers the unused last entry of its
// region table, so it equals Result.Count, one more than the number of
// regions. The id hashes pin every span's id, which equal Recast's
// rcBuildRegions / rcBuildRegionsMonotone on the same heightfield (checked
// span by span against the C++ library when this was written).
func TestSoloLevels(t *testing.T) {
	s := pipeline.DefaultSettings()
	for _, tc := range []struct {
		level                  string
		dist, wsCount, moCount int
		wsHash, moHash         uint64
	}{
		{"dungeon.obj", 52, 16, 17, 0x43d6f5082b4b7efd, 0x50d8f17c73f2c2d0},
		{"nav_test.obj", 60, 48, 50, 0x18b4fec92d0947a7, 0x8305bac988a8d5cd},
	} {
		t.Run(tc.level, func(t *testing.T) {
			c := levelsSoloCHF(t, levelsSharedLevel(t, tc.level), &s)
			_, maxDist, err := region.DistanceField(c)
			if err != nil {
				t.Fatal(err)
			}
			ws, err := region.Watershed(c, 0, s.RegionMinAreaCells(), s.RegionMergeAreaCells())
			if err != nil {
				t.Fatal(err)
			}
			mo, err := region.Monotone(c, 0, s.RegionMinAreaCells(), s.RegionMergeAreaCells())
			if err != nil {
				t.Fatal(err)
			}
			region.PartCheckResult(t, c, 0, ws)
			region.PartCheckResult(t, c, 0, mo)
			wh, mh := region.PartIDHash(ws.IDs), region.PartIDHash(mo.IDs)
			t.Logf("%s solo %d x %d, %d spans: distance %d; watershed %d regions (Count %d, ids %#016x); monotone %d regions (Count %d, ids %#016x)",
				tc.level, c.Width, c.Height, len(c.Spans), ws.MaxDistance, ws.RegionCount(), ws.Count, wh, mo.RegionCount(), mo.Count, mh)
			if maxDist != uint16(tc.dist) || ws.MaxDistance != uint16(tc.dist) || ws.Count != tc.wsCount || mo.Count != tc.moCount || mo.MaxDistance != 0 {
				t.Errorf("distance %d/%d, watershed Count %d, monotone Count %d; want %d, %d, %d (Recast)",
					maxDist, ws.MaxDistance, ws.Count, mo.Count, tc.dist, tc.wsCount, tc.moCount)
			}
			if wh != tc.wsHash || mh != tc.moHash {
				t.Errorf("id hashes %#016x, %#016x, want %#016x, %#016x", wh, mh, tc.wsHash, tc.moHash)
			}
		})
	}
}

var levelsCity struct {
	once  sync.Once
	tiles []*voxel.CompactHeightfield
	err   error
}

// levelsCityTiles returns steps 1-3 of every city tile with a walkable span
// (default settings, built once; callers must not change them).
func levelsCityTiles(t testing.TB) []*voxel.CompactHeightfield {
	t.Helper()
	levelsCity.once.Do(func() {
		soup, err := level.Builtin("city")
		if err != nil {
			levelsCity.err = err
			return
		}
		c, err := level.NewChunky(soup, 256)
		if err != nil {
			levelsCity.err = err
			return
		}
		s := pipeline.DefaultSettings()
		src, err := pipeline.NewSoupSource(soup, c)
		if err != nil {
			levelsCity.err = err
			return
		}
		tg, err := src.TileGrid(&s)
		if err != nil {
			levelsCity.err = err
			return
		}
		for tz := 0; tz < tg.TilesZ; tz++ {
			for tx := 0; tx < tg.TilesX; tx++ {
				chf, err := pipeline.BuildTileSpans(&s, src, tx, tz, nil)
				if err != nil {
					levelsCity.err = err
					return
				}
				if chf.WalkableSpanCount() > 0 {
					levelsCity.tiles = append(levelsCity.tiles, chf)
				}
			}
		}
	})
	if levelsCity.err != nil {
		t.Fatal(levelsCity.err)
	}
	return levelsCity.tiles
}

func TestCityTiles(t *testing.T) {
	tiles := levelsCityTiles(t)
	s := pipeline.DefaultSettings()
	for _, tc := range []struct {
		name string
		f    levelsPartition
	}{{"watershed", region.Watershed}, {"monotone", region.Monotone}} {
		regions := 0
		for _, c := range tiles {
			before := c.Hash()
			res, err := tc.f(c, s.BorderCells(), s.RegionMinAreaCells(), s.RegionMergeAreaCells())
			if err != nil {
				t.Fatal(err)
			}
			if c.Hash() != before {
				t.Fatal("the partition changed its input")
			}
			region.PartCheckResult(t, c, s.BorderCells(), res)
			regions += res.RegionCount()
		}
		t.Logf("city, %s: %d tiles, %d regions", tc.name, len(tiles), regions)
	}
}

func TestDeterministic(t *testing.T) {
	tiles := levelsCityTiles(t)
	s := pipeline.DefaultSettings()
	for _, f := range []levelsPartition{region.Watershed, region.Monotone} {
		first := make([]uint64, len(tiles))
		for k, c := range tiles {
			res, err := f(c, s.BorderCells(), s.RegionMinAreaCells(), s.RegionMergeAreaCells())
			if err != nil {
				t.Fatal(err)
			}
			first[k] = region.PartIDHash(res.IDs)
		}
		// Again in reverse order and concurrently: the pooled scratch memory
		// is reused with other sizes and leftovers.
		var wg sync.WaitGroup
		same := make([]bool, len(tiles))
		for k := len(tiles) - 1; k >= 0; k-- {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, err := f(tiles[k], s.BorderCells(), s.RegionMinAreaCells(), s.RegionMergeAreaCells())
				same[k] = err == nil && region.PartIDHash(res.IDs) == first[k]
			}()
		}
		wg.Wait()
		for k, ok := range same {
			if !ok {
				t.Fatalf("tile %d differs between runs", k)
			}
		}
	}
}

func levelsBenchPartition(b *testing.B, f levelsPartition) {
	tiles := levelsCityTiles(b)
	s := pipeline.DefaultSettings()
	border, minA, mergeA := s.BorderCells(), s.RegionMinAreaCells(), s.RegionMergeAreaCells()
	spans := 0
	for _, c := range tiles {
		spans += len(c.Spans)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := f(tiles[i%len(tiles)], border, minA, mergeA); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(spans)/float64(len(tiles)), "spans/tile")
}

// BenchmarkWatershedCityTile partitions the city's tiles in turn (one tile
// per iteration, default settings: border 5, min area 64, merge area 400).
func BenchmarkWatershedCityTile(b *testing.B) { levelsBenchPartition(b, region.Watershed) }

// BenchmarkMonotoneCityTile is BenchmarkWatershedCityTile with Monotone.
func BenchmarkMonotoneCityTile(b *testing.B) { levelsBenchPartition(b, region.Monotone) }
