package ui

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"reflect"
	"strings"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/pipeline"
	"navviz/render"
	"navviz/tilecache"
)

// cacheDialogAnswer is the answer of a Cache panel file dialog (snapshot
// save or restore, session save): the path and what to do with it.
type cacheDialogAnswer struct {
	apply func(a *App, path string)
	path  string
	err   error
}

// demoStage is how far the --demo-obstacles scenario got.
type demoStage int

const (
	demoIdle     demoStage = iota // not started
	demoBuilding                  // the cache is being built
	demoDone                      // placed and updated (or failed)
)

// cacheUI is the Game's part of the tile cache: the background builds, the
// snapshot dialogs, the tool pointer and the demo.
type cacheUI struct {
	runner    *cacheRunner
	buildSoup *level.Soup // the level the running build is of
	ptr       toolPointer
	answers   chan cacheDialogAnswer
	dialog    bool   // a Cache panel file dialog is open
	pathField string // nodialog builds: the snapshot path
	demo      demoStage
	// autoSoup is the level Options.AutoCache last started a build for;
	// autoPreset is set once the obstacle preset has been applied.
	autoSoup   *level.Soup
	autoPreset bool
	// open shows the Cache panel (the Level panel's switch; closed at
	// start so that the 3D view stays clear, opened by the demo).
	open bool
	// nums are the texts of the panel's number fields (number_field.go).
	nums numberFields
}

// cacheToggle is the Level panel's switch of the Cache panel. Closing the
// panel puts the tools away (a click picks again).
func (g *Game) cacheToggle(ctx *debugui.Context) {
	open := g.cache.open
	ctx.Checkbox(&open, "Tile cache panel").On(func() { g.setCachePanel(open) })
}

// setCachePanel opens or closes the Cache panel.
func (g *Game) setCachePanel(open bool) {
	g.cache.open = open
	if !open && g.App.Tool != toolSelect {
		g.App.CancelObstacleDrag()
		g.App.Tool = toolSelect
		g.App.gens.preview++
	}
}

// ensureCacheUI makes the runner and the channel on first use.
func (g *Game) ensureCacheUI() {
	if g.cache.runner == nil {
		g.cache.runner = newCacheRunner()
		g.cache.answers = make(chan cacheDialogAnswer, 1)
	}
}

// pointerKind is what a toolPointer event is.
type pointerKind int

const (
	pointerNone    pointerKind = iota
	pointerPress               // the left button went down in the view
	pointerDrag                // it moved while down
	pointerRelease             // it came up
)

// pointerEvent is one event of a toolPointer: where, and for a release
// whether the pointer moved more than clickSlopPx since the press.
type pointerEvent struct {
	Kind  pointerKind
	X, Y  int
	Moved bool
	// PressX and PressY are where the press was.
	PressX, PressY int
}

// toolPointer turns input snapshots into the left-button events of a tool.
// While a tool is active a plain left press in the view (not over a panel,
// no widget focused, shift not held: shift+left still pans) starts a
// gesture the tool owns until the button is released; the camera
// controller does not see those frames' left button.
type toolPointer struct {
	down           bool
	pressX, pressY int
	lastX, lastY   int
	moved          bool
	prevLeft       bool
}

// step consumes one snapshot; active says whether a tool takes left
// presses. consumed says the left button belongs to the tool this frame.
func (p *toolPointer) step(in frameInput, active bool) (ev pointerEvent, consumed bool) {
	free := in.Captured&(debugui.InputCapturingStateHover|debugui.InputCapturingStateFocus) == 0
	defer func() { p.prevLeft = in.Left }()
	if p.down {
		if in.Left {
			if in.X != p.lastX || in.Y != p.lastY {
				dx, dy := in.X-p.pressX, in.Y-p.pressY
				if dx < -clickSlopPx || dx > clickSlopPx || dy < -clickSlopPx || dy > clickSlopPx {
					p.moved = true
				}
				p.lastX, p.lastY = in.X, in.Y
				return pointerEvent{Kind: pointerDrag, X: in.X, Y: in.Y, Moved: p.moved, PressX: p.pressX, PressY: p.pressY}, true
			}
			return pointerEvent{}, true
		}
		p.down = false
		return pointerEvent{Kind: pointerRelease, X: in.X, Y: in.Y, Moved: p.moved, PressX: p.pressX, PressY: p.pressY}, true
	}
	if active && in.Left && !p.prevLeft && free && !in.Shift {
		p.down, p.moved = true, false
		p.pressX, p.pressY, p.lastX, p.lastY = in.X, in.Y, in.X, in.Y
		return pointerEvent{Kind: pointerPress, X: in.X, Y: in.Y, PressX: in.X, PressY: in.Y}, true
	}
	return pointerEvent{}, false
}

// toolKeys are the key presses of one frame the cache tools use.
type toolKeys struct {
	Undo, Redo                       bool // Ctrl+Z; Ctrl+Y or Ctrl+Shift+Z
	Delete, Escape, Enter, Backspace bool
}

// readToolKeys samples the keys of the cache tools (call from Update).
func readToolKeys() toolKeys {
	ctrl := ebiten.IsKeyPressed(ebiten.KeyControl) || ebiten.IsKeyPressed(ebiten.KeyMeta)
	shift := ebiten.IsKeyPressed(ebiten.KeyShift)
	z := inpututil.IsKeyJustPressed(ebiten.KeyZ)
	return toolKeys{
		Undo:      ctrl && z && !shift,
		Redo:      ctrl && (inpututil.IsKeyJustPressed(ebiten.KeyY) || (z && shift)),
		Delete:    inpututil.IsKeyJustPressed(ebiten.KeyDelete),
		Escape:    inpututil.IsKeyJustPressed(ebiten.KeyEscape),
		Enter:     inpututil.IsKeyJustPressed(ebiten.KeyEnter) || inpututil.IsKeyJustPressed(ebiten.KeyNumpadEnter),
		Backspace: inpututil.IsKeyJustPressed(ebiten.KeyBackspace),
	}
}

// cacheFrame runs the tile cache's part of one Update: see cacheStep. It
// returns the input the camera controller should see.
func (g *Game) cacheFrame(in frameInput) frameInput {
	return g.cacheStep(in, readToolKeys())
}

// cacheStep takes the cache worker's results, applies a finished cache
// build and snapshot dialog, advances
// the demo, handles the tools' keys (not while a widget has the focus),
// the tool gesture of the left button and the wheel over an oriented box,
// and runs auto update. The left button and the wheel are removed from the
// returned input when a tool used them.
func (g *Game) cacheStep(in frameInput, keys toolKeys) frameInput {
	g.ensureCacheUI()
	a := g.App
	a.pollCacheWorker() // the results of the cache's jobs (cache_worker.go)
	g.pollCache()
	g.pollCacheDialog()
	g.runDemo()
	g.runAutoCache()

	if in.Captured&debugui.InputCapturingStateFocus == 0 {
		g.toolKeys(keys)
	}

	ev, consumed := g.cache.ptr.step(in, a.Tool != toolSelect)
	if consumed {
		in.Left = false
	}
	g.toolPointerEvent(ev)

	hover := in.Captured&debugui.InputCapturingStateHover != 0
	if a.Tool == toolObstacle && a.cv().has && in.WheelY != 0 && !hover && !g.cache.ptr.down {
		if p, ok := a.worldPoint(float64(in.X), float64(in.Y), g.w, g.h); ok && a.RotateObstacleAt(p, in.WheelY) {
			in.WheelY = 0
		}
	}
	a.autoUpdate()
	return in
}

// toolKeys applies the tools' keys.
func (g *Game) toolKeys(k toolKeys) {
	a := g.App
	switch {
	case k.Undo:
		a.report(errOf(a.Undo()))
	case k.Redo:
		a.report(errOf(a.Redo()))
	}
	switch a.Tool {
	case toolObstacle:
		if k.Delete {
			a.report(errOf(a.DeleteSelectedObstacle()))
		}
		if k.Escape {
			a.CancelObstacleDrag()
			g.cache.ptr = toolPointer{prevLeft: g.cache.ptr.prevLeft}
		}
	case toolOffMesh:
		g.offMeshKeys(k) // tools_offmesh.go
	case toolVolume:
		switch {
		case k.Enter:
			a.report(a.CloseVolume())
		case k.Backspace:
			a.UndoVolumeCorner()
		case k.Escape:
			a.ClearVolumeCorners()
		}
	}
}

// toolPointerEvent hands a tool gesture event to the active tool.
func (g *Game) toolPointerEvent(ev pointerEvent) {
	a := g.App
	if ev.Kind == pointerNone {
		return
	}
	switch a.Tool {
	case toolObstacle:
		switch ev.Kind {
		case pointerPress:
			p, ok := a.worldPoint(float64(ev.X), float64(ev.Y), g.w, g.h)
			if !ok {
				a.report(fmt.Errorf("ui: no level under the cursor to place an obstacle on"))
				return
			}
			a.ObstaclePress(p)
		case pointerDrag:
			if p, ok := a.worldPoint(float64(ev.X), float64(ev.Y), g.w, g.h); ok {
				a.ObstacleDragTo(p)
			}
		case pointerRelease:
			a.report(a.ObstacleRelease())
		}
	case toolVolume:
		if ev.Kind != pointerRelease || ev.Moved {
			return
		}
		p, ok := a.worldPoint(float64(ev.PressX), float64(ev.PressY), g.w, g.h)
		if !ok {
			a.report(fmt.Errorf("ui: no level under the cursor for a volume corner"))
			return
		}
		a.report(a.VolumeClick(p))
	case toolAgents:
		g.agentsPointer(ev)
	case toolOffMesh:
		g.offMeshPointerEvent(ev) // tools_offmesh.go
	}
}

// worldPoint returns the level point under pixel (xPx, yPx) of a wPx x hPx
// view: the first level triangle the camera ray meets, else the level's
// floor plane (pickPoint, the Level picking the tile selection uses).
func (a *App) worldPoint(xPx, yPx float64, wPx, hPx int) (geom.Vec3, bool) {
	o, d := a.Camera.Ray(xPx, yPx, wPx, hPx)
	return pickPoint(a.Soup, o, d)
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
	if a.Soup == nil {
		a.CacheErr = "no level"
		return
	}
	if p := g.settingsProblem(); p != "" {
		a.CacheErr = "invalid settings: " + p
		return
	}
	if err := a.oversize(a.Soup, a.LevelName, pipeline.BuildOptions{}); err != nil { // the cache's first build
		a.CacheErr = err.Error()
		a.report(fmt.Errorf("cache build: %w", err))
		return
	}
	a.CacheErr = ""
	g.cache.buildSoup = a.Soup
	g.cache.runner.start(a.Soup, a.Settings, a.CacheAgents(), a.LevelName, carry)
}

// cancelCacheBuild stops the running cache build.
func (g *Game) cancelCacheBuild() {
	g.ensureCacheUI()
	g.cache.runner.cancel()
	g.App.Status = "cache build cancelled"
}

// pollCache installs a finished cache build (on the game goroutine), and
// cancels a build of a level that is no longer loaded.
func (g *Game) pollCache() {
	a := g.App
	if running, _, _ := g.cache.runner.progress(); running && g.cache.buildSoup != a.Soup {
		g.cache.runner.cancel()
	}
	res, ok := g.cache.runner.poll()
	if !ok {
		return
	}
	if g.cache.buildSoup != a.Soup {
		return // of another level
	}
	if res.err != nil {
		a.CacheErr = res.err.Error()
		a.report(fmt.Errorf("cache build: %w", res.err))
		return
	}
	// The cache is the worker's once installed: count its tiles first.
	agents := res.world.Agents()
	first, _ := res.world.Cache(agents[0].Name)
	msg := fmt.Sprintf("cache built in %s: %d tiles cached", fmtDur(res.wall), len(first.CachedTiles()))
	if len(agents) > 1 {
		msg = fmt.Sprintf("caches of %d agent sizes (%s) built in %s: %d tiles cached for %q", len(agents), agentNames(agents), fmtDur(res.wall), len(first.CachedTiles()), agents[0].Name)
	}
	a.InstallWorld(res.world, res.level, res.wall, res.carry)
	if g.opts.AutoCache && g.cache.autoSoup == a.Soup && !res.carry {
		msg += ". " + firstSteps
	}
	a.reportOK(msg)
}

// applyObstaclePreset sets the Build panel's settings to the spec's
// recommendation for obstacle work: partition Layers, no detail height
// sampling (DetailSampleDistCells 0), the rest unchanged.
func (g *Game) applyObstaclePreset() {
	s := g.App.Settings
	s.Partition = pipeline.Layers
	s.DetailSampleDistCells = 0
	g.form.load(&s)
	g.applyForm()
	g.App.Status = "settings: partition layers, detail sample distance 0 (obstacle preset)"
}

// startSnapshotDialog opens the save (save true) or restore dialog.
func (g *Game) startSnapshotDialog(save bool) {
	if save {
		g.startCacheDialog(func() (string, error) {
			return saveFileDialog("Save tile cache snapshot", "snapshot"+snapshotExt, "navviz cache snapshots (*.nvtc)", "nvtc")
		}, func(a *App, p string) { a.report(errOf(a.SaveSnapshot(p))) })
		return
	}
	g.startCacheDialog(func() (string, error) {
		return openAnyFileDialog("Restore tile cache snapshot", "navviz cache snapshots (*.nvtc)", "nvtc")
	}, func(a *App, p string) { a.report(a.RestoreSnapshot(p)) })
}

// startCacheDialog runs the file dialog show off the game loop; its
// answer arrives in a later Update (pollCacheDialog), which applies the
// path. It shares the Level panel's "a dialog is open" flag, so only one
// dialog is open at a time.
func (g *Game) startCacheDialog(show func() (string, error), apply func(a *App, path string)) {
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
			g.App.report(r.err)
		default:
			r.apply(g.App, r.path)
		}
	default:
	}
}

// cacheDemoPending reports whether the --demo-obstacles scenario has not
// finished yet (the scripted frames are counted once it has).
func (g *Game) cacheDemoPending() bool {
	return g.opts.DemoObstacles > 0 && g.cache.demo != demoDone
}

// runDemo advances the --demo-obstacles scenario: the obstacle preset and
// a cache build, then DemoScene.
func (g *Game) runDemo() {
	a := g.App
	switch {
	case g.opts.DemoObstacles <= 0 || g.cache.demo == demoDone:
	case g.cache.demo == demoIdle:
		g.setCachePanel(true)
		g.applyObstaclePreset()
		g.startCacheBuild()
		g.cache.demo = demoBuilding
		if a.CacheErr != "" {
			g.cache.demo = demoDone
		}
	case a.cv().has:
		g.cache.demo = demoDone
		a.report(a.DemoScene(g.opts.DemoObstacles))
	default:
		if running, _, _ := g.cache.runner.progress(); !running {
			g.cache.demo = demoDone // the build failed (shown)
		}
	}
}

// autoCacheWanted reports whether Options.AutoCache applies now: a level
// without a cache, and no demo (which builds its own).
func (g *Game) autoCacheWanted() bool {
	return g.opts.AutoCache && g.opts.DemoObstacles <= 0 && g.App.Soup != nil && !g.App.cv().has
}

// runAutoCache starts the background cache build of a newly loaded level
// when Options.AutoCache is set (the first run's live navmesh): the
// obstacle preset the first time, then the Build panel's settings.
func (g *Game) runAutoCache() {
	a := g.App
	if !g.autoCacheWanted() || g.cache.autoSoup == a.Soup {
		return
	}
	if running, _, _ := g.cache.runner.progress(); running {
		return
	}
	g.cache.autoSoup = a.Soup
	if !g.cache.autoPreset {
		g.cache.autoPreset = true
		g.applyObstaclePreset()
	}
	g.startCacheBuild()
}

// autoCachePending reports whether the automatic cache build of the
// current level has not ended yet (scripted frames are counted after it).
func (g *Game) autoCachePending() bool {
	if !g.autoCacheWanted() || g.App.CacheErr != "" {
		return false
	}
	if g.cache.autoSoup != g.App.Soup {
		return true
	}
	running, _, _ := g.cache.runner.progress()
	busy, _ := g.App.cacheBusy() // the built cache is being installed
	return running || busy
}

// firstSteps is the "what to do" line shown once a cache is built.
const firstSteps = "Next: open the Tile cache panel (Level panel), pick the Obstacle tool and click the level to place one; " +
	"Step 1 tile or Update all rebuilds the queued tiles; Inspect shows each layer's repair."

// DemoScene places n obstacles (cylinder, box, oriented box in turn, the
// oriented boxes turned by 25° more each) on walkable points of the cache's
// mesh spiralling out from the level's centre, through the Obstacle tool
// (press and release), and with n >= 3 a volume of area 1 on a further
// point (Volume tool); runs UpdateAll; then places the last obstacle (an
// 8 m oriented box across the nearest tile corner) and updates one tile,
// so that the queue, the tile just rebuilt and the swaps are all visible,
// with auto update off. The camera frames the points.
func (a *App) DemoScene(n int) error {
	if !a.cv().has || a.Soup == nil {
		return a.report(errNoCache)
	}
	pts := a.demoPoints(n + 2)
	if len(pts) < n+1 {
		return a.report(fmt.Errorf("ui: demo: found %d walkable points for %d obstacles", len(pts), n))
	}
	a.AutoUpdate = false
	a.Tool = toolObstacle
	t := &a.ObstacleTool
	place := func(i int) error {
		t.ShapeIdx = i % len(obstacleShapes)
		t.YawDeg = float64(25 * (i + 1))
		a.SelectedObstacle = 0
		a.ObstaclePress(pts[i])
		return a.ObstacleRelease()
	}
	for i := 0; i+1 < n; i++ {
		if err := place(i); err != nil {
			return err
		}
	}
	if n >= 3 && len(pts) > n {
		c := pts[n]
		const r = 3
		a.Tool = toolVolume
		a.VolumeTool.AreaID = defaultVolumeArea
		for _, d := range [][2]float32{{-r, -r}, {r, -r}, {r, r}, {-r, r}} {
			if err := a.VolumeClick(geom.V3(c.X+d[0], c.Y, c.Z+d[1])); err != nil {
				return err
			}
		}
		if err := a.CloseVolume(); err != nil {
			return err
		}
		a.Tool = toolObstacle
	}
	if err := a.UpdateAllCache(); err != nil {
		return err
	}
	// The last one is a long box across the tile corner nearest its
	// point, so that it queues several tiles.
	last := a.nearestTileCorner(pts[n-1])
	t.ShapeIdx, t.YawDeg = len(obstacleShapes)-1, 30
	t.SizeXM, t.SizeZM = 8, 2
	a.SelectedObstacle = 0
	a.ObstaclePress(last)
	if err := a.ObstacleRelease(); err != nil {
		return err
	}
	if _, err := a.StepCache(1); err != nil {
		return err
	}
	b := geom.EmptyBox().Extend(last)
	for _, p := range pts[:min(len(pts), n+1)] {
		b = b.Extend(p)
	}
	const marginM = 10
	b.Min = b.Min.Sub(geom.V3(marginM, 1, marginM))
	b.Max = b.Max.Add(geom.V3(marginM, 3, marginM))
	if a.aspect > 0 {
		a.Camera.FrameAspect(b, a.aspect)
	} else {
		a.Camera.Frame(b)
	}
	v := a.cv()
	a.reportOK(fmt.Sprintf("demo: %d obstacles placed, %d tiles queued; Step or Update all to go on", len(v.obstacles), len(v.queue)))
	return nil
}

// nearestTileCorner returns a point of the cache's mesh at (or within a
// metre of) a tile corner, seen from above: of the corners that have a
// polygon there, the one nearest p in x and z (p itself when none has).
func (a *App) nearestTileCorner(p geom.Vec3) geom.Vec3 {
	v := a.cv()
	g := v.grid
	ts := float64(g.TileSizeM())
	x0, z0 := float64(g.BoundsM.Min.X), float64(g.BoundsM.Min.Z)
	top := float64(a.Soup.Bounds().Max.Y) + 10
	best, bestD := p, math.Inf(1)
	for kz := 1; kz < g.TilesZ; kz++ {
		for kx := 1; kx < g.TilesX; kx++ {
			x, z := x0+float64(kx)*ts, z0+float64(kz)*ts
			d := math.Hypot(x-float64(p.X), z-float64(p.Z))
			if d >= bestD {
				continue
			}
			for _, o := range [][2]float64{{0, 0}, {0.5, 0.5}, {-0.5, 0.5}, {0.5, -0.5}, {-0.5, -0.5}} {
				if hit, ok := render.PickPoly(v.mesh, [3]float64{x + o[0], top, z + o[1]}, [3]float64{0, -1, 0}, 0); ok {
					best, bestD = hit.Pos, d
					break
				}
			}
		}
	}
	return best
}

// demoPoints returns up to n points of the cache's mesh, seen from above
// along a golden-angle spiral around the level's centre, at least 6 m
// apart.
func (a *App) demoPoints(n int) []geom.Vec3 {
	m := a.cv().mesh
	b := a.Soup.Bounds()
	c := b.Center()
	top := float64(b.Max.Y) + 10
	var out []geom.Vec3
	const minApartM, stepM = 6.0, 2.5
	golden := math.Pi * (3 - math.Sqrt(5))
	for k := 0; len(out) < n && k < 4000; k++ {
		r := stepM * math.Sqrt(float64(k))
		x := float64(c.X) + r*math.Cos(float64(k)*golden)
		z := float64(c.Z) + r*math.Sin(float64(k)*golden)
		hit, ok := render.PickPoly(m, [3]float64{x, top, z}, [3]float64{0, -1, 0}, 0)
		if !ok {
			continue
		}
		far := true
		for _, p := range out {
			if math.Hypot(float64(p.X-hit.Pos.X), float64(p.Z-hit.Pos.Z)) < minApartM {
				far = false
				break
			}
		}
		if far {
			out = append(out, hit.Pos)
		}
	}
	return out
}

// settingsDiffer reports whether the cache was built with settings other
// than s.
func settingsDiffer(cs, s pipeline.NavSettings) bool {
	if !volumesEqual(cs.Volumes, s.Volumes) || len(cs.Obstacles) != len(s.Obstacles) {
		return true
	}
	cs.Volumes, s.Volumes, cs.Obstacles, s.Obstacles = nil, nil, nil, nil
	return !reflect.DeepEqual(cs, s)
}

// cachePanel is the Cache window: building the cache, the tools, the
// update controls, snapshots and undo.
func (g *Game) cachePanel(ctx *debugui.Context) {
	g.ensureCacheUI()
	a := g.App
	c := a.cv()
	running, done, total := g.cache.runner.progress()
	switch {
	case running:
		ctx.Text("Building the cache " + progressBar(done, total, 20))
	case !c.has:
		ctx.Text("No tile cache. Build cache uses the Build panel's settings.")
	default:
		s := c.settings
		ctx.Text(fmt.Sprintf("Cache of %s: %d of %d tiles cached, built in %s; partition %s, detail sample %g cells, obstacle growth %.2f m.",
			displayName(a.CacheLevel), c.cachedTiles, c.grid.TileCount(), fmtDur(a.CacheBuildTime), s.Partition, s.DetailSampleDistCells, c.growthM))
		if len(c.agents) > 1 {
			ctx.Text(fmt.Sprintf("%d agent sizes (%s); showing the mesh of %q (Agent sizes below).", len(c.agents), agentNames(c.agents), c.agents[c.agent].Name))
		}
		if len(c.agents) > 0 && settingsDiffer(s, c.agents[c.agent].Settings(a.Settings)) {
			ctx.Text("The Build panel's settings differ from the cache's: Build cache again to use them.")
		}
	}
	if a.CacheErr != "" {
		ctx.Text("Cache build failed: " + a.CacheErr)
	}
	if busy, queued := a.cacheBusy(); busy {
		ctx.Text(fmt.Sprintf("Updating… (%s waiting)", plural(queued, "command")))
	}
	ctx.SetGridLayout([]int{-1, -1}, nil)
	ctx.Button("Obstacle preset").On(g.applyObstaclePreset)
	if running {
		ctx.Button("Cancel").On(g.cancelCacheBuild)
	} else {
		ctx.Button("Build cache").On(g.startCacheBuild)
	}
	ctx.SetGridLayout(nil, nil)
	ctx.Text("Obstacle preset: partition layers, detail sample distance 0 (the cheap rebuilds build3d-runtime.md recommends).")

	ctx.Header("Tools", true, func() { g.toolsSection(ctx) })
	ctx.Header("Update", true, func() { g.updateSection(ctx) })
	ctx.Header("Snapshot and undo", true, func() { g.snapshotSection(ctx) })
	ctx.Header("Agent sizes", true, func() { g.agentSizesSection(ctx) }) // cache_agents.go
	ctx.Header("Agents", true, func() { g.agentsSection(ctx) })          // tools_agents.go
	ctx.Header("Inspect", false, func() { g.inspectSection(ctx) })       // inspect_panel.go
}

// displayName shortens a level path to its file name.
func displayName(lvl string) string {
	if i := strings.LastIndexAny(lvl, `/\`); i >= 0 {
		return lvl[i+1:]
	}
	return lvl
}

// obstacleSizeRows edits the Obstacle tool's size settings of its shape:
// per setting a label, a slider to drag and a number field to type into
// (number_field.go). Any change redraws the tool preview, which shows the
// selected obstacle at the new size with its grown footprint before Apply
// (App.obstacleGhost).
func (g *Game) obstacleSizeRows(ctx *debugui.Context) {
	a := g.App
	t := &a.ObstacleTool
	grid := []int{-4, -3, -2}
	ctx.SetGridLayout(grid, nil)
	fields := t.sizeFields()
	sh := t.shape()
	ctx.Loop(len(fields), func(i int) {
		f := &fields[i]
		if !f.shown(sh) {
			return
		}
		before := *f.v
		ctx.Text(f.label)
		lo, hi := f.sliderRange(*f.v)
		ctx.SliderF(f.v, lo, hi, f.step, f.digits)
		t.nums.float(ctx, f.label, f.v, numberSpec{digits: f.digits})
		t.nums.errorRow(ctx, f.label, grid)
		if *f.v != before {
			a.gens.preview++
		}
	})
	ctx.SetGridLayout(nil, nil)
}

// toolsSection is the Tools part of the Cache panel.
func (g *Game) toolsSection(ctx *debugui.Context) {
	a := g.App
	c := a.cv()
	toolIdx := int(a.Tool)
	if choiceButtons(ctx, "Tool", &toolIdx, toolNames) {
		a.CancelObstacleDrag()
		a.Tool = toolKind(toolIdx)
		a.gens.preview++
	}

	switch a.Tool {
	case toolSelect:
		ctx.Text("Left-click picks a polygon of the live navmesh (Inspector). Choose obstacle, volume or link to edit the cache, agents to send the crowd.")
	case toolAgents:
		ctx.Text("Click the level: every agent heads there (Agents section below).")
	case toolObstacle:
		t := &a.ObstacleTool
		if choiceButtons(ctx, "Shape", &t.ShapeIdx, obstacleShapeNames) {
			a.gens.preview++
		}
		g.obstacleSizeRows(ctx)
		if a.SelectedObstacle != 0 {
			ctx.SetGridLayout([]int{-1, -1}, nil)
			ctx.Button(fmt.Sprintf("Apply to #%d", a.SelectedObstacle)).On(func() { a.report(a.ApplyToolToSelected()) })
			ctx.Button("Deselect").On(func() { a.SelectObstacle(0) })
			ctx.SetGridLayout(nil, nil)
		}
		ctx.Text("Click the level: place. Drag an obstacle: move it. Wheel over an oriented box: turn 15°. Delete: remove the selected one. The yellow outline is the footprint grown by the agent radius. With an obstacle selected, the sliders show its new size as a white ghost (grey: grown footprint); Apply makes it so.")
	case toolVolume:
		t := &a.VolumeTool
		state := "convex so far"
		if !t.convexSoFar() {
			state = "NOT convex"
		}
		ctx.Text(fmt.Sprintf("Corners: %d (%s)", len(t.Corners), state))
		grid := []int{-3, -2}
		ctx.SetGridLayout(grid, nil)
		nf := &g.cache.nums
		ctx.Text("Min y (m)")
		nf.float(ctx, "vol-min-y", &t.MinYM, numberSpec{digits: 2, step: 0.5})
		nf.errorRow(ctx, "vol-min-y", grid)
		ctx.Text("Max y (m)")
		nf.float(ctx, "vol-max-y", &t.MaxYM, numberSpec{digits: 2, step: 0.5})
		nf.errorRow(ctx, "vol-max-y", grid)
		ctx.Text("Area id (0-63)")
		nf.int(ctx, "vol-area", &t.AreaID, numberSpec{step: 1})
		nf.errorRow(ctx, "vol-area", grid)
		ctx.SetGridLayout(nil, nil)
		t.AreaID = min(max(t.AreaID, 0), int(maxAreaID))
		ctx.SetGridLayout([]int{-1, -1, -1}, nil)
		ctx.Button("Close (Enter)").On(func() { a.report(a.CloseVolume()) })
		ctx.Button("Drop corner").On(func() { a.UndoVolumeCorner() })
		ctx.Button("Clear (Esc)").On(a.ClearVolumeCorners)
		ctx.SetGridLayout(nil, nil)
		ctx.Text("Click the level to add corners of a convex polygon; click the first corner or press Enter to add the volume. Backspace drops the last corner.")
	case toolOffMesh:
		g.offMeshPanel(ctx) // tools_offmesh.go
	}

	if !c.has {
		return
	}
	obs := c.obstacles
	ctx.Text(fmt.Sprintf("Obstacles (%d), next id %d:", len(obs), c.nextObs))
	ctx.SetGridLayout([]int{44, -1, 24}, nil)
	ctx.Loop(len(obs), func(i int) {
		o := obs[i]
		label := fmt.Sprintf("#%d", o.ID)
		if o.ID == a.SelectedObstacle {
			label = "*" + label
		}
		ctx.Button(label).On(func() { a.SelectObstacle(o.ID) })
		ctx.Text(describeObstacle(&o.Obstacle))
		ctx.Button("x").On(func() { a.report(a.RemoveObstacle(o.ID)) })
	})
	ctx.SetGridLayout(nil, nil)
	vols := c.volumes
	ctx.Text(fmt.Sprintf("Volumes (%d), next id %d:", len(vols), c.nextVol))
	ctx.SetGridLayout([]int{44, -1, 24}, nil)
	ctx.Loop(len(vols), func(i int) {
		v := vols[i]
		ctx.Text(fmt.Sprintf("V#%d", v.ID))
		ctx.Text(describeVolume(&v.Volume))
		ctx.Button("x").On(func() { a.report(a.RemoveVolume(v.ID)) })
	})
	ctx.SetGridLayout(nil, nil)
}

// maxAreaID is the largest area id a volume may give.
const maxAreaID = 63

// updateSection is the Update part of the Cache panel: auto update, step,
// the queue, the latest update and the legend.
func (g *Game) updateSection(ctx *debugui.Context) {
	a := g.App
	c := a.cv()
	grid := []int{-4, -3, -2}
	ctx.SetGridLayout(grid, nil)
	ctx.Checkbox(&a.AutoUpdate, "Auto update")
	ctx.Text("tiles per frame")
	g.cache.nums.int(ctx, "tiles-per-frame", &a.TilesPerFrame, numberSpec{step: 1})
	g.cache.nums.errorRow(ctx, "tiles-per-frame", grid)
	ctx.SetGridLayout(nil, nil)
	a.TilesPerFrame = min(max(a.TilesPerFrame, 1), maxTilesPerFrame)
	ctx.SetGridLayout([]int{-1, -1}, nil)
	ctx.Button("Step 1 tile").On(func() {
		a.report(errOf(a.stepCache(1, false, "step", func(a *App, tiles int) { a.reportOK("updated " + plural(tiles, "tile")) })))
	})
	ctx.Button("Update all").On(func() { a.report(a.UpdateAllCache()) })
	ctx.SetGridLayout(nil, nil)
	if !c.has {
		return
	}
	q := c.queue
	ctx.Text("Queue: " + plural(len(q), "tile") + queueText(q, 60))
	if len(c.agents) > 1 {
		ctx.Text(fmt.Sprintf("(the queue of agent %q; %s queued in all %d agents' caches)", c.agents[c.agent].Name, plural(c.pending, "tile"), len(c.agents)))
	}
	if len(c.latest) > 0 {
		ctx.Text("Latest update:")
		lines := updateLines(c.latest, 8)
		ctx.Loop(len(lines), func(i int) { ctx.Text(lines[i]) })
	}
	if len(c.swapTiles) > 0 {
		ctx.Text(swapSummary(c.swapTiles))
	}
	ctx.Text(fmt.Sprintf("Since the build: %s, %s.", plural(c.updates, "update"), plural(c.layersBuilt, "layer build")))
	ctx.Text("Legend (swaps since the last edit, queue):")
	legendRows(ctx, []string{render.OverlaySwaps, render.OverlayQueue})
}

// swatch draws a square of colour col (opaque) in the next layout cell,
// in a light frame so that dark colours show on the dark panel.
func swatch(ctx *debugui.Context, col color.RGBA) {
	col.A = 255
	ctx.GridCell(func(bounds image.Rectangle) {
		ctx.DrawOnlyWidget(func(screen *ebiten.Image) {
			s := float32(ctx.Scale())
			side := float32(min(bounds.Dx(), bounds.Dy())) - 4
			x := float32(bounds.Min.X) + (float32(bounds.Dx())-side)/2
			y := float32(bounds.Min.Y) + (float32(bounds.Dy())-side)/2
			vector.DrawFilledRect(screen, x*s, y*s, side*s, side*s, color.RGBA{150, 150, 150, 255}, false)
			vector.DrawFilledRect(screen, (x+1)*s, (y+1)*s, (side-2)*s, (side-2)*s, col, false)
		})
	})
}

// queueText lists up to max queued tiles as ": 1 (3, 4), 2 (4, 4), …".
func queueText(q [][2]int, maxShown int) string {
	if len(q) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(", front first: ")
	for i, p := range q {
		if i == maxShown {
			fmt.Fprintf(&b, ", … %d more", len(q)-maxShown)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d (%d, %d)", i+1, p[0], p[1])
	}
	return b.String()
}

// updateLines describes up to maxLines rebuilt tiles, one line each: the
// tile, what the rebuild took, the spans removed and each layer's swap.
func updateLines(us []tilecache.TileUpdate, maxLines int) []string {
	var out []string
	for i, u := range us {
		if i == maxLines {
			out = append(out, fmt.Sprintf("… %d more", len(us)-maxLines))
			break
		}
		s := fmt.Sprintf("(%d, %d) %s", u.TX, u.TZ, u.Rebuild)
		if u.LayersBuilt > 0 {
			s += ", " + plural(u.LayersBuilt, "layer build")
		}
		s += ", " + plural(u.RemovedSpans, "span") + " removed"
		for _, sw := range u.Swaps {
			s += fmt.Sprintf("; L%d %s", sw.Layer, sw.Kind)
		}
		out = append(out, s)
	}
	return out
}

// swapSummary counts the swaps of the log by kind.
func swapSummary(log []tilecache.TileUpdate) string {
	var n [4]int
	for _, u := range log {
		for _, s := range u.Swaps {
			if int(s.Kind) < len(n) {
				n[s.Kind]++
			}
		}
	}
	return fmt.Sprintf("Since the last edit: %s rebuilt; layers kept %d, replaced %d, added %d, removed %d.",
		plural(len(log), "tile"), n[tilecache.SwapKept], n[tilecache.SwapReplaced], n[tilecache.SwapAdded], n[tilecache.SwapRemoved])
}

// plural returns "1 tile", "2 tiles".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// snapshotSection is the Snapshot and undo part of the Cache panel.
func (g *Game) snapshotSection(ctx *debugui.Context) {
	a := g.App
	if hasFileDialog {
		ctx.SetGridLayout([]int{-1, -1}, nil)
		ctx.Button(g.dialogLabel("Save snapshot…")).On(func() { g.startSnapshotDialog(true) })
		ctx.Button(g.dialogLabel("Restore snapshot…")).On(func() { g.startSnapshotDialog(false) })
		ctx.SetGridLayout(nil, nil)
	} else {
		ctx.Text("Snapshot file path:")
		ctx.TextField(&g.cache.pathField)
		ctx.SetGridLayout([]int{-1, -1}, nil)
		ctx.Button("Save").On(func() { a.report(errOf(a.SaveSnapshot(g.cache.pathField))) })
		ctx.Button("Restore").On(func() { a.report(a.RestoreSnapshot(g.cache.pathField)) })
		ctx.SetGridLayout(nil, nil)
	}
	ctx.SetGridLayout([]int{-1, -1}, nil)
	ctx.Button("Undo (Ctrl+Z)").On(func() { a.report(errOf(a.Undo())) })
	ctx.Button("Redo (Ctrl+Y)").On(func() { a.report(errOf(a.Redo())) })
	ctx.SetGridLayout(nil, nil)
	next := "nothing to undo"
	v := a.cv()
	if v.nextUndo != "" {
		next = "next undo: " + v.nextUndo
	}
	ctx.Text(fmt.Sprintf("%s (%d in the history). Undoing a removal or a move adds the shape again under a new id: the cache never reuses ids. Rebuilding or restoring the cache clears the history.", next, v.undoDepth))
	g.sessionControls(ctx) // session_panel.go
}

// Colours of the in-view labels.
var (
	labelShadow   = color.RGBA{0, 0, 0, 220}
	labelObstacle = color.RGBA{255, 235, 120, 255}
	labelSelected = color.RGBA{160, 240, 255, 255}
	labelVolume   = color.RGBA{200, 255, 200, 255}
)

// maxQueueLabels bounds the queue numbers drawn in the view.
const maxQueueLabels = 200

// drawCacheLabels draws, over the scene and under the panels, the queue
// order numbers at the centre of the queued tiles' lowest floor (when
// "queue" is shown; render.TileMarkFrame), "#id" over
// each obstacle ("obstacles") and "V#id" over each run-time volume
// ("volumes-rt"), projected through the camera.
func (g *Game) drawCacheLabels(screen *ebiten.Image) {
	a := g.App
	c := a.cv()
	if !c.has {
		return
	}
	// screen is the view's rectangle of the screen (dock.go).
	w, h := screen.Bounds().Dx(), screen.Bounds().Dy()
	ox, oy := float64(screen.Bounds().Min.X), float64(screen.Bounds().Min.Y)
	shown := func(name string) bool {
		o := a.Scene.Overlay(name)
		return o != nil && o.Visible
	}
	label := func(p geom.Vec3, s string, col color.RGBA) {
		x, y, _, ok := a.Camera.Project(p, w, h)
		if !ok || x < -50 || y < -20 || x > float64(w)+50 || y > float64(h)+20 {
			return
		}
		x, y = x+ox, y+oy
		for _, d := range [][2]float64{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}} {
			drawCentred(screen, s, x+d[0], y+d[1], labelShadow)
		}
		drawCentred(screen, s, x, y, col)
	}
	if shown(render.OverlayQueue) {
		q := c.queue
		for i, p := range q[:min(len(q), maxQueueLabels)] {
			if r, ok := render.TileMarkFrame(&c.grid, c.mesh, p[0], p[1], 0); ok {
				label(r.Center(), fmt.Sprint(i+1), lightenRGBA(render.QueueColour(i, len(q)), 0.45))
			}
		}
	}
	if shown(render.OverlayObstacles) {
		for _, o := range c.obstacles {
			minX, minZ, maxX, maxZ := o.Obstacle.BoundsXZ()
			_, hi := o.Obstacle.HeightRangeM()
			col := labelObstacle
			if o.ID == a.SelectedObstacle {
				col = labelSelected
			}
			label(geom.V3(float32((minX+maxX)/2), float32(hi)+0.4, float32((minZ+maxZ)/2)), fmt.Sprintf("#%d", o.ID), col)
		}
	}
	if shown(render.OverlayVolumesRT) {
		for _, v := range c.volumes {
			var sx, sz float32
			for _, p := range v.Volume.VertsXZ {
				sx += p[0]
				sz += p[1]
			}
			n := float32(max(len(v.Volume.VertsXZ), 1))
			y := v.Volume.MaxYM
			if a.Soup != nil {
				y = min(y, a.Soup.Bounds().Max.Y)
			}
			label(geom.V3(sx/n, y, sz/n), fmt.Sprintf("V#%d", v.ID), labelVolume)
		}
	}
}

// lightenRGBA moves c towards white by f (0..1), for text on dark
// shadows.
func lightenRGBA(c color.RGBA, f float64) color.RGBA {
	l := func(v uint8) uint8 { return uint8(math.Round(float64(v) + (255-float64(v))*f)) }
	return color.RGBA{l(c.R), l(c.G), l(c.B), c.A}
}

// drawCentred draws s centred on (x, y) in the debugui font.
func drawCentred(screen *ebiten.Image, s string, x, y float64, col color.RGBA) {
	op := &text.DrawOptions{}
	op.GeoM.Translate(x, y)
	op.PrimaryAlign = text.AlignCenter
	op.SecondaryAlign = text.AlignCenter
	op.ColorScale.ScaleWithColor(col)
	debugui.DrawText(screen, s, op)
}

// maxDemoObstacles bounds Options.DemoObstacles.
const maxDemoObstacles = 200

// choiceButtons draws label and one button per choice on a row, the
// current one (*idx) in brackets, and reports whether a click changed
// *idx: every choice visible and one click away, as RecastDemo's tool
// radio buttons (a dropdown takes two).
func choiceButtons(ctx *debugui.Context, label string, idx *int, names []string) bool {
	widths := []int{50}
	for range names {
		widths = append(widths, -1)
	}
	ctx.SetGridLayout(widths, nil)
	ctx.Text(label)
	changed := false
	// The buttons' ids come from this call site and the loop index: the
	// label's scope keeps two rows of choices (Tool, Show) apart.
	ctx.IDScope(label, func() {
		ctx.Loop(len(names), func(i int) {
			name := names[i]
			if i == *idx {
				name = "[" + name + "]"
			}
			ctx.Button(name).On(func() {
				if *idx != i {
					*idx = i
					changed = true
				}
			})
		})
	})
	ctx.SetGridLayout(nil, nil)
	return changed
}
