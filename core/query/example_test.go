package query_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/pipeline"
	"navviz/core/query"
)

// ExampleFindPath builds the built-in terrain with the default settings,
// draws two seeded random points of the mesh, snaps a click 0.5 m above
// each back to the mesh (it keeps its x and z), and asks for the corridor
// and the straight path between them with the default filter.
func ExampleFindPath() {
	soup, err := level.Builtin("terrain")
	if err != nil {
		log.Fatal(err)
	}
	src, err := pipeline.NewSoupSource(soup, nil)
	if err != nil {
		log.Fatal(err)
	}
	s := pipeline.DefaultSettings()
	b, err := pipeline.BuildLevel(context.Background(), &s, src, pipeline.BuildOptions{})
	if err != nil {
		log.Fatal(err)
	}
	m, f := b.Mesh, query.DefaultFilter()
	rng := rand.New(rand.NewPCG(1, 2))
	snap := func() (geom.Vec3, geom.Vec3) {
		_, p, err := query.RandomPoint(m, f, rng)
		if err != nil {
			log.Fatal(err)
		}
		_, q, err := query.NearestPoly(m, p.Add(geom.V3(0, 0.5, 0)), geom.V3(2, 4, 2))
		if err != nil {
			log.Fatal(err)
		}
		return p, q
	}
	pa, qa := snap()
	pz, qz := snap()
	ra, _, _ := query.NearestPoly(m, qa, geom.V3(2, 4, 2))
	rz, _, _ := query.NearestPoly(m, qz, geom.V3(2, 4, 2))
	corridor, err := query.FindPath(m, ra, rz, qa, qz, f)
	if err != nil && !errors.Is(err, query.ErrPartial) {
		log.Fatal(err)
	}
	end := qz
	if err != nil { // partial: walk to the nearest point of the last polygon
		end, _ = query.ClosestPointOnPoly(m, corridor[len(corridor)-1], qz)
	}
	pts, err := query.StraightPath(m, qa, end, corridor)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("clicks keep x, z:", qa.X == pa.X && qa.Z == pa.Z && qz.X == pz.X && qz.Z == pz.Z)
	fmt.Println("path from the start:", pts[0] == qa, "to the end:", pts[len(pts)-1] == end)
	// Output:
	// clicks keep x, z: true
	// path from the start: true to the end: true
}
