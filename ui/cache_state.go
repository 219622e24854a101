package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/pipeline"
	"navviz/core/voxel"
	"navviz/render"
	"navviz/tilecache"
)

// The tile cache in navviz.
//
// The Cache panel's "Build cache" builds a tilecache.Cache of the current
// level with the Build panel's settings (the "Obstacle preset" button sets
// them to what build3d-runtime.md recommends for obstacle work: partition
// Layers and DetailSampleDistCells 0). The cache is independent of the
// Build panel's plain build: its live navmesh is the "cache-polys" overlay,
// while "polys", "detail" and the Inspector keep showing the plain build.
// The cache is built off the game loop (cacheRunner) and installed on the
// game goroutine (InstallCache); loading another level drops it.

// defaultTilesPerFrame is how many tiles auto update rebuilds per frame.
const defaultTilesPerFrame = 1

// maxTilesPerFrame bounds the Tiles per frame field.
const maxTilesPerFrame = 256

// cacheOverlayDefaults is the initial visibility of the cache overlays.
var cacheOverlayDefaults = map[string]bool{
	render.OverlayCachePolys:  true,
	render.OverlayObstacles:   true,
	render.OverlayOffMesh:     true,
	render.OverlayVolumesRT:   true,
	render.OverlayQueue:       true,
	render.OverlaySwaps:       true,
	render.OverlayToolPreview: true,
}

// cacheGens are counters bumped when what an overlay shows changes.
type cacheGens struct {
	mesh    uint64 // the cache's mesh (swaps, restore, a new cache)
	shapes  uint64 // obstacles, volumes, the selected obstacle
	queue   uint64 // the queue
	swaps   uint64 // the swap log and the latest update
	preview uint64 // the tools' preview
}

// cacheOverlayKey is what a built cache overlay's content depends on: the
// cache (cacheCore.cacheSeq) or, with a worker, the view (cacheView.seq),
// and generations.
type cacheOverlayKey struct {
	cache uint64
	a, b  uint64
}

// cacheState is the part of App about the tile cache: the cache's core
// (owned by the worker when there is one, cache_worker.go) and the view
// of it the frame reads, the update controls, the tools and the cache
// overlays.
type cacheState struct {
	// cacheCore is the cache and what changes with it. With a worker the
	// frame must not touch it: it reads cv() (tests without a worker may).
	*cacheCore
	worker    *cacheWorker // nil: jobs run at once (cache_worker.go)
	view      *cacheView   // the latest view (cv)
	viewStale bool         // without a worker: a job ran since view was made
	viewAsked cacheOverlayWant

	// CacheLevel is the level the cache was built for; CacheBuildTime how
	// long its build took.
	CacheLevel     string
	CacheBuildTime time.Duration
	// CacheErr is the text of the last failed cache build ("" after a
	// success).
	CacheErr string

	// AutoUpdate rebuilds TilesPerFrame queued tiles every frame.
	AutoUpdate    bool
	TilesPerFrame int

	// Tool is the active tool; ObstacleTool and VolumeTool their settings
	// and state (tools_obstacle.go, tools_volume.go).
	Tool         toolKind
	ObstacleTool obstacleTool
	VolumeTool   volumeTool
	// OffMeshTool is the Link tool's settings and state (tools_offmesh.go).
	OffMeshTool offMeshTool
	// SelectedObstacle is the selected obstacle (0: none): drawn in cyan,
	// removed by Delete, resized by "Apply".
	SelectedObstacle tilecache.ObstacleID

	gens       cacheGens
	cacheBuilt map[string]cacheOverlayKey
	cacheVis   map[string]bool

	// shownErr is the text report last put in App.Err, so that a later
	// success (reportOK) clears only a reported error (report.go).
	shownErr string

	// insp is the repair inspector (inspect_panel.go).
	insp inspectState
}

// initCacheState sets the defaults.
func (a *App) initCacheState() {
	a.core()
	a.AutoUpdate = true
	a.TilesPerFrame = defaultTilesPerFrame
	a.ObstacleTool = defaultObstacleTool()
	a.VolumeTool = defaultVolumeTool()
	a.OffMeshTool = defaultOffMeshTool()
	a.cacheBuilt = map[string]cacheOverlayKey{}
	a.cacheVis = map[string]bool{}
	for k, v := range cacheOverlayDefaults {
		a.cacheVis[k] = v
	}
}

// failWith is the continuation of a job that failed with err.
func failWith(err error) func(a *App) error {
	return func(*App) error { return err }
}

// InstallCache makes c the cache of the current level (built for level in
// wall time): the history, the selection, the tools' state and the swap
// log start afresh.
func (a *App) InstallCache(c *tilecache.Cache, level string, wall time.Duration) {
	if a.cacheBuilt == nil {
		a.initCacheState()
	}
	a.CacheLevel = level
	a.CacheBuildTime = wall
	a.CacheErr = ""
	a.SelectedObstacle = 0
	a.ObstacleTool.drag = obstacleDrag{}
	a.VolumeTool.Corners = nil
	a.report(a.cacheDo(cacheJob{name: "new cache", run: func(k *cacheCore) func(*App) error {
		k.install(c, level)
		return func(a *App) error {
			a.bumpAll()
			return nil
		}
	}}))
}

// install makes c the core's cache (nil: none).
func (k *cacheCore) install(c *tilecache.Cache, level string) {
	k.Cache = c
	k.cacheSeq++
	k.editor = newCacheEditor(nil)
	k.rec.stop()
	if c != nil {
		k.editor = newCacheEditor(c)
		k.rec.start(level, c.Settings())
		c.SetTrace(k.trace)
	}
	k.editor.rec = &k.rec // the session's recording (recorder.go)
	k.history.clear()
	k.Updates, k.LayersBuilt = 0, 0
	k.Swaps.Reset()
}

// DropCache forgets the cache (another level was loaded).
func (a *App) DropCache() {
	if a.worker == nil {
		if a.Cache == nil && a.editor == nil {
			return
		}
	} else if busy, _ := a.cacheBusy(); !busy && !a.cv().has {
		return
	}
	a.InstallCache(nil, "", 0)
}

// bumpAll marks every cache overlay out of date.
func (a *App) bumpAll() {
	a.gens.mesh++
	a.gens.shapes++
	a.gens.queue++
	a.gens.swaps++
	a.gens.preview++
}

// cacheGrid returns the cache's tile grid (nil without a cache).
func (a *App) cacheGrid() *pipeline.TileGrid {
	v := a.cv()
	if !v.has {
		return nil
	}
	g := v.grid
	return &g
}

// runCommand applies the command mk makes from the core's editor through
// the undo stack (named what until it ran); on success the swap log
// starts afresh, the status names the command and, when sel is set, what
// sel returns (asked on the core's owner, e.g. selecting the new
// obstacle) runs on the frame; an error is shown and returned (with a
// worker: shown when it arrives).
func (a *App) runCommand(what string, mk func(e *cacheEditor) command, sel func(cmd command) func(a *App)) error {
	return a.cacheDo(cacheJob{name: what, run: func(k *cacheCore) func(*App) error {
		if k.Cache == nil || k.editor == nil {
			return failWith(errNoCache)
		}
		cmd := mk(k.editor)
		if err := k.history.run(k.editor, cmd); err != nil {
			return failWith(err)
		}
		k.Swaps.Reset()
		status := fmt.Sprintf("%s; %d tiles queued", cmd, k.Cache.QueueLen())
		var selectIt func(a *App)
		if sel != nil {
			selectIt = sel(cmd)
		}
		return func(a *App) error {
			a.edited()
			if selectIt != nil {
				selectIt(a)
			}
			a.reportOK(status)
			return nil
		}
	}})
}

// edited notes a change of the cache's obstacles or volumes.
func (a *App) edited() {
	a.gens.shapes++
	a.gens.queue++
	a.gens.swaps++
	if a.SelectedObstacle != 0 && !a.hasObstacle(a.SelectedObstacle) {
		a.SelectedObstacle = 0
	}
}

// Undo reverts the last tool command (Ctrl+Z). It returns false when there
// was nothing to undo (with a worker: always false, the undo is queued).
func (a *App) Undo() (bool, error) { return a.replayHistory("undo", "undid", (*undoStack).undo) }

// Redo applies the last undone command again (Ctrl+Y or Ctrl+Shift+Z).
// It returns false when there was nothing to redo (with a worker: always
// false, the redo is queued).
func (a *App) Redo() (bool, error) { return a.replayHistory("redo", "redid", (*undoStack).redo) }

// replayHistory applies step, the undo stack's undo or redo, to the cache;
// verb and done ("undo", "undid") word the status line and the error. An
// error is shown and returned. It returns false when there was no command
// to undo or redo, or no cache.
func (a *App) replayHistory(verb, done string, step func(*undoStack, *cacheEditor) (string, bool, error)) (bool, error) {
	replayed := false
	err := a.cacheDo(cacheJob{name: verb, run: func(k *cacheCore) func(*App) error {
		if k.Cache == nil || k.editor == nil {
			return nil
		}
		name, ok, err := step(&k.history, k.editor)
		if !ok {
			return func(a *App) error {
				a.reportOK("nothing to " + verb)
				return nil
			}
		}
		replayed = true
		if err != nil {
			return failWith(fmt.Errorf("ui: %s %s: %w", verb, name, err))
		}
		k.Swaps.Reset()
		status := fmt.Sprintf("%s %s; %d tiles queued", done, name, k.Cache.QueueLen())
		return func(a *App) error {
			a.edited()
			a.reportOK(status)
			return nil
		}
	}})
	if a.worker != nil {
		return false, nil // replayed is the worker's
	}
	return replayed, err
}

// StepCache runs Update(n) on the cache: the rebuilt tiles become
// Swaps.Latest and join the swap log. It returns the number of tiles
// rebuilt (with a worker: 0, the step is queued). An error (a tile whose
// rebuild failed: it left the queue, the call's other tiles were swapped
// in) is shown and returned, and auto update is switched off so that the
// user sees it.
func (a *App) StepCache(n int) (int, error) { return a.stepCache(n, false, "", nil) }

// UpdateAllCache rebuilds every queued tile (Update with the queue's
// length when the worker gets to it) and reports what it did in the
// status line.
func (a *App) UpdateAllCache() error {
	_, err := a.stepCache(0, true, "update all", func(a *App, tiles int) { a.reportOK("updated " + plural(tiles, "tile")) })
	return err
}

// stepCache is StepCache of n tiles, or with all of the tiles queued when
// the job runs; name is the job's (see cacheJob), done runs on the frame
// after a success with the number of tiles rebuilt.
func (a *App) stepCache(n int, all bool, name string, done func(a *App, tiles int)) (int, error) {
	tiles := 0
	err := a.cacheDo(cacheJob{name: name, run: func(k *cacheCore) func(*App) error {
		c := k.Cache
		if c == nil {
			return failWith(errNoCache)
		}
		if all {
			n = c.QueueLen()
		}
		if n <= 0 || c.QueueLen() == 0 {
			if done == nil {
				return nil
			}
			return func(a *App) error {
				done(a, 0)
				return nil
			}
		}
		k.Swaps.BeforeUpdate(c, n)
		n = min(n, c.QueueLen())
		// A failed tile leaves the queue while the call's other tiles are
		// swapped in: record them before reporting the error.
		res, err := c.Update(n)
		k.Swaps.AfterUpdate(&res)
		k.rec.updated(n)
		k.Updates++
		k.LayersBuilt += res.LayersBuilt()
		tiles = len(res.Tiles)
		rebuilt := tiles
		return func(a *App) error {
			a.gens.mesh++
			a.gens.queue++
			a.gens.swaps++
			if err != nil {
				a.AutoUpdate = false
				return fmt.Errorf("ui: cache update (auto update switched off): %w", err)
			}
			if done != nil {
				done(a, rebuilt)
			}
			return nil
		}
	}})
	return tiles, err
}

// autoUpdate runs one frame of auto update: a step of TilesPerFrame
// tiles, sent only when the worker has nothing else to do (the steps do
// not pile up behind a long job).
func (a *App) autoUpdate() {
	if !a.AutoUpdate || len(a.cv().queue) == 0 {
		return
	}
	if busy, _ := a.cacheBusy(); busy {
		return
	}
	a.report(errOf(a.StepCache(min(max(a.TilesPerFrame, 1), maxTilesPerFrame))))
}

// snapshotExt is the file extension of snapshots written by navviz.
const snapshotExt = ".nvtc"

// SaveSnapshot writes the cache's snapshot (tilecache.Cache.Snapshot) to
// path; a path without an extension gets ".nvtc". Errors are shown and
// returned.
func (a *App) SaveSnapshot(path string) (string, error) {
	if !a.cv().has {
		return "", a.report(errNoCache)
	}
	if path == "" {
		return "", a.report(fmt.Errorf("ui: save snapshot: no file name"))
	}
	if filepath.Ext(path) == "" {
		path += snapshotExt
	}
	err := a.cacheDo(cacheJob{name: "save snapshot", run: func(k *cacheCore) func(*App) error {
		data, err := k.Cache.Snapshot()
		if err != nil {
			return failWith(fmt.Errorf("ui: save snapshot: %w", err))
		}
		if err := writeFileAtomic(path, data); err != nil {
			return failWith(fmt.Errorf("ui: save snapshot: %w", err))
		}
		k.rec.snapshotTaken(path, data)
		status := fmt.Sprintf("snapshot saved to %s (%d bytes, %d obstacles, %d volumes, %d tiles queued)",
			path, len(data), len(k.Cache.Obstacles()), len(k.Cache.Volumes()), k.Cache.QueueLen())
		return func(a *App) error {
			a.reportOK(status)
			return nil
		}
	}})
	if err != nil {
		return "", err
	}
	return path, nil
}

// RestoreSnapshot reads a snapshot from path and restores it into the cache
// (tilecache.Cache.Restore). A file that cannot be read, or a snapshot that
// is corrupt or was taken from other geometry or settings, is an error
// shown in the window, and the cache is untouched. On success the undo
// history is cleared (its commands name obstacles the restored state may
// not have), the selection and the swap log too. The file is read when
// the job runs, after the jobs sent before (a snapshot saved just before
// is there).
func (a *App) RestoreSnapshot(path string) error {
	return a.restoreSnapshot(path, func() ([]byte, error) {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("ui: restore snapshot: %w", err)
		}
		return data, nil
	})
}

// restoreSnapshotData is RestoreSnapshot on bytes; what names them in
// messages.
func (a *App) restoreSnapshotData(data []byte, what string) error {
	return a.restoreSnapshot(what, func() ([]byte, error) { return data, nil })
}

// restoreSnapshot restores the snapshot read returns (on the core's
// owner); what names it in messages.
func (a *App) restoreSnapshot(what string, read func() ([]byte, error)) error {
	return a.cacheDo(cacheJob{name: "restore snapshot", run: func(k *cacheCore) func(*App) error {
		if k.Cache == nil {
			return failWith(errNoCache)
		}
		data, err := read()
		if err != nil {
			return failWith(err)
		}
		if err := k.Cache.Restore(data); err != nil {
			return failWith(fmt.Errorf("ui: restore snapshot %s (the cache is unchanged): %w", what, err))
		}
		k.rec.restored(what, data)
		k.editor = newCacheEditor(k.Cache)
		k.editor.rec = &k.rec
		k.history.clear()
		k.Swaps.Reset()
		status := fmt.Sprintf("restored %s: %d obstacles, %d volumes, %d tiles queued (undo history cleared)",
			what, len(k.Cache.Obstacles()), len(k.Cache.Volumes()), k.Cache.QueueLen())
		return func(a *App) error {
			a.SelectedObstacle = 0
			a.ObstacleTool.drag = obstacleDrag{}
			a.bumpAll()
			a.reportOK(status)
			return nil
		}
	}})
}

// hasObstacle reports whether the cache holds obstacle id.
func (a *App) hasObstacle(id tilecache.ObstacleID) bool {
	_, ok := a.obstacleByID(id)
	return ok
}

// obstacleByID returns obstacle id of the cache (as the latest view has
// it).
func (a *App) obstacleByID(id tilecache.ObstacleID) (voxel.Obstacle, bool) {
	if id == 0 {
		return voxel.Obstacle{}, false
	}
	for _, o := range a.cv().obstacles {
		if o.ID == id {
			return o.Obstacle, true
		}
	}
	return voxel.Obstacle{}, false
}

// syncCacheOverlays makes the scene's cache overlays match the state (see
// syncOverlay): each visible one is rebuilt when what it shows changed.
// With a worker the overlays that follow the cache come built in its
// views: when the latest view lacks one (it was just made visible, or the
// selection changed) a view with it is asked for, and the overlay follows
// when it arrives.
func (a *App) syncCacheOverlays() {
	if a.Scene == nil {
		return
	}
	if a.cacheBuilt == nil {
		a.initCacheState()
	}
	v := a.cv()
	if a.worker != nil {
		// The visibility the user set since: what the next view builds.
		for _, name := range render.CacheOverlayNames {
			if o := a.Scene.Overlay(name); o != nil {
				a.cacheVis[name] = o.Visible
			}
		}
		want := a.cacheWant()
		if !sameWant(v.want, want) && !sameWant(a.viewAsked, want) {
			if busy, _ := a.cacheBusy(); !busy {
				a.viewAsked = want
				a.report(a.cacheDo(cacheJob{run: func(*cacheCore) func(*App) error { return nil }})) // a new view, nothing else
			}
		}
	}
	for _, name := range render.CacheOverlayNames {
		if a.worker != nil && name != render.OverlayToolPreview {
			built, ok := v.overlays[name]
			if (!ok || v.want.selected != a.SelectedObstacle) && a.cacheVis[name] {
				continue // asked for above; the overlay shown stays until it arrives
			}
			syncOverlay(a, name, a.cacheVis, a.cacheBuilt, cacheOverlayKey{cache: v.seq, a: uint64(a.SelectedObstacle)}, func() *render.Overlay {
				c := *built // the scene sets Visible: the view's stays as it is
				return &c
			})
			continue
		}
		syncOverlay(a, name, a.cacheVis, a.cacheBuilt, a.cacheOverlayKey(name), func() *render.Overlay {
			return a.buildCacheOverlay(name)
		})
	}
}

// cacheOverlayKey returns the key of the content overlay name shows now.
func (a *App) cacheOverlayKey(name string) cacheOverlayKey {
	k := cacheOverlayKey{cache: a.cv().cacheSeq}
	switch name {
	case render.OverlayCachePolys, render.OverlayCacheLayers:
		k.a = a.gens.mesh
	case render.OverlayObstacles, render.OverlayVolumesRT, render.OverlayOffMesh:
		k.a = a.gens.shapes
	case render.OverlayQueue:
		k.a, k.b = a.gens.queue, a.gens.mesh
	case render.OverlaySwaps:
		k.a, k.b = a.gens.swaps, a.gens.mesh
	case render.OverlayToolPreview:
		k.a, k.b = a.gens.preview, a.gens.shapes
	}
	return k
}

// buildCacheOverlay builds cache overlay name from the state: the tool
// preview here, the others from the core (without a worker only: with
// one they come in its views).
func (a *App) buildCacheOverlay(name string) *render.Overlay {
	if name == render.OverlayToolPreview {
		return a.previewOverlay()
	}
	return a.core().stateOverlay(name, a.cacheWant())
}

// previewOverlay returns the tools' preview: the obstacle being placed or
// dragged, the corners of the volume being drawn.
func (a *App) previewOverlay() *render.Overlay {
	growM := a.cv().growthM
	ghost := a.obstacleGhost() // tools_obstacle.go
	var poly []geom.Vec3
	ok := true
	if a.Tool == toolVolume {
		poly = a.VolumeTool.Corners
		ok = a.VolumeTool.convexSoFar()
	}
	if a.Tool == toolOffMesh {
		poly = a.offMeshPreview() // tools_offmesh.go
	}
	return render.PreviewOverlay(ghost, growM, poly, ok)
}

// cacheResult is what a background cache build hands back.
type cacheResult struct {
	cache *tilecache.Cache
	level string
	wall  time.Duration
	err   error
}

// cacheRunner builds tile caches off the game loop, as buildRunner does
// plain builds (see jobRunner).
type cacheRunner struct{ *jobRunner[cacheResult] }

// newCacheRunner returns an idle runner.
func newCacheRunner() *cacheRunner { return &cacheRunner{newJobRunner[cacheResult]()} }

// start cancels any running cache build and builds a cache of soup (named
// level) with a copy of s.
func (r *cacheRunner) start(soup *level.Soup, s pipeline.NavSettings, lvl string) {
	s = detachSettings(s)
	r.run(func(ctx context.Context, progress func(done, total int)) cacheResult {
		t0 := time.Now()
		c, err := buildCache(ctx, soup, &s, progress)
		return cacheResult{cache: c, level: lvl, wall: time.Since(t0), err: err}
	})
}

// buildCache indexes soup and builds its tile cache.
func buildCache(ctx context.Context, soup *level.Soup, s *pipeline.NavSettings, progress func(done, total int)) (*tilecache.Cache, error) {
	chunky, err := indexLevel(soup, "build a cache of")
	if err != nil {
		return nil, err
	}
	return tilecache.BuildChunk(ctx, s, soup, chunky, tilecache.Options{Progress: progress})
}
