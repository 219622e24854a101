// Package query answers questions about a navmesh.Mesh: the nearest
// polygon to a point (NearestPoly), a corridor of polygons between two
// polygons (FindPath, A* over the mesh's links, Detour's findPath costs)
// and the straight path through a corridor (StraightPath, string pulling
// through the corridor's portals, Detour's findStraightPath) and whether a
// straight walk between two points stays on the mesh (Raycast, Detour's
// raycast: the polygons crossed and the wall hit).
//
// Positions are metres; distances and costs are metres scaled by the
// per-area cost of a Filter. Every function only reads the mesh, returns
// an error naming the offending value (a stale PolyRef, a non-finite
// point, a broken corridor) and never panics on user input. Results depend
// only on the mesh and the arguments: ties are broken by PolyRef, never by
// map order or timing.
package query
