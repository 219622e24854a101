package session

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cespare/xxhash/v2"

	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
	"navviz/core/voxel"
	"navviz/tilecache"
	"navviz/world"
)

// cityApp returns an App (no worker) with the city loaded and a cache
// built with the obstacle preset (partition layers, detail sampling 0).
func cityApp(t testing.TB) *App {
	t.Helper()
	a := NewApp()
	if err := a.Load("city"); err != nil {
		t.Fatal(err)
	}
	s := a.Settings()
	s.Partition = pipeline.Layers
	s.DetailSampleDistCells = 0
	a.SetSettings(s)
	installCity(t, a)
	return a
}

// installCity builds the App's cache of its level and agent sizes and
// installs it (no carry).
func installCity(t testing.TB, a *App) {
	t.Helper()
	w, err := world.Build(context.Background(), a.Settings(), a.Soup(), a.CacheAgents(), tilecache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a.InstallWorld(w, "city", 0, false)
}

// meshHash returns the xxhash64 of the shown cache's mesh bytes.
func meshHash(t testing.TB, a *App) uint64 {
	t.Helper()
	data, err := a.Cache.Mesh().MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return xxhash.Sum64(data)
}

// randomSession drives a with random edits, updates, undos and redos
// until its history has n steps; it returns the live mesh's hash after
// every step, taken as the session went.
func randomSession(t testing.TB, a *App, n int, seed uint64) []uint64 {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	live := []uint64{meshHash(t, a)}
	pt := func() geom.Vec3 { return geom.V3(5+190*rng.Float32(), -0.5, 5+190*rng.Float32()) }
	obstacle := func() voxel.Obstacle {
		p := pt()
		if rng.IntN(3) == 0 {
			return voxel.Box(p, geom.V3(p.X+0.5+3*rng.Float32(), 2, p.Z+0.5+3*rng.Float32()))
		}
		return voxel.Cylinder(p, 0.4+2*rng.Float32(), 2)
	}
	for a.Timeline().Cursor < n-1 {
		v := a.CacheView()
		var err error
		switch r := rng.IntN(100); {
		case r < 25:
			err = a.AddObstacle(obstacle())
		case r < 32 && len(v.Obstacles) > 0:
			err = a.RemoveObstacle(v.Obstacles[rng.IntN(len(v.Obstacles))].ID)
		case r < 42 && len(v.Obstacles) > 0:
			err = a.ReplaceObstacle(v.Obstacles[rng.IntN(len(v.Obstacles))].ID, obstacle(), "move")
		case r < 47:
			p := pt()
			d := 1 + 4*rng.Float32()
			err = a.AddVolume(voxel.ConvexVolume{VertsXZ: [][2]float32{{p.X, p.Z}, {p.X + d, p.Z}, {p.X + d, p.Z + d}, {p.X, p.Z + d}},
				MinYM: -1, MaxYM: 3, Area: uint8(rng.IntN(2) * 5)})
		case r < 50 && len(v.Volumes) > 0:
			err = a.RemoveVolume(v.Volumes[rng.IntN(len(v.Volumes))].ID)
		case r < 53:
			p, q := pt(), pt()
			q.X, q.Z = p.X+3, p.Z
			err = a.AddOffMesh(navmesh.OffMeshLink{StartM: p.Add(geom.V3(0, 0.5, 0)), EndM: q.Add(geom.V3(0, 0.5, 0)), RadiusM: 0.6, Bidirectional: true})
		case r < 55 && len(v.Links) > 0:
			l := v.Links[rng.IntN(len(v.Links))]
			to := l
			to.EndM.Z += 1
			err = a.MoveOffMesh(tilecache.OffMeshLinkID(l.UserID), l, to)
		case r < 57 && len(v.Links) > 0:
			err = a.RemoveOffMesh(tilecache.OffMeshLinkID(v.Links[rng.IntN(len(v.Links))].UserID))
		case r < 62:
			_, err = a.Undo()
		case r < 64:
			_, err = a.Redo()
		case r < 66:
			err = a.UpdateAllCache()
		default:
			_, err = a.StepCache(1 + rng.IntN(3))
		}
		if err != nil {
			t.Fatalf("step %d: %v", a.Timeline().Cursor+1, err)
		}
		for len(live) < a.Timeline().Cursor+1 {
			live = append(live, meshHash(t, a))
		}
	}
	return live
}

// historySteps returns the test's history length: 500, 120 with -short.
func historySteps() int {
	if testing.Short() {
		return 120
	}
	return 500
}

// TestHistorySeek: a random session on city; every step's recorded mesh
// hash is the live mesh's, a replay of every step from the start on a
// World built afresh gives the same meshes, and jumping to every step
// (in random order) gives them too; back at the last step the undo stack
// is the head's again.
func TestHistorySeek(t *testing.T) {
	a := cityApp(t)
	n := historySteps()
	live := randomSession(t, a, n, 29)
	steps := a.Timeline().Steps
	if len(steps) != n {
		t.Fatalf("%d steps, want %d", len(steps), n)
	}
	kinds := map[StepKind]int{}
	for i := range steps {
		kinds[steps[i].Kind]++
		if got := steps[i].MeshHash[0]; got != live[i] {
			t.Fatalf("step %d (%s): recorded mesh hash %x, the live mesh had %x", i, steps[i].Kind, got, live[i])
		}
	}
	for _, k := range []StepKind{StepAddObstacle, StepRemoveObstacle, StepReplaceObstacle, StepAddVolume, StepAddLink, StepUpdate} {
		if kinds[k] == 0 {
			t.Errorf("the session has no %s step: %v", k, kinds)
		}
	}

	// Replay from the start on a World of its own.
	w, err := world.Build(context.Background(), a.Settings(), a.Soup(), a.CacheAgents(), tilecache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := w.Cache(DefaultAgentName)
	for i := 1; i < n; i++ {
		if err := replayStep(w, &steps[i]); err != nil {
			t.Fatalf("replay step %d: %v", i, err)
		}
		data, _ := c.Mesh().MarshalBinary()
		if h := xxhash.Sum64(data); h != live[i] {
			t.Fatalf("replayed from the start, step %d (%s) gives mesh %x, the live session %x", i, StepText(&steps[i]), h, live[i])
		}
	}

	undo := a.CacheView().UndoDepth
	order := rand.New(rand.NewPCG(7, 7)).Perm(n)
	var worst time.Duration
	for _, i := range order {
		t0 := time.Now()
		if err := a.SeekHistory(i); err != nil {
			t.Fatalf("seek %d: %v", i, err)
		}
		worst = max(worst, time.Since(t0))
		if h := meshHash(t, a); h != live[i] {
			t.Fatalf("seek %d (%s): mesh %x, the live session had %x", i, StepText(&steps[i]), h, live[i])
		}
		if a.Timeline().Cursor != i {
			t.Fatalf("seek %d: cursor %d", i, a.Timeline().Cursor)
		}
	}
	t.Logf("%d steps, %d keyframes; slowest seek %v", n, a.Timeline().Keyframes, worst)
	if err := a.HistoryEnd(); err != nil {
		t.Fatal(err)
	}
	if got := a.CacheView().UndoDepth; got != undo {
		t.Errorf("back at the last step the undo stack has %d commands, want the head's %d", got, undo)
	}
}

// TestHistoryBranch: an edit with the cursor in the past drops the later
// steps; RestoreDroppedBranch brings them back (the branch goes aside in
// their place) and a second call swaps again; auto update does not run
// in the past; the scenario recorder follows the branch.
func TestHistoryBranch(t *testing.T) {
	a := cityApp(t)
	live := randomSession(t, a, 40, 3)
	head := a.Timeline()
	at := 20
	if err := a.SeekHistory(at); err != nil {
		t.Fatal(err)
	}
	if !a.Timeline().InPast() || !strings.Contains(a.Status(), "drops the later steps") {
		t.Fatalf("in the past: %+v, status %q", a.Timeline().Cursor, a.Status())
	}
	if ok, _ := a.Undo(); ok {
		t.Error("undo in the past undid a command of the head")
	}
	a.Auto.SetOn(true)
	if a.CacheView().Pending == 0 {
		if err := a.AddObstacle(voxel.Cylinder(geom.V3(25, -0.5, 8), 1, 2)); err != nil {
			t.Fatal(err)
		}
	} else {
		a.AutoUpdate()
		if got := a.Timeline(); got.Cursor != at || len(got.Steps) != len(head.Steps) {
			t.Fatalf("auto update in the past changed the history: cursor %d, %d steps", got.Cursor, len(got.Steps))
		}
		if err := a.AddObstacle(voxel.Cylinder(geom.V3(25, -0.5, 8), 1, 2)); err != nil {
			t.Fatal(err)
		}
	}
	a.Auto.SetOn(false)
	br := a.Timeline()
	if len(br.Steps) != at+2 || br.Cursor != at+1 || br.Dropped != len(head.Steps)-at-1 {
		t.Fatalf("after the edit in the past: %d steps, cursor %d, %d dropped; want %d, %d, %d",
			len(br.Steps), br.Cursor, br.Dropped, at+2, at+1, len(head.Steps)-at-1)
	}
	if !slices.EqualFunc(br.Steps[:at+1], head.Steps[:at+1], func(x, y Step) bool { return x.Kind == y.Kind && slices.Equal(x.MeshHash, y.MeshHash) }) {
		t.Error("the branch changed the steps before it")
	}
	if ok, err := a.Undo(); !ok || err != nil {
		t.Errorf("the branch's edit cannot be undone: %v %v", ok, err)
	}
	branchHead := a.Timeline()
	recSteps := len(a.Rec.Steps)

	if err := a.RestoreDroppedBranch(); err != nil {
		t.Fatal(err)
	}
	back := a.Timeline()
	if len(back.Steps) != len(head.Steps) || back.Cursor != len(head.Steps)-1 || back.Dropped != len(branchHead.Steps)-at-1 {
		t.Fatalf("restored: %d steps, cursor %d, %d dropped", len(back.Steps), back.Cursor, back.Dropped)
	}
	if h := meshHash(t, a); h != live[len(live)-1] {
		t.Errorf("restored branch: mesh %x, the head had %x", h, live[len(live)-1])
	}
	if got := a.CacheView().UndoDepth; got != head.Steps[0].Era+len(a.History.Done) || !a.History.CanUndo() {
		t.Errorf("restored branch: undo depth %d", got)
	}
	if len(a.Rec.Steps) == recSteps {
		t.Error("the scenario recorder did not follow the restored branch")
	}
	if err := a.RestoreDroppedBranch(); err != nil {
		t.Fatal(err)
	}
	if got := a.Timeline(); len(got.Steps) != len(branchHead.Steps) || got.Steps[at+1].Kind != StepAddObstacle {
		t.Errorf("swapped back: %d steps, want %d", len(got.Steps), len(branchHead.Steps))
	}
	if err := a.SeekHistory(len(a.Timeline().Steps)); err == nil || !strings.Contains(a.Err(), "no step") {
		t.Errorf("seek past the end: %v, Err %q", err, a.Err())
	}
}

// TestHistoryEras: a new cache (other settings, agent sizes added with
// the edits carried) is a step of the same history; seeking back into
// the first cache builds its World again and gives its meshes; the
// scenario recorder starts at the cursor's cache.
func TestHistoryEras(t *testing.T) {
	a := cityApp(t)
	live := randomSession(t, a, 12, 5)
	first := a.Timeline()
	if err := a.AddAgentSize(AgentPresets[0].Agent); err != nil {
		t.Fatal(err)
	}
	w, err := world.Build(context.Background(), a.Settings(), a.Soup(), a.CacheAgents(), tilecache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a.InstallWorld(w, "city", 0, true)
	if _, err := a.StepCache(4); err != nil {
		t.Fatal(err)
	}
	h := a.Timeline()
	nc := h.Steps[len(first.Steps)]
	if nc.Kind != StepNewCache || !nc.NewCache.Carried || len(nc.NewCache.Agents) != 2 || len(h.Steps) != len(first.Steps)+2 {
		t.Fatalf("the new cache step: %+v (%d steps)", nc.Kind, len(h.Steps))
	}
	if len(h.Steps[len(h.Steps)-1].MeshHash) != 2 {
		t.Errorf("an update of two agents has %d mesh hashes", len(h.Steps[len(h.Steps)-1].MeshHash))
	}
	if !strings.Contains(a.Rec.Broken, "2 agent sizes") {
		t.Errorf("recorder of two agent sizes: %q", a.Rec.Broken)
	}
	for _, i := range []int{len(first.Steps) - 1, 3, len(h.Steps) - 1, 0} {
		if err := a.SeekHistory(i); err != nil {
			t.Fatalf("seek %d: %v", i, err)
		}
		if i < len(first.Steps) {
			if len(a.CacheView().Agents) != 1 || meshHash(t, a) != live[i] {
				t.Errorf("seek %d into the first cache: %d agents, mesh %x want %x", i, len(a.CacheView().Agents), meshHash(t, a), live[i])
			}
			if strings.Contains(a.Rec.Broken, "agent sizes") {
				t.Errorf("seek %d: the recorder of the first cache is broken: %q", i, a.Rec.Broken)
			}
		} else if got := a.Timeline().Steps[i].MeshHash; len(a.CacheView().Agents) != 2 || got[0] != meshHash(t, a) {
			t.Errorf("seek %d into the second cache: %d agents", i, len(a.CacheView().Agents))
		}
	}
}

// TestSpanRuns: span indices survive the run encoding.
func TestSpanRuns(t *testing.T) {
	for _, tc := range [][]int32{nil, {0}, {5}, {1, 2, 3, 7, 8, 100}, {0, 1, 2, 3, 4}, {1 << 30, 1<<30 + 1}} {
		if got := SpanRunsOf(tc).Spans(); !slices.Equal(got, tc) {
			t.Errorf("%v: decoded %v", tc, got)
		}
	}
	if n := len(SpanRunsOf([]int32{10, 11, 12, 13, 14, 15, 16, 17})); n != 2 {
		t.Errorf("a run of 8 spans takes %d bytes, want 2", n)
	}
}

// BenchmarkHistorySeek: the memory a 500-step random city session's
// history holds per step (keyframes and records) and the time of a jump
// to a random step (ns/op; max-ms the slowest).
//
//	go test ./ui/session/ -run '^$' -bench HistorySeek -benchtime 200x
func BenchmarkHistorySeek(b *testing.B) {
	a := cityApp(b)
	n := 500
	randomSession(b, a, n, 29)
	v := a.Timeline()
	rng := rand.New(rand.NewPCG(1, 2))
	var worst time.Duration
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		if err := a.SeekHistory(rng.IntN(n)); err != nil {
			b.Fatal(err)
		}
		worst = max(worst, time.Since(t0))
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "max-ms")
	// After the loop: ResetTimer drops the metrics reported before it.
	b.ReportMetric(float64(v.KeyframeBytes)/float64(n), "keyframe-B/step")
	b.ReportMetric(float64(v.StepBytes)/float64(n), "record-B/step")
	b.ReportMetric(float64(v.Keyframes), "keyframes")
}

// TestRecorderCarriedEdits: a rebuild that carries the edits over (an
// agent size removed, back to one) records them: the scenario starts with
// the carried obstacle under its new name (the recorder used to start
// empty, losing it).
func TestRecorderCarriedEdits(t *testing.T) {
	a := cityApp(t)
	if err := a.AddObstacle(voxel.Cylinder(geom.V3(25, -0.5, 8), 1, 2)); err != nil {
		t.Fatal(err)
	}
	rebuild := func() {
		w, err := world.Build(context.Background(), a.Settings(), a.Soup(), a.CacheAgents(), tilecache.Options{})
		if err != nil {
			t.Fatal(err)
		}
		a.InstallWorld(w, "city", 0, true)
	}
	if err := a.AddAgentSize(AgentPresets[0].Agent); err != nil {
		t.Fatal(err)
	}
	rebuild()
	if err := a.RemoveAgentSize(AgentPresets[0].Agent.Name); err != nil {
		t.Fatal(err)
	}
	rebuild()
	var got []string
	for i := range a.Rec.Steps {
		got = append(got, stepText(&a.Rec.Steps[i]))
	}
	if a.Rec.Broken != "" || strings.Join(got, "; ") != "obstacle obstacle-1" {
		t.Errorf("recorder after a carried rebuild: steps %q, broken %q", got, a.Rec.Broken)
	}
	if n := len(a.Timeline().Steps); n != 4 {
		t.Errorf("%d history steps, want 4 (cache, obstacle, two new caches)", n)
	}
}
