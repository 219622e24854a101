package pipeline

import (
	"fmt"
	"math"
	"runtime"

	"navviz/core/geom"
)

// Size limits of a whole-level build (docs/build.md, "Size limits"). A
// build allocates a slot per tile and keeps a compact heightfield per
// tile, so its memory grows with the level's area in cells and with the
// spans stacked in each column: a level 2,000 km wide, or a cell size of a
// millimetre, would need terabytes, a tower of 100 floors holds 100 spans
// a column. Every whole-level build (BuildLevel, BuildSolo, and through
// them the tile cache, the navmesh command and navviz) first estimates its
// size with EstimateBuild or EstimateSolo (constant memory; the span
// bounds in time linear in the triangles, spanbound.go), and refuses to
// start when the estimate exceeds BuildOptions.Limits.
//
// The limits live in BuildOptions, not NavSettings: they never change what
// is built, only whether a build may start, and the settings are part of
// a tile cache's fingerprint and of the Build panel's form.

// Default limits (BuildLimits' zero fields), sized for a desktop.
const (
	// DefaultMaxTiles is the default most tiles of a build: 2^20.
	DefaultMaxTiles = 1 << 20
	// DefaultMaxColumns is the default most build-grid columns of a build
	// (every tile's build grid, border ring included): 2^28, about 270
	// million (2 GiB at the estimate's 8 bytes a column, before any span):
	// it bounds the work of a level of mostly empty columns.
	DefaultMaxColumns = 1 << 28
	// DefaultMaxBytes is the default memory budget of a build: 4 GiB.
	DefaultMaxBytes = 4 << 30
)

// Calibration of the estimate. BuildEstimate.Bytes is
//
//	Columns·C + WalkableSpans·Sw [+ SolidSpans·Sk with KeepStages]
//	+ Tiles·1024 + min(workers, Tiles)·(ColumnsPerTile·C + ⌈SolidSpans/Tiles⌉·Ss)
//
// with C bytesPerColumn (the compact heightfield's cells; with KeepStages
// also the kept solid heightfield's column slices), Sw bytesPerWalkableSpan
// (a compact span, its areas, eroded areas and region ids and its share of
// the tile data and of the garbage the collector lets accumulate), Sk
// bytesPerSolidSpanKept (a kept solid span), bytesPerTile (the TileBuild
// slot and its copy in Build.Tiles, the error slot, the progress channel
// slot, the navmesh tile slot, a tile cache's per-tile state) and, per
// worker, one build grid of scratch memory with Ss bytesPerScratchSpan
// for each solid span of an average tile (the solid heightfield's pool,
// the span graph, the distances, step 5's contours and layers). The span
// counts are the bounds of spanbound.go, exact for stacked flat floors and
// above the build's spans for meshes of small triangles (a column on a
// shared edge counts once per triangle).
//
// Measured by TestEstimateCalibration (NAVVIZ_CALIBRATE_ESTIMATE=1: the
// most heap allocated, live and not yet collected, sampled every
// millisecond during BuildLevel keeping every tile, minus before), default
// settings, tile 64 (build grid 74 x 74); the towers are 50 x 50 m floors
// 3 m apart (2 m: too close for the 2 m agent, so the build drops them):
//
//	level           walkable / solid   peak B/column            estimate / peak
//	                bound per column   1 / 2 workers            1 / 2 workers
//	                                   (KeepStages: 1 / 2)      (KeepStages: 1 / 2)
//	city            1.55 / 2.52        27.9 / 31.1 (59 / 64)    1.8 / 1.7 (1.9 / 1.8)
//	terrain         1.46 / 1.48        23.8 / 27.7 (55 / 59)    2.0 / 1.8 (1.8 / 1.7)
//	nav_test        0.72 / 1.56        21.7 / 27.2 (57 / 61)    1.5 / 1.5 (1.5 / 1.5)
//	dungeon         0.51 / 1.37         9.3 / 14.7 (34 / 37)    3.0 / 2.3 (2.2 / 2.2)
//	20 floors       14.4 / 14.4         440 / 464  (507 / 600)  1.2 / 1.5 (1.6 / 1.6)
//	100 floors      71.8 / 71.8        2259 / 2406 (2354 / 3249) 1.2 / 1.4 (1.6 / 1.4)
//	100 floors 2 m  71.8 / 71.8         726 / 352  (1133 / 1331) 3.7 / 9.9 (3.4 / 3.5)
//
// The peaks vary by a fifth from run to run with the collector's timing.
// A tower of 100 floors 200 m wide (662596 columns, 59M spans) peaks at
// 804 MiB of heap on two workers against an estimate of 1.52 GiB (1.9x).
// The estimate is above every measured peak and, for stacked walkable
// floors, within twice it (TestEstimateStackedFloors checks the 20 floors).
// Floors the build drops as too low for the agent still count as
// walkable, and meshes of small triangles count their shared edges
// twice: the estimate is a guard against levels far too large, not an
// exact figure.
const (
	bytesPerColumn           = 8
	bytesPerColumnKeepStages = 32
	bytesPerWalkableSpan     = 26
	bytesPerSolidSpanKept    = 16
	bytesPerScratchSpan      = 100
	bytesPerTile             = 1024
)

// BuildLimits bound the size of a whole-level build. A zero field means
// its default (DefaultMaxTiles, DefaultMaxColumns, DefaultMaxBytes); a
// negative one is an error. To lift a limit, set it to math.MaxInt64 (or
// math.MaxInt).
type BuildLimits struct {
	// MaxTiles is the most tiles (TilesX * TilesZ).
	MaxTiles int
	// MaxColumns is the most build-grid columns over all tiles:
	// tiles * (TileSizeCells + 2*BorderCells)^2 (for a solo build the
	// solo grid's columns).
	MaxColumns int64
	// MaxBytes is the memory budget, bytes: the most BuildEstimate.Bytes.
	MaxBytes int64
}

// Effective returns l with every zero field replaced by its default.
func (l BuildLimits) Effective() BuildLimits {
	if l.MaxTiles == 0 {
		l.MaxTiles = DefaultMaxTiles
	}
	if l.MaxColumns == 0 {
		l.MaxColumns = DefaultMaxColumns
	}
	if l.MaxBytes == 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	return l
}

// Validate returns an error naming the first negative field.
func (l BuildLimits) Validate() error {
	switch {
	case l.MaxTiles < 0:
		return fmt.Errorf("pipeline: BuildLimits.MaxTiles = %d, want >= 0 (0: default %d)", l.MaxTiles, DefaultMaxTiles)
	case l.MaxColumns < 0:
		return fmt.Errorf("pipeline: BuildLimits.MaxColumns = %d, want >= 0 (0: default %d)", l.MaxColumns, DefaultMaxColumns)
	case l.MaxBytes < 0:
		return fmt.Errorf("pipeline: BuildLimits.MaxBytes = %d, want >= 0 (0: default %d)", l.MaxBytes, int64(DefaultMaxBytes))
	}
	return nil
}

// BuildEstimate is the size of a whole-level build, computed before it
// starts (EstimateBuild, EstimateSolo). Products saturate at
// math.MaxInt64.
type BuildEstimate struct {
	// Level is the source's name (Source.Name; may be empty).
	Level string
	// SizeM is the extent of the level's box, metres.
	SizeM geom.Vec3
	// Solo reports an estimate of BuildSolo (one tile, no border).
	Solo bool
	// TilesX and TilesZ are the tile grid's size.
	TilesX, TilesZ int
	// TileSizeCells is the side of a tile's own cells (for a solo build
	// the larger side of the solo grid).
	TileSizeCells int
	// Tiles is TilesX * TilesZ.
	Tiles int64
	// ColumnsPerTile is one tile's build grid: (TileSizeCells +
	// 2*BorderCells)^2, or the solo grid's Width * Height.
	ColumnsPerTile int64
	// Columns is Tiles * ColumnsPerTile.
	Columns int64
	// SolidSpans bounds the solid spans of every build grid (spanbound.go):
	// the columns each triangle covers, summed over the triangles and over
	// the build grids holding each column; for a voxel source its spans so
	// counted. WalkableSpans is the same sum over the triangles walkable
	// by slope (a voxel source: the spans with an area id), a bound of the
	// open spans the build keeps. Both are 0 when a limit refused the level
	// before they were counted.
	SolidSpans, WalkableSpans int64
	// Partial reports that the span count stopped once the estimate was
	// over MaxBytes: the spans and Bytes are then lower bounds of the full
	// figures.
	Partial bool
	// Bytes is the estimated peak memory of the build, bytes (see the
	// calibration in limits.go): Columns * 8 (32 with KeepStages) +
	// WalkableSpans * 26 (+ SolidSpans * 16 with KeepStages) + Tiles * 1024
	// + min(workers, Tiles) * (ColumnsPerTile * 8 (32) + ⌈SolidSpans /
	// Tiles⌉ * 100), workers being Workers or else GOMAXPROCS.
	Bytes int64
	// Limits are the limits checked (BuildOptions.Limits.Effective()).
	Limits BuildLimits
}

// String returns a one-line summary such as "100 tiles (10 x 10 of 64
// cells), 547600 columns, at most 561k spans (561k walkable), about 34.5
// MiB" ("at least" for the spans and bytes when Partial; no spans when
// they were not counted).
func (e BuildEstimate) String() string {
	grid := fmt.Sprintf("%d x %d of %d cells", e.TilesX, e.TilesZ, e.TileSizeCells)
	if e.Solo {
		grid = "solo"
	}
	spans, about := "", "about"
	if e.Partial {
		about = "at least"
	}
	if e.SolidSpans > 0 {
		bound := "at most"
		if e.Partial {
			bound = "at least"
		}
		spans = fmt.Sprintf(", %s %s spans (%s walkable)", bound, formatCount(e.SolidSpans), formatCount(e.WalkableSpans))
	}
	return fmt.Sprintf("%d tiles (%s), %d columns%s, %s %s", e.Tiles, grid, e.Columns, spans, about, FormatBytes(e.Bytes))
}

// formatCount formats n with a decimal unit: "930", "430k", "3.3M".
func formatCount(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 1e6:
		return fmt.Sprintf("%.3gk", float64(n)/1e3)
	case n < 1e9:
		return fmt.Sprintf("%.3gM", float64(n)/1e6)
	}
	return fmt.Sprintf("%.3gG", float64(n)/1e9)
}

// LimitError is the error of a build over a limit. It names the limit,
// and its Estimate the level, its size and counts.
type LimitError struct {
	Estimate BuildEstimate
	// Limit is the BuildLimits field exceeded: "MaxTiles", "MaxColumns" or
	// "MaxBytes".
	Limit string
	// Value is the estimate's figure for it, Max the limit.
	Value, Max int64
}

func (e *LimitError) Error() string {
	if e == nil {
		return "<nil>"
	}
	est := &e.Estimate
	name := "level"
	if est.Level != "" {
		name = fmt.Sprintf("level %q", est.Level)
	}
	what, limit := fmt.Sprint(e.Value), fmt.Sprint(e.Max)
	switch e.Limit {
	case "MaxTiles":
		what, limit = what+" tiles", limit+" tiles"
	case "MaxColumns":
		what, limit = what+" columns", limit+" columns"
	case "MaxBytes":
		what, limit = FormatBytes(e.Value), FormatBytes(e.Max)
	}
	over := fmt.Sprintf("%s is more than BuildLimits.%s = %s", what, e.Limit, limit)
	if est.Partial {
		over = fmt.Sprintf("the estimate passed BuildLimits.%s = %s before every span was counted", e.Limit, limit)
	}
	return fmt.Sprintf("pipeline: %s is %.6g x %.6g m (x by z): %s, over the limit: %s (raise the limit, or use a larger cell or tile size)",
		name, est.SizeM.X, est.SizeM.Z, est, over)
}

// FormatBytes formats n bytes with a binary unit: "512 B", "20.2 MiB",
// "3.5 TiB".
func FormatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v := float64(n)
	for _, u := range []string{"KiB", "MiB", "GiB", "TiB", "PiB"} {
		v /= unit
		if v < unit || u == "PiB" {
			return fmt.Sprintf("%.3g %s", v, u)
		}
	}
	return "" // not reached
}

// EstimateBuild returns the size of BuildLevel(ctx, s, src, opt) without
// building anything: the tile grid, the build-grid columns, the span
// bounds and the estimated peak bytes. It takes constant memory and, for
// the spans, time linear in the soup's triangles and the rows of cells
// they cover (a few milliseconds for city's 43k triangles; the source
// remembers the count for its grid, so asking again is constant time),
// and counts nothing when the tiles, columns or bytes without spans are
// already over a limit. It validates the
// arguments as BuildLevel does (the settings, opt.Workers and opt.Limits).
// When the estimate exceeds a limit of opt.Limits (zero fields: the
// defaults) the error is a *LimitError naming the level, its size, the
// counts and the limit, and the estimate is returned with it; any other
// error (invalid settings, a level too wide for the tile grid) comes with
// a zero estimate. BuildLevel, the tile cache and every navviz and navmesh
// build check it before anything proportional to the level is allocated.
func EstimateBuild(s *NavSettings, src *Source, opt BuildOptions) (BuildEstimate, error) {
	e, _, err := estimateTiled(s, src, opt)
	return e, err
}

// EstimateSolo is EstimateBuild for BuildSolo: one tile, the solo grid's
// columns.
func EstimateSolo(s *NavSettings, src *Source, opt BuildOptions) (BuildEstimate, error) {
	if err := checkBuildArgs(s, src, opt); err != nil {
		return BuildEstimate{}, err
	}
	g, err := soloGrid(s, src)
	if err != nil {
		return BuildEstimate{}, levelErr(src, err)
	}
	e := BuildEstimate{Solo: true, TilesX: 1, TilesZ: 1, TileSizeCells: max(g.Width, g.Height),
		ColumnsPerTile: int64(g.Width) * int64(g.Height)}
	return e, e.finish(src, opt, func(stop func(spanBounds) bool) (spanBounds, bool) { return src.soloSpans(s, &g, stop) })
}

// estimateTiled is EstimateBuild, also returning the tile grid.
func estimateTiled(s *NavSettings, src *Source, opt BuildOptions) (BuildEstimate, *TileGrid, error) {
	if err := checkBuildArgs(s, src, opt); err != nil {
		return BuildEstimate{}, nil, err
	}
	grid, err := src.TileGrid(s)
	if err != nil {
		return BuildEstimate{}, nil, levelErr(src, err)
	}
	side := int64(grid.TileSizeCells) + 2*int64(grid.BorderCells)
	e := BuildEstimate{TilesX: grid.TilesX, TilesZ: grid.TilesZ, TileSizeCells: grid.TileSizeCells,
		ColumnsPerTile: side * side}
	if err := e.finish(src, opt, func(stop func(spanBounds) bool) (spanBounds, bool) { return src.tiledSpans(s, grid, stop) }); err != nil {
		return e, nil, err
	}
	return e, grid, nil
}

// levelErr names src's level in err when it has a name.
func levelErr(src *Source, err error) error {
	if src.name == "" {
		return err
	}
	return fmt.Errorf("level %q: %w", src.name, err)
}

// checkBuildArgs validates the arguments of a whole-level build.
func checkBuildArgs(s *NavSettings, src *Source, opt BuildOptions) error {
	if s == nil {
		return fmt.Errorf("pipeline: nil settings")
	}
	if src == nil {
		return fmt.Errorf("pipeline: nil source")
	}
	if opt.Workers < 0 {
		return fmt.Errorf("pipeline: BuildOptions.Workers = %d, want >= 0", opt.Workers)
	}
	if err := opt.Limits.Validate(); err != nil {
		return err
	}
	for i, l := range opt.OffMeshLinks {
		if err := l.Validate(); err != nil {
			return fmt.Errorf("pipeline: BuildOptions.OffMeshLinks[%d] (user id %d): %w", i, l.UserID, err)
		}
	}
	return s.Validate()
}

// finish fills the totals of e (TilesX, TilesZ and ColumnsPerTile set)
// and checks them against opt's limits, tiles first, then bytes, then
// columns: the one check of every build.
func (e *BuildEstimate) finish(src *Source, opt BuildOptions, countSpans func(stop func(spanBounds) bool) (spanBounds, bool)) error {
	e.Level = src.name
	e.SizeM = src.bounds.Size()
	e.Limits = opt.Limits.Effective()
	e.Tiles = satMul(int64(e.TilesX), int64(e.TilesZ))
	e.Columns = satMul(e.Tiles, e.ColumnsPerTile)
	perColumn, perKept := int64(bytesPerColumn), int64(0)
	if opt.KeepStages {
		perColumn, perKept = bytesPerColumnKeepStages, bytesPerSolidSpanKept
	}
	workers := int64(opt.Workers)
	if workers == 0 {
		workers = int64(runtime.GOMAXPROCS(0))
	}
	workers = min(workers, e.Tiles)
	// The bytes without the spans first: a level refused by them, or by
	// the tiles or columns, is refused without reading its triangles.
	base := satAdd(satAdd(satMul(e.Columns, perColumn), satMul(e.Tiles, bytesPerTile)),
		satMul(workers, satMul(e.ColumnsPerTile, perColumn)))
	bytes := func(n spanBounds) int64 {
		perTile := n.Solid / e.Tiles // a worker's tile: the average, rounded up
		if n.Solid%e.Tiles != 0 {
			perTile++
		}
		b := satAdd(base, satMul(n.Walkable, bytesPerWalkableSpan))
		b = satAdd(b, satMul(n.Solid, perKept))
		return satAdd(b, satMul(workers, satMul(perTile, bytesPerScratchSpan)))
	}
	e.Bytes = base
	over := func(limit string, v, lim int64) error {
		return &LimitError{Estimate: *e, Limit: limit, Value: v, Max: lim}
	}
	switch {
	case e.Tiles > int64(e.Limits.MaxTiles):
		return over("MaxTiles", e.Tiles, int64(e.Limits.MaxTiles))
	case e.Bytes > e.Limits.MaxBytes:
		return over("MaxBytes", e.Bytes, e.Limits.MaxBytes)
	case e.Columns > e.Limits.MaxColumns:
		return over("MaxColumns", e.Columns, e.Limits.MaxColumns)
	}
	n, complete := countSpans(func(n spanBounds) bool { return bytes(n) > e.Limits.MaxBytes })
	e.SolidSpans, e.WalkableSpans, e.Partial = n.Solid, n.Walkable, !complete
	if e.Bytes = bytes(n); e.Bytes > e.Limits.MaxBytes {
		return over("MaxBytes", e.Bytes, e.Limits.MaxBytes)
	}
	return nil
}

// satMul returns a*b for a, b >= 0, saturating at math.MaxInt64.
func satMul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}

// satAdd returns a+b for a, b >= 0, saturating at math.MaxInt64.
func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
