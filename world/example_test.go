package world_test

import (
	"context"
	"fmt"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/pipeline"
	"navviz/core/voxel"
	"navviz/tilecache"
	"navviz/world"
)

// Build makes one tile cache per agent size; an obstacle added to the
// World carves every agent's mesh, each grown by its own radius.
func ExampleBuild() {
	agents := []world.Agent{
		{Name: "human", HeightM: 2, RadiusM: 0.6, MaxClimbM: 0.9, MaxSlopeDeg: 45},
		{Name: "truck", HeightM: 3.5, RadiusM: 2, MaxClimbM: 0.3, MaxSlopeDeg: 20},
	}
	w, err := world.Build(context.Background(), pipeline.DefaultSettings(), level.Terrain(1), agents, tilecache.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	id, err := w.AddObstacle(voxel.Cylinder(geom.V3(75, 0, 75), 3, 20))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("obstacle", id, "queued tiles", w.QueueLen() > 0)
	res, err := w.UpdateAll()
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, a := range w.Agents() {
		fmt.Printf("%s: %d tiles rebuilt\n", a.Name, len(res.Agents[i].Tiles))
	}
	// Output:
	// obstacle 1 queued tiles true
	// human: 4 tiles rebuilt
	// truck: 4 tiles rebuilt
}
