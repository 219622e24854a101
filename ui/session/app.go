package session

import (
	"fmt"
	"slices"
	"strings"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/render"
)

// App is the state of a navviz session that does not depend on Ebitengine.
// Every field is read by the panels; change it through the methods so the
// draw cache notices (Gen).
type App struct {
	// levelName is what the current level was loaded from: a built-in name
	// or a file path. Empty before the first successful Load.
	levelName string
	// soup is the current level's geometry (nil before the first Load).
	soup *level.Soup
	// scene is what the view draws.
	scene *render.Scene
	// Camera is the view camera.
	Camera render.Camera

	// err is the text of the last failure (load, dialog, screenshot) in
	// the user's words (UserWords); empty when the last action succeeded.
	// It is shown in the window; errDetail is the whole error chain,
	// shown instead while errDetailShown (the "Details" button).
	err, errDetail string
	errDetailShown bool
	// status is the last informational message (e.g. a saved screenshot).
	status string

	// gen changes whenever Scene's content or visibility changes (Gen).
	gen uint64

	// aspect is the viewport's width/height, for framing (0: unknown).
	aspect float64

	// armed holds the ArmedOverlays not yet shown: hidden, and ticked the
	// first time they have something to show (syncOverlay) unless set
	// before (SetOverlayVisible, ShowOnly).
	armed map[string]bool
	// soupBox is the bounds of soupBoxOf, computed once per level (the
	// Stats panel reads them every Update).
	soupBox   geom.Box3
	soupBoxOf *level.Soup

	// buildState holds the build settings, the last build, the selected
	// tile and the span overlays (build_state.go).
	buildState

	// cacheState holds the tile cache, its tools, undo history and
	// overlays (cache_state.go).
	cacheState

	// pathState holds the Path tool's points and path (path.go).
	pathState

	// agentsState holds the Agents tool's crowd (agents.go).
	agentsState

	// detourState holds the Detour file loaded as the level, if any
	// (detour_file.go).
	detourState
}

// Err returns the text of the last failure (load, dialog, screenshot, a
// job; report.go) the window shows, in the user's words (UserWords); ""
// when the last action succeeded or the error was dismissed.
func (a *App) Err() string { return a.err }

// ErrDetail returns the whole error chain of the failure Err words
// (package and function names, values), for the "Details" button; "" when
// Err is.
func (a *App) ErrDetail() string {
	if a.err == "" {
		return ""
	}
	return a.errDetail
}

// ErrDetailShown reports whether the window shows the error's whole chain
// (ErrDetail) instead of Err; ToggleErrDetail switches.
func (a *App) ErrDetailShown() bool { return a.errDetailShown && a.err != "" }

// ToggleErrDetail switches between the error in the user's words and its
// whole chain.
func (a *App) ToggleErrDetail() { a.errDetailShown = !a.errDetailShown }

// DismissErr clears the error shown ("Dismiss error").
func (a *App) DismissErr() { a.err = "" }

// Status returns the last informational message (e.g. a saved
// screenshot).
func (a *App) Status() string { return a.status }

// SetStatus sets the informational message.
func (a *App) SetStatus(s string) { a.status = s }

// LevelName returns what the current level was loaded from: a built-in
// name or a file path ("" before the first successful Load).
func (a *App) LevelName() string { return a.levelName }

// ShowScenarioLevel makes soup, named name, the current level without
// loading it: a scenario's runner loaded it and owns its builds.
func (a *App) ShowScenarioLevel(soup *level.Soup, name string) {
	a.soup, a.levelName = soup, name
}

// BuildErr returns the text of the last failed plain build ("" after a
// success).
func (a *App) BuildErr() string { return a.buildErr }

// SetBuildErr records the plain build's failure text ("": it succeeded).
func (a *App) SetBuildErr(s string) { a.buildErr = s }

// CacheErr returns the text of the last failed cache build ("" after a
// success).
func (a *App) CacheErr() string { return a.cacheErr }

// SetCacheErr records the cache build's failure text ("": it succeeded).
func (a *App) SetCacheErr(s string) { a.cacheErr = s }

// SetToolHooks sets the tools that follow the App's changes (events) and
// the one whose preview the "tool-preview" overlay draws (preview).
func (a *App) SetToolHooks(events ToolEvents, preview Previewer) {
	a.toolEvents, a.toolPreview = events, preview
}

// SetToolPreview sets the tool whose preview the "tool-preview" overlay
// draws (the active tool).
func (a *App) SetToolPreview(p Previewer) { a.toolPreview = p }

// Gen returns a counter that changes whenever Scene's content or
// visibility changes, so that the drawing cache knows to rebuild.
func (a *App) Gen() uint64 { return a.gen }

// ShowScene makes s the scene the view draws (a scenario's runner owns
// its scene) and marks the change (Gen).
func (a *App) ShowScene(s *render.Scene) {
	a.scene = s
	a.gen++
}

// SetViewport tells the App the size of the view in pixels, so that
// FrameLevel fits the level in portrait windows too.
func (a *App) SetViewport(wPx, hPx int) {
	if wPx > 0 && hPx > 0 {
		a.aspect = float64(wPx) / float64(hPx)
	}
}

// NewApp returns an App with an empty scene and the default camera.
func NewApp() *App {
	a := &App{scene: &render.Scene{}, Camera: render.DefaultCamera(), armed: map[string]bool{}}
	for _, n := range ArmedOverlays {
		a.armed[n] = true
	}
	a.initBuildState()
	a.initCacheState()
	a.initAgentsState()
	return a
}

// ArmedOverlays are the overlays of what the user does (obstacles,
// volumes, links, the queue and swaps, the tool's preview, the selected
// tile and polygon, the path, the agents, the repair inspector's): on a
// first run nothing of them exists, so they start unticked and each is
// ticked the first time it has something to show.
var ArmedOverlays = append([]string{
	render.OverlayObstacles, render.OverlayVolumesRT, render.OverlayOffMesh,
	render.OverlayQueue, render.OverlaySwaps, render.OverlayToolPreview,
	render.OverlaySelection, render.OverlayPicked, render.OverlayPath,
	render.OverlayAgents,
}, render.InspectOverlayNames...)

// loadLevel is the loader App.Load uses; it is level.Load (built-in name,
// OBJ or glTF path).
var loadLevel = level.Load

// Load replaces the current level with the built-in level or .obj file named
// by nameOrPath and frames the camera on it. A level whose build with the
// edited settings would exceed the size limits (pipeline.EstimateBuild) is
// refused. On failure nothing changes except Err, which holds the error
// text; the error is also returned.
func (a *App) Load(nameOrPath string) error {
	if isDetourPath(nameOrPath) {
		return a.loadDetour(nameOrPath)
	}
	s, err := loadLevel(nameOrPath)
	if err == nil && s == nil {
		err = fmt.Errorf("ui: level %q: loader returned no geometry", nameOrPath)
	}
	if err == nil && len(s.Tris) == 0 {
		err = fmt.Errorf("ui: level %q has no triangles", nameOrPath)
	}
	if err == nil {
		// A level too large to build with the edited settings is refused
		// here, keeping the current level, build, cache and edits.
		err = a.Oversize(s, nameOrPath, UIBuildOptions)
	}
	if err != nil {
		return a.loadFailed(nameOrPath, err)
	}
	a.levelName = nameOrPath
	a.soup = s
	a.levelChanged()
	a.status = fmt.Sprintf("loaded %s", nameOrPath)
	if s.Skipped != "" {
		a.status += " (" + s.Skipped + ")"
	}
	a.showLevel(render.LevelScene(s))
	return nil
}

// loadFailed shows the error of a failed load of name (saying which level
// when the loader's error does not name it already: loader errors name the
// file and line) and returns it; the current level stays.
func (a *App) loadFailed(name string, err error) error {
	shown := err
	if !strings.Contains(err.Error(), name) {
		shown = fmt.Errorf("level %q: %w", name, err)
	}
	a.Report(shown)
	return fmt.Errorf("ui: load %q: %w", name, err)
}

// showLevel shows sc, the scene of the level just loaded (the overlays
// keep the visibility they had), and frames it.
func (a *App) showLevel(sc *render.Scene) {
	a.scene = keepVisibility(sc, a.scene)
	a.err = ""
	a.gen++
	a.SyncSpanOverlays()
	a.FrameLevel()
}

// keepVisibility copies the visibility of old's overlays to the overlays of
// the same name in s, so that hiding the grid survives loading a level.
func keepVisibility(s, old *render.Scene) *render.Scene {
	if old == nil {
		return s
	}
	for _, o := range s.Overlays {
		if prev := old.Overlay(o.Name); prev != nil {
			o.Visible = prev.Visible
		}
	}
	return s
}

// SetOverlayVisible shows or hides the named overlay; unknown names are
// ignored.
func (a *App) SetOverlayVisible(name string, visible bool) {
	delete(a.armed, name)
	if o := a.scene.Overlay(name); o != nil && o.Visible != visible {
		o.Visible = visible
		a.gen++
	}
}

// ShowOnly shows exactly the named overlays and hides every other one,
// the tile cache's too (render.CacheOverlayNames: shown once there is a
// cache). An unknown name is an error listing the overlays there are, and
// changes nothing.
func (a *App) ShowOnly(names []string) error {
	var known []string
	for _, o := range a.scene.Overlays {
		known = append(known, o.Name)
	}
	for _, n := range render.CacheOverlayNames {
		if !slices.Contains(known, n) {
			known = append(known, n)
		}
	}
	for _, n := range names {
		if !slices.Contains(known, n) {
			return fmt.Errorf("ui: unknown overlay %q, want some of %s", n, strings.Join(known, ", "))
		}
	}
	if a.cacheBuilt == nil {
		a.initCacheState()
	}
	for _, n := range render.CacheOverlayNames {
		a.CacheVis[n] = slices.Contains(names, n)
	}
	clear(a.armed) // the overlays asked for, no others
	a.scene.SetVisible(names)
	a.gen++
	a.SyncSpanOverlays()
	return nil
}

// FrameLevel points the camera at the whole level (all overlays, visible or
// not, so hiding the grid does not move the camera).
func (a *App) FrameLevel() {
	b := a.LevelBounds()
	if b.Empty() {
		return
	}
	if a.aspect > 0 {
		a.Camera.FrameAspect(b, a.aspect)
	} else {
		a.Camera.Frame(b)
	}
}

// zoomPickRange bounds how far (in multiples of the target's distance
// along the ray) the level point under the cursor may be for the wheel to
// zoom towards it; farther (a ray grazing the floor) it zooms towards the
// point of the ray nearest the target.
const zoomPickRange = 4

// ZoomAt zooms the camera by steps wheel steps (positive: closer) towards
// the pixel (xPx, yPx) of the wPx x hPx view: the level point under the
// cursor (pickPoint) stays under it (render.Camera.ZoomToward). Without a
// level point there, or one too far, it zooms towards the point of the
// cursor's ray nearest the target, which also stays under the cursor.
func (a *App) ZoomAt(steps, xPx, yPx float64, wPx, hPx int) {
	o, d := a.Camera.Ray(xPx, yPx, wPx, hPx)
	// rayT returns how far along the ray q's nearest point is.
	rayT := func(q geom.Vec3) float64 {
		dx, dy, dz := float64(q.X)-o[0], float64(q.Y)-o[1], float64(q.Z)-o[2]
		return float64(dx*d[0]) + float64(dy*d[1]) + float64(dz*d[2])
	}
	tFocus := max(rayT(a.Camera.Target), 0)
	p := geom.Vec3{X: float32(o[0] + float64(d[0]*tFocus)), Y: float32(o[1] + float64(d[1]*tFocus)), Z: float32(o[2] + float64(d[2]*tFocus))}
	if q, ok := PickPoint(a.soup, o, d); ok {
		if s := rayT(q); s > 0 && s <= zoomPickRange*max(tFocus, a.Camera.DistanceM) {
			p = q
		}
	}
	a.Camera.ZoomToward(p, steps)
}

// LevelBounds returns the box of the level geometry, or of the scene when
// there is no soup.
func (a *App) LevelBounds() geom.Box3 {
	if a.soup != nil && len(a.soup.Verts) > 0 {
		return a.soup.Bounds()
	}
	if a.soup == nil && (a.dtFile != nil || a.dtCache != nil) {
		return a.dtBounds // a Detour file's (detour_file.go)
	}
	return a.scene.Bounds()
}

// SetTopDown switches between the orbit view and the top-down view.
func (a *App) SetTopDown(top bool) { a.Camera.TopDown = top }

// SetOrtho switches between perspective and orthographic projection.
func (a *App) SetOrtho(ortho bool) { a.Camera.Ortho = ortho }

// Stats is what the Stats panel shows.
type Stats struct {
	Triangles, Vertices int
	Bounds              geom.Box3 // metres; empty when no level
}

// Stats returns the figures of the current level.
func (a *App) Stats() Stats {
	if a.soup == nil {
		return Stats{Bounds: geom.EmptyBox()}
	}
	return Stats{
		Triangles: len(a.soup.Tris),
		Vertices:  len(a.soup.Verts),
		Bounds:    a.soupBounds(),
	}
}

// soupBounds returns the bounds of Soup (not nil), computed once per soup.
func (a *App) soupBounds() geom.Box3 {
	if a.soupBoxOf != a.soup {
		a.soupBoxOf, a.soupBox = a.soup, a.soup.Bounds()
	}
	return a.soupBox
}

// Soup returns the current level's geometry (nil before the first Load).
func (a *App) Soup() *level.Soup { return a.soup }

// Scene returns what the view draws.
func (a *App) Scene() *render.Scene { return a.scene }

// Aspect returns the viewport's width/height (SetViewport; 0: unknown).
func (a *App) Aspect() float64 { return a.aspect }
