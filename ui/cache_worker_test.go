package ui

import (
	"bytes"
	"fmt"
	"image"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"navviz/core/geom"
	"navviz/render"
	"navviz/ui/session"
)

// waitWorker runs frames until g's cache worker has nothing left to do
// and its last results are taken.
func waitWorker(t *testing.T, g *Game) {
	t.Helper()
	deadline := time.Now().Add(120 * time.Second)
	for {
		drawFrames(t, g, 1)
		if busy, _ := g.App.CacheBusy(); !busy {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the cache worker did not finish in 120 s")
		}
	}
	drawFrames(t, g, 1) // sync the overlays with the last view
}

// obstacleAt returns the Obstacle tool's obstacle of shape shapeIdx,
// sizeM across, standing on the level's centre moved by (dx, dz) metres.
func obstacleAt(a *session.App, shapeIdx int, sizeM, dx, dz float32) (o obstacleTool, p geom.Vec3) {
	o = defaultObstacleTool()
	o.ShapeIdx = shapeIdx
	o.SizeXM, o.SizeZM, o.RadiusM = float64(sizeM), float64(sizeM), float64(sizeM)/2
	c := a.Soup().Bounds().Center()
	return o, geom.V3(c.X+dx, a.Soup().Bounds().Min.Y, c.Z+dz)
}

// TestCacheWorkerMatchesSync sends one sequence of cache commands (adds,
// steps, undo, redo, update all, a snapshot saved and restored), none
// waiting for the one before, to a cache worker and runs it without one
// on another cache of the same level: the two caches end identical (their
// snapshots and the bytes of every navmesh tile), and so do the counters,
// the history and the view the frame reads.
func TestCacheWorkerMatchesSync(t *testing.T) {
	dir := t.TempDir()
	sync := terrainCacheGame(t)
	async := terrainCacheGame(t)
	async.App.EnableCacheWorker()
	run := func(name string, a *session.App) {
		add := func(shape int, size, dx, dz float32) {
			tool, p := obstacleAt(a, shape, size, dx, dz)
			if err := a.AddObstacle(tool.newObstacle(p)); err != nil {
				t.Fatalf("%s: add: %v", name, err)
			}
		}
		snap := filepath.Join(dir, name+".nvtc")
		add(0, 4, 0, 0)
		add(1, 6, 12, -5)
		_, _ = a.StepCache(2)
		_, _ = a.Undo()
		_, _ = a.Redo()
		_, _ = a.Undo()
		add(2, 5, -10, 8)
		if _, err := a.SaveSnapshot(snap); err != nil {
			t.Fatalf("%s: save: %v", name, err)
		}
		_ = a.UpdateAllCache()
		add(1, 3, 20, 20)
		_, _ = a.StepCache(1)
		if err := a.RestoreSnapshot(snap); err != nil {
			t.Fatalf("%s: restore: %v", name, err)
		}
		_, _ = a.StepCache(1)
	}
	run("sync", sync.App)
	run("async", async.App)
	if busy, _ := async.App.CacheBusy(); !busy {
		t.Fatal("the worker finished every command within the Update that sent them: nothing ran in the background")
	}
	waitWorker(t, async)
	drawFrames(t, sync, 1)
	s, w := sync.App, async.App
	for _, a := range []*session.App{s, w} {
		if a.Err() != "" {
			t.Fatalf("error shown: %s", a.Err())
		}
	}
	snapS, err := s.Cache.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	snapW, err := w.Cache.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(snapS, snapW) {
		t.Error("the caches' snapshots differ")
	}
	if !bytes.Equal(meshTiles(t, s.Cache.Mesh()), meshTiles(t, w.Cache.Mesh())) {
		t.Error("the caches' navmesh tiles differ")
	}
	// The worker's view is of its cache's last state, with a mesh of its own.
	vs, vw := s.CacheView(), w.CacheView()
	if vw.Mesh == w.Cache.Mesh() {
		t.Error("the worker's view shares the cache's mesh")
	}
	if !bytes.Equal(meshTiles(t, vw.Mesh), meshTiles(t, w.Cache.Mesh())) {
		t.Error("the worker's view's mesh is not the cache's")
	}
	for _, c := range []struct {
		what      string
		got, want any
	}{
		{"updates", vw.Updates, vs.Updates},
		{"layer builds", vw.LayersBuilt, vs.LayersBuilt},
		{"undo depth", vw.UndoDepth, vs.UndoDepth},
		{"next undo", vw.NextUndo, vs.NextUndo},
		{"queue", fmt.Sprint(vw.Queue), fmt.Sprint(vs.Queue)},
		{"obstacles", fmt.Sprint(vw.Obstacles), fmt.Sprint(vs.Obstacles)},
		{"latest", len(vw.Latest), len(vs.Latest)},
		{"status", strings.ReplaceAll(w.Status(), "async", "sync"), s.Status()},
	} {
		if fmt.Sprint(c.got) != fmt.Sprint(c.want) {
			t.Errorf("%s: worker %v, without a worker %v", c.what, c.got, c.want)
		}
	}
	if len(vs.Queue) == 0 || vs.Updates < 4 {
		t.Errorf("the sequence left %d tiles queued after %d updates: it does not test what it should", len(vs.Queue), vs.Updates)
	}
	// The overlays the worker built show the same mesh.
	oS, oW := s.Scene().Overlay(render.OverlayCachePolys), w.Scene().Overlay(render.OverlayCachePolys)
	if oS == nil || oW == nil || len(oS.Tris) == 0 || !slices.Equal(oS.Tris, oW.Tris) {
		t.Error("cache-polys differs between the worker's view and the cache without a worker")
	}
	// An overlay ticked now is built by the worker and arrives; unticked,
	// it is emptied.
	w.SetOverlayVisible(render.OverlayCacheLayers, true)
	drawFrames(t, async, 1) // asks the worker for it
	waitWorker(t, async)
	if o := w.Scene().Overlay(render.OverlayCacheLayers); o == nil || !o.Visible || len(o.Tris)+len(o.Lines) == 0 {
		t.Errorf("cache-layers ticked with a worker: %+v", o)
	}
	w.SetOverlayVisible(render.OverlayCacheLayers, false)
	drawFrames(t, async, 1)
	if o := w.Scene().Overlay(render.OverlayCacheLayers); o == nil || o.Visible || len(o.Tris)+len(o.Lines) != 0 {
		t.Errorf("cache-layers unticked with a worker: still drawn")
	}
}

// TestInputWhileCacheWorks: a wheel step, F and a click sent while the
// cache worker rebuilds city's tiles after an obstacle over the whole
// level ("Update all", three times with undo and redo) all take effect in
// the Update that reads them, and the rebuilds still end with every tile
// rebuilt.
func TestInputWhileCacheWorks(t *testing.T) {
	g, err := NewGame(Options{Level: "city", Width: testW, Height: testH, AutoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	g.App.EnableCacheWorker()
	deadline := time.Now().Add(120 * time.Second)
	for g.autoCachePending() || !g.App.CacheView().Has {
		if time.Now().After(deadline) {
			t.Fatal("the automatic cache build did not finish in 120 s")
		}
		drawFrames(t, g, 1)
	}
	waitWorker(t, g)
	a := g.App
	a.Auto.SetOn(false)
	// An obstacle over the whole level, then undo and redo: three
	// rebuilds of every tile, queued behind each other. A gate job after
	// the first holds the worker until the input was sent, so that a fast
	// machine cannot finish before (the rebuild may be running, or done
	// and the worker waiting at the gate with the others queued).
	tool, p := obstacleAt(a, 1, 190, 0, 0)
	tool.HeightM = 40
	if err := a.AddObstacle(tool.newObstacle(p)); err != nil {
		t.Fatal(err)
	}
	gate := make(chan struct{})
	defer close(gate)
	for i, step := range []func() (bool, error){nil, a.Undo, a.Redo} {
		if step != nil {
			if _, err := step(); err != nil {
				t.Fatal(err)
			}
		}
		if err := a.UpdateAllCache(); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			a.Report(a.CacheDo(session.CacheJob{Run: func(*session.CacheCore) func(*session.App) error { <-gate; return nil }}))
		}
	}
	busy := func() bool { b, _ := a.CacheBusy(); return b }
	if !inputWhileBusy(t, g, image.Pt(testW/2, testH/2), busy) {
		t.Fatal("the worker was idle before the input was sent")
	}
	if running, _ := a.CacheBusy(); !running {
		t.Fatal("the worker passed the gate")
	}
	gate <- struct{}{}
	waitWorker(t, g)
	v := a.CacheView()
	if a.Err() != "" || len(v.Queue) != 0 || len(v.Latest) == 0 {
		t.Errorf("after update all: Err %q, %d tiles queued, %d rebuilt", a.Err(), len(v.Queue), len(v.Latest))
	}
}
