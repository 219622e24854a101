package pipeline

import (
	"errors"
	"fmt"
	"math"

	"navviz/core/contour"
	"navviz/core/navmesh"
	"navviz/core/polymesh"
	"navviz/core/region"
	"navviz/core/voxel"
)

// Step 5 of build3d-runtime.md for one tile: regions, contours, polygons,
// detail and tile data (docs/build.md). BuildTileMesh is the one entry point
// that the plain build (BuildLevel, BuildSolo) and the tile cache call; its
// layer-first path builds each height layer with BuildLayerMesh, which the
// cache also calls to rebuild one layer.

// TilePlace says where the polygons of a tile go: the tile's coordinates
// (the navmesh tile's TileX and TileZ) and the coordinate map that turns
// the tile's own cells into stored float32 positions. TileGrid.Place gives
// the place of a tile of a tiled build: the level grid's map, so that
// neighbouring tiles give their shared border vertices the same bits.
type TilePlace struct {
	// TX and TZ are the tile's coordinates, tiles.
	TX, TZ int
	// Map is the coordinate map of the tile's own cells (the build grid
	// without its border ring); its extent must be that of the compact
	// heightfield without the border.
	Map polymesh.CoordMap
	// OffMeshLinks are the off-mesh links that start in the tile's column
	// (TileGrid.OffMeshLinksIn); each layer's tile keeps those whose start
	// one of its polygons lies under (navmesh.TileParams.OffMeshLinks).
	OffMeshLinks []navmesh.OffMeshLink
}

// OffMeshLinksIn returns, in order, the links of links whose start lies
// in tile (tx, tz) (TileAt): the tile's TilePlace.OffMeshLinks.
func (g *TileGrid) OffMeshLinksIn(links []navmesh.OffMeshLink, tx, tz int) []navmesh.OffMeshLink {
	var out []navmesh.OffMeshLink
	for _, l := range links {
		if x, z, err := g.TileAt(l.StartM); err == nil && x == tx && z == tz {
			out = append(out, l)
		}
	}
	return out
}

// Place returns the place of tile (tx, tz): its coordinates and the level
// grid's coordinate map (BaseM the level's min corner, cell offset
// (tx*TileSizeCells, tz*TileSizeCells), extent TileSizeCells each way).
func (g *TileGrid) Place(tx, tz int) (TilePlace, error) {
	if err := g.CheckTile(tx, tz); err != nil {
		return TilePlace{}, err
	}
	t := g.TileSizeCells
	return TilePlace{TX: tx, TZ: tz, Map: polymesh.CoordMap{
		BaseM:       g.BoundsM.Min,
		CellX0:      tx * t,
		CellZ0:      tz * t,
		CellSizeM:   g.CellSizeM,
		CellHeightM: g.CellHeightM,
		WidthCells:  t,
		HeightCells: t,
	}}, nil
}

// LayerBuild is one navmesh tile made at a tile position: the contours,
// polygons, detail mesh and tile data of one height layer (layer-first
// path) or of the whole tile (general path, Layer 0).
type LayerBuild struct {
	// Layer is the tile's layer number (the navmesh tile's Layer).
	Layer int
	// Contours are the layer's contours (raw loops included). On the
	// layer-first path their region ids, and the polygons', are the
	// layer's own (region.Labels ids): the tile-wide id (TileBuild.Regions)
	// of a region is its layer id plus RegionBase.
	Contours *contour.Set
	// RegionBase is the number of regions of the lower layers (0 on the
	// general path, whose ids are the tile's).
	RegionBase int
	// Regions is the number of regions of the layer (on the general path,
	// of the tile).
	Regions int
	// Mesh is the polygon mesh and Detail its detail mesh.
	Mesh   *polymesh.Mesh
	Detail *polymesh.Detail
	// Data is the navmesh tile data (docs/format.md) and ContentID its
	// xxhash64 (navmesh.ContentID). Data is nil for a layer without
	// polygons, which makes no tile.
	Data      []byte
	ContentID uint64
	// Built is Data with its decoded tile (nil with Data), for
	// navmesh.Mesh.AddBuilt and ReplaceBuilt.
	Built *navmesh.BuiltTile
}

// AreaM2 returns the walkable area of the layer's polygons: the sum of
// their areas projected on x/z, in stored positions, square metres
// (PolyAreaM2 of Mesh; 0 without polygons or for a nil lb).
func (lb *LayerBuild) AreaM2() float64 {
	if lb == nil || lb.Data == nil {
		return 0
	}
	return PolyAreaM2(lb.Mesh)
}

// MeshCounts are the counts of step 5, for one tile (TileBuild.Counts) or a
// whole build (Build, where every count is a sum over tiles except Layers).
type MeshCounts struct {
	// Regions is the number of regions (border regions not counted;
	// region.Result.RegionCount per tile).
	Regions int
	// Contours is the number of contours, of every layer, including layers
	// that make no polygon.
	Contours int
	// Verts and Polys are the polygon meshes' vertices and polygons.
	Verts, Polys int
	// DetailMeshes, DetailVerts and DetailTris are the detail meshes'
	// sub-meshes, vertices and triangles.
	DetailMeshes, DetailVerts, DetailTris int
	// NavTiles is the number of navmesh tiles made.
	NavTiles int
	// Layers is, for a tile, its number of height layers (the layer
	// partition's LayerCount; 1 for the other partitions); for a build, the
	// largest such number of any tile.
	Layers int
	// WalkableAreaM2 is the sum of LayerBuild.AreaM2(), square metres.
	WalkableAreaM2 float64
}

// add adds the counts of o to c (Layers: the larger).
func (c *MeshCounts) add(o *MeshCounts) {
	c.Regions += o.Regions
	c.Contours += o.Contours
	c.Verts += o.Verts
	c.Polys += o.Polys
	c.DetailMeshes += o.DetailMeshes
	c.DetailVerts += o.DetailVerts
	c.DetailTris += o.DetailTris
	c.NavTiles += o.NavTiles
	c.Layers = max(c.Layers, o.Layers)
	c.WalkableAreaM2 += o.WalkableAreaM2
}

// addLayer counts a layer's contours, polygons, detail and tile.
func (c *MeshCounts) addLayer(lb *LayerBuild) {
	if lb.Contours != nil {
		c.Contours += len(lb.Contours.Contours)
	}
	if lb.Mesh != nil {
		c.Verts += len(lb.Mesh.Verts)
		c.Polys += lb.Mesh.PolyCount()
	}
	if lb.Detail != nil {
		c.DetailMeshes += len(lb.Detail.Meshes)
		c.DetailVerts += len(lb.Detail.Verts)
		c.DetailTris += len(lb.Detail.Tris)
	}
	if lb.Data != nil {
		c.NavTiles++
	}
	c.WalkableAreaM2 += lb.AreaM2()
}

// TileMesh is the result of step 5 on one tile.
type TileMesh struct {
	// Regions holds the region id of every span of the tile: the
	// partition's result on the general path; on the layer-first path the
	// ids region.Layers gives (each layer's ids offset by the regions of
	// the lower layers, Layers and LayerCount set).
	Regions *region.Result
	// Layers lists the navmesh tiles made, in ascending layer order: on the
	// general path one entry, Layer 0, when the tile has polygons.
	Layers []LayerBuild
	// LayerFirst reports whether the tile was built one layer at a time.
	LayerFirst bool
	// Counts are the tile's counts.
	Counts MeshCounts
}

// LayerFirst reports whether settings s build tiles one height layer at a
// time (build3d-runtime.md, "Layer-first tiles"): the Layers partition and
// no height sampling in the detail stage (polymesh.Sampling false for
// DetailSampleDistM, that is DetailSampleDistCells at most 0.9).
func (s *NavSettings) LayerFirst() bool {
	return s != nil && s.Partition == Layers && !polymesh.Sampling(s.DetailSampleDistM(), s.CellSizeM)
}

// BuildTileMesh runs step 5 of build3d-runtime.md on a tile (docs/build.md):
// chf is the tile's compact heightfield after steps 1-3 (BuildTileSpans) on
// its build grid, at the tile's place (TileGrid.Place). eroded holds the
// areas after erosion, before the build-time volumes and obstacles (one per
// span; TileBuild.ErodedAreas; nil means chf.Areas, right when the settings
// have no volume and no obstacle): the walkability the layer split of the
// Layers partition is decided on (on both paths), so that marking obstacles
// and volumes never changes a tile's layers. areas holds the area ids in force (one per span; nil means
// chf.Areas, the plain build's): the areas every region, contour and polygon
// is built from.
//
// With s.LayerFirst() the tile is built one height layer at a time: the
// spans are split into layers (region.SplitLayers on eroded) and each layer
// is built by BuildLayerMesh on its areas in force. Otherwise (the general
// path) the whole tile is built together: regions by s.Partition
// (Watershed, Monotone with RegionMinAreaCells and RegionMergeAreaCells, or
// the layer partition region.LayersSplitOn with RegionMinAreaCells, split
// on eroded like the layer-first path, regions on areas), contour.Build
// with EdgeMaxErrorCells and EdgeMaxLenCells, polygons of up to
// VertsPerPoly vertices placed by at.Map, the detail mesh with
// DetailSampleDistM and DetailSampleMaxErrorM, and tile data with layer 0.
//
// A layer (or a tile) without polygons makes no navmesh tile. The result is
// new memory; chf, eroded and areas are not changed. scratch (nil allowed)
// is reused memory; it never changes a result. Invalid input gives an error
// naming the value.
func BuildTileMesh(s *NavSettings, at TilePlace, chf *voxel.CompactHeightfield, eroded, areas []uint8, scratch *Scratch) (*TileMesh, error) {
	if s == nil {
		return nil, fmt.Errorf("pipeline: nil settings")
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return buildTileMesh(s, at, chf, eroded, areas, scratch, nil, false, nil)
}

// withAreas returns chf with its areas replaced by areas (a shallow copy;
// chf itself when areas is nil or is chf.Areas), after checking them.
func withAreas(chf *voxel.CompactHeightfield, areas []uint8) (*voxel.CompactHeightfield, error) {
	if chf == nil {
		return nil, fmt.Errorf("pipeline: nil compact heightfield")
	}
	if areas == nil {
		return chf, nil
	}
	if len(areas) != len(chf.Spans) {
		return nil, fmt.Errorf("pipeline: %d areas for a compact heightfield of %d spans", len(areas), len(chf.Spans))
	}
	if len(areas) > 0 && len(chf.Areas) == len(areas) && &areas[0] == &chf.Areas[0] {
		return chf, nil
	}
	c := *chf
	c.Areas = areas
	return &c, nil
}

// checkPlace checks that at fits a compact heightfield on grid g.
func checkPlace(at *TilePlace, g *voxel.Grid) error {
	if w, h := g.Width-2*g.BorderCells, g.Height-2*g.BorderCells; at.Map.WidthCells != w || at.Map.HeightCells != h {
		return fmt.Errorf("pipeline: tile place of %d x %d cells for a heightfield of %d x %d cells inside its border",
			at.Map.WidthCells, at.Map.HeightCells, w, h)
	}
	if at.TX < math.MinInt32 || at.TX > math.MaxInt32 || at.TZ < math.MinInt32 || at.TZ > math.MaxInt32 {
		return fmt.Errorf("pipeline: tile place (%d, %d) outside int32", at.TX, at.TZ)
	}
	return nil
}

// buildTileMesh is BuildTileMesh on valid settings; clock (nil: none)
// charges the stages' durations, and general forces the general path (for
// the tests comparing the two paths). graph, when not nil, is chf's span
// graph (voxel.BuildCompactHeightfieldGraph's), which the layer split then
// does not make again.
func buildTileMesh(s *NavSettings, at TilePlace, chf *voxel.CompactHeightfield, eroded, areas []uint8, scratch *Scratch, clock *stageClock, general bool, graph []int32) (*TileMesh, error) {
	c, err := withAreas(chf, areas)
	if err != nil {
		return nil, err
	}
	split, err := withAreas(chf, eroded)
	if err != nil {
		return nil, fmt.Errorf("pipeline: eroded areas: %w", err)
	}
	if err := checkPlace(&at, &c.Grid); err != nil {
		return nil, err
	}
	if scratch == nil {
		scratch = &Scratch{}
	}
	if clock == nil {
		clock = &stageClock{}
	}
	clock.start()
	if s.LayerFirst() && !general {
		return layerFirstMesh(s, at, split, c.Areas, scratch, clock, graph)
	}

	// The general path.
	b := c.BorderCells
	var regs *region.Result
	switch s.Partition {
	case Watershed:
		regs, err = region.Watershed(c, b, s.RegionMinAreaCells(), s.RegionMergeAreaCells())
	case Monotone:
		regs, err = region.Monotone(c, b, s.RegionMinAreaCells(), s.RegionMergeAreaCells())
	default:
		// Split on the eroded areas (as the layer-first path does), so
		// that each span's layer is the first build's.
		regs, err = region.LayersSplitOn(c, split.Areas, b, s.RegionMinAreaCells())
	}
	if err != nil {
		return nil, err
	}
	clock.lap(StageRegions)
	cset, err := contour.Build(c, regs, s.EdgeMaxErrorCells, s.EdgeMaxLenCells(), contour.DefaultBuildFlags)
	if err != nil {
		return nil, err
	}
	clock.lap(StageContours)
	tm := &TileMesh{Regions: regs}
	lb := LayerBuild{Contours: cset, Regions: regs.RegionCount()}
	if err := polyTile(s, &at, 0, c, regs.IDs, &lb, true, clock); err != nil {
		return nil, err
	}
	tm.Counts.Regions = regs.RegionCount()
	tm.Counts.Layers = 1
	if s.Partition == Layers {
		tm.Counts.Layers = regs.LayerCount
	}
	tm.Counts.addLayer(&lb)
	if lb.Data != nil {
		tm.Layers = []LayerBuild{lb}
	}
	return tm, nil
}

// layerFirstMesh is the layer-first path of buildTileMesh: c is the
// heightfield with the areas the split is decided on (after erosion),
// areas the areas in force (one per span, checked), graph c's span graph
// or nil.
func layerFirstMesh(s *NavSettings, at TilePlace, c *voxel.CompactHeightfield, areas []uint8, scratch *Scratch, clock *stageClock, graph []int32) (*TileMesh, error) {
	var views []region.LayerView
	var spanLayer []uint8
	var err error
	if graph != nil {
		views, spanLayer, err = scratch.splitter.SplitGraph(c, c.BorderCells, graph)
	} else {
		views, spanLayer, err = scratch.splitter.Split(c, c.BorderCells)
	}
	if err != nil {
		return nil, err
	}
	same := len(areas) == 0 || &areas[0] == &c.Areas[0]
	clock.lap(StageRegions)
	tm := &TileMesh{LayerFirst: true}
	ids := make([]uint16, len(c.Spans))
	total := 0
	lab := &scratch.labels
	for li := range views {
		v := &views[li]
		va := v.Areas // the areas in force on the layer's spans
		if !same {
			va = v.GatherAreas(scratch.viewAreas[:0], areas)
			scratch.viewAreas = va
		}
		lb, err := layerMesh(s, &at, &c.Grid, v, va, lab, true, clock)
		if err != nil {
			return nil, fmt.Errorf("pipeline: layer %d: %w", li, err)
		}
		// The tile-wide ids, numbered as region.Layers does (docs/layers.md §7).
		if err := v.TileIDs(lab, total, ids); err != nil {
			return nil, fmt.Errorf("pipeline: %w", err)
		}
		lb.RegionBase = total
		total += lab.Count
		tm.Counts.addLayer(&lb)
		if lb.Data != nil {
			tm.Layers = append(tm.Layers, lb)
		}
	}
	tm.Regions = &region.Result{IDs: ids, Count: total + 1, Layers: spanLayer, LayerCount: len(views)}
	tm.Counts.Regions = total
	tm.Counts.Layers = len(views)
	return tm, nil
}

// BuildLayerMesh builds one height layer of a tile (build3d-runtime.md,
// "Layer-first tiles", steps 2-4): the layer's regions and contours
// (BuildLayerContours), then its polygons, detail mesh and tile data
// (BuildLayerFromContours). areas holds the areas in force, one per view
// span (nil: v.Areas); g is the grid the view was split from (the compact
// heightfield's).
//
// The settings must build layer first (s.LayerFirst()). lab receives the
// layer's regions; the LayerBuild's region ids are lab's, its RegionBase 0.
// Its Detail is nil (see BuildLayerFromContours).
// A layer without polygons has Data nil. Invalid input gives an error
// naming the value.
func BuildLayerMesh(s *NavSettings, at TilePlace, g *voxel.Grid, v *region.LayerView, areas []uint8, lab *region.Labels) (LayerBuild, error) {
	if err := checkLayerFirst(s, "BuildLayerMesh"); err != nil {
		return LayerBuild{}, err
	}
	if g == nil || v == nil || lab == nil {
		return LayerBuild{}, fmt.Errorf("pipeline: BuildLayerMesh: nil grid, view or labels")
	}
	if err := checkPlace(&at, g); err != nil {
		return LayerBuild{}, err
	}
	if err := checkLayerNumber(v.Layer); err != nil {
		return LayerBuild{}, err
	}
	return layerMesh(s, &at, g, v, areas, lab, false, &stageClock{})
}

// BuildLayerContours runs steps 2 and 3 of one height layer
// (build3d-runtime.md, "Layer-first tiles"): the layer's regions
// (v.Regions with RegionMinAreaCells, into lab) and its contours with the
// layer's links only (contour.BuildLayer with EdgeMaxErrorCells,
// EdgeMaxLenCells and contour.DefaultBuildFlags). areas holds the areas in
// force, one per view span (nil: v.Areas); g is the grid the view was split
// from. The settings must build layer first. BuildLayerFromContours takes
// it from there; the tile cache's repair makes the same set another way
// (docs/tilecache.md §11). Invalid input gives an error naming the value.
func BuildLayerContours(s *NavSettings, g *voxel.Grid, v *region.LayerView, areas []uint8, lab *region.Labels) (*contour.Set, error) {
	if err := checkLayerFirst(s, "BuildLayerContours"); err != nil {
		return nil, err
	}
	if g == nil || v == nil || lab == nil {
		return nil, fmt.Errorf("pipeline: BuildLayerContours: nil grid, view or labels")
	}
	return layerContours(s, g, v, areas, lab, &stageClock{})
}

// BuildLayerFromContours runs step 4 of one height layer
// (build3d-runtime.md, "Layer-first tiles"): the polygons of cset (welded
// within the layer, placed by at.Map) and the tile data with the given
// layer number (the detail stage samples nothing here and is skipped:
// Detail is nil, the data hold each polygon's fan, the bytes the detail
// mesh would give; the tile cache's fast path), whose vertical
// origin is the layer's lowest vertex. regions is the layer's region count
// (LayerBuild.Regions). The settings must build layer first; cset is only
// read. A layer without polygons has Data nil. Invalid input gives an
// error naming the value.
func BuildLayerFromContours(s *NavSettings, at TilePlace, layer int, cset *contour.Set, regions int) (LayerBuild, error) {
	if err := checkLayerFirst(s, "BuildLayerFromContours"); err != nil {
		return LayerBuild{}, err
	}
	if cset == nil {
		return LayerBuild{}, fmt.Errorf("pipeline: BuildLayerFromContours: nil contour set")
	}
	if err := checkPlace(&at, &voxel.Grid{Width: cset.Width, Height: cset.Height, BorderCells: cset.Border}); err != nil {
		return LayerBuild{}, err
	}
	if err := checkLayerNumber(layer); err != nil {
		return LayerBuild{}, err
	}
	if regions < 0 {
		return LayerBuild{}, fmt.Errorf("pipeline: BuildLayerFromContours: %d regions, want >= 0", regions)
	}
	return layerFromContours(s, &at, layer, cset, regions, false, &stageClock{})
}

// checkLayerFirst checks that s is valid and builds layer first (fn names
// the caller in the error).
func checkLayerFirst(s *NavSettings, fn string) error {
	if s == nil {
		return fmt.Errorf("pipeline: nil settings")
	}
	if err := s.Validate(); err != nil {
		return err
	}
	if !s.LayerFirst() {
		return fmt.Errorf("pipeline: %s with Partition %v and DetailSampleDistCells %v, want layers and at most %v",
			fn, s.Partition, s.DetailSampleDistCells, polymesh.NoSamplingBelowCells)
	}
	return nil
}

// checkLayerNumber checks that a layer number fits the tile header.
func checkLayerNumber(layer int) error {
	if layer < 0 || layer > math.MaxUint8 {
		return fmt.Errorf("pipeline: layer %d, want 0..%d", layer, math.MaxUint8)
	}
	return nil
}

// layerMesh is BuildLayerMesh on checked arguments (the view and areas are
// checked by the region and contour stages): layerContours, then
// layerFromContours.
func layerMesh(s *NavSettings, at *TilePlace, g *voxel.Grid, v *region.LayerView, areas []uint8, lab *region.Labels, detail bool, clock *stageClock) (LayerBuild, error) {
	cset, err := layerContours(s, g, v, areas, lab, clock)
	if err != nil {
		return LayerBuild{}, err
	}
	return layerFromContours(s, at, v.Layer, cset, lab.Count, detail, clock)
}

// layerContours is BuildLayerContours on checked settings.
func layerContours(s *NavSettings, g *voxel.Grid, v *region.LayerView, areas []uint8, lab *region.Labels, clock *stageClock) (*contour.Set, error) {
	if err := v.Regions(areas, s.RegionMinAreaCells(), lab); err != nil {
		return nil, err
	}
	clock.lap(StageRegions)
	cset, err := contour.BuildLayer(g, v, areas, lab.IDs, s.EdgeMaxErrorCells, s.EdgeMaxLenCells(), contour.DefaultBuildFlags)
	if err != nil {
		return nil, err
	}
	clock.lap(StageContours)
	return cset, nil
}

// layerFromContours is BuildLayerFromContours on checked arguments.
func layerFromContours(s *NavSettings, at *TilePlace, layer int, cset *contour.Set, regions int, detail bool, clock *stageClock) (LayerBuild, error) {
	lb := LayerBuild{Layer: layer, Contours: cset, Regions: regions}
	if err := polyTile(s, at, layer, nil, nil, &lb, detail, clock); err != nil {
		return LayerBuild{}, err
	}
	return lb, nil
}

// polyTile runs the polygon, detail and tile stages on lb.Contours (steps
// shared by both paths) and fills lb. chf and regions are the heightfield
// and region ids the detail stage samples heights from (unused, and may be
// nil, without sampling). A mesh without polygons leaves Detail and Data
// nil. keepDetail false skips the detail stage when it samples nothing
// (Detail nil; the tile data, each polygon's fan, are the same bytes).
func polyTile(s *NavSettings, at *TilePlace, layer int, chf *voxel.CompactHeightfield, regions []uint16, lb *LayerBuild, keepDetail bool, clock *stageClock) error {
	mesh, err := polymesh.BuildMapped(lb.Contours, s.VertsPerPoly, &at.Map)
	if err != nil {
		return err
	}
	for i := range mesh.Flags { // NavSettings.AreaFlags
		mesh.Flags[i] = s.AreaFlags[mesh.Areas[i]&voxel.MaxArea]
	}
	lb.Mesh = mesh
	clock.lap(StagePolys)
	if mesh.PolyCount() == 0 {
		return nil
	}
	var detail *polymesh.Detail
	if keepDetail || polymesh.Sampling(s.DetailSampleDistM(), mesh.CellSizeM) {
		if detail, err = polymesh.BuildDetail(mesh, chf, regions, s.DetailSampleDistM(), s.DetailSampleMaxErrorM()); err != nil {
			return err
		}
	}
	lb.Detail = detail
	clock.lap(StageDetail)
	built, err := navmesh.BuildTile(mesh, detail, navmesh.TileParams{
		TileX:           int32(at.TX),
		TileZ:           int32(at.TZ),
		Layer:           uint8(layer),
		WalkableHeightM: s.AgentHeightM,
		WalkableRadiusM: s.AgentRadiusM,
		WalkableClimbM:  s.AgentMaxClimbM,
		OffMeshLinks:    at.OffMeshLinks,
	})
	if errors.Is(err, navmesh.ErrNoPolygons) {
		return nil
	}
	if err != nil {
		return err
	}
	lb.Built, lb.Data, lb.ContentID = built, built.Data(), built.ContentID()
	clock.lap(StageTile)
	return nil
}

// PolyAreaM2 returns the walkable area of a polygon mesh: the sum over its
// polygons of the area of the polygon projected on x/z, computed in float64
// from the stored float32 positions (Mesh.VertM), square metres. Polygons
// are summed in order, so the result is a function of the mesh.
func PolyAreaM2(m *polymesh.Mesh) float64 {
	if m == nil || m.NVP < 1 {
		return 0
	}
	total := 0.0
	for i := range m.PolyCount() {
		p := m.Poly(i)
		n := m.PolyVertCount(i)
		a := 0.0
		for j := range n {
			u, w := m.VertM(int(p[j])), m.VertM(int(p[(j+1)%n]))
			a += float64(float64(u.X)*float64(w.Z)) - float64(float64(w.X)*float64(u.Z))
		}
		total += float64(math.Abs(a) / 2)
	}
	return total
}
