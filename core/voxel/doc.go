// Package voxel implements steps 1-3 of a tile build (docs/spans.md, the
// project's build3d-spans.md): the solid heightfield and triangle
// rasterization, the span filters, the compact (open-span) heightfield with its
// neighbour links, erosion by the agent radius, and build-time convex area
// volumes; plus a deterministic serialization and hash of the result.
//
// # Units
//
// Positions are metres in float32 (names ending in M). Grid coordinates are
// cells: x and z count columns of CellSizeM metres from the grid origin, rows
// (y) count CellHeightM metres from the origin's y. Names ending in Cells or
// Row are voxel units.
//
// # Area ids
//
// Every span carries an area id in 0..63:
//
//   - 0 (AreaNull): not walkable. Filters and erosion set spans to 0; a
//     volume with area 0 makes spans unwalkable.
//   - 63 (AreaWalkable): the default walkable area, what a walkable triangle
//     of a soup carries unless its source said otherwise.
//   - 1..62: user areas (water, grass, door, ...), carried from a triangle's
//     area id or set by a ConvexVolume. Where two solid spans merge, the
//     higher id wins (see Heightfield.AddSpan), so a higher id has priority.
//
// Ids above 63 are rejected wherever they enter (triangles, spans, volumes).
//
// # Directions
//
// Neighbour direction d in 0..3 means the column offset (-1,0), (0,+1),
// (+1,0), (0,-1) in (x, z): −x, +z, +x, −z, as in Recast (DirOffsetX,
// DirOffsetZ).
//
// # Determinism
//
// Every result is a function of the inputs only: float32 storage, no fused
// multiply-add (a product feeding a sum is converted explicitly), no map
// iteration, no goroutines. Scratch buffers may be reused between calls and
// never change a result.
//
// No method panics on a nil receiver (nor on a zero value): a nil
// heightfield, grid, obstacle or volume fails Validate and every method
// that changes it, and reads as empty (counts 0, no spans, zero bounds,
// ContainsXZ false). The inner-loop accessors whose docs state an index
// precondition (Grid.InBorder, CellCenterM, RowHeightM,
// CompactHeightfield.Neighbour) are not checked, as a slice index is not.
package voxel
