// Package pipeline holds the build settings (NavSettings, with validation and
// the derived voxel values), the tiling of a level (TileGrid: tile to build
// grid and back), the build's input (Source: a triangle soup or a solid
// heightfield), the per-tile stages and the plain build of a level
// (docs/build.md).
//
// BuildTileSpans runs steps 1-3 of a tile (rasterization, filters,
// compaction, erosion, build-time area volumes and obstacles; docs/spans.md)
// and BuildTileMesh step 5 (regions, contours, polygons, detail, navmesh
// tile data; on the layer-first path of build3d-runtime.md one height layer
// at a time with BuildLayerMesh). They are the entry points both the plain
// build and the tile cache call; BuildTileSpansStages also returns the
// intermediate results (TileStages) for inspection.
//
// BuildLevel is the plain build of a whole level: every tile on several
// goroutines, gathered in row-major order, its navmesh tiles added to a
// navmesh.Mesh in that order (the same bytes for any number of workers),
// with a progress callback, cancellation by context, per-stage timings and
// counts. BuildSolo builds the whole level as one tile with no border, as
// Recast's solo mesh does.
//
// Units live in names: M metres, Deg degrees, Cells voxel cells (CellSizeM
// along x/z, CellHeightM along y).
//
// No method panics on a nil receiver: a nil *NavSettings fails Validate
// ("pipeline: nil NavSettings") and its derived values are 0 (LayerFirst
// false); a nil *TileGrid has no tiles (TileCount and TileSizeM 0,
// CheckTile, TileBoxM, BuildGrid, Place and TileAt errors); a nil *Source
// has no geometry (Bounds zero, Soup and Voxels nil, TileGrid an error); a
// nil *Build has no tiles and a nil *StageTimes totals 0.
package pipeline
