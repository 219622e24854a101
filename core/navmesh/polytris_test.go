package navmesh

import (
	"math"
	"testing"

	"navviz/core/geom"
)

// TestPolyTris checks that a polygon's triangles cover exactly its x/z area,
// with the detail mesh (a raised centre fan) and without it (the corner fan
// BuildTileData stores for a nil detail).
func TestPolyTris(t *testing.T) {
	m := twoColumns(0, 0, 2)
	for _, tc := range []struct {
		name     string
		raise    float32
		detail   bool
		wantTris int
	}{
		{"corner fan", 0, false, 2},
		{"centre fan", 0.5, true, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var data []byte
			if tc.detail {
				data = mustBuild(t, m, centreDetail(m, tc.raise), params(0, 0, 0))
			} else {
				data = mustBuild(t, m, nil, params(0, 0, 0))
			}
			tile, err := DecodeTile(data)
			if err != nil {
				t.Fatal(err)
			}
			for i := range tile.Polys {
				n, area, raised := 0, 0.0, false
				tile.PolyTris(i, func(k int, a, b, c geom.Vec3, _ uint8) {
					if k != n {
						t.Errorf("poly %d: triangle %d numbered %d", i, n, k)
					}
					n++
					ux, uz := float64(b.X-a.X), float64(b.Z-a.Z)
					vx, vz := float64(c.X-a.X), float64(c.Z-a.Z)
					area += math.Abs(float64(ux*vz)-float64(uz*vx)) / 2
					raised = raised || c.Y > a.Y || b.Y > a.Y
				})
				if n != tc.wantTris {
					t.Errorf("poly %d: %d triangles, want %d", i, n, tc.wantTris)
				}
				want := 5 * 10 * float64(tile.Header.CellSizeM) * float64(tile.Header.CellSizeM)
				if math.Abs(area-want) > 1e-4 {
					t.Errorf("poly %d: triangles cover %.5f m², want %.5f", i, area, want)
				}
				if raised != tc.detail {
					t.Errorf("poly %d: raised vertex = %v, want %v", i, raised, tc.detail)
				}
			}
			tile.PolyTris(-1, func(int, geom.Vec3, geom.Vec3, geom.Vec3, uint8) { t.Error("called for polygon -1") })
			tile.PolyTris(len(tile.Polys), func(int, geom.Vec3, geom.Vec3, geom.Vec3, uint8) { t.Error("called past the last polygon") })
		})
	}
}
