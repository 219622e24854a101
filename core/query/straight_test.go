package query

import (
	"testing"

	"navviz/core/geom"
)

// TestStraightPathEndOnPortalEnd: an end on the inner corner of an L (the
// end of both portals), at another height or a few micrometres off by
// rounding, is one point with that corner (docs/query.md §5): the path is
// start, end — no corner at the portal's end beside the end, and with
// CrossAll no crossing points micrometres before it.
func TestStraightPathEndOnPortalEnd(t *testing.T) {
	m := meshOf(t, tileData(t, square(0, 0, 5), 0, 0), tileData(t, square(1, 0, 5), 1, 0), tileData(t, square(1, 1, 5), 1, 1))
	sr, sp := nearest(t, m, geom.V3(0.5, 1, 1.5))
	er, _ := nearest(t, m, geom.V3(4.5, 1, 5.5))
	for _, tc := range []struct {
		name string
		end  geom.Vec3
	}{
		{"above the corner", geom.V3(3, 1.5, 3)},
		{"outside by 2 µm", geom.V3(3.000002, 1, 3.000002)},
		{"beside by 2 µm", geom.V3(2.999998, 1, 3.000002)},
		{"inside by 2 µm, higher", geom.V3(3.000002, 1.3, 2.999998)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			corridor, err := FindPath(m, sr, er, sp, tc.end, nil)
			if err != nil || len(corridor) != 3 {
				t.Fatalf("corridor %x, %v; want the 3 squares", corridor, err)
			}
			for _, opt := range []int{0, CrossAll} {
				pts, err := StraightPathDetailed(m, sp, tc.end, corridor, opt)
				if err != nil {
					t.Fatal(err)
				}
				if len(pts) != 2 || pts[0].Pos != sp || pts[1].Pos != tc.end || pts[1].Ref != corridor[2] {
					t.Errorf("options %d: straight path %+v, want start then the end alone", opt, pts)
				}
			}
		})
	}
}
