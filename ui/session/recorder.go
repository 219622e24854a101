package session

import (
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"regexp"
	"slices"

	"github.com/cespare/xxhash/v2"

	"navviz/core/pipeline"
	"navviz/core/voxel"
	"navviz/scenario"
	"navviz/tilecache"
)

// Recording a session as a scenario ("Save session as scenario…").
//
// From the moment a tile cache is installed (built, or dropped for
// another level) the recorder keeps the edits as scenario steps, in the
// order they reach the cache: every obstacle and volume added or removed
// (the tools, a move or a turn, undo and redo all go through the undo
// stack's cacheEditor, which calls the recorder: one place), every
// Update (consecutive ones merged: Update(a) then Update(b) rebuilds the
// same tiles as Update(a+b)), snapshots (as slots named after the file)
// and restores. Obstacles are named "obstacle-ID" and volumes
// "volume-ID" after the id the cache gave them (ids are never reused, and
// a restore brings back the names in force when the snapshot was taken,
// as the scenario runner does). Saving adds the view: the selected tile,
// the camera, the visible overlays with their scope, the path, and a shot
// of the window's size.

// snapshotSlot is a snapshot the session took: its bytes' hash and the
// names in force.
type snapshotSlot struct {
	hash      uint64
	obstacles map[tilecache.ObstacleID]string
	volumes   map[tilecache.VolumeID]string
}

// SessionRecorder records the edits of the current tile cache as
// scenario steps. The zero value records nothing until start.
type SessionRecorder struct {
	// on is set while a cache is installed.
	on bool
	// level and settings are those the cache was built with.
	level    string
	settings pipeline.NavSettings
	Steps    []scenario.Step

	obstacles map[tilecache.ObstacleID]string
	volumes   map[tilecache.VolumeID]string
	slots     map[string]snapshotSlot
	slotOf    map[string]string // snapshot file path -> slot
	// Broken says why the session cannot be written as a scenario ("":
	// it can).
	Broken string
}

// Start begins a new recording for a cache of level built with s.
func (r *SessionRecorder) Start(lvl string, s pipeline.NavSettings) {
	*r = SessionRecorder{on: true, level: lvl, settings: DetachSettings(s),
		obstacles: map[tilecache.ObstacleID]string{}, volumes: map[tilecache.VolumeID]string{},
		slots: map[string]snapshotSlot{}, slotOf: map[string]string{}}
}

// stop forgets the recording (no cache).
func (r *SessionRecorder) stop() { *r = SessionRecorder{} }

// add appends a step while recording.
func (r *SessionRecorder) add(st scenario.Step) {
	if r.on {
		r.Steps = append(r.Steps, st)
	}
}

// named gives a shape added under id its name, prefix-ID, in names.
func named[ID ~uint32](names map[ID]string, prefix string, id ID) string {
	n := fmt.Sprintf("%s-%d", prefix, id)
	names[id] = n
	return n
}

// unnamed takes the name of shape id (what: "obstacle" or "volume") out
// of names while recording; a shape without a name breaks the session.
func unnamed[ID ~uint32](r *SessionRecorder, names map[ID]string, what string, id ID) (string, bool) {
	if !r.on {
		return "", false
	}
	name, ok := names[id]
	if !ok {
		r.fail(fmt.Sprintf("%s #%d, removed, came from a snapshot file this session did not take: a scenario has no name for it", what, id))
		return "", false
	}
	delete(names, id)
	return name, true
}

// ObstacleAdded records obstacle o added under id.
func (r *SessionRecorder) ObstacleAdded(id tilecache.ObstacleID, o voxel.Obstacle) {
	if r.on {
		st := scenario.ObstacleStepOf(named(r.obstacles, "obstacle", id), o)
		r.add(scenario.Step{Obstacle: &st})
	}
}

// ObstacleRemoved records the removal of obstacle id.
func (r *SessionRecorder) ObstacleRemoved(id tilecache.ObstacleID) {
	if name, ok := unnamed(r, r.obstacles, "obstacle", id); ok {
		r.add(scenario.Step{RemoveObstacle: name})
	}
}

// VolumeAdded records volume v added under id.
func (r *SessionRecorder) VolumeAdded(id tilecache.VolumeID, v voxel.ConvexVolume) {
	if r.on {
		st := scenario.VolumeStepOf(named(r.volumes, "volume", id), v)
		r.add(scenario.Step{Volume: &st})
	}
}

// VolumeRemoved records the removal of volume id.
func (r *SessionRecorder) VolumeRemoved(id tilecache.VolumeID) {
	if name, ok := unnamed(r, r.volumes, "volume", id); ok {
		r.add(scenario.Step{RemoveVolume: name})
	}
}

// fail notes the first reason the session cannot be saved.
func (r *SessionRecorder) fail(why string) {
	if r.Broken == "" {
		r.Broken = why
	}
}

// Updated records an Update of n tiles (n >= 1), merged into a directly
// preceding update step.
func (r *SessionRecorder) Updated(n int) {
	if !r.on || n <= 0 {
		return
	}
	if k := len(r.Steps); k > 0 && r.Steps[k-1].Update != nil && !r.Steps[k-1].Update.All {
		r.Steps[k-1].Update.Tiles += n
		return
	}
	r.add(scenario.Step{Update: &scenario.UpdateCount{Tiles: n}})
}

// feed records history step st (nil: nothing), the one way the live
// session's recording is made (history_core.go): a new cache starts a
// new recording (with the edits it carried), and what a scenario cannot
// hold (several agent sizes, off-mesh links) breaks it.
func (r *SessionRecorder) feed(st *Step) {
	if st == nil {
		return
	}
	e := &st.Edit
	switch st.Kind {
	case StepNewCache:
		nc := st.NewCache
		r.Start(nc.Level, nc.Settings)
		if len(nc.Agents) > 1 {
			r.fail(fmt.Sprintf("the session has %d agent sizes; a scenario holds one (save a snapshot instead)", len(nc.Agents)))
		}
		for _, o := range nc.Obstacles {
			r.ObstacleAdded(o.ID, o.Obstacle)
		}
		for _, v := range nc.Volumes {
			r.VolumeAdded(v.ID, v.Volume)
		}
		if len(nc.Links) > 0 {
			r.fail(linksUnrecorded)
		}
	case StepAddObstacle:
		r.ObstacleAdded(e.ObstacleID, e.Obstacle)
	case StepRemoveObstacle:
		r.ObstacleRemoved(e.ObstacleID)
	case StepReplaceObstacle:
		r.ObstacleRemoved(e.RemovedObstacle)
		r.ObstacleAdded(e.ObstacleID, e.Obstacle)
	case StepAddVolume:
		r.VolumeAdded(e.VolumeID, e.Volume)
	case StepRemoveVolume:
		r.VolumeRemoved(e.VolumeID)
	case StepAddLink, StepRemoveLink, StepMoveLink:
		if r.on {
			r.fail(linksUnrecorded)
		}
	case StepUpdate:
		r.Updated(st.Update.MaxTiles)
	case StepRestore:
		r.restored(st.Snapshot.What, st.Snapshot.Hash)
	case StepSnapshot:
		r.snapshotTaken(st.Snapshot.What, st.Snapshot.Hash)
	}
}

// linksUnrecorded says why a session with off-mesh links is not saved.
const linksUnrecorded = "the session edits off-mesh links, which Save session as scenario does not write yet (add offmesh steps by hand, docs/scenario.md)"

// slotNameRE matches what a scenario slot name may not hold.
var slotNameRE = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// slotFor returns the slot of snapshot file path: its base name made a
// valid scenario name, unique among the session's files.
func (r *SessionRecorder) slotFor(path string) string {
	if s, ok := r.slotOf[path]; ok {
		return s
	}
	base := slotNameRE.ReplaceAllString(filepath.Base(path), "_")
	if base == "" || base[0] == '.' || base[0] == '_' || base[0] == '-' {
		base = "snapshot" + base
	}
	base = base[:min(len(base), 56)]
	name := base
	taken := func(n string) bool { return slices.Contains(slices.Collect(maps.Values(r.slotOf)), n) }
	for i := 2; taken(name); i++ {
		name = fmt.Sprintf("%s-%d", base, i)
	}
	r.slotOf[path] = name
	return name
}

// SnapshotTaken records a snapshot (data) saved to path, as a slot.
func (r *SessionRecorder) SnapshotTaken(path string, data []byte) {
	r.snapshotTaken(path, xxhash.Sum64(data))
}

// snapshotTaken records a snapshot whose bytes hash to h saved to path.
func (r *SessionRecorder) snapshotTaken(path string, h uint64) {
	if !r.on {
		return
	}
	slot := r.slotFor(path)
	r.slots[slot] = snapshotSlot{hash: h, obstacles: maps.Clone(r.obstacles), volumes: maps.Clone(r.volumes)}
	r.add(scenario.Step{Snapshot: &scenario.SnapshotRef{Slot: slot}})
}

// Restored records the restore of snapshot data read from path: from the
// slot of a snapshot this session took with the same bytes (the file's
// own slot first), else from the file itself (an absolute path; its
// obstacles and volumes then have no names).
func (r *SessionRecorder) Restored(path string, data []byte) {
	r.restored(path, xxhash.Sum64(data))
}

// restored records the restore of a snapshot whose bytes hash to h, read
// from path.
func (r *SessionRecorder) restored(path string, h uint64) {
	if !r.on {
		return
	}
	slot := ""
	if s, ok := r.slotOf[path]; ok && r.slots[s].hash == h {
		slot = s
	} else {
		for _, s := range slices.Sorted(maps.Keys(r.slots)) {
			if r.slots[s].hash == h {
				slot = s
				break
			}
		}
	}
	if slot != "" {
		r.obstacles, r.volumes = maps.Clone(r.slots[slot].obstacles), maps.Clone(r.slots[slot].volumes)
		r.add(scenario.Step{Restore: &scenario.SnapshotRef{Slot: slot}})
		return
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	r.obstacles, r.volumes = map[tilecache.ObstacleID]string{}, map[tilecache.VolumeID]string{}
	r.add(scenario.Step{Restore: &scenario.SnapshotRef{File: filepath.ToSlash(path)}})
}

// SessionScenario returns the session as a scenario to be written at
// file (an OBJ level is named relative to file's directory): the level,
// the settings of the cache (or, without a cache, the Build panel's),
// the recorded edits, then the view (selected tile, camera, overlays and
// scope, path) and a shot "session" of wPx x hPx with a legend. It fails
// when the session cannot be reproduced (build-time volumes or
// obstacles, a removal of something a foreign snapshot restored, no
// level). It reads the core's recorder: not with a worker (SaveSession
// runs it there).
func (a *App) SessionScenario(file string, wPx, hPx int) (*scenario.Scenario, error) {
	return a.sessionView(wPx, hPx).scenario(&a.core().Rec, file)
}

// sessionParts is what a session scenario takes from the frame: the
// level and settings without a cache, whether there is one, and the
// view's steps.
type sessionParts struct {
	level    string
	settings pipeline.NavSettings
	hasCache bool
	view     []scenario.Step
}

// sessionView returns the frame's part of the session.
func (a *App) sessionView(wPx, hPx int) sessionParts {
	return sessionParts{level: a.levelName, settings: a.settings, hasCache: a.CacheView().Has, view: a.viewSteps(wPx, hPx)}
}

// scenario is SessionScenario from the frame's parts p and the core's
// recorder r.
func (p sessionParts) scenario(r *SessionRecorder, file string) (*scenario.Scenario, error) {
	if r.Broken != "" {
		return nil, fmt.Errorf("ui: save session: %s", r.Broken)
	}
	lvl, s := p.level, p.settings
	cache := p.hasCache && r.on
	if cache {
		lvl, s = r.level, r.settings
	}
	if lvl == "" {
		return nil, fmt.Errorf("ui: save session: no level loaded")
	}
	st, err := scenario.SettingsOf(s)
	if err != nil {
		return nil, fmt.Errorf("ui: save session: %w", err)
	}
	sc := &scenario.Scenario{
		FormatVersion: scenario.Version,
		Description:   fmt.Sprintf("Session saved by navviz on %s.", DisplayName(lvl)),
		Settings:      st,
	}
	if IsBuiltin(lvl) {
		// level.Load makes a built-in level with the default seed, the
		// scenario's default too.
		sc.Level.Builtin = lvl
	} else {
		p, err := filepath.Abs(lvl)
		if err != nil {
			return nil, fmt.Errorf("ui: save session: level %s: %w", lvl, err)
		}
		if dir, err := filepath.Abs(filepath.Dir(file)); err == nil {
			if rel, err := filepath.Rel(dir, p); err == nil {
				p = rel
			}
		}
		sc.Level.OBJ = filepath.ToSlash(p)
	}
	if !cache {
		f := false
		sc.Cache = &f
	} else {
		sc.Steps = append(sc.Steps, r.Steps...)
	}
	sc.Steps = append(sc.Steps, p.view...)
	if err := sc.Validate(file); err != nil {
		return nil, fmt.Errorf("ui: save session: %w", err)
	}
	return sc, nil
}

// viewSteps returns the steps that set the view of the session: the
// selected tile, the camera, the overlays and scope, the path, and a shot
// of wPx x hPx.
func (a *App) viewSteps(wPx, hPx int) []scenario.Step {
	var steps []scenario.Step
	if a.selected.OK {
		if g, err := a.tileGrid(); err == nil && g.CheckTile(a.selected.X, a.selected.Z) == nil {
			steps = append(steps, scenario.Step{SelectTile: &[2]int{a.selected.X, a.selected.Z}})
		}
	}
	cam := a.Camera
	view := "orbit"
	if cam.TopDown {
		view = "top"
	}
	yaw := math.Remainder(cam.YawRad*180/math.Pi, 360)
	pitch := min(90, max(-90, cam.PitchRad*180/math.Pi))
	target := [3]float64{float64(cam.Target.X), float64(cam.Target.Y), float64(cam.Target.Z)}
	dist := max(cam.DistanceM, 0.01)
	ortho := cam.Ortho
	steps = append(steps, scenario.Step{Camera: &scenario.CameraStep{View: view, Ortho: &ortho, YawDeg: &yaw, PitchDeg: &pitch, TargetM: &target, DistanceM: &dist}})
	show := []string{}
	for _, n := range scenario.OverlayNames() {
		if o := a.scene.Overlay(n); o != nil && o.Visible {
			show = append(show, n)
		}
	}
	steps = append(steps, scenario.Step{Overlays: &scenario.OverlaysStep{Show: show, Scope: ScopeName(a.scope)}})
	start, hasStart := a.Path.Start()
	end, hasEnd := a.Path.End()
	if hasStart && hasEnd {
		steps = append(steps, scenario.Step{Path: &scenario.PathStep{
			StartM: [3]float64{float64(start.X), float64(start.Y), float64(start.Z)},
			EndM:   [3]float64{float64(end.X), float64(end.Y), float64(end.Z)},
		}})
	}
	steps = append(steps, scenario.Step{Shot: &scenario.ShotStep{Name: "session", Size: fmt.Sprintf("%dx%d", max(wPx, 1), max(hPx, 1)), Legend: true}})
	return steps
}

// ScopeName returns the scenario name of scope s.
func ScopeName(s SpanScope) string {
	switch s {
	case ScopeSelected:
		return scenario.ScopeSelected
	case ScopeAll:
		return scenario.ScopeAll
	}
	return scenario.ScopeNeighbours
}

// SaveSession writes the session (SessionScenario) to path, atomically
// (a failed write leaves an existing file as it was); a path without an
// extension gets ".scenario.json". It returns the path written. Errors
// are shown and returned (with a worker, which reads the recorder and
// writes the file: shown when they arrive).
func (a *App) SaveSession(path string, wPx, hPx int) (string, error) {
	if path == "" {
		return "", a.Report(fmt.Errorf("ui: save session: no file name"))
	}
	if filepath.Ext(path) == "" {
		path += scenario.FileExt
	}
	parts := a.sessionView(wPx, hPx)
	err := a.CacheDo(CacheJob{name: "save session", Run: func(k *CacheCore) func(*App) error {
		sc, err := parts.scenario(&k.Rec, path)
		if err != nil {
			return failWith(err)
		}
		data, err := scenario.Marshal(sc)
		if err != nil {
			return failWith(fmt.Errorf("ui: save session: %w", err))
		}
		if err := WriteFileAtomic(path, data); err != nil {
			return failWith(fmt.Errorf("ui: save session: %w", err))
		}
		status := fmt.Sprintf("session saved as scenario %s (%d steps)", path, len(sc.Steps))
		return okWith(status)
	}})
	if err != nil {
		return "", err
	}
	return path, nil
}
