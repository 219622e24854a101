package navmesh

import (
	"testing"
)

// TestDiff: tile layers are matched by place; a layer only one side has is
// added or removed, one with other data or other run-time flags is
// changed, and the order tiles came in (their slots) does not count.
func TestDiff(t *testing.T) {
	cols := func(tx, tz int32) []byte { return mustBuild(t, twoColumns(tx, tz, 2), nil, params(tx, tz, 0)) }
	rows := func(tx, tz int32) []byte { return mustBuild(t, twoRows(tx, tz, 2), nil, params(tx, tz, 0)) }
	mesh := func(tiles ...[]byte) *Mesh {
		m := NewMesh()
		for _, d := range tiles {
			mustAdd(t, m, d)
		}
		return m
	}
	base := func() *Mesh { return mesh(cols(0, 0), cols(1, 0)) }
	flagged := base()
	ref := flagged.Tiles()[1]
	if err := flagged.SetPolyFlags(PolyRef(ref)|1, 0x8); err != nil {
		t.Fatal(err)
	}
	type change struct {
		key TileKey
		ch  TileChange
	}
	for _, tc := range []struct {
		name string
		a, b *Mesh
		want []change
	}{
		{"same", base(), base(), nil},
		{"other order", base(), mesh(cols(1, 0), cols(0, 0)), nil},
		{"added", base(), mesh(cols(0, 0), cols(1, 0), cols(0, 1)), []change{{TileKey{0, 1, 0}, TileAdded}}},
		{"removed", base(), mesh(cols(1, 0)), []change{{TileKey{0, 0, 0}, TileRemoved}}},
		{"changed data", base(), mesh(rows(0, 0), cols(1, 0)), []change{{TileKey{0, 0, 0}, TileChanged}}},
		{"changed flags", base(), flagged, []change{{TileKey{1, 0, 0}, TileChanged}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Diff(tc.a, tc.b)
			if err != nil {
				t.Fatal(err)
			}
			var got []change
			for _, td := range d.Tiles {
				got = append(got, change{td.Key, td.Change})
			}
			if len(got) != len(tc.want) {
				t.Fatalf("changes %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("change %d: %v, want %v", i, got[i], tc.want[i])
				}
			}
			if d.Identical() != (len(tc.want) == 0) {
				t.Errorf("Identical() = %v", d.Identical())
			}
			if d.TilesA != tc.a.TileCount() || d.TilesB != tc.b.TileCount() {
				t.Errorf("tile counts %d, %d", d.TilesA, d.TilesB)
			}
		})
	}
	// Against an empty mesh every tile layer is removed, with its area.
	d, _ := Diff(base(), mesh())
	if d.AreaBM2 != 0 || d.AreaAM2 <= 0 || d.PolysA != 4 || len(d.Tiles) != 2 {
		t.Errorf("against an empty mesh: %+v", d)
	}
	if _, err := Diff(nil, base()); err == nil {
		t.Error("Diff(nil, m) gave no error")
	}
}
