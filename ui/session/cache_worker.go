package session

import (
	"slices"
	"sync"

	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
	"navviz/render"
	"navviz/scenario"
	"navviz/tilecache"
	"navviz/world"
)

// The tile cache's worker.
//
// A tilecache.Cache is not safe for concurrent use, and its Update (a
// rebuild of queued tiles, seconds for "Update all" on city) must not run
// on the frame. The cache and everything that changes with it (the undo
// history and its editor, the swap log, the update counters, the session
// recorder) are a cacheCore, and with a worker (App.EnableCacheWorker, the
// window) one goroutine owns the core: the frame sends it cacheJobs (the
// tools' commands, undo and redo, Step and Update all, snapshots, a new
// cache) in order, and the worker runs them in that order, so that the
// cache ends as the same calls made one after the other would leave it.
// When its queue is empty the worker hands the frame a cacheView, an
// immutable snapshot of what the panels, the labels, the path and the
// cache overlays read (a clone of the mesh, the obstacles, the queue, the
// swap log, the overlays built for the visible names), and each job's
// continuation, which the frame runs in Update in job order (status
// lines, errors, the selection). The panels read only the latest view.
//
// Without a worker (NewApp: tests, scripted runs and scenarios, whose
// frames must show the state of their own Update) a job runs at once on
// the caller's goroutine and the view is made on demand, from the same
// functions: the core's cache is then the view's.

// CacheJob is a piece of work on the core. run runs on the core's owner
// and returns the continuation the frame runs afterwards (nil: none); the
// continuation's error is shown in the window (cacheFail).
type CacheJob struct {
	name string // what the status line says while the job waits ("" for auto update)
	Run  func(k *CacheCore) func(a *App) error
}

// CacheCore is the tile cache with the state that changes with it. With a
// worker only the worker's goroutine touches it.
type CacheCore struct {
	// World is the level's tile caches, one per agent size
	// (world.World; nil before "Build cache" and after loading another
	// level). The tools' edits, Update and snapshots go through it, so
	// every agent's mesh is carved (cache_agents.go).
	World *world.World
	// Agent is the index in World.Agents() of the agent whose cache is
	// Cache: the mesh the cache overlays, the path, the crowd and the
	// inspector show.
	Agent int
	// Cache is the shown agent's tile cache (nil without a World). Read
	// it; edit the World.
	Cache *tilecache.Cache
	// Swaps is the swap log the "swaps" overlay shows
	// (scenario.SwapLog): the tiles rebuilt since the last edit, those of
	// the latest Update (Swaps.Latest) and the boxes they had before.
	Swaps scenario.SwapLog
	// Updates and LayersBuilt count the Update calls that rebuilt a tile
	// and the step-5 builds they ran, since the cache was built.
	Updates, LayersBuilt int

	Editor  *cacheEditor
	History UndoStack
	// Rec records the session's edits as scenario steps (recorder.go).
	Rec SessionRecorder
	// trace is the repair inspector's recorder while it records (nil:
	// none), passed the shown cache's layers by the history's trace
	// (panel_inspect.go, history_core.go).
	trace tilecache.Trace
	// historyCore is the session history (history_core.go).
	historyCore

	// cacheSeq numbers the caches installed (0: none yet); seq the states
	// of the core (bumped by every job).
	cacheSeq, seq uint64
}

// cacheOverlayWant is what the frame wants the cache overlays built for:
// the visible names, the selected obstacle and the level's box.
type cacheOverlayWant struct {
	names    []string
	selected tilecache.ObstacleID
	link     tilecache.OffMeshLinkID // the Link tool's selected link
	bounds   geom.Box3
}

// cacheView is an immutable snapshot of the core for the frame. Nothing in
// it changes after it is made (the frame must not change it either).
type cacheView struct {
	Has      bool   // there is a cache
	CacheSeq uint64 // which cache (cacheCore.cacheSeq)
	seq      uint64 // which state of the core (cacheCore.seq)

	Settings    pipeline.NavSettings
	Grid        pipeline.TileGrid
	CachedTiles int
	GrowthM     float64
	NextObs     tilecache.ObstacleID
	NextVol     tilecache.VolumeID
	Obstacles   []tilecache.Obstacle
	Volumes     []tilecache.Volume
	Links       []navmesh.OffMeshLink
	NextLink    tilecache.OffMeshLinkID
	Queue       [][2]int
	// Pending is the number of tiles queued in every agent's cache
	// (queue is the shown agent's).
	Pending int
	// Agents are the World's agent sizes, agent the index of the shown
	// one (its cache is the one this view shows).
	Agents []world.Agent
	Agent  int
	// Mesh is the cache's Mesh: a clone with a worker, the cache's own
	// without (nil without a cache).
	Mesh *navmesh.Mesh

	Latest, SwapTiles    []tilecache.TileUpdate
	Updates, LayersBuilt int
	UndoDepth            int
	NextUndo             string // the command Undo would revert ("": none)
	recording            bool
	// History is the session history's steps and cursor (history_app.go).
	History HistoryView

	// overlays are the cache overlays of want.names (with a worker only).
	want     cacheOverlayWant
	overlays map[string]*render.Overlay
}

// makeCacheView snapshots k. detach copies the mesh (the worker goes on
// changing the cache's); with want.names set, the cache overlays of those
// names are built too.
func makeCacheView(k *CacheCore, want cacheOverlayWant, detach bool) *cacheView {
	c := k.Cache
	v := &cacheView{
		Has: c != nil, CacheSeq: k.cacheSeq, seq: k.seq,
		Settings: c.Settings(), Grid: c.Grid(), CachedTiles: len(c.CachedTiles()), GrowthM: c.ObstacleGrowthM(),
		NextObs: c.NextObstacleID(), NextVol: c.NextVolumeID(),
		Obstacles: c.Obstacles(), Volumes: c.Volumes(), Links: c.OffMeshLinks(), NextLink: c.NextOffMeshLinkID(), Queue: c.Queue(),
		Mesh:    c.Mesh(),
		Pending: k.queueLen(), Agents: k.World.Agents(), Agent: k.Agent,
		Latest: slices.Clone(k.Swaps.Latest), SwapTiles: slices.Clone(k.Swaps.Tiles),
		Updates: k.Updates, LayersBuilt: k.LayersBuilt,
		UndoDepth: len(k.History.Done),
		recording: k.Rec.on,
		want:      want,
		History:   k.historyView(),
	}
	if n := len(k.History.Done); n > 0 {
		v.NextUndo = k.History.Done[n-1].String()
	}
	if detach {
		v.Mesh = v.Mesh.Clone()
	}
	if len(want.names) > 0 {
		v.overlays = map[string]*render.Overlay{}
		for _, name := range want.names {
			v.overlays[name] = k.stateOverlay(name, want)
		}
	}
	return v
}

// stateOverlay builds cache overlay name (not the tool preview, which is
// the frame's) from the core (render.CacheStateOverlay, as navmesh
// scenario draws it).
func (k *CacheCore) stateOverlay(name string, want cacheOverlayWant) *render.Overlay {
	return render.CacheStateOverlay(name, &render.CacheState{Cache: k.Cache, LevelBounds: want.bounds, SelectedObstacle: want.selected,
		SelectedOffMesh: want.link, Swaps: k.Swaps.View()})
}

// cacheOutcome is what the worker hands back after a run of jobs: their
// continuations in order, and the view of the core after them (nil when
// more jobs were waiting: the next outcome has it).
type cacheOutcome struct {
	thens []func(a *App) error
	view  *cacheView
}

// cacheWorker is the goroutine that owns a cacheCore. Make it with
// newCacheWorker.
type cacheWorker struct {
	core *CacheCore // the loop's only

	mu      sync.Mutex
	queue   []CacheJob
	want    cacheOverlayWant // the overlays the next view builds
	running bool             // the loop is running jobs or making a view
	done    []cacheOutcome   // outcomes the frame has not taken yet
	wake    chan struct{}
}

// newCacheWorker starts the goroutine that owns k from now on.
func newCacheWorker(k *CacheCore) *cacheWorker {
	w := &cacheWorker{core: k, wake: make(chan struct{}, 1)}
	go w.loop()
	return w
}

// send queues job; the view after it builds the overlays of want.
func (w *cacheWorker) send(job CacheJob, want cacheOverlayWant) {
	w.mu.Lock()
	w.queue = append(w.queue, job)
	w.want = want
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default: // the loop has been woken already
	}
}

// loop runs the queued jobs in order and, once no job waits, makes the
// view.
func (w *cacheWorker) loop() {
	for range w.wake {
		var thens []func(a *App) error
		for {
			w.mu.Lock()
			jobs := w.queue
			w.queue = nil
			w.running = len(jobs) > 0 || len(thens) > 0
			want := w.want
			w.mu.Unlock()
			if len(jobs) == 0 {
				if len(thens) == 0 {
					break
				}
				v := makeCacheView(w.core, want, true)
				w.mu.Lock()
				w.done = append(w.done, cacheOutcome{thens: thens, view: v})
				w.running = len(w.queue) > 0
				w.mu.Unlock()
				thens = nil
				continue
			}
			for _, j := range jobs {
				w.core.seq++
				thens = append(thens, j.Run(w.core))
			}
		}
	}
}

// take returns the outcomes that arrived since the last call, in order.
func (w *cacheWorker) take() []cacheOutcome {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.done
	w.done = nil
	return out
}

// busy reports whether jobs are waiting or running, or their outcome has
// not been taken; queued is how many jobs wait.
func (w *cacheWorker) busy() (busy bool, queued int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.running || len(w.queue) > 0 || len(w.done) > 0, len(w.queue)
}

// EnableCacheWorker hands the cache to a worker goroutine (the window
// does, NewGame): from then on cache jobs run there and the frame reads
// cacheViews. It must be called before any job is sent; a second call does
// nothing.
func (a *App) EnableCacheWorker() {
	if a.worker == nil {
		a.worker = newCacheWorker(a.core())
	}
}

// CacheDo runs job: with a worker it is queued (and nil returned: its
// continuation's error is shown when it arrives); without, it runs now
// and its continuation's error is shown and returned.
func (a *App) CacheDo(job CacheJob) error {
	if a.worker != nil {
		a.worker.send(job, a.cacheWant())
		if job.name != "" {
			a.status = "updating… " + job.name
		}
		return nil
	}
	a.core().seq++
	then := job.Run(a.CacheCore)
	a.ViewStale = true
	return a.finishJob(then)
}

// core returns the core, made on first use.
func (a *App) core() *CacheCore {
	if a.CacheCore == nil {
		a.CacheCore = &CacheCore{}
	}
	return a.CacheCore
}

// finishJob runs a job's continuation on the frame and shows its error.
func (a *App) finishJob(then func(a *App) error) error {
	if then == nil {
		return nil
	}
	return a.Report(then(a))
}

// PollCacheWorker takes the worker's outcomes (once per Update): each
// view replaces the last, then the continuations run in job order.
func (a *App) PollCacheWorker() {
	if a.worker == nil {
		return
	}
	for _, o := range a.worker.take() {
		if o.view != nil {
			a.setCacheView(o.view)
		}
		for _, then := range o.thens {
			a.finishJob(then) // reports its error
		}
	}
}

// setCacheView makes v the view the frame reads and marks the overlays
// that follow the core out of date.
func (a *App) setCacheView(v *cacheView) {
	a.view = v
	a.ViewStale = false
	a.Gens.mesh++
	a.Gens.shapes++
	a.Gens.queue++
	a.Gens.swaps++
}

// CacheView returns the latest view of the core (never nil). Without a worker it
// is made again after a job changed the core.
func (a *App) CacheView() *cacheView {
	if a.worker == nil && (a.view == nil || a.ViewStale) {
		a.view = makeCacheView(a.core(), cacheOverlayWant{}, false)
		a.ViewStale = false
	}
	if a.view == nil {
		return &cacheView{}
	}
	return a.view
}

// CacheBusy reports whether the worker has jobs to run or outcomes to
// hand over (never without a worker), and how many jobs wait.
func (a *App) CacheBusy() (bool, int) {
	if a.worker == nil {
		return false, 0
	}
	return a.worker.busy()
}

// cacheWant returns the cache overlays the frame wants built now.
func (a *App) cacheWant() cacheOverlayWant {
	w := cacheOverlayWant{selected: a.Selection.Obstacle(), link: a.Selection.Link(), bounds: geom.EmptyBox()}
	if a.soup != nil {
		w.bounds = a.soup.Bounds()
	}
	for _, name := range render.CacheOverlayNames {
		if name != render.OverlayToolPreview && (a.CacheVis[name] || a.armed[name]) {
			w.names = append(w.names, name)
		}
	}
	return w
}

// sameWant reports whether views built for x have the overlays y asks for.
func sameWant(x, y cacheOverlayWant) bool {
	return x.selected == y.selected && x.link == y.link && x.bounds == y.bounds && slices.Equal(x.names, y.names)
}
