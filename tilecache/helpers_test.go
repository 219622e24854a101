package tilecache

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/level/leveltest"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
	"navviz/core/voxel"
)

var soups sync.Map // name -> *level.Soup

// loadLevel returns a built-in level ("city", "terrain") or a shared test
// level ("dungeon" is ../shared/levels/dungeon.obj beside the repository),
// loaded once (leveltest.Soup); the test is skipped when the shared level
// is absent.
func loadLevel(t testing.TB, name string) *level.Soup {
	t.Helper()
	if s, ok := soups.Load(name); ok {
		return s.(*level.Soup)
	}
	soup := leveltest.Soup(t, name)
	soups.Store(name, soup)
	return soup
}

// config names a level and settings for the tests.
type config struct {
	level string
	// partition and layerFirst: with layerFirst the detail stage samples
	// no heights (DetailSampleDistCells 0), the cheap layer-first setting.
	partition  pipeline.PartitionType
	layerFirst bool
}

func (k config) String() string {
	s := fmt.Sprintf("%s/%v", k.level, k.partition)
	if k.layerFirst {
		s += "-first"
	}
	return s
}

func (k config) settings() pipeline.NavSettings {
	s := pipeline.DefaultSettings()
	s.Partition = k.partition
	if k.layerFirst {
		s.DetailSampleDistCells = 0
	}
	return s
}

// source returns a chunky source of the config's level.
func (k config) source(t testing.TB) *pipeline.Source {
	t.Helper()
	soup := loadLevel(t, k.level)
	ch, err := level.NewChunky(soup, 256)
	if err != nil {
		t.Fatal(err)
	}
	src, err := pipeline.NewSoupSource(soup, ch)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// fixture is a cache built once per config and shared by the tests, with
// the snapshot of its initial state; a test that changes it restores that
// snapshot first (reset).
type fixture struct {
	cfg     config
	cache   *Cache
	initial []byte // Snapshot() right after the build
	plain   []byte // the plain build's Mesh.MarshalBinary
	src     *pipeline.Source
}

var (
	fixturesMu sync.Mutex
	fixtures   = map[config]*fixture{}
)

func getFixture(t testing.TB, k config) *fixture {
	t.Helper()
	fixturesMu.Lock()
	defer fixturesMu.Unlock()
	if f, ok := fixtures[k]; ok {
		return f
	}
	src := k.source(t)
	s := k.settings()
	c, err := Build(context.Background(), &s, src, Options{})
	if err != nil {
		t.Fatalf("%v: %v", k, err)
	}
	snap, err := c.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	b, err := pipeline.BuildLevel(context.Background(), &s, src, pipeline.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := b.Mesh.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{cfg: k, cache: c, initial: snap, plain: plain, src: src}
	fixtures[k] = f
	return f
}

// reset restores the fixture's cache to its initial state and returns it.
func (f *fixture) reset(t testing.TB) *Cache {
	t.Helper()
	if err := f.cache.Restore(f.initial); err != nil {
		t.Fatal(err)
	}
	return f.cache
}

// meshBytes returns m.MarshalBinary().
func meshBytes(t testing.TB, m *navmesh.Mesh) []byte {
	t.Helper()
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// snapBytes returns c.Snapshot().
func snapBytes(t testing.TB, c *Cache) []byte {
	t.Helper()
	b, err := c.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// posTile is a navmesh tile by position: (x, z, layer) and its data.
type posTile struct {
	x, z  int32
	layer uint8
	data  []byte
}

// meshTiles lists the tiles of m by (z, x, layer) with their data.
func meshTiles(t testing.TB, m *navmesh.Mesh) []posTile {
	t.Helper()
	var out []posTile
	for _, ref := range m.Tiles() {
		tl, err := m.Tile(ref)
		if err != nil {
			t.Fatal(err)
		}
		d, err := m.TileData(ref)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, posTile{tl.Header.TileX, tl.Header.TileZ, tl.Header.Layer, d})
	}
	return out
}

// sameTiles reports, as an error, the first difference between two tile
// lists (tile for tile, byte for byte).
func sameTiles(got, want []posTile) error {
	for i := 0; i < len(got) || i < len(want); i++ {
		switch {
		case i >= len(got):
			return fmt.Errorf("missing tile (%d, %d) layer %d", want[i].x, want[i].z, want[i].layer)
		case i >= len(want):
			return fmt.Errorf("extra tile (%d, %d) layer %d", got[i].x, got[i].z, got[i].layer)
		case got[i].x != want[i].x || got[i].z != want[i].z || got[i].layer != want[i].layer:
			return fmt.Errorf("tile %d at (%d, %d) layer %d, want (%d, %d) layer %d", i, got[i].x, got[i].z, got[i].layer, want[i].x, want[i].z, want[i].layer)
		case !bytes.Equal(got[i].data, want[i].data):
			return fmt.Errorf("tile (%d, %d) layer %d differs (%d vs %d bytes)", got[i].x, got[i].z, got[i].layer, len(got[i].data), len(want[i].data))
		}
	}
	return nil
}

// plainTiles builds src under s with pipeline.BuildLevel and returns its
// tiles.
func plainTiles(t testing.TB, s *pipeline.NavSettings, src *pipeline.Source) []posTile {
	t.Helper()
	b, err := pipeline.BuildLevel(context.Background(), s, src, pipeline.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return meshTiles(t, b.Mesh)
}

// freshTiles returns the tiles a fresh build of src under s gives at the
// listed positions (each position's layers ascending, positions in the
// order given): BuildTileSpans then BuildTileMesh, what BuildLevel runs per
// tile.
func freshTiles(t testing.TB, s *pipeline.NavSettings, src *pipeline.Source, pos [][2]int) []posTile {
	t.Helper()
	grid, err := src.TileGrid(s)
	if err != nil {
		t.Fatal(err)
	}
	var scratch pipeline.Scratch
	var out []posTile
	for _, p := range pos {
		chf, st, err := pipeline.BuildTileSpansStages(s, src, p[0], p[1], &scratch)
		if err != nil {
			t.Fatal(err)
		}
		if chf.WalkableSpanCount() == 0 {
			continue
		}
		at, err := grid.Place(p[0], p[1])
		if err != nil {
			t.Fatal(err)
		}
		tm, err := pipeline.BuildTileMesh(s, at, chf, st.ErodedAreas, nil, &scratch)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range tm.Layers {
			if l.Data != nil {
				out = append(out, posTile{int32(p[0]), int32(p[1]), uint8(l.Layer), l.Data})
			}
		}
	}
	return out
}

// tilesAt returns the tiles of list at the given positions, in the order
// of pos.
func tilesAt(list []posTile, pos [][2]int) []posTile {
	var out []posTile
	for _, p := range pos {
		for _, pt := range list {
			if int(pt.x) == p[0] && int(pt.z) == p[1] {
				out = append(out, pt)
			}
		}
	}
	return out
}

// walkablePoints returns the centroid of every polygon of m (ground points
// to put obstacles on), in tile order.
func walkablePoints(t testing.TB, m *navmesh.Mesh) []geom.Vec3 {
	t.Helper()
	var pts []geom.Vec3
	for _, ref := range m.Tiles() {
		tl, err := m.Tile(ref)
		if err != nil {
			t.Fatal(err)
		}
		for i := range tl.Polys {
			p := &tl.Polys[i]
			var c geom.Vec3
			for k := 0; k < int(p.VertCount); k++ {
				c = c.Add(tl.Verts[p.Verts[k]])
			}
			pts = append(pts, c.Scale(1/float32(p.VertCount)))
		}
	}
	return pts
}

// withShapes returns s with extra obstacles and volumes baked in after its
// own (a fresh build's settings for the cache's run-time set).
func withShapes(s pipeline.NavSettings, obs []voxel.Obstacle, vols []voxel.ConvexVolume) pipeline.NavSettings {
	s.Obstacles = append(slices.Clone(s.Obstacles), obs...)
	s.Volumes = append(slices.Clone(s.Volumes), vols...)
	return s
}

// cacheShapes returns the cache's obstacles and volumes in force, in order.
func cacheShapes(c *Cache) ([]voxel.Obstacle, []voxel.ConvexVolume) {
	var obs []voxel.Obstacle
	for _, o := range c.Obstacles() {
		obs = append(obs, o.Obstacle)
	}
	var vols []voxel.ConvexVolume
	for _, v := range c.Volumes() {
		vols = append(vols, v.Volume)
	}
	return obs, vols
}

// square returns a volume over the x/z square centre ± half, floor heights
// [y0, y1], area a.
func square(cx, cz, half, y0, y1 float32, a uint8) voxel.ConvexVolume {
	return voxel.ConvexVolume{VertsXZ: [][2]float32{{cx - half, cz - half}, {cx + half, cz - half}, {cx + half, cz + half}, {cx - half, cz + half}},
		MinYM: y0, MaxYM: y1, Area: a}
}
