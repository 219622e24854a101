package level

import (
	"math"

	"navviz/core/geom"
)

// Terrain layout constants, metres.
const (
	terrainSize  = 150.0 // extent in x and in z
	terrainCell  = 1.5   // heightfield spacing
	terrainCells = 100   // terrainSize / terrainCell
)

// terrainOctave is one layer of value noise: lattice spacing and amplitude.
type terrainOctave struct{ spacing, amp float64 }

// terrainOctaves sum to rolling hills whose slopes stay mostly below 30°.
var terrainOctaves = [...]terrainOctave{{50, 10}, {20, 3}, {8, 0.8}}

// mesa is a raised plateau with a steep rim: radius r to the middle of a rim
// of width rim, raising the ground by height.
type mesa struct{ x, z, r, rim, height float64 }

// Terrain returns generated rolling hills for seed: a 150 m × 150 m
// heightfield (x and z in [0, 150], y up, heights within about ±15 m of 0)
// sampled every 1.5 m, 20 000 triangles facing up, all AreaWalkable (the
// build decides walkability by slope).
//
// The height is the sum of three octaves of value noise (random values on a
// square lattice of 50 m, 20 m and 8 m, blended with smoothstep; amplitudes
// 10 m, 3 m and 0.8 m), which keeps most slopes well under 45°, plus three
// mesas: plateaus 3 to 5 m high with rims 1.5 to 2.5 m wide, steeper than 45°,
// so some of the level is not walkable. Only additions, products (never fused),
// Floor and Sqrt are used, so the same seed gives the same bytes everywhere.
func Terrain(seed uint64) *Soup {
	const n = terrainCells
	heights := terrainHeights(seed)
	var b meshBuilder
	// Line i runs at z = i·cell, line j at x = j·cell: ∂/∂i = +z, ∂/∂j = +x,
	// and z × x = +y, so the surface faces up.
	b.sheet(n, n, func(i, j int) geom.Vec3 {
		return geom.Vec3{
			X: float32(float64(j) * terrainCell),
			Y: float32(heights[i*(n+1)+j]),
			Z: float32(float64(i) * terrainCell),
		}
	}, nil)
	return b.soup()
}

// terrainHeights returns the height in metres of Terrain(seed) at every
// grid point, row by row (z = i·cell, x = j·cell), before rounding to
// float32.
func terrainHeights(seed uint64) []float64 {
	r := newRNG(seed)
	noise := r.next()
	var mesas [3]mesa
	for i := range mesas {
		mesas[i] = mesa{
			x:      lerp(25, 125, r.float()),
			z:      lerp(25, 125, r.float()),
			r:      lerp(7, 14, r.float()),
			rim:    lerp(1.5, 2.5, r.float()),
			height: lerp(3, 5, r.float()),
		}
	}
	const n = terrainCells
	heights := make([]float64, (n+1)*(n+1))
	for i := range n + 1 {
		for j := range n + 1 {
			x, z := float64(float64(j)*terrainCell), float64(float64(i)*terrainCell)
			heights[i*(n+1)+j] = terrainHeight(noise, mesas[:], x, z)
		}
	}
	return heights
}

// terrainHeight returns the ground height in metres at (x, z).
func terrainHeight(seed uint64, mesas []mesa, x, z float64) float64 {
	h := 0.0
	for k, o := range terrainOctaves {
		h += float64(o.amp * valueNoise(seed, k, x/o.spacing, z/o.spacing))
	}
	for _, m := range mesas {
		dx, dz := x-m.x, z-m.z
		d := math.Sqrt(float64(dx*dx) + float64(dz*dz))
		inside := 1 - smoothstep((d-m.r)/m.rim+0.5)
		h += float64(m.height * inside)
	}
	return h
}

// valueNoise returns smooth noise in [-1, 1] at lattice coordinates (u, v):
// random values at integer points, blended with smoothstep in each axis.
func valueNoise(seed uint64, octave int, u, v float64) float64 {
	fu, fv := math.Floor(u), math.Floor(v)
	iu, iv := int64(fu), int64(fv)
	su, sv := smoothstep(u-fu), smoothstep(v-fv)
	a := lerp(lattice(seed, octave, iu, iv), lattice(seed, octave, iu+1, iv), su)
	b := lerp(lattice(seed, octave, iu, iv+1), lattice(seed, octave, iu+1, iv+1), su)
	return lerp(a, b, sv)
}

// lattice returns the random value in [-1, 1) at lattice point (iu, iv).
func lattice(seed uint64, octave int, iu, iv int64) float64 {
	h := mix64(seed ^ 0x6a09e667f3bcc909)
	h = mix64(h ^ uint64(octave))
	h = mix64(h ^ uint64(iu))
	h = mix64(h ^ uint64(iv))
	return float64(float64(h>>11)*0x1p-52) - 1
}
