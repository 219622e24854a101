package polymesh

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"navviz/core/level"
	"navviz/core/voxel"
)

// towerSoup returns a tower of floors square floors of side sideM, 3 m
// apart (two triangles each).
func towerSoup(t *testing.T, sideM float64, floors int) *level.Soup {
	t.Helper()
	var b strings.Builder
	for i := 0; i < floors; i++ {
		y := float64(i) * 3
		fmt.Fprintf(&b, "v 0 %g 0\nv %g %g 0\nv %g %g %g\nv 0 %g %g\n", y, sideM, y, sideM, y, sideM, y, sideM)
		fmt.Fprintf(&b, "f %d %d %d\nf %d %d %d\n", 4*i+1, 4*i+3, 4*i+2, 4*i+1, 4*i+4, 4*i+3)
	}
	soup, err := level.ReadOBJ(strings.NewReader(b.String()), "tower.obj")
	if err != nil {
		t.Fatal(err)
	}
	return soup
}

// TestDetailRegionIndexMatchesScan builds the detail meshes of a tower of
// 30 floors and of the dungeon with the regions' span index and with the
// scan of every column's spans: the same meshes.
func TestDetailRegionIndexMatchesScan(t *testing.T) {
	defer func(v int) { indexMinSpans = v }(indexMinSpans)
	for _, tc := range []struct {
		name string
		chf  func() *voxel.CompactHeightfield
	}{
		{"tower", func() *voxel.CompactHeightfield { return soloCHF(t, towerSoup(t, 12, 30)) }},
		{"dungeon", func() *voxel.CompactHeightfield { return dungeonCHF(t) }},
	} {
		chf := tc.chf()
		for _, p := range []partition{watershed, monotone} {
			indexMinSpans = 0
			r := buildSolo(t, chf, p)
			if newRegionSpans(chf, r.regs.IDs) == nil {
				t.Fatalf("%s: no index", tc.name)
			}
			indexMinSpans = 1 << 30
			plain, err := BuildDetail(r.mesh, chf, r.regs.IDs, tSampleDistM, tMaxErrorM)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(r.detail, plain) {
				t.Errorf("%s %v: detail with the index differs from the scan's", tc.name, p)
			}
			t.Logf("%s %v: %d polygons, %d detail triangles", tc.name, p, r.mesh.PolyCount(), len(plain.Tris))
		}
	}
}
