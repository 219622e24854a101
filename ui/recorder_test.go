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
	"navviz/scenario"
	"navviz/tilecache"
)

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
		t.Fatalf("%d obstacles, %d volumes (Err %q)", len(c.Obstacles()), len(c.Volumes()), a.Err())
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
	if !strings.HasSuffix(file, scenario.FileExt) || !strings.Contains(a.Status(), "session saved") {
		t.Errorf("saved %q, status %q", file, a.Status())
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
	if page, err := os.ReadFile(filepath.Join(out, scenario.IndexFile)); err != nil || !bytes.Contains(page, []byte(`src="session.png"`)) {
		t.Errorf("index.html: %v, or it does not show session.png", err)
	}
}
