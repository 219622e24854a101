package agent

import (
	"context"
	"testing"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/pipeline"
	"navviz/tilecache"
)

// The small test level (metres): a 40 × 40 m floor at y 0 with a wall
// (x 18..22, z 0..30, 3 m high) that leaves a gap at z 30..40, and a
// platform (x 30..36, z 30..36, 3 m high) whose roof no ramp reaches.
// With the tile cache's settings (tile 64 cells of 0.3 m) it is 3 × 3
// tiles.
const (
	floorM    = 40
	wallX0    = 18
	wallX1    = 22
	wallZ1    = 30
	platX0    = 30
	platX1    = 36
	platHighM = 3
)

// boxSoup appends an axis-aligned box (all six faces) to b.
func boxSoup(b *level.Soup, lo, hi geom.Vec3) {
	base := int32(len(b.Verts))
	for i := range 8 {
		v := lo
		if i&1 != 0 {
			v.X = hi.X
		}
		if i&2 != 0 {
			v.Y = hi.Y
		}
		if i&4 != 0 {
			v.Z = hi.Z
		}
		b.Verts = append(b.Verts, v)
	}
	// Faces as quads of corner indices, counter-clockwise seen from
	// outside (y up, so the top's normal points up).
	quads := [][4]int32{
		{2, 6, 7, 3}, // top
		{0, 1, 5, 4}, // bottom
		{0, 2, 3, 1}, // z min
		{4, 5, 7, 6}, // z max
		{0, 4, 6, 2}, // x min
		{1, 3, 7, 5}, // x max
	}
	for _, q := range quads {
		b.Tris = append(b.Tris, [3]int32{base + q[0], base + q[1], base + q[2]}, [3]int32{base + q[0], base + q[2], base + q[3]})
		b.Areas = append(b.Areas, level.AreaWalkable, level.AreaWalkable)
	}
}

// testSoup returns the small test level.
func testSoup() *level.Soup {
	s := &level.Soup{
		Verts: []geom.Vec3{{X: 0, Z: 0}, {X: floorM, Z: 0}, {X: floorM, Z: floorM}, {X: 0, Z: floorM}},
		Tris:  [][3]int32{{0, 2, 1}, {0, 3, 2}},
		Areas: []uint8{level.AreaWalkable, level.AreaWalkable},
	}
	boxSoup(s, geom.V3(wallX0, 0, 0), geom.V3(wallX1, platHighM, wallZ1))
	boxSoup(s, geom.V3(platX0, 0, platX0), geom.V3(platX1, platHighM, platX1))
	return s
}

// testCache builds the tile cache of the test level with the cheap
// rebuild settings (layers, no detail sampling).
func testCache(t testing.TB) *tilecache.Cache {
	t.Helper()
	s := pipeline.DefaultSettings()
	s.Partition = pipeline.Layers
	s.DetailSampleDistCells = 0
	c, err := tilecache.BuildSoup(context.Background(), &s, testSoup(), tilecache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
