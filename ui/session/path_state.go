package session

import (
	"fmt"

	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/render"
)

// The Path tool: a path between two picked points that follows every swap.
//
// Ctrl+left-click sets the start, Ctrl+right-click or Alt+left-click the
// end (plain left stays select/pick/tools, right-drag orbit, middle or
// shift+left pan). A point is where the camera ray meets the navmesh the
// path uses (else the level). Whenever the points or that navmesh change
// (a cache swap, a new build), the path is found again (Path.Sync:
// the nearest polygon to each point within scenario.PathHalfExtentsM, the
// corridor and the straight path). The navmesh is the tile cache's when
// there is one, else the plain build's. The "path" overlay shows it; the
// Path window its figures (panel_path.go). The gestures are the Game's
// (tool_path.go); the points and the path are the session's (Path).

// pathState is the part of App about the Path tool.
type pathState struct {
	// Path is the points and the path between them.
	Path Path

	// pathBuilt holds the Path.Gen the "path" overlay was built for.
	pathBuilt map[string]uint64
	pathVis   map[string]bool
}

// PathMesh returns the navmesh the path uses: the live one (liveMesh,
// the cache's when there is a cache, else the plain build's; nil when
// there is neither).
func (a *App) PathMesh() *navmesh.Mesh {
	m, _ := a.liveMesh()
	return m
}

// SetPathPoint sets the start (end false) or the end of the path to p,
// metres.
func (a *App) SetPathPoint(end bool, p geom.Vec3) { a.Path.SetPoint(end, p, a.soup) }

// ClearPath forgets both points and the path.
func (a *App) ClearPath() {
	a.Path.Clear()
	a.SyncPath()
}

// PickPathPoint sets the start (end false) or the end of the path to the
// point under pixel (xPx, yPx) of a wPx x hPx view: on the path's navmesh
// (render.PickPoly, not through level geometry), else on the level. It
// returns the status line, or an error when nothing is under the cursor.
func (a *App) PickPathPoint(end bool, xPx, yPx float64, wPx, hPx int) (string, error) {
	o, d := a.Camera.Ray(xPx, yPx, wPx, hPx)
	p, ok := geom.Vec3{}, false
	if m := a.PathMesh(); m != nil {
		maxT := 0.0
		if t, hit := render.PickLevel(a.soup, o, d); hit {
			maxT = t + pickOcclusionSlackM
		}
		if h, hit := render.PickPoly(m, o, d, maxT); hit {
			p, ok = h.Pos, true
		}
	}
	if !ok {
		p, ok = a.WorldPoint(xPx, yPx, wPx, hPx)
	}
	if !ok {
		return "", fmt.Errorf("ui: path: nothing under the cursor")
	}
	a.SetPathPoint(end, p)
	a.SyncPath()
	what := "start"
	if end {
		what = "end"
	}
	return fmt.Sprintf("path %s at (%.2f, %.2f, %.2f)", what, p.X, p.Y, p.Z), nil
}

// SyncPath finds the path again when its points or its navmesh changed
// (Path.Sync), and keeps the "path" overlay up to date.
func (a *App) SyncPath() {
	m := a.PathMesh()
	a.Path.Sync(m, a.soup)
	if a.scene == nil {
		return
	}
	if a.pathBuilt == nil {
		a.pathBuilt = map[string]uint64{}
		a.pathVis = map[string]bool{render.OverlayPath: true}
	}
	syncOverlay(a, render.OverlayPath, a.pathVis, a.pathBuilt, a.Path.Gen(), func() *render.Overlay {
		if r := a.Path.Result(); r.Points != nil {
			return render.PathOverlay(m, r.Corridor, r.Points)
		}
		var s, e *geom.Vec3
		if p, ok := a.Path.Start(); ok {
			s = &p
		}
		if p, ok := a.Path.End(); ok {
			e = &p
		}
		return render.PathMarkersOverlay(s, e)
	})
}

// PathPanelOpen reports whether the Path window is shown: while a point is
// set.
func (a *App) PathPanelOpen() bool { return a.Path.Open() }
