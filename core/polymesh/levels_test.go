package polymesh

import (
	"math"
	"reflect"
	"sync"
	"testing"

	"navviz/core/contour"
	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/level/leveltest"
	"navviz/core/region"
	"navviz/core/voxel"
)

// Default settings of DESIGN.md in the units the stages take (the tests do
// not import core/pipeline, which builds on this package).
const (
	tCellSizeM      = float32(0.3)
	tCellHeightM    = float32(0.2)
	tHeightCells    = 10 // ceil(2.0 / 0.2)
	tClimbCells     = 4  // floor(0.9 / 0.2)
	tRadiusCells    = 2  // ceil(0.6 / 0.3)
	tSlopeDeg       = float32(45)
	tBorderCells    = tRadiusCells + 3
	tTileCells      = 64
	tMinAreaCells   = 8 * 8
	tMergeAreaCells = 20 * 20
	tMaxErrorCells  = float32(1.3)
	tEdgeMaxCells   = 40 // 12 / 0.3
	tNVP            = 6
)

// Detail settings: 6 cells and 1 cell height, in metres (float32 products).
var (
	tSampleDistM = float32(6) * tCellSizeM
	tMaxErrorM   = float32(1) * tCellHeightM
)

// buildCHF runs steps 1-3 of a tile build on grid g, mirroring
// pipeline.BuildTileSpans: every triangle of the soup rasterized in index
// order, the three filters, compaction and erosion.
func buildCHF(t testing.TB, soup *level.Soup, g voxel.Grid) *voxel.CompactHeightfield {
	t.Helper()
	hf, err := voxel.NewHeightfield(g)
	if err != nil {
		t.Fatal(err)
	}
	if err := hf.RasterizeSoup(soup, nil, tSlopeDeg, tClimbCells); err != nil {
		t.Fatal(err)
	}
	if err := hf.FilterLowHangingWalkableObstacles(tClimbCells); err != nil {
		t.Fatal(err)
	}
	if err := hf.FilterLedgeSpans(tHeightCells, tClimbCells); err != nil {
		t.Fatal(err)
	}
	if err := hf.FilterWalkableLowHeightSpans(tHeightCells); err != nil {
		t.Fatal(err)
	}
	c, err := voxel.BuildCompactHeightfield(hf, tHeightCells, tClimbCells)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ErodeWalkableArea(tRadiusCells, nil); err != nil {
		t.Fatal(err)
	}
	return c
}

// soloCHF builds one grid covering the whole level with no border, as
// Recast's solo sample does (rcCalcGridSize: (int)(extent/cs + 0.5) in
// float32, corners the soup's bounds).
func soloCHF(t testing.TB, soup *level.Soup) *voxel.CompactHeightfield {
	t.Helper()
	b := soup.Bounds()
	cells := func(lo, hi float32) int { return int(float32((hi-lo)/tCellSizeM) + 0.5) }
	return buildCHF(t, soup, voxel.Grid{
		Width: cells(b.Min.X, b.Max.X), Height: cells(b.Min.Z, b.Max.Z),
		OriginM: b.Min, MaxM: b.Max, CellSizeM: tCellSizeM, CellHeightM: tCellHeightM,
	})
}

var soloDungeon struct {
	once sync.Once
	chf  *voxel.CompactHeightfield
}

// dungeonCHF returns the solo compact heightfield of dungeon.obj with the
// default settings (built once; callers must not change it).
func dungeonCHF(t testing.TB) *voxel.CompactHeightfield {
	t.Helper()
	soup := leveltest.Load(t, "dungeon.obj")
	soloDungeon.once.Do(func() {
		soloDungeon.chf = soloCHF(t, soup)
	})
	if soloDungeon.chf == nil {
		t.Fatal("dungeon solo build failed")
	}
	return soloDungeon.chf
}

// soloResult is what a solo build produces after the polygon stages.
type soloResult struct {
	regs   *region.Result
	cset   *contour.Set
	mesh   *Mesh
	detail *Detail

	exactCalls int
}

// partition selects the region partition of buildSolo.
type partition int

const (
	watershed partition = iota
	monotone
)

func (p partition) String() string { return [...]string{"watershed", "monotone"}[p] }

// buildStages runs regions, contours, polygons and detail on chf with the
// default settings, partition p and the given border.
func buildStages(t testing.TB, chf *voxel.CompactHeightfield, p partition, border int) soloResult {
	t.Helper()
	var r soloResult
	var err error
	switch p {
	case watershed:
		r.regs, err = region.Watershed(chf, border, tMinAreaCells, tMergeAreaCells)
	case monotone:
		r.regs, err = region.Monotone(chf, border, tMinAreaCells, tMergeAreaCells)
	}
	if err != nil {
		t.Fatal(err)
	}
	r.cset, err = contour.Build(chf, r.regs, tMaxErrorCells, tEdgeMaxCells, contour.DefaultBuildFlags)
	if err != nil {
		t.Fatal(err)
	}
	r.mesh, err = Build(r.cset, tNVP)
	if err != nil {
		t.Fatal(err)
	}
	r.exactCalls = r.mesh.ExactOrientCalls()
	r.detail, err = BuildDetail(r.mesh, chf, r.regs.IDs, tSampleDistM, tMaxErrorM)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// buildSolo is buildStages with no border (a solo build).
func buildSolo(t testing.TB, chf *voxel.CompactHeightfield, p partition) soloResult {
	return buildStages(t, chf, p, 0)
}

// TestSoloFigures builds dungeon.obj (and nav_test.obj) as one tile
// with the default settings and compares the counts with Recast's published
// figures (../shared/levels/README.md for the dungeon; DotRecast's
// RecastSoloMeshTest for nav_test): they must be within 1 %; the exact
// figures this implementation gives are pinned too.
func TestSoloFigures(t *testing.T) {
	dungeon := dungeonCHF(t)
	navTest := soloCHF(t, leveltest.Load(t, "nav_test.obj"))
	for _, tc := range []struct {
		level     string
		chf       *voxel.CompactHeightfield
		p         partition
		got, want [5]int // verts, polys, detail meshes, detail verts, detail tris
	}{
		{"dungeon", dungeon, watershed, [5]int{223, 118, 118, 513, 291}, [5]int{223, 118, 118, 513, 291}},
		{"dungeon", dungeon, monotone, [5]int{210, 100, 100, 453, 264}, [5]int{210, 100, 100, 453, 264}},
		{"nav_test", navTest, watershed, [5]int{349, 155, 155, 812, 561}, [5]int{349, 155, 155, 812, 561}},
		{"nav_test", navTest, monotone, [5]int{341, 186, 186, 878, 567}, [5]int{341, 186, 186, 878, 567}},
	} {
		t.Run(tc.level+"/"+tc.p.String(), func(t *testing.T) {
			r := buildSolo(t, tc.chf, tc.p)
			got := [5]int{len(r.mesh.Verts), r.mesh.PolyCount(), len(r.detail.Meshes), len(r.detail.Verts), len(r.detail.Tris)}
			t.Logf("%s %v: regions %d, contours %d, verts %d, polys %d, detail meshes %d, verts %d, tris %d; orientation bound %d, exact calls %d",
				tc.level, tc.p, r.regs.Count, len(r.cset.Contours), got[0], got[1], got[2], got[3], got[4], r.mesh.Map.OrientBoundCells2(), r.exactCalls)
			names := [5]string{"verts", "polys", "detail meshes", "detail verts", "detail tris"}
			for k := range got {
				if d := got[k] - tc.want[k]; d*100 > tc.want[k] || -d*100 > tc.want[k] {
					t.Errorf("%s %d, more than 1 %% from Recast's %d", names[k], got[k], tc.want[k])
				}
				if got[k] != tc.got[k] {
					t.Errorf("%s %d, pinned %d", names[k], got[k], tc.got[k])
				}
			}
			if len(r.mesh.BadContours) != 0 || r.mesh.SliverTriangles != 0 {
				t.Errorf("bad triangulations in contours %v, %d sliver triangles", r.mesh.BadContours, r.mesh.SliverTriangles)
			}
			checkConvex(t, r.mesh)
			checkAdjacency(t, r.mesh)
			checkDetail(t, r.mesh, r.detail)
		})
	}
}

// checkDetail checks the shape of a detail mesh: one sub-mesh per polygon,
// starting with the polygon's vertices at their stored positions, triangle
// indices inside the sub-mesh, every vertex inside the polygon's box (x/z),
// every triangle with positive area and every polygon edge covered by
// flagged triangle edges.
func checkDetail(t testing.TB, m *Mesh, d *Detail) {
	t.Helper()
	if len(d.Meshes) != m.PolyCount() {
		t.Fatalf("%d detail meshes for %d polygons", len(d.Meshes), m.PolyCount())
	}
	nextV, nextT := uint32(0), uint32(0)
	for i, dm := range d.Meshes {
		if dm[0] != nextV || dm[2] != nextT {
			t.Fatalf("polygon %d sub-mesh starts at vertex %d triangle %d, want %d and %d", i, dm[0], dm[2], nextV, nextT)
		}
		nextV, nextT = dm[0]+dm[1], dm[2]+dm[3]
		p := m.Poly(i)
		nv := countPolyVerts(p)
		if int(dm[1]) < nv || dm[3] == 0 {
			t.Fatalf("polygon %d: %d detail verts and %d tris for %d vertices", i, dm[1], dm[3], nv)
		}
		lo, hi := m.VertM(int(p[0])), m.VertM(int(p[0]))
		for j := 0; j < nv; j++ {
			v := m.VertM(int(p[j]))
			lo, hi = lo.Min(v), hi.Max(v)
			if d.Verts[int(dm[0])+j] != v {
				t.Errorf("polygon %d detail vertex %d %v, want the stored %v", i, j, d.Verts[int(dm[0])+j], v)
			}
		}
		const slack = 1e-3
		for j := 0; j < int(dm[1]); j++ {
			v := d.Verts[int(dm[0])+j]
			if v.X < lo.X-slack || v.X > hi.X+slack || v.Z < lo.Z-slack || v.Z > hi.Z+slack {
				t.Errorf("polygon %d detail vertex %d %v outside the polygon's box %v..%v", i, j, v, lo, hi)
			}
		}
		boundary := 0
		for k := 0; k < int(dm[3]); k++ {
			tri := d.Tris[int(dm[2])+k]
			for c := 0; c < 3; c++ {
				if uint32(tri[c]) >= dm[1] {
					t.Fatalf("polygon %d triangle %d index %d beyond %d verts", i, k, tri[c], dm[1])
				}
				if tri[3]&(1<<(2*c)) != 0 {
					boundary++
				}
			}
			a, b, c := d.Verts[int(dm[0])+int(tri[0])], d.Verts[int(dm[0])+int(tri[1])], d.Verts[int(dm[0])+int(tri[2])]
			if geom.OrientXZ(a, b, c) == 0 {
				t.Errorf("polygon %d triangle %d is degenerate: %v %v %v", i, k, a, b, c)
			}
		}
		if boundary < nv {
			t.Errorf("polygon %d: %d boundary triangle edges for %d polygon edges", i, boundary, nv)
		}
	}
	if int(nextV) != len(d.Verts) || int(nextT) != len(d.Tris) {
		t.Errorf("sub-meshes cover %d verts and %d tris of %d and %d", nextV, nextT, len(d.Verts), len(d.Tris))
	}
}

// detailSurfaceY returns the height of polygon i's detail surface at world
// (x, z), in double, and whether a triangle of it covers the point.
func detailSurfaceY(m *Mesh, d *Detail, i int, x, z float64) (float64, bool) {
	dm := d.Meshes[i]
	for k := 0; k < int(dm[3]); k++ {
		tri := d.Tris[int(dm[2])+k]
		a, b, c := d.Verts[int(dm[0])+int(tri[0])], d.Verts[int(dm[0])+int(tri[1])], d.Verts[int(dm[0])+int(tri[2])]
		ax, az := float64(a.X), float64(a.Z)
		v0x, v0z := float64(c.X)-ax, float64(c.Z)-az
		v1x, v1z := float64(b.X)-ax, float64(b.Z)-az
		v2x, v2z := x-ax, z-az
		d00, d01, d02 := v0x*v0x+v0z*v0z, v0x*v1x+v0z*v1z, v0x*v2x+v0z*v2z
		d11, d12 := v1x*v1x+v1z*v1z, v1x*v2x+v1z*v2z
		den := d00*d11 - d01*d01
		if den == 0 {
			continue
		}
		u := (d11*d02 - d01*d12) / den
		v := (d00*d12 - d01*d02) / den
		const eps = 1e-6
		if u >= -eps && v >= -eps && u+v <= 1+eps {
			return float64(a.Y) + (float64(c.Y)-float64(a.Y))*u + (float64(b.Y)-float64(a.Y))*v, true
		}
	}
	return 0, false
}

// TestDetailWithinMaxError checks the sampled detail mesh of the dungeon
// against the heightfield: at every point of the sample grid (multiples of
// the sample distance from the mesh origin) inside a polygon whose squared
// distance to its edges is at least half a sample distance (Recast's rule,
// squared distance against a length), over a column holding a span of the polygon's region,
// the detail surface is within the max error of that span's floor (plus the
// height change over the 0.1-cell jitter of the samples, at most 0.03 m at
// the 45° slope limit).
func TestDetailWithinMaxError(t *testing.T) {
	chf := dungeonCHF(t)
	sd, me := tSampleDistM, tMaxErrorM
	for _, p := range []partition{watershed, monotone} {
		r := buildSolo(t, chf, p)
		m, d := r.mesh, r.detail
		checked, worst := 0, 0.0
		for i := 0; i < m.PolyCount(); i++ {
			if m.Regs[i] == MultipleRegions || d.Meshes[i][1] >= detailMaxVerts {
				continue
			}
			pv := m.Poly(i)[:m.PolyVertCount(i)]
			var local []dvec
			for _, vi := range pv {
				v := m.Verts[vi]
				local = append(local, dvec{float32(v[0]) * m.CellSizeM, 0, float32(v[2]) * m.CellSizeM})
			}
			if polyMinExtent(local) < 2*sd {
				continue
			}
			var xs, zs []float64
			minx, maxx, minz, maxz := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
			for _, vi := range pv {
				v := m.Verts[vi]
				x, z := float64(v[0])*float64(m.CellSizeM), float64(v[2])*float64(m.CellSizeM)
				xs, zs = append(xs, x), append(zs, z)
				minx, maxx, minz, maxz = min(minx, x), max(maxx, x), min(minz, z), max(maxz, z)
			}
			step := float64(sd)
			for gz := math.Floor(minz / step); gz*step < maxz; gz++ {
				for gx := math.Floor(minx / step); gx*step < maxx; gx++ {
					px, pz := gx*step, gz*step
					if !insideBy(xs, zs, px, pz, math.Sqrt(step/2+0.01)) {
						continue
					}
					cx := int(math.Floor(px/float64(m.CellSizeM) + 0.01))
					cz := int(math.Floor(pz/float64(m.CellSizeM) + 0.01))
					c := chf.Cells[cx+m.BorderCells+(cz+m.BorderCells)*chf.Width]
					floor := -1.0
					for si := int(c.Index); si < int(c.Index+c.Count); si++ {
						if r.regs.IDs[si] == m.Regs[i] {
							floor = float64(chf.OriginM.Y) + float64(chf.Spans[si].Y)*float64(chf.CellHeightM)
							break
						}
					}
					if floor == -1 {
						continue
					}
					y, ok := detailSurfaceY(m, d, i, float64(m.OriginM.X)+px, float64(m.OriginM.Z)+pz)
					if !ok {
						t.Errorf("%v polygon %d: no detail triangle over sample (%v, %v)", p, i, px, pz)
						continue
					}
					checked++
					e := math.Abs(y - floor)
					worst = max(worst, e)
					if e > float64(me)+0.03+1e-4 {
						t.Errorf("%v polygon %d: detail surface %v m at sample (%v, %v), span floor %v m: error %v > %v", p, i, y, px, pz, floor, e, me)
					}
				}
			}
		}
		if checked < 100 {
			t.Errorf("%v: only %d samples checked", p, checked)
		}
		t.Logf("%v: %d samples checked, worst error %.3f m (max error %v m)", p, checked, worst, me)
	}
}

// insideBy reports whether (x, z) lies inside the polygon at least dist from
// every edge.
func insideBy(xs, zs []float64, x, z, dist float64) bool {
	n := len(xs)
	inside := false
	for i, j := 0, n-1; i < n; j, i = i, i+1 {
		if (zs[i] > z) != (zs[j] > z) && x < (xs[j]-xs[i])*(z-zs[i])/(zs[j]-zs[i])+xs[i] {
			inside = !inside
		}
		ex, ez := xs[i]-xs[j], zs[i]-zs[j]
		tt := ((x-xs[j])*ex + (z-zs[j])*ez) / (ex*ex + ez*ez)
		tt = min(max(tt, 0), 1)
		dx, dz := xs[j]+tt*ex-x, zs[j]+tt*ez-z
		if dx*dx+dz*dz < dist*dist {
			return false
		}
	}
	return inside
}

// TestDungeonDeterministic builds the dungeon twice and compares everything.
func TestDungeonDeterministic(t *testing.T) {
	chf := dungeonCHF(t)
	a := buildSolo(t, chf, watershed)
	b := buildSolo(t, chf, watershed)
	if !reflect.DeepEqual(a.mesh, b.mesh) || !reflect.DeepEqual(a.detail, b.detail) {
		t.Fatal("two builds of the dungeon differ")
	}
}

// TestConvexFarFromOrigin builds the dungeon's polygons with a coordinate
// map 1500 km from the world origin, where float32 positions are 0.125 m
// apart: the orientation bound is large, many tests call the exact
// predicate, and every polygon must still be strictly convex in both cells
// and stored positions.
func TestConvexFarFromOrigin(t *testing.T) {
	chf := dungeonCHF(t)
	r := buildSolo(t, chf, watershed)
	cm := DefaultMap(r.cset)
	cm.BaseM.X += 1_500_000
	cm.BaseM.Z -= 1_200_000
	m, err := BuildMapped(r.cset, tNVP, &cm)
	if err != nil {
		t.Fatal(err)
	}
	n := checkConvex(t, m)
	checkAdjacency(t, m)
	var area0, area1 int64
	for i := 0; i < r.mesh.PolyCount(); i++ {
		area0 += polyArea2(r.mesh, i)
	}
	for i := 0; i < m.PolyCount(); i++ {
		area1 += polyArea2(m, i)
	}
	if area0 != area1 {
		t.Errorf("area %d far from the origin, %d near it", area1, area0)
	}
	if m.ExactOrientCalls() == 0 {
		t.Error("no exact predicate call far from the origin")
	}
	t.Logf("bound %d, %d exact calls, %d polygons (%d near the origin), %d corners convex in float32; bad contours %v, %d slivers",
		cm.OrientBoundCells2(), m.ExactOrientCalls(), m.PolyCount(), r.mesh.PolyCount(), n, m.BadContours, m.SliverTriangles)
}

// TestMergeCacheMatchesFullScan checks that the shortcuts of Build (the
// merge step's list of pair values, the triangulation's box test) give
// exactly the polygons of the plain rules (every pair evaluated in every
// round, every edge tested) on the dungeon's and every city tile's
// contours, for every nvp.
func TestMergeCacheMatchesFullScan(t *testing.T) {
	sets := []*contour.Set{}
	chf := dungeonCHF(t)
	for _, p := range []partition{watershed, monotone} {
		sets = append(sets, buildSolo(t, chf, p).cset)
	}
	cityTileSet(t)
	for _, part := range cityTile.all {
		sets = append(sets, part.cset)
	}
	polys := 0
	for si, cset := range sets {
		for nvp := MinVertsPerPoly; nvp <= MaxVertsPerPoly; nvp++ {
			a, b := buildFastAndPlain(t, cset, nvp)
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("set %d nvp %d: cached merge gives %d polygons, full scan %d, or they differ", si, nvp, a.PolyCount(), b.PolyCount())
			}
			polys += a.PolyCount()
		}
	}
	t.Logf("%d contour sets, %d polygons in all", len(sets), polys)
}
