package session

import (
	"context"

	"navviz/core/geom"
	"navviz/core/pipeline"
	"navviz/render"
)

// The build's overlays in the scene: the span and mesh overlays of the
// plain build (built at once or as stage jobs off the frame), and
// syncOverlay, which every overlay group of the App uses.

// SyncSpanOverlays makes the scene's build overlays match the state (see
// syncOverlay): each visible one holds the content of the current build,
// scope and selection.
func (a *App) SyncSpanOverlays() {
	if a.scene == nil {
		return
	}
	if a.spanBuilt == nil {
		a.initBuildState()
	}
	keep, show := a.SpanFilter()
	a.pollStageOverlays()
	var deferred []string // stage overlays to build in the background
	for _, name := range BuildOverlayNames {
		want := a.spanOverlayKey(name)
		if a.stageJobs != nil && a.stageStale(name) {
			a.spanVis[name] = true
			deferred = append(deferred, name)
			continue
		}
		syncOverlay(a, name, a.spanVis, a.spanBuilt, want, func() *render.Overlay {
			return a.BuildSpanOverlay(name, keep, show)
		})
	}
	a.startStageOverlays(deferred, keep, show)
	a.SyncCacheOverlays() // the tile cache's overlays (cache_state.go)
	a.syncInspect()       // the repair inspector's (panel_inspect.go)
	a.SyncPath()          // the Path tool's (path.go)
	a.syncAgents()        // the Agents tool's (agents.go)
}

// stageResult is what a background build of stage overlays hands back:
// each overlay with the content key it was built for.
type stageResult struct {
	overlays []*render.Overlay
	keys     []overlayKey
}

// EnableStageJobs makes syncSpanOverlays build the visible stage overlays
// (span and mesh overlays of the plain build) in a background job, one at
// a time, instead of on the caller's goroutine: until the job ends an
// overlay keeps its previous content. The job reads only the plain build,
// which nothing changes once built. navviz's window enables it; without
// it (tests, scripted runs) the overlays are built at once.
func (a *App) EnableStageJobs() {
	if a.stageJobs == nil {
		a.stageJobs = NewJobRunner[stageResult]()
	}
}

// StageJobsEnabled reports whether EnableStageJobs was called.
func (a *App) StageJobsEnabled() bool { return a.stageJobs != nil }

// StageBusy reports whether stage overlays are being built in the
// background.
func (a *App) StageBusy() bool {
	if a.stageJobs == nil {
		return false
	}
	running, _, _ := a.stageJobs.Progress()
	return running
}

// StagePending reports whether a visible stage overlay does not show the
// current build, scope and selection yet (its background job runs or is
// to start).
func (a *App) StagePending() bool {
	if a.StageBusy() {
		return true
	}
	for _, name := range BuildOverlayNames {
		if a.stageStale(name) {
			return true
		}
	}
	return false
}

// stageStale reports whether name is a visible stage overlay that does
// not show the current build, scope and selection.
func (a *App) stageStale(name string) bool {
	if !render.IsPerTileOverlay(name) { // a stage overlay: up to a few hundred ms at scope all
		return false
	}
	if o := a.scene.Overlay(name); o == nil || !o.Visible {
		return false
	}
	got, ok := a.spanBuilt[name]
	return !ok || got != a.spanOverlayKey(name)
}

// pollStageOverlays installs the overlays of a finished stage job whose
// content key is still the one wanted (the others are built again).
func (a *App) pollStageOverlays() {
	if a.stageJobs == nil {
		return
	}
	res, ok := a.stageJobs.Poll()
	if !ok {
		return
	}
	for i, o := range res.overlays {
		name := o.Name
		cur := a.scene.Overlay(name)
		if cur == nil || !cur.Visible || a.spanOverlayKey(name) != res.keys[i] {
			continue
		}
		a.scene.Add(o)
		a.spanBuilt[name] = res.keys[i]
		a.gen++
	}
}

// startStageOverlays starts a background job building the stage overlays
// names for the tiles keep selects (nothing unless show), unless one is
// running: it is asked again when that one has ended.
func (a *App) startStageOverlays(names []string, keep render.TileFilter, show bool) {
	if len(names) == 0 || a.StageBusy() {
		return
	}
	b := a.build
	keys := make([]overlayKey, len(names))
	for i, n := range names {
		keys[i] = a.spanOverlayKey(n)
	}
	a.stageJobs.Run(func(context.Context, func(done, total int)) stageResult {
		res := stageResult{keys: keys}
		for _, n := range names {
			res.overlays = append(res.overlays, stageOverlay(n, b, keep, show))
		}
		return res
	})
}

// stageOverlay builds the stage overlay name of b for the tiles keep
// selects; an empty overlay unless show (or without a build).
func stageOverlay(name string, b *pipeline.Build, keep render.TileFilter, show bool) *render.Overlay {
	var n *render.Overlay
	if show {
		n, _ = render.StageOverlay(name, b, keep) // names are valid
	}
	if n == nil {
		n = &render.Overlay{Name: name}
	}
	return n
}

// syncOverlay makes the scene's overlay name match the state: it exists
// (an empty placeholder while hidden, so that the View panel lists it,
// with its visibility remembered in vis across levels); a hidden one holds
// nothing; a visible one is rebuilt by build when its content key want
// differs from built[name], the key of what it holds. An armed overlay
// (App.armed: hidden at start) is built as if visible and ticked the first
// time it has something to show.
func syncOverlay[K comparable](a *App, name string, vis map[string]bool, built map[string]K, want K, build func() *render.Overlay) {
	armed := a.armed[name]
	o := a.scene.Overlay(name)
	if o == nil {
		o = a.placeholder(name, vis)
		delete(built, name)
	}
	vis[name] = o.Visible
	if !o.Visible && !armed {
		if len(o.Tris)+len(o.Lines)+len(o.Points) > 0 {
			a.scene.Add(&render.Overlay{Name: name})
			delete(built, name)
			a.gen++
		}
		return
	}
	if got, ok := built[name]; ok && got == want {
		return
	}
	n := build()
	built[name] = want
	if !o.Visible { // armed: ticked with its first content
		if n == nil || len(n.Tris)+len(n.Lines)+len(n.Points) == 0 {
			return
		}
		delete(a.armed, name)
		vis[name] = true
		o.Visible = true
	}
	a.scene.Add(n)
	a.gen++
}

// placeholder adds overlay name to the scene, empty, with its visibility
// from vis (hidden while armed), and returns it.
func (a *App) placeholder(name string, vis map[string]bool) *render.Overlay {
	o := &render.Overlay{Name: name, Visible: vis[name] && !a.armed[name]}
	a.scene.Overlays = append(a.scene.Overlays, o)
	a.gen++
	return o
}

// spanOverlayKey returns the key of the content build overlay name shows
// now.
func (a *App) spanOverlayKey(name string) overlayKey {
	switch name {
	case render.OverlayVolumes:
		return overlayKey{volumes: a.volumesGen}
	case render.OverlaySelection:
		return overlayKey{sel: a.selected, build: a.build}
	case render.OverlayPicked:
		k := overlayKey{build: a.build, pick: a.picked, from: a.pickedFrom}
		if a.pickedFrom == MeshCache {
			k.meshGen = a.Gens.mesh
		}
		return k
	}
	if a.scope == ScopeAll {
		// Every tile whatever the selection: a click does not rebuild
		// the whole level's overlays.
		return overlayKey{build: a.build, scope: a.scope}
	}
	return overlayKey{build: a.build, scope: a.scope, sel: a.selected}
}

// BuildSpanOverlay builds build overlay name from the state; the span and
// mesh overlays draw the tiles keep selects, and nothing unless show.
func (a *App) BuildSpanOverlay(name string, keep render.TileFilter, show bool) *render.Overlay {
	var n *render.Overlay
	switch name {
	case render.OverlayVolumes:
		b := geom.EmptyBox()
		if a.soup != nil {
			b = a.soup.Bounds()
		}
		n = render.VolumesOverlay(a.settings.Volumes, b)
	case render.OverlaySelection:
		n = render.SelectionOverlay(a.SelectionBoxes())
	case render.OverlayPicked:
		n = render.PickedOverlay(a.meshOf(a.pickedFrom), a.picked)
	default:
		n = stageOverlay(name, a.build, keep, show)
	}
	return n
}
