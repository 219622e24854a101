// Package spantest builds the compact heightfields (steps 1-3) of test
// levels through core/pipeline, for the tests of the stages after it
// (region, contour). It imports core/pipeline, so neither the pipeline's
// own tests nor the in-package tests of a package the pipeline imports
// can use it; their external test packages (package region_test, ...) can.
package spantest

import (
	"sync"
	"testing"

	"navviz/core/level"
	"navviz/core/level/leveltest"
	"navviz/core/pipeline"
	"navviz/core/voxel"
)

// built holds what Solo and Tiles built, by level name.
var built struct {
	sync.Mutex
	solo  map[string]*voxel.CompactHeightfield
	tiles map[string][]*voxel.CompactHeightfield
}

// Solo returns steps 1-3 of level name (leveltest.Soup: a built-in level or
// a shared test level, skipping the test when absent) on one grid covering
// the whole level with no border, as Recast's solo sample does, with the
// default settings: pipeline.BuildSoloSpans on a source without a chunky
// index (Width = (int)((max.X-min.X)/cs + 0.5) in float32, rcCalcGridSize;
// the grid's corners the soup's bounds; every triangle rasterized in index
// order, then the filters, compaction and erosion of a tile build). It is
// built once per test binary; callers must not change it.
func Solo(tb testing.TB, name string) *voxel.CompactHeightfield {
	tb.Helper()
	built.Lock()
	defer built.Unlock()
	if c, ok := built.solo[name]; ok {
		return c
	}
	src, err := pipeline.NewSoupSource(leveltest.Soup(tb, name), nil)
	if err != nil {
		tb.Fatal(err)
	}
	s := pipeline.DefaultSettings()
	c, err := pipeline.BuildSoloSpans(&s, src, nil)
	if err != nil {
		tb.Fatal(err)
	}
	if built.solo == nil {
		built.solo = make(map[string]*voxel.CompactHeightfield)
	}
	built.solo[name] = c
	return c
}

// Tiles returns steps 1-3 (pipeline.BuildTileSpans, default settings, a
// chunky source of 256 triangles a chunk) of every tile with a walkable
// span of level name (leveltest.Soup: a built-in level or a shared test
// level, skipping the test when absent), in row order. They are built once
// per test binary; callers must not change them.
func Tiles(tb testing.TB, name string) []*voxel.CompactHeightfield {
	tb.Helper()
	built.Lock()
	defer built.Unlock()
	if ts, ok := built.tiles[name]; ok {
		return ts
	}
	soup := leveltest.Soup(tb, name)
	ch, err := level.NewChunky(soup, 256)
	if err != nil {
		tb.Fatal(err)
	}
	s := pipeline.DefaultSettings()
	src, err := pipeline.NewSoupSource(soup, ch)
	if err != nil {
		tb.Fatal(err)
	}
	tg, err := src.TileGrid(&s)
	if err != nil {
		tb.Fatal(err)
	}
	var ts []*voxel.CompactHeightfield
	var scratch pipeline.Scratch
	for tz := range tg.TilesZ {
		for tx := range tg.TilesX {
			c, err := pipeline.BuildTileSpans(&s, src, tx, tz, &scratch)
			if err != nil {
				tb.Fatal(err)
			}
			if c.WalkableSpanCount() > 0 {
				ts = append(ts, c)
			}
		}
	}
	if built.tiles == nil {
		built.tiles = make(map[string][]*voxel.CompactHeightfield)
	}
	built.tiles[name] = ts
	return ts
}
