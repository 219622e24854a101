package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"navviz/core/level"
	"navviz/core/pipeline"
	"navviz/core/voxel"
	"navviz/render"
	"navviz/tilecache"
	"navviz/ui/session"
	"navviz/world"
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
	sel   uint64 // Selection.Gen, for the overlays that draw the selection
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

	// Auto is auto update: on, it rebuilds some queued tiles every frame.
	Auto session.AutoUpdate

	// Selection is the selected obstacle and off-mesh link.
	Selection session.Selection

	// toolPreview draws the active tool's preview and toolEvents hears of
	// what the tools' state follows: the Game's tools (tool.go; nil in an
	// App without a Game).
	toolPreview previewer
	toolEvents  toolEvents

	gens       cacheGens
	cacheBuilt map[string]cacheOverlayKey
	cacheVis   map[string]bool

	// shownErr is the text report last put in App.Err, so that a later
	// success (reportOK) clears only a reported error (report.go).
	shownErr string

	// agentSizes are the agent sizes of the next cache build
	// (cache_agents.go).
	agentSizes

	// insp is the repair inspector (panel_inspect.go).
	insp inspectState
}

// initCacheState sets the defaults.
func (a *App) initCacheState() {
	a.core()
	a.Auto = session.NewAutoUpdate()
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

// InstallWorld makes w the tile caches of the current level (built for
// level in wall time), showing the agent the view showed (by name; the
// first agent when w has none of that name): the history, the selection,
// the tools' state and the swap log start afresh. With carry set the
// obstacles and volumes of the World in place are added to w first
// (under new ids; an agent list changed, cache_agents.go); should one be
// refused, w is dropped, the error shown and nothing changes (the frame's
// part is reset once w is in place).
func (a *App) InstallWorld(w *world.World, level string, wall time.Duration, carry bool) {
	if a.cacheBuilt == nil {
		a.initCacheState()
	}
	reset := func(a *App) {
		a.CacheLevel = level
		a.CacheBuildTime = wall
		a.CacheErr = ""
		a.Selection.Clear()
		if a.toolEvents != nil {
			a.toolEvents.cacheReplaced(false)
		}
	}
	if !carry {
		reset(a) // at once: the old cache's selection and tool state are gone
	}
	show := a.shownAgentName()
	a.report(a.cacheDo(cacheJob{name: "new cache", run: func(k *cacheCore) func(*App) error {
		if carry {
			if err := carryEdits(k.World, w); err != nil {
				return failWith(err)
			}
		}
		k.install(w, level, show)
		return func(a *App) error {
			if carry {
				reset(a)
			}
			a.bumpAll()
			return nil
		}
	}}))
}

// install makes w the core's World (nil: none), showing the agent called
// show (the first when w has none of that name).
func (k *cacheCore) install(w *world.World, level, show string) {
	if k.Cache != nil {
		k.Cache.SetTrace(nil)
	}
	k.World, k.Cache, k.Agent = nil, nil, 0
	k.cacheSeq++
	k.editor = newCacheEditor(nil)
	k.rec.stop()
	if agents := w.Agents(); len(agents) > 0 {
		k.World = w
		k.Agent = max(slices.IndexFunc(agents, func(ag world.Agent) bool { return ag.Name == show }), 0)
		k.Cache, _ = w.Cache(agents[k.Agent].Name) // a name of w's own
		k.editor = newCacheEditor(w)
		first, _ := w.Cache(agents[0].Name)
		k.rec.start(level, first.Settings())
		if len(agents) > 1 {
			k.rec.fail(fmt.Sprintf("the session has %d agent sizes; a scenario holds one (save a snapshot instead)", len(agents)))
		}
		k.Cache.SetTrace(k.trace)
	}
	k.editor.rec = &k.rec // the session's recording (recorder.go)
	k.history.clear()
	k.Updates, k.LayersBuilt = 0, 0
	k.Swaps.Reset()
}

// DropCache forgets the cache (another level was loaded).
func (a *App) DropCache() {
	if a.worker == nil {
		if a.World == nil && a.editor == nil {
			return
		}
	} else if busy, _ := a.cacheBusy(); !busy && !a.cv().has {
		return
	}
	a.InstallWorld(nil, "", 0, false)
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
		if k.World == nil || k.editor == nil {
			return failWith(errNoCache)
		}
		cmd := mk(k.editor)
		if err := k.history.run(k.editor, cmd); err != nil {
			return failWith(err)
		}
		k.Swaps.Reset()
		status := fmt.Sprintf("%s; %s", cmd, k.queuedText())
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
	if sel := a.Selection.Obstacle(); sel != 0 && !a.hasObstacle(sel) {
		a.Selection.SetObstacle(0)
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
		if k.World == nil || k.editor == nil {
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
		status := fmt.Sprintf("%s %s; %s", done, name, k.queuedText())
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
		if k.World == nil {
			return failWith(errNoCache)
		}
		queued := k.queueLen()
		if all {
			n = queued
		}
		if n <= 0 || queued == 0 {
			if done == nil {
				return nil
			}
			return func(a *App) error {
				done(a, 0)
				return nil
			}
		}
		n = min(n, queued)
		k.Swaps.BeforeUpdate(k.Cache, k.shownShare(n))
		// A failed tile leaves the queue while the call's other tiles are
		// swapped in: record them before reporting the error.
		res, err := k.World.Update(n)
		k.Swaps.AfterUpdate(&res.Agents[k.Agent])
		k.rec.updated(n)
		k.Updates++
		for _, r := range res.Agents {
			k.LayersBuilt += r.LayersBuilt()
			tiles += len(r.Tiles)
		}
		rebuilt := tiles
		return func(a *App) error {
			a.gens.mesh++
			a.gens.queue++
			a.gens.swaps++
			if err != nil {
				a.Auto.SetOn(false)
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

// autoUpdate runs one frame of auto update: a step of Auto.TilesPerFrame
// tiles, sent only when the worker has nothing else to do (the steps do
// not pile up behind a long job).
func (a *App) autoUpdate() {
	if !a.Auto.On() || a.cv().pending == 0 {
		return
	}
	if busy, _ := a.cacheBusy(); busy {
		return
	}
	a.report(errOf(a.StepCache(a.Auto.TilesPerFrame())))
}

// snapshotExt is the file extension of snapshots written by navviz.
const snapshotExt = ".nvtc"

// SaveSnapshot writes the cache's snapshot to path (cacheCore.snapshot:
// tilecache.Cache.Snapshot with one agent size, world.World.Snapshot with
// several); a path without an extension gets ".nvtc". Errors are shown
// and returned.
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
		data, err := k.World.Snapshot()
		if err != nil {
			return failWith(fmt.Errorf("ui: save snapshot: %w", err))
		}
		if err := writeFileAtomic(path, data); err != nil {
			return failWith(fmt.Errorf("ui: save snapshot: %w", err))
		}
		k.rec.snapshotTaken(path, data)
		status := fmt.Sprintf("snapshot saved to %s (%d bytes, %s, %d obstacles, %d volumes, %s)",
			path, len(data), plural(len(k.World.Agents()), "agent size"), len(k.Cache.Obstacles()), len(k.Cache.Volumes()), k.queuedText())
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

// RestoreSnapshot reads a snapshot from path and restores it into the
// caches (cacheCore.restore: a World snapshot into every agent's cache, a
// tile cache snapshot into a World of one agent size). A file that cannot be read, or a snapshot that
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
		if k.World == nil {
			return failWith(errNoCache)
		}
		data, err := read()
		if err != nil {
			return failWith(err)
		}
		if err := k.World.Restore(data); err != nil {
			return failWith(fmt.Errorf("ui: restore snapshot %s (the cache is unchanged): %w", what, err))
		}
		k.rec.restored(what, data)
		k.editor = newCacheEditor(k.World)
		k.editor.rec = &k.rec
		k.history.clear()
		k.Swaps.Reset()
		status := fmt.Sprintf("restored %s: %d obstacles, %d volumes, %s (undo history cleared)",
			what, len(k.Cache.Obstacles()), len(k.Cache.Volumes()), k.queuedText())
		return func(a *App) error {
			a.Selection.SetObstacle(0)
			if a.toolEvents != nil {
				a.toolEvents.cacheReplaced(true)
			}
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
			if (!ok || v.want.selected != a.Selection.Obstacle()) && a.cacheVis[name] {
				continue // asked for above; the overlay shown stays until it arrives
			}
			syncOverlay(a, name, a.cacheVis, a.cacheBuilt, cacheOverlayKey{cache: v.seq, a: uint64(a.Selection.Obstacle())}, func() *render.Overlay {
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
		k.a, k.sel = a.gens.shapes, a.Selection.Gen()
	case render.OverlayQueue:
		k.a, k.b = a.gens.queue, a.gens.mesh
	case render.OverlaySwaps:
		k.a, k.b = a.gens.swaps, a.gens.mesh
	case render.OverlayToolPreview:
		k.a, k.b, k.sel = a.gens.preview, a.gens.shapes, a.Selection.Gen()
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

// cacheResult is what a background cache build hands back.
type cacheResult struct {
	world *world.World
	level string
	wall  time.Duration
	err   error
	// carry says the build follows a change of the agent list: the
	// obstacles and volumes in place go over into the new World.
	carry bool
}

// cacheRunner builds tile caches off the game loop, as buildRunner does
// plain builds (see jobRunner).
type cacheRunner struct{ *jobRunner[cacheResult] }

// newCacheRunner returns an idle runner.
func newCacheRunner() *cacheRunner { return &cacheRunner{newJobRunner[cacheResult]()} }

// start cancels any running cache build and builds a World of soup (named
// level) with a copy of s and of agents (carry: see cacheResult).
func (r *cacheRunner) start(soup *level.Soup, s pipeline.NavSettings, agents []world.Agent, lvl string, carry bool) {
	s = detachSettings(s)
	agents = slices.Clone(agents)
	r.run(func(ctx context.Context, progress func(done, total int)) cacheResult {
		t0 := time.Now()
		w, err := buildCache(ctx, soup, &s, agents, progress)
		return cacheResult{world: w, level: lvl, wall: time.Since(t0), err: err, carry: carry}
	})
}

// buildCache builds the World of soup: one tile cache per agent
// (world.Build), progress counting the tiles of all of them.
func buildCache(ctx context.Context, soup *level.Soup, s *pipeline.NavSettings, agents []world.Agent, progress func(done, total int)) (*world.World, error) {
	if soup == nil {
		return nil, fmt.Errorf("ui: no level to build a cache of")
	}
	return world.Build(ctx, *s, soup, agents, tilecache.Options{Progress: agentsProgress(len(agents), progress)})
}

// agentsProgress turns the progress of n builds made one after the other
// (each counting its tiles from 1, never concurrently) into one count
// over all of them.
func agentsProgress(n int, progress func(done, total int)) func(done, total int) {
	if progress == nil {
		return nil
	}
	agent, last := 0, 0
	return func(done, total int) {
		if done <= last && agent+1 < n {
			agent++ // the next agent's build started
		}
		last = done
		progress(agent*total+done, n*total)
	}
}
