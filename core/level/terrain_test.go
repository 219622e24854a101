package level

import (
	"math"
	"testing"
)

// Golden xxhash64 of WriteOBJ(Terrain(DefaultSeed)).
const terrainGoldenHash uint64 = 0x3425210cf0c8e319

func TestTerrainDeterministic(t *testing.T) {
	h1 := objHash(t, Terrain(DefaultSeed))
	h2 := objHash(t, Terrain(DefaultSeed))
	if h1 != h2 {
		t.Fatalf("Terrain(%d) twice: OBJ hashes %#016x and %#016x", DefaultSeed, h1, h2)
	}
	if h1 != terrainGoldenHash {
		t.Errorf("Terrain(%d) OBJ xxhash64 = %#016x, golden %#016x", DefaultSeed, h1, terrainGoldenHash)
	}
	if h3 := objHash(t, Terrain(DefaultSeed+1)); h3 == h1 {
		t.Errorf("Terrain(%d) and Terrain(%d) have the same OBJ bytes", DefaultSeed, DefaultSeed+1)
	}
}

// TestTerrainShape checks size, winding (a heightfield faces up everywhere)
// and slopes: mostly walkable, with some steep mesa rims.
func TestTerrainShape(t *testing.T) {
	for _, seed := range citySeeds {
		s := Terrain(seed)
		checkSoup(t, s)
		if n := len(s.Tris); n != 2*terrainCells*terrainCells {
			t.Errorf("seed %d: %d triangles, want %d", seed, n, 2*terrainCells*terrainCells)
		}
		b := s.Bounds()
		if b.Min.X != 0 || b.Min.Z != 0 || b.Max.X != terrainSize || b.Max.Z != terrainSize {
			t.Errorf("seed %d: bounds %v, want x and z in [0, 150]", seed, b)
		}
		if rise := b.Max.Y - b.Min.Y; rise < 5 || rise > 50 {
			t.Errorf("seed %d: height range %g m, want 5-50", seed, rise)
		}
		steep := 0
		for i := range s.Tris {
			n, _ := triNormal(s, i)
			if n[1] <= 0 {
				t.Fatalf("seed %d: triangle %d faces down (normal %v)", seed, i, n)
			}
			if n[1] < cosMaxSlope {
				steep++
			}
		}
		if frac := float64(steep) / float64(len(s.Tris)); frac < 0.005 || frac > 0.1 {
			t.Errorf("seed %d: %.2f%% of triangles steeper than 45°, want 0.5-10%%", seed, 100*frac)
		}
	}
}

// TestValueNoise checks the noise stays in [-1, 1], is continuous across
// lattice lines and interpolates the lattice values at lattice points.
func TestValueNoise(t *testing.T) {
	for iu := int64(-3); iu <= 3; iu++ {
		for iv := int64(-3); iv <= 3; iv++ {
			if got, want := valueNoise(9, 0, float64(iu), float64(iv)), lattice(9, 0, iu, iv); got != want {
				t.Fatalf("noise at lattice point (%d, %d) = %g, want %g", iu, iv, got, want)
			}
		}
	}
	for u := -2.0; u < 2; u += 0.0625 {
		for v := -2.0; v < 2; v += 0.0625 {
			n := valueNoise(9, 1, u, v)
			if n < -1 || n > 1 {
				t.Fatalf("noise(%g, %g) = %g out of [-1, 1]", u, v, n)
			}
			if d := math.Abs(valueNoise(9, 1, u+1e-9, v) - n); d > 1e-6 {
				t.Fatalf("noise jumps by %g at (%g, %g)", d, u, v)
			}
		}
	}
}
