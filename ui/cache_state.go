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
	"navviz/scenario"
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

// cacheOverlayKey is what a built cache overlay's content depends on.
type cacheOverlayKey struct {
	cache *tilecache.Cache
	a, b  uint64
}

// cacheState is the part of App about the tile cache: the cache, the
// update controls, the tools, the undo history and the cache overlays.
type cacheState struct {
	// Cache is the tile cache of the current level (nil before "Build
	// cache" and after loading another level).
	Cache *tilecache.Cache
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

	// Swaps is the swap log the "swaps" overlay shows
	// (scenario.SwapLog): the tiles rebuilt since the last edit, those of
	// the latest Update (Swaps.Latest) and the boxes they had before.
	Swaps scenario.SwapLog
	// Updates and LayersBuilt count the Update calls that rebuilt a tile
	// and the step-5 builds they ran, since the cache was built.
	Updates, LayersBuilt int

	editor  *cacheEditor
	history undoStack

	gens       cacheGens
	cacheBuilt map[string]cacheOverlayKey
	cacheVis   map[string]bool

	// shownErr is the text this file last put in App.Err, so that a
	// later success clears only its own error.
	shownErr string

	// insp is the repair inspector (inspect_panel.go).
	insp inspectState

	// rec records the session's edits as scenario steps (recorder.go).
	rec sessionRecorder
}

// initCacheState sets the defaults.
func (a *App) initCacheState() {
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

// cacheFail shows err in the window (App.Err) and returns it.
func (a *App) cacheFail(err error) error {
	if err != nil {
		a.Err = err.Error()
		a.shownErr = a.Err
	}
	return err
}

// cacheOK sets the status line and clears the error this file showed, if
// it is still shown.
func (a *App) cacheOK(status string) {
	if a.shownErr != "" && a.Err == a.shownErr {
		a.Err = ""
	}
	a.shownErr = ""
	if status != "" {
		a.Status = status
	}
}

// InstallCache makes c the cache of the current level (built for level in
// wall time): the history, the selection, the tools' state and the swap
// log start afresh.
func (a *App) InstallCache(c *tilecache.Cache, level string, wall time.Duration) {
	if a.cacheBuilt == nil {
		a.initCacheState()
	}
	a.Cache = c
	a.CacheLevel = level
	a.CacheBuildTime = wall
	a.CacheErr = ""
	a.editor = newCacheEditor(nil)
	a.rec.stop()
	if c != nil {
		a.editor = newCacheEditor(c)
		a.rec.start(level, c.Settings())
	}
	a.editor.rec = &a.rec // the session's recording (recorder.go)
	a.history.clear()
	a.SelectedObstacle = 0
	a.ObstacleTool.drag = obstacleDrag{}
	a.VolumeTool.Corners = nil
	a.Updates, a.LayersBuilt = 0, 0
	a.resetSwapLog()
	a.bumpAll()
}

// DropCache forgets the cache (another level was loaded).
func (a *App) DropCache() {
	if a.Cache == nil && a.editor == nil {
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

// resetSwapLog empties the swap log (an edit starts a new one).
func (a *App) resetSwapLog() {
	a.Swaps.Reset()
	a.gens.swaps++
}

// cacheGrid returns the cache's tile grid (nil without a cache).
func (a *App) cacheGrid() *pipeline.TileGrid {
	if a.Cache == nil {
		return nil
	}
	g := a.Cache.Grid()
	return &g
}

// runCommand applies cmd through the undo stack; on success the swap log
// starts afresh and the status names the command, on error the error is
// shown and returned.
func (a *App) runCommand(cmd command) error {
	if a.Cache == nil || a.editor == nil {
		return a.cacheFail(errNoCache)
	}
	if err := a.history.run(a.editor, cmd); err != nil {
		return a.cacheFail(err)
	}
	a.edited()
	a.cacheOK(fmt.Sprintf("%s; %d tiles queued", cmd, a.Cache.QueueLen()))
	return nil
}

// edited notes a change of the cache's obstacles or volumes.
func (a *App) edited() {
	a.gens.shapes++
	a.gens.queue++
	a.resetSwapLog()
	if a.SelectedObstacle != 0 && !a.hasObstacle(a.SelectedObstacle) {
		a.SelectedObstacle = 0
	}
}

// Undo reverts the last tool command (Ctrl+Z). It returns false when there
// was nothing to undo.
func (a *App) Undo() (bool, error) { return a.replayHistory("undo", "undid", a.history.undo) }

// Redo applies the last undone command again (Ctrl+Y or Ctrl+Shift+Z).
// It returns false when there was nothing to redo.
func (a *App) Redo() (bool, error) { return a.replayHistory("redo", "redid", a.history.redo) }

// replayHistory applies step, the undo stack's undo or redo, to the cache;
// verb and done ("undo", "undid") word the status line and the error. An
// error is shown and returned. It returns false when there was no command
// to undo or redo, or no cache.
func (a *App) replayHistory(verb, done string, step func(*cacheEditor) (string, bool, error)) (bool, error) {
	if a.Cache == nil || a.editor == nil {
		return false, nil
	}
	name, ok, err := step(a.editor)
	if !ok {
		a.cacheOK("nothing to " + verb)
		return false, nil
	}
	if err != nil {
		return true, a.cacheFail(fmt.Errorf("ui: %s %s: %w", verb, name, err))
	}
	a.edited()
	a.cacheOK(fmt.Sprintf("%s %s; %d tiles queued", done, name, a.Cache.QueueLen()))
	return true, nil
}

// StepCache runs Update(n) on the cache: the rebuilt tiles become
// Swaps.Latest and join the swap log. It returns the number of tiles
// rebuilt. An error (a tile whose rebuild failed: it left the queue, the
// call's other tiles were swapped in) is shown and returned, and auto
// update is switched off so that the user sees it.
func (a *App) StepCache(n int) (int, error) {
	c := a.Cache
	if c == nil {
		return 0, a.cacheFail(errNoCache)
	}
	if n <= 0 || c.QueueLen() == 0 {
		return 0, nil
	}
	a.Swaps.BeforeUpdate(c, n)
	n = min(n, c.QueueLen())
	// A failed tile leaves the queue while the call's other tiles are
	// swapped in: record them before reporting the error.
	res, err := c.Update(n)
	a.Swaps.AfterUpdate(&res)
	a.rec.updated(n)
	a.Updates++
	a.LayersBuilt += res.LayersBuilt()
	a.gens.mesh++
	a.gens.queue++
	a.gens.swaps++
	if err != nil {
		a.AutoUpdate = false
		return len(res.Tiles), a.cacheFail(fmt.Errorf("ui: cache update (auto update switched off): %w", err))
	}
	return len(res.Tiles), nil
}

// UpdateAllCache rebuilds every queued tile (Update with the queue's
// length) and reports what it did in the status line.
func (a *App) UpdateAllCache() error {
	if a.Cache == nil {
		return a.cacheFail(errNoCache)
	}
	n, err := a.StepCache(a.Cache.QueueLen())
	if err != nil {
		return err
	}
	a.cacheOK("updated " + plural(n, "tile"))
	return nil
}

// autoUpdate runs one frame of auto update.
func (a *App) autoUpdate() {
	if a.AutoUpdate && a.Cache != nil && a.Cache.QueueLen() > 0 {
		_, _ = a.StepCache(min(max(a.TilesPerFrame, 1), maxTilesPerFrame)) // errors are shown
	}
}

// snapshotExt is the file extension of snapshots written by navviz.
const snapshotExt = ".nvtc"

// SaveSnapshot writes the cache's snapshot (tilecache.Cache.Snapshot) to
// path; a path without an extension gets ".nvtc". Errors are shown and
// returned.
func (a *App) SaveSnapshot(path string) (string, error) {
	if a.Cache == nil {
		return "", a.cacheFail(errNoCache)
	}
	if path == "" {
		return "", a.cacheFail(fmt.Errorf("ui: save snapshot: no file name"))
	}
	if filepath.Ext(path) == "" {
		path += snapshotExt
	}
	data, err := a.Cache.Snapshot()
	if err != nil {
		return "", a.cacheFail(fmt.Errorf("ui: save snapshot: %w", err))
	}
	if err := writeFileAtomic(path, data); err != nil {
		return "", a.cacheFail(fmt.Errorf("ui: save snapshot: %w", err))
	}
	a.rec.snapshotTaken(path, data)
	a.cacheOK(fmt.Sprintf("snapshot saved to %s (%d bytes, %d obstacles, %d volumes, %d tiles queued)",
		path, len(data), len(a.Cache.Obstacles()), len(a.Cache.Volumes()), a.Cache.QueueLen()))
	return path, nil
}

// RestoreSnapshot reads a snapshot from path and restores it into the cache
// (tilecache.Cache.Restore). A file that cannot be read, or a snapshot that
// is corrupt or was taken from other geometry or settings, is an error
// shown in the window, and the cache is untouched. On success the undo
// history is cleared (its commands name obstacles the restored state may
// not have), the selection and the swap log too.
func (a *App) RestoreSnapshot(path string) error {
	if a.Cache == nil {
		return a.cacheFail(errNoCache)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return a.cacheFail(fmt.Errorf("ui: restore snapshot: %w", err))
	}
	return a.restoreSnapshotData(data, path)
}

// restoreSnapshotData is RestoreSnapshot on bytes; what names them in
// messages.
func (a *App) restoreSnapshotData(data []byte, what string) error {
	if a.Cache == nil {
		return a.cacheFail(errNoCache)
	}
	if err := a.Cache.Restore(data); err != nil {
		return a.cacheFail(fmt.Errorf("ui: restore snapshot %s (the cache is unchanged): %w", what, err))
	}
	a.rec.restored(what, data)
	a.editor = newCacheEditor(a.Cache)
	a.editor.rec = &a.rec
	a.history.clear()
	a.SelectedObstacle = 0
	a.ObstacleTool.drag = obstacleDrag{}
	a.resetSwapLog()
	a.bumpAll()
	a.cacheOK(fmt.Sprintf("restored %s: %d obstacles, %d volumes, %d tiles queued (undo history cleared)",
		what, len(a.Cache.Obstacles()), len(a.Cache.Volumes()), a.Cache.QueueLen()))
	return nil
}

// hasObstacle reports whether the cache holds obstacle id.
func (a *App) hasObstacle(id tilecache.ObstacleID) bool {
	_, ok := a.obstacleByID(id)
	return ok
}

// obstacleByID returns obstacle id of the cache.
func (a *App) obstacleByID(id tilecache.ObstacleID) (voxel.Obstacle, bool) {
	if a.Cache == nil || id == 0 {
		return voxel.Obstacle{}, false
	}
	for _, o := range a.Cache.Obstacles() {
		if o.ID == id {
			return o.Obstacle, true
		}
	}
	return voxel.Obstacle{}, false
}

// syncCacheOverlays makes the scene's cache overlays match the state (see
// syncOverlay): each visible one is rebuilt when what it shows changed.
func (a *App) syncCacheOverlays() {
	if a.Scene == nil {
		return
	}
	if a.cacheBuilt == nil {
		a.initCacheState()
	}
	for _, name := range render.CacheOverlayNames {
		syncOverlay(a, name, a.cacheVis, a.cacheBuilt, a.cacheOverlayKey(name), func() *render.Overlay {
			return a.buildCacheOverlay(name)
		})
	}
}

// cacheOverlayKey returns the key of the content overlay name shows now.
func (a *App) cacheOverlayKey(name string) cacheOverlayKey {
	k := cacheOverlayKey{cache: a.Cache}
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
// preview here, the others with render.CacheStateOverlay (as navmesh
// scenario draws them).
func (a *App) buildCacheOverlay(name string) *render.Overlay {
	if name == render.OverlayToolPreview {
		return a.previewOverlay()
	}
	b := geom.EmptyBox()
	if a.Soup != nil {
		b = a.Soup.Bounds()
	}
	return render.CacheStateOverlay(name, &render.CacheState{Cache: a.Cache, LevelBounds: b, SelectedObstacle: a.SelectedObstacle,
		SelectedOffMesh: a.OffMeshTool.Selected, Swaps: a.Swaps.View()})
}

// previewOverlay returns the tools' preview: the obstacle being placed or
// dragged, the corners of the volume being drawn.
func (a *App) previewOverlay() *render.Overlay {
	var ghost *voxel.Obstacle
	growM := 0.0
	if a.Cache != nil {
		growM = a.Cache.ObstacleGrowthM()
	}
	ghost = a.obstacleGhost() // tools_obstacle.go
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
