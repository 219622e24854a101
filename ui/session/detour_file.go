package session

import (
	"fmt"
	"math"
	"os"

	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/core/navmesh/detour"
	"navviz/core/pipeline"
	"navviz/render"
)

// Opening a Detour file as the level (Load chooses by content): a navmesh
// file (MSET, a bare DNAV tile, an .mmtile) becomes the plain build's mesh
// with no level geometry, so the mesh overlays draw it and the pick and
// path tools use it as they use a build's; a tile-cache file (TSET) is
// drawn by render.TSetOverlays. Neither can be built.

// detourState is what a loaded Detour file gave the session (zero for a
// level).
type detourState struct {
	dtFile  *detour.File
	dtCache *detour.TileCache
	// dtBounds are the bounds of what the file draws.
	dtBounds geom.Box3
}

// loadedMeshOverlays are the mesh overlays shown when a navmesh file is
// opened: polygons, detail, tile borders and links (portals).
var loadedMeshOverlays = []string{render.OverlayPolys, render.OverlayDetail, render.OverlayTiles, render.OverlayPortals}

// isDetourPath reports whether path is a regular file that starts as a
// Detour navmesh or tile-cache file.
func isDetourPath(path string) bool {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	return detour.IsDetourFile(path) || detour.IsTileCacheFile(path)
}

// DetourFile returns the Detour navmesh file loaded as the level (nil for
// a level or a tile cache).
func (a *App) DetourFile() *detour.File { return a.dtFile }

// DetourTileCache returns the tile-cache file loaded as the level (nil
// otherwise).
func (a *App) DetourTileCache() *detour.TileCache { return a.dtCache }

// NoGeometry returns why the current level cannot be built: "" for a
// level, else that it is a Detour file without level geometry.
func (a *App) NoGeometry() string {
	switch {
	case a.dtFile != nil:
		return fmt.Sprintf("nothing to build: %s is a Detour navmesh file, without level geometry (load an OBJ or glTF level to build)", a.levelName)
	case a.dtCache != nil:
		return fmt.Sprintf("nothing to build: %s is a Detour tile-cache file, without level geometry (load an OBJ or glTF level to build)", a.levelName)
	}
	return ""
}

// loadDetour loads the Detour file at path as the level; on failure
// nothing changes except Err.
func (a *App) loadDetour(path string) error {
	var (
		f   *detour.File
		tc  *detour.TileCache
		err error
	)
	if detour.IsTileCacheFile(path) {
		tc, err = detour.ReadTileCacheFile(path)
	} else {
		f, err = detour.ReadFile(path)
	}
	if err == nil && f != nil && f.Mesh.TileCount() == 0 {
		err = fmt.Errorf("%s: %v without a tile", path, f.Kind)
	}
	if err == nil && tc != nil && len(tc.Layers) == 0 {
		err = fmt.Errorf("%s: Detour tile-cache file without a layer", path)
	}
	if err != nil {
		return a.loadFailed(path, err)
	}
	a.levelName = path
	a.soup = nil
	a.levelChanged()
	sc := &render.Scene{}
	if f != nil {
		a.dtFile, a.dtBounds = f, meshBounds(f.Mesh)
		a.SetBuild(fileBuild(f, a.dtBounds, a.settings))
		for _, n := range loadedMeshOverlays {
			a.spanVis[n] = true
		}
		a.scope = ScopeAll // a mesh's overlays are cheap: every tile
		tiles, polys := 0, 0
		for _, ref := range f.Mesh.Tiles() {
			t, _ := f.Mesh.Tile(ref)
			tiles, polys = tiles+1, polys+len(t.Polys)
		}
		a.status = fmt.Sprintf("loaded %s: %v, %d tiles, %d polygons", path, f.Kind, tiles, polys)
	} else {
		a.dtCache = tc
		for _, o := range render.TSetOverlays(tc) {
			sc.Add(o)
		}
		a.dtBounds = sc.Bounds()
		cells := 0
		for i := range tc.Layers {
			cells += int(tc.Layers[i].Width) * int(tc.Layers[i].Height)
		}
		a.status = fmt.Sprintf("loaded %s: Detour tile cache (TSET), %d layers of %d cells (no obstacles: the format holds none)", path, len(tc.Layers), cells)
	}
	sc.Add(render.GridOverlay(a.dtBounds, render.GridStepM(a.dtBounds)))
	a.buildErr = a.NoGeometry()
	a.showLevel(sc)
	return nil
}

// meshBounds returns the box of m's tiles.
func meshBounds(m *navmesh.Mesh) geom.Box3 {
	b := geom.EmptyBox()
	for _, ref := range m.Tiles() {
		t, _ := m.Tile(ref)
		for _, v := range t.Verts {
			b = b.Extend(v)
		}
	}
	return b
}

// fileBuild wraps the mesh of f as a build without stages: its grid is the
// file's tiling (origin and tile width of the MSET parameters, the cell
// size of its tiles) so that tile positions match the file's, or none
// when those make no valid grid (tile picking then says there is no
// level).
func fileBuild(f *detour.File, bounds geom.Box3, s pipeline.NavSettings) *pipeline.Build {
	b := &pipeline.Build{Mesh: f.Mesh, Settings: s}
	if len(f.Headers) > 0 {
		h := f.Headers[0]
		s.AgentHeightM, s.AgentRadiusM, s.AgentMaxClimbM = h.WalkableHeightM, h.WalkableRadiusM, h.WalkableClimbM
	}
	var cs float32
	if ref := f.Mesh.Tiles(); len(ref) > 0 {
		t, _ := f.Mesh.Tile(ref[0])
		cs = t.Header.CellSizeM // DNAV has no row height: the settings' stays
	}
	origin := bounds.Min
	if p := f.Params; p.TileWidthM > 0 && cs > 0 {
		origin.X, origin.Z = p.OrigM.X, p.OrigM.Z
		s.CellSizeM = cs
		s.TileSizeCells = int(math.Round(float64(p.TileWidthM / cs)))
	}
	g, err := pipeline.NewTileGrid(&s, geom.Box3{Min: origin, Max: bounds.Max})
	if err == nil {
		b.Grid, b.Settings = g, s
	}
	return b
}
