package ui

import (
	"bytes"
	"encoding/binary"
	"image"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"

	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
	"navviz/core/voxel"
	"navviz/render"
	"navviz/ui/session"
)

// TestToolPointer checks the tool gesture state machine: presses in the
// view belong to an active tool, presses over panels, with shift, or with
// no tool do not; a drag reports moves and the release whether it moved.
func TestToolPointer(t *testing.T) {
	hover := debugui.InputCapturingStateHover
	var p toolPointer
	step := func(in frameInput, active bool) (pointerEvent, bool) { return p.step(in, active) }

	// No tool: nothing is consumed.
	if ev, c := step(frameInput{X: 10, Y: 10, Left: true}, false); c || ev.Kind != pointerNone {
		t.Errorf("inactive tool: %+v consumed %v", ev, c)
	}
	step(frameInput{X: 10, Y: 10}, false)
	// Over a panel: not consumed.
	if _, c := step(frameInput{X: 10, Y: 10, Left: true, Captured: hover}, true); c {
		t.Error("a press over a panel went to the tool")
	}
	step(frameInput{X: 10, Y: 10}, true)
	// Shift+left pans: not consumed.
	if _, c := step(frameInput{X: 10, Y: 10, Left: true, Shift: true}, true); c {
		t.Error("shift+left went to the tool")
	}
	step(frameInput{X: 10, Y: 10}, true)
	// A held button does not start a gesture.
	step(frameInput{X: 10, Y: 10, Left: true}, false)
	if ev, c := step(frameInput{X: 10, Y: 10, Left: true}, true); c || ev.Kind != pointerNone {
		t.Error("a button held from before started a gesture")
	}
	step(frameInput{X: 10, Y: 10}, true)

	// A click: press and release within the slop.
	if ev, c := step(frameInput{X: 100, Y: 50, Left: true}, true); !c || ev.Kind != pointerPress || ev.X != 100 {
		t.Fatalf("press: %+v %v", ev, c)
	}
	if ev, c := step(frameInput{X: 102, Y: 51, Left: true}, true); !c || ev.Kind != pointerDrag || ev.Moved {
		t.Errorf("small move: %+v %v", ev, c)
	}
	if ev, c := step(frameInput{X: 102, Y: 51}, true); !c || ev.Kind != pointerRelease || ev.Moved || ev.PressX != 100 {
		t.Errorf("release: %+v %v", ev, c)
	}
	// A drag, which keeps going over a panel and after the tool is
	// switched off.
	step(frameInput{X: 100, Y: 50, Left: true}, true)
	if ev, _ := step(frameInput{X: 140, Y: 50, Left: true, Captured: hover}, false); ev.Kind != pointerDrag || !ev.Moved {
		t.Errorf("drag: %+v", ev)
	}
	if ev, c := step(frameInput{X: 140, Y: 50, Left: true}, true); ev.Kind != pointerNone || !c {
		t.Errorf("no move: %+v %v", ev, c)
	}
	if ev, _ := step(frameInput{X: 140, Y: 50}, true); ev.Kind != pointerRelease || !ev.Moved {
		t.Errorf("drag release: %+v", ev)
	}
}

func TestObstacleToolShapes(t *testing.T) {
	tool := defaultObstacleTool()
	p := geom.V3(3, 1, -2)
	for i, shape := range obstacleShapes {
		tool.ShapeIdx = i
		tool.YawDeg = 30
		o := tool.newObstacle(p)
		if o.Shape != shape || o.Validate() != nil {
			t.Fatalf("shape %d: %+v (%v)", i, o, o.Validate())
		}
		lo, hi := o.HeightRangeM()
		if math.Abs(lo-0.5) > 1e-6 || math.Abs(hi-3) > 1e-6 {
			t.Errorf("%s: height range %v..%v, want 0.5..3", shape, lo, hi)
		}
		if !o.ContainsXZ(3, -2, 0) || o.ContainsXZ(10, -2, 0) {
			t.Errorf("%s: footprint not centred on the click", shape)
		}
		if f := tool.obstacleFloor(o); math.Abs(float64(f.X-3)) > 1e-5 || math.Abs(float64(f.Y-1)) > 1e-5 || math.Abs(float64(f.Z+2)) > 1e-5 {
			t.Errorf("%s: floor %v, want %v", shape, f, p)
		}
		// loadFrom gives back the same obstacle.
		var back obstacleTool = defaultObstacleTool()
		back.loadFrom(o)
		if got := back.newObstacle(p); math.Abs(float64(got.RadiusM-o.RadiusM)) > 1e-5 || got.Shape != o.Shape {
			t.Errorf("%s: loadFrom round trip %+v, want %+v", shape, got, o)
		}
		m := session.Translated(o, geom.V3(1, 2, 3))
		if !m.ContainsXZ(4, 1, 0) {
			t.Errorf("%s: translated footprint does not hold the moved centre", shape)
		}
	}
	o := voxel.OrientedBox(geom.V3(0, 0, 0), geom.V3(1, 1, 1), float32(170*math.Pi/180))
	r := session.Rotated(o, 15)
	if d := float64(r.YawRad) * 180 / math.Pi; math.Abs(d+175) > 1e-3 {
		t.Errorf("170° + 15° = %v°, want -175°", d)
	}
	if c := voxel.Cylinder(geom.V3(0, 0, 0), 1, 1); session.Rotated(c, 15) != c {
		t.Error("rotating a cylinder changed it")
	}
}

func TestVolumeConvexity(t *testing.T) {
	sq := []geom.Vec3{geom.V3(0, 0, 0), geom.V3(4, 0, 0), geom.V3(4, 0, 4)}
	if err := checkConvex(sq); err != nil {
		t.Fatal(err)
	}
	if err := checkConvex(append(sq, geom.V3(3, 0, 1))); err == nil {
		t.Error("a dent was accepted")
	}
	if err := checkConvex(append(sq, geom.V3(0, 0, 4))); err != nil {
		t.Error(err)
	}
	vt := volumeTool{Corners: sq[:2]}
	if !vt.convexSoFar() {
		t.Error("two corners are not convex so far")
	}
}

// meshTiles returns the data of every tile of m with its position, in
// m.Tiles() order: equal for meshes that hold the same tiles (slot
// generations, which every replacement advances, are left out).
func meshTiles(t *testing.T, m *navmesh.Mesh) []byte {
	t.Helper()
	var b []byte
	for _, ref := range m.Tiles() {
		tl, err := m.Tile(ref)
		if err != nil {
			t.Fatal(err)
		}
		data, err := m.TileData(ref)
		if err != nil {
			t.Fatal(err)
		}
		b = binary.LittleEndian.AppendUint32(b, uint32(tl.Header.TileX))
		b = binary.LittleEndian.AppendUint32(b, uint32(tl.Header.TileZ))
		b = append(b, tl.Header.Layer)
		b = append(b, data...)
	}
	return b
}

// drawOnly syncs g's overlays and draws one frame without an Update (which
// would read the real mouse and end a gesture the test is making).
func drawOnly(g *Game) *image.RGBA {
	g.App.SyncSpanOverlays()
	img := ebiten.NewImage(g.screenW, g.screenH)
	defer img.Deallocate()
	g.Draw(img)
	pix := make([]byte, 4*g.screenW*g.screenH)
	img.ReadPixels(pix)
	return rgbaFromPixels(pix, g.screenW, g.screenH)
}

// waitCache runs frames until the cache build of g ended.
func waitCache(t *testing.T, g *Game) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		drawFrames(t, g, 1)
		running, _, _ := g.cache.runner.Progress()
		if !running {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("cache build did not finish in 60 s")
		}
	}
	if g.App.Cache == nil {
		t.Fatalf("no cache (CacheErr %q, Err %q)", g.App.CacheErr(), g.App.Err())
	}
}

// terrainCacheGame returns a game on terrain with its tile cache built
// with the obstacle preset (through the Cache panel's actions), auto
// update off.
func terrainCacheGame(t *testing.T) *Game {
	t.Helper()
	g := newTestGame(t, "terrain")
	drawFrames(t, g, 1)
	g.applyObstaclePreset()
	g.startCacheBuild()
	waitCache(t, g)
	g.App.Auto.SetOn(false)
	return g
}

// pixelOf returns where p is in g's 3D view (the coordinates the tools
// take).
func pixelOf(t *testing.T, g *Game, p geom.Vec3) (int, int) {
	t.Helper()
	x, y, _, ok := g.App.Camera.Project(p, g.w, g.h)
	if !ok {
		t.Fatalf("%v is not in view", p)
	}
	return int(math.Round(x)), int(math.Round(y))
}

// click presses and releases the left button at (x, y) through the tool
// path and returns the input the camera would have seen on the press.
func click(g *Game, x, y int) frameInput {
	g.cacheStep(frameInput{X: x, Y: y}, toolKeys{})
	seen := g.cacheStep(frameInput{X: x, Y: y, Left: true}, toolKeys{})
	g.cacheStep(frameInput{X: x, Y: y}, toolKeys{})
	return seen
}

// drag presses at (x0, y0), moves to (x1, y1) in steps and releases.
func drag(g *Game, x0, y0, x1, y1 int) {
	g.cacheStep(frameInput{X: x0, Y: y0}, toolKeys{})
	g.cacheStep(frameInput{X: x0, Y: y0, Left: true}, toolKeys{})
	for i := 1; i <= 4; i++ {
		g.cacheStep(frameInput{X: x0 + (x1-x0)*i/4, Y: y0 + (y1-y0)*i/4, Left: true}, toolKeys{})
	}
	g.cacheStep(frameInput{X: x1, Y: y1}, toolKeys{})
}

// TestCacheToolsOnTerrain builds the tile cache of terrain in the game
// (obstacle preset, background build), places a cylinder through the
// Obstacle tool's input path, steps Update, moves it by dragging, turns an
// oriented box with the wheel, draws a volume, and undoes everything with
// Ctrl+Z: after UpdateAll the mesh holds the original tiles again. It also
// saves and restores a snapshot and shows a bad one as an error with the
// cache untouched.
func TestCacheToolsOnTerrain(t *testing.T) {
	g := newTestGame(t, "terrain")
	drawFrames(t, g, 1)
	g.applyObstaclePreset()
	if s := g.App.Settings(); s.Partition != pipeline.Layers || s.DetailSampleDistCells != 0 {
		t.Fatalf("preset: partition %v, detail %v", s.Partition, s.DetailSampleDistCells)
	}
	g.startCacheBuild()
	waitCache(t, g)
	a := g.App
	a.Auto.SetOn(false)
	c := a.Cache
	orig := meshTiles(t, c.Mesh())
	snap0, err := c.Snapshot()
	if err != nil {
		t.Fatal(err)
	}

	// Look down at a walkable point.
	pts := a.DemoPoints(3)
	if len(pts) < 3 {
		t.Fatalf("found %d walkable points", len(pts))
	}
	p := pts[0]
	a.Camera.TopDown = true
	a.Camera.Target = p
	a.Camera.DistanceM = 40
	x, y := pixelOf(t, g, p)

	// Place a cylinder: the camera does not see the press.
	g.setTool(g.tools.obstacle)
	g.tools.obstacle.ShapeIdx = 0
	if seen := click(g, x, y); seen.Left {
		t.Error("the camera controller saw the tool's press")
	}
	obs := c.Obstacles()
	if len(obs) != 1 || obs[0].ID != 1 || a.Selection.Obstacle() != 1 || c.QueueLen() == 0 {
		t.Fatalf("after a click: obstacles %v, selected %d, queue %d (Err %q)", obs, a.Selection.Obstacle(), c.QueueLen(), a.Err())
	}
	if d := math.Hypot(float64(obs[0].Obstacle.CentreM.X-p.X), float64(obs[0].Obstacle.CentreM.Z-p.Z)); d > 0.1 {
		t.Errorf("the cylinder stands %.3f m from the clicked point", d)
	}
	// The size fields preview the selected obstacle at a new size (the
	// tool preview's ghost, grown footprint included) before Apply; at
	// its own size there is no ghost.
	if gh := g.tools.obstacle.ghost(a); gh != nil {
		t.Errorf("a ghost %+v of the selected obstacle at its own size", *gh)
	}
	g.tools.obstacle.RadiusM = 2.5
	gh := g.tools.obstacle.ghost(a)
	if gh == nil || gh.RadiusM != 2.5 || gh.CentreM != obs[0].Obstacle.CentreM || gh.HeightM != obs[0].Obstacle.HeightM {
		t.Errorf("ghost at radius 2.5: %+v, obstacle %+v", gh, obs[0].Obstacle)
	}
	if pv := a.PreviewOverlay(); len(pv.Lines) == 0 || len(c.Obstacles()) != 1 || c.Obstacles()[0].Obstacle.RadiusM != obs[0].Obstacle.RadiusM {
		t.Errorf("preview of %d line vertices; the cache's obstacle %+v changed", len(pv.Lines), c.Obstacles())
	}
	g.tools.obstacle.RadiusM = float64(obs[0].Obstacle.RadiusM)
	if gh := g.tools.obstacle.ghost(a); gh != nil {
		t.Errorf("a ghost %+v after the radius went back", *gh)
	}
	queued := c.QueueLen()
	if n, err := a.StepCache(1); err != nil || n != 1 || len(a.Swaps.Latest) != 1 || c.QueueLen() != queued-1 {
		t.Fatalf("step: %d tiles, err %v, latest %d, queue %d -> %d", n, err, len(a.Swaps.Latest), queued, c.QueueLen())
	}
	if err := a.UpdateAllCache(); err != nil || c.QueueLen() != 0 {
		t.Fatalf("update all: %v, queue %d", err, c.QueueLen())
	}
	carved := meshTiles(t, c.Mesh())
	if bytes.Equal(carved, orig) {
		t.Fatal("the obstacle did not change the mesh")
	}
	if len(a.Swaps.Tiles) == 0 {
		t.Error("no swaps logged")
	}

	// Drag it 80 px to the right: remove + add, a new id. While the
	// button is down a ghost follows the pointer.
	g.cacheStep(frameInput{X: x, Y: y}, toolKeys{})
	g.cacheStep(frameInput{X: x, Y: y, Left: true}, toolKeys{})
	g.cacheStep(frameInput{X: x + 40, Y: y, Left: true}, toolKeys{})
	saveForInspection(t, "cache-drag-ghost", drawOnly(g))
	if o := a.Scene().Overlay(render.OverlayToolPreview); o == nil || len(o.Tris) == 0 || !g.tools.obstacle.drag.moved {
		t.Error("no ghost while dragging")
	}
	g.cacheStep(frameInput{X: x + 40, Y: y}, toolKeys{Escape: true}) // cancelled: nothing moves
	if obs := c.Obstacles(); len(obs) != 1 || obs[0].ID != 1 {
		t.Fatalf("a cancelled drag changed the obstacles: %v", obs)
	}
	drag(g, x, y, x+80, y)
	obs = c.Obstacles()
	if len(obs) != 1 || obs[0].ID != 2 || a.Selection.Obstacle() != 2 {
		t.Fatalf("after the drag: %v, selected %d (Err %q)", obs, a.Selection.Obstacle(), a.Err())
	}
	if dx := obs[0].Obstacle.CentreM.X - p.X; dx < 2 {
		t.Errorf("the drag moved the cylinder by %.2f m in x", dx)
	}

	// The wheel over a cylinder zooms; over an oriented box it turns it.
	g.tools.obstacle.ShapeIdx = 2
	g.tools.obstacle.YawDeg = 0
	p2 := pts[1]
	x2, y2 := pixelOf(t, g, p2)
	click(g, x2, y2)
	if n := len(c.Obstacles()); n != 2 {
		t.Fatalf("%d obstacles after placing the box (Err %q)", n, a.Err())
	}
	cx, cy := pixelOf(t, g, c.Obstacles()[0].Obstacle.CentreM)
	if out := g.cacheStep(frameInput{X: cx, Y: cy, WheelY: 1}, toolKeys{}); out.WheelY != 1 {
		t.Error("the wheel over a cylinder did not reach the camera")
	}
	undoDepth := len(a.History.Done)
	for i := 0; i < 2; i++ {
		if out := g.cacheStep(frameInput{X: x2, Y: y2, WheelY: 1}, toolKeys{}); out.WheelY != 0 {
			t.Fatal("the wheel over an oriented box zoomed")
		}
	}
	box := c.Obstacles()[1].Obstacle
	if d := float64(box.YawRad) * 180 / math.Pi; math.Abs(d-30) > 1e-3 {
		t.Errorf("two wheel steps turned the box to %.3f°, want 30°", d)
	}
	if len(a.History.Done) != undoDepth+1 {
		t.Errorf("two wheel steps made %d commands, want 1", len(a.History.Done)-undoDepth)
	}
	// Over a panel the wheel is not the tool's.
	if out := g.cacheStep(frameInput{X: x2, Y: y2, WheelY: 1, Captured: debugui.InputCapturingStateHover}, toolKeys{}); out.WheelY != 1 {
		t.Error("the wheel over a panel turned the box")
	}

	// A volume: three corners, a rejected dent, Enter.
	g.setTool(g.tools.volume)
	q := pts[2]
	corner := func(dx, dz float32) (int, int) { return pixelOf(t, g, geom.V3(q.X+dx, q.Y, q.Z+dz)) }
	for _, d := range [][2]float32{{-3, -3}, {3, -3}, {3, 3}} {
		cx, cy := corner(d[0], d[1])
		click(g, cx, cy)
	}
	if n := len(g.tools.volume.Corners); n != 3 {
		t.Fatalf("%d corners after three clicks (Err %q)", n, a.Err())
	}
	a.SyncSpanOverlays()
	if o := a.Scene().Overlay(render.OverlayToolPreview); o == nil || len(o.Points) != 3 {
		t.Error("the corners are not previewed")
	}
	saveForInspection(t, "cache-volume-preview", drawOnly(g))
	dx, dy := corner(1, -1) // inside: a dent
	click(g, dx, dy)
	if len(g.tools.volume.Corners) != 3 || !strings.Contains(a.Err(), "not convex") {
		t.Errorf("a dent: %d corners, Err %q", len(g.tools.volume.Corners), a.Err())
	}
	g.cacheStep(frameInput{}, toolKeys{Enter: true})
	if n := len(c.Volumes()); n != 1 || len(g.tools.volume.Corners) != 0 {
		t.Fatalf("Enter: %d volumes, %d corners (Err %q)", n, len(g.tools.volume.Corners), a.Err())
	}
	if a.Err() != "" {
		t.Errorf("the rejected corner's error is still shown after a success: %q", a.Err())
	}
	if err := a.UpdateAllCache(); err != nil {
		t.Fatal(err)
	}

	// The overlays show all of it.
	img := drawFrames(t, g, 2)
	saveForInspection(t, "cache-tools-terrain", img)
	for _, n := range []string{render.OverlayCachePolys, render.OverlayObstacles, render.OverlayVolumesRT, render.OverlaySwaps} {
		o := a.Scene().Overlay(n)
		if o == nil || !o.Visible || len(o.Tris)+len(o.Lines) == 0 {
			t.Errorf("overlay %s missing, hidden or empty", n)
		}
	}
	t.Logf("scene rebuild %.1f ms, %d tris drawn", g.view.buildMs, g.view.drawnTris)

	// Snapshot: save, then a bad file is refused with the cache untouched.
	dir := t.TempDir()
	path, err := a.SaveSnapshot(filepath.Join(dir, "state"))
	if err != nil || filepath.Ext(path) != session.SnapshotExt {
		t.Fatalf("save: %q, %v", path, err)
	}
	snap1, _ := c.Snapshot()
	bad := filepath.Join(dir, "bad.nvtc")
	if err := os.WriteFile(bad, []byte("NVTC garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	hist := len(a.History.Done)
	if err := a.RestoreSnapshot(bad); err == nil || !strings.Contains(a.Err(), "unchanged") {
		t.Errorf("bad snapshot: err %v, Err %q", err, a.Err())
	}
	if now, _ := c.Snapshot(); !bytes.Equal(now, snap1) || len(a.History.Done) != hist {
		t.Error("a bad snapshot changed the cache or the history")
	}
	if err := a.RestoreSnapshot(filepath.Join(dir, "missing.nvtc")); err == nil {
		t.Error("a missing file restored")
	}
	drawFrames(t, g, 1) // the error is drawn, the game keeps running

	// Undo everything with Ctrl+Z: volume, box turn, box, move, cylinder.
	g.setTool(g.tools.obstacle)
	for i := 0; i < 5; i++ {
		g.cacheStep(frameInput{}, toolKeys{Undo: true})
	}
	if len(c.Obstacles()) != 0 || len(c.Volumes()) != 0 {
		t.Fatalf("after five undos: %v, %v (Err %q)", c.Obstacles(), c.Volumes(), a.Err())
	}
	if ok, _ := a.Undo(); ok {
		t.Error("a sixth undo did something")
	}
	if err := a.UpdateAllCache(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(meshTiles(t, c.Mesh()), orig) {
		t.Error("undoing everything and updating did not give back the original tiles")
	}
	// Ctrl+Y redoes the first command (the cylinder, under a new id).
	g.cacheStep(frameInput{}, toolKeys{Redo: true})
	if obs := c.Obstacles(); len(obs) != 1 || obs[0].ID <= 3 {
		t.Errorf("redo: %v", obs)
	}
	// Delete removes the selected obstacle.
	a.SelectObstacle(c.Obstacles()[0].ID)
	g.cacheStep(frameInput{}, toolKeys{Delete: true})
	if len(c.Obstacles()) != 0 {
		t.Error("Delete did not remove the selected obstacle")
	}

	// Restoring the saved snapshot brings back its state and clears the
	// history; restoring the first one gives the empty state.
	if err := a.RestoreSnapshot(path); err != nil {
		t.Fatal(err)
	}
	if now, _ := c.Snapshot(); !bytes.Equal(now, snap1) || a.History.CanUndo() {
		t.Error("the restored state differs from the saved one, or the history survived")
	}
	if err := a.RestoreSnapshotData(snap0, "first"); err != nil {
		t.Fatal(err)
	}
	if len(c.Obstacles()) != 0 || len(c.Volumes()) != 0 {
		t.Error("the first snapshot's state has shapes")
	}

	// Loading a level drops the cache.
	g.RequestLoad("terrain")
	drawFrames(t, g, 1)
	if a.Cache != nil || a.Editor == nil || a.History.CanUndo() {
		t.Errorf("after loading a level: cache %v", a.Cache != nil)
	}
	// Without a cache the tools say so and nothing breaks.
	g.setTool(g.tools.obstacle)
	click(g, testW/2, testH/2)
	if !strings.Contains(a.Err(), "cache") {
		t.Errorf("a click without a cache: Err %q", a.Err())
	}
}

// TestDemoScene runs the --demo-obstacles scenario on terrain.
func TestDemoScene(t *testing.T) {
	g, err := NewGame(Options{Level: "terrain", Width: testW, Height: testH, DemoObstacles: 5})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for g.cacheDemoPending() {
		if time.Now().After(deadline) {
			t.Fatal("the demo did not finish in 60 s")
		}
		drawFrames(t, g, 1)
	}
	img := drawFrames(t, g, 2)
	saveForInspection(t, "cache-demo-terrain", img)
	a := g.App
	if a.Cache == nil || len(a.Cache.Obstacles()) != 5 || len(a.Cache.Volumes()) != 1 || a.Err() != "" {
		t.Fatalf("demo: cache %v, Err %q", a.Cache != nil, a.Err())
	}
	if a.Auto.On() || a.Cache.QueueLen() < 2 || len(a.Swaps.Latest) != 1 {
		t.Errorf("demo: auto %v, queue %d, latest %d", a.Auto.On(), a.Cache.QueueLen(), len(a.Swaps.Latest))
	}
	if _, err := NewGame(Options{Level: "terrain", DemoObstacles: -1}); err == nil {
		t.Error("a negative demo count was accepted")
	}
}
