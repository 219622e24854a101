package world

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/level/leveltest"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
	"navviz/core/voxel"
	"navviz/tilecache"
)

// testAgents are a small and a large agent: the large one is wider, taller
// and climbs less, so the two meshes differ.
var testAgents = []Agent{
	{Name: "small", HeightM: 1.6, RadiusM: 0.3, MaxClimbM: 0.9, MaxSlopeDeg: 45},
	{Name: "large", HeightM: 2.4, RadiusM: 1.2, MaxClimbM: 0.5, MaxSlopeDeg: 35},
}

// fixture is the two-agent World of dungeon, built once; a test that
// edits it restores initial first (reset).
var fixture struct {
	once    sync.Once
	w       *World
	soup    *level.Soup
	initial []byte
	err     error
}

func getWorld(t *testing.T) (*World, *level.Soup) {
	t.Helper()
	soup := leveltest.Soup(t, "dungeon")
	fixture.once.Do(func() {
		fixture.soup = soup
		fixture.w, fixture.err = Build(context.Background(), pipeline.DefaultSettings(), soup, testAgents, tilecache.Options{})
		if fixture.err == nil {
			fixture.initial, fixture.err = fixture.w.Snapshot()
		}
	})
	if fixture.err != nil {
		t.Fatal(fixture.err)
	}
	if err := fixture.w.Restore(fixture.initial); err != nil {
		t.Fatal(err)
	}
	if _, err := fixture.w.UpdateAll(); err != nil {
		t.Fatal(err)
	}
	return fixture.w, fixture.soup
}

// tileBytes returns the data of every tile of m, by position and layer.
func tileBytes(t *testing.T, m *navmesh.Mesh) map[[3]int32][]byte {
	t.Helper()
	out := map[[3]int32][]byte{}
	for _, ref := range m.Tiles() {
		tl, err := m.Tile(ref)
		if err != nil {
			t.Fatal(err)
		}
		d, err := m.TileData(ref)
		if err != nil {
			t.Fatal(err)
		}
		out[[3]int32{tl.Header.TileX, tl.Header.TileZ, int32(tl.Header.Layer)}] = d
	}
	return out
}

// sameTiles reports the first difference of two tile sets as an error.
func sameTiles(got, want map[[3]int32][]byte) error {
	for k, w := range want {
		g, ok := got[k]
		if !ok {
			return fmt.Errorf("tile %v missing", k)
		}
		if !bytes.Equal(g, w) {
			return fmt.Errorf("tile %v differs (%d vs %d bytes)", k, len(g), len(w))
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			return fmt.Errorf("extra tile %v", k)
		}
	}
	return nil
}

// plainTiles is a fresh plain build of soup for agent a with obs baked.
func plainTiles(t *testing.T, soup *level.Soup, a Agent, obs ...voxel.Obstacle) map[[3]int32][]byte {
	t.Helper()
	s := a.Settings(pipeline.DefaultSettings())
	s.Obstacles = obs
	ch, err := level.NewChunky(soup, 256)
	if err != nil {
		t.Fatal(err)
	}
	src, err := pipeline.NewSoupSource(soup, ch)
	if err != nil {
		t.Fatal(err)
	}
	b, err := pipeline.BuildLevel(context.Background(), &s, src, pipeline.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tileBytes(t, b.Mesh)
}

// groundPoint returns the centroid of the polygon at index i (mod the
// count) of the large agent's mesh: ground both agents walk on.
func groundPoint(t *testing.T, w *World, i int) geom.Vec3 {
	t.Helper()
	m, err := w.Mesh(testAgents[1].Name) // the large agent walks on less
	if err != nil {
		t.Fatal(err)
	}
	var pts []geom.Vec3
	for _, ref := range m.Tiles() {
		tl, err := m.Tile(ref)
		if err != nil {
			t.Fatal(err)
		}
		for k := range tl.Polys {
			p := &tl.Polys[k]
			var c geom.Vec3
			for v := 0; v < int(p.VertCount); v++ {
				c = c.Add(tl.Verts[p.Verts[v]])
			}
			pts = append(pts, c.Scale(1/float32(p.VertCount)))
		}
	}
	return pts[i%len(pts)]
}

// TestObstacleRebuildsEveryAgent: one obstacle added to a two-agent world
// queues and rebuilds both meshes, each equal to a fresh plain build of
// that agent with the obstacle baked; removing it gives the first build
// back.
func TestObstacleRebuildsEveryAgent(t *testing.T) {
	w, soup := getWorld(t)
	before := map[string]map[[3]int32][]byte{}
	for _, a := range testAgents {
		m, _ := w.Mesh(a.Name)
		before[a.Name] = tileBytes(t, m)
	}
	if err := sameTiles(before["small"], before["large"]); err == nil {
		t.Fatal("the two agents' meshes are equal: the test would not tell them apart")
	}
	p := groundPoint(t, w, 7)
	o := voxel.Cylinder(p.Sub(geom.V3(0, 0.5, 0)), 1.5, 3)
	id, err := w.AddObstacle(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range testAgents {
		c, _ := w.Cache(a.Name)
		if c.QueueLen() == 0 {
			t.Errorf("agent %s: nothing queued after AddObstacle", a.Name)
		}
	}
	res, err := w.UpdateAll()
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range testAgents {
		if len(res.Agents[i].Tiles) == 0 {
			t.Errorf("agent %s: UpdateAll rebuilt no tile", a.Name)
		}
		m, _ := w.Mesh(a.Name)
		got := tileBytes(t, m)
		if sameTiles(got, before[a.Name]) == nil {
			t.Errorf("agent %s: the mesh did not change", a.Name)
		}
		if err := sameTiles(got, plainTiles(t, soup, a, o)); err != nil {
			t.Errorf("agent %s: cache != plain build with the obstacle baked: %v", a.Name, err)
		}
	}
	if err := w.RemoveObstacle(id); err != nil {
		t.Fatal(err)
	}
	if _, err := w.UpdateAll(); err != nil {
		t.Fatal(err)
	}
	for _, a := range testAgents {
		m, _ := w.Mesh(a.Name)
		if err := sameTiles(tileBytes(t, m), before[a.Name]); err != nil {
			t.Errorf("agent %s after removal: %v", a.Name, err)
		}
	}
}

// TestUpdateBudget: Update(n) rebuilds n tiles in all, the first agent's
// queue first.
func TestUpdateBudget(t *testing.T) {
	w, _ := getWorld(t)
	if _, err := w.AddObstacle(voxel.Cylinder(groundPoint(t, w, 3), 2, 3)); err != nil {
		t.Fatal(err)
	}
	c0, _ := w.Cache("small")
	c1, _ := w.Cache("large")
	q0, q1 := c0.QueueLen(), c1.QueueLen()
	if q0 < 1 || q1 < 1 {
		t.Fatalf("queues %d and %d, want both non-empty", q0, q1)
	}
	res, err := w.Update(q0 + 1)
	if err != nil {
		t.Fatal(err)
	}
	if c0.QueueLen() != 0 || c1.QueueLen() != q1-1 || res.Remaining() != q1-1 || w.QueueLen() != q1-1 {
		t.Errorf("after Update(%d): queues %d, %d (remaining %d), want 0, %d", q0+1, c0.QueueLen(), c1.QueueLen(), res.Remaining(), q1-1)
	}
	if _, err := w.Update(0); err != nil || w.QueueLen() != q1-1 {
		t.Errorf("Update(0) = %v, queue %d; want nothing done", err, w.QueueLen())
	}
}

// TestSnapshotRoundTrip: Restore of a Snapshot gives every agent's state
// back, obstacles, volumes, ids and meshes.
func TestSnapshotRoundTrip(t *testing.T) {
	w, _ := getWorld(t)
	if _, err := w.AddObstacle(voxel.Cylinder(groundPoint(t, w, 11), 1, 2)); err != nil {
		t.Fatal(err)
	}
	vol := voxel.ConvexVolume{VertsXZ: [][2]float32{{0, 0}, {6, 0}, {6, 6}, {0, 6}}, MinYM: -10, MaxYM: 10, Area: 5}
	if _, err := w.AddVolume(vol); err != nil {
		t.Fatal(err)
	}
	if _, err := w.UpdateAll(); err != nil {
		t.Fatal(err)
	}
	snap, err := w.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	meshes := map[string][]byte{}
	for _, a := range testAgents {
		m, _ := w.Mesh(a.Name)
		meshes[a.Name], _ = m.MarshalBinary()
	}
	id, err := w.AddObstacle(voxel.Box(geom.V3(-100, -100, -100), geom.V3(100, 100, 100)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.UpdateAll(); err != nil {
		t.Fatal(err)
	}
	if err := w.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if _, err := w.UpdateAll(); err != nil {
		t.Fatal(err)
	}
	if len(w.Obstacles()) != 1 || len(w.Volumes()) != 1 {
		t.Errorf("restored %d obstacles and %d volumes, want 1 and 1", len(w.Obstacles()), len(w.Volumes()))
	}
	if err := w.RemoveObstacle(id); err == nil {
		t.Errorf("RemoveObstacle(%d) of an obstacle added after the snapshot succeeded", id)
	}
	for _, a := range testAgents {
		m, _ := w.Mesh(a.Name)
		got, _ := m.MarshalBinary()
		if !bytes.Equal(got, meshes[a.Name]) {
			t.Errorf("agent %s: the restored mesh differs from the one at the snapshot", a.Name)
		}
	}
	again, err := w.Snapshot()
	if err != nil || !bytes.Equal(again, snap) {
		t.Errorf("Snapshot after Restore differs from the restored one (err %v)", err)
	}
}

// TestBuildErrors: bad agent lists and settings are refused before any
// build, naming the agent.
func TestBuildErrors(t *testing.T) {
	soup := level.Terrain(1)
	many := make([]Agent, MaxAgents+1)
	for i := range many {
		many[i] = Agent{Name: fmt.Sprint("a", i), HeightM: 2, RadiusM: 0.5, MaxClimbM: 0.5, MaxSlopeDeg: 45}
	}
	good := testAgents[0]
	neg := good
	neg.Name, neg.RadiusM = "neg", -1
	cases := []struct {
		name, want string
		agents     []Agent
	}{
		{"none", "0 agent configurations", nil},
		{"too many", "17 agent configurations", many},
		{"no name", `name ""`, []Agent{{HeightM: 2}}},
		{"same name", `both named "small"`, []Agent{good, good}},
		{"bad radius", `agent "neg"`, []Agent{good, neg}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w, err := Build(context.Background(), pipeline.DefaultSettings(), soup, tc.agents, tilecache.Options{})
			if err == nil || w != nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Build = %v, %v; want nil and an error containing %q", w, err, tc.want)
			}
		})
	}
}

// FuzzRestore: Restore of any bytes never panics, and a failed one
// changes nothing.
func FuzzRestore(f *testing.F) {
	soup := level.Terrain(2)
	s := pipeline.DefaultSettings()
	s.TileSizeCells = 128
	w, err := Build(context.Background(), s, soup, testAgents, tilecache.Options{Workers: 1})
	if err != nil {
		f.Fatal(err)
	}
	snap, err := w.Snapshot()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(snap)
	f.Add(snap[:20])
	f.Add([]byte(SnapshotMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := w.Restore(data); err == nil {
			return
		}
		after, err := w.Snapshot()
		if err != nil || !bytes.Equal(after, snap) {
			t.Fatalf("a failed Restore changed the World (err %v)", err)
		}
	})
}

// TestOffMeshLinksEveryAgent: a link added to the World is in every
// agent's cache and mesh after the update, moves and goes with it; an
// unknown id is an error.
func TestOffMeshLinksEveryAgent(t *testing.T) {
	w, _ := getWorld(t)
	a, b := groundPoint(t, w, 2), groundPoint(t, w, 40)
	l := navmesh.OffMeshLink{StartM: a, EndM: b, RadiusM: 0.5, Bidirectional: true, Area: 63, Flags: 1}
	id, err := w.AddOffMeshLink(l)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.UpdateAll(); err != nil {
		t.Fatal(err)
	}
	for _, ag := range testAgents {
		c, _ := w.Cache(ag.Name)
		if got := c.OffMeshLinks(); len(got) != 1 || tilecache.OffMeshLinkID(got[0].UserID) != id {
			t.Errorf("agent %s: links %v, want the one with id %d", ag.Name, got, id)
		}
		if c.Mesh().OffMeshCount() == 0 {
			t.Errorf("agent %s: the mesh holds no off-mesh link after the update", ag.Name)
		}
	}
	moved := l
	moved.EndM = groundPoint(t, w, 41)
	if err := w.MoveOffMeshLink(id, moved); err != nil {
		t.Fatal(err)
	}
	if got := w.OffMeshLinks(); len(got) != 1 || got[0].EndM != moved.EndM {
		t.Errorf("after the move: %v", got)
	}
	if err := w.MoveOffMeshLink(id+1, moved); err == nil || !strings.Contains(err.Error(), fmt.Sprint(id+1)) {
		t.Errorf("moving an unknown link: %v", err)
	}
	if err := w.RemoveOffMeshLink(id); err != nil {
		t.Fatal(err)
	}
	if err := w.RemoveOffMeshLink(id); err == nil {
		t.Error("removing it twice: no error")
	}
	for _, ag := range testAgents {
		c, _ := w.Cache(ag.Name)
		if len(c.OffMeshLinks()) != 0 {
			t.Errorf("agent %s keeps a removed link", ag.Name)
		}
	}
}

// TestOneAgentSnapshot: a World of one agent size writes and restores its
// tile cache's own snapshot.
func TestOneAgentSnapshot(t *testing.T) {
	w, err := Build(context.Background(), pipeline.DefaultSettings(), level.Terrain(3), testAgents[:1], tilecache.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := w.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	c, _ := w.Cache(testAgents[0].Name)
	own, err := c.Snapshot()
	if err != nil || !bytes.Equal(snap, own) {
		t.Fatalf("one agent's World snapshot differs from its cache's (err %v)", err)
	}
	if _, err := w.AddObstacle(voxel.Cylinder(geom.V3(75, -5, 75), 3, 20)); err != nil {
		t.Fatal(err)
	}
	if err := w.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if len(w.Obstacles()) != 0 {
		t.Errorf("restored %d obstacles, want 0", len(w.Obstacles()))
	}
}
