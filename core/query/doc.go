// Package query answers questions about a navmesh.Mesh, as Detour's
// dtNavMeshQuery does (docs/query.md): the nearest polygon to a point
// (NearestPoly: the polygon the point stands over first), the cheapest
// corridor of polygons between two polygons for a stated cost model
// (FindPath, also sliced: PathSearch), the straight path through a
// corridor (StraightPath, StraightPathDetailed), whether a straight walk
// stays on the mesh (Raycast), moving along the surface, walls and the
// distance to them, polygons around a circle or in a box, random points,
// polygon heights and closest points.
//
// Positions are metres; costs are metres scaled by the per-area cost of a
// Filter, whose flags follow Detour's rule (IncludeFlags 0 passes none).
// Every function only reads the mesh, returns an error naming the
// offending value (a stale PolyRef, a non-finite point, a broken corridor)
// and never panics on user input. Results depend only on the mesh and the
// arguments (and the seed of a random query): ties are broken by PolyRef,
// never by map order or timing.
package query
