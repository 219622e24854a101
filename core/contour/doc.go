// Package contour traces the outline of every region of a partitioned
// compact heightfield and simplifies it (Recast's rcBuildContours): raw
// contours follow span edges, corner heights come from the links,
// simplification keeps region and area changes and splits edges over the max
// error and max length; degenerate segments are removed and holes joined to
// their outline. Loops are ordered by their smallest edge key (span index × 4
// + direction) so a later repair can reproduce them. The normative
// description is docs/contours.md.
//
// # Building blocks
//
// Build is made of exported steps that the tile cache's repair reuses on a
// part of a layer, so that a repaired layer equals a from-scratch build:
//
//  1. EdgeFlags marks, per span, which of its four edges are region
//     boundaries;
//  2. TraceLoop walks ONE loop from a given (span, direction) edge, clearing
//     the flags of the edges it visits;
//  3. RotateLoop makes a loop start at its smallest edge key;
//  4. SimplifyLoop simplifies one raw loop (max error, max edge length,
//     degenerate segments);
//  5. JoinLoops orders loops by smallest edge key, joins each region's holes
//     to its outline and returns the contours.
//
// Set.EdgeOwners maps every edge key to the loop holding it.
//
// BuildLayer, LayerEdgeFlags and TraceLayerLoop are Build, EdgeFlags and
// TraceLoop on one height layer (region.LayerView): the same code reading
// the layer's own links, so another layer is a wall (docs/contours.md §12).
//
// Build scans the edges in edge-key order (span index, then direction) and
// starts a trace at every edge still flagged. A loop's first edge is then its
// smallest edge key, so RotateLoop changes nothing in Build, and the loops
// come out in the order JoinLoops sorts them.
//
// # Coordinates
//
// Vertices are in cells of the compact heightfield's build grid, border
// INCLUDED (unlike Recast, which subtracts the border): X and Z run
// 0..Width and 0..Height, Y is a floor row. The tile's own cells lie
// between the lines Border and Width-Border (Height-Border along z); Set
// carries the grid geometry to convert.
//
// # Determinism
//
// Everything is integer arithmetic except the point-to-segment distance of
// the simplification, which is float32 as in Recast with every product
// rounded before it is summed (no fused multiply-add). No map is iterated;
// sorts are stable with explicit tie-breaks. A Set is a function of its
// inputs only.
//
// No method panics on a nil receiver: a nil Loop has no keys (MinKey -1,
// area 0, not a hole), a nil Set owns no edge, and a nil RepairBase reads
// as empty (nil view and set, Owner -1) and fails Repair.
package contour

import "navviz/core/region"

// Vertex flags carried in Vertex.Flags (with the neighbour region id in the
// low 16 bits, as Recast packs them).
const (
	// BorderVertex marks a vertex on the tile border (Recast RC_BORDER_VERTEX):
	// around its corner two cells of one border region are followed by two
	// cells inside the tile of one area (see docs/contours.md). The polygon
	// stage removes such vertices.
	BorderVertex uint32 = 0x10000
	// AreaBorder marks an edge between spans of different areas
	// (RC_AREA_BORDER).
	AreaBorder uint32 = 0x20000
	// RegionMask extracts the neighbour region id from Flags (0 for a wall,
	// region.BorderFlag set for the tile border).
	RegionMask uint32 = 0xffff
)

// BuildFlags select optional behaviour of the simplification.
type BuildFlags uint8

const (
	// TessWallEdges splits wall edges (no neighbour region) longer than the
	// max edge length (Recast RC_CONTOUR_TESS_WALL_EDGES).
	TessWallEdges BuildFlags = 1 << iota
	// TessAreaEdges splits edges between areas longer than the max edge
	// length (RC_CONTOUR_TESS_AREA_EDGES).
	TessAreaEdges

	// DefaultBuildFlags is Recast's default: TessWallEdges.
	DefaultBuildFlags = TessWallEdges
	// allBuildFlags is every defined flag.
	allBuildFlags = TessWallEdges | TessAreaEdges
)

// Limits of the inputs.
const (
	// MaxSpans is the largest span count Build accepts: every edge key
	// (span × 4 + direction) fits an int32.
	MaxSpans = 1 << 29
	// MaxEdgeLenCells is the largest max edge length accepted, in cells.
	MaxEdgeLenCells = 1 << 24
	// MaxErrorCells is the largest simplification error accepted, in cells.
	MaxErrorCells = 1 << 20
)

// Vertex is a contour vertex in grid units of the tile's build grid: X and Z
// in cells (0..Width, border included), Y in rows, Flags the neighbour
// region of the edge that starts at the vertex plus BorderVertex /
// AreaBorder.
//
// A raw vertex (Loop.Raw, Contour.RawVerts) is the corner at the end of the
// span edge that emitted it (the walk keeps the region on its left, seen
// from above), and its Flags describe that edge: the
// neighbour region across it, AreaBorder if the neighbour's area differs,
// BorderVertex from the corner test. A simplified vertex (Loop.Simplified,
// Contour.Verts) takes the neighbour region and AreaBorder of the raw edge
// that starts at it and BorderVertex of its own corner, as Recast does.
type Vertex struct {
	X, Y, Z int32
	Flags   uint32
}

// Loop is one traced boundary loop of a region: an outline (counter-clockwise
// seen from above, +y) or a hole (clockwise).
type Loop struct {
	// Raw holds one vertex per boundary edge, in walk order.
	Raw []Vertex
	// Keys[k] is the edge key (span index × 4 + direction) of the span edge
	// whose visit emitted Raw[k]; Raw[k] is the corner at the end of that
	// edge. After RotateLoop, Keys[0] is the loop's smallest key.
	Keys []int32
	// Simplified is the simplified loop after degenerate-segment removal
	// (fewer than 3 vertices: the loop makes no contour).
	Simplified []Vertex
	// Region is the loop's region id, Area the area of the span whose edge
	// started the trace (a region has one area in every partition).
	Region uint16
	Area   uint8
}

// Contour is the simplified outline of one region (holes already joined).
type Contour struct {
	// Verts is the simplified outline, counter-clockwise seen from above
	// (+y), each hole spliced in after a bridge to the outline (the two
	// bridge vertices repeated). Exception, as in Recast: a hole whose
	// region has no outline, or for which no bridge was found, stays a
	// contour of its own (clockwise).
	Verts []Vertex
	// RawVerts is the raw loop of the outline (the holes' raw loops are in
	// Set.Loops).
	RawVerts []Vertex
	Region   uint16
	Area     uint8
	// Loops lists the indices in Set.Loops of the loops the contour is made
	// of: its outline first, then the holes joined into it, in join order.
	Loops []int32
}

// Set is every contour of a tile, ordered by the smallest edge key of their
// first loop. A Set is read-only: contours share memory with their loops.
type Set struct {
	Contours []Contour
	// Loops holds every traced loop ordered by smallest edge key, also
	// those with fewer than 3 simplified vertices (which make no contour).
	Loops []Loop
	// Grid geometry copied from the compact heightfield: origin and cell
	// sizes (metres), width/height (cells, border included), border (cells).
	OriginX, OriginY, OriginZ float32
	CellSizeM, CellHeightM    float32
	Width, Height, Border     int
	// MaxErrorCells, MaxEdgeLenCells and Flags are the simplification
	// parameters the set was built with (a repair simplifies new loops with
	// them).
	MaxErrorCells   float32
	MaxEdgeLenCells int
	Flags           BuildFlags

	mem *setMem // the memory of a set Build or BuildLayer made (Recycle)
}

// borderFlag is region.BorderFlag widened for Flags arithmetic.
const borderFlag = uint32(region.BorderFlag)
