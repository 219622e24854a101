package navmesh

import (
	"bytes"
	"strings"
	"testing"
)

// TestFinishTile: a built tile stripped of its derived fields (bounds,
// vertical origin, BV tree) is completed to the same data; bad records are
// errors that leave the tile as it was, never a panic.
func TestFinishTile(t *testing.T) {
	data, err := BuildTileData(twoColumns(0, 0, 3), nil, TileParams{WalkableClimbM: 0.9})
	if err != nil {
		t.Fatal(err)
	}
	built, err := DecodeTile(data)
	if err != nil {
		t.Fatal(err)
	}
	strip := func() *Tile {
		c := *built
		c.Header.OriginY, c.Header.BMin, c.Header.BMax, c.BVTree = 0, c.Header.BMin.Scale(0), c.Header.BMax.Scale(0), nil
		c.Polys = append([]Poly(nil), built.Polys...)
		return &c
	}
	got, err := FinishTile(strip())
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("FinishTile of the stripped tile: %v, same data %v", err, bytes.Equal(got, data))
	}
	for _, c := range []struct {
		name  string
		spoil func(*Tile)
		want  string
	}{
		{"no polygons", func(t *Tile) { t.Polys, t.DetailMeshes = nil, nil }, "0 polygons"},
		{"vertex index", func(t *Tile) { t.Polys[0].Verts[0] = 99 }, "vertex"},
		{"NVP", func(t *Tile) { t.Header.NVP = 2 }, "NVP"},
	} {
		tl := strip()
		c.spoil(tl)
		before := *tl
		if _, err := FinishTile(tl); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
		if tl.Header != before.Header || len(tl.BVTree) != 0 {
			t.Errorf("%s: a failed FinishTile changed the tile", c.name)
		}
	}
	if _, err := FinishTile(nil); err == nil {
		t.Error("FinishTile(nil): no error")
	}
}
