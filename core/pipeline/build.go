package pipeline

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"navviz/core/navmesh"
	"navviz/core/region"
	"navviz/core/voxel"
	"navviz/internal/cputime"
)

// Stage names one timed stage of a tile build. Stages are numbered in the
// order a tile runs them.
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
	// StageVolumes is the marking of the build-time ConvexVolumes (step 3)
	// and of NavSettings.Obstacles.
	StageVolumes
	// StageRegions is the region partition of step 5 (on the layer-first
	// path also the split into height layers).
	StageRegions
	// StageContours is the tracing and simplification of the contours.
	StageContours
	// StagePolys is the polygon mesh.
	StagePolys
	// StageDetail is the detail mesh.
	StageDetail
	// StageTile is the navmesh tile data.
	StageTile
	// StageLink is the adding of the tile's navmesh tiles to the Build's
	// Mesh (links stitched to the tiles added before), done in tile order
	// once every tile is built.
	StageLink
	// NumStages is the number of stages.
	NumStages
)

var stageNames = [NumStages]string{"rasterize", "filter", "compact", "erode", "volumes",
	"regions", "contours", "polys", "detail", "tile", "link"}

// String returns the stage's short name ("rasterize", "filter", ...), or
// "Stage(n)" for an invalid value.
func (st Stage) String() string {
	if st >= 0 && st < NumStages {
		return stageNames[st]
	}
	return fmt.Sprintf("Stage(%d)", int(st))
}

// StageTimes holds one duration per Stage: CPU time of the thread that ran
// the stage where the platform gives it (BuildLevel and BuildSolo on Linux,
// whose workers are locked to their threads), else wall-clock time.
// Timings are measured for reports only: no result depends on them.
type StageTimes [NumStages]time.Duration

// Total returns the sum of all stage durations.
func (t *StageTimes) Total() time.Duration {
	if t == nil {
		return 0
	}
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
// With cpu set it reads the calling thread's CPU time (cputime.Thread), which
// is only meaningful on a goroutine locked to its thread (Build.run's
// workers); otherwise the wall clock.
type stageClock struct {
	times *StageTimes
	cpu   bool
	t0    time.Duration
}

// wallBase is the origin of the wall readings of stageClock.
var wallBase = time.Now()

func (c *stageClock) now() time.Duration {
	if c.cpu {
		if d, ok := cputime.Thread(); ok {
			return d
		}
	}
	return time.Since(wallBase)
}

func (c *stageClock) start() {
	if c.times != nil {
		c.t0 = c.now()
	}
}

// lap charges the time since the last start or lap to stage st.
func (c *stageClock) lap(st Stage) {
	if c.times != nil {
		now := c.now()
		c.times[st] += now - c.t0
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

// BuildOptions tune BuildLevel and BuildSolo. The zero value builds on
// every CPU, with no progress report, no stages kept and the default size
// limits. No option but SpansOnly changes the tiles built.
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
	// SpansOnly stops every tile after steps 1-3: no step 5, no Mesh, no
	// counts (for a caller that runs step 5 itself, as the tile cache does).
	SpansOnly bool
	// Limits bound the build's tiles, columns and estimated memory
	// (EstimateBuild, checked before anything proportional to the level
	// is allocated); zero fields mean the defaults (DefaultMaxTiles,
	// DefaultMaxColumns, DefaultMaxBytes).
	Limits BuildLimits
	// OffMeshLinks are the level's off-mesh links (each valid, its start
	// inside the level's tiles): each tile gets those that start in it
	// (TileGrid.OffMeshLinksIn) and keeps the ones it holds the start of
	// (navmesh.TileParams.OffMeshLinks).
	OffMeshLinks []navmesh.OffMeshLink
	// Take, when not nil, is called with every tile that has something
	// walkable as soon as it is built (steps 1-3 and, unless SpansOnly,
	// step 5), on the goroutine that built it: concurrently for different
	// tiles, never twice for one. It may keep what it needs of the tile
	// and clear what it does not want the Build to hold (Spans,
	// ErodedAreas, Stages, Regions, and the layers' Contours, Mesh and
	// Detail: the build reads only the layers' Layer, Data, ContentID and
	// Built afterwards, and the tile's counts), so that a caller keeping
	// the tiles in another form does not hold the whole level twice. When
	// it clears Spans it must not keep that heightfield's Cells or Spans
	// (it may keep its Areas): the worker builds its next tile's compact
	// heightfield into their memory. An error fails the build as a tile's
	// failure does.
	Take func(r *TileBuild) error
}

// TileBuild is the plain build of one tile.
type TileBuild struct {
	// TX and TZ are the tile's coordinates in the Build's Grid.
	TX, TZ int
	// Spans is the tile's compact heightfield after steps 1-3
	// (BuildTileSpans' result, byte for byte).
	Spans *voxel.CompactHeightfield
	// ErodedAreas are the areas after erosion, before the build-time
	// volumes and obstacles (one per span of Spans; the same slice as
	// Spans.Areas when the settings have neither): the walkability the
	// layer-first split is decided on (BuildTileMesh's eroded).
	ErodedAreas []uint8
	// WalkableSpans is Spans.WalkableSpanCount(): the walkable open spans of
	// the whole build grid, border ring included.
	WalkableSpans int
	// Stages holds the intermediate results; nil unless
	// BuildOptions.KeepStages.
	Stages *TileStages
	// Times are the durations of the tile's stages.
	Times StageTimes
	// Regions holds the step-5 region id of every span of Spans: the
	// partition's result on the general path, the ids region.Layers gives
	// on the layer-first path (TileMesh.Regions).
	Regions *region.Result
	// Layers lists the navmesh tiles made at this position, in ascending
	// layer order (TileMesh.Layers): on the general path one entry with
	// Layer 0 when the tile has polygons.
	Layers []LayerBuild
	// LayerFirst reports whether the tile was built one layer at a time.
	LayerFirst bool
	// Counts are the tile's step-5 counts.
	Counts MeshCounts
}

// Build is the plain build of a whole level: the tiles of its TileGrid that
// have something walkable, in row-major order (tz, then tx), and the navmesh
// of their tiles. Its content (everything but the durations) depends only on
// the settings and the source, never on the number of workers or on timing.
//
// The embedded MeshCounts sum the tiles' counts (Layers: the most layers of
// one tile).
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
	// Solo reports a BuildSolo build: one tile, the whole level, no border.
	Solo bool
	// Mesh holds every tile's navmesh tiles (TileBuild.Layers' Data), added
	// in row-major tile order and ascending layer order, so stitched the
	// same way whatever the number of workers. Nil with
	// BuildOptions.SpansOnly.
	Mesh *navmesh.Mesh
	MeshCounts
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
	if s.Obstacles != nil {
		c.Obstacles = append([]voxel.Obstacle(nil), s.Obstacles...)
	}
	return c
}

// BuildLevel is the plain tiled build of a level (docs/build.md): every
// tile of src's TileGrid runs steps 1-3 (BuildTileSpans) and, when it has a
// walkable span, step 5 (BuildTileMesh at TileGrid.Place), on opt.Workers
// goroutines each with its own Scratch; the tiles are gathered in row-major
// order and their navmesh tiles added to Build.Mesh in that order, layers
// ascending. The result is the same for any number of workers (compare
// Mesh.MarshalBinary).
//
// The settings are validated and copied first (s may change once
// BuildLevel has returned), and the build's size is checked against
// opt.Limits (EstimateBuild: a *LimitError, before anything proportional
// to the level is allocated). Cancelling ctx stops the build: workers finish
// the tile in hand and take no other, and BuildLevel returns an error
// wrapping ctx.Err(). When tiles fail, the error of the first failing tile
// in row-major order is returned, naming the tile. On error there is no
// Build.
func BuildLevel(ctx context.Context, s *NavSettings, src *Source, opt BuildOptions) (*Build, error) {
	_, grid, err := estimateTiled(s, src, opt)
	if err != nil {
		return nil, err
	}
	for i, l := range opt.OffMeshLinks {
		if _, _, err := grid.TileAt(l.StartM); err != nil {
			return nil, fmt.Errorf("pipeline: BuildLevel: BuildOptions.OffMeshLinks[%d] (user id %d) start: %w", i, l.UserID, err)
		}
	}
	b := &Build{Settings: cloneSettings(s), Grid: grid}
	set := &b.Settings
	links := slices.Clone(opt.OffMeshLinks)
	job := func(i int, scratch *Scratch, r *TileBuild, keep *TileStages) (*voxel.CompactHeightfield, TilePlace, error) {
		tx, tz := i%grid.TilesX, i/grid.TilesX
		r.TX, r.TZ = tx, tz
		g, err := grid.BuildGrid(tx, tz)
		if err != nil {
			return nil, TilePlace{}, err
		}
		at, err := grid.Place(tx, tz)
		if err != nil {
			return nil, TilePlace{}, err
		}
		at.OffMeshLinks = grid.OffMeshLinksIn(links, tx, tz)
		gx0, gz0 := grid.BuildGridCellOffset(tx, tz)
		chf, err := tileSpans(set, src, g, gx0, gz0, scratch, &r.Times, keep, &r.ErodedAreas)
		return chf, at, err
	}
	if err := b.run(ctx, opt, grid.TileCount(), job); err != nil {
		return nil, err
	}
	return b, nil
}

// tileJob runs steps 1-3 of tile i of a build: it sets r.TX, r.TZ and
// r.ErodedAreas, charges r.Times, fills keep when not nil, and returns the
// compact heightfield and the tile's place.
type tileJob func(i int, scratch *Scratch, r *TileBuild, keep *TileStages) (*voxel.CompactHeightfield, TilePlace, error)

// run builds the total tiles of b with job and step 5 on opt.Workers
// goroutines, gathers them in index order, fills the Mesh and the counts
// (BuildLevel's contract).
func (b *Build) run(ctx context.Context, opt BuildOptions, total int, job tileJob) error {
	if ctx == nil {
		ctx = context.Background()
	}
	set := &b.Settings
	b.BuiltTiles = total
	workers := opt.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, total))
	b.Workers = workers
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("pipeline: build cancelled before it started: %w", err)
	}

	start := time.Now()
	results := make([]TileBuild, total)
	spans := make([]int, total) // open spans of each tile (before Take)
	errs := make([]error, total)
	var next atomic.Int64     // the next tile index to take
	var stop atomic.Bool      // set on cancellation or the first error
	var finished atomic.Int64 // tiles built (successfully or not)
	// Only a progress report needs to hear of every tile: without one the
	// workers never wake this goroutine, which would take a core from them
	// (and, the workers being locked to their threads, a thread switch).
	var done chan int
	if opt.Progress != nil {
		done = make(chan int, total)
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Locked to its thread, the worker can time its stages in
			// thread CPU time (stageClock), unaffected by other load.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var scratch Scratch
			_, scratch.threadClock = cputime.Thread()
			for !stop.Load() {
				if ctx.Err() != nil {
					stop.Store(true)
					return
				}
				i := int(next.Add(1) - 1)
				if i >= total {
					return
				}
				r := &results[i]
				if err := buildTile(set, opt, i, &scratch, r, &spans[i], job); err != nil {
					errs[i] = fmt.Errorf("pipeline: tile (%d, %d): %w", r.TX, r.TZ, err)
					stop.Store(true)
				}
				finished.Add(1)
				if done != nil {
					done <- i
				}
			}
		}()
	}
	if done != nil {
		go func() {
			wg.Wait()
			close(done)
		}()
		reported := 0
		for range done {
			reported++
			if !stop.Load() {
				opt.Progress(reported, total)
			}
		}
	}
	wg.Wait()
	// Every worker has returned: results and errs are complete for every
	// tile taken.
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	if n := int(finished.Load()); n < total {
		err := ctx.Err()
		if err == nil {
			err = context.Canceled
		}
		return fmt.Errorf("pipeline: build cancelled after %d of %d tiles: %w", n, total, err)
	}
	if !opt.SpansOnly {
		b.Mesh = navmesh.NewMesh()
	}
	runtime.LockOSThread() // for the link stage's thread clock
	defer runtime.UnlockOSThread()
	_, cpuClock := cputime.Thread()
	for i := range results {
		r := &results[i]
		if r.WalkableSpans == 0 {
			b.StageTotals.add(&r.Times)
			continue
		}
		if b.Mesh != nil {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("pipeline: build cancelled while linking tiles: %w", err)
			}
			clock := stageClock{times: &r.Times, cpu: cpuClock}
			clock.start()
			for li := range r.Layers {
				if _, err := b.Mesh.AddBuilt(r.Layers[li].Built); err != nil {
					return fmt.Errorf("pipeline: tile (%d, %d) layer %d: %w", r.TX, r.TZ, r.Layers[li].Layer, err)
				}
			}
			clock.lap(StageLink)
			if r.Stages != nil {
				r.Stages.Times = r.Times
			}
		}
		b.StageTotals.add(&r.Times)
		b.Tiles = append(b.Tiles, *r)
		b.SpanCount += spans[i]
		b.WalkableSpans += r.WalkableSpans
		b.MeshCounts.add(&r.Counts)
	}
	b.Wall = time.Since(start)
	return nil
}

// buildTile runs steps 1-3 (job) and, unless opt.SpansOnly or nothing is
// walkable, step 5 of tile i into r, sets *spans to its open spans and
// hands a tile with something walkable to opt.Take.
func buildTile(set *NavSettings, opt BuildOptions, i int, scratch *Scratch, r *TileBuild, spans *int, job tileJob) error {
	var keep *TileStages
	if opt.KeepStages {
		keep = &TileStages{}
	}
	chf, at, err := job(i, scratch, r, keep)
	if err != nil {
		return err
	}
	r.WalkableSpans = chf.WalkableSpanCount()
	if r.WalkableSpans == 0 {
		// Nothing to build: the tile is left out of Build.Tiles, so its
		// heightfield and stages are let go now, not when the build ends
		// (a level with large empty parts then costs its walkable tiles).
		r.ErodedAreas = nil
		scratch.spare = chf
		return nil
	}
	r.Spans = chf
	if !opt.SpansOnly {
		// job has just made chf with scratch: scratch.graph is its span graph.
		tm, err := buildTileMesh(set, at, chf, r.ErodedAreas, nil, scratch, &stageClock{times: &r.Times, cpu: scratch.threadClock}, false, scratch.graph)
		if err != nil {
			return err
		}
		r.Regions, r.Layers, r.LayerFirst, r.Counts = tm.Regions, tm.Layers, tm.LayerFirst, tm.Counts
	}
	if keep != nil {
		keep.Times = r.Times
		r.Stages = keep
	}
	*spans = chf.SpanCount()
	if opt.Take == nil {
		return nil
	}
	if err := opt.Take(r); err != nil {
		return err
	}
	if r.Spans == nil {
		// Let go by Take: the worker's next tile reuses its cells and
		// spans (Take keeps at most its Areas).
		scratch.spare = chf
	}
	return nil
}
