package ui

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cespare/xxhash/v2"

	"navviz/core/geom"
	"navviz/core/pipeline"
	"navviz/core/voxel"
	"navviz/scenario"
	"navviz/tilecache"
)

// stepText words a recorded step for the table below.
func stepText(st *scenario.Step) string {
	switch {
	case st.Obstacle != nil:
		return "obstacle " + st.Obstacle.Name
	case st.RemoveObstacle != "":
		return "remove_obstacle " + st.RemoveObstacle
	case st.Volume != nil:
		return "volume " + st.Volume.Name
	case st.RemoveVolume != "":
		return "remove_volume " + st.RemoveVolume
	case st.Update != nil:
		return fmt.Sprintf("update %d", st.Update.Tiles)
	case st.Snapshot != nil:
		return "snapshot " + snapshotRefText(st.Snapshot)
	case st.Restore != nil:
		return "restore " + snapshotRefText(st.Restore)
	}
	return st.Kind()
}

// TestSessionRecorder: what the recorder writes for sequences of cache
// events: names by id, merged updates, snapshots as slots named after
// the file, a restore of a session snapshot by slot (its names come
// back), a foreign snapshot by file (its shapes have no names: removing
// one makes the session unsavable), nothing before start.
func TestSessionRecorder(t *testing.T) {
	cyl := voxel.Cylinder(geom.V3(1, 2, 3), 0.5, 2)
	vol := voxel.ConvexVolume{VertsXZ: [][2]float32{{0, 0}, {2, 0}, {0, 2}}, MinYM: 0, MaxYM: 3, Area: 5}
	snapA, snapB := []byte("state A"), []byte("state B")
	for _, tc := range []struct {
		name   string
		events func(r *SessionRecorder)
		want   []string
		Broken string
	}{
		{"off until started", func(r *SessionRecorder) {
			r.ObstacleAdded(1, cyl)
			r.Updated(3)
		}, nil, ""},
		{"edits and merged updates", func(r *SessionRecorder) {
			r.Start("terrain", pipeline.DefaultSettings())
			r.ObstacleAdded(1, cyl)
			r.Updated(1)
			r.Updated(2)
			r.VolumeAdded(1, vol)
			r.ObstacleRemoved(1)
			r.ObstacleAdded(2, cyl)
			r.Updated(4)
			r.VolumeRemoved(1)
		}, []string{"obstacle obstacle-1", "update 3", "volume volume-1", "remove_obstacle obstacle-1", "obstacle obstacle-2", "update 4", "remove_volume volume-1"}, ""},
		{"restore of a session snapshot", func(r *SessionRecorder) {
			r.Start("terrain", pipeline.DefaultSettings())
			r.ObstacleAdded(1, cyl)
			r.SnapshotTaken("/tmp/x/my state.nvtc", snapA)
			r.ObstacleRemoved(1)
			r.SnapshotTaken("/tmp/y/my state.nvtc", snapB)
			r.Restored("/tmp/x/my state.nvtc", snapA)
			r.ObstacleRemoved(1) // named again by the restore
			r.Restored("/elsewhere/copy.nvtc", snapB)
		}, []string{"obstacle obstacle-1", "snapshot slot my_state.nvtc", "remove_obstacle obstacle-1", "snapshot slot my_state.nvtc-2",
			"restore slot my_state.nvtc", "remove_obstacle obstacle-1", "restore slot my_state.nvtc-2"}, ""},
		{"foreign snapshot", func(r *SessionRecorder) {
			r.Start("terrain", pipeline.DefaultSettings())
			r.Restored("/data/old.nvtc", []byte("foreign"))
			r.ObstacleRemoved(7)
		}, []string{"restore file /data/old.nvtc"}, "obstacle #7"},
		{"restart forgets", func(r *SessionRecorder) {
			r.Start("terrain", pipeline.DefaultSettings())
			r.ObstacleAdded(1, cyl)
			r.Start("city", pipeline.DefaultSettings())
			r.VolumeAdded(3, vol)
		}, []string{"volume volume-3"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r SessionRecorder
			tc.events(&r)
			var got []string
			for i := range r.Steps {
				got = append(got, stepText(&r.Steps[i]))
			}
			if strings.Join(got, "; ") != strings.Join(tc.want, "; ") {
				t.Errorf("steps:\n got %q\nwant %q", got, tc.want)
			}
			if (tc.Broken == "") != (r.Broken == "") || !strings.Contains(r.Broken, tc.Broken) {
				t.Errorf("broken %q, want %q", r.Broken, tc.Broken)
			}
		})
	}
}

// meshHash is the content hash report.json gives a mesh: xxhash64 of
// its MarshalBinary, 16 hex digits.
func meshHash(t *testing.T, c *tilecache.Cache) string {
	t.Helper()
	data, err := c.Mesh().MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%016x", xxhash.Sum64(data))
}

// TestSaveSessionReproducesMesh drives a GUI session on terrain through
// the tools' input paths (a cylinder placed and dragged, an oriented box
// turned with the wheel, a volume drawn, an undo and a redo, partial
// updates, a snapshot, more edits, a restore, a last obstacle and a
// partial update), saves it as a scenario, and checks that the scenario
// runner reproduces the GUI's cache exactly: the same mesh content hash
// as report.json gives it and the same snapshot bytes (obstacles,
// volumes, queue). Then navviz plays the saved file (--run --out) and
// writes the same report and shot as the runner.
func TestSaveSessionReproducesMesh(t *testing.T) {
	g := terrainCacheGame(t)
	a := g.App
	c := a.Cache
	pts := a.DemoPoints(4)
	if len(pts) < 4 {
		t.Fatalf("found %d walkable points", len(pts))
	}
	a.Camera.TopDown = true
	a.Camera.Target = pts[0]
	a.Camera.DistanceM = 40
	x, y := pixelOf(t, g, pts[0])

	g.setTool(g.tools.obstacle)
	g.tools.obstacle.ShapeIdx = 0
	click(g, x, y) // cylinder #1
	if _, err := a.StepCache(1); err != nil {
		t.Fatal(err)
	}
	drag(g, x, y, x+60, y) // moved: #2
	g.tools.obstacle.ShapeIdx = 2
	x2, y2 := pixelOf(t, g, pts[1])
	click(g, x2, y2) // oriented box #3
	for i := 0; i < 3; i++ {
		g.cacheStep(frameInput{X: x2, Y: y2, WheelY: 1}, toolKeys{}) // turned: #4
	}
	if _, err := a.StepCache(2); err != nil {
		t.Fatal(err)
	}
	g.setTool(g.tools.volume)
	q := pts[2]
	for _, d := range [][2]float32{{-3, -3}, {3, -3}, {3, 3}} {
		cx, cy := pixelOf(t, g, geom.V3(q.X+d[0], q.Y, q.Z+d[1]))
		click(g, cx, cy)
	}
	g.cacheStep(frameInput{}, toolKeys{Enter: true})
	if len(c.Volumes()) != 1 || len(c.Obstacles()) != 2 {
		t.Fatalf("%d obstacles, %d volumes (Err %q)", len(c.Obstacles()), len(c.Volumes()), a.Err)
	}
	g.cacheStep(frameInput{}, toolKeys{Undo: true}) // the volume
	g.cacheStep(frameInput{}, toolKeys{Redo: true}) // back, a new id
	if err := a.UpdateAllCache(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	snap, err := a.SaveSnapshot(filepath.Join(dir, "mid"))
	if err != nil {
		t.Fatal(err)
	}
	a.SelectObstacle(c.Obstacles()[0].ID)
	g.cacheStep(frameInput{}, toolKeys{Delete: true})
	if err := a.UpdateAllCache(); err != nil {
		t.Fatal(err)
	}
	if err := a.RestoreSnapshot(snap); err != nil {
		t.Fatal(err)
	}
	// After the restore: remove a restored obstacle, add one, update part
	// of the queue.
	if err := a.RemoveObstacle(c.Obstacles()[1].ID); err != nil {
		t.Fatal(err)
	}
	g.setTool(g.tools.obstacle)
	g.tools.obstacle.ShapeIdx = 1
	x3, y3 := pixelOf(t, g, pts[3])
	click(g, x3, y3)
	if _, err := a.StepCache(1); err != nil {
		t.Fatal(err)
	}
	if c.QueueLen() == 0 {
		t.Fatal("the test wants tiles left in the queue")
	}
	if err := a.SelectTile(2, 2); err != nil {
		t.Fatal(err)
	}
	drawFrames(t, g, 1)
	guiHash := meshHash(t, c)
	guiSnap, err := c.Snapshot()
	if err != nil {
		t.Fatal(err)
	}

	file, err := a.SaveSession(filepath.Join(dir, "session"), 320, 200)
	if err != nil {
		t.Fatalf("save session: %v", err)
	}
	if !strings.HasSuffix(file, scenario.FileExt) || !strings.Contains(a.Status, "session saved") {
		t.Errorf("saved %q, status %q", file, a.Status)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("scenario:\n%s", data)
	sc, err := scenario.Parse(data, file)
	if err != nil {
		t.Fatal(err)
	}
	r, err := scenario.NewRunner(sc, file)
	if err != nil {
		t.Fatal(err)
	}
	var shot *scenario.Shot
	for !r.Done() {
		_, s, err := r.Step()
		if err != nil {
			t.Fatal(err)
		}
		if s != nil {
			shot = s
		}
	}
	if r.Report.FinalMeshHash != guiHash {
		t.Errorf("runner mesh hash %s, GUI %s", r.Report.FinalMeshHash, guiHash)
	}
	runSnap, err := r.Cache.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(runSnap, guiSnap) {
		t.Error("the runner's cache snapshot differs from the GUI's")
	}
	if !r.HasSelected || r.Selected != [2]int{2, 2} || shot == nil || shot.Name != "session" {
		t.Errorf("view: selected %v %v, shot %v", r.HasSelected, r.Selected, shot != nil)
	}

	// navviz plays the saved file: the same final hash, report and shot.
	out := filepath.Join(dir, "out")
	g2, err := NewGame(Options{Scenario: file, RunScenario: true, OutDir: out, HideUI: true, Width: 320, Height: 200})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for g2.scenarioPending() && time.Now().Before(deadline) {
		drawFrames(t, g2, 1)
	}
	if g2.scen.err != "" || !g2.scen.r.Done() {
		t.Fatalf("playing the session: err %q, done %v", g2.scen.err, g2.scen.r.Done())
	}
	if got := g2.scen.r.Report.FinalMeshHash; got != guiHash {
		t.Errorf("navviz --scenario: mesh hash %s, GUI %s", got, guiHash)
	}
	want, err := scenario.EncodePNG(shot.Image)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(out, "session.png")); err != nil || !bytes.Equal(got, want) {
		t.Errorf("session.png: %v, or its bytes differ from the runner's shot", err)
	}
	if rep, err := os.ReadFile(filepath.Join(out, scenario.ReportFile)); err != nil || !bytes.Contains(rep, []byte(guiHash)) {
		t.Errorf("report.json: %v, or it lacks the hash %s", err, guiHash)
	}
}

// TestSaveSessionRefused: a session that cannot be reproduced is refused
// with a reason and writes nothing: no level, build-time volumes.
func TestSaveSessionRefused(t *testing.T) {
	dir := t.TempDir()
	a := NewApp()
	if _, err := a.SaveSession(filepath.Join(dir, "a"), 320, 200); err == nil || !strings.Contains(err.Error(), "no level") {
		t.Errorf("no level: %v", err)
	}
	if err := a.Load("terrain"); err != nil {
		t.Fatal(err)
	}
	a.SetVolumes([]voxel.ConvexVolume{{VertsXZ: [][2]float32{{0, 0}, {4, 0}, {0, 4}}, MinYM: -1, MaxYM: 9, Area: 3}})
	if _, err := a.SaveSession(filepath.Join(dir, "b"), 320, 200); err == nil || !strings.Contains(a.Err, "build-time volumes") {
		t.Errorf("build-time volume: %v (Err %q)", err, a.Err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("refused saves wrote %d files", len(ents))
	}
	// Without a cache the view alone is saved, with "cache": false.
	a.SetVolumes(nil)
	file, err := a.SaveSession(filepath.Join(dir, "view"), 320, 200)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	if sc.CacheBuilt() || sc.Level.Builtin != "terrain" || sc.Steps[len(sc.Steps)-1].Shot == nil {
		t.Errorf("view-only scenario: cache %v, level %+v", sc.CacheBuilt(), sc.Level)
	}
}
