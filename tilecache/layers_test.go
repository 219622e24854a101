package tilecache

import (
	"context"
	"testing"

	"navviz/core/geom"
	"navviz/core/pipeline"
	"navviz/core/voxel"
)

// TestGeneralLayersBakedEqualsCached: with the layer partition on the
// general path (detail sampling on), a cylinder of radius 8 m (the tile's
// full height) at the centre of every multi-layer tile of city, added to
// the cache at run time, gives the plain build with the cylinders baked
// into the settings, byte for byte. Both keep each span's layer from the
// first build (split on the eroded areas, build3d-runtime.md "What is
// cached"); a split on the marked areas would change the layers of most of
// these tiles (pipeline's TestGeneralLayersKeepSplit).
func TestGeneralLayersBakedEqualsCached(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	k := config{"city", pipeline.Layers, false}
	f := getFixture(t, k)
	c := f.reset(t)
	s := k.settings()
	b, err := pipeline.BuildLevel(context.Background(), &s, f.src, pipeline.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var obs []voxel.Obstacle
	for i := range b.Tiles {
		tb := &b.Tiles[i]
		if tb.LayerFirst {
			t.Fatal("built layer first")
		}
		if tb.Regions.LayerCount < 2 {
			continue
		}
		box, err := b.Grid.TileBoxM(tb.TX, tb.TZ)
		if err != nil {
			t.Fatal(err)
		}
		ctr := box.Center()
		obs = append(obs, voxel.Cylinder(geom.V3(ctr.X, box.Min.Y, ctr.Z), 8, box.Max.Y-box.Min.Y))
	}
	if len(obs) == 0 {
		t.Fatal("city has no multi-layer tile")
	}
	for _, o := range obs {
		if _, err := c.AddObstacle(o); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.UpdateAll(); err != nil {
		t.Fatal(err)
	}
	baked := withShapes(s, obs, nil)
	if err := sameTiles(meshTiles(t, c.Mesh()), plainTiles(t, &baked, f.src)); err != nil {
		t.Errorf("%d run-time cylinders vs baked: %v", len(obs), err)
	}
	t.Logf("%d cylinders on the multi-layer tiles of city: cached equals baked", len(obs))
}
