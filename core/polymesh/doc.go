// Package polymesh turns contours into convex polygons (Recast's
// rcBuildPolyMesh: ear-clipping triangulation, merging into polygons of up to
// VertsPerPoly vertices, vertex welding, removal of tile-border vertices,
// neighbour and portal edges) and builds the detail mesh
// (rcBuildPolyMeshDetail). The normative description is docs/polys.md.
//
// # Coordinates
//
// A Mesh is in grid units of the tile's own cells (the build grid with the
// border removed): vertex x and z count cells from the tile's min corner, y
// counts rows from the grid's origin. Its stored float32 positions (what a
// tile of the navmesh holds) come from its CoordMap, and polygons are convex
// both in cells and in those float32 positions (see CoordMap and
// docs/polys.md, "Orientation tests").
//
// # Determinism
//
// Every result is a function of the inputs only: no map iteration, no
// goroutines, float32 arithmetic with every product that feeds a sum rounded
// by an explicit conversion (no fused multiply-add on any platform).
//
// No method panics on a nil receiver: a nil Mesh has no polygons
// (PolyCount and ExactOrientCalls 0) and a nil CoordMap fails Validate and
// spans 0 cells; the inner-loop accessors whose docs state an index
// precondition (Mesh.Poly, Neighbours, PolyVertCount, VertM, CoordMap.Pos,
// OrientCells, OrientStored) are not checked, as a slice index is not.
package polymesh

import "navviz/core/geom"

// NullIndex marks an unused vertex slot of a polygon or a missing neighbour.
const NullIndex uint16 = 0xffff

// PortalFlag marks a neighbour slot whose edge lies on the tile border
// (Recast's 0x8000 | side): the slot holds PortalFlag|side with side 0..3
// (0: x = 0, 1: z = HeightCells, 2: x = WidthCells, 3: z = 0; Recast's order).
const PortalFlag uint16 = 0x8000

// MultipleRegions is the region id of a polygon made, when a border vertex
// was removed, from pieces of polygons of different regions (Recast's
// RC_MULTIPLE_REGS). The detail stage samples such a polygon's heights from
// its centre instead of from its region.
const MultipleRegions uint16 = 0

// Limits of Build.
const (
	// MinVertsPerPoly and MaxVertsPerPoly bound the nvp argument of Build.
	MinVertsPerPoly = 3
	MaxVertsPerPoly = 6
	// MaxVerts bounds the vertices of all contours of a set together (and so
	// the mesh's vertices): Recast's 0xfffe.
	MaxVerts = 0xfffe
)

// Mesh is the polygon mesh of a tile, in grid units of the tile's build grid
// with the border removed (vertex x/z in cells from OriginM, y in rows).
type Mesh struct {
	Verts [][3]uint16 // x, y, z in cells/rows
	// Polys holds NVP vertex indices then NVP neighbour entries per polygon
	// (NullIndex-padded). A neighbour entry is a polygon index, NullIndex, or
	// PortalFlag|side for a tile-border edge.
	Polys []uint16
	Regs  []uint16 // region id per polygon (MultipleRegions: several)
	Areas []uint8  // area id per polygon
	Flags []uint16 // user flags per polygon (all zero after Build)
	NVP   int      // max vertices per polygon
	// Geometry: min corner of the tile's own cells (border removed), metres:
	// Map.Pos(0, 0, 0).
	OriginM     geom.Vec3
	CellSizeM   float32
	CellHeightM float32
	// BorderCells is the border of the build grid the contours came from.
	BorderCells int
	// MaxEdgeErrorCells is the contour simplification error (the detail
	// stage's height search radius is derived from it).
	MaxEdgeErrorCells float32
	// WidthCells and HeightCells are the tile's own extent in cells (the
	// contour set's Width and Height minus twice the border); vertices lie
	// in [0, WidthCells] x [0, HeightCells].
	WidthCells, HeightCells int
	// Map gives the stored float32 position of a vertex (VertM); the
	// polygons are convex in those positions.
	Map CoordMap
	// BadContours lists the indices (in the contour set) of contours whose
	// triangulation failed part way; their triangles found so far are kept,
	// as Recast does.
	BadContours []int
	// SliverTriangles counts the triangles Build did not store because
	// they are not strictly convex in cells or in the stored positions: a
	// triangulation's last triangle or one found by the loose rule (see
	// docs/polys.md, "Triangulation"). 0 on ordinary levels.
	SliverTriangles int

	exactCalls int  // exact orientation predicate calls made by Build
	recycled   bool // given to Recycle, not taken by Build yet
}

// ExactOrientCalls returns how many orientation tests of Build fell below
// the orientation bound and called the exact predicate (a diagnostic: 0
// whenever the bound is 1; it depends on how often Build evaluates a test,
// not only on the result).
func (m *Mesh) ExactOrientCalls() int {
	if m == nil {
		return 0
	}
	return m.exactCalls
}

// PolyCount returns the number of polygons.
func (m *Mesh) PolyCount() int {
	if m == nil || m.NVP == 0 {
		return 0
	}
	return len(m.Polys) / (2 * m.NVP)
}

// Poly returns the NVP vertex slots of polygon i (NullIndex-padded); the
// slice aliases m.Polys.
func (m *Mesh) Poly(i int) []uint16 {
	return m.Polys[i*2*m.NVP : i*2*m.NVP+m.NVP]
}

// Neighbours returns the NVP neighbour slots of polygon i (slot j belongs to
// the edge from vertex j to vertex j+1); the slice aliases m.Polys.
func (m *Mesh) Neighbours(i int) []uint16 {
	return m.Polys[i*2*m.NVP+m.NVP : (i+1)*2*m.NVP]
}

// PolyVertCount returns the number of vertices of polygon i.
func (m *Mesh) PolyVertCount(i int) int {
	return countPolyVerts(m.Poly(i))
}

// VertM returns the stored float32 position of vertex i, metres:
// m.Map.Pos of its cell coordinates.
func (m *Mesh) VertM(i int) geom.Vec3 {
	v := m.Verts[i]
	return m.Map.Pos(v[0], v[1], v[2])
}

// Detail is the detail mesh: per polygon a sub-mesh of triangles in world
// coordinates (metres), Recast's rcPolyMeshDetail.
type Detail struct {
	// Meshes holds per polygon: first vertex, vertex count, first triangle,
	// triangle count. The first vertices of a polygon's sub-mesh are the
	// polygon's own vertices, in order, at their stored positions (VertM).
	Meshes [][4]uint32
	Verts  []geom.Vec3
	// Tris holds three vertex indices local to the polygon's sub-mesh and a
	// flags byte: bit 2k set when edge k (vertex k to k+1 mod 3) lies on the
	// polygon's boundary (Recast's DT_DETAIL_EDGE_BOUNDARY << 2k).
	Tris [][4]uint8
}
