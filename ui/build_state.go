package ui

import (
	"context"
	"fmt"
	"math"
	"sync"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
	"navviz/core/voxel"
	"navviz/render"
)

// spanScope says which tiles the span overlays (solid, walkable, compact,
// eroded) draw.
type spanScope int

const (
	// scopeSelected draws the selected tile only.
	scopeSelected spanScope = iota
	// scopeNeighbours draws the selected tile and its eight neighbours: the
	// default, which keeps city interactive (about 60k-200k triangles
	// depending on the overlay, against up to 3 million for every tile).
	scopeNeighbours
	// scopeAll draws every tile: on city, several seconds per camera move
	// for the box overlays (see README).
	scopeAll
)

// spanScopeNames are the Build panel's choices, indexed by spanScope.
var spanScopeNames = []string{"selected tile", "selected + neighbours", "all tiles"}

// defaultSpanScope is the span scope of a new App.
const defaultSpanScope = scopeNeighbours

// spanOverlayDefaults is the initial visibility of the overlays the build
// adds: the compact spans, the volumes, the tile selection and the picked
// polygon are shown; the per-stage views (span and mesh overlays) are
// switched on in the View panel.
var spanOverlayDefaults = map[string]bool{
	render.OverlaySolid:     false,
	render.OverlayWalkable:  false,
	render.OverlayCompact:   true,
	render.OverlayEroded:    false,
	render.OverlayVolumes:   true,
	render.OverlaySelection: true,
	render.OverlayPicked:    true,
}

// buildOverlayNames are the overlays the build state owns, in scene order:
// the span overlays, the mesh overlays, the selection and the picked
// polygon.
var buildOverlayNames = append(append(append([]string(nil), render.SpanOverlayNames...), render.MeshOverlayNames...),
	render.OverlaySelection, render.OverlayPicked)

// tileRef is a tile of the grid; ok is false for "no tile".
type tileRef struct {
	X, Z int
	OK   bool
}

// overlayKey is what a built span overlay's content depends on.
type overlayKey struct {
	build   *pipeline.Build
	scope   spanScope
	sel     tileRef
	volumes uint64          // App.volumesGen, for the volumes overlay
	pick    navmesh.PolyRef // App.Picked, for the picked overlay
}

// buildState is the part of App about the plain build: the settings being
// edited, the last build, the selected tile and the span overlays.
type buildState struct {
	// Settings are the settings the Build panel edits (and the next build
	// uses). They may be invalid; SettingsErr says why.
	Settings pipeline.NavSettings
	// Build is the last successful build of the current level (nil before
	// the first one, and after loading another level).
	Build *pipeline.Build
	// BuildErr is the text of the last failed build ("" after a success).
	BuildErr string
	// Selected is the selected tile (its spans are drawn, see Scope).
	Selected tileRef
	// Scope is which tiles the span overlays draw.
	Scope spanScope

	volumesGen uint64                // bumped when Settings.Volumes change
	spanBuilt  map[string]overlayKey // content key of each span overlay
	spanVis    map[string]bool       // remembered visibility across levels

	// pickState is the picked navmesh polygon (inspector.go).
	pickState
}

// initBuildState sets the defaults.
func (a *App) initBuildState() {
	a.Settings = pipeline.DefaultSettings()
	a.Scope = defaultSpanScope
	a.spanBuilt = map[string]overlayKey{}
	a.spanVis = map[string]bool{}
	for k, v := range spanOverlayDefaults {
		a.spanVis[k] = v
	}
}

// levelChanged forgets the build and the selection of the previous level.
func (a *App) levelChanged() {
	a.Build = nil
	a.BuildErr = ""
	a.Selected = tileRef{}
	a.spanBuilt = map[string]overlayKey{}
	a.clearPick()
	a.DropCache() // the tile cache is of the previous level (cache_state.go)
}

// SettingsErr returns the validation error of the edited settings, or nil.
func (a *App) SettingsErr() error { return a.Settings.Validate() }

// SetVolumes replaces the edited settings' volumes.
func (a *App) SetVolumes(v []voxel.ConvexVolume) {
	a.Settings.Volumes = v
	a.volumesGen++
}

// SetBuild installs a finished build: the span overlays show it and, when
// no tile is selected or the selection is outside the new grid, the most
// interesting tile is selected (see defaultTile).
func (a *App) SetBuild(b *pipeline.Build) {
	a.Build = b
	a.BuildErr = ""
	a.clearPick() // references into the previous navmesh are stale
	if b == nil {
		return
	}
	if !a.Selected.OK || b.Grid.CheckTile(a.Selected.X, a.Selected.Z) != nil {
		a.Selected = defaultTile(b)
	}
}

// defaultTile returns the tile of b with the most columns holding two or
// more walkable floors (a bridge, a table over a floor), then the most
// walkable spans, then the first in row-major order.
func defaultTile(b *pipeline.Build) tileRef {
	best, bestStack, bestWalk := tileRef{}, -1, -1
	for i := range b.Tiles {
		t := &b.Tiles[i]
		st := stackedColumns(t.Spans)
		if st > bestStack || (st == bestStack && t.WalkableSpans > bestWalk) {
			best, bestStack, bestWalk = tileRef{t.TX, t.TZ, true}, st, t.WalkableSpans
		}
	}
	return best
}

// stackedColumns counts the tile's own columns with two or more walkable
// open spans.
func stackedColumns(c *voxel.CompactHeightfield) int {
	n := 0
	for z := c.BorderCells; z < c.Height-c.BorderCells; z++ {
		for x := c.BorderCells; x < c.Width-c.BorderCells; x++ {
			cell := c.Cells[x+z*c.Width]
			k := 0
			for i := cell.Index; i < cell.Index+cell.Count; i++ {
				if c.Areas[i] != voxel.AreaNull {
					k++
				}
			}
			if k >= 2 {
				n++
			}
		}
	}
	return n
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
	a.Selected = tileRef{tx, tz, true}
	return nil
}

// SetScope changes which tiles the span overlays draw.
func (a *App) SetScope(s spanScope) {
	if s >= scopeSelected && s <= scopeAll {
		a.Scope = s
	}
}

// tileGrid returns the grid of the last build, or else the grid the edited
// settings give the current level.
func (a *App) tileGrid() (*pipeline.TileGrid, error) {
	if a.Build != nil {
		return a.Build.Grid, nil
	}
	if a.Soup == nil {
		return nil, fmt.Errorf("ui: no level")
	}
	return pipeline.NewTileGrid(&a.Settings, a.Soup.Bounds())
}

// PickTile selects the tile under the pixel (xPx, yPx) of a wPx x hPx view:
// the tile of the nearest level triangle the camera ray hits, or where the
// ray meets the level's floor plane (its lowest y). It returns the picked
// tile; a miss or an invalid grid is an error and changes nothing.
func (a *App) PickTile(xPx, yPx float64, wPx, hPx int) (tileRef, error) {
	g, err := a.tileGrid()
	if err != nil {
		return tileRef{}, fmt.Errorf("ui: pick a tile: %w", err)
	}
	o, d := a.Camera.Ray(xPx, yPx, wPx, hPx)
	p, ok := pickPoint(a.Soup, o, d)
	if !ok {
		return tileRef{}, fmt.Errorf("ui: no level under the cursor")
	}
	tx, tz, err := g.TileAt(p)
	if err != nil {
		return tileRef{}, fmt.Errorf("ui: pick a tile: %w", err)
	}
	a.Selected = tileRef{tx, tz, true}
	return a.Selected, nil
}

// pickPoint returns the first point where the ray o + t*d (t > 0) meets a
// triangle of s, or else the plane y = s.Bounds().Min.Y.
func pickPoint(s *level.Soup, o, d [3]float64) (geom.Vec3, bool) {
	if s == nil {
		return geom.Vec3{}, false
	}
	best := math.Inf(1)
	nv := int32(len(s.Verts))
	for _, t := range s.Tris {
		if t[0] < 0 || t[1] < 0 || t[2] < 0 || t[0] >= nv || t[1] >= nv || t[2] >= nv {
			continue
		}
		if h, ok := rayTriangle(o, d, s.Verts[t[0]], s.Verts[t[1]], s.Verts[t[2]]); ok && h < best {
			best = h
		}
	}
	if math.IsInf(best, 1) {
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
	p := geom.V3(float32(o[0]+best*d[0]), float32(o[1]+best*d[1]), float32(o[2]+best*d[2]))
	return p, p.Finite()
}

// rayTriangle returns the ray parameter t > 0 where o + t*d crosses
// triangle abc (Möller–Trumbore, both faces).
func rayTriangle(o, d [3]float64, a, b, c geom.Vec3) (float64, bool) {
	v := func(p geom.Vec3) [3]float64 { return [3]float64{float64(p.X), float64(p.Y), float64(p.Z)} }
	sub := func(p, q [3]float64) [3]float64 { return [3]float64{p[0] - q[0], p[1] - q[1], p[2] - q[2]} }
	cross := func(p, q [3]float64) [3]float64 {
		return [3]float64{p[1]*q[2] - p[2]*q[1], p[2]*q[0] - p[0]*q[2], p[0]*q[1] - p[1]*q[0]}
	}
	dot := func(p, q [3]float64) float64 { return p[0]*q[0] + p[1]*q[1] + p[2]*q[2] }
	pa := v(a)
	e1, e2 := sub(v(b), pa), sub(v(c), pa)
	pv := cross(d, e2)
	det := dot(e1, pv)
	if math.Abs(det) < 1e-12 {
		return 0, false
	}
	inv := 1 / det
	tv := sub(o, pa)
	u := dot(tv, pv) * inv
	if u < 0 || u > 1 {
		return 0, false
	}
	qv := cross(tv, e1)
	w := dot(d, qv) * inv
	if w < 0 || u+w > 1 {
		return 0, false
	}
	t := dot(e2, qv) * inv
	return t, t > 1e-6
}

// spanFilter returns the tile filter of the current scope and selection
// (nil: every tile), and whether anything is to be drawn at all.
func (a *App) spanFilter() (render.TileFilter, bool) {
	if a.Scope == scopeAll {
		return nil, true
	}
	if !a.Selected.OK {
		return nil, false
	}
	sx, sz := a.Selected.X, a.Selected.Z
	if a.Scope == scopeSelected {
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

// syncSpanOverlays makes the scene's build overlays match the state: each
// one exists (an empty placeholder while hidden, so the View panel lists
// it, with its visibility remembered across levels), and each visible one
// holds the content of the current build, scope and selection. Content is
// rebuilt only when what it depends on changed, and dropped when hidden.
func (a *App) syncSpanOverlays() {
	if a.Scene == nil {
		return
	}
	if a.spanBuilt == nil {
		a.initBuildState()
	}
	keep, show := a.spanFilter()
	for _, name := range buildOverlayNames {
		o := a.Scene.Overlay(name)
		if o == nil {
			o = &render.Overlay{Name: name, Visible: a.spanVis[name]}
			a.Scene.Overlays = append(a.Scene.Overlays, o)
			delete(a.spanBuilt, name)
			a.Gen++
		}
		a.spanVis[name] = o.Visible
		if !o.Visible {
			if len(o.Tris)+len(o.Lines)+len(o.Points) > 0 {
				a.Scene.Add(&render.Overlay{Name: name})
				delete(a.spanBuilt, name)
				a.Gen++
			}
			continue
		}
		want := overlayKey{build: a.Build, scope: a.Scope, sel: a.Selected}
		switch name {
		case render.OverlayVolumes:
			want = overlayKey{volumes: a.volumesGen}
		case render.OverlaySelection:
			want = overlayKey{sel: a.Selected, build: a.Build}
		case render.OverlayPicked:
			want = overlayKey{build: a.Build, pick: a.Picked}
		}
		if got, ok := a.spanBuilt[name]; ok && got == want {
			continue
		}
		var n *render.Overlay
		switch name {
		case render.OverlayVolumes:
			b := geom.EmptyBox()
			if a.Soup != nil {
				b = a.Soup.Bounds()
			}
			n = render.VolumesOverlay(a.Settings.Volumes, b)
		case render.OverlaySelection:
			n = render.SelectionOverlay(a.selectionBoxes())
		case render.OverlayPicked:
			n = render.PickedOverlay(a.navMesh(), a.Picked)
		default:
			if show && render.IsMeshOverlay(name) {
				n, _ = render.MeshOverlay(name, a.Build, keep) // names are valid
			} else if show {
				n, _ = render.SpanOverlay(name, a.Build, keep)
			}
			if n == nil {
				n = &render.Overlay{Name: name}
			}
		}
		a.Scene.Add(n)
		a.spanBuilt[name] = want
		a.Gen++
	}
	a.syncCacheOverlays() // the tile cache's overlays (cache_state.go)
}

// selectionBoxes returns the box of the selected tile, or nothing: x and z
// of its own cells; y from the level's bottom to the highest open-span
// floor of the tile plus the agent height when it is built, else the
// level's top.
func (a *App) selectionBoxes() []geom.Box3 {
	if !a.Selected.OK {
		return nil
	}
	g, err := a.tileGrid()
	if err != nil {
		return nil
	}
	b, err := g.TileBoxM(a.Selected.X, a.Selected.Z)
	if err != nil {
		return nil
	}
	if t := a.Build.Tile(a.Selected.X, a.Selected.Z); t != nil && len(t.Spans.Spans) > 0 {
		top := 0
		for _, s := range t.Spans.Spans {
			top = max(top, int(s.Y))
		}
		b.Max.Y = min(b.Max.Y, float32(t.Spans.RowHeightM(top))) + a.Build.Settings.AgentHeightM
	}
	return []geom.Box3{b}
}

// FrameSelection points the camera at the selected tile (at the heights its
// visible overlays reach), or at the level when nothing is selected.
func (a *App) FrameSelection() {
	boxes := a.selectionBoxes()
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
	boxes := a.selectionBoxes()
	if len(boxes) == 0 {
		return box
	}
	t := boxes[0]
	for _, name := range append(append([]string(nil), render.SpanOverlayNames...), render.MeshOverlayNames...) {
		o := a.Scene.Overlay(name)
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

// buildRun is one background build.
type buildRun struct {
	id     uint64
	cancel context.CancelFunc
}

// buildResult is what a background build hands back to the game loop.
type buildResult struct {
	id    uint64
	build *pipeline.Build
	err   error
}

// buildRunner runs pipeline.BuildLevel off the game loop. Its progress is
// read under a mutex; the result arrives on a channel that Game.Update
// polls, so the build is applied on the game goroutine.
type buildRunner struct {
	mu          sync.Mutex
	done, total int // progress of the running build
	running     *buildRun
	nextID      uint64
	results     chan buildResult
}

// newBuildRunner returns an idle runner.
func newBuildRunner() *buildRunner {
	return &buildRunner{results: make(chan buildResult, 4)}
}

// start cancels any running build and starts building soup with a copy of
// s (the caller may go on editing s). Progress and the result are for the
// new build only.
func (r *buildRunner) start(soup *level.Soup, s pipeline.NavSettings) {
	s.Volumes = append([]voxel.ConvexVolume(nil), s.Volumes...)
	for i := range s.Volumes {
		s.Volumes[i].VertsXZ = append([][2]float32(nil), s.Volumes[i].VertsXZ...)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.mu.Lock()
	if r.running != nil {
		r.running.cancel()
	}
	r.nextID++
	run := &buildRun{id: r.nextID, cancel: cancel}
	r.running = run
	r.done, r.total = 0, 0
	r.mu.Unlock()

	go func() {
		defer cancel()
		b, err := buildLevel(ctx, soup, &s, func(done, total int) {
			r.mu.Lock()
			if r.running == run {
				r.done, r.total = done, total
			}
			r.mu.Unlock()
		})
		r.results <- buildResult{id: run.id, build: b, err: err}
	}()
}

// buildLevel indexes soup and runs the plain build with stages kept.
func buildLevel(ctx context.Context, soup *level.Soup, s *pipeline.NavSettings, progress func(done, total int)) (*pipeline.Build, error) {
	if soup == nil {
		return nil, fmt.Errorf("ui: no level to build")
	}
	chunky, err := level.NewChunky(soup, 256)
	if err != nil {
		return nil, err
	}
	src, err := pipeline.NewSoupSource(soup, chunky)
	if err != nil {
		return nil, err
	}
	return pipeline.BuildLevel(ctx, s, src, pipeline.BuildOptions{Progress: progress, KeepStages: true})
}

// cancel stops the running build, if any; its result is ignored.
func (r *buildRunner) cancel() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.running != nil {
		r.running.cancel()
		r.running = nil
	}
}

// progress returns whether a build is running and its finished and total
// tiles (total is 0 until the first tile is done).
func (r *buildRunner) progress() (running bool, done, total int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.running != nil, r.done, r.total
}

// poll returns the result of the current build when it has arrived; results
// of cancelled or replaced builds are dropped.
func (r *buildRunner) poll() (buildResult, bool) {
	for {
		select {
		case res := <-r.results:
			r.mu.Lock()
			current := r.running != nil && r.running.id == res.id
			if current {
				r.running = nil
			}
			r.mu.Unlock()
			if current {
				return res, true
			}
		default:
			return buildResult{}, false
		}
	}
}

// progressBar renders done of total as "[#####.....] 45/121" with width
// cells between the brackets.
func progressBar(done, total, width int) string {
	width = max(1, width)
	fill := 0
	if total > 0 {
		fill = min(width, max(0, done*width/total))
	}
	bar := make([]byte, 0, width+2)
	bar = append(bar, '[')
	for i := 0; i < width; i++ {
		if i < fill {
			bar = append(bar, '#')
		} else {
			bar = append(bar, '.')
		}
	}
	bar = append(bar, ']')
	if total <= 0 {
		return string(bar) + " starting"
	}
	return fmt.Sprintf("%s %d/%d", bar, done, total)
}
