package polymesh

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMergeRandomTriangleSoups compares mergePolys with mergePolysFullScan
// (every pair evaluated in every round) on random soups of triangles over
// a few vertices of a small grid: triangles repeated (in any rotation),
// edges shared by three or more triangles, pairs sharing several edges,
// and merged polygons that hold an edge twice, which contours rarely
// give. The polygons, their count and the calls of move must be the same.
func TestMergeRandomTriangleSoups(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 13))
	type moveCall struct {
		dst, src int
		merged   bool
	}
	run := func(verts [][3]uint16, tris []uint16, nvp int, plain bool) ([]uint16, []moveCall) {
		b := &builder{nvp: nvp, plain: plain, m: &Mesh{Verts: verts}}
		b.cmap = CoordMap{CellSizeM: 0.3, CellHeightM: 0.2, WidthCells: 16, HeightCells: 16}
		b.o = newOrienter(&b.cmap)
		polys := slices.Clone(tris)
		var moves []moveCall
		n := b.mergePolys(polys, len(polys)/nvp, func(dst, src int, merged bool) {
			moves = append(moves, moveCall{dst, src, merged})
		})
		return polys[:n*nvp], moves
	}
	merges := 0
	for it := 0; it < 10000; it++ {
		nv := 4 + r.IntN(7)
		verts := make([][3]uint16, nv)
		for i := range verts {
			verts[i] = [3]uint16{uint16(r.IntN(7)), uint16(r.IntN(3)), uint16(r.IntN(7))}
		}
		nvp := MinVertsPerPoly + 1 + r.IntN(MaxVertsPerPoly-MinVertsPerPoly)
		var tris []uint16
		for n := 1 + r.IntN(16); len(tris) < n*nvp; {
			a, b, c := r.IntN(nv), r.IntN(nv), r.IntN(nv)
			if a == b || b == c || a == c {
				continue
			}
			va, vb, vc := verts[a], verts[b], verts[c]
			switch d := area2(int(va[0]), int(va[2]), int(vb[0]), int(vb[2]), int(vc[0]), int(vc[2])); {
			case d == 0 && r.IntN(4) != 0:
				continue
			case d > 0 && r.IntN(8) != 0: // mostly the turn of contours
				a, c = c, a
			}
			tris = append(tris, uint16(a), uint16(b), uint16(c))
			for range nvp - 3 {
				tris = append(tris, NullIndex)
			}
		}
		fast, fastMoves := run(verts, tris, nvp, false)
		plain, plainMoves := run(verts, tris, nvp, true)
		if !slices.Equal(fast, plain) || !slices.Equal(fastMoves, plainMoves) {
			t.Fatalf("iteration %d (nvp %d, vertices %v, triangles %v): kept pairs give %v (moves %v), every pair %v (moves %v)",
				it, nvp, verts, tris, fast, fastMoves, plain, plainMoves)
		}
		merges += len(plainMoves) / 2
	}
	t.Logf("%d merges", merges)
}
