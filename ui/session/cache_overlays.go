package session

import (
	"navviz/render"
)

// The cache overlays in the scene: built in the worker's views, or here
// without a worker, and the tools' preview.

// SyncCacheOverlays makes the scene's cache overlays match the state (see
// syncOverlay): each visible one is rebuilt when what it shows changed.
// With a worker the overlays that follow the cache come built in its
// views: when the latest view lacks one (it was just made visible, or the
// selection changed) a view with it is asked for, and the overlay follows
// when it arrives.
func (a *App) SyncCacheOverlays() {
	if a.scene == nil {
		return
	}
	if a.cacheBuilt == nil {
		a.initCacheState()
	}
	v := a.CacheView()
	if a.worker != nil {
		// The visibility the user set since: what the next view builds.
		for _, name := range render.CacheOverlayNames {
			if o := a.scene.Overlay(name); o != nil {
				a.CacheVis[name] = o.Visible
			}
		}
		want := a.cacheWant()
		if !sameWant(v.want, want) && !sameWant(a.viewAsked, want) {
			if busy, _ := a.CacheBusy(); !busy {
				a.viewAsked = want
				a.Report(a.CacheDo(CacheJob{Run: func(*CacheCore) func(*App) error { return nil }})) // a new view, nothing else
			}
		}
	}
	for _, name := range render.CacheOverlayNames {
		if a.worker != nil && name != render.OverlayToolPreview {
			built, ok := v.overlays[name]
			if (!ok || v.want.selected != a.Selection.Obstacle()) && (a.CacheVis[name] || a.armed[name]) {
				if a.scene.Overlay(name) == nil {
					a.placeholder(name, a.CacheVis) // listed in the scene's order meanwhile
				}
				continue // asked for above; the overlay shown stays until it arrives
			}
			syncOverlay(a, name, a.CacheVis, a.cacheBuilt, cacheOverlayKey{cache: v.seq, a: uint64(a.Selection.Obstacle())}, func() *render.Overlay {
				c := *built // the scene sets Visible: the view's stays as it is
				return &c
			})
			continue
		}
		syncOverlay(a, name, a.CacheVis, a.cacheBuilt, a.cacheOverlayKey(name), func() *render.Overlay {
			return a.BuildCacheOverlay(name)
		})
	}
}

// cacheOverlayKey returns the key of the content overlay name shows now.
func (a *App) cacheOverlayKey(name string) cacheOverlayKey {
	k := cacheOverlayKey{cache: a.CacheView().CacheSeq}
	switch name {
	case render.OverlayCachePolys, render.OverlayCacheLayers:
		k.a = a.Gens.mesh
	case render.OverlayObstacles, render.OverlayVolumesRT, render.OverlayOffMesh:
		k.a, k.sel = a.Gens.shapes, a.Selection.Gen()
	case render.OverlayQueue:
		k.a, k.b = a.Gens.queue, a.Gens.mesh
	case render.OverlaySwaps:
		k.a, k.b = a.Gens.swaps, a.Gens.mesh
	case render.OverlayToolPreview:
		k.a, k.b, k.sel = a.Gens.Preview, a.Gens.shapes, a.Selection.Gen()
	}
	return k
}

// BuildCacheOverlay builds cache overlay name from the state: the tool
// preview here, the others from the core (without a worker only: with
// one they come in its views).
func (a *App) BuildCacheOverlay(name string) *render.Overlay {
	if name == render.OverlayToolPreview {
		return a.PreviewOverlay()
	}
	return a.core().stateOverlay(name, a.cacheWant())
}
