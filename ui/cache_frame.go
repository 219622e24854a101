package ui

import (
	"cmp"
	"errors"
	"fmt"
	"reflect"

	"navviz/core/pipeline"
	"navviz/ui/session"
)

// The tile cache's part of a Game Update: the background cache builds,
// the snapshot dialogs, the first run's automatic build, the tools and auto
// update.

// cacheDialogAnswer is the answer of a Cache panel file dialog (snapshot
// save or restore, session save): the path and what to do with it.
type cacheDialogAnswer struct {
	apply func(a *session.App, path string)
	path  string
	err   error
}

// cacheFrame runs the tile cache's part of one Update: see cacheStep. It
// returns the input the camera controller should see.
func (g *Game) cacheFrame(in frameInput) frameInput {
	return g.cacheStep(in, readToolKeys())
}

// cacheStep takes the cache worker's results, applies a finished cache
// build and snapshot dialog, advances the demo and the first run's build,
// runs the tools (runTools: their keys, not while a widget has the focus;
// the tool gesture of the left button; the wheel) and auto update. The
// left button and the wheel are removed from the returned input when a
// tool used them.
func (g *Game) cacheStep(in frameInput, keys toolKeys) frameInput {
	g.ensureCacheUI()
	a := g.App
	a.PollCacheWorker() // the results of the cache's jobs (cache_worker.go)
	g.pollCache()
	g.pollCacheDialog()
	g.runDemo()
	g.runAutoCache()
	in = g.runTools(in, keys) // tool.go
	a.AutoUpdate()
	return in
}

// startCacheBuild builds the tile caches of the current level with the
// Build panel's settings, one per agent size (App.CacheAgents), in the
// background (unless they are invalid: the panel says why).
func (g *Game) startCacheBuild() { g.buildWorld(false) }

// buildWorld is startCacheBuild; carry says the obstacles and volumes in
// place go over into the new caches (cacheResult).
func (g *Game) buildWorld(carry bool) {
	g.ensureCacheUI()
	a := g.App
	if a.Soup() == nil {
		a.SetCacheErr(cmp.Or(a.NoGeometry(), "no level")) // a Detour file has no geometry
		return
	}
	if p := g.settingsProblem(); p != "" {
		a.SetCacheErr("invalid settings: " + p)
		return
	}
	if err := a.Oversize(a.Soup(), a.LevelName(), pipeline.BuildOptions{}); err != nil { // the cache's first build
		a.SetCacheErr(err.Error())
		a.Report(fmt.Errorf("cache build: %w", err))
		return
	}
	a.SetCacheErr("")
	g.cache.buildSoup = a.Soup()
	g.cache.runner.Start(a.Soup(), a.Settings(), a.CacheAgents(), a.LevelName(), carry)
}

// cancelCacheBuild stops the running cache build.
func (g *Game) cancelCacheBuild() {
	g.ensureCacheUI()
	g.cache.runner.Cancel()
	g.App.SetStatus("cache build cancelled")
}

// pollCache installs a finished cache build (on the game goroutine), and
// cancels a build of a level that is no longer loaded.
func (g *Game) pollCache() {
	a := g.App
	if running, _, _ := g.cache.runner.Progress(); running && g.cache.buildSoup != a.Soup() {
		g.cache.runner.Cancel()
	}
	res, ok := g.cache.runner.Poll()
	if !ok {
		return
	}
	if g.cache.buildSoup != a.Soup() {
		return // of another level
	}
	if res.Err != nil {
		a.SetCacheErr(res.Err.Error())
		a.Report(fmt.Errorf("cache build: %w", res.Err))
		return
	}
	// The cache is the worker's once installed: count its tiles first.
	agents := res.World.Agents()
	first, _ := res.World.Cache(agents[0].Name)
	msg := fmt.Sprintf("cache built in %s: %d tiles cached", fmtDur(res.Wall), len(first.CachedTiles()))
	if len(agents) > 1 {
		msg = fmt.Sprintf("caches of %d agent sizes (%s) built in %s: %d tiles cached for %q", len(agents), session.AgentNames(agents), fmtDur(res.Wall), len(first.CachedTiles()), agents[0].Name)
	}
	a.InstallWorld(res.World, res.Level, res.Wall, res.Carry)
	if g.opts.AutoCache && g.cache.autoSoup == a.Soup() && !res.Carry {
		msg += ". " + firstSteps
	}
	a.ReportOK(msg)
}

// applyObstaclePreset sets the Build panel's settings to the spec's
// recommendation for obstacle work: partition Layers, no detail height
// sampling (DetailSampleDistCells 0), the rest unchanged.
func (g *Game) applyObstaclePreset() {
	s := g.App.Settings()
	s.Partition = pipeline.Layers
	s.DetailSampleDistCells = 0
	g.form.load(&s)
	g.applyForm()
	g.App.SetStatus("settings: partition layers, detail sample distance 0 (obstacle preset)")
}

// startSnapshotDialog opens the save (save true) or restore dialog.
func (g *Game) startSnapshotDialog(save bool) {
	if save {
		g.startCacheDialog(func() (string, error) {
			return saveFileDialog("Save tile cache snapshot", "snapshot"+session.SnapshotExt, "navviz cache snapshots (*.nvtc)", "nvtc")
		}, func(a *session.App, p string) { a.Report(session.ErrOf(a.SaveSnapshot(p))) })
		return
	}
	g.startCacheDialog(func() (string, error) {
		return openAnyFileDialog("Restore tile cache snapshot", "navviz cache snapshots (*.nvtc)", "nvtc")
	}, func(a *session.App, p string) { a.Report(a.RestoreSnapshot(p)) })
}

// startExportDialog asks where to export the live navmesh (Detour's MSET
// file when detourFormat, else navviz's mesh file) and exports it there.
func (g *Game) startExportDialog(detourFormat bool) {
	name, filter, ext := "navmesh.bin", "navviz mesh files (*.bin)", "bin"
	if detourFormat {
		name, filter = "navmesh.mset.bin", "Detour navmesh files (*.bin)"
	}
	g.startCacheDialog(func() (string, error) {
		return saveFileDialog("Export the live navmesh", name, filter, ext)
	}, func(a *session.App, p string) { a.Report(a.ExportNavMesh(p, detourFormat)) })
}

// startCacheDialog runs the file dialog show off the game loop; its
// answer arrives in a later Update (pollCacheDialog), which applies the
// path. It shares the Level panel's "a dialog is open" flag, so only one
// dialog is open at a time.
func (g *Game) startCacheDialog(show func() (string, error), apply func(a *session.App, path string)) {
	g.ensureCacheUI()
	if g.dialogBusy || g.cache.dialog {
		return
	}
	g.dialogBusy, g.cache.dialog = true, true
	ch := g.cache.answers
	go func() {
		p, err := show()
		ch <- cacheDialogAnswer{apply: apply, path: p, err: err}
	}()
}

// pollCacheDialog applies the answer of a Cache panel file dialog once it
// arrived.
func (g *Game) pollCacheDialog() {
	select {
	case r := <-g.cache.answers:
		g.dialogBusy, g.cache.dialog = false, false
		switch {
		case errors.Is(r.err, errDialogCancelled):
		case r.err != nil:
			g.App.Report(r.err)
		default:
			r.apply(g.App, r.path)
		}
	default:
	}
}

// autoCacheWanted reports whether Options.AutoCache applies now: a level
// without a cache, and no demo (which builds its own).
func (g *Game) autoCacheWanted() bool {
	return g.opts.AutoCache && g.opts.DemoObstacles <= 0 && g.App.Soup() != nil && !g.App.CacheView().Has
}

// runAutoCache starts the background cache build of a newly loaded level
// when Options.AutoCache is set (the first run's live navmesh): the
// obstacle preset the first time, then the Build panel's settings.
func (g *Game) runAutoCache() {
	a := g.App
	if !g.autoCacheWanted() || g.cache.autoSoup == a.Soup() {
		return
	}
	if running, _, _ := g.cache.runner.Progress(); running {
		return
	}
	g.cache.autoSoup = a.Soup()
	if !g.cache.autoPreset {
		g.cache.autoPreset = true
		g.applyObstaclePreset()
	}
	g.startCacheBuild()
}

// autoCachePending reports whether the automatic cache build of the
// current level has not ended yet (scripted frames are counted after it).
func (g *Game) autoCachePending() bool {
	if !g.autoCacheWanted() || g.App.CacheErr() != "" {
		return false
	}
	if g.cache.autoSoup != g.App.Soup() {
		return true
	}
	running, _, _ := g.cache.runner.Progress()
	busy, _ := g.App.CacheBusy() // the built cache is being installed
	return running || busy
}

// firstSteps is the "what to do" line shown once a cache is built.
const firstSteps = "Next: choose an obstacle in the toolbar (the Obstacle tool, key 2) and click the level to place one; " +
	"Step 1 tile or Update all (Cache tab) rebuilds the queued tiles; the Inspect tab shows each layer's repair."

// settingsDiffer reports whether the cache was built with settings other
// than s.
func settingsDiffer(cs, s pipeline.NavSettings) bool {
	if !volumesEqual(cs.Volumes, s.Volumes) || len(cs.Obstacles) != len(s.Obstacles) {
		return true
	}
	cs.Volumes, s.Volumes, cs.Obstacles, s.Obstacles = nil, nil, nil, nil
	return !reflect.DeepEqual(cs, s)
}
