package polymesh

import (
	"math"
	"strings"
	"sync"
	"testing"

	"navviz/core/contour"
	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/region"
	"navviz/core/voxel"
)

// cityTile is one tile of the generated city (seed 1, default settings,
// watershed, tile 64 cells, border 5) up to its contours, built once for the
// tests and benchmarks. The tiling mirrors pipeline.TileGrid: the level's
// grid starts at the soup's min corner, cell line k lies at min +
// float32(k)*cs, tile (tx, tz) owns global cells [64 tx, 64 tx + 64) and its
// build grid adds 5 cells each side.
var cityTile struct {
	once   sync.Once
	min    geom.Vec3
	tx, tz int
	chf    *voxel.CompactHeightfield
	regs   *region.Result
	cset   *contour.Set
	all    []cityPart // every tile, row by row
}

// cityPart is one city tile up to its contours.
type cityPart struct {
	chf  *voxel.CompactHeightfield
	regs *region.Result
	cset *contour.Set
}

// cityTileSet returns the city's tile with the most polygons (a busy tile
// with streets, kerbs and buildings; the first such in row order).
func cityTileSet(tb testing.TB) *contour.Set {
	tb.Helper()
	c := &cityTile
	c.once.Do(func() {
		soup := level.City(1)
		b := soup.Bounds()
		c.min = b.Min
		line := func(o float32, k int) float32 { return o + float32(float32(k)*tCellSizeM) }
		cellsX := int(math.Ceil(float64((b.Max.X - b.Min.X) / tCellSizeM)))
		cellsZ := int(math.Ceil(float64((b.Max.Z - b.Min.Z) / tCellSizeM)))
		tilesX, tilesZ := (cellsX+tTileCells-1)/tTileCells, (cellsZ+tTileCells-1)/tTileCells
		n := tTileCells + 2*tBorderCells
		best := 0
		for i := 0; i < tilesX*tilesZ; i++ {
			tx, tz := i%tilesX, i/tilesX
			gx0, gz0 := tx*tTileCells-tBorderCells, tz*tTileCells-tBorderCells
			g := voxel.Grid{
				Width: n, Height: n, BorderCells: tBorderCells,
				OriginM:   geom.Vec3{X: line(b.Min.X, gx0), Y: b.Min.Y, Z: line(b.Min.Z, gz0)},
				MaxM:      geom.Vec3{X: line(b.Min.X, gx0+n), Y: b.Max.Y, Z: line(b.Min.Z, gz0+n)},
				CellSizeM: tCellSizeM, CellHeightM: tCellHeightM,
			}
			chf := buildCHF(tb, soup, g)
			regs, err := region.Watershed(chf, tBorderCells, tMinAreaCells, tMergeAreaCells)
			if err != nil {
				tb.Fatal(err)
			}
			cset, err := contour.Build(chf, regs, tMaxErrorCells, tEdgeMaxCells, contour.DefaultBuildFlags)
			if err != nil {
				tb.Fatal(err)
			}
			c.all = append(c.all, cityPart{chf, regs, cset})
			m, err := Build(cset, tNVP)
			if err != nil {
				tb.Fatal(err)
			}
			if c.cset == nil || m.PolyCount() > best {
				best = m.PolyCount()
				c.tx, c.tz, c.chf, c.regs, c.cset = tx, tz, chf, regs, cset
			}
		}
	})
	if c.cset == nil {
		tb.Fatal("city tile build failed")
	}
	return c.cset
}

// levelMap returns the coordinate map of the city tile in the level's grid.
func levelMap(cset *contour.Set) CoordMap {
	c := &cityTile
	m := DefaultMap(cset)
	m.BaseM.X, m.BaseM.Z = c.min.X, c.min.Z
	m.CellX0, m.CellZ0 = c.tx*tTileCells, c.tz*tTileCells
	return m
}

// TestCityTile builds a bordered city tile with the level grid's map:
// convex polygons in cells and stored positions, consistent neighbours,
// portal edges on the border, detail meshes with and without sampling.
func TestCityTile(t *testing.T) {
	cset := cityTileSet(t)
	c := &cityTile
	cm := levelMap(cset)
	m, err := BuildMapped(cset, tNVP, &cm)
	if err != nil {
		t.Fatal(err)
	}
	if m.PolyCount() == 0 || len(m.BadContours) != 0 || m.SliverTriangles != 0 {
		t.Fatalf("%d polygons, bad contours %v, %d slivers", m.PolyCount(), m.BadContours, m.SliverTriangles)
	}
	line := func(o float32, k int) float32 { return o + float32(float32(k)*tCellSizeM) }
	x0, z0 := c.tx*tTileCells, c.tz*tTileCells
	if m.OriginM.X != line(c.min.X, x0) || m.OriginM.Z != line(c.min.Z, z0) {
		t.Errorf("origin %v, want the tile's first cell lines", m.OriginM)
	}
	if p := m.Map.Pos(uint16(m.WidthCells), 0, uint16(m.HeightCells)); p.X != line(c.min.X, x0+tTileCells) || p.Z != line(c.min.Z, z0+tTileCells) {
		t.Errorf("far corner %v, want the tile's last cell lines", p)
	}
	checkConvex(t, m)
	checkAdjacency(t, m)
	portals := 0
	for i := 0; i < m.PolyCount(); i++ {
		for _, n := range m.Neighbours(i) {
			if n != NullIndex && n&PortalFlag != 0 {
				portals++
			}
		}
	}
	if portals == 0 {
		t.Error("no portal edge on a city tile")
	}
	def, err := Build(cset, tNVP)
	if err != nil {
		t.Fatal(err)
	}
	for _, sd := range []float32{tSampleDistM, 0} {
		d, err := BuildDetail(m, c.chf, c.regs.IDs, sd, tMaxErrorM)
		if err != nil {
			t.Fatal(err)
		}
		checkDetail(t, m, d)
		t.Logf("tile (%d, %d): %d contours, %d verts, %d polys (%d with the default map), %d portal edges, bound %d, %d exact calls; detail (sample %v m) %d verts %d tris",
			c.tx, c.tz, len(cset.Contours), len(m.Verts), m.PolyCount(), def.PolyCount(), portals, cm.OrientBoundCells2(), m.ExactOrientCalls(), sd, len(d.Verts), len(d.Tris))
	}
}

// TestDetailCorruptHeightfield gives BuildDetail a heightfield whose links
// lead nowhere, a wrong region table and a wrong border: errors naming the
// problem, no panic, no result.
func TestDetailCorruptHeightfield(t *testing.T) {
	cset := cityTileSet(t)
	c := &cityTile
	m, err := Build(cset, tNVP)
	if err != nil {
		t.Fatal(err)
	}
	bad := c.chf.Clone()
	for i := range bad.Spans {
		bad.Spans[i].Con = bad.Spans[i].Con&^0xff0000 | 200<<16 // direction 2 to span 200
	}
	for _, tc := range []struct {
		name string
		chf  *voxel.CompactHeightfield
		regs []uint16
		want string
	}{
		{"links", bad, c.regs.IDs, "does not exist"},
		{"regions", c.chf, c.regs.IDs[:10], "10 region ids"},
		{"border", func() *voxel.CompactHeightfield { h := c.chf.Clone(); h.BorderCells = 4; return h }(), c.regs.IDs, "border 4"},
	} {
		d, err := BuildDetail(m, tc.chf, tc.regs, tSampleDistM, tMaxErrorM)
		if err == nil || d != nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, %v; want an error naming %q", tc.name, d, err, tc.want)
		}
	}
}

func BenchmarkPolyMeshCityTile(b *testing.B) {
	cset := cityTileSet(b)
	cm := levelMap(cset)
	var m *Mesh
	for b.Loop() {
		var err error
		if m, err = BuildMapped(cset, tNVP, &cm); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(m.PolyCount()), "polys")
	b.ReportMetric(float64(m.ExactOrientCalls()), "exact-calls")
}

func BenchmarkDetailCityTile(b *testing.B) {
	cset := cityTileSet(b)
	c := &cityTile
	m, err := Build(cset, tNVP)
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		sd   float32
	}{{"sampled", tSampleDistM}, {"nosampling", 0}} {
		b.Run(bc.name, func(b *testing.B) {
			var d *Detail
			for b.Loop() {
				if d, err = BuildDetail(m, c.chf, c.regs.IDs, bc.sd, tMaxErrorM); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(d.Tris)), "tris")
		})
	}
}
