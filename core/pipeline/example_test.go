package pipeline_test

import (
	"fmt"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/pipeline"
)

// A 10 m x 10 m floor at y = 0 is one tile with the default settings; steps
// 1-3 give its open spans, eroded by the agent radius (2 cells) along the
// floor's edges.
func ExampleBuildTileSpans() {
	soup := &level.Soup{
		Verts: []geom.Vec3{geom.V3(0, 0, 0), geom.V3(0, 0, 10), geom.V3(10, 0, 10), geom.V3(10, 0, 0)},
		Tris:  [][3]int32{{0, 1, 2}, {0, 2, 3}},
		Areas: []uint8{level.AreaWalkable, level.AreaWalkable},
	}
	chunky, err := level.NewChunky(soup, 256)
	if err != nil {
		panic(err)
	}
	src, err := pipeline.NewSoupSource(soup, chunky)
	if err != nil {
		panic(err)
	}
	s := pipeline.DefaultSettings()
	grid, err := src.TileGrid(&s)
	if err != nil {
		panic(err)
	}
	fmt.Printf("level: %d x %d cells, %d x %d tiles\n", grid.CellsX, grid.CellsZ, grid.TilesX, grid.TilesZ)

	chf, err := pipeline.BuildTileSpans(&s, src, 0, 0, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("build grid: %d x %d columns, border %d\n", chf.Width, chf.Height, chf.BorderCells)
	fmt.Printf("open spans: %d, walkable after erosion: %d\n", chf.SpanCount(), chf.WalkableSpanCount())
	// Output:
	// level: 34 x 34 cells, 1 x 1 tiles
	// build grid: 74 x 74 columns, border 5
	// open spans: 1024, walkable after erosion: 784
}
