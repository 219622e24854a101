package tilecache

import (
	"bytes"
	"strings"
	"testing"

	"navviz/core/geom"
	"navviz/core/voxel"
)

// TestRestoreAll: RestoreAll restores every cache or none; a refused
// snapshot (its index returned) leaves every cache as it was, the areas
// its tiles were last built from included (re-queued tiles are
// unchanged); bad arguments are index -1.
func TestRestoreAll(t *testing.T) {
	a, b := buildTwoSquares(t), buildTwoSquares(t)
	for _, c := range []*Cache{a, b} {
		if _, err := c.AddObstacle(voxel.Cylinder(geom.V3(5, -0.5, 5), 1, 2)); err != nil {
			t.Fatal(err)
		}
		if _, err := c.UpdateAll(); err != nil {
			t.Fatal(err)
		}
	}
	snapA, snapB := snapBytes(t, a), snapBytes(t, b)
	bad := bytes.Clone(snapB)
	bad[len(bad)/2] ^= 1
	for _, tc := range []struct {
		name   string
		caches []*Cache
		snaps  [][]byte
		index  int
		want   string
	}{
		{"lengths", []*Cache{a, b}, [][]byte{snapA}, -1, "2 caches, 1 snapshots"},
		{"same cache", []*Cache{a, a}, [][]byte{snapA, snapA}, -1, "caches 0 and 1 are the same cache"},
		{"second refused", []*Cache{a, b}, [][]byte{snapA, bad}, 1, "checksum"},
		{"unbuilt", []*Cache{a, {}}, [][]byte{snapA, snapB}, 1, "not made by Build"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			i, err := RestoreAll(tc.caches, tc.snaps)
			if i != tc.index || err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("RestoreAll = %d, %v; want %d and an error containing %q", i, err, tc.index, tc.want)
			}
			for k, c := range []*Cache{a, b} {
				if !bytes.Equal(snapBytes(t, c), [][]byte{snapA, snapB}[k]) {
					t.Fatalf("cache %d changed", k)
				}
				for _, p := range c.CachedTiles() {
					if err := c.QueueTile(p[0], p[1]); err != nil {
						t.Fatal(err)
					}
				}
				res, err := c.UpdateAll()
				if err != nil {
					t.Fatal(err)
				}
				for _, u := range res.Tiles {
					if u.Rebuild != RebuildUnchanged {
						t.Fatalf("cache %d tile (%d, %d): %v after a refused RestoreAll, want unchanged", k, u.TX, u.TZ, u.Rebuild)
					}
				}
			}
		})
	}
	if i, err := RestoreAll([]*Cache{a, b}, [][]byte{snapB, snapA}); err != nil {
		t.Fatalf("RestoreAll of good snapshots: %d, %v", i, err)
	}
}
