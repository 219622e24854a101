package tilecache

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"navviz/core/level"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
	"navviz/core/region"
	"navviz/core/voxel"
)

// DefaultLayerTiles is the number of tiles whose height layers and repair
// bases a cache keeps when Options.LayerTiles is 0: more than the tiles a
// city cycle rebuilds (25).
const DefaultLayerTiles = 32

// ObstacleID names an obstacle added to a Cache. Ids start at 1, grow by one
// with every AddObstacle and are never reused; 0 is never an id.
type ObstacleID uint32

// VolumeID names an area volume added to a Cache. Volumes are numbered apart
// from obstacles: ids start at 1, grow by one with every AddVolume and are
// never reused; 0 is never an id.
type VolumeID uint32

// Options tune the first build of a cache and its rebuilds. The zero value
// builds on every CPU with no progress report, repairs layers and has no
// trace. No option changes the result.
type Options struct {
	// Workers is the number of goroutines building tiles, in the first
	// build and in every Update (docs/tilecache.md §7); 0 means
	// runtime.GOMAXPROCS(0) at Build. Negative values are an error.
	Workers int
	// Progress, when not nil, is called as pipeline.BuildOptions.Progress
	// is, with the number of tiles whose steps 1-3 are done.
	Progress func(doneTiles, totalTiles int)
	// DisableRepair turns the layer repair off (build3d-runtime.md,
	// "Repairing a layer"): every changed layer is then built from
	// scratch. The meshes are the same either way; it is there to compare
	// (Cache.SetRepair changes it later).
	DisableRepair bool
	// Trace, when not nil, sees every layer a layer-first rebuild builds
	// (Cache.SetTrace changes it later).
	Trace Trace
	// LayerTiles is the number of tiles whose height layers and repair
	// bases (made on a tile's first layer-first rebuild) are kept between
	// rebuilds, those rebuilt last; another tile's are dropped and made
	// again when it is next rebuilt (docs/tilecache.md §2). 0 means
	// DefaultLayerTiles; negative values are an error. It changes no
	// result, only memory and time.
	LayerTiles int
	// Limits bound the size of the first build (pipeline.BuildLimits;
	// zero fields: the defaults). A level over them is refused with a
	// *pipeline.LimitError before anything proportional to it is
	// allocated.
	Limits pipeline.BuildLimits
}

// Cache is a tile cache: the navmesh of a level, the cached step-3 result of
// every tile that has something walkable, the run-time obstacles and area
// volumes, and the queue of tiles to rebuild. Build one with Build (or
// BuildSoup, BuildChunk, BuildHeightfield). A Cache is not safe for
// concurrent use.
type Cache struct {
	settings pipeline.NavSettings // deep copy, fixed
	src      *pipeline.Source
	grid     *pipeline.TileGrid
	growM    float64 // obstacle growth g, metres
	fp       uint64  // fingerprint of geometry and settings

	firstBytes int64 // the first build's tile data, bytes (MaxSnapshotBytes)

	mesh  *navmesh.Mesh
	tiles []*tile // by tile index tz*TilesX+tx; nil: never built
	order []int32 // the cached tiles' indices, ascending (row-major)

	obstacles    []obstacleEntry // in the order added
	volumes      []volumeEntry   // in the order added
	nextObstacle ObstacleID
	nextVolume   VolumeID
	links        []navmesh.OffMeshLink // off-mesh links, by ascending id (UserID)
	nextLink     OffMeshLinkID

	queue  []int32 // tile indices, front first
	queued []bool  // by tile index

	repairOff bool  // Options.DisableRepair, SetRepair
	trace     Trace // Options.Trace, SetTrace

	// failBuild, set by tests only, is asked before every step-5 build of
	// Update (layer -1: the whole tile on the general path) and fails it
	// when it returns an error. Nil (always, outside tests) costs one
	// comparison per build. It is called on Update's worker goroutines,
	// for one tile on one goroutine.
	failBuild func(tx, tz, layer int) error

	times     *UpdateTimes      // SetUpdateTimes; nil: no clock is read
	layerCap  int               // Options.LayerTiles (DefaultLayerTiles for 0)
	layered   []int32           // the tiles holding layers, least recently rebuilt first
	workers   int               // Options.Workers (GOMAXPROCS for 0), at least 1
	scratch   []*buildScratch   // one per Update worker, made on need
	freeAreas [][]uint8         // spare area buffers (takeAreas, putAreas)
	freeKeys  [][]layerKey      // spare layer key slices (takeKeys, putKeys)
	freeMu    sync.Mutex        // guards freeAreas: Update's workers take buffers too
	buildIdx  []int32           // buildPlans' list of the plans to build
	plans     []plan            // Update's plans, reused (cleared after each call but their layer lists' memory)
	swapMem   [][]Swap          // during UpdateInto: the swap slices of the result's old tiles
	held      []held            // swap's list of the tiles held, reused
	refs      []navmesh.TileRef // swap's list of the mesh's tiles at a position, reused
}

// tile is the cache of one tile (build3d-runtime.md, "What is cached").
type tile struct {
	tx, tz int
	// spans is the step-3 compact heightfield, packed (about 4 bytes a
	// span and 1 a column; docs/tilecache.md §2); its Areas are the first
	// build's areas. Never changed after the build: marking reads it as
	// it is, and a rebuild that needs the span graph unpacks it into the
	// worker's scratch (buildScratch.chf).
	spans *voxel.PackedHeightfield
	// eroded holds the areas after erosion, before the pipeline's volumes
	// and obstacles (the same slice as spans.Areas when it has none): the
	// walkability the layer-first split is decided on.
	eroded []uint8
	// first is the first build's tile data, by ascending layer.
	first []layerData
	// last holds the areas the mesh's tiles at this position were last
	// built from, valid when hasLast; lastIsFirst says they are spans.Areas
	// (last is then nil, to save the copy).
	last        []uint8
	hasLast     bool
	lastIsFirst bool
	// lastDirty is a range of spans outside which last equals spans.Areas
	// (valid with last).
	lastDirty voxel.SpanRange
	// On the layer-first path (NavSettings.LayerFirst): the tile's height
	// layers (made on first need; fixed, since they are split on eroded),
	// and per layer the areas and tile data the mesh's tile was last built
	// from (valid when hasLast and not lastIsFirst).
	layers     *tileLayers
	lastLayers []layerKey
}

// tileLayers are the height layers of a tile on the layer-first path: the
// views region.SplitLayers gives on the eroded areas, and per view the
// first build's areas and tile data.
type tileLayers struct {
	views []region.LayerView
	first []layerKey
	// repair holds per view what its repair keeps of the first build,
	// made on the layer's first rebuild (nil until then; repair.go).
	repair []*layerRepair
	// spanLayer holds per span of the tile's heightfield the view holding
	// it (noLayer: none), so that a rebuild gathers the areas of the
	// layers whose spans changed only (changedLayers).
	spanLayer []uint8
}

// noLayer is tileLayers.spanLayer of a span in no view.
const noLayer = 0xff

// layerKey is what a layer of a tile was built from, its areas (one per
// span of its view), and what it gave (nil data: no polygons). A layer
// with equal areas gives the same tile data.
type layerKey struct {
	areas []uint8
	// built is the layer's tile (nil: the layer has no polygon); its
	// layerData is layerDataOf(the view's layer, built).
	built *navmesh.BuiltTile
	// owned says that areas is a buffer planLayers took for this key
	// alone (not the first build's areas), given back (putKeys) once no
	// key holds it.
	owned bool
}

// layerData is the tile data of one layer: built's data (shared with the
// mesh while the mesh holds it) and its decoded tile, so that a swap needs
// no decoding.
type layerData struct {
	layer uint8
	data  []byte // built.Data()
	id    uint64 // navmesh.ContentID(data)
	built *navmesh.BuiltTile
}

// layerDataOf returns the layerData of layer l built as b.
func layerDataOf(l int, b *navmesh.BuiltTile) layerData {
	return layerData{layer: uint8(l), data: b.Data(), id: b.ContentID(), built: b}
}

type obstacleEntry struct {
	id ObstacleID
	o  voxel.Obstacle // normalized, valid
	// minX, minZ, maxX, maxZ is the x/z box of the footprint grown by the
	// agent radius (voxel.Obstacle.GrownBoundsXZ).
	minX, minZ, maxX, maxZ float64
}

type volumeEntry struct {
	id                     VolumeID
	v                      voxel.ConvexVolume // own copy, valid
	minX, minZ, maxX, maxZ float64            // the polygon's x/z box
}

// Build builds the navmesh of src under settings s with a cache: the mesh is
// exactly pipeline's plain build of the same settings and source (the same
// tiles in the same slots), and every tile with something walkable after
// steps 1-3 is cached. The settings are validated and copied (s may change
// afterwards; s.Obstacles are baked into the cached tiles), and the
// level's size is checked against opt.Limits first (a
// *pipeline.LimitError). Cancelling ctx stops the build with an error
// wrapping ctx.Err(). On error there is no cache.
func Build(ctx context.Context, s *pipeline.NavSettings, src *pipeline.Source, opt Options) (*Cache, error) {
	if s == nil {
		return nil, fmt.Errorf("tilecache: nil settings")
	}
	if src == nil {
		return nil, fmt.Errorf("tilecache: nil source")
	}
	if opt.Workers < 0 {
		return nil, fmt.Errorf("tilecache: Options.Workers = %d, want >= 0", opt.Workers)
	}
	if opt.LayerTiles < 0 {
		return nil, fmt.Errorf("tilecache: Options.LayerTiles = %d, want >= 0", opt.LayerTiles)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	c := &Cache{settings: cloneSettings(s), src: src, nextObstacle: 1, nextVolume: 1, nextLink: 1, repairOff: opt.DisableRepair, trace: opt.Trace}
	set := &c.settings
	grid, err := src.TileGrid(set)
	if err != nil {
		return nil, err
	}
	c.grid = grid
	c.layerCap = opt.LayerTiles
	if c.layerCap == 0 {
		c.layerCap = DefaultLayerTiles
	}
	c.workers = opt.Workers
	if c.workers == 0 {
		c.workers = runtime.GOMAXPROCS(0)
	}
	c.growM = voxel.ObstacleGrowthM(set.WalkableRadiusCells(), set.CellSizeM)
	if err := c.firstBuild(ctx, opt); err != nil {
		return nil, err
	}
	c.queued = make([]bool, grid.TileCount())
	c.fp = fingerprint(set, src)
	return c, nil
}

// BuildSoup is Build for a triangle soup (the spec's BuildSoupCached): every
// triangle is tested against every tile.
func BuildSoup(ctx context.Context, s *pipeline.NavSettings, soup *level.Soup, opt Options) (*Cache, error) {
	src, err := pipeline.NewSoupSource(soup, nil)
	if err != nil {
		return nil, err
	}
	return Build(ctx, s, src, opt)
}

// BuildChunk is Build for a triangle soup with its chunky mesh (the spec's
// BuildChunkCached): each tile rasterizes the triangles the chunky mesh
// lists for it. The result equals BuildSoup's.
func BuildChunk(ctx context.Context, s *pipeline.NavSettings, soup *level.Soup, chunky *level.Chunky, opt Options) (*Cache, error) {
	if chunky == nil {
		return nil, fmt.Errorf("tilecache: nil chunky mesh")
	}
	src, err := pipeline.NewSoupSource(soup, chunky)
	if err != nil {
		return nil, err
	}
	return Build(ctx, s, src, opt)
}

// BuildHeightfield is Build for a solid heightfield given directly (voxel
// input; the spec's BuildHeightfieldCached), see pipeline.NewVoxelSource.
func BuildHeightfield(ctx context.Context, s *pipeline.NavSettings, hf *voxel.Heightfield, opt Options) (*Cache, error) {
	src, err := pipeline.NewVoxelSource(hf)
	if err != nil {
		return nil, err
	}
	return Build(ctx, s, src, opt)
}

// cloneSettings returns a copy of s that shares no memory with it, its
// obstacles normalized.
func cloneSettings(s *pipeline.NavSettings) pipeline.NavSettings {
	c := *s
	c.Volumes = nil
	for _, v := range s.Volumes {
		v.VertsXZ = slices.Clone(v.VertsXZ)
		c.Volumes = append(c.Volumes, v)
	}
	c.Obstacles = nil
	for _, o := range s.Obstacles {
		c.Obstacles = append(c.Obstacles, o.Normalized())
	}
	return c
}

// Mesh returns the cache's navmesh. Query it and edit polygon flags and
// areas freely between calls; never add, replace or remove its tiles (the
// cache does that). Every swap is visible at once: the mesh object stays
// the same for the life of the cache.
//
// A tile the cache rebuilt is recycled once an Update replaced or removed
// it and the cache holds it no more (navmesh.BuiltTile.Recycle; a
// Mesh.Clone keeps every tile it holds intact): a *navmesh.Tile or a
// BuiltTile got from the mesh (Mesh.Tile, Mesh.Built) is valid until the
// Update that replaces or removes that tile. Copy what you keep longer
// (Mesh.TileData returns a copy), or read a Mesh.Clone.
func (c *Cache) Mesh() *navmesh.Mesh {
	if c == nil {
		return nil
	}
	return c.mesh
}

// Settings returns a copy of the settings the cache was built with.
func (c *Cache) Settings() pipeline.NavSettings {
	if c == nil {
		return pipeline.NavSettings{}
	}
	return cloneSettings(&c.settings)
}

// Grid returns a copy of the level's tiling (the zero TileGrid for a Cache
// not made by Build).
func (c *Cache) Grid() pipeline.TileGrid {
	if c == nil || c.grid == nil {
		return pipeline.TileGrid{}
	}
	return *c.grid
}

// errNotBuilt is the error of the methods of a Cache not made by Build (the
// zero Cache).
var errNotBuilt = errors.New("tilecache: the Cache was not made by Build (use Build, BuildSoup, BuildChunk or BuildHeightfield)")

// check returns errNotBuilt for a Cache not made by Build.
func (c *Cache) check() error {
	if c == nil || c.mesh == nil || c.grid == nil || len(c.queued) != c.grid.TileCount() {
		return errNotBuilt
	}
	return nil
}

// Source returns the source the cache was built from (read-only).
func (c *Cache) Source() *pipeline.Source {
	if c == nil {
		return nil
	}
	return c.src
}

// Fingerprint returns the xxhash64 that identifies the geometry and the
// settings the cache was built from (docs/snapshot.md, "Fingerprint"). A
// snapshot restores only into a cache with the same fingerprint.
func (c *Cache) Fingerprint() uint64 {
	if c == nil {
		return 0
	}
	return c.fp
}

// ObstacleGrowthM returns the growth g of the obstacles: WalkableRadiusCells
// times CellSizeM, metres.
func (c *Cache) ObstacleGrowthM() float64 {
	if c == nil {
		return 0
	}
	return c.growM
}

// CachedTiles returns the cached tiles (those with something walkable after
// steps 1-3) in row-major order, as (tx, tz) pairs.
func (c *Cache) CachedTiles() [][2]int {
	if c == nil {
		return nil
	}
	out := make([][2]int, len(c.order))
	for i, ti := range c.order {
		t := c.tiles[ti]
		out[i] = [2]int{t.tx, t.tz}
	}
	return out
}

// IsCached reports whether tile (tx, tz) is cached.
func (c *Cache) IsCached(tx, tz int) bool { return c.tileAt(tx, tz) != nil }

// TileSpans returns the step-3 compact heightfield of tile (tx, tz) (its
// Areas are the first build's), false when the tile is not cached. The
// cache keeps it packed: each call unpacks it into new memory, the
// caller's to keep or change.
func (c *Cache) TileSpans(tx, tz int) (*voxel.CompactHeightfield, bool) {
	t := c.tileAt(tx, tz)
	if t == nil {
		return nil, false
	}
	chf := t.spans.Unpack(nil)
	chf.Areas = slices.Clone(chf.Areas)
	return chf, true
}

// FirstBuildTileData returns the first build's tile data of tile (tx, tz),
// one entry per layer by ascending layer (copies), and false when the tile
// is not cached.
func (c *Cache) FirstBuildTileData(tx, tz int) ([][]byte, bool) {
	t := c.tileAt(tx, tz)
	if t == nil {
		return nil, false
	}
	out := make([][]byte, len(t.first))
	for i := range t.first {
		out[i] = slices.Clone(t.first[i].data)
	}
	return out, true
}

func (c *Cache) tileAt(tx, tz int) *tile {
	if c == nil || c.grid == nil || c.grid.CheckTile(tx, tz) != nil {
		return nil
	}
	return c.tiles[tz*c.grid.TilesX+tx]
}
