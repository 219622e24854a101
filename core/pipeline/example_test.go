package pipeline_test

import (
	"context"
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

// BuildLevel builds every tile of a level on several goroutines (steps 1-3,
// then regions, contours, polygons, detail and tile data) and adds the
// tiles' navmesh tiles to a navmesh.Mesh; the tiles come back in row-major
// order, the same for any number of workers. A 30 m floor is 2 x 2 tiles of
// 19.2 m; span counts cover each tile's whole build grid (its border ring
// included); the walkable area is the floor less the strip erosion removes
// along its edges (3 cells, 0.9 m: 28.2 m x 28.2 m).
func ExampleBuildLevel() {
	soup := &level.Soup{
		Verts: []geom.Vec3{geom.V3(0, 0, 0), geom.V3(0, 0, 30), geom.V3(30, 0, 30), geom.V3(30, 0, 0)},
		Tris:  [][3]int32{{0, 1, 2}, {0, 2, 3}},
		Areas: []uint8{level.AreaWalkable, level.AreaWalkable},
	}
	src, err := pipeline.NewSoupSource(soup, nil)
	if err != nil {
		panic(err)
	}
	s := pipeline.DefaultSettings()
	b, err := pipeline.BuildLevel(context.Background(), &s, src, pipeline.BuildOptions{
		Workers:  2,
		Progress: func(done, total int) { fmt.Printf("tile %d of %d\n", done, total) },
	})
	if err != nil {
		panic(err)
	}
	for _, t := range b.Tiles {
		fmt.Printf("tile (%d, %d): %d walkable spans, %d polygons\n", t.TX, t.TZ, t.WalkableSpans, t.Counts.Polys)
	}
	fmt.Println("walkable spans:", b.WalkableSpans)
	fmt.Printf("navmesh: %d tiles, %d polygons, %.2f m² walkable\n", b.Mesh.TileCount(), b.Polys, b.WalkableAreaM2)
	// Output:
	// tile 1 of 4
	// tile 2 of 4
	// tile 3 of 4
	// tile 4 of 4
	// tile (0, 0): 3969 walkable spans, 2 polygons
	// tile (1, 0): 2205 walkable spans, 2 polygons
	// tile (0, 1): 2205 walkable spans, 2 polygons
	// tile (1, 1): 1225 walkable spans, 1 polygons
	// walkable spans: 9604
	// navmesh: 4 tiles, 7 polygons, 795.24 m² walkable
}

// BuildSolo builds the whole level as one tile with no border, as Recast's
// solo mesh does: one navmesh tile, no portal edges (the 28.2 m square's
// sides are split every 12 m at most, hence 9 polygons).
func ExampleBuildSolo() {
	soup := &level.Soup{
		Verts: []geom.Vec3{geom.V3(0, 0, 0), geom.V3(0, 0, 30), geom.V3(30, 0, 30), geom.V3(30, 0, 0)},
		Tris:  [][3]int32{{0, 1, 2}, {0, 2, 3}},
		Areas: []uint8{level.AreaWalkable, level.AreaWalkable},
	}
	src, err := pipeline.NewSoupSource(soup, nil)
	if err != nil {
		panic(err)
	}
	s := pipeline.DefaultSettings()
	b, err := pipeline.BuildSolo(context.Background(), &s, src, pipeline.BuildOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("grid %d x %d cells, %d navmesh tile, %d regions, %d polygons, %.2f m² walkable\n",
		b.Grid.CellsX, b.Grid.CellsZ, b.NavTiles, b.Regions, b.Polys, b.WalkableAreaM2)
	// Output:
	// grid 100 x 100 cells, 1 navmesh tile, 1 regions, 9 polygons, 795.24 m² walkable
}
