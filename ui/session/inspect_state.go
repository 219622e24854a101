package session

import (
	"navviz/core/navmesh"
	"navviz/inspect"
	"navviz/render"
	"navviz/tilecache"
)

// inspectState is the inspector's part of App (in cacheState).
type inspectState struct {
	// Rec is the recorder (nil until recording is first switched on); on
	// whether it is the caches' trace (cacheCore.trace); cache the cache
	// (cacheView.cacheSeq) its reports are of.
	Rec   *inspect.Recorder
	on    bool
	cache uint64
	// reports are the reports shown (those of the last Update that rebuilt
	// a layer), read when the recorder's Updates count moved past updates.
	reports []inspect.LayerReport
	updates int
	// selected is the report whose overlays are drawn (-1: every one).
	selected int
	// gen is bumped when reports or selected change; built and vis are
	// the overlays' content keys and visibility (syncOverlay).
	gen   uint64
	built map[string]uint64
	vis   map[string]bool
	// picked is the picked polygon syncInspect last saw (see
	// inspectForPick).
	picked navmesh.PolyRef
}

// SetInspect turns the recording of layer rebuilds on or off. On, the
// recorder becomes the cache's trace (also of a cache built later) and
// compares repaired contours with from-scratch ones; off, the cache has no
// trace and the reports are dropped.
func (a *App) SetInspect(on bool) {
	s := &a.Insp
	if on && s.Rec == nil {
		s.Rec = inspect.NewRecorder(true)
	}
	if s.on == on {
		return
	}
	s.on = on
	var t tilecache.Trace // nil: no trace (not a nil *inspect.Recorder)
	if on {
		t = s.Rec
	}
	a.Report(a.CacheDo(CacheJob{Run: func(k *CacheCore) func(*App) error {
		k.trace = t
		if k.World != nil {
			k.tap() // the shown cache's history trace passes it on
		}
		return nil
	}}))
	s.cache = a.CacheView().CacheSeq
	if !on {
		s.Rec.Clear()
		s.reports, s.updates, s.selected = nil, s.Rec.Updates(), -1
		s.gen++
	}
}

// InspectOn reports whether layer rebuilds are recorded.
func (a *App) InspectOn() bool { return a.Insp.on }

// SetInspectCompare turns the comparison with from-scratch contours on or
// off (one more contour build per repaired layer).
func (a *App) SetInspectCompare(on bool) {
	if a.Insp.Rec != nil {
		a.Insp.Rec.SetCompareScratch(on)
	}
}

// InspectReports returns the reports shown: one per layer the last Update
// that rebuilt a layer built (at most inspect.DefaultMaxReports).
func (a *App) InspectReports() []inspect.LayerReport { return a.Insp.reports }

// InspectSelected returns the index of the report whose overlays are drawn
// (-1: every report).
func (a *App) InspectSelected() int {
	if a.Insp.reports == nil {
		return -1
	}
	return a.Insp.selected
}

// SelectInspect selects report i for the overlays (out of range: every
// report).
func (a *App) SelectInspect(i int) {
	if i < 0 || i >= len(a.Insp.reports) {
		i = -1
	}
	if i != a.Insp.selected {
		a.Insp.selected = i
		a.Insp.gen++
	}
}

// syncInspect follows the cache (a new cache gets the recorder as its
// trace), takes the recorder's reports after an Update that rebuilt a
// layer (and marks the start of the next list: inspect.Recorder.Begin),
// and brings the inspector overlays up to date (syncOverlay). It runs with
// the other overlays, once a frame.
func (a *App) syncInspect() {
	s := &a.Insp
	if s.built == nil {
		s.built, s.vis, s.selected = map[string]uint64{}, map[string]bool{}, -1
		for _, name := range render.InspectOverlayNames {
			s.vis[name] = true
		}
	}
	if v := a.CacheView(); s.cache != v.CacheSeq {
		// A new cache: it got the trace when it was installed.
		s.cache = v.CacheSeq
		if s.Rec != nil {
			s.Rec.Clear()
		}
		s.reports, s.selected = nil, -1
		s.gen++
	}
	if s.on && s.Rec != nil {
		if n := s.Rec.Updates(); n != s.updates {
			s.updates = n
			s.reports, s.selected = s.Rec.Reports(), -1
			s.gen++
		}
		s.Rec.Begin()
	}
	if a.picked != s.picked {
		s.picked = a.picked
		if i := InspectForPick(s.reports, a.picked, &a.pickedInfo); i >= 0 {
			a.SelectInspect(i)
		}
	}
	if a.scene == nil {
		return
	}
	for _, name := range render.InspectOverlayNames {
		syncOverlay(a, name, s.vis, s.built, s.gen, func() *render.Overlay {
			o, err := render.InspectOverlay(name, a.inspectShown())
			if err != nil {
				return &render.Overlay{Name: name}
			}
			return o
		})
	}
}

// InspectForPick returns the index of the report of the tile layer that
// the picked polygon ref (described by info) lies in, or -1 (no pick, or
// no report of that layer): clicking a layer in the view selects its
// verdict.
func InspectForPick(reps []inspect.LayerReport, ref navmesh.PolyRef, info *render.PolyInfo) int {
	if ref == 0 || info == nil {
		return -1
	}
	for i := range reps {
		r := &reps[i]
		if r.TX == int(info.TileX) && r.TZ == int(info.TileZ) && r.Layer == int(info.Layer) {
			return i
		}
	}
	return -1
}

// inspectShown returns the reports the overlays draw: the selected one, or
// every one.
func (a *App) inspectShown() []inspect.LayerReport {
	s := &a.Insp
	if s.selected >= 0 && s.selected < len(s.reports) {
		return s.reports[s.selected : s.selected+1]
	}
	return s.reports
}
