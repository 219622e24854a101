// Package pipeline holds the build settings (NavSettings, with validation and
// the derived voxel values), the tiling of a level (TileGrid: tile to build
// grid and back), the build's input (Source: a triangle soup or a solid
// heightfield) and the per-tile stages. BuildTileSpans runs steps 1-3 of a
// tile (rasterization, filters, compaction, erosion, build-time area volumes;
// docs/spans.md) and is the one entry point both the plain tiled build and
// the tile cache call; BuildTileSpansStages also returns the intermediate
// results (TileStages) for inspection. BuildLevel is the plain build of a
// whole level: every tile on several goroutines, gathered in row-major order
// (the same bytes for any number of workers), with a progress callback,
// cancellation by context and per-stage timings.
//
// Units live in names: M metres, Deg degrees, Cells voxel cells (CellSizeM
// along x/z, CellHeightM along y).
package pipeline
