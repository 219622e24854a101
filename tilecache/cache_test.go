package tilecache

import (
	"bytes"
	"context"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
	"navviz/core/query"
	"navviz/core/voxel"
)

// partitions are the settings every acceptance test runs: the three
// partitions on the general path (detail sampling on) and the layer
// partition's layer-first setting (no height sampling).
var partitions = []struct {
	p     pipeline.PartitionType
	first bool
}{
	{pipeline.Watershed, false},
	{pipeline.Monotone, false},
	{pipeline.Layers, false},
	{pipeline.Layers, true},
}

// TestCachedEqualsPlain: building with a cache gives exactly the plain
// build's mesh, byte for byte, for each partition on city and dungeon; the
// cached first-build tile data are the mesh's tiles.
func TestCachedEqualsPlain(t *testing.T) {
	for _, lv := range []string{"city", "dungeon"} {
		for _, p := range partitions {
			k := config{lv, p.p, p.first}
			t.Run(k.String(), func(t *testing.T) {
				f := getFixture(t, k)
				c := f.reset(t)
				if got := meshBytes(t, c.Mesh()); !bytes.Equal(got, f.plain) {
					t.Fatalf("cached mesh (%d bytes) differs from the plain build's (%d bytes)", len(got), len(f.plain))
				}
				var first []posTile
				for _, p := range c.CachedTiles() {
					data, _ := c.FirstBuildTileData(p[0], p[1])
					for _, d := range data {
						tl, err := navmesh.DecodeTile(d)
						if err != nil {
							t.Fatal(err)
						}
						first = append(first, posTile{int32(p[0]), int32(p[1]), tl.Header.Layer, d})
					}
				}
				if err := sameTiles(first, meshTiles(t, c.Mesh())); err != nil {
					t.Errorf("first-build tile data vs mesh: %v", err)
				}
				if len(c.CachedTiles()) == 0 || c.Mesh().TileCount() == 0 {
					t.Fatalf("nothing cached")
				}
				t.Logf("%d cached tiles, %d navmesh tiles", len(c.CachedTiles()), c.Mesh().TileCount())
			})
		}
	}
}

// TestBuildEntryPoints: BuildSoup, BuildChunk and BuildHeightfield give the
// caches their sources' plain builds give; the cache skips tiles with
// nothing walkable.
func TestBuildEntryPoints(t *testing.T) {
	soup := loadLevel(t, "terrain")
	s := pipeline.DefaultSettings()
	s.TileSizeCells = 128
	ctx := context.Background()
	a, err := BuildSoup(ctx, &s, soup, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	ch, err := level.NewChunky(soup, 64)
	if err != nil {
		t.Fatal(err)
	}
	b, err := BuildChunk(ctx, &s, soup, ch, Options{Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(meshBytes(t, a.Mesh()), meshBytes(t, b.Mesh())) || a.Fingerprint() != b.Fingerprint() {
		t.Errorf("BuildSoup and BuildChunk differ")
	}

	// A voxel level: a 40 x 30 cell floor with a raised block, and a strip
	// of columns without spans, so one tile has nothing walkable.
	g := voxel.Grid{Width: 60, Height: 30, CellSizeM: 0.3, CellHeightM: 0.2,
		OriginM: geom.V3(0, 0, 0), MaxM: geom.V3(18, 10, 9)}
	cols := make([][]voxel.Span, g.Width*g.Height)
	for z := 0; z < g.Height; z++ {
		for x := 0; x < 40; x++ {
			top := uint16(5)
			if x > 10 && x < 20 && z > 10 && z < 20 {
				top = 12
			}
			cols[x+z*g.Width] = []voxel.Span{{MinRow: 0, MaxRow: top, Area: voxel.AreaWalkable}}
		}
	}
	hf, err := voxel.NewHeightfieldFromColumns(g, cols)
	if err != nil {
		t.Fatal(err)
	}
	vs := pipeline.DefaultSettings()
	vs.TileSizeCells = 16
	v, err := BuildHeightfield(ctx, &vs, hf, Options{})
	if err != nil {
		t.Fatal(err)
	}
	src, _ := pipeline.NewVoxelSource(hf)
	pb, err := pipeline.BuildLevel(ctx, &vs, src, pipeline.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(meshBytes(t, v.Mesh()), meshBytes(t, pb.Mesh)) {
		t.Errorf("BuildHeightfield differs from the plain build")
	}
	grid := v.Grid()
	if n := len(v.CachedTiles()); n >= grid.TileCount() || n != len(pb.Tiles) {
		t.Errorf("%d cached tiles of %d, the plain build has %d with something walkable", n, grid.TileCount(), len(pb.Tiles))
	}
	if v.IsCached(grid.TilesX-1, 0) {
		t.Errorf("the empty last column of tiles is cached")
	}
	if _, ok := v.TileSpans(grid.TilesX-1, 0); ok {
		t.Errorf("TileSpans of an uncached tile")
	}
	if _, ok := v.TileSpans(0, 0); !ok {
		t.Errorf("no TileSpans for tile (0, 0)")
	}

	// Bad arguments.
	for _, f := range []func() error{
		func() error { _, err := Build(ctx, nil, src, Options{}); return err },
		func() error { _, err := Build(ctx, &vs, nil, Options{}); return err },
		func() error { _, err := Build(ctx, &vs, src, Options{Workers: -1}); return err },
		func() error { _, err := BuildChunk(ctx, &s, soup, nil, Options{}); return err },
		func() error { _, err := BuildSoup(ctx, &s, nil, Options{}); return err },
		func() error { _, err := BuildHeightfield(ctx, &s, nil, Options{}); return err },
		func() error {
			bad := s
			bad.Obstacles = []voxel.Obstacle{voxel.Cylinder(geom.V3(0, 0, 0), float32(math.NaN()), 1)}
			_, err := BuildSoup(ctx, &bad, soup, Options{})
			return err
		},
	} {
		if err := f(); err == nil {
			t.Errorf("bad build arguments accepted")
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := BuildSoup(cctx, &s, soup, Options{}); err == nil {
		t.Errorf("cancelled build succeeded")
	}
}

// abc returns three obstacles of the three shapes on walkable ground of
// the fixture's level.
func abc(t testing.TB, f *fixture) []voxel.Obstacle {
	pts := walkablePoints(t, f.cache.Mesh())
	p := func(i int) geom.Vec3 { return pts[i*len(pts)/7] }
	a, b, c := p(2), p(3), p(5)
	return []voxel.Obstacle{
		voxel.Cylinder(geom.V3(a.X, a.Y-0.5, a.Z), 1.2, 2.5),
		voxel.Box(geom.V3(b.X-2, b.Y-1, b.Z-0.7), geom.V3(b.X+1.5, b.Y+1.5, b.Z+0.9)),
		voxel.OrientedBox(geom.V3(c.X, c.Y, c.Z), geom.V3(2.5, 1, 0.4), 0.7),
	}
}

// TestObstaclesEqualFreshBuild: obstacles A, B, C added at run time and
// updated give, tile for tile and byte for byte, a fresh build with A, B, C
// in NavSettings.Obstacles; removing all of them gives back the original
// tiles. Also a run-time volume equals the same volume built in.
func TestObstaclesEqualFreshBuild(t *testing.T) {
	for _, lv := range []string{"city", "dungeon"} {
		for _, p := range partitions {
			k := config{lv, p.p, p.first}
			t.Run(k.String(), func(t *testing.T) {
				f := getFixture(t, k)
				c := f.reset(t)
				original := meshTiles(t, c.Mesh())
				obs := abc(t, f)
				var ids []ObstacleID
				for _, o := range obs {
					id, err := c.AddObstacle(o)
					if err != nil {
						t.Fatal(err)
					}
					ids = append(ids, id)
				}
				res, err := c.UpdateAll()
				if err != nil {
					t.Fatal(err)
				}
				if res.Remaining != 0 || c.QueueLen() != 0 {
					t.Fatalf("queue not empty after UpdateAll")
				}
				built := 0
				for _, u := range res.Tiles {
					if u.Rebuild == RebuildBuilt {
						built++
					}
				}
				if built == 0 {
					t.Fatalf("no tile rebuilt: %+v", res)
				}
				s := withShapes(k.settings(), obs, nil)
				want := plainTiles(t, &s, f.src)
				if err := sameTiles(meshTiles(t, c.Mesh()), want); err != nil {
					t.Errorf("run-time A, B, C vs built in: %v", err)
				}
				for _, id := range ids {
					if err := c.RemoveObstacle(id); err != nil {
						t.Fatal(err)
					}
				}
				if _, err := c.UpdateAll(); err != nil {
					t.Fatal(err)
				}
				if err := sameTiles(meshTiles(t, c.Mesh()), original); err != nil {
					t.Errorf("after removing A, B, C: %v", err)
				}

				// A run-time volume equals the same volume built in: one
				// with a user area and one with area 0 (no growth). (On
				// two settings: the general watershed path and the
				// layer-first path.)
				if k.partition == pipeline.Monotone || (k.partition == pipeline.Layers && !k.layerFirst) {
					return
				}
				pts := walkablePoints(t, c.Mesh())
				q, r := pts[len(pts)/3], pts[2*len(pts)/3]
				vols := []voxel.ConvexVolume{
					square(q.X, q.Z, 3, q.Y-1, q.Y+1, 7),
					{VertsXZ: [][2]float32{{r.X - 2, r.Z - 1}, {r.X + 2, r.Z - 2}, {r.X + 1, r.Z + 2}}, MinYM: r.Y - 1, MaxYM: r.Y + 1, Area: 0},
				}
				for _, v := range vols {
					if _, err := c.AddVolume(v); err != nil {
						t.Fatal(err)
					}
				}
				if _, err := c.UpdateAll(); err != nil {
					t.Fatal(err)
				}
				s = withShapes(k.settings(), nil, vols)
				if err := sameTiles(meshTiles(t, c.Mesh()), plainTiles(t, &s, f.src)); err != nil {
					t.Errorf("run-time volumes vs built in: %v", err)
				}
			})
		}
	}
}

// TestBudgets: the final mesh is the same for a budget of one tile and of
// all tiles (the same swaps in the same order, so the same bytes), and
// for updates sliced between the operations (the same tiles).
func TestBudgets(t *testing.T) {
	k := config{"city", pipeline.Layers, true}
	f := getFixture(t, k)
	pts := walkablePoints(t, f.cache.Mesh())
	ops := func(c *Cache, slice func()) {
		for i, o := range abc(t, f) {
			if _, err := c.AddObstacle(o); err != nil {
				t.Fatal(err)
			}
			slice()
			if i == 1 {
				q := pts[len(pts)/2]
				if _, err := c.AddVolume(square(q.X, q.Z, 4, q.Y-2, q.Y+2, 9)); err != nil {
					t.Fatal(err)
				}
				slice()
				if err := c.RemoveObstacle(1); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	c := f.reset(t)
	ops(c, func() {})
	if _, err := c.UpdateAll(); err != nil {
		t.Fatal(err)
	}
	all := meshBytes(t, c.Mesh())
	allTiles := meshTiles(t, c.Mesh())

	c = f.reset(t)
	ops(c, func() {})
	steps := 0
	for c.QueueLen() > 0 {
		r, err := c.Update(1)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Tiles) != 1 || r.Remaining != c.QueueLen() {
			t.Fatalf("Update(1) did %d tiles, %d remaining", len(r.Tiles), r.Remaining)
		}
		steps++
	}
	if !bytes.Equal(meshBytes(t, c.Mesh()), all) {
		t.Errorf("budget 1 (%d steps) gives another mesh than UpdateAll", steps)
	}

	c = f.reset(t)
	ops(c, func() {
		if _, err := c.Update(1); err != nil {
			t.Fatal(err)
		}
	})
	if _, err := c.UpdateAll(); err != nil {
		t.Fatal(err)
	}
	if err := sameTiles(meshTiles(t, c.Mesh()), allTiles); err != nil {
		t.Errorf("sliced between operations: %v", err)
	}
	if r, err := c.Update(0); err != nil || len(r.Tiles) != 0 {
		t.Errorf("Update(0) = %+v, %v", r, err)
	}
}

// TestIDsAndQueue: ids start at 1, grow by one and are never reused,
// obstacles and volumes each on their own; removing an unknown id fails
// and changes nothing; the queue is by tile row then column, a queued tile
// keeps its place, and a tile is rebuilt from the shapes in force when it
// is processed.
func TestIDsAndQueue(t *testing.T) {
	f := getFixture(t, config{"city", pipeline.Watershed, false})
	c := f.reset(t)
	g := c.Grid()
	// A box from the middle of tile column 1 to that of column 2 and from
	// the middle of row 1 to that of row 3: tiles (1..2, 1..3) (build grids
	// reach past their tiles by the border only).
	ts := float32(g.TileSizeM())
	x0, z0 := g.BoundsM.Min.X, g.BoundsM.Min.Z
	box := voxel.Box(geom.V3(x0+1.5*ts, -1, z0+1.5*ts), geom.V3(x0+2.5*ts, 1, z0+3.5*ts))
	id, err := c.AddObstacle(box)
	if err != nil || id != 1 {
		t.Fatalf("first id %d, %v", id, err)
	}
	want := [][2]int{{1, 1}, {2, 1}, {1, 2}, {2, 2}, {1, 3}, {2, 3}}
	if got := c.Queue(); !slices.Equal(got, want) {
		t.Fatalf("queue %v, want %v", got, want)
	}
	if got, _ := c.TilesFor(box); !slices.Equal(got, want) {
		t.Errorf("TilesFor %v, want %v", got, want)
	}
	// A volume over columns 1.5..2.5 and rows 2..3 (tile units) queues the
	// same tiles: rows 1 and 3 touch it at their edges through the border
	// and the widening.
	vol := square(x0+2*ts, z0+2.5*ts, 0.5*ts, -1, 1, 4)
	if got, _ := c.TilesForVolume(vol); !slices.Equal(got, want) {
		t.Errorf("TilesForVolume %v, want %v", got, want)
	}
	if _, err := c.TilesForVolume(voxel.ConvexVolume{}); err == nil {
		t.Errorf("TilesForVolume accepted an empty volume")
	}
	// A cylinder at the corner of tiles (0..1, 0..1): tiles (0,0), (1,0),
	// (0,1) join at the end, (1,1) keeps its place.
	cyl := voxel.Cylinder(geom.V3(x0+ts, 0, z0+ts), 0.5, 1)
	if id, err := c.AddObstacle(cyl); err != nil || id != 2 {
		t.Fatalf("second id %d, %v", id, err)
	}
	want = append(want, [2]int{0, 0}, [2]int{1, 0}, [2]int{0, 1})
	if got := c.Queue(); !slices.Equal(got, want) {
		t.Fatalf("queue %v, want %v", got, want)
	}
	vid, err := c.AddVolume(square(x0+3, z0+3, 1, -5, 5, 3))
	if err != nil || vid != 1 {
		t.Fatalf("first volume id %d, %v", vid, err)
	}
	if err := c.RemoveObstacle(1); err != nil {
		t.Fatal(err)
	}
	before := snapBytes(t, c)
	for _, err := range []error{c.RemoveObstacle(1), c.RemoveObstacle(0), c.RemoveObstacle(99), c.RemoveVolume(2), c.RemoveVolume(0)} {
		if err == nil {
			t.Errorf("removing an unknown id succeeded")
		}
	}
	if !bytes.Equal(before, snapBytes(t, c)) {
		t.Errorf("failed removals changed the cache")
	}
	if id, _ := c.AddObstacle(cyl); id != 3 {
		t.Errorf("id after removing 1: %d, want 3", id)
	}
	if id, _ := c.AddVolume(square(x0+3, z0+3, 1, -5, 5, 3)); id != 2 {
		t.Errorf("second volume id %d, want 2", id)
	}
	if c.NextObstacleID() != 4 || c.NextVolumeID() != 3 {
		t.Errorf("next ids %d, %d", c.NextObstacleID(), c.NextVolumeID())
	}
	obs := c.Obstacles()
	if len(obs) != 2 || obs[0].ID != 2 || obs[1].ID != 3 {
		t.Errorf("obstacles %+v", obs)
	}
	// Remove everything before updating: every queued tile is rebuilt from
	// what is in force then (nothing), so nothing changes.
	for _, o := range c.Obstacles() {
		if err := c.RemoveObstacle(o.ID); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range c.Volumes() {
		if err := c.RemoveVolume(v.ID); err != nil {
			t.Fatal(err)
		}
	}
	before = meshBytes(t, c.Mesh())
	r, err := c.UpdateAll()
	if err != nil {
		t.Fatal(err)
	}
	// (The fixture was restored from a snapshot, which forgets the
	// last-built areas: the first rebuild of each tile compares with the
	// first build's areas and keeps every tile.)
	for _, u := range r.Tiles {
		if u.Rebuild != RebuildFirst || !allKept(u.Swaps) {
			t.Errorf("tile (%d, %d): %v with swaps %+v", u.TX, u.TZ, u.Rebuild, u.Swaps)
		}
	}
	if !bytes.Equal(before, meshBytes(t, c.Mesh())) {
		t.Errorf("the mesh changed")
	}
}

func allKept(sw []Swap) bool {
	for _, s := range sw {
		if s.Kind != SwapKept || s.Ref != s.OldRef {
			return false
		}
	}
	return true
}

// TestShortcutsAndSwaps: a queued tile whose areas did not change is left
// alone (its references and run-time edits stay); the last obstacle leaving
// a tile brings back the first build's tile data without building; a
// changed tile replaces the old one in its slot (old references stale).
func TestShortcutsAndSwaps(t *testing.T) {
	f := getFixture(t, config{"city", pipeline.Watershed, false})
	c := f.reset(t)
	m := c.Mesh()
	pts := walkablePoints(t, m)
	p := pts[len(pts)/2]
	o := voxel.Cylinder(geom.V3(p.X, p.Y-0.5, p.Z), 1, 2)
	tx, tz, err := func() (int, int, error) { g := c.Grid(); return g.TileAt(p) }()
	if err != nil {
		t.Fatal(err)
	}
	old, ok := m.TileAt(int32(tx), int32(tz), 0)
	if !ok {
		t.Fatal("no tile under the point")
	}
	oldPoly := old.Poly(0)
	// A run-time edit on every tile, to see which stay.
	edits := map[navmesh.TileRef]bool{}
	for _, ref := range m.Tiles() {
		if err := m.SetPolyFlags(ref.Poly(0), 0x5a5a); err != nil {
			t.Fatal(err)
		}
		edits[ref] = true
	}
	id, _ := c.AddObstacle(o)
	queued := c.Queue()
	r, err := c.UpdateAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range r.Tiles {
		switch {
		case u.TX == tx && u.TZ == tz:
			if u.Rebuild != RebuildBuilt || u.RemovedSpans == 0 || len(u.Swaps) != 1 || u.Swaps[0].Kind != SwapReplaced {
				t.Errorf("obstacle's tile: %+v", u)
			}
			if m.IsValidRef(oldPoly) {
				t.Errorf("a reference into the replaced tile is still valid")
			}
			if u.Swaps[0].Ref.Slot() != old.Slot() || u.Swaps[0].Ref.Generation() == old.Generation() {
				t.Errorf("replaced tile %#x, old %#x: want the same slot, a new generation", u.Swaps[0].Ref, old)
			}
		case u.Rebuild == RebuildBuilt:
			// A neighbour the grown footprint reaches: fine, but its swap
			// keeps the tile when the content is the same.
		default:
			// Unchanged, or first-build data after the fixture's restore:
			// the tile is kept either way.
			if u.Rebuild == RebuildBuilt || !allKept(u.Swaps) {
				t.Errorf("untouched tile (%d, %d): %+v", u.TX, u.TZ, u)
			}
		}
	}
	t.Logf("queued %v", queued)
	for _, ref := range m.Tiles() {
		if ref.Slot() == old.Slot() {
			continue
		}
		if fl, err := m.PolyFlags(ref.Poly(0)); err != nil || fl != 0x5a5a || !edits[ref] {
			t.Errorf("kept tile %#x lost its edit or reference: %v %#x", ref, err, fl)
		}
	}
	// Requeue the tile without changing it: an obstacle in the air.
	if _, err := c.AddObstacle(voxel.Cylinder(geom.V3(p.X, p.Y+50, p.Z), 1, 1)); err != nil {
		t.Fatal(err)
	}
	r, _ = c.UpdateAll()
	for _, u := range r.Tiles {
		if u.Rebuild != RebuildUnchanged {
			t.Errorf("tile (%d, %d) under an obstacle in the air: %v", u.TX, u.TZ, u.Rebuild)
		}
	}
	// The last obstacle on the ground leaves: the first build's data.
	if err := c.RemoveObstacle(id); err != nil {
		t.Fatal(err)
	}
	r, _ = c.UpdateAll()
	for _, u := range r.Tiles {
		if u.TX == tx && u.TZ == tz && (u.Rebuild != RebuildFirst || u.LayersBuilt != 0 || u.Swaps[0].Kind != SwapReplaced || u.Swaps[0].ContentID != mustID(t, m, old, f)) {
			t.Errorf("obstacle's tile after removal: %+v", u)
		}
	}
	if err := sameTiles(meshTiles(t, m), plainOf(t, f)); err != nil {
		t.Error(err)
	}
}

// mustID returns the first-build content id of the tile old named.
func mustID(t *testing.T, m *navmesh.Mesh, old navmesh.TileRef, f *fixture) uint64 {
	var pm navmesh.Mesh
	if err := pm.UnmarshalBinary(f.plain); err != nil {
		t.Fatal(err)
	}
	id, err := pm.TileContentID(old)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// plainOf returns the tiles of the fixture's plain build.
func plainOf(t *testing.T, f *fixture) []posTile {
	var pm navmesh.Mesh
	if err := pm.UnmarshalBinary(f.plain); err != nil {
		t.Fatal(err)
	}
	return meshTiles(t, &pm)
}

// TestValidation: every bad number of every shape, bad volumes, unknown
// ids and a negative budget are errors that name the value and change
// nothing (the snapshot and the mesh are byte for byte the same).
func TestValidation(t *testing.T) {
	f := getFixture(t, config{"city", pipeline.Watershed, false})
	c := f.reset(t)
	if _, err := c.AddObstacle(voxel.Cylinder(geom.V3(20, 0, 20), 1, 1)); err != nil {
		t.Fatal(err)
	}
	snap, mesh := snapBytes(t, c), meshBytes(t, c.Mesh())
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	big := float32(3e6)
	v := geom.V3
	for _, tc := range []struct {
		o    voxel.Obstacle
		want string
	}{
		{voxel.Cylinder(v(nan, 0, 0), 1, 1), "tilecache: obstacle cylinder base x = NaN"},
		{voxel.Cylinder(v(0, inf, 0), 1, 1), "tilecache: obstacle cylinder base y = +Inf"},
		{voxel.Cylinder(v(0, 0, big), 1, 1), "tilecache: obstacle cylinder base z = 3e+06"},
		{voxel.Cylinder(v(0, 0, 0), nan, 1), "tilecache: obstacle cylinder radius = NaN"},
		{voxel.Cylinder(v(0, 0, 0), 0, 1), "tilecache: obstacle cylinder radius = 0"},
		{voxel.Cylinder(v(0, 0, 0), -2, 1), "tilecache: obstacle cylinder radius = -2"},
		{voxel.Cylinder(v(0, 0, 0), 1, -1), "tilecache: obstacle cylinder height = -1"},
		{voxel.Cylinder(v(0, 0, 0), 1, inf), "tilecache: obstacle cylinder height = +Inf"},
		{voxel.Cylinder(v(2097150, 0, 0), 5, 1), "tilecache: obstacle cylinder extent x max (base x + radius) = 2.097155e+06"},
		{voxel.Box(v(0, nan, 0), v(1, 1, 1)), "tilecache: obstacle box min y = NaN"},
		{voxel.Box(v(0, 0, 0), v(1, 1, -inf)), "tilecache: obstacle box max z = -Inf"},
		{voxel.Box(v(0, 0, 0), v(big, 1, 1)), "tilecache: obstacle box max x = 3e+06"},
		{voxel.Box(v(0, 3, 0), v(1, 1, 1)), "tilecache: obstacle box min y = 3, want at most max y = 1"},
		{voxel.OrientedBox(v(0, 0, nan), v(1, 1, 1), 0), "tilecache: obstacle oriented box centre z = NaN"},
		{voxel.OrientedBox(v(0, 0, 0), v(0, 1, 1), 0), "tilecache: obstacle oriented box half size x = 0"},
		{voxel.OrientedBox(v(0, 0, 0), v(1, -0.5, 1), 0), "tilecache: obstacle oriented box half size y = -0.5"},
		{voxel.OrientedBox(v(0, 0, 0), v(1, 1, nan), 0), "tilecache: obstacle oriented box half size z = NaN"},
		{voxel.OrientedBox(v(0, 0, 0), v(1, 1, 1), inf), "tilecache: obstacle oriented box yaw = +Inf"},
		{voxel.OrientedBox(v(0, -2097151.5, 0), v(1, 1, 1), 0), "tilecache: obstacle oriented box extent y min (centre y - half size y)"},
		{voxel.Obstacle{Shape: 7}, "tilecache: obstacle ObstacleShape(7) shape = 7"},
	} {
		_, err := c.AddObstacle(tc.o)
		if err == nil || len(err.Error()) < len(tc.want) || err.Error()[:len(tc.want)] != tc.want {
			t.Errorf("AddObstacle(%+v) = %v, want %q...", tc.o, err, tc.want)
		}
		if _, err := c.TilesFor(tc.o); err == nil {
			t.Errorf("TilesFor accepted %+v", tc.o)
		}
	}
	for _, vol := range []voxel.ConvexVolume{
		{},
		{VertsXZ: [][2]float32{{0, 0}, {1, 0}, {nan, 1}}},
		{VertsXZ: [][2]float32{{0, 0}, {1, 0}, {1, 1}}, MinYM: 2, MaxYM: 1},
		{VertsXZ: [][2]float32{{0, 0}, {1, 0}, {1, 1}}, Area: 64},
		{VertsXZ: [][2]float32{{0, 0}, {2, 0}, {1, 0.2}, {2, 2}, {0, 2}}},
	} {
		if _, err := c.AddVolume(vol); err == nil {
			t.Errorf("AddVolume(%+v) accepted", vol)
		}
	}
	if _, err := c.Update(-1); err == nil {
		t.Errorf("Update(-1) accepted")
	}
	// Every id used: adds fail.
	no, nv := c.nextObstacle, c.nextVolume
	c.nextObstacle, c.nextVolume = 0, 0
	if _, err := c.AddObstacle(voxel.Cylinder(v(20, 0, 20), 1, 1)); err == nil {
		t.Errorf("AddObstacle with every id used accepted")
	}
	if _, err := c.AddVolume(square(20, 20, 1, 0, 1, 3)); err == nil {
		t.Errorf("AddVolume with every id used accepted")
	}
	c.nextObstacle, c.nextVolume = no, nv
	if !bytes.Equal(snap, snapBytes(t, c)) || !bytes.Equal(mesh, meshBytes(t, c.Mesh())) {
		t.Errorf("failed calls changed the cache")
	}
	// Pipeline obstacles are validated with the settings.
	s := pipeline.DefaultSettings()
	s.Obstacles = []voxel.Obstacle{voxel.Cylinder(v(0, 0, 0), 1, 1), voxel.OrientedBox(v(0, 0, 0), v(1, 1, 0), 0)}
	if err := s.Validate(); err == nil || err.Error() != "pipeline: NavSettings.Obstacles[1]: obstacle oriented box half size z = 0, want a finite number > 0 within 2^21" {
		t.Errorf("NavSettings.Validate: %v", err)
	}
}

// TestSettingsCopied: the cache copies the settings (Volumes and Obstacles
// included): changing the caller's afterwards changes nothing.
func TestSettingsCopied(t *testing.T) {
	soup := loadLevel(t, "terrain")
	s := pipeline.DefaultSettings()
	s.TileSizeCells = 256
	s.Volumes = []voxel.ConvexVolume{square(40, 40, 5, -100, 100, 5)}
	s.Obstacles = []voxel.Obstacle{voxel.Cylinder(geom.V3(60, -100, 60), 2, 200)}
	c, err := BuildSoup(context.Background(), &s, soup, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fp := c.Fingerprint()
	s.Volumes[0].VertsXZ[0][0] = 0
	s.Obstacles[0].RadiusM = 9
	got := c.Settings()
	if got.Volumes[0].VertsXZ[0][0] != 35 || got.Obstacles[0].RadiusM != 2 || c.Fingerprint() != fp {
		t.Errorf("the cache's settings follow the caller's")
	}
	got.Volumes[0].VertsXZ[0][0] = 1
	if c.Settings().Volumes[0].VertsXZ[0][0] != 35 {
		t.Errorf("Settings returns the cache's own memory")
	}
}

// TestLayerFirstRebuildsOneLayer: on the layer-first path, an obstacle on
// one height layer of a tile with several rebuilds that layer only; the
// tiles of the other layers are kept (same references), and the result is
// the fresh build's.
func TestLayerFirstRebuildsOneLayer(t *testing.T) {
	k := config{"city", pipeline.Layers, true}
	f := getFixture(t, k)
	c := f.reset(t)
	m := c.Mesh()
	// The first tile position (row by row) with three layers or more, and
	// the centroid of its layer-0 polygon with the most vertices.
	var refs []navmesh.TileRef
	for _, p := range c.CachedTiles() {
		if r := m.TilesAt(int32(p[0]), int32(p[1])); len(r) >= 3 {
			refs = r
			break
		}
	}
	if refs == nil {
		t.Fatal("no tile with three layers in the city")
	}
	tl, _ := m.Tile(refs[0])
	best := 0
	for i := range tl.Polys {
		if tl.Polys[i].VertCount > tl.Polys[best].VertCount {
			best = i
		}
	}
	var ctr geom.Vec3
	p := &tl.Polys[best]
	for j := 0; j < int(p.VertCount); j++ {
		ctr = ctr.Add(tl.Verts[p.Verts[j]])
	}
	ctr = ctr.Scale(1 / float32(p.VertCount))
	o := voxel.Cylinder(geom.V3(ctr.X, ctr.Y-0.5, ctr.Z), 0.4, 1.5)
	if _, err := c.AddObstacle(o); err != nil {
		t.Fatal(err)
	}
	r, err := c.UpdateAll()
	if err != nil {
		t.Fatal(err)
	}
	var u *TileUpdate
	for i := range r.Tiles {
		if r.Tiles[i].TX == int(tl.Header.TileX) && r.Tiles[i].TZ == int(tl.Header.TileZ) {
			u = &r.Tiles[i]
		}
	}
	if u == nil || u.Rebuild != RebuildBuilt {
		t.Fatalf("tile (%d, %d) not rebuilt: %+v", tl.Header.TileX, tl.Header.TileZ, r)
	}
	if u.LayersBuilt != 1 || len(u.Swaps) != len(refs) || u.Swaps[0].Kind != SwapReplaced {
		t.Errorf("%d layers built, swaps %+v; want one layer built and replaced", u.LayersBuilt, u.Swaps)
	}
	for i, s := range u.Swaps[1:] {
		if s.Kind != SwapKept || s.Ref != refs[i+1] {
			t.Errorf("layer %d: %v, ref %#x (was %#x)", s.Layer, s.Kind, s.Ref, refs[i+1])
		}
	}
	s := withShapes(k.settings(), []voxel.Obstacle{o}, nil)
	if err := sameTiles(meshTiles(t, m), plainTiles(t, &s, f.src)); err != nil {
		t.Errorf("vs the fresh build: %v", err)
	}
}

// TestZeroCache: the methods of a Cache not made by Build fail or report
// nothing; none panics.
func TestZeroCache(t *testing.T) {
	var c Cache
	o := voxel.Cylinder(geom.V3(0, 0, 0), 1, 1)
	v := square(0, 0, 1, 0, 1, 3)
	for i, err := range []error{
		func() error { _, err := c.AddObstacle(o); return err }(),
		c.RemoveObstacle(1),
		func() error { _, err := c.AddVolume(v); return err }(),
		c.RemoveVolume(1),
		c.QueueTile(0, 0),
		func() error { _, err := c.TilesFor(o); return err }(),
		func() error { _, err := c.TilesForVolume(v); return err }(),
		func() error { _, err := c.Update(1); return err }(),
		func() error { _, err := c.UpdateAll(); return err }(),
		func() error { _, err := c.Snapshot(); return err }(),
		c.Restore(nil),
		func() error { _, err := c.RunCycle(nil); return err }(),
	} {
		if err == nil {
			t.Errorf("call %d on a zero Cache succeeded", i)
		}
	}
	if c.Mesh() != nil || c.IsCached(0, 0) || len(c.CachedTiles()) != 0 || c.QueueLen() != 0 || c.Grid().TilesX != 0 {
		t.Errorf("a zero Cache reports content")
	}
	if _, ok := c.TileSpans(0, 0); ok {
		t.Errorf("TileSpans on a zero Cache")
	}
	if _, ok := c.FirstBuildTileData(0, 0); ok {
		t.Errorf("FirstBuildTileData on a zero Cache")
	}
}

// TestOpenFloorPoints: the points are n, at least OpenFloorMinDistM apart,
// the same on every call, each inside a polygon of the mesh in x/z (a
// polygon centre); too many points or none is an error naming the count.
func TestOpenFloorPoints(t *testing.T) {
	c := getFixture(t, config{"dungeon", pipeline.Layers, true}).reset(t)
	m := c.Mesh()
	pts, err := OpenFloorPoints(m, 12)
	if err != nil {
		t.Fatal(err)
	}
	again, err := OpenFloorPoints(m, 12)
	if err != nil || !reflect.DeepEqual(pts, again) {
		t.Fatalf("second call: %v, %v; want the same points", again, err)
	}
	if len(pts) != 12 {
		t.Fatalf("%d points, want 12", len(pts))
	}
	for i, p := range pts {
		for _, q := range pts[:i] {
			if dx, dz := float64(p.X-q.X), float64(p.Z-q.Z); dx*dx+dz*dz < OpenFloorMinDistM*OpenFloorMinDistM*0.999 {
				t.Errorf("points %v and %v are closer than %d m", p, q, OpenFloorMinDistM)
			}
		}
		ref, at, err := query.NearestPoly(m, p, geom.V3(0.01, 2, 0.01))
		if err != nil || ref == 0 || at.X != p.X || at.Z != p.Z {
			t.Errorf("point %d %v: nearest polygon %v at %v, %v; want one under it", i, p, ref, at, err)
		}
	}
	for _, n := range []int{0, -1, 100000} {
		if _, err := OpenFloorPoints(m, n); err == nil || !strings.Contains(err.Error(), strconv.Itoa(n)) {
			t.Errorf("OpenFloorPoints(%d): %v, want an error naming %d", n, err, n)
		}
	}
}
