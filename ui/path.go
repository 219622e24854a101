package ui

import (
	"fmt"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/navmesh"
	"navviz/render"
	"navviz/scenario"
)

// The Path tool: a path between two picked points that follows every swap.
//
// Ctrl+left-click sets the start, Ctrl+right-click or Alt+left-click the
// end (plain left stays select/pick/tools, right-drag orbit, middle or
// shift+left pan). A point is where the camera ray meets the navmesh the
// path uses (else the level). Whenever the points or that navmesh change
// (a cache swap, a new build), the path is found again: the nearest
// polygon to each point (query.NearestPoly within scenario.PathHalfExtentsM), the
// corridor (query.FindPath) and the straight path (query.StraightPath).
// The navmesh is the tile cache's when there is one, else the plain
// build's. The "path" overlay shows it; the Path window its figures
// (panel_path.go). The gestures are the Game's (tool_path.go); this file is
// the App's part: the points and the path.

// pathKey is what a path result depends on.
type pathKey struct {
	mesh             *navmesh.Mesh
	tiles            uint64 // pathMeshSig of mesh
	soup             *level.Soup
	start, end       geom.Vec3
	hasStart, hasEnd bool
}

// pathState is the part of App about the Path tool.
type pathState struct {
	// PathStart and PathEnd are the picked points, metres (valid when
	// HasPathStart, HasPathEnd).
	PathStart, PathEnd       geom.Vec3
	HasPathStart, HasPathEnd bool
	// PathCorridor and PathPoints are the last result: the polygons and the
	// straight path's corners (nil when there is none).
	PathCorridor []navmesh.PolyRef
	PathPoints   []geom.Vec3
	// PathLengthM is the straight path's length, metres.
	PathLengthM float64
	// PathPartial reports a corridor that stops short of the end (the end
	// is unreachable).
	PathPartial bool
	// PathErr says why there is no path ("" when there is one or no
	// points).
	PathErr string
	// PathSearches counts the path searches run (one per change).
	PathSearches int

	pathSoup  *level.Soup // the level the points were picked on
	pathKey   pathKey
	pathBuilt map[string]pathKey
	pathVis   map[string]bool
}

// pathMesh returns the navmesh the path uses: the live one (liveMesh,
// the cache's when there is a cache, else the plain build's; nil when
// there is neither).
func (a *App) pathMesh() *navmesh.Mesh {
	m, _ := a.liveMesh()
	return m
}

// pathMeshSig returns a signature of m's tiles: their references (a swap
// changes a tile's generation, an addition or a removal the list).
func pathMeshSig(m *navmesh.Mesh) uint64 {
	if m == nil {
		return 0
	}
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	for _, r := range m.Tiles() {
		h = (h ^ uint64(r)) * prime
	}
	return (h ^ uint64(m.TileCount())) * prime
}

// SetPathPoint sets the start (end false) or the end of the path to p,
// metres.
func (a *App) SetPathPoint(end bool, p geom.Vec3) {
	if a.pathSoup != a.Soup {
		a.HasPathStart, a.HasPathEnd = false, false
	}
	a.pathSoup = a.Soup
	if end {
		a.PathEnd, a.HasPathEnd = p, true
	} else {
		a.PathStart, a.HasPathStart = p, true
	}
}

// ClearPath forgets both points and the path.
func (a *App) ClearPath() {
	a.HasPathStart, a.HasPathEnd = false, false
	a.syncPath()
}

// PickPathPoint sets the start (end false) or the end of the path to the
// point under pixel (xPx, yPx) of a wPx x hPx view: on the path's navmesh
// (render.PickPoly, not through level geometry), else on the level. It
// returns the status line, or an error when nothing is under the cursor.
func (a *App) PickPathPoint(end bool, xPx, yPx float64, wPx, hPx int) (string, error) {
	o, d := a.Camera.Ray(xPx, yPx, wPx, hPx)
	p, ok := geom.Vec3{}, false
	if m := a.pathMesh(); m != nil {
		maxT := 0.0
		if t, hit := render.PickLevel(a.Soup, o, d); hit {
			maxT = t + pickOcclusionSlackM
		}
		if h, hit := render.PickPoly(m, o, d, maxT); hit {
			p, ok = h.Pos, true
		}
	}
	if !ok {
		p, ok = a.worldPoint(xPx, yPx, wPx, hPx)
	}
	if !ok {
		return "", fmt.Errorf("ui: path: nothing under the cursor")
	}
	a.SetPathPoint(end, p)
	a.syncPath()
	what := "start"
	if end {
		what = "end"
	}
	return fmt.Sprintf("path %s at (%.2f, %.2f, %.2f)", what, p.X, p.Y, p.Z), nil
}

// syncPath finds the path again when its points or its navmesh changed,
// and keeps the "path" overlay up to date.
func (a *App) syncPath() {
	if a.pathSoup != a.Soup {
		a.HasPathStart, a.HasPathEnd = false, false
		a.pathSoup = a.Soup
	}
	m := a.pathMesh()
	k := pathKey{mesh: m, tiles: pathMeshSig(m), soup: a.Soup,
		start: a.PathStart, end: a.PathEnd, hasStart: a.HasPathStart, hasEnd: a.HasPathEnd}
	if !k.hasStart {
		k.start = geom.Vec3{}
	}
	if !k.hasEnd {
		k.end = geom.Vec3{}
	}
	if k != a.pathKey || a.pathBuilt == nil {
		a.pathKey = k
		a.findPath(m)
	}
	if a.Scene == nil {
		return
	}
	if a.pathBuilt == nil {
		a.pathBuilt = map[string]pathKey{}
		a.pathVis = map[string]bool{render.OverlayPath: true}
	}
	syncOverlay(a, render.OverlayPath, a.pathVis, a.pathBuilt, k, func() *render.Overlay {
		if a.PathPoints != nil {
			return render.PathOverlay(m, a.PathCorridor, a.PathPoints)
		}
		var s, e *geom.Vec3
		if a.HasPathStart {
			s = &a.PathStart
		}
		if a.HasPathEnd {
			e = &a.PathEnd
		}
		return render.PathMarkersOverlay(s, e)
	})
}

// findPath runs the path search on m for the current points
// (scenario.FindPath, the search navmesh scenario runs too).
func (a *App) findPath(m *navmesh.Mesh) {
	a.PathCorridor, a.PathPoints, a.PathLengthM, a.PathPartial, a.PathErr = nil, nil, 0, false, ""
	if !a.HasPathStart || !a.HasPathEnd {
		return
	}
	if m == nil {
		a.PathErr = "no navmesh: build the level or the cache"
		return
	}
	a.PathSearches++
	p := scenario.FindPath(m, a.PathStart, a.PathEnd)
	a.PathCorridor, a.PathPoints, a.PathLengthM, a.PathPartial, a.PathErr = p.Corridor, p.Points, p.LengthM, p.Partial, p.Err
}

// pathPanelOpen reports whether the Path window is shown: while a point is
// set.
func (a *App) pathPanelOpen() bool { return a.HasPathStart || a.HasPathEnd }
