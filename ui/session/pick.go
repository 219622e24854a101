package session

import (
	"fmt"

	"navviz/core/navmesh"
	"navviz/render"
)

// pickOcclusionSlackM is how far behind the first level triangle under the
// cursor (along the ray, metres) a polygon may lie and still be picked:
// polygons float up to a detail error above the surface they cover, but
// one hidden by a wall or a roof is not picked through it.
const pickOcclusionSlackM = 0.5

// meshSource says which navmesh a polygon reference is of.
type meshSource uint8

const (
	meshNone  meshSource = iota
	MeshBuild            // the plain build's (Build panel)
	MeshCache            // the tile cache's live navmesh
)

// String names the source as the Inspector shows it.
func (s meshSource) String() string {
	switch s {
	case MeshBuild:
		return "plain build"
	case MeshCache:
		return "live cache"
	}
	return "no navmesh"
}

// pickState is the part of App about the picked polygon.
type pickState struct {
	// picked is the picked polygon (0: none) of the navmesh pickedFrom
	// says.
	picked     navmesh.PolyRef
	pickedFrom meshSource
	// pickedInfo describes it (valid when picked is not 0).
	pickedInfo render.PolyInfo
}

// Picked returns the picked polygon (0: none) of the navmesh PickedFrom
// says.
func (a *App) Picked() navmesh.PolyRef { return a.picked }

// PickedFrom returns which navmesh the picked polygon is of.
func (a *App) PickedFrom() meshSource { return a.pickedFrom }

// PickedInfo returns what describes the picked polygon (valid when Picked
// is not 0).
func (a *App) PickedInfo() render.PolyInfo { return a.pickedInfo }

// ClearPick forgets the picked polygon (its reference is stale once the
// build or the level changes).
func (a *App) ClearPick() {
	a.picked, a.pickedFrom = 0, meshNone
	a.pickedInfo = render.PolyInfo{}
}

// NavMesh returns the navmesh of the current build (nil before a build).
func (a *App) NavMesh() *navmesh.Mesh {
	if a.build == nil {
		return nil
	}
	return render.BuildMesh(a.build)
}

// liveMesh returns the navmesh a click picks from and the path runs on:
// the tile cache's when there is a cache, else the plain build's (nil and
// meshNone when there is neither).
func (a *App) liveMesh() (*navmesh.Mesh, meshSource) {
	if v := a.CacheView(); v.Has {
		return v.Mesh, MeshCache // the worker's latest view (cache_worker.go)
	}
	if m := a.NavMesh(); m != nil {
		return m, MeshBuild
	}
	return nil, meshNone
}

// meshOf returns the current navmesh of source s (nil when it has none).
func (a *App) meshOf(s meshSource) *navmesh.Mesh {
	switch {
	case s == MeshCache && a.CacheView().Has:
		return a.CacheView().Mesh
	case s == MeshBuild:
		return a.NavMesh()
	}
	return nil
}

// PickPoly picks the polygon under the pixel (xPx, yPx) of a wPx x hPx
// view in the live navmesh (liveMesh: the tile cache's when there is one):
// the first polygon the camera ray meets (render.PickPoly), unless a level
// triangle lies more than pickOcclusionSlackM in front of it. On a hit the
// polygon becomes Picked (with PickedFrom and PickedInfo) and its tile
// (in that navmesh's grid) Selected. Without a navmesh, or on a miss, it
// returns an error and changes nothing.
func (a *App) PickPoly(xPx, yPx float64, wPx, hPx int) (navmesh.PolyRef, error) {
	m, from := a.liveMesh()
	if m == nil {
		return 0, fmt.Errorf("ui: no navmesh to pick from: build the level or its tile cache first")
	}
	o, d := a.Camera.Ray(xPx, yPx, wPx, hPx)
	maxT := 0.0
	if t, ok := render.PickLevel(a.soup, o, d); ok {
		maxT = t + pickOcclusionSlackM
	}
	hit, ok := render.PickPoly(m, o, d, maxT)
	if !ok {
		return 0, fmt.Errorf("ui: no navmesh polygon under the cursor")
	}
	info, err := render.DescribePoly(m, hit.Ref)
	if err != nil {
		return 0, fmt.Errorf("ui: picked polygon: %w", err)
	}
	g, err := a.tileGrid()
	if from == MeshCache {
		g, err = a.cacheGrid(), nil
	}
	if err == nil && g.CheckTile(int(info.TileX), int(info.TileZ)) == nil {
		a.selected = TileRef{int(info.TileX), int(info.TileZ), true}
	}
	a.picked, a.pickedFrom, a.pickedInfo = hit.Ref, from, info
	return hit.Ref, nil
}

// Click handles a plain left click at (xPx, yPx) of a wPx x hPx view:
// with a navmesh, the polygon under the cursor is picked and its tile
// selected; otherwise (no navmesh, or no polygon there) the tile under the
// cursor is selected and the pick cleared. It returns the status line.
func (a *App) Click(xPx, yPx float64, wPx, hPx int) string {
	if m, _ := a.liveMesh(); m != nil {
		if ref, err := a.PickPoly(xPx, yPx, wPx, hPx); err == nil {
			p := &a.pickedInfo
			return fmt.Sprintf("picked polygon %d (ref %#x) of tile (%d, %d) layer %d of the %s", p.Index, uint64(ref), p.TileX, p.TileZ, p.Layer, a.pickedFrom)
		}
	}
	t, err := a.PickTile(xPx, yPx, wPx, hPx)
	if err != nil {
		return err.Error()
	}
	a.ClearPick()
	return fmt.Sprintf("selected tile (%d, %d)", t.X, t.Z)
}

// InspectorLines are the Inspector's lines: which navmesh the polygon was
// picked from (and whether it is still in it: a tile-cache swap replaces
// its tile), then render.PolyInfo.Lines.
func (a *App) InspectorLines() []string {
	from := "Picked from the " + a.pickedFrom.String()
	switch a.pickedFrom {
	case MeshCache:
		from += " (the tile cache's navmesh, cache-polys)"
	case MeshBuild:
		from += " (the Build panel's navmesh, polys)"
	}
	lines := []string{from}
	if m := a.meshOf(a.pickedFrom); m == nil || !m.IsValidRef(a.picked) {
		lines = append(lines, "Gone: its tile was rebuilt or its navmesh replaced; click again.")
	}
	return append(lines, a.pickedInfo.Lines()...)
}

// navMeshCounts are the figures of a navmesh the Build panel shows.
type navMeshCounts struct {
	Tiles, MaxLayers, Polys, Verts, DetailTris int
}

// CountNavMesh counts the tiles, the most layers at one tile position,
// the polygons, the vertices and the detail triangles of m (zero for nil).
func CountNavMesh(m *navmesh.Mesh) navMeshCounts {
	var c navMeshCounts
	if m == nil {
		return c
	}
	for _, ref := range m.Tiles() {
		t, err := m.Tile(ref)
		if err != nil {
			continue
		}
		c.Tiles++
		c.MaxLayers = max(c.MaxLayers, int(t.Header.Layer)+1)
		c.Polys += len(t.Polys)
		c.Verts += len(t.Verts)
		c.DetailTris += len(t.DetailTris)
	}
	return c
}
