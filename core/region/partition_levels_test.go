package region_test

// Tests on real levels: the solo dungeon figures of Recast, the city's
// tiles, determinism, and the benchmarks. They live in package region_test
// because they use the pipeline (which will import region).

import (
	"sync"
	"testing"

	"navviz/core/internal/spantest"
	"navviz/core/pipeline"
	"navviz/core/region"
	"navviz/core/voxel"
)

// levelsPartition is the signature shared by Watershed and Monotone.
type levelsPartition func(*voxel.CompactHeightfield, int, int, int) (*region.Result, error)

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
			c := spantest.Solo(t, tc.level)
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

func TestCityTiles(t *testing.T) {
	tiles := spantest.Tiles(t, "city")
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
	tiles := spantest.Tiles(t, "city")
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
	tiles := spantest.Tiles(b, "city")
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
