package navmesh

import (
	"testing"

	"navviz/core/geom"
	"navviz/core/polymesh"
)

// Hand-made tiles: 10 x 10 cells of 0.3 m, rows of 0.2 m, on the level grid
// anchored at the world origin (tile (tx, tz) starts at cell (10tx, 10tz)),
// so that neighbouring tiles give their shared border the same bits.
const (
	testCells = 10
	testCS    = float32(0.3)
	testCH    = float32(0.2)
)

const (
	pNegX = polymesh.PortalFlag | 0
	pPosZ = polymesh.PortalFlag | 1
	pPosX = polymesh.PortalFlag | 2
	pNegZ = polymesh.PortalFlag | 3
	null  = polymesh.NullIndex
)

func testMap(tx, tz int32) polymesh.CoordMap {
	return polymesh.CoordMap{
		CellX0: int(tx) * testCells, CellZ0: int(tz) * testCells,
		CellSizeM: testCS, CellHeightM: testCH,
		WidthCells: testCells, HeightCells: testCells,
	}
}

// handMesh assembles a polymesh.Mesh from vertices (cells) and polygons
// given as vertex lists and neighbour lists (NVP 6).
func handMesh(tx, tz int32, verts [][3]uint16, polys [][2][]uint16, areas []uint8) *polymesh.Mesh {
	const nvp = 6
	m := &polymesh.Mesh{
		Verts: verts, NVP: nvp,
		CellSizeM: testCS, CellHeightM: testCH,
		WidthCells: testCells, HeightCells: testCells,
		Map: testMap(tx, tz),
	}
	m.OriginM = m.Map.Pos(0, 0, 0)
	for i, p := range polys {
		rec := make([]uint16, 2*nvp)
		for j := range rec {
			rec[j] = null
		}
		copy(rec, p[0])
		copy(rec[nvp:], p[1])
		m.Polys = append(m.Polys, rec...)
		m.Regs = append(m.Regs, uint16(i+1))
		if areas != nil {
			m.Areas = append(m.Areas, areas[i])
		} else {
			m.Areas = append(m.Areas, 63)
		}
		m.Flags = append(m.Flags, 1)
	}
	return m
}

// twoColumns is a tile split at x = 5 into two quads at height y rows:
// poly 0 covers x 0..5, poly 1 x 5..10, each touching the z borders; poly 0
// touches the -x border, poly 1 the +x border.
func twoColumns(tx, tz int32, y uint16) *polymesh.Mesh {
	verts := [][3]uint16{{0, y, 0}, {0, y, 10}, {5, y, 10}, {5, y, 0}, {10, y, 10}, {10, y, 0}}
	return handMesh(tx, tz, verts, [][2][]uint16{
		{{0, 1, 2, 3}, {pNegX, pPosZ, 1, pNegZ}},
		{{3, 2, 4, 5}, {0, pPosZ, pPosX, pNegZ}},
	}, nil)
}

// twoRows is a tile split at z = 4 into two quads at height y rows: poly 0
// covers z 0..4, poly 1 z 4..10, both touching the -x and +x borders.
func twoRows(tx, tz int32, y uint16) *polymesh.Mesh {
	verts := [][3]uint16{{0, y, 0}, {0, y, 4}, {10, y, 4}, {10, y, 0}, {0, y, 10}, {10, y, 10}}
	return handMesh(tx, tz, verts, [][2][]uint16{
		{{0, 1, 2, 3}, {pNegX, 1, pPosX, pNegZ}},
		{{1, 4, 5, 2}, {pNegX, pPosZ, pPosX, 0}},
	}, nil)
}

// nineQuads is a tile split at x, z = 3 and 7 into 3 x 3 quads at height
// y rows, with portal edges on the tile borders: the middle quad of each
// side has a single portal edge, the corners two, the centre none.
func nineQuads(tx, tz int32, y uint16) *polymesh.Mesh {
	cuts := []uint16{0, 3, 7, 10}
	var verts [][3]uint16
	for _, z := range cuts {
		for _, x := range cuts {
			verts = append(verts, [3]uint16{x, y, z})
		}
	}
	id := func(x, z int) uint16 { return uint16(z*4 + x) }
	side := func(x, z int, portal uint16) uint16 {
		if x < 0 || z < 0 || x > 2 || z > 2 {
			return portal
		}
		return uint16(z*3 + x)
	}
	var polys [][2][]uint16
	for z := range 3 {
		for x := range 3 {
			polys = append(polys, [2][]uint16{
				{id(x, z), id(x, z+1), id(x+1, z+1), id(x+1, z)},
				{side(x-1, z, pNegX), side(x, z+1, pPosZ), side(x+1, z, pPosX), side(x, z-1, pNegZ)},
			})
		}
	}
	return handMesh(tx, tz, verts, polys, nil)
}

// centreDetail returns a detail mesh of m with one extra vertex per polygon
// (its centre, raised by raise metres) and a fan of triangles around it.
func centreDetail(m *polymesh.Mesh, raise float32) *polymesh.Detail {
	d := &polymesh.Detail{}
	for i := 0; i < m.PolyCount(); i++ {
		p := m.Poly(i)
		n := m.PolyVertCount(i)
		d.Meshes = append(d.Meshes, [4]uint32{uint32(len(d.Verts)), uint32(n + 1), uint32(len(d.Tris)), uint32(n)})
		var c geom.Vec3
		for j := 0; j < n; j++ {
			v := m.VertM(int(p[j]))
			d.Verts = append(d.Verts, v)
			c = c.Add(v)
		}
		c = c.Scale(1 / float32(n))
		c.Y += raise
		d.Verts = append(d.Verts, c)
		for j := 0; j < n; j++ {
			d.Tris = append(d.Tris, [4]uint8{uint8(j), uint8((j + 1) % n), uint8(n), 1})
		}
	}
	return d
}

var testParams = TileParams{WalkableHeightM: 2, WalkableRadiusM: 0.6, WalkableClimbM: 0.9}

func params(tx, tz int32, layer uint8) TileParams {
	p := testParams
	p.TileX, p.TileZ, p.Layer = tx, tz, layer
	return p
}

func mustBuild(t testing.TB, m *polymesh.Mesh, d *polymesh.Detail, p TileParams) []byte {
	t.Helper()
	data, err := BuildTileData(m, d, p)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func mustAdd(t testing.TB, nm *Mesh, data []byte) TileRef {
	t.Helper()
	ref, err := nm.AddTile(data)
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

// checkReciprocal reports the error of m.CheckLinks (every link valid and
// with its reverse) and returns the number of links across tile borders.
func checkReciprocal(t testing.TB, m *Mesh) int {
	t.Helper()
	border, _, err := m.CheckLinks()
	if err != nil {
		t.Error(err)
	}
	return border
}
