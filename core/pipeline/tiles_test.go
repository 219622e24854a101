package pipeline

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"navviz/core/geom"
)

func boxOf(x0, y0, z0, x1, y1, z1 float32) geom.Box3 {
	return geom.Box3{Min: geom.V3(x0, y0, z0), Max: geom.V3(x1, y1, z1)}
}

func TestTileGrid(t *testing.T) {
	s := DefaultSettings()
	g, err := NewTileGrid(&s, boxOf(-10, -2, 5, 90, 8, 55))
	if err != nil {
		t.Fatal(err)
	}
	// 100 m / 0.3 m = 333.33 -> 334 cells -> 6 tiles of 64; 50 m -> 167 -> 3.
	if g.CellsX != 334 || g.CellsZ != 167 || g.TilesX != 6 || g.TilesZ != 3 || g.TileCount() != 18 || g.BorderCells != 5 {
		t.Fatalf("grid %+v", g)
	}
	bg, err := g.BuildGrid(2, 1)
	if err != nil {
		t.Fatal(err)
	}
	cs := float32(0.3)
	wantOrigin := geom.V3(-10+float32(float32(2*64-5)*cs), -2, 5+float32(float32(64-5)*cs))
	wantMax := geom.V3(-10+float32(float32(3*64+5)*cs), 8, 5+float32(float32(2*64+5)*cs))
	if bg.Width != 74 || bg.Height != 74 || bg.BorderCells != 5 || bg.OriginM != wantOrigin || bg.MaxM != wantMax {
		t.Errorf("build grid %+v, want origin %v max %v", bg, wantOrigin, wantMax)
	}
	box, _ := g.TileBoxM(2, 1)
	if box.Min.X != g.lineX(128) || box.Max.Z != g.lineZ(128) {
		t.Errorf("tile box %v", box)
	}
	// Neighbouring tiles share edges bit for bit, and the build grid's
	// column BorderCells starts at the tile's min corner.
	b1, _ := g.TileBoxM(3, 1)
	if b1.Min.X != box.Max.X {
		t.Errorf("tile edges differ: %v vs %v", b1.Min.X, box.Max.X)
	}
	for _, bad := range [][2]int{{-1, 0}, {6, 0}, {0, 3}} {
		if _, err := g.BuildGrid(bad[0], bad[1]); err == nil || !strings.Contains(err.Error(), "outside the 6 x 3 tiles") {
			t.Errorf("BuildGrid%v err %v", bad, err)
		}
	}
}

func TestTileAt(t *testing.T) {
	s := DefaultSettings()
	g, err := NewTileGrid(&s, boxOf(-10, -2, 5, 90, 8, 55))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		tx, tz := rng.IntN(g.TilesX), rng.IntN(g.TilesZ)
		box, _ := g.TileBoxM(tx, tz)
		var p geom.Vec3
		switch i % 3 {
		case 0: // inside
			p = geom.V3(box.Min.X+rng.Float32()*(box.Max.X-box.Min.X), 0, box.Min.Z+rng.Float32()*(box.Max.Z-box.Min.Z))
		case 1: // exactly on the min corner
			p = box.Min
		case 2: // just below the max corner
			p = geom.V3(math.Nextafter32(box.Max.X, -1e9), 0, math.Nextafter32(box.Max.Z, -1e9))
		}
		if p.X >= box.Max.X || p.Z >= box.Max.Z {
			continue // rounding of the random point
		}
		gx, gz, err := g.TileAt(p)
		if err != nil || gx != tx || gz != tz {
			t.Fatalf("TileAt(%v) = %d,%d,%v, want %d,%d (box %v)", p, gx, gz, err, tx, tz, box)
		}
	}
	// The far edge of the last tile belongs to it; beyond is an error.
	end := geom.V3(g.lineX(g.TilesX*64), 0, g.lineZ(g.TilesZ*64))
	if tx, tz, err := g.TileAt(end); err != nil || tx != g.TilesX-1 || tz != g.TilesZ-1 {
		t.Errorf("TileAt(far corner) = %d,%d,%v", tx, tz, err)
	}
	for _, p := range []geom.Vec3{
		geom.V3(math.Nextafter32(-10, -20), 0, 10),
		geom.V3(math.Nextafter32(end.X, 1e9), 0, 10),
		geom.V3(0, 0, float32(math.NaN())),
	} {
		if _, _, err := g.TileAt(p); err == nil || !strings.Contains(err.Error(), "outside the tiles") {
			t.Errorf("TileAt(%v) err %v", p, err)
		}
	}
}

func TestNewTileGridErrors(t *testing.T) {
	s := DefaultSettings()
	for _, tc := range []struct {
		b    geom.Box3
		want string
	}{
		{geom.EmptyBox(), "empty"},
		{boxOf(0, 0, 0, float32(math.Inf(1)), 1, 1), "not finite"},
		{boxOf(0, 0, 0, 1, 2000, 1), "rows"},
		{boxOf(-2e6, 0, 0, 2e6, 1, 1), "more than"},
	} {
		s := s
		s.CellSizeM = 0.2
		if _, err := NewTileGrid(&s, tc.b); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("bounds %v: err %v, want %q", tc.b, err, tc.want)
		}
	}
	bad := s
	bad.CellSizeM = -1
	if _, err := NewTileGrid(&bad, boxOf(0, 0, 0, 1, 1, 1)); err == nil || !strings.Contains(err.Error(), "CellSizeM") {
		t.Errorf("invalid settings: %v", err)
	}
	// A point-like level still has one cell and one tile.
	g, err := NewTileGrid(&s, boxOf(3, 3, 3, 3, 3, 3))
	if err != nil || g.TilesX != 1 || g.CellsZ != 1 {
		t.Errorf("point level: %+v %v", g, err)
	}
}
