package agent_test

import (
	"context"
	"fmt"
	"log"

	"navviz/core/agent"
	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/pipeline"
	"navviz/core/voxel"
	"navviz/tilecache"
)

// Spawn a crowd on the terrain's tile cache, let it walk, drop an obstacle
// into its way and watch the agents whose corridors the swap made stale
// plan again.
func Example() {
	soup, err := level.Builtin("terrain")
	if err != nil {
		log.Fatal(err)
	}
	s := pipeline.DefaultSettings()
	s.Partition = pipeline.Layers
	s.DetailSampleDistCells = 0
	c, err := tilecache.BuildSoup(context.Background(), &s, soup, tilecache.Options{})
	if err != nil {
		log.Fatal(err)
	}
	target := geom.V3(95, 0, 83)
	crowd, err := agent.New(c.Mesh(), agent.Config{Count: 10, Seed: 1, Target: &target})
	if err != nil {
		log.Fatal(err)
	}
	// Five seconds at 60 steps a second.
	if err := crowd.Advance(c.Mesh(), 300); err != nil {
		log.Fatal(err)
	}
	// A wide barrel on the target: the corridors that lead there end in a
	// swapped tile (the unreachable agent's partial one does not).
	if _, err := c.AddObstacle(voxel.Cylinder(geom.V3(95, -10, 83), 3, 30)); err != nil {
		log.Fatal(err)
	}
	if _, err := c.UpdateAll(); err != nil {
		log.Fatal(err)
	}
	if err := crowd.Step(c.Mesh()); err != nil {
		log.Fatal(err)
	}
	replans := 0
	for _, a := range crowd.Agents() {
		replans += a.Replans
	}
	n := crowd.Counts()
	fmt.Printf("%.2f s: %d moving, %d arrived, %d unreachable\n", crowd.TimeS(), n[agent.Moving], n[agent.Arrived], n[agent.Unreachable])
	fmt.Printf("re-plans after the swap: %d, stale refs: %v\n", replans, crowd.CheckRefs(c.Mesh(), 1e-3))
	// Output:
	// 5.02 s: 9 moving, 0 arrived, 1 unreachable
	// re-plans after the swap: 9, stale refs: <nil>
}
