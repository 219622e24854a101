package tilecache

import (
	"context"
	"errors"
	"strings"
	"testing"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/pipeline"
	"navviz/core/voxel"
)

// TestBuildLimits: every cache entry point refuses a level over the size
// limits with pipeline's *LimitError before building (the levels would
// need hundreds of TB), and the limits given in Options are the ones
// checked.
func TestBuildLimits(t *testing.T) {
	stray := &level.Soup{ // a 20 m floor and one triangle 1e6 m wide
		Verts: []geom.Vec3{geom.V3(0, 0, 0), geom.V3(20, 0, 0), geom.V3(20, 0, 20), geom.V3(0, 0, 20),
			geom.V3(0, 0, 0), geom.V3(1e6, 0, 0), geom.V3(0, 0, 1e6)},
		Tris:  [][3]int32{{0, 2, 1}, {0, 3, 2}, {4, 6, 5}},
		Areas: []uint8{voxel.AreaWalkable, voxel.AreaWalkable, voxel.AreaWalkable},
	}
	s := pipeline.DefaultSettings()
	hf, err := voxel.NewHeightfield(voxel.Grid{Width: 640, Height: 640, CellSizeM: s.CellSizeM, CellHeightM: s.CellHeightM,
		MaxM: geom.V3(192, 10, 192)})
	if err != nil {
		t.Fatal(err)
	}
	chunky, err := level.NewChunky(stray, 256)
	if err != nil {
		t.Fatal(err)
	}
	src, err := pipeline.NewSoupSource(stray, chunky)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tests := []struct {
		name  string
		build func(opt Options) (*Cache, error)
		opt   Options
		limit string
		value int64
	}{
		{"Build", func(o Options) (*Cache, error) { return Build(ctx, &s, src.Named("stray.obj"), o) }, Options{}, "MaxTiles", 52084 * 52084},
		{"BuildSoup", func(o Options) (*Cache, error) { return BuildSoup(ctx, &s, stray, o) }, Options{}, "MaxTiles", 52084 * 52084},
		{"BuildChunk", func(o Options) (*Cache, error) { return BuildChunk(ctx, &s, stray, chunky, o) }, Options{}, "MaxTiles", 52084 * 52084},
		{"BuildHeightfield", func(o Options) (*Cache, error) { return BuildHeightfield(ctx, &s, hf, o) },
			Options{Limits: pipeline.BuildLimits{MaxTiles: 99}}, "MaxTiles", 100},
		{"BuildHeightfield bytes", func(o Options) (*Cache, error) { return BuildHeightfield(ctx, &s, hf, o) },
			Options{Limits: pipeline.BuildLimits{MaxBytes: 1 << 20}}, "MaxBytes", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := tc.build(tc.opt)
			var le *pipeline.LimitError
			if c != nil || !errors.As(err, &le) {
				t.Fatalf("cache %v, error %v; want a *pipeline.LimitError", c != nil, err)
			}
			if le.Limit != tc.limit || (tc.value != 0 && le.Value != tc.value) {
				t.Errorf("limit %s value %d, want %s %d (%v)", le.Limit, le.Value, tc.limit, tc.value, err)
			}
			if tc.name == "Build" && !strings.Contains(err.Error(), `level "stray.obj"`) {
				t.Errorf("error %q does not name the level", err)
			}
		})
	}
	// Within the limits the heightfield cache builds.
	if _, err := BuildHeightfield(ctx, &s, hf, Options{Limits: pipeline.BuildLimits{MaxTiles: 100}}); err != nil {
		t.Errorf("at the limit: %v", err)
	}
}
