package pipeline

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"navviz/core/voxel"
)

// Stage names one timed stage of a tile build. Stages are numbered in the
// order a tile runs them; later steps (regions, contours, polygons, detail,
// tile data) append their own after StageVolumes.
type Stage int

const (
	// StageRasterize is step 1: the solid heightfield (rasterization of the
	// tile's triangles, or the copy of a voxel source's columns), including
	// the query for the tile's triangles.
	StageRasterize Stage = iota
	// StageFilter is the three span filters of step 2.
	StageFilter
	// StageCompact is the compact heightfield and its links (step 2).
	StageCompact
	// StageErode is the erosion by the agent radius (step 3).
	StageErode
	// StageVolumes is the marking of the build-time ConvexVolumes (step 3).
	StageVolumes
	// NumStages is the number of stages.
	NumStages
)

var stageNames = [NumStages]string{"rasterize", "filter", "compact", "erode", "volumes"}

// String returns the stage's short name ("rasterize", "filter", ...), or
// "Stage(n)" for an invalid value.
func (st Stage) String() string {
	if st >= 0 && st < NumStages {
		return stageNames[st]
	}
	return fmt.Sprintf("Stage(%d)", int(st))
}

// StageTimes holds one wall-clock duration per Stage. Timings are measured
// for reports only: no result depends on them.
type StageTimes [NumStages]time.Duration

// Total returns the sum of all stage durations.
func (t *StageTimes) Total() time.Duration {
	var d time.Duration
	for _, v := range t {
		d += v
	}
	return d
}

// add adds u to t stage by stage.
func (t *StageTimes) add(u *StageTimes) {
	for i := range t {
		t[i] += u[i]
	}
}

// stageClock measures consecutive stages into times (nil: no clock reads).
type stageClock struct {
	times *StageTimes
	t0    time.Time
}

func (c *stageClock) start() {
	if c.times != nil {
		c.t0 = time.Now()
	}
}

// lap charges the time since the last start or lap to stage st.
func (c *stageClock) lap(st Stage) {
	if c.times != nil {
		now := time.Now()
		c.times[st] += now.Sub(c.t0)
		c.t0 = now
	}
}

// TileStages is what a tile's stages produced on the way to its compact
// heightfield, for inspection and drawing (BuildOptions.KeepStages,
// BuildTileSpansStages). Every slice is the tile's own copy.
type TileStages struct {
	// Solid is the solid heightfield of the tile's build grid after the
	// three filters (step 2), before compaction: every solid span with its
	// area id (AreaNull where a filter or the slope made it unwalkable).
	Solid *voxel.Heightfield
	// PreErosionAreas are the open spans' area ids as compaction made them
	// (indexed like the compact heightfield's Spans), before erosion.
	PreErosionAreas []uint8
	// ErodedAreas are the area ids after erosion by the agent radius and
	// before the build-time volumes. A span with PreErosionAreas[i] != 0 and
	// ErodedAreas[i] == 0 was removed by erosion.
	ErodedAreas []uint8
	// Times are the durations of the tile's stages.
	Times StageTimes
}

// BuildOptions tune BuildLevel. The zero value builds on every CPU, with no
// progress report and no stages kept. No option changes the tiles built.
type BuildOptions struct {
	// Workers is the number of goroutines building tiles; 0 means
	// runtime.GOMAXPROCS(0). Negative values are an error.
	Workers int
	// Progress, when not nil, is called with the number of finished tiles
	// and the tile count: from BuildLevel's own goroutine (never
	// concurrently), with doneTiles increasing by one from 1 to totalTiles
	// when the build succeeds. It must not block for long: tiles keep being
	// built meanwhile, but their completion is reported only when it
	// returns.
	Progress func(doneTiles, totalTiles int)
	// KeepStages keeps each built tile's TileStages (TileBuild.Stages):
	// the filtered solid heightfield and the areas around erosion. It
	// costs memory of the order of the solid spans.
	KeepStages bool
}

// TileBuild is the plain build of one tile.
type TileBuild struct {
	// TX and TZ are the tile's coordinates in the Build's Grid.
	TX, TZ int
	// Spans is the tile's compact heightfield after steps 1-3
	// (BuildTileSpans' result, byte for byte).
	Spans *voxel.CompactHeightfield
	// WalkableSpans is Spans.WalkableSpanCount(): the walkable open spans of
	// the whole build grid, border ring included.
	WalkableSpans int
	// Stages holds the intermediate results; nil unless
	// BuildOptions.KeepStages.
	Stages *TileStages
	// Times are the durations of the tile's stages.
	Times StageTimes
}

// Build is the plain build of a whole level: the tiles of its TileGrid that
// have something walkable, in row-major order (tz, then tx). Its content
// (everything but the durations) depends only on the settings and the
// source, never on the number of workers or on timing.
type Build struct {
	// Settings are the settings the level was built with (a copy, Volumes
	// included).
	Settings NavSettings
	// Grid is the level's tiling.
	Grid *TileGrid
	// Tiles lists the tiles with at least one walkable span after steps
	// 1-3, in row-major order; tiles with none have nothing to build and
	// are left out.
	Tiles []TileBuild
	// BuiltTiles is the number of tiles built (Grid.TileCount()).
	BuiltTiles int
	// SpanCount and WalkableSpans sum the open spans and the walkable open
	// spans of Tiles (whole build grids, so the border rings count once per
	// tile that builds them).
	SpanCount, WalkableSpans int
	// StageTotals sums every built tile's stage durations (CPU time spent
	// over all workers, not wall time).
	StageTotals StageTimes
	// Wall is the wall-clock time of the whole build.
	Wall time.Duration
	// Workers is the number of goroutines used.
	Workers int
}

// Tile returns the build of tile (tx, tz), or nil when that tile has
// nothing walkable or is not in the grid.
func (b *Build) Tile(tx, tz int) *TileBuild {
	if b == nil || b.Grid == nil || b.Grid.CheckTile(tx, tz) != nil {
		return nil
	}
	key := tz*b.Grid.TilesX + tx
	lo, hi := 0, len(b.Tiles)
	for lo < hi {
		m := (lo + hi) / 2
		t := &b.Tiles[m]
		if k := t.TZ*b.Grid.TilesX + t.TX; k < key {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(b.Tiles) && b.Tiles[lo].TX == tx && b.Tiles[lo].TZ == tz {
		return &b.Tiles[lo]
	}
	return nil
}

// cloneSettings returns a copy of s that shares no memory with it.
func cloneSettings(s *NavSettings) NavSettings {
	c := *s
	if s.Volumes != nil {
		c.Volumes = make([]voxel.ConvexVolume, len(s.Volumes))
		for i, v := range s.Volumes {
			v.VertsXZ = append([][2]float32(nil), v.VertsXZ...)
			c.Volumes[i] = v
		}
	}
	return c
}

// BuildLevel runs steps 1-3 (BuildTileSpans) on every tile of src's
// TileGrid under settings s, on opt.Workers goroutines each with its own
// Scratch, and gathers the tiles in row-major order, so the result is the
// same for any number of workers (compare the tiles' MarshalBinary bytes).
//
// The settings are validated and copied first (s may change once
// BuildLevel has returned). Cancelling ctx stops the build: workers finish
// the tile in hand and take no other, and BuildLevel returns an error
// wrapping ctx.Err(). When tiles fail, the error of the first failing tile
// in row-major order is returned, naming the tile. On error there is no
// Build.
//
// The later build steps (regions, contours, polygons, detail, tile data)
// extend each tile's work here and add their products to TileBuild.
func BuildLevel(ctx context.Context, s *NavSettings, src *Source, opt BuildOptions) (*Build, error) {
	if s == nil {
		return nil, fmt.Errorf("pipeline: nil settings")
	}
	if src == nil {
		return nil, fmt.Errorf("pipeline: nil source")
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if opt.Workers < 0 {
		return nil, fmt.Errorf("pipeline: BuildOptions.Workers = %d, want >= 0", opt.Workers)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	b := &Build{Settings: cloneSettings(s)}
	set := &b.Settings
	grid, err := src.TileGrid(set)
	if err != nil {
		return nil, err
	}
	b.Grid = grid
	total := grid.TileCount()
	b.BuiltTiles = total
	workers := opt.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, total))
	b.Workers = workers
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("pipeline: build cancelled before it started: %w", err)
	}

	start := time.Now()
	results := make([]TileBuild, total)
	errs := make([]error, total)
	var next atomic.Int64 // the next tile index to take
	var stop atomic.Bool  // set on cancellation or the first error
	done := make(chan int, total)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var scratch Scratch
			for !stop.Load() {
				if ctx.Err() != nil {
					stop.Store(true)
					return
				}
				i := int(next.Add(1) - 1)
				if i >= total {
					return
				}
				tx, tz := i%grid.TilesX, i/grid.TilesX
				r := &results[i]
				r.TX, r.TZ = tx, tz
				var keep *TileStages
				if opt.KeepStages {
					keep = &TileStages{}
				}
				chf, err := tileSpans(set, src, grid, tx, tz, &scratch, &r.Times, keep)
				if err != nil {
					errs[i] = fmt.Errorf("pipeline: tile (%d, %d): %w", tx, tz, err)
					stop.Store(true)
				} else {
					r.Spans = chf
					r.WalkableSpans = chf.WalkableSpanCount()
					if keep != nil {
						keep.Times = r.Times
						r.Stages = keep
					}
				}
				done <- i
			}
		}()
	}
	go func() {
		wg.Wait()
		close(done)
	}()

	finished := 0
	for range done {
		finished++
		if opt.Progress != nil && !stop.Load() {
			opt.Progress(finished, total)
		}
	}
	// Every worker has returned: results and errs are complete for every
	// tile taken.
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if finished < total {
		err := ctx.Err()
		if err == nil {
			err = context.Canceled
		}
		return nil, fmt.Errorf("pipeline: build cancelled after %d of %d tiles: %w", finished, total, err)
	}
	for i := range results {
		r := &results[i]
		b.StageTotals.add(&r.Times)
		if r.WalkableSpans == 0 {
			continue
		}
		b.Tiles = append(b.Tiles, *r)
		b.SpanCount += r.Spans.SpanCount()
		b.WalkableSpans += r.WalkableSpans
	}
	b.Wall = time.Since(start)
	return b, nil
}
