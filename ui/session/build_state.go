package session

import (
	"errors"
	"fmt"
	"math"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
	"navviz/core/voxel"
	"navviz/render"
)

// SpanScope says which tiles the span overlays (solid, walkable, compact,
// eroded) draw.
type SpanScope int

const (
	// ScopeSelected draws the selected tile only.
	ScopeSelected SpanScope = iota
	// ScopeNeighbours draws the selected tile and its eight neighbours: the
	// default, which keeps city interactive (about 60k-200k triangles
	// depending on the overlay, against up to 3 million for every tile).
	ScopeNeighbours
	// ScopeAll draws every tile: on city, several seconds per camera move
	// for the box overlays (see README).
	ScopeAll
)

// SpanScopeNames are the Build panel's choices, indexed by spanScope.
var SpanScopeNames = []string{"selected tile", "selected + neighbours", "all tiles"}

// DefaultSpanScope is the span scope of a new App.
const DefaultSpanScope = ScopeNeighbours

// spanOverlayDefaults is the initial visibility of the overlays the build
// adds: the tile selection and the picked polygon are shown; the per-stage
// views (span and mesh overlays), which show nothing before a plain build,
// are switched on in the View panel.
var spanOverlayDefaults = map[string]bool{
	render.OverlaySolid:     false,
	render.OverlayWalkable:  false,
	render.OverlayCompact:   false,
	render.OverlayEroded:    false,
	render.OverlayVolumes:   false,
	render.OverlaySelection: true,
	render.OverlayPicked:    true,
}

// BuildOverlayNames are the overlays the build state owns, in scene order:
// the span overlays, the mesh overlays, the selection and the picked
// polygon.
var BuildOverlayNames = append(append(append([]string(nil), render.SpanOverlayNames...), render.MeshOverlayNames...),
	render.OverlaySelection, render.OverlayPicked)

// TileRef is a tile of the grid; ok is false for "no tile".
type TileRef struct {
	X, Z int
	OK   bool
}

// overlayKey is what a built span overlay's content depends on.
type overlayKey struct {
	build   *pipeline.Build
	scope   SpanScope
	sel     TileRef
	volumes uint64          // App.volumesGen, for the volumes overlay
	pick    navmesh.PolyRef // App.Picked, for the picked overlay
	from    meshSource      // App.PickedFrom
	meshGen uint64          // the cache's mesh generation, for a pick of it
}

// buildState is the part of App about the plain build: the settings being
// edited, the last build, the selected tile and the span overlays.
type buildState struct {
	// settings are the settings the Build panel edits (and the next build
	// uses). They may be invalid; SettingsErr says why.
	settings pipeline.NavSettings
	// build is the last successful build of the current level (nil before
	// the first one, and after loading another level).
	build *pipeline.Build
	// buildErr is the text of the last failed build ("" after a success).
	buildErr string
	// selected is the selected tile (its spans are drawn, see Scope).
	selected TileRef
	// scope is which tiles the span overlays draw.
	scope SpanScope

	volumesGen uint64                // bumped when Settings.Volumes change
	sizeSrc    sizeSource            // the level's source for the size estimate
	spanBuilt  map[string]overlayKey // content key of each span overlay
	spanVis    map[string]bool       // remembered visibility across levels
	// stageJobs builds stage overlays off the caller's goroutine (nil:
	// at once; see EnableStageJobs).
	stageJobs *JobRunner[stageResult]

	// pickState is the picked navmesh polygon (inspector.go).
	pickState
}

// initBuildState sets the defaults.
func (a *App) initBuildState() {
	a.settings = pipeline.DefaultSettings()
	a.scope = DefaultSpanScope
	a.spanBuilt = map[string]overlayKey{}
	a.spanVis = map[string]bool{}
	for k, v := range spanOverlayDefaults {
		a.spanVis[k] = v
	}
}

// levelChanged forgets the build and the selection of the previous level.
func (a *App) levelChanged() {
	a.build = nil
	a.buildErr = ""
	a.selected = TileRef{}
	a.spanBuilt = map[string]overlayKey{}
	a.ClearPick()
	a.DropCache() // the tile cache is of the previous level (cache_state.go)
	a.detourState = detourState{}
}

// UIBuildOptions are the options of navviz's plain build (buildLevel):
// the stages are kept for the span overlays, the size limits are the
// defaults. Loading a level, the Build panel's estimate and the Build
// button check the level's size with them (pipeline.EstimateBuild).
var UIBuildOptions = pipeline.BuildOptions{KeepStages: true}

// sizeSource is the build source of a level for the size estimate, made
// once per level (making it validates the soup).
type sizeSource struct {
	soup *level.Soup
	name string
	src  *pipeline.Source
	err  error
}

// EstimateBuild returns the size of a build of soup (named name) with the
// edited settings and opt (pipeline.EstimateBuild: the level's source is
// made once, and its span bounds counted once per grid, so asking every
// frame costs nothing): the tiles, columns, spans and estimated memory,
// and a *pipeline.LimitError when the build would exceed opt.Limits.
func (a *App) EstimateBuild(soup *level.Soup, name string, opt pipeline.BuildOptions) (pipeline.BuildEstimate, error) {
	if soup == nil {
		return pipeline.BuildEstimate{}, fmt.Errorf("ui: no level")
	}
	if c := &a.sizeSrc; c.soup != soup || c.name != name {
		src, err := pipeline.NewSoupSource(soup, nil)
		if err == nil {
			src = src.Named(name)
		}
		*c = sizeSource{soup: soup, name: name, src: src, err: err}
	}
	if err := a.sizeSrc.err; err != nil {
		return pipeline.BuildEstimate{}, err
	}
	return pipeline.EstimateBuild(&a.settings, a.sizeSrc.src, opt)
}

// Oversize returns the *pipeline.LimitError of building soup (named name)
// with the edited settings and opt, or nil when it fits or has no
// estimate (invalid settings, a level the tile grid refuses: the build
// itself reports those, quickly).
func (a *App) Oversize(soup *level.Soup, name string, opt pipeline.BuildOptions) error {
	_, err := a.EstimateBuild(soup, name, opt)
	if le := (*pipeline.LimitError)(nil); errors.As(err, &le) {
		return err
	}
	return nil
}

// BuildSizeText returns the Build panel's line about the size of a build
// of the current level with the edited settings: its tiles, columns,
// spans and estimated memory against the budget, or why it cannot be built. Empty
// without a level or with invalid settings (the panel shows those).
func (a *App) BuildSizeText() string {
	if a.soup == nil || a.SettingsErr() != nil {
		return ""
	}
	e, err := a.EstimateBuild(a.soup, a.levelName, UIBuildOptions)
	if le := (*pipeline.LimitError)(nil); errors.As(err, &le) {
		return "Too large to build: " + err.Error()
	}
	if err != nil {
		return "Cannot build: " + err.Error()
	}
	return fmt.Sprintf("Build size: %s of %s allowed.", e, pipeline.FormatBytes(e.Limits.MaxBytes))
}

// SettingsErr returns the validation error of the edited settings, or nil.
func (a *App) SettingsErr() error { return a.settings.Validate() }

// Settings returns the settings the Build panel edits (and the next build
// uses). They may be invalid; SettingsErr says why.
func (a *App) Settings() pipeline.NavSettings { return a.settings }

// SetSettings replaces the edited settings but their volumes (SetVolumes).
func (a *App) SetSettings(s pipeline.NavSettings) {
	s.Volumes = a.settings.Volumes
	a.settings = s
}

// SetVolumes replaces the edited settings' volumes.
//
// The first volume ticks the volumes overlay (hidden at start, when it has
// nothing to show), so that it is drawn at once.
func (a *App) SetVolumes(v []voxel.ConvexVolume) {
	if len(a.settings.Volumes) == 0 && len(v) > 0 {
		a.spanVis[render.OverlayVolumes] = true
		a.SetOverlayVisible(render.OverlayVolumes, true)
	}
	a.settings.Volumes = v
	a.volumesGen++
}

// SetBuild installs a finished build: the span overlays show it and, when
// no tile is selected or the selection is outside the new grid, the most
// interesting tile is selected (see defaultTile).
func (a *App) SetBuild(b *pipeline.Build) {
	a.build = b
	a.buildErr = ""
	a.ClearPick() // references into the previous navmesh are stale
	if b == nil {
		return
	}
	if !a.selected.OK || b.Grid.CheckTile(a.selected.X, a.selected.Z) != nil {
		a.selected = defaultTile(b)
	}
}

// defaultTile returns the tile of b with the most columns holding two or
// more walkable floors (a bridge, a table over a floor), then the most
// walkable spans, then the first in row-major order.
func defaultTile(b *pipeline.Build) TileRef {
	best, bestStack, bestWalk := TileRef{}, -1, -1
	for i := range b.Tiles {
		t := &b.Tiles[i]
		st := t.Spans.StackedColumns()
		if st > bestStack || (st == bestStack && t.WalkableSpans > bestWalk) {
			best, bestStack, bestWalk = TileRef{t.TX, t.TZ, true}, st, t.WalkableSpans
		}
	}
	return best
}

// SelectTile selects tile (tx, tz) of the current grid; it returns an error
// (and changes nothing) when there is no grid or the tile is outside it.
func (a *App) SelectTile(tx, tz int) error {
	g, err := a.tileGrid()
	if err != nil {
		return err
	}
	if err := g.CheckTile(tx, tz); err != nil {
		return err
	}
	a.selected = TileRef{tx, tz, true}
	return nil
}

// SetScope changes which tiles the span overlays draw.
func (a *App) SetScope(s SpanScope) {
	if s >= ScopeSelected && s <= ScopeAll {
		a.scope = s
	}
}

// tileGrid returns the grid of the last build, or else the grid the edited
// settings give the current level.
func (a *App) tileGrid() (*pipeline.TileGrid, error) {
	if a.build != nil && a.build.Grid != nil {
		return a.build.Grid, nil
	}
	if a.soup == nil {
		return nil, fmt.Errorf("ui: no level")
	}
	return pipeline.NewTileGrid(&a.settings, a.soup.Bounds())
}

// PickTile selects the tile under the pixel (xPx, yPx) of a wPx x hPx view:
// the tile of the nearest level triangle the camera ray hits, or where the
// ray meets the level's floor plane (its lowest y). It returns the picked
// tile; a miss or an invalid grid is an error and changes nothing.
func (a *App) PickTile(xPx, yPx float64, wPx, hPx int) (TileRef, error) {
	g, err := a.tileGrid()
	if err != nil {
		return TileRef{}, fmt.Errorf("ui: pick a tile: %w", err)
	}
	o, d := a.Camera.Ray(xPx, yPx, wPx, hPx)
	p, ok := PickPoint(a.soup, o, d)
	if !ok {
		return TileRef{}, fmt.Errorf("ui: no level under the cursor")
	}
	tx, tz, err := g.TileAt(p)
	if err != nil {
		return TileRef{}, fmt.Errorf("ui: pick a tile: %w", err)
	}
	a.selected = TileRef{tx, tz, true}
	return a.selected, nil
}

// PickPoint returns the first point where the ray o + t*d (t > 0) meets a
// triangle of s (render.PickLevel), or else the plane y = s.Bounds().Min.Y.
func PickPoint(s *level.Soup, o, d [3]float64) (geom.Vec3, bool) {
	if s == nil {
		return geom.Vec3{}, false
	}
	best, ok := render.PickLevel(s, o, d)
	if !ok {
		y0 := float64(s.Bounds().Min.Y)
		if d[1] == 0 {
			return geom.Vec3{}, false
		}
		t := (y0 - o[1]) / d[1]
		if !(t > 0) || math.IsInf(t, 0) {
			return geom.Vec3{}, false
		}
		best = t
	}
	p := geom.V3(float32(o[0]+float64(best*d[0])), float32(o[1]+float64(best*d[1])), float32(o[2]+float64(best*d[2])))
	return p, p.Finite()
}

// SpanFilter returns the tile filter of the current scope and selection
// (nil: every tile), and whether anything is to be drawn at all.
func (a *App) SpanFilter() (render.TileFilter, bool) {
	if a.scope == ScopeAll {
		return nil, true
	}
	if !a.selected.OK {
		return nil, false
	}
	sx, sz := a.selected.X, a.selected.Z
	if a.scope == ScopeSelected {
		return func(tx, tz int) bool { return tx == sx && tz == sz }, true
	}
	return func(tx, tz int) bool { return abs(tx-sx) <= 1 && abs(tz-sz) <= 1 }, true
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// SelectionBoxes returns the box of the selected tile, or nothing: x and z
// of its own cells; y from the level's bottom to the highest open-span
// floor of the tile plus the agent height when it is built, else the
// level's top.
func (a *App) SelectionBoxes() []geom.Box3 {
	if !a.selected.OK {
		return nil
	}
	g, err := a.tileGrid()
	if err != nil {
		return nil
	}
	b, err := g.TileBoxM(a.selected.X, a.selected.Z)
	if err != nil {
		return nil
	}
	if t := a.build.Tile(a.selected.X, a.selected.Z); t != nil && len(t.Spans.Spans) > 0 {
		top := 0
		for _, s := range t.Spans.Spans {
			top = max(top, int(s.Y))
		}
		b.Max.Y = min(b.Max.Y, float32(t.Spans.RowHeightM(top))) + a.build.Settings.AgentHeightM
	}
	return []geom.Box3{b}
}

// FrameSelection points the camera at the selected tile (at the heights its
// visible overlays reach), or at the level when nothing is selected.
func (a *App) FrameSelection() {
	boxes := a.SelectionBoxes()
	if len(boxes) == 0 {
		a.FrameLevel()
		return
	}
	b := boxes[0]
	if sb := a.spanBounds(); !sb.Empty() {
		b.Min.Y, b.Max.Y = sb.Min.Y, sb.Max.Y
	}
	if a.aspect > 0 {
		a.Camera.FrameAspect(b, a.aspect)
	} else {
		a.Camera.Frame(b)
	}
}

// spanBounds returns the box of the visible span overlays restricted to the
// selected tile's columns (empty when they show nothing there).
func (a *App) spanBounds() geom.Box3 {
	box := geom.EmptyBox()
	boxes := a.SelectionBoxes()
	if len(boxes) == 0 {
		return box
	}
	t := boxes[0]
	for _, name := range append(append([]string(nil), render.SpanOverlayNames...), render.MeshOverlayNames...) {
		o := a.scene.Overlay(name)
		if o == nil || !o.Visible || name == render.OverlayVolumes {
			continue
		}
		for _, v := range o.Tris {
			p := v.Pos
			if p.X >= t.Min.X && p.X <= t.Max.X && p.Z >= t.Min.Z && p.Z <= t.Max.Z {
				box = box.Extend(p)
			}
		}
	}
	return box
}

// ParseScope returns the span scope of a scenario scope name ("selected",
// "neighbours", "all"; "" is the default).
func ParseScope(name string) (SpanScope, error) {
	for _, s := range []SpanScope{ScopeSelected, ScopeNeighbours, ScopeAll} {
		if name == ScopeName(s) {
			return s, nil
		}
	}
	if name == "" {
		return DefaultSpanScope, nil
	}
	return 0, fmt.Errorf("ui: unknown scope %q: want selected, neighbours or all", name)
}

// Build returns the last successful build of the current level (nil before
// the first one, and after loading another level).
func (a *App) Build() *pipeline.Build { return a.build }

// ClearTile deselects the selected tile.
func (a *App) ClearTile() { a.selected = TileRef{} }

// Selected returns the selected tile (SelectTile, ClearTile).
func (a *App) Selected() TileRef { return a.selected }

// Scope returns which tiles the span overlays draw (SetScope).
func (a *App) Scope() SpanScope { return a.scope }
