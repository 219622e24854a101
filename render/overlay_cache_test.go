package render

import (
	"context"
	"image/color"
	"math"
	"reflect"
	"testing"

	"navviz/assets"
	"navviz/core/geom"
	"navviz/core/pipeline"
	"navviz/core/voxel"
	"navviz/tilecache"
)

// cacheFixture builds a tile cache of upBoxesSoup with 32-cell tiles,
// layers and no detail sampling (the layer-first path).
func cacheFixture(t *testing.T) *tilecache.Cache {
	t.Helper()
	s := boxesSettings()
	s.Partition, s.DetailSampleDistCells = pipeline.Layers, 0
	c, err := tilecache.BuildSoup(context.Background(), &s, upBoxesSoup(), tilecache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// testObstacles are one obstacle of each shape.
func testObstacles() []voxel.Obstacle {
	return []voxel.Obstacle{
		voxel.Cylinder(geom.V3(1, -0.5, 2), 1.5, 3),
		voxel.Box(geom.V3(-4, -0.5, -1), geom.V3(-1, 2, 1)),
		voxel.OrientedBox(geom.V3(5, 1, 5), geom.V3(2, 1.5, 0.75), 0.6),
	}
}

// TestObstacleLoopMatchesFootprint checks that the drawn footprint loops
// are the boundaries of the marking test: points just inside each edge's
// midpoint (towards the centre) are in the grown footprint, points just
// outside are not.
func TestObstacleLoopMatchesFootprint(t *testing.T) {
	const growM = 0.6
	for _, o := range testObstacles() {
		for _, g := range []float64{0, growM} {
			loop := ObstacleLoopXZ(&o, g)
			if len(loop) < 4 {
				t.Fatalf("%s: loop of %d points", o.Shape, len(loop))
			}
			var cx, cz float64
			for _, p := range loop {
				cx += p[0] / float64(len(loop))
				cz += p[1] / float64(len(loop))
			}
			for i := range loop {
				p := loop[i]
				// The corners lie on the boundary: a step towards the
				// centre is inside, a step away outside.
				dx, dz := p[0]-cx, p[1]-cz
				l := math.Hypot(dx, dz)
				in := o.ContainsXZ(p[0]-dx/l*1e-3, p[1]-dz/l*1e-3, g)
				out := o.ContainsXZ(p[0]+dx/l*1e-3, p[1]+dz/l*1e-3, g)
				if !in || out {
					t.Errorf("%s grown %.1f: corner %d (%.3f, %.3f): inside %v, outside %v", o.Shape, g, i, p[0], p[1], in, out)
				}
			}
		}
	}
	bad := voxel.Cylinder(geom.V3(0, 0, 0), -1, 1)
	if ObstacleLoopXZ(&bad, 0) != nil {
		t.Error("an invalid obstacle gave a loop")
	}
}

func TestObstaclesOverlay(t *testing.T) {
	obs := testObstacles()
	o := ObstaclesOverlay(obs, 0.6, 1)
	if o.Name != OverlayObstacles || !o.Visible || len(o.Tris) == 0 || len(o.Lines) == 0 || len(o.Lines)%2 != 0 || len(o.Tris)%3 != 0 {
		t.Fatalf("overlay %q visible %v: %d tri and %d line vertices", o.Name, o.Visible, len(o.Tris), len(o.Lines))
	}
	count := func(col color.RGBA, vs []Vertex) int {
		n := 0
		for _, v := range vs {
			if v.Col == col {
				n++
			}
		}
		return n
	}
	// The selected box is cyan with a white grown outline; the others
	// orange with yellow ones.
	if count(obstacleSelFill, o.Tris) == 0 || count(obstacleSelGrown, o.Lines) == 0 {
		t.Error("the selected obstacle is not drawn in the selection colours")
	}
	if count(obstacleFill, o.Tris) == 0 || count(obstacleGrown, o.Lines) == 0 {
		t.Error("the other obstacles are not drawn in the obstacle colours")
	}
	// The grown outline of the cylinder lies at r + g from its axis.
	cyl := ObstaclesOverlay(obs[:1], 0.6, -1)
	n := 0
	for _, v := range cyl.Lines {
		if v.Col != obstacleGrown {
			continue
		}
		n++
		if d := math.Hypot(float64(v.Pos.X-1), float64(v.Pos.Z-2)); math.Abs(d-2.1) > 1e-5 {
			t.Errorf("grown cylinder outline point at %.6f m from its axis, want 2.1", d)
			break
		}
	}
	if n == 0 {
		t.Error("no grown outline for the cylinder")
	}
	// Heights: the box's solid spans its height range.
	lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
	for _, v := range o.Tris {
		if v.Col == obstacleSelFill {
			lo, hi = min(lo, v.Pos.Y), max(hi, v.Pos.Y)
		}
	}
	if lo != -0.5 || hi != 2 {
		t.Errorf("selected box drawn from y %v to %v, want -0.5 to 2", lo, hi)
	}
	if e := ObstaclesOverlay(nil, 0.6, -1); len(e.Tris)+len(e.Lines) != 0 {
		t.Error("no obstacles drew something")
	}
}

func TestQueueColour(t *testing.T) {
	if c := QueueColour(0, 5); c != assets.QueueRamp[0] {
		t.Errorf("front colour %v", c)
	}
	if c := QueueColour(4, 5); c != assets.QueueRamp[len(assets.QueueRamp)-1] {
		t.Errorf("back colour %v", c)
	}
	if QueueColour(0, 1) != QueueColour(0, 5) || QueueColour(-3, 5) != QueueColour(0, 5) || QueueColour(9, 5) != QueueColour(4, 5) {
		t.Error("out-of-range positions are not clamped")
	}
	// Consecutive positions differ.
	for i := 0; i+1 < 8; i++ {
		if QueueColour(i, 8) == QueueColour(i+1, 8) {
			t.Errorf("positions %d and %d share a colour", i, i+1)
		}
	}
}

// TestCacheOverlays drives a real cache: the queue overlay outlines the
// queued tiles in queue order, the swaps overlay colours what an update
// did (replaced on the ground; a roof layer removed and then added back),
// and the cache's polygons follow the mesh.
func TestCacheOverlays(t *testing.T) {
	c := cacheFixture(t)
	grid := c.Grid()
	m := c.Mesh()
	before := CachePolysOverlay(m)
	if before.Name != OverlayCachePolys || len(before.Tris) == 0 {
		t.Fatalf("cache-polys: %q with %d tri vertices", before.Name, len(before.Tris))
	}

	// A cylinder on the ground and a box over the whole roof of the 20 m
	// box (6..16, 6..16): the roof's layer goes away.
	if _, err := c.AddObstacle(voxel.Cylinder(geom.V3(-3, -0.5, 0), 1.5, 3)); err != nil {
		t.Fatal(err)
	}
	roof := voxel.Box(geom.V3(4, 19, 4), geom.V3(18, 21, 18))
	roofID, err := c.AddObstacle(roof)
	if err != nil {
		t.Fatal(err)
	}
	q := c.Queue()
	qo := QueueOverlay(&grid, m, q)
	if len(q) < 2 || len(qo.Lines) < 8*len(q) || len(qo.Tris) == 0 {
		t.Fatalf("queue of %d tiles: %d line and %d tri vertices", len(q), len(qo.Lines), len(qo.Tris))
	}
	// Each queued tile's outline is in its position's colour, at its
	// lowest floor (the ground, y 0, plus a cell height).
	k := 0
	for i, p := range q {
		col := QueueColour(i, len(q))
		if qo.Lines[k].Col != col {
			t.Errorf("queued tile %d outlined in %v, want %v", i, qo.Lines[k].Col, col)
		}
		r, ok := TileMarkFrame(&grid, m, p[0], p[1], queueInsetFrac)
		if !ok || qo.Lines[k].Pos.Y != r.Min.Y || math.Abs(float64(r.Min.Y)-0.3) > 0.15 {
			t.Errorf("queued tile %d outlined at y %v (frame %v, %v)", i, qo.Lines[k].Pos.Y, r, ok)
		}
		// Skip the outline and the tile's polygons.
		k += 8
		for k < len(qo.Lines) && qo.Lines[k].Col == col {
			k++
		}
	}
	if k != len(qo.Lines) {
		t.Errorf("%d line vertices left after the %d queued tiles", len(qo.Lines)-k, len(q))
	}
	// Outside the grid: skipped.
	if e := QueueOverlay(&grid, m, [][2]int{{-1, 0}, {99, 99}}); len(e.Lines) != 0 {
		t.Error("tiles outside the grid were drawn")
	}

	old := map[TileLayer]geom.Box3{}
	for _, p := range q {
		for _, ref := range m.TilesAt(int32(p[0]), int32(p[1])) {
			tl, err := m.Tile(ref)
			if err != nil {
				t.Fatal(err)
			}
			old[TileLayer{p[0], p[1], tl.Header.Layer}] = geom.Box3{Min: tl.Header.BMin, Max: tl.Header.BMax}
		}
	}
	res, err := c.UpdateAll()
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[tilecache.SwapKind]int{}
	for _, u := range res.Tiles {
		for _, s := range u.Swaps {
			kinds[s.Kind]++
		}
	}
	t.Logf("swaps after adding: %v", kinds)
	if kinds[tilecache.SwapReplaced] == 0 || kinds[tilecache.SwapRemoved] == 0 {
		t.Fatalf("want replaced and removed layers, got %v", kinds)
	}
	latest := [][2]int{{res.Tiles[0].TX, res.Tiles[0].TZ}}
	so := SwapsOverlay(&grid, m, SwapView{Tiles: res.Tiles, Latest: latest, OldBoxes: old})
	has := func(o *Overlay, col color.RGBA, tris bool) bool {
		vs := o.Lines
		if tris {
			vs = o.Tris
		}
		for _, v := range vs {
			if v.Col == col {
				return true
			}
		}
		return false
	}
	// Outlines only: every triangle is part of a wide edge in an opaque
	// palette colour (no translucent tint mixing with the live polygons).
	outlinesOnly := func(o *Overlay) {
		t.Helper()
		for _, v := range o.Tris {
			if v.Col.A != 255 {
				t.Fatalf("%s has a translucent triangle %v", o.Name, v.Col)
			}
		}
	}
	outlinesOnly(qo)
	outlinesOnly(so)
	fill := SwapColour
	if !has(so, fill(tilecache.SwapReplaced), true) || !has(so, fill(tilecache.SwapReplaced), false) {
		t.Error("no replaced layer outlined")
	}
	if !has(so, SwapColour(tilecache.SwapRemoved), false) {
		t.Error("no removed layer outlined")
	}
	if !has(so, RebuiltColour(), false) {
		t.Error("the latest tile is not outlined")
	}
	// A removed layer is drawn at its old box: some red line is at the
	// roof's height.
	roofY := false
	for _, v := range so.Lines {
		if v.Col == SwapColour(tilecache.SwapRemoved) && v.Pos.Y > 19 {
			roofY = true
		}
	}
	if !roofY {
		t.Error("the removed roof layer is not outlined at the roof's height")
	}
	after := CachePolysOverlay(m)
	if len(after.Tris) >= len(before.Tris) {
		t.Errorf("cache-polys has %d tri vertices after carving, %d before", len(after.Tris), len(before.Tris))
	}

	// Taking the roof box away adds the layer back.
	if err := c.RemoveObstacle(roofID); err != nil {
		t.Fatal(err)
	}
	res, err = c.UpdateAll()
	if err != nil {
		t.Fatal(err)
	}
	so = SwapsOverlay(&grid, m, SwapView{Tiles: res.Tiles})
	if !has(so, fill(tilecache.SwapAdded), true) {
		t.Error("no added layer drawn after removing the roof box")
	}
	if has(so, RebuiltColour(), false) {
		t.Error("outlined a latest tile although none was given")
	}
	// A stale reference (the tile was swapped out since) draws nothing.
	stale := []tilecache.TileUpdate{{TX: 0, TZ: 0, Swaps: []tilecache.Swap{{Kind: tilecache.SwapReplaced, Ref: 12345}}}}
	if e := SwapsOverlay(&grid, m, SwapView{Tiles: stale}); len(e.Tris) != 0 {
		t.Error("a stale reference drew polygons")
	}
	if e := SwapsOverlay(nil, nil, SwapView{Tiles: res.Tiles}); len(e.Tris)+len(e.Lines) != 0 {
		t.Errorf("no grid and no mesh drew %d vertices", len(e.Tris)+len(e.Lines))
	}
}

func TestRuntimeVolumesAndPreview(t *testing.T) {
	v := voxel.ConvexVolume{VertsXZ: [][2]float32{{0, 0}, {4, 0}, {4, 4}, {0, 4}}, MinYM: -1, MaxYM: 3, Area: 5}
	o := RuntimeVolumesOverlay([]voxel.ConvexVolume{v}, geom.EmptyBox())
	if o.Name != OverlayVolumesRT || len(o.Tris) == 0 || len(o.Lines) == 0 {
		t.Fatalf("volumes-rt: %q, %d tris, %d lines", o.Name, len(o.Tris), len(o.Lines))
	}
	ghost := testObstacles()[2]
	poly := []geom.Vec3{geom.V3(0, 1, 0), geom.V3(4, 1, 0), geom.V3(4, 1, 4)}
	p := PreviewOverlay(&ghost, 0.6, poly, true)
	if p.Name != OverlayToolPreview || len(p.Points) != 3 || len(p.Lines) == 0 || len(p.Tris) == 0 {
		t.Fatalf("preview: %q, %d points, %d lines, %d tris", p.Name, len(p.Points), len(p.Lines), len(p.Tris))
	}
	if p.Points[0].Col != previewPolyOK {
		t.Errorf("a convex polygon's corners are %v", p.Points[0].Col)
	}
	bad := PreviewOverlay(nil, 0, poly, false)
	if bad.Points[0].Col != previewPolyBad || len(bad.Lines) != 0 {
		t.Errorf("a bad polygon's corners are %v (%d line vertices without a ghost)", bad.Points[0].Col, len(bad.Lines))
	}
	// Fill (1 triangle), 3 corner squares and 3 ribbons (2 each).
	if n := len(bad.Tris) / 3; n != 1+3*2+3*2 {
		t.Errorf("the polygon preview has %d triangles, want 13", n)
	}
	for _, n := range CacheOverlayNames {
		if !IsCacheOverlay(n) {
			t.Errorf("IsCacheOverlay(%q) = false", n)
		}
	}
	if IsCacheOverlay("polys") {
		t.Error("polys is not a cache overlay")
	}
}

// TestCacheOverlaysRasterize draws the cache overlays with the software
// rasterizer: each one changes the picture.
func TestCacheOverlaysRasterize(t *testing.T) {
	c := cacheFixture(t)
	grid := c.Grid()
	obs := testObstacles()
	for _, o := range obs {
		if _, err := c.AddObstacle(o); err != nil {
			t.Fatal(err)
		}
	}
	q := c.Queue()
	res, err := c.Update(2)
	if err != nil {
		t.Fatal(err)
	}
	cam := DefaultCamera()
	cam.Frame(grid.BoundsM)
	base := &Scene{Overlays: []*Overlay{CachePolysOverlay(c.Mesh())}}
	const w, h = 320, 200
	bg := color.RGBA{0, 0, 0, 255}
	ref := Rasterize(base, cam, w, h, bg)
	for _, o := range []*Overlay{
		ObstaclesOverlay(obs, c.ObstacleGrowthM(), 0),
		QueueOverlay(&grid, c.Mesh(), q),
		SwapsOverlay(&grid, c.Mesh(), SwapView{Tiles: res.Tiles}),
	} {
		s := &Scene{Overlays: []*Overlay{base.Overlays[0], o}}
		img := Rasterize(s, cam, w, h, bg)
		diff := 0
		for i := range img.Pix {
			if img.Pix[i] != ref.Pix[i] {
				diff++
			}
		}
		if diff < 100 {
			t.Errorf("%s changed %d bytes of the picture", o.Name, diff)
		}
	}
}

// TestCacheLayersOverlay: "cache-layers" fills the cache's live polygons
// with the colour of their tile layer (translucent), one colour per layer
// the mesh holds, with the polys edge style, through CacheStateOverlay.
func TestCacheLayersOverlay(t *testing.T) {
	c := cacheFixture(t)
	m := c.Mesh()
	want := map[color.RGBA]bool{}
	for _, ref := range m.Tiles() {
		tl, err := m.Tile(ref)
		if err != nil {
			t.Fatal(err)
		}
		want[LayerColour(tl.Header.Layer)] = true
	}
	o := CacheStateOverlay(OverlayCacheLayers, &CacheState{Cache: c})
	if o.Name != OverlayCacheLayers || len(o.Tris) == 0 {
		t.Fatalf("cache-layers: %q with %d tri vertices", o.Name, len(o.Tris))
	}
	got := map[color.RGBA]bool{}
	for _, v := range o.Tris {
		if v.Col.A == assets.PolyFillAlpha {
			c := v.Col
			c.A = 255
			got[c] = true
		} else if v.Col != assets.PolyBoundaryColour {
			t.Fatalf("triangle colour %v is neither a layer fill nor a boundary", v.Col)
		}
	}
	if len(want) < 2 || !reflect.DeepEqual(got, want) {
		t.Errorf("layer fills %v, want %v (one per layer of the mesh)", got, want)
	}
}
