package render

import (
	"context"
	"errors"
	"image/color"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"navviz/assets"
	"navviz/core/contour"
	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
	"navviz/core/polymesh"
	"navviz/core/region"
	"navviz/core/voxel"
)

// meshFixture is a level built through step 5 by running the stage
// packages on the tiles of a plain build (steps 1-3): per tile its regions
// and contours, and the navmesh of all tiles.
type meshFixture struct {
	b     *pipeline.Build
	regs  []*region.Result // per b.Tiles entry
	csets []*contour.Set   // per b.Tiles entry
	mesh  *navmesh.Mesh
}

// buildMeshFixture builds soup with settings s: BuildLevel for the spans,
// then for every tile the partition of s, contour.Build,
// polymesh.BuildMapped in the level grid's coordinate map,
// polymesh.BuildDetail and navmesh.BuildTileData, every tile added to one
// mesh at layer 0.
func buildMeshFixture(tb testing.TB, soup *level.Soup, s pipeline.NavSettings) *meshFixture {
	tb.Helper()
	src, err := pipeline.NewSoupSource(soup, nil)
	if err != nil {
		tb.Fatal(err)
	}
	b, err := pipeline.BuildLevel(context.Background(), &s, src, pipeline.BuildOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	fx := &meshFixture{b: b, mesh: navmesh.NewMesh()}
	for i := range b.Tiles {
		t := &b.Tiles[i]
		chf := t.Spans
		var regs *region.Result
		switch s.Partition {
		case pipeline.Monotone:
			regs, err = region.Monotone(chf, chf.BorderCells, s.RegionMinAreaCells(), s.RegionMergeAreaCells())
		case pipeline.Layers:
			regs, err = region.Layers(chf, chf.BorderCells, s.RegionMinAreaCells())
		default:
			regs, err = region.Watershed(chf, chf.BorderCells, s.RegionMinAreaCells(), s.RegionMergeAreaCells())
		}
		if err != nil {
			tb.Fatalf("tile (%d, %d): regions: %v", t.TX, t.TZ, err)
		}
		cset, err := contour.Build(chf, regs, s.EdgeMaxErrorCells, s.EdgeMaxLenCells(), contour.DefaultBuildFlags)
		if err != nil {
			tb.Fatalf("tile (%d, %d): contours: %v", t.TX, t.TZ, err)
		}
		fx.regs = append(fx.regs, regs)
		fx.csets = append(fx.csets, cset)
		cm := polymesh.DefaultMap(cset)
		cm.BaseM.X, cm.BaseM.Z = b.Grid.BoundsM.Min.X, b.Grid.BoundsM.Min.Z
		cm.CellX0, cm.CellZ0 = t.TX*s.TileSizeCells, t.TZ*s.TileSizeCells
		pm, err := polymesh.BuildMapped(cset, s.VertsPerPoly, &cm)
		if err != nil {
			tb.Fatalf("tile (%d, %d): polygons: %v", t.TX, t.TZ, err)
		}
		det, err := polymesh.BuildDetail(pm, chf, regs.IDs, s.DetailSampleDistM(), s.DetailSampleMaxErrorM())
		if err != nil {
			tb.Fatalf("tile (%d, %d): detail: %v", t.TX, t.TZ, err)
		}
		data, err := navmesh.BuildTileData(pm, det, navmesh.TileParams{
			TileX: int32(t.TX), TileZ: int32(t.TZ),
			WalkableHeightM: s.AgentHeightM, WalkableRadiusM: s.AgentRadiusM, WalkableClimbM: s.AgentMaxClimbM,
		})
		if errors.Is(err, navmesh.ErrNoPolygons) {
			continue
		}
		if err != nil {
			tb.Fatalf("tile (%d, %d): tile data: %v", t.TX, t.TZ, err)
		}
		if _, err := fx.mesh.AddTile(data); err != nil {
			tb.Fatalf("tile (%d, %d): add: %v", t.TX, t.TZ, err)
		}
	}
	return fx
}

// boxesSettings are the default settings with 32-cell tiles (5 x 5 tiles
// on boxesSoup).
func boxesSettings() pipeline.NavSettings {
	s := pipeline.DefaultSettings()
	s.TileSizeCells = 32
	return s
}

// boxesMesh builds upBoxesSoup to the navmesh.
func boxesMesh(tb testing.TB) *meshFixture {
	return buildMeshFixture(tb, upBoxesSoup(), boxesSettings())
}

// only returns the filter of tile (tx, tz).
func only(tx, tz int) TileFilter { return func(x, z int) bool { return x == tx && z == tz } }

// busiestTile returns the index in fx.b.Tiles of the tile with the most
// polygons.
func (fx *meshFixture) busiestTile() int {
	best, bestN := 0, -1
	for i := range fx.b.Tiles {
		t := &fx.b.Tiles[i]
		n := 0
		for _, ref := range fx.mesh.TilesAt(int32(t.TX), int32(t.TZ)) {
			if tt, err := fx.mesh.Tile(ref); err == nil {
				n += len(tt.Polys)
			}
		}
		if n > bestN {
			best, bestN = i, n
		}
	}
	return best
}

func TestRegionFloors(t *testing.T) {
	fx := boxesMesh(t)
	i := fx.busiestTile()
	tb := &fx.b.Tiles[i]
	c, regs := tb.Spans, fx.regs[i]
	f := tileFrame(fx.b, tb, &c.Grid)
	own := appendRegionFloors(nil, c, regs.IDs, f, nil, nil)
	all := appendRegionFloors(nil, c, regs.IDs, f, func(int, int) bool { return true }, nil)

	// Every walkable span's floor: own columns, then every column.
	wantOwn, wantAll := 0, 0
	b := c.BorderCells
	for z := 0; z < c.Height; z++ {
		for x := 0; x < c.Width; x++ {
			cell := c.Cells[x+z*c.Width]
			for k := cell.Index; k < cell.Index+cell.Count; k++ {
				if c.Areas[k] == voxel.AreaNull {
					continue
				}
				wantAll++
				if x >= b && x < c.Width-b && z >= b && z < c.Height-b {
					wantOwn++
				}
			}
		}
	}
	// Merged floors: count the unit cells they cover.
	whole := f
	whole.x0, whole.x1, whole.z0, whole.z1 = 0, c.Width, 0, c.Height
	cells := func(tris []Vertex) (n, most int) {
		for _, k := range unitFaces(t, tris, &whole, 0) {
			n += k
			most = max(most, k)
		}
		return n, most
	}
	if nOwn, mOwn := cells(own); nOwn != wantOwn || mOwn != 1 {
		t.Errorf("own columns: %d floor cells (a cell at most %d times), want %d once", nOwn, mOwn, wantOwn)
	}
	if nAll, mAll := cells(all); nAll != wantAll || mAll != 1 || len(all) >= 6*wantAll {
		t.Errorf("with the ring: %d floor cells (a cell at most %d times) in %d quads, want %d once in fewer quads", nAll, mAll, len(all)/6, wantAll)
	}
	cols := map[color.RGBA]int{}
	for _, v := range all {
		cols[v.Col]++
	}
	if cols[regionBorderColour] == 0 {
		t.Error("no border-ring colour with the ring drawn")
	}
	for _, v := range own {
		if v.Col == regionBorderColour {
			t.Fatal("border colour inside the tile's own columns")
		}
	}
	// Every region in the tile shows its colour.
	for id := 1; id < regs.Count; id++ {
		rc := assets.RegionColour(uint32(id))
		if cols[rc] == 0 {
			found := false
			for _, r := range regs.IDs {
				found = found || int(r) == id
			}
			if found {
				t.Errorf("region %d has no floor", id)
			}
		}
	}
	// A region table of the wrong length draws nothing.
	if got := appendRegionFloors(nil, c, regs.IDs[:1], f, nil, nil); len(got) != 0 {
		t.Errorf("short region table drew %d vertices", len(got))
	}
	if got := appendRegionFloors(nil, nil, nil, f, nil, nil); len(got) != 0 {
		t.Error("nil heightfield drew")
	}
}

func TestContourLines(t *testing.T) {
	fx := boxesMesh(t)
	i := fx.busiestTile()
	tb := &fx.b.Tiles[i]
	cs := fx.csets[i]
	f := tileFrame(fx.b, tb, &tb.Spans.Grid)
	raw, simp := surfaceOverlay(OverlayContoursRaw), surfaceOverlay(OverlayContours)
	appendRawContours(raw, cs, 0, &f)
	appendSimplifiedContours(simp, cs, 0, &f)
	wantRaw, wantSimp := 0, 0
	for _, l := range cs.Loops {
		if len(l.Raw) >= 2 {
			wantRaw += 2 * len(l.Raw)
		}
	}
	for _, c := range cs.Contours {
		wantSimp += len(c.Verts)
	}
	if len(raw.Lines) != wantRaw || wantRaw == 0 {
		t.Errorf("raw: %d line vertices, want %d", len(raw.Lines), wantRaw)
	}
	if len(simp.Lines) != 2*wantSimp || len(simp.Points) != wantSimp || wantSimp == 0 {
		t.Errorf("simplified: %d line vertices, %d points; want %d, %d", len(simp.Lines), len(simp.Points), 2*wantSimp, wantSimp)
	}
	// Inside the build grid, above the grid's floor; the standalone frame
	// of the set agrees with the tile's frame to a float32 rounding.
	g := tb.Spans.Grid
	sf := setFrame(cs)
	for _, c := range cs.Contours {
		for _, v := range c.Verts {
			p, q := contourPos(&f, v, 0), contourPos(&sf, v, 0)
			if p.X < g.OriginM.X-1e-3 || p.X > g.MaxM.X+1e-3 || p.Z < g.OriginM.Z-1e-3 || p.Z > g.MaxM.Z+1e-3 || p.Y < g.OriginM.Y {
				t.Fatalf("vertex %v at %v outside the build grid %v..%v", v, p, g.OriginM, g.MaxM)
			}
			if d := p.Sub(q); math.Abs(float64(d.X)) > 1e-3 || math.Abs(float64(d.Z)) > 1e-3 || d.Y != 0 {
				t.Fatalf("vertex %v: tile frame %v, set frame %v", v, p, q)
			}
		}
	}
	// Border vertices (the polygon stage removes them) are marked white.
	white, flagged := 0, 0
	for _, p := range simp.Points {
		if p.Col == contourBorderVert {
			white++
		}
	}
	for _, c := range cs.Contours {
		for _, v := range c.Verts {
			if v.Flags&contour.BorderVertex != 0 {
				flagged++
			}
		}
	}
	if white != flagged {
		t.Errorf("%d white points for %d border vertices", white, flagged)
	}
	appendRawContours(raw, nil, 0, &f) // nil set: nothing, no panic
	// A layer's ids are offset into the tile's.
	if contourRegionColour(3, 4) != assets.RegionColour(7) || contourRegionColour(region.LayerBorder, 4) != assets.RegionColour(uint32(region.LayerBorder)) {
		t.Error("contour region colours ignore the layer's offset")
	}
}

// allVerts returns every vertex of o.
func allVerts(o *Overlay) []Vertex {
	return append(append(append([]Vertex(nil), o.Tris...), o.Lines...), o.Points...)
}

func TestNavMeshOverlays(t *testing.T) {
	fx, fx2 := boxesMesh(t), boxesMesh(t)
	tb := &fx.b.Tiles[fx.busiestTile()]
	box, _ := fx.b.Grid.TileBoxM(tb.TX, tb.TZ)
	for _, name := range []string{OverlayPolys, OverlayDetail, OverlayTiles, OverlayLayers, OverlayPortals} {
		o, err := NavMeshOverlay(name, fx.mesh, nil)
		if err != nil {
			t.Fatal(err)
		}
		o2, _ := NavMeshOverlay(name, fx2.mesh, nil)
		if o.Name != name || !o.Visible {
			t.Errorf("%s: header %q %v", name, o.Name, o.Visible)
		}
		if len(o.Lines) == 0 || (name != OverlayPortals && len(o.Tris) == 0) {
			t.Errorf("%s: %d triangle and %d line vertices", name, len(o.Tris), len(o.Lines))
		}
		if !reflect.DeepEqual(o, o2) {
			t.Errorf("%s: differs between two builds", name)
		}
		one, _ := NavMeshOverlay(name, fx.mesh, only(tb.TX, tb.TZ))
		if n1, n := len(allVerts(one)), len(allVerts(o)); n1 == 0 || n1 >= n {
			t.Errorf("%s: one tile gives %d vertices, all %d", name, n1, n)
		}
		// What one tile draws lies in its box (an arrow may cross the
		// border by its length).
		slack := float32(0.01)
		if name == OverlayPortals {
			slack = linkArrowCells*fx.b.Settings.CellSizeM + 0.01
		}
		for _, v := range allVerts(one) {
			p := v.Pos
			if p.X < box.Min.X-slack || p.X > box.Max.X+slack || p.Z < box.Min.Z-slack || p.Z > box.Max.Z+slack {
				t.Fatalf("%s: vertex %v outside tile box %v", name, p, box)
			}
		}
		if o, _ := NavMeshOverlay(name, nil, nil); len(allVerts(o)) != 0 {
			t.Errorf("%s of nil mesh is not empty", name)
		}
	}
	if _, err := NavMeshOverlay(OverlayRegions, fx.mesh, nil); err == nil {
		t.Error("regions is not a navmesh overlay")
	}

	// Polys: translucent area colour fill, and the three edge kinds of
	// the palette: boundaries as lines and wide bands, inner edges and
	// tile borders as lines.
	po := PolysOverlay(fx.mesh, nil)
	fill := assets.AreaWalkableColour
	fill.A = assets.PolyFillAlpha
	triCols, lineCols := map[color.RGBA]int{}, map[color.RGBA]int{}
	for _, v := range po.Tris {
		triCols[v.Col]++
	}
	for _, v := range po.Lines {
		lineCols[v.Col]++
	}
	if fill.A == 255 || triCols[fill] == 0 || triCols[assets.PolyBoundaryColour] == 0 {
		t.Errorf("polys triangle colours %v", triCols)
	}
	for _, c := range []color.RGBA{assets.PolyBoundaryColour, assets.PolyInnerEdgeColour, assets.PolyTileBorderColour} {
		if lineCols[c] == 0 {
			t.Errorf("polys has no %v lines: %v", c, lineCols)
		}
	}
	if len(triCols)+len(lineCols) != 5 {
		t.Errorf("polys uses colours outside the palette: tris %v lines %v", triCols, lineCols)
	}
	if again := PolysOverlay(fx.mesh, nil); !slices.Equal(again.Tris, po.Tris) || !slices.Equal(again.Lines, po.Lines) {
		t.Error("polys is not deterministic")
	}

	// Portals: an arrow (three strokes) per link across a tile border.
	links := 0
	for _, ref := range fx.mesh.Tiles() {
		tt, _ := fx.mesh.Tile(ref)
		for i := range tt.Polys {
			ls, _ := fx.mesh.Links(ref.Poly(uint32(i)))
			for _, l := range ls {
				if l.Side != navmesh.InternalSide {
					links++
				}
			}
		}
	}
	arrows := 0
	pt := PortalsOverlay(fx.mesh, nil)
	for _, v := range pt.Lines {
		if v.Col == linkPosColour || v.Col == linkNegColour {
			arrows++
		}
	}
	if links == 0 || arrows != 6*links {
		t.Errorf("%d link arrow vertices for %d links", arrows, links)
	}
	// Each arrow's tip is a point of a fixed screen size, at the arrow's
	// end (the second vertex of its shaft).
	if len(pt.Points) != links || pt.PointSizePx != portalTipPx {
		t.Errorf("%d tip points of %v px for %d links", len(pt.Points), pt.PointSizePx, links)
	}
	ends := map[geom.Vec3]bool{}
	for i := 0; i+1 < len(pt.Lines); i += 2 {
		if c := pt.Lines[i].Col; c == linkPosColour || c == linkNegColour {
			ends[pt.Lines[i+1].Pos] = true
		}
	}
	for _, p := range pt.Points {
		if !ends[p.Pos] || (p.Col != linkPosColour && p.Col != linkNegColour) {
			t.Errorf("tip point %v is not at an arrow's end", p)
		}
	}

	// Layers: a tile added again as layer 1 gets the second colour.
	m := navmesh.NewMesh()
	data, err := fx.mesh.TileData(fx.mesh.Tiles()[0])
	if err != nil {
		t.Fatal(err)
	}
	tile, _ := navmesh.DecodeTile(data)
	tile.Header.Layer = 1
	data1, err := tile.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range [][]byte{data, data1} {
		if _, err := m.AddTile(d); err != nil {
			t.Fatal(err)
		}
	}
	lc := map[color.RGBA]bool{}
	for _, v := range LayersOverlay(m, nil).Tris {
		c := v.Col
		if c.A != assets.PolyFillAlpha {
			continue // a boundary band
		}
		c.A = 255
		lc[c] = true
	}
	if len(lc) != 2 || !lc[LayerColour(0)] || !lc[LayerColour(1)] {
		t.Errorf("layer colours %v", lc)
	}
}

func TestTileColoursDiffer(t *testing.T) {
	diff := func(a, b color.RGBA) int {
		d := func(x, y uint8) int { return absInt(int(x) - int(y)) }
		return d(a.R, b.R) + d(a.G, b.G) + d(a.B, b.B)
	}
	worst := 1 << 30
	for z := 0; z < 64; z++ {
		for x := 0; x < 64; x++ {
			c := TileColour(x, z)
			for dz := -1; dz <= 1; dz++ {
				for dx := -1; dx <= 1; dx++ {
					if (dx != 0 || dz != 0) && x+dx >= 0 && z+dz >= 0 {
						worst = min(worst, diff(c, TileColour(x+dx, z+dz)))
					}
				}
			}
		}
	}
	if worst < 90 {
		t.Errorf("two neighbouring tiles differ by only %d", worst)
	}
	if LayerColour(0) == LayerColour(1) {
		t.Error("layers 0 and 1 share a colour")
	}
}

func TestMeshOverlaysRasterize(t *testing.T) {
	fx := boxesMesh(t)
	sc := LevelScene(upBoxesSoup())
	sc.Add(PolysOverlay(fx.mesh, nil))
	cam := DefaultCamera()
	cam.TopDown = true
	cam.Frame(sc.Bounds())
	bg := color.RGBA{0, 0, 0, 255}
	img := Rasterize(sc, cam, 200, 200, bg)
	blueish := 0
	for i := 0; i < len(img.Pix); i += 4 {
		r, g, b := img.Pix[i], img.Pix[i+1], img.Pix[i+2]
		if b > 150 && int(b) > int(r)+60 && g > 100 {
			blueish++
		}
	}
	if blueish < 200*200/4 {
		t.Errorf("%d walkable-blue pixels under the polys overlay", blueish)
	}
}

func TestPickPoly(t *testing.T) {
	fx := boxesMesh(t)
	m := fx.mesh
	checked := 0
	for _, ref := range m.Tiles() {
		tt, _ := m.Tile(ref)
		for i := range tt.Polys {
			// A ray straight down through the centroid of the polygon's
			// first triangle hits it or a polygon above it.
			var c geom.Vec3
			tt.PolyTris(i, func(k int, a, b, cc geom.Vec3, _ uint8) {
				if k == 0 {
					c = a.Add(b).Add(cc).Scale(1.0 / 3)
				}
			})
			o := [3]float64{float64(c.X), float64(c.Y) + 50, float64(c.Z)}
			d := [3]float64{0, -1, 0}
			h, ok := PickPoly(m, o, d, 0)
			if !ok {
				t.Fatalf("polygon %d of tile %#x: no hit", i, ref)
			}
			if h.Ref != ref.Poly(uint32(i)) && float64(h.Pos.Y) <= float64(c.Y)+1e-3 {
				t.Fatalf("polygon %d of tile %#x: hit %#x at %v, below %v", i, ref, h.Ref, h.Pos, c)
			}
			if math.Abs(float64(h.Pos.X-c.X)) > 1e-4 || math.Abs(float64(h.Pos.Z-c.Z)) > 1e-4 || math.Abs(h.T-(50+float64(c.Y-h.Pos.Y))) > 1e-3 {
				t.Fatalf("hit at %v, t %v for %v", h.Pos, h.T, c)
			}
			if h.Ref == ref.Poly(uint32(i)) {
				checked++
			}
			// A limit short of the surface: no hit.
			if _, ok := PickPoly(m, o, d, h.T-0.01); ok {
				t.Fatal("hit beyond maxT")
			}
		}
	}
	if checked == 0 {
		t.Fatal("no polygon picked itself")
	}
	// Rays that miss, bad input.
	for _, r := range []struct{ o, d [3]float64 }{
		{[3]float64{0, 50, 0}, [3]float64{0, 1, 0}},                    // up
		{[3]float64{500, 50, 500}, [3]float64{0, -1, 0}},               // outside
		{[3]float64{math.NaN(), 50, 0}, [3]float64{0, -1, 0}},          // NaN
		{[3]float64{0, 50, 0}, [3]float64{0, 0, 0}},                    // no direction
		{[3]float64{0, 50, 0}, [3]float64{0, math.Inf(-1), 0}},         // infinite
		{[3]float64{0, -50, 0}, [3]float64{0, -1, 0}},                  // below, looking down
		{[3]float64{-100, 0.5, 0}, [3]float64{1, 0, 0}},                // grazing
		{[3]float64{0, 50, 0}, [3]float64{1e-300, -1e-300, 1e-300}},    // tiny
		{[3]float64{1e300, 1e300, 1e300}, [3]float64{-1, -1, -1}},      // huge
		{[3]float64{0, 50, 0}, [3]float64{math.NaN(), -1, math.NaN()}}, // NaN dir
	} {
		if h, ok := PickPoly(m, r.o, r.d, 0); ok && (r.d[1] >= 0 || math.IsNaN(r.o[0])) {
			t.Errorf("ray %v %v hit %+v", r.o, r.d, h)
		}
	}
	if _, ok := PickPoly(nil, [3]float64{}, [3]float64{0, -1, 0}, 0); ok {
		t.Error("nil mesh hit")
	}
}

// TestPickLevel checks the level picking navviz uses: the nearest of two
// stacked floors, triangles with a bad index skipped, a miss and no level.
func TestPickLevel(t *testing.T) {
	s := &level.Soup{
		Verts: []geom.Vec3{
			geom.V3(0, 0, 0), geom.V3(0, 0, 10), geom.V3(10, 0, 0), // ground
			geom.V3(0, 5, 0), geom.V3(0, 5, 10), geom.V3(10, 5, 0), // deck
		},
		Tris:  [][3]int32{{0, 1, 2}, {3, 4, 9}, {3, 4, 5}},
		Areas: []uint8{63, 63, 63},
	}
	down := [3]float64{0, -1, 0}
	if h, ok := PickLevel(s, [3]float64{2, 20, 2}, down); !ok || h != 15 {
		t.Errorf("from above: t %v ok %v, want the deck at 15", h, ok)
	}
	if h, ok := PickLevel(s, [3]float64{2, 3, 2}, down); !ok || h != 3 {
		t.Errorf("between the floors: t %v ok %v, want the ground at 3", h, ok)
	}
	if _, ok := PickLevel(s, [3]float64{20, 20, 20}, down); ok {
		t.Error("a ray beside the level hit it")
	}
	if _, ok := PickLevel(nil, [3]float64{2, 20, 2}, down); ok {
		t.Error("a nil level was hit")
	}
}

func TestDescribePoly(t *testing.T) {
	fx := boxesMesh(t)
	m := fx.mesh
	// The polygon with the most links across tile borders.
	var best navmesh.PolyRef
	bestN := -1
	for _, ref := range m.Tiles() {
		tt, _ := m.Tile(ref)
		for i := range tt.Polys {
			ls, _ := m.Links(ref.Poly(uint32(i)))
			n := 0
			for _, l := range ls {
				if l.Side != navmesh.InternalSide {
					n++
				}
			}
			if n > bestN {
				best, bestN = ref.Poly(uint32(i)), n
			}
		}
	}
	info, err := DescribePoly(m, best)
	if err != nil {
		t.Fatal(err)
	}
	tref, pi, _ := m.DecodeRef(best)
	tt, _ := m.Tile(tref)
	p := tt.Polys[pi]
	if info.Ref != best || int(info.Index) != pi || info.Slot != best.Slot() || info.Generation != best.Generation() ||
		info.TileX != tt.Header.TileX || info.TileZ != tt.Header.TileZ || info.Layer != tt.Header.Layer ||
		info.Area != p.Area || info.Flags != p.Flags || len(info.Verts) != int(p.VertCount) || len(info.Edges) != int(p.VertCount) {
		t.Errorf("info %+v for polygon %+v", info, p)
	}
	portals := 0
	for _, e := range info.Edges {
		if e.Kind == EdgePortal {
			portals++
		}
	}
	if bestN < 1 || portals == 0 || len(info.LinkTiles) != len(info.Links) {
		t.Errorf("%d border links, %d portal edges, %d link tiles", bestN, portals, len(info.LinkTiles))
	}
	text := strings.Join(info.Lines(), "\n")
	for _, want := range []string{"Ref 0x", "generation 1", "Tile (", "layer 0", "Area 63", "portal", "Links:", "to tile ("} {
		if !strings.Contains(text, want) {
			t.Errorf("inspector text lacks %q:\n%s", want, text)
		}
	}
	// A run-time edit shows with the built value.
	if err := m.SetPolyArea(best, 5); err != nil {
		t.Fatal(err)
	}
	info, _ = DescribePoly(m, best)
	if !strings.Contains(strings.Join(info.Lines(), "\n"), "Area 5 (built 63)") {
		t.Errorf("edited area not shown: %v", info.Lines())
	}
	// Stale and invalid references are errors; the picked overlay is empty.
	for _, bad := range []navmesh.PolyRef{0, best + 1<<40, best.Tile().Poly(9999)} {
		if _, err := DescribePoly(m, bad); err == nil {
			t.Errorf("DescribePoly(%#x) succeeded", uint64(bad))
		}
		if o := PickedOverlay(m, bad); len(allVerts(o)) != 0 {
			t.Errorf("picked overlay of %#x not empty", uint64(bad))
		}
	}
	if _, err := DescribePoly(nil, best); err == nil {
		t.Error("nil mesh described")
	}
	// The picked overlay fills the polygon and outlines its neighbours.
	po := PickedOverlay(m, best)
	if len(po.Tris) == 0 || len(po.Lines) == 0 || po.Name != OverlayPicked {
		t.Errorf("picked overlay %d tris %d lines", len(po.Tris), len(po.Lines))
	}
	magenta := 0
	for _, v := range po.Lines {
		if v.Col == pickedNeighbour {
			magenta++
		}
	}
	if magenta == 0 {
		t.Error("no neighbour outlined")
	}
}

func TestMeshOverlaysFromBuild(t *testing.T) {
	src, err := pipeline.NewSoupSource(upBoxesSoup(), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := boxesSettings()
	b, err := pipeline.BuildLevel(context.Background(), &s, src, pipeline.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tb := b.Tiles[len(b.Tiles)/2]
	box, _ := b.Grid.TileBoxM(tb.TX, tb.TZ)
	ring := float32(b.Grid.BorderCells)*b.Grid.CellSizeM + 0.01
	for _, name := range MeshOverlayNames {
		o, err := MeshOverlay(name, b, nil)
		if err != nil {
			t.Fatal(err)
		}
		if o.Name != name || !o.Visible || len(allVerts(o)) == 0 {
			t.Errorf("%s: %q visible %v, %d vertices", name, o.Name, o.Visible, len(allVerts(o)))
		}
		again, _ := MeshOverlay(name, b, nil)
		if !reflect.DeepEqual(o, again) {
			t.Errorf("%s: not deterministic", name)
		}
		one, _ := MeshOverlay(name, b, only(tb.TX, tb.TZ))
		if n1 := len(allVerts(one)); n1 == 0 || n1 >= len(allVerts(o)) {
			t.Errorf("%s: one tile %d vertices, all %d", name, n1, len(allVerts(o)))
		}
		for _, v := range allVerts(one) {
			if p := v.Pos; p.X < box.Min.X-ring || p.X > box.Max.X+ring || p.Z < box.Min.Z-ring || p.Z > box.Max.Z+ring {
				t.Fatalf("%s: vertex %v outside tile box %v and its ring", name, p, box)
			}
		}
		if o, err := MeshOverlay(name, nil, nil); err != nil || len(allVerts(o)) != 0 {
			t.Errorf("%s of nil build: %v, %d vertices", name, err, len(allVerts(o)))
		}
	}
	if _, err := MeshOverlay("solid", b, nil); err == nil || !strings.Contains(err.Error(), "contours-raw") {
		t.Errorf("unknown name: %v", err)
	}
	// The ring shows around a single tile, not when every tile is drawn.
	grey := func(o *Overlay) int {
		n := 0
		for _, v := range o.Tris {
			if v.Col == regionBorderColour {
				n++
			}
		}
		return n
	}
	if g1, gAll := grey(RegionsOverlay(b, only(tb.TX, tb.TZ))), grey(RegionsOverlay(b, nil)); g1 == 0 || gAll != 0 {
		t.Errorf("border-ring vertices: %d around one tile, %d with all tiles", g1, gAll)
	}
	if m := BuildMesh(b); m == nil || m.TileCount() == 0 {
		t.Error("no navmesh")
	}
	if BuildMesh(nil) != nil {
		t.Error("navmesh of a nil build")
	}
}

// cityLayerBuild builds city with the tile cache's settings (layer
// partition, no detail sampling): tiles built one height layer at a time.
func cityLayerBuild(tb testing.TB) *pipeline.Build {
	tb.Helper()
	s := pipeline.DefaultSettings()
	s.Partition, s.DetailSampleDistCells = pipeline.Layers, 0
	return buildCity(tb, &s, pipeline.BuildOptions{})
}

// buildCity builds the built-in city level with settings s and options
// opts (a chunky tree of 256 triangles a leaf).
func buildCity(tb testing.TB, s *pipeline.NavSettings, opts pipeline.BuildOptions) *pipeline.Build {
	tb.Helper()
	soup := builtinCity(tb)
	chunky, err := level.NewChunky(soup, 256)
	if err != nil {
		tb.Fatal(err)
	}
	src, err := pipeline.NewSoupSource(soup, chunky)
	if err != nil {
		tb.Fatal(err)
	}
	b, err := pipeline.BuildLevel(context.Background(), s, src, opts)
	if err != nil {
		tb.Fatalf("build city (partition %v): %v", s.Partition, err)
	}
	return b
}

func TestLayerFirstOverlays(t *testing.T) {
	b := cityLayerBuild(t)
	// The tile with the most layer builds.
	var tb *pipeline.TileBuild
	for i := range b.Tiles {
		if tb == nil || len(b.Tiles[i].Layers) > len(tb.Layers) {
			tb = &b.Tiles[i]
		}
	}
	if tb == nil || len(tb.Layers) < 2 || !tb.LayerFirst {
		t.Fatalf("no layer-first tile with two layers: %+v", tb)
	}
	keep := only(tb.TX, tb.TZ)
	// Layers: one colour per navmesh tile layer at that position.
	want := map[color.RGBA]bool{}
	for _, l := range tb.Layers {
		if l.Data != nil {
			want[LayerColour(uint8(l.Layer))] = true
		}
	}
	got := map[color.RGBA]bool{}
	for _, v := range LayersOverlay(b.Mesh, keep).Tris {
		c := v.Col
		if c.A != assets.PolyFillAlpha {
			continue // a boundary band
		}
		c.A = 255
		got[c] = true
	}
	if !reflect.DeepEqual(got, want) || len(got) < 2 {
		t.Errorf("layer colours %v, want %v", got, want)
	}
	// Contours: every layer's contours in the colour of their tile-wide
	// region (the layer's id plus its RegionBase), which the regions
	// overlay shows.
	regionCols := map[color.RGBA]bool{}
	for _, v := range RegionsOverlay(b, keep).Tris {
		regionCols[v.Col] = true
	}
	co := ContoursOverlay(b, keep)
	layers := 0
	for _, l := range tb.Layers {
		if l.Contours != nil && len(l.Contours.Contours) > 0 {
			layers++
		}
	}
	if layers < 2 || len(co.Lines) == 0 {
		t.Fatalf("%d layers with contours, %d line vertices", layers, len(co.Lines))
	}
	for _, l := range tb.Layers {
		if l.Contours == nil {
			continue
		}
		for _, c := range l.Contours.Contours {
			rc := assets.RegionColour(uint32(int(c.Region) + l.RegionBase))
			if !regionCols[rc] {
				t.Errorf("layer %d contour of region %d (+%d): colour %v not among the regions overlay's", l.Layer, c.Region, l.RegionBase, rc)
			}
		}
	}
}

// BenchmarkPickPoly measures a pick on city's navmesh (layer build): a
// slanted ray through the middle of the level.
func BenchmarkPickPoly(b *testing.B) {
	bl := cityLayerBuild(b)
	c := bl.Grid.BoundsM.Center()
	o := [3]float64{float64(c.X) - 60, float64(bl.Grid.BoundsM.Max.Y) + 40, float64(c.Z) - 60}
	d := [3]float64{60, -float64(bl.Grid.BoundsM.Max.Y) - 40, 60}
	l := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
	for k := range d {
		d[k] /= l
	}
	hit := false
	for b.Loop() {
		_, hit = PickPoly(bl.Mesh, o, d, 0)
	}
	if !hit {
		b.Fatal("no hit")
	}
}
