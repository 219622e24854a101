package session

import (
	"fmt"
	"time"

	"navviz/core/pipeline"
	"navviz/render"
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
	Preview uint64 // the tools' preview
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
	*CacheCore
	worker    *cacheWorker // nil: jobs run at once (cache_worker.go)
	view      *cacheView   // the latest view (cv)
	ViewStale bool         // without a worker: a job ran since view was made
	viewAsked cacheOverlayWant

	// CacheLevel is the level the cache was built for; CacheBuildTime how
	// long its build took.
	CacheLevel     string
	CacheBuildTime time.Duration
	// cacheErr is the text of the last failed cache build ("" after a
	// success).
	cacheErr string

	// Auto is auto update: on, it rebuilds some queued tiles every frame.
	Auto AutoUpdate

	// Selection is the selected obstacle and off-mesh link.
	Selection Selection

	// ToolPreview draws the active tool's preview and toolEvents hears of
	// what the tools' state follows: the Game's tools (tool.go; nil in an
	// App without a Game).
	toolPreview Previewer
	toolEvents  ToolEvents

	Gens       cacheGens
	cacheBuilt map[string]cacheOverlayKey
	CacheVis   map[string]bool

	// shownErr is the text report last put in App.Err, so that a later
	// success (reportOK) clears only a reported error (report.go).
	shownErr string

	// agentSizes are the agent sizes of the next cache build
	// (cache_agents.go).
	agentSizes

	// Insp is the repair inspector (panel_inspect.go).
	Insp inspectState
}

// initCacheState sets the defaults.
func (a *App) initCacheState() {
	a.core()
	a.Auto = NewAutoUpdate()
	a.cacheBuilt = map[string]cacheOverlayKey{}
	a.CacheVis = map[string]bool{}
	for k, v := range cacheOverlayDefaults {
		a.CacheVis[k] = v
	}
}

// okWith is the continuation of a job that succeeded with status.
func okWith(status string) func(a *App) error {
	return func(a *App) error {
		a.ReportOK(status)
		return nil
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
		a.cacheErr = ""
		a.Selection.Clear()
		if a.toolEvents != nil {
			a.toolEvents.CacheReplaced(false)
		}
	}
	if !carry {
		reset(a) // at once: the old cache's selection and tool state are gone
	}
	show := a.ShownAgentName()
	soup := a.soup
	a.Report(a.CacheDo(CacheJob{name: "new cache", Run: func(k *CacheCore) func(*App) error {
		if carry {
			if err := carryEdits(k.World, w); err != nil {
				return failWith(err)
			}
		}
		k.install(w, level, show)
		if w != nil && len(w.Agents()) > 0 {
			k.recordNewCache(level, soup, carry)
		}
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
// show (the first when w has none of that name). The caller records
// the new cache in the session history (recordNewCache); without a
// World the history and the scenario recorder are forgotten.
func (k *CacheCore) install(w *world.World, level, show string) {
	if k.World != nil {
		k.untap()
	}
	k.World, k.Cache, k.Agent = nil, nil, 0
	k.cacheSeq++
	if w == nil {
		k.Rec.stop()
		k.Hist.Clear()
		k.head, k.dropped, k.worlds = nil, nil, nil
	}
	k.History.Clear()
	k.Editor = NewCacheEditor(nil)
	if len(w.Agents()) > 0 {
		k.useWorld(w, show)
		k.useEdits(nil)
	}
	k.Updates, k.LayersBuilt = 0, 0
	k.Swaps.Reset()
}

// DropCache forgets the cache (another level was loaded).
func (a *App) DropCache() {
	if a.worker == nil {
		if a.World == nil && a.Editor == nil {
			return
		}
	} else if busy, _ := a.CacheBusy(); !busy && !a.CacheView().Has {
		return
	}
	a.InstallWorld(nil, "", 0, false)
}

// bumpAll marks every cache overlay out of date.
func (a *App) bumpAll() {
	a.Gens.mesh++
	a.Gens.shapes++
	a.Gens.queue++
	a.Gens.swaps++
	a.Gens.Preview++
}

// cacheGrid returns the cache's tile grid (nil without a cache).
func (a *App) cacheGrid() *pipeline.TileGrid {
	v := a.CacheView()
	if !v.Has {
		return nil
	}
	g := v.Grid
	return &g
}

// runCommand applies the command mk makes from the core's editor through
// the undo stack (named what until it ran); on success the swap log
// starts afresh, the status names the command and, when sel is set, what
// sel returns (asked on the core's owner, e.g. selecting the new
// obstacle) runs on the frame; an error is shown and returned (with a
// worker: shown when it arrives).
func (a *App) runCommand(what string, mk func(e *cacheEditor) command, sel func(cmd command) func(a *App)) error {
	return a.CacheDo(CacheJob{name: what, Run: func(k *CacheCore) func(*App) error {
		if k.World == nil || k.Editor == nil {
			return failWith(ErrNoCache)
		}
		cmd := mk(k.Editor)
		if err := k.History.Run(k.Editor, cmd); err != nil {
			return failWith(err)
		}
		k.Swaps.Reset()
		status := fmt.Sprintf("%s; %s", cmd, k.queuedText())
		var selectIt func(a *App)
		if sel != nil {
			selectIt = sel(cmd)
		}
		return func(a *App) error {
			a.Edited()
			if selectIt != nil {
				selectIt(a)
			}
			a.ReportOK(status)
			return nil
		}
	}})
}

// Edited notes a change of the cache's obstacles or volumes.
func (a *App) Edited() {
	a.Gens.shapes++
	a.Gens.queue++
	a.Gens.swaps++
	if sel := a.Selection.Obstacle(); sel != 0 && !a.hasObstacle(sel) {
		a.Selection.SetObstacle(0)
	}
}

// Undo reverts the last tool command (Ctrl+Z). It returns false when there
// was nothing to undo (with a worker: always false, the undo is queued).
func (a *App) Undo() (bool, error) { return a.replayHistory("undo", "undid", (*UndoStack).Undo) }

// Redo applies the last undone command again (Ctrl+Y or Ctrl+Shift+Z).
// It returns false when there was nothing to redo (with a worker: always
// false, the redo is queued).
func (a *App) Redo() (bool, error) { return a.replayHistory("redo", "redid", (*UndoStack).Redo) }

// replayHistory applies step, the undo stack's undo or redo, to the cache;
// verb and done ("undo", "undid") word the status line and the error. An
// error is shown and returned. It returns false when there was no command
// to undo or redo, or no cache.
func (a *App) replayHistory(verb, done string, step func(*UndoStack, *cacheEditor) (string, bool, error)) (bool, error) {
	replayed := false
	err := a.CacheDo(CacheJob{name: verb, Run: func(k *CacheCore) func(*App) error {
		if k.World == nil || k.Editor == nil {
			return nil
		}
		name, ok, err := step(&k.History, k.Editor)
		if !ok {
			return okWith("nothing to " + verb)
		}
		replayed = true
		if err != nil {
			return failWith(fmt.Errorf("ui: %s %s: %w", verb, name, err))
		}
		k.Swaps.Reset()
		status := fmt.Sprintf("%s %s; %s", done, name, k.queuedText())
		return func(a *App) error {
			a.Edited()
			a.ReportOK(status)
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
func (a *App) StepCache(n int) (int, error) { return a.StepCacheJob(n, false, "", nil) }

// UpdateAllCache rebuilds every queued tile (Update with the queue's
// length when the worker gets to it) and reports what it did in the
// status line.
func (a *App) UpdateAllCache() error {
	_, err := a.StepCacheJob(0, true, "update all", func(a *App, tiles int) { a.ReportOK("updated " + Plural(tiles, "tile")) })
	return err
}

// StepCacheJob is StepCache of n tiles, or with all of the tiles queued when
// the job runs; name is the job's (see cacheJob), done runs on the frame
// after a success with the number of tiles rebuilt.
func (a *App) StepCacheJob(n int, all bool, name string, done func(a *App, tiles int)) (int, error) {
	tiles := 0 // the job's: read below only when it ran at once
	err := a.CacheDo(CacheJob{name: name, Run: func(k *CacheCore) func(*App) error {
		if k.World == nil {
			return failWith(ErrNoCache)
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
		res, err := k.update(n)
		k.Swaps.AfterUpdate(&res.Agents[k.Agent])
		k.Updates++
		for _, r := range res.Agents {
			k.LayersBuilt += r.LayersBuilt()
			tiles += len(r.Tiles)
		}
		rebuilt := tiles
		return func(a *App) error {
			a.Gens.mesh++
			a.Gens.queue++
			a.Gens.swaps++
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
	if a.worker != nil {
		return 0, err // the worker runs the job, perhaps now: tiles is its
	}
	return tiles, err
}

// AutoUpdate runs one frame of auto update: a step of Auto.TilesPerFrame
// tiles, sent only when the worker has nothing else to do (the steps do
// not pile up behind a long job) and the history's cursor is at its last
// step.
func (a *App) AutoUpdate() {
	if !a.Auto.On() || a.CacheView().Pending == 0 {
		return
	}
	if a.Timeline().InPast() {
		return // an update would drop the later steps: only on the user's word
	}
	if busy, _ := a.CacheBusy(); busy {
		return
	}
	a.Report(ErrOf(a.StepCache(a.Auto.TilesPerFrame())))
}
