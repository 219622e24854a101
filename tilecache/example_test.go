package tilecache_test

import (
	"context"
	"fmt"
	"log"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/pipeline"
	"navviz/core/voxel"
	"navviz/tilecache"
)

// Build a level with a cache, put an obstacle and a costly area on it at
// run time, rebuild the queued tiles a few per frame, then take the
// obstacle away again.
func Example() {
	soup, err := level.Builtin("terrain")
	if err != nil {
		log.Fatal(err)
	}
	// The cheap rebuild setting: layers, no detail height sampling.
	s := pipeline.DefaultSettings()
	s.Partition = pipeline.Layers
	s.DetailSampleDistCells = 0
	c, err := tilecache.BuildSoup(context.Background(), &s, soup, tilecache.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("navmesh tiles:", c.Mesh().TileCount())

	// A barrel 1.5 m across standing on the hills (its height range spans
	// every floor there), and a swamp (area 5) next to it.
	barrel, err := c.AddObstacle(voxel.Cylinder(geom.V3(95, -10, 83), 0.75, 30))
	if err != nil {
		log.Fatal(err)
	}
	swamp := voxel.ConvexVolume{
		VertsXZ: [][2]float32{{98, 80}, {110, 80}, {110, 90}, {98, 90}},
		MinYM:   -10, MaxYM: 20, Area: 5,
	}
	if _, err := c.AddVolume(swamp); err != nil {
		log.Fatal(err)
	}
	fmt.Println("obstacle", barrel, "queued tiles:", c.QueueLen())

	// A game loop would call Update with a small budget every frame.
	for frame := 1; c.QueueLen() > 0; frame++ {
		r, err := c.Update(2)
		if err != nil {
			log.Fatal(err)
		}
		for _, u := range r.Tiles {
			fmt.Printf("frame %d: tile (%d, %d) %v\n", frame, u.TX, u.TZ, u.Rebuild)
		}
	}

	if err := c.RemoveObstacle(barrel); err != nil {
		log.Fatal(err)
	}
	r, err := c.UpdateAll()
	if err != nil {
		log.Fatal(err)
	}
	for _, u := range r.Tiles {
		fmt.Printf("after removal: tile (%d, %d) %v\n", u.TX, u.TZ, u.Rebuild)
	}
	// Tile (4, 4) gets its first build back; (5, 4) still has the swamp.

	// Output:
	// navmesh tiles: 64
	// obstacle 1 queued tiles: 2
	// frame 1: tile (4, 4) built
	// frame 1: tile (5, 4) built
	// after removal: tile (4, 4) first-build
	// after removal: tile (5, 4) built
}

// Save the run-time state and restore it later (in the same process, or
// in another one that built a cache from the same level and settings).
func ExampleCache_Snapshot() {
	soup, err := level.Builtin("terrain")
	if err != nil {
		log.Fatal(err)
	}
	s := pipeline.DefaultSettings()
	c, err := tilecache.BuildSoup(context.Background(), &s, soup, tilecache.Options{})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := c.AddObstacle(voxel.Box(geom.V3(40, -10, 40), geom.V3(44, 20, 41))); err != nil {
		log.Fatal(err)
	}
	saved, err := c.Snapshot()
	if err != nil {
		log.Fatal(err)
	}
	// More changes...
	if _, err := c.UpdateAll(); err != nil {
		log.Fatal(err)
	}
	if err := c.RemoveObstacle(1); err != nil {
		log.Fatal(err)
	}
	// ... and back: the obstacle and the queue are there again.
	if err := c.Restore(saved); err != nil {
		log.Fatal(err)
	}
	fmt.Println("obstacles:", len(c.Obstacles()), "queued tiles:", c.QueueLen())

	// A corrupt snapshot is refused and changes nothing.
	saved[len(saved)/2] ^= 1
	fmt.Println(c.Restore(saved) != nil, len(c.Obstacles()), c.QueueLen())
	// Output:
	// obstacles: 1 queued tiles: 4
	// true 1 4
}

// Build from any pipeline.Source (here a soup with its chunky mesh) with a
// progress report; the mesh is the plain build's.
func ExampleBuild() {
	soup, err := level.Builtin("terrain")
	if err != nil {
		log.Fatal(err)
	}
	chunky, err := level.NewChunky(soup, 256)
	if err != nil {
		log.Fatal(err)
	}
	src, err := pipeline.NewSoupSource(soup, chunky)
	if err != nil {
		log.Fatal(err)
	}
	s := pipeline.DefaultSettings()
	done := 0
	c, err := tilecache.Build(context.Background(), &s, src, tilecache.Options{
		Progress: func(doneTiles, totalTiles int) { done = doneTiles },
	})
	if err != nil {
		log.Fatal(err)
	}
	plain, err := pipeline.BuildLevel(context.Background(), &s, src, pipeline.BuildOptions{})
	if err != nil {
		log.Fatal(err)
	}
	a, _ := c.Mesh().MarshalBinary()
	b, _ := plain.Mesh.MarshalBinary()
	fmt.Println("tiles built:", done, "cached:", len(c.CachedTiles()), "same mesh as the plain build:", string(a) == string(b))
	// Output:
	// tiles built: 64 cached: 64 same mesh as the plain build: true
}
