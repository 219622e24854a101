package navmesh

import (
	"bytes"
	"fmt"
	"math"
	"slices"
)

// Differences between two meshes, tile layer by tile layer (`navmesh diff`,
// docs/format.md §12): which tile layers one mesh has and the other has
// not, which both have with other contents, and the walkable area of each
// side.

// TileKey names a tile layer by its place: grid column TileX, TileZ and
// layer number.
type TileKey struct {
	TileX, TileZ int32
	Layer        uint8
}

// TileChange says how a tile layer differs between two meshes.
type TileChange uint8

const (
	// TileAdded: only the second mesh has the tile layer.
	TileAdded TileChange = iota + 1
	// TileRemoved: only the first mesh has it.
	TileRemoved
	// TileChanged: both have it, with other tile data or other run-time
	// flags or areas.
	TileChanged
)

func (c TileChange) String() string {
	switch c {
	case TileAdded:
		return "added"
	case TileRemoved:
		return "removed"
	case TileChanged:
		return "changed"
	}
	return fmt.Sprintf("TileChange(%d)", uint8(c))
}

// TileDiff is one tile layer that differs: its polygons and walkable area
// on each side (0 on the side that lacks it).
type TileDiff struct {
	Key              TileKey
	Change           TileChange
	PolysA, PolysB   int
	AreaAM2, AreaBM2 float64
}

// MeshDiff is the difference of mesh A and mesh B: the totals of each side
// and the tile layers that differ, by (TileZ, TileX, Layer).
type MeshDiff struct {
	TilesA, TilesB   int
	PolysA, PolysB   int
	AreaAM2, AreaBM2 float64
	Tiles            []TileDiff
}

// Identical reports whether the two meshes have the same tile layers with
// the same contents (false for a nil MeshDiff: nothing was compared).
func (d *MeshDiff) Identical() bool { return d != nil && len(d.Tiles) == 0 }

// Diff compares mesh a with mesh b. Tile layers are matched by place (the
// slots and generations, which say only in what order tiles came, are not
// compared); a tile layer in both differs when its tile data or the
// run-time flags or area of any of its polygons or off-mesh nodes differ.
// Area is the walkable area in plan (TileAreaM2).
func Diff(a, b *Mesh) (*MeshDiff, error) {
	if a == nil || b == nil {
		return nil, fmt.Errorf("navmesh: Diff: %w", errNilMesh)
	}
	ta, tb := a.keyed(), b.keyed()
	d := &MeshDiff{TilesA: len(ta), TilesB: len(tb)}
	for i, j := 0, 0; i < len(ta) || j < len(tb); {
		var x, y *meshTile
		switch {
		case j == len(tb) || (i < len(ta) && keyLess(ta[i].key, tb[j].key)):
			x = ta[i].mt
			i++
		case i == len(ta) || keyLess(tb[j].key, ta[i].key):
			y = tb[j].mt
			j++
		default:
			x, y = ta[i].mt, tb[j].mt
			i++
			j++
		}
		td := TileDiff{}
		if x != nil {
			td.Key, td.PolysA, td.AreaAM2 = keyOf(x), len(x.t.Polys), TileAreaM2(x.t)
			d.PolysA += td.PolysA
			d.AreaAM2 += td.AreaAM2
		}
		if y != nil {
			td.Key, td.PolysB, td.AreaBM2 = keyOf(y), len(y.t.Polys), TileAreaM2(y.t)
			d.PolysB += td.PolysB
			d.AreaBM2 += td.AreaBM2
		}
		switch {
		case y == nil:
			td.Change = TileRemoved
		case x == nil:
			td.Change = TileAdded
		case !sameTile(x, y):
			td.Change = TileChanged
		default:
			continue
		}
		d.Tiles = append(d.Tiles, td)
	}
	return d, nil
}

// keyedTile is a tile of a mesh with its place.
type keyedTile struct {
	key TileKey
	mt  *meshTile
}

// keyed returns m's tiles by (TileZ, TileX, Layer).
func (m *Mesh) keyed() []keyedTile {
	order := m.ordered()
	out := make([]keyedTile, len(order))
	for i, s := range order {
		mt := m.slots[s].tile
		out[i] = keyedTile{keyOf(mt), mt}
	}
	return out
}

func keyOf(mt *meshTile) TileKey {
	h := &mt.t.Header
	return TileKey{TileX: h.TileX, TileZ: h.TileZ, Layer: h.Layer}
}

// keyLess orders places as Mesh.Tiles does: by z, then x, then layer.
func keyLess(p, q TileKey) bool {
	if p.TileZ != q.TileZ {
		return p.TileZ < q.TileZ
	}
	if p.TileX != q.TileX {
		return p.TileX < q.TileX
	}
	return p.Layer < q.Layer
}

// sameTile reports whether two tiles hold the same data and the same
// run-time flags and areas.
func sameTile(x, y *meshTile) bool {
	return bytes.Equal(x.data, y.data) && slices.Equal(x.flags, y.flags) && slices.Equal(x.areas, y.areas)
}

// TileAreaM2 returns the walkable area of t's polygons in plan (x, z),
// square metres: each polygon's shoelace area, summed in polygon order in
// float64 (the sum pipeline.PolyAreaM2 makes of the polygon mesh the tile
// was built from: the same vertices give the same figure).
func TileAreaM2(t *Tile) float64 {
	if t == nil {
		return 0
	}
	total := 0.0
	for i := range t.Polys {
		p := &t.Polys[i]
		n := int(p.VertCount)
		a := 0.0
		for j := range n {
			u, w := t.Verts[p.Verts[j]], t.Verts[p.Verts[(j+1)%n]]
			a += float64(float64(u.X)*float64(w.Z)) - float64(float64(w.X)*float64(u.Z))
		}
		total += float64(math.Abs(a) / 2)
	}
	return total
}
