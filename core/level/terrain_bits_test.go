package level

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/cespare/xxhash/v2"
)

// terrainHeightsHash is the xxhash64 of the float64 bits (little-endian) of
// terrainHeights(DefaultSeed). The float32 mesh hides differences in the
// last float64 bits; this pins them, so that the test fails on a platform
// that fuses a product the code leaves unrounded: before smoothstep rounded
// its product, arm64 and riscv64 gave 0xf7f84bcda8a36f86 (41 of the 10,201
// heights differed; cmd/navmesh's TestPinnedBitsUnderQemu runs this test on
// every target that fuses).
const terrainHeightsHash = 0x89362066bdb6d92d

// TestTerrainHeightBits compares the float64 heights behind the terrain
// with terrainHeightsHash.
func TestTerrainHeightBits(t *testing.T) {
	h := xxhash.New()
	var b [8]byte
	for _, y := range terrainHeights(DefaultSeed) {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(y))
		h.Write(b[:])
	}
	if got := h.Sum64(); got != terrainHeightsHash {
		t.Errorf("terrain heights hash %#016x, want %#016x", got, uint64(terrainHeightsHash))
	}
}
