package scenario

import (
	"errors"

	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/core/query"
)

// PathHalfExtentsM is the box, metres, around each path point in which
// the nearest polygon is looked for (Detour's demo uses 2, 4, 2; navviz's
// Path tool too).
var PathHalfExtentsM = geom.V3(2, 4, 2)

// Path is a path search's result.
type Path struct {
	// Corridor are the polygons (query.FindPath), Points the straight
	// path's corners (query.StraightPath); both nil when there is no path.
	Corridor []navmesh.PolyRef
	Points   []geom.Vec3
	// LengthM is the straight path's length, metres.
	LengthM float64
	// Partial reports a corridor that stops short of the end (the end is
	// unreachable): the path then heads for the point of the last polygon
	// nearest to the end.
	Partial bool
	// Err says why there is no path ("" when there is one).
	Err string
}

// FindPath finds the path from start to end on m: the nearest polygon to
// each point within PathHalfExtentsM (query.NearestPoly), the corridor
// (query.FindPath) and the straight path (query.StraightPath). It only
// reads m.
func FindPath(m *navmesh.Mesh, start, end geom.Vec3) Path {
	if m == nil {
		return Path{Err: "no navmesh"}
	}
	sr, sp, err := query.NearestPoly(m, start, PathHalfExtentsM)
	if err != nil {
		return Path{Err: "start: " + err.Error()}
	}
	er, ep, err := query.NearestPoly(m, end, PathHalfExtentsM)
	if err != nil {
		return Path{Err: "end: " + err.Error()}
	}
	corridor, err := query.FindPath(m, sr, er, sp, ep, nil)
	partial := errors.Is(err, query.ErrPartial)
	if err != nil && !partial {
		return Path{Err: err.Error()}
	}
	target := ep
	if partial {
		if target, err = query.ClosestPointOnPoly(m, corridor[len(corridor)-1], ep); err != nil {
			return Path{Err: err.Error()}
		}
	}
	pts, err := query.StraightPath(m, sp, target, corridor)
	if err != nil {
		return Path{Err: err.Error()}
	}
	return Path{Corridor: corridor, Points: pts, LengthM: query.PathLength(pts), Partial: partial}
}
