package pipeline

import (
	"bytes"
	"testing"

	"github.com/cespare/xxhash/v2"

	"navviz/core/level"
	"navviz/core/level/leveltest"
)

// sharedLevel is leveltest.Load: a shared test level, skipping the test
// when it is absent (the benchmarks call it).
var sharedLevel = leveltest.Load

func chunkySource(t testing.TB, s *level.Soup) *Source {
	t.Helper()
	c, err := level.NewChunky(s, 256)
	if err != nil {
		t.Fatal(err)
	}
	src, err := NewSoupSource(s, c)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestSharedLevels builds steps 1-3 of every tile of the shared test levels
// with the default settings and pins the number of walkable spans (non-zero
// area after erosion), the tile count and a hash of all tiles.
func TestSharedLevels(t *testing.T) {
	for _, tc := range []struct {
		name     string
		tiles    int
		walkable int
		hash     uint64
	}{
		{"dungeon.obj", 24, 18746, 0x16acf9f534ef5732},
		{"nav_test.obj", 25, 49618, 0x9dbcf733e894c78d},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := DefaultSettings()
			soup := leveltest.Load(t, tc.name)
			src := chunkySource(t, soup)
			tiles := buildAll(t, &s, src)
			got := walkableTotal(t, tiles)
			t.Logf("%s: %d tiles, %d walkable spans", tc.name, len(tiles), got)
			if len(tiles) != tc.tiles || got != tc.walkable {
				t.Errorf("%d tiles with %d walkable spans, want %d and %d", len(tiles), got, tc.tiles, tc.walkable)
			}
			if h := xxhash.Sum64(bytes.Join(tiles, nil)); h != tc.hash {
				t.Errorf("hash of all tiles %#x, want %#x", h, tc.hash)
			}
			// The chunky query and the full scan give the same bytes.
			plain, err := NewSoupSource(soup, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i, b := range buildAll(t, &s, plain) {
				if !bytes.Equal(b, tiles[i]) {
					t.Fatalf("tile %d differs between chunky and full scan", i)
				}
			}
		})
	}
}
