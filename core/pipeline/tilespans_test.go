package pipeline

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/voxel"
)

// soupBuilder assembles small synthetic levels.
type soupBuilder struct{ s level.Soup }

func (b *soupBuilder) quad(p0, p1, p2, p3 geom.Vec3, area uint8) {
	n := int32(len(b.s.Verts))
	b.s.Verts = append(b.s.Verts, p0, p1, p2, p3)
	b.s.Tris = append(b.s.Tris, [3]int32{n, n + 1, n + 2}, [3]int32{n, n + 2, n + 3})
	b.s.Areas = append(b.s.Areas, area, area)
}

// floor adds an upward-facing rectangle at height y.
func (b *soupBuilder) floor(x0, z0, x1, z1, y float32, area uint8) {
	b.quad(geom.V3(x0, y, z0), geom.V3(x0, y, z1), geom.V3(x1, y, z1), geom.V3(x1, y, z0), area)
}

// box adds a closed box (top and four sides).
func (b *soupBuilder) box(x0, y0, z0, x1, y1, z1 float32) {
	b.floor(x0, z0, x1, z1, y1, level.AreaWalkable)
	b.quad(geom.V3(x0, y0, z0), geom.V3(x0, y1, z0), geom.V3(x1, y1, z0), geom.V3(x1, y0, z0), level.AreaWalkable)
	b.quad(geom.V3(x1, y0, z1), geom.V3(x1, y1, z1), geom.V3(x0, y1, z1), geom.V3(x0, y0, z1), level.AreaWalkable)
	b.quad(geom.V3(x0, y0, z1), geom.V3(x0, y1, z1), geom.V3(x0, y1, z0), geom.V3(x0, y0, z0), level.AreaWalkable)
	b.quad(geom.V3(x1, y0, z0), geom.V3(x1, y1, z0), geom.V3(x1, y1, z1), geom.V3(x1, y0, z1), level.AreaWalkable)
}

// testLevel is a 40 x 40 m yard: ground, a 6 m high block, a low table
// (1.2 m clearance), a ramp up to a deck at 4 m that bridges the ground, a
// kerb, and a swamp area (id 7).
func testLevel() *level.Soup {
	var b soupBuilder
	b.floor(0, 0, 40, 28, 0, level.AreaWalkable)
	b.floor(12, 28, 40, 40, 0, level.AreaWalkable)
	b.floor(0, 28, 12, 40, 0, 7) // swamp (a decal on the ground would lose: 63 > 7)
	b.box(5, 0, 5, 12, 6, 14)
	b.floor(20, 4, 24, 8, 1.2, level.AreaWalkable) // table top, open below
	b.box(14, 0, 20, 40, 0.15, 21)                 // kerb
	// Ramp from (15, 0) up to (25, 4) along x, z 28..32, then the deck.
	b.quad(geom.V3(15, 0, 28), geom.V3(15, 0, 32), geom.V3(25, 4, 32), geom.V3(25, 4, 28), level.AreaWalkable)
	b.floor(25, 28, 37, 32, 4, level.AreaWalkable)
	return &b.s
}

func buildAll(t testing.TB, s *NavSettings, src *Source) [][]byte {
	t.Helper()
	g, err := src.TileGrid(s)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	var scratch Scratch
	for tz := 0; tz < g.TilesZ; tz++ {
		for tx := 0; tx < g.TilesX; tx++ {
			c, err := BuildTileSpans(s, src, tx, tz, &scratch)
			if err != nil {
				t.Fatalf("tile (%d, %d): %v", tx, tz, err)
			}
			b, err := c.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, b)
		}
	}
	return out
}

func walkableTotal(t testing.TB, tiles [][]byte) int {
	n := 0
	for _, b := range tiles {
		var c voxel.CompactHeightfield
		if err := c.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		n += c.WalkableSpanCount()
	}
	return n
}

// spansAt returns "Y:area" of every open span in the column containing world
// point (x, z), built from the tile that owns it.
func spansAt(t *testing.T, s *NavSettings, src *Source, x, z float32) string {
	t.Helper()
	g, err := src.TileGrid(s)
	if err != nil {
		t.Fatal(err)
	}
	tx, tz, err := g.TileAt(geom.V3(x, 0, z))
	if err != nil {
		t.Fatal(err)
	}
	c, err := BuildTileSpans(s, src, tx, tz, nil)
	if err != nil {
		t.Fatal(err)
	}
	cx := int((x - c.OriginM.X) / c.CellSizeM)
	cz := int((z - c.OriginM.Z) / c.CellSizeM)
	cell := c.Cells[cx+cz*c.Width]
	var parts []string
	for i := cell.Index; i < cell.Index+cell.Count; i++ {
		parts = append(parts, fmt.Sprintf("%d:%d", c.Spans[i].Y, c.Areas[i]))
	}
	return strings.Join(parts, " ")
}

func TestBuildTileSpansSynthetic(t *testing.T) {
	s := DefaultSettings()
	src, err := NewSoupSource(testLevel(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		x, z float32
		want string
	}{
		{"open ground", 30.05, 10.05, "1:63"},
		{"block roof over its hollow inside", 8.55, 9.55, "1:63 31:63"},
		{"beside the block wall, eroded", 4.65, 9.55, "1:0"},
		{"under the table (1.2 m), gone", 22.05, 6.05, "7:63"},
		{"kerb top, within climb of the ground", 30.05, 20.55, "1:63"},
		{"under the deck and on it", 30.05, 30.05, "1:63 21:63"},
		{"ramp", 20.05, 30.05, "11:63"},
		{"swamp", 6.05, 34.05, "1:7"},
	} {
		if got := spansAt(t, &s, src, tc.x, tc.z); got != tc.want {
			t.Errorf("%s at (%v, %v): spans %q, want %q", tc.name, tc.x, tc.z, got, tc.want)
		}
	}
	tiles := buildAll(t, &s, src)
	if len(tiles) != 9 {
		t.Fatalf("%d tiles, want 3 x 3", len(tiles))
	}
	const wantWalkable = 18351
	if got := walkableTotal(t, tiles); got != wantWalkable {
		t.Errorf("walkable spans = %d, want %d", got, wantWalkable)
	}
}

func TestBuildTileSpansDeterminism(t *testing.T) {
	s := DefaultSettings()
	s.Volumes = []voxel.ConvexVolume{
		{VertsXZ: [][2]float32{{18, 2}, {30, 2}, {30, 12}}, MinYM: -1, MaxYM: 1, Area: 3},
		{VertsXZ: [][2]float32{{26, 0}, {36, 0}, {36, 10}, {26, 10}}, MinYM: -1, MaxYM: 5, Area: 0},
	}
	src, err := NewSoupSource(testLevel(), nil)
	if err != nil {
		t.Fatal(err)
	}
	first := buildAll(t, &s, src)
	second := buildAll(t, &s, src)
	for i := range first {
		if !bytes.Equal(first[i], second[i]) {
			t.Fatalf("tile %d differs between two builds", i)
		}
	}
	// Reverse order with one shared scratch, and nil scratch.
	g, _ := src.TileGrid(&s)
	var scratch Scratch
	for i := len(first) - 1; i >= 0; i-- {
		for _, sc := range []*Scratch{&scratch, nil} {
			c, err := BuildTileSpans(&s, src, i%g.TilesX, i/g.TilesX, sc)
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := c.MarshalBinary(); !bytes.Equal(b, first[i]) {
				t.Fatalf("tile %d differs with scratch %v", i, sc != nil)
			}
		}
	}
	// Several goroutines, each building every tile in its own order.
	workers := max(4, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			var sc Scratch
			for k := range first {
				i := (k*7 + w) % len(first)
				c, err := BuildTileSpans(&s, src, i%g.TilesX, i/g.TilesX, &sc)
				if err != nil {
					errs[w] = err
					return
				}
				if b, _ := c.MarshalBinary(); !bytes.Equal(b, first[i]) {
					errs[w] = fmt.Errorf("worker %d: tile %d differs", w, i)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	// The volumes did something: area 3 present, and fewer walkable spans.
	plain := DefaultSettings()
	if walkableTotal(t, first) >= walkableTotal(t, buildAll(t, &plain, src)) {
		t.Errorf("area-0 volume removed nothing")
	}
	if got := spansAt(t, &s, src, 25.05, 4.55); got != "1:3" {
		t.Errorf("volume area at (25.05, 4.55): %q, want 1:3", got)
	}
	if got := spansAt(t, &s, src, 30.05, 5.05); got != "1:0" {
		t.Errorf("area-0 volume at (30.05, 5.05): %q, want 1:0", got)
	}
}

// TestVoxelSourceMatchesSoup builds the same flat scene from triangles and
// from voxels; with floors at exact rows and edges inside cells the spans are
// identical.
func TestVoxelSourceMatchesSoup(t *testing.T) {
	s := DefaultSettings()
	s.Volumes = []voxel.ConvexVolume{{VertsXZ: [][2]float32{{3, 3}, {9, 3}, {9, 9}, {3, 9}}, MinYM: -1, MaxYM: 1, Area: 9}}
	// Floor over x, z in [0, 29.85] (cells 0..99, the last half covered),
	// a deck at y = 4 over x 9.15..15.15 (cells 30..50), z 6.15..20.25.
	var b soupBuilder
	b.floor(0, 0, 29.85, 29.85, 0, level.AreaWalkable)
	b.floor(9.15, 6.15, 15.15, 20.25, 4, level.AreaWalkable)
	soupSrc, err := NewSoupSource(&b.s, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := voxel.Grid{Width: 100, Height: 100, MaxM: geom.V3(29.85, 4, 29.85), CellSizeM: s.CellSizeM, CellHeightM: s.CellHeightM}
	cols := make([][]voxel.Span, 100*100)
	for z := 0; z < 100; z++ {
		for x := 0; x < 100; x++ {
			cols[x+z*100] = []voxel.Span{{MinRow: 0, MaxRow: 1, Area: 63}}
			if x >= 30 && x <= 50 && z >= 20 && z <= 67 {
				cols[x+z*100] = append(cols[x+z*100], voxel.Span{MinRow: 20, MaxRow: 21, Area: 63})
			}
		}
	}
	hf, err := voxel.NewHeightfieldFromColumns(g, cols)
	if err != nil {
		t.Fatal(err)
	}
	voxSrc, err := NewVoxelSource(hf)
	if err != nil {
		t.Fatal(err)
	}
	a, bb := buildAll(t, &s, soupSrc), buildAll(t, &s, voxSrc)
	if len(a) != 4 || len(bb) != 4 {
		t.Fatalf("%d and %d tiles, want 4", len(a), len(bb))
	}
	for i := range a {
		if !bytes.Equal(a[i], bb[i]) {
			var ca, cb voxel.CompactHeightfield
			_ = ca.UnmarshalBinary(a[i])
			_ = cb.UnmarshalBinary(bb[i])
			t.Errorf("tile %d: soup %d spans (%d walkable), voxels %d (%d)", i, ca.SpanCount(), ca.WalkableSpanCount(), cb.SpanCount(), cb.WalkableSpanCount())
		}
	}
	// Mismatched cell sizes are an error naming them.
	s2 := s
	s2.CellSizeM = 0.25
	if _, err := BuildTileSpans(&s2, voxSrc, 0, 0, nil); err == nil || !strings.Contains(err.Error(), "CellSizeM 0.25") {
		t.Errorf("mismatched cells: %v", err)
	}
}

func TestBuildTileSpansErrors(t *testing.T) {
	s := DefaultSettings()
	src, _ := NewSoupSource(testLevel(), nil)
	if _, err := BuildTileSpans(&s, src, 3, 0, nil); err == nil || !strings.Contains(err.Error(), "tile (3, 0)") {
		t.Errorf("tile out of range: %v", err)
	}
	bad := s
	bad.AgentMaxSlopeDeg = 95
	if _, err := BuildTileSpans(&bad, src, 0, 0, nil); err == nil || !strings.Contains(err.Error(), "AgentMaxSlopeDeg = 95") {
		t.Errorf("bad settings: %v", err)
	}
	for _, tc := range []struct {
		soup *level.Soup
		want string
	}{
		{nil, "nil soup"},
		{&level.Soup{Verts: []geom.Vec3{{}}}, "pipeline: the level has no triangles (1 vertices, no face): nothing to build"},
		{&level.Soup{Verts: []geom.Vec3{{}, {}, {}}, Tris: [][3]int32{{0, 1, 2}}, Areas: []uint8{64}}, "area id 64"},
		{&level.Soup{Verts: []geom.Vec3{{}, {}, geom.V3(3e6, 0, 0)}, Tris: [][3]int32{{0, 1, 2}}, Areas: []uint8{63}},
			"pipeline: vertex 2 (OBJ index 3) at (3e+06, 0, 0) is outside ±2097152 m (voxel.MaxCoordM): move the level nearer the origin or scale it down"},
		{&level.Soup{Verts: []geom.Vec3{{}, {}, {}}, Tris: [][3]int32{{0, 1, 5}}, Areas: []uint8{63}}, "index 5"},
	} {
		if _, err := NewSoupSource(tc.soup, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewSoupSource: %v, want %q", err, tc.want)
		}
	}
	if _, err := NewVoxelSource(nil); err == nil {
		t.Errorf("nil heightfield accepted")
	}
}
