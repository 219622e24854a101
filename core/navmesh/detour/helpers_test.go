package detour

import (
	"testing"

	"navviz/core/geom"
	"navviz/core/navmesh"
)

const nul = navmesh.NullIndex

// handTile is tile (tx, 0) of a row of hand-made tiles: 6 x 6 m at height
// 1, split at x = 3 into two quads (polygon 0 west, 1 east) with the fan
// detail mesh; a portal edge on each side that has a neighbour (west when
// tx > 0, east when tx < last), walls elsewhere.
func handTile(tx, last int32) *navmesh.Tile {
	x0 := float32(6 * tx)
	t := &navmesh.Tile{
		Header: navmesh.Header{TileX: tx, NVP: 6, WalkableHeightM: 2, WalkableRadiusM: 0.6,
			WalkableClimbM: 0.9, CellSizeM: 0.3, CellHeightM: 0.2},
		Verts: []geom.Vec3{{X: x0, Y: 1}, {X: x0, Y: 1, Z: 6}, {X: x0 + 3, Y: 1, Z: 6},
			{X: x0 + 3, Y: 1}, {X: x0 + 6, Y: 1, Z: 6}, {X: x0 + 6, Y: 1}},
	}
	west, east := nul, nul
	if tx > 0 {
		west = navmesh.ExtLink | navmesh.DirNegX
	}
	if tx < last {
		east = navmesh.ExtLink | navmesh.DirPosX
	}
	t.Polys = []navmesh.Poly{
		{Verts: [6]uint16{0, 1, 2, 3, nul, nul}, Neis: [6]uint16{west, nul, 1, nul, nul, nul}, Flags: 1, Area: 63, VertCount: 4},
		{Verts: [6]uint16{3, 2, 4, 5, nul, nul}, Neis: [6]uint16{0, nul, east, nul, nul, nul}, Flags: 1, Area: 5, VertCount: 4},
	}
	for i := range t.Polys {
		t.DetailMeshes = append(t.DetailMeshes, navmesh.DetailMesh{TriBase: uint32(2 * i), TriCount: 2})
		t.DetailTris = append(t.DetailTris, [4]uint8{0, 1, 2, 0x05}, [4]uint8{0, 2, 3, 0x14})
	}
	return t
}

// handMesh is a row of n hand tiles; tile 0 holds an off-mesh link from
// (1, 1, 1) to (4, 1, 4) (both ways, radius 0.5, area 7, user id 9).
func handMesh(t *testing.T, n int32) *navmesh.Mesh {
	t.Helper()
	m := navmesh.NewMesh()
	for tx := range n {
		tl := handTile(tx, n-1)
		if tx == 0 {
			tl.OffMesh = []navmesh.OffMeshLink{{StartM: geom.V3(1, 1, 1), EndM: geom.V3(4, 1, 4),
				RadiusM: 0.5, Flags: 1, Area: 7, Bidirectional: true, UserID: 9}}
		}
		data, err := navmesh.FinishTile(tl)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.AddTile(data); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// handOptions is the tile grid of handMesh.
func handOptions(ref64 bool) Options {
	return Options{BoundsM: geom.Box3{Min: geom.V3(0, 0, 0), Max: geom.V3(60, 5, 6)}, TileWidthM: 6, TileHeightM: 6, PolyRef64: ref64}
}
