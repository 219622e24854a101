package query

import (
	"math/rand/v2"
	"testing"

	"navviz/core/geom"
	"navviz/core/navmesh"
)

// BenchmarkFindPathCity times FindPath on 100 seeded pairs of points of
// the city (one op: all 100 pairs).
func BenchmarkFindPathCity(b *testing.B) {
	m := levelMesh(b, "city")
	polys := allPolys(m)
	rng := rand.New(rand.NewPCG(11, 11))
	type pair struct {
		a, z   navmesh.PolyRef
		pa, pz geom.Vec3
	}
	var pairs []pair
	for len(pairs) < 100 {
		a, z := polys[rng.IntN(len(polys))], polys[rng.IntN(len(polys))]
		pairs = append(pairs, pair{a, z, pointOnPoly(b, m, a, rng), pointOnPoly(b, m, z, rng)})
	}
	b.ResetTimer()
	for range b.N {
		for _, p := range pairs {
			FindPath(m, p.a, p.z, p.pa, p.pz, nil)
		}
	}
}
