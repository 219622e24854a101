package pipeline

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"navviz/core/level"
	"navviz/internal/cputime"
)

// TestBuiltinLevels builds steps 1-3 of every tile of the generated levels
// (not pinned: the generators belong to core/level) and checks that the
// city, with its bridge, has columns with two walkable floors.
func TestBuiltinLevels(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	for _, name := range []string{"city", "terrain"} {
		soup, err := level.Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		s := DefaultSettings()
		src := chunkySource(t, soup)
		g, err := src.TileGrid(&s)
		if err != nil {
			t.Fatal(err)
		}
		walkable, stacked := 0, 0
		var scratch Scratch
		for tz := 0; tz < g.TilesZ; tz++ {
			for tx := 0; tx < g.TilesX; tx++ {
				c, err := BuildTileSpans(&s, src, tx, tz, &scratch)
				if err != nil {
					t.Fatalf("%s tile (%d, %d): %v", name, tx, tz, err)
				}
				walkable += c.WalkableSpanCount()
				stacked += c.StackedColumns()
			}
		}
		t.Logf("%s: %d x %d tiles, %d walkable spans, %d columns with two or more walkable floors", name, g.TilesX, g.TilesZ, walkable, stacked)
		if walkable == 0 {
			t.Errorf("%s: nothing walkable", name)
		}
		if name == "city" && stacked == 0 {
			t.Errorf("city: no column with two walkable floors (bridge)")
		}
	}
}

// benchTiles runs BuildTileSpans round-robin over the tiles of a level
// (default settings, one reused Scratch); the time per op is one tile. The
// "busiest" case repeats the tile with the most solid input.
func benchTiles(b *testing.B, soup *level.Soup) {
	s := DefaultSettings()
	src := chunkySource(b, soup)
	g, err := src.TileGrid(&s)
	if err != nil {
		b.Fatal(err)
	}
	type tile struct{ x, z int }
	var tiles []tile
	busiest, most := tile{}, -1
	for tz := 0; tz < g.TilesZ; tz++ {
		for tx := 0; tx < g.TilesX; tx++ {
			c, err := BuildTileSpans(&s, src, tx, tz, nil)
			if err != nil {
				b.Fatal(err)
			}
			if c.SpanCount() == 0 {
				continue
			}
			tiles = append(tiles, tile{tx, tz})
			if c.SpanCount() > most {
				busiest, most = tile{tx, tz}, c.SpanCount()
			}
		}
	}
	run := func(b *testing.B, list []tile) {
		var scratch Scratch
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; b.Loop(); i++ {
			t := list[i%len(list)]
			if _, err := BuildTileSpans(&s, src, t.x, t.z, &scratch); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("all", func(b *testing.B) { run(b, tiles) })
	b.Run("busiest", func(b *testing.B) { run(b, []tile{busiest}) })
}

// BenchmarkTileSpansStagesCity runs steps 1-3 on every tile of city (one
// op: the whole level) as a one-worker BuildLevel does, but each tile's
// compact heightfield built into the previous one's memory, and reports
// each stage's thread CPU time per level in ms: the stages' own work,
// without the page faults a build pays for the memory it keeps (its
// compact stage's larger part, docs/build.md §10).
func BenchmarkTileSpansStagesCity(b *testing.B) {
	soup, err := level.Builtin("city")
	if err != nil {
		b.Fatal(err)
	}
	s := layerSettings()
	src := chunkySource(b, soup)
	g, err := src.TileGrid(&s)
	if err != nil {
		b.Fatal(err)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var scratch Scratch
	_, scratch.threadClock = cputime.Thread()
	var times StageTimes
	n := 0
	for b.Loop() {
		for tz := 0; tz < g.TilesZ; tz++ {
			for tx := 0; tx < g.TilesX; tx++ {
				bg, err := g.BuildGrid(tx, tz)
				if err != nil {
					b.Fatal(err)
				}
				gx0, gz0 := g.BuildGridCellOffset(tx, tz)
				chf, err := tileSpans(&s, src, bg, gx0, gz0, &scratch, &times, nil, nil)
				if err != nil {
					b.Fatal(err)
				}
				scratch.spare = chf
			}
		}
		n++
	}
	for st := StageRasterize; st <= StageErode; st++ {
		b.ReportMetric(float64(times[st].Microseconds())/1000/float64(n), st.String()+"-ms")
	}
}

func BenchmarkTileSpansCity(b *testing.B) {
	soup, err := level.Builtin("city")
	if err != nil {
		b.Fatal(err)
	}
	benchTiles(b, soup)
}

func BenchmarkTileSpansDungeon(b *testing.B) {
	benchTiles(b, sharedLevel(b, "dungeon.obj"))
}

// benchBuildLevel builds a whole level (BuildLevel: steps 1-5 and the
// mesh) with the default settings (watershed, detail sampling) and with the
// tile cache's (layer first, no sampling), on one worker and on all CPUs.
// Besides the wall time per build it reports each stage's CPU time per
// build (Build.StageTotals, summed over the workers) in ms.
func benchBuildLevel(b *testing.B, soup *level.Soup) {
	src := chunkySource(b, soup)
	for _, s := range []NavSettings{DefaultSettings(), layerSettings()} {
		for _, w := range []int{1, 0} {
			name := fmt.Sprintf("%v/workers=%d", s.Partition, w)
			if w == 0 {
				name = fmt.Sprintf("%v/workers=all(%d)", s.Partition, runtime.GOMAXPROCS(0))
			}
			b.Run(name, func(b *testing.B) {
				var totals StageTimes
				n := 0
				var last *Build
				b.ReportAllocs()
				for b.Loop() {
					bl, err := BuildLevel(context.Background(), &s, src, BuildOptions{Workers: w})
					if err != nil {
						b.Fatal(err)
					}
					totals.add(&bl.StageTotals)
					n++
					last = bl
				}
				for st := Stage(0); st < NumStages; st++ {
					b.ReportMetric(float64(totals[st].Microseconds())/1000/float64(n), st.String()+"-ms")
				}
				b.ReportMetric(float64(last.NavTiles), "navtiles")
				b.ReportMetric(float64(last.Polys), "polys")
			})
		}
	}
}

func BenchmarkBuildLevelCity(b *testing.B) {
	soup, err := level.Builtin("city")
	if err != nil {
		b.Fatal(err)
	}
	benchBuildLevel(b, soup)
}

func BenchmarkBuildLevelDungeon(b *testing.B) {
	benchBuildLevel(b, sharedLevel(b, "dungeon.obj"))
}
