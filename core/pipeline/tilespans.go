package pipeline

import (
	"slices"

	"navviz/core/region"
	"navviz/core/voxel"
)

// Scratch holds memory reused between BuildTileSpans and BuildTileMesh
// calls: the solid heightfield, the triangle list, the span graph, the
// erosion distances, the layer views, the labels and the areas of a layer. Reuse never changes
// a result. A Scratch is not safe for concurrent use; give each goroutine
// its own. The zero value is ready to use.
type Scratch struct {
	hf        voxel.Heightfield
	tris      []int32
	dist      []uint8
	labels    region.Labels
	viewAreas []uint8
	splitter  region.Splitter // the layer-first path's views
	graph     []int32         // the span graph of the last compact heightfield tileSpans made
	// spare is a compact heightfield the build no longer holds (its tile
	// had nothing walkable, or BuildOptions.Take let it go): the next
	// tileSpans builds into its Cells and Spans (voxel.
	// BuildCompactHeightfieldInto) instead of allocating them. Only
	// buildTile sets it.
	spare *voxel.CompactHeightfield

	// threadClock is set by Build.run's workers, locked to their threads:
	// their stages are timed in thread CPU time (stageClock).
	threadClock bool
}

// BuildTileSpans runs steps 1-3 of build3d-runtime.md for tile (tx, tz) of
// src's TileGrid under settings s (docs/spans.md):
//
//  1. a solid heightfield on the tile's build grid (TileGrid.BuildGrid): the
//     soup's triangles overlapping the grid rasterized in ascending index
//     order, each walkable by slope (AgentMaxSlopeDeg) with its soup area id
//     or else AreaNull, spans merging within WalkableClimbCells; or, for a
//     voxel source, the source's columns under the grid copied as they are;
//  2. the filters in Recast's order (low-hanging walkable obstacles, ledge
//     spans, walkable low-height spans) and the compact heightfield with
//     links for WalkableHeightCells and WalkableClimbCells;
//  3. erosion by WalkableRadiusCells, s.Volumes marked in order, then
//     s.Obstacles marked in order (grown by WalkableRadiusCells).
//
// The result is new memory owned by the caller (the tile cache keeps it). A
// tile whose result has no walkable span has nothing to build. scratch may be
// nil. Settings, source and tile are validated; the error names the bad value.
func BuildTileSpans(s *NavSettings, src *Source, tx, tz int, scratch *Scratch) (*voxel.CompactHeightfield, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	tg, err := src.TileGrid(s)
	if err != nil {
		return nil, err
	}
	g, err := tg.BuildGrid(tx, tz)
	if err != nil {
		return nil, err
	}
	gx0, gz0 := tg.BuildGridCellOffset(tx, tz)
	return tileSpans(s, src, g, gx0, gz0, scratch, nil, nil, nil)
}

// BuildTileSpansStages is BuildTileSpans that also returns what the stages
// saw on the way (TileStages: the solid heightfield after the filters, the
// area ids before and after erosion, and the time of each stage). Its
// compact heightfield is the same as BuildTileSpans', byte for byte; the
// timings never influence it.
func BuildTileSpansStages(s *NavSettings, src *Source, tx, tz int, scratch *Scratch) (*voxel.CompactHeightfield, *TileStages, error) {
	if err := s.Validate(); err != nil {
		return nil, nil, err
	}
	tg, err := src.TileGrid(s)
	if err != nil {
		return nil, nil, err
	}
	g, err := tg.BuildGrid(tx, tz)
	if err != nil {
		return nil, nil, err
	}
	gx0, gz0 := tg.BuildGridCellOffset(tx, tz)
	st := &TileStages{}
	chf, err := tileSpans(s, src, g, gx0, gz0, scratch, &st.Times, st, nil)
	if err != nil {
		return nil, nil, err
	}
	return chf, st, nil
}

// tileSpans runs steps 1-3 on build grid g (a tile's, or the solo grid)
// under the valid settings s; (gx0, gz0) is the level cell of the grid's
// column (0, 0), where a voxel source's columns are copied from. When times
// is not nil it receives the duration of each stage; when keep is not nil
// it receives copies of the intermediate results. Neither changes the
// result. When eroded is not nil it receives the areas after erosion,
// before the volumes and obstacles: a copy when any is marked, else the
// compact heightfield's own Areas.
func tileSpans(s *NavSettings, src *Source, g voxel.Grid, gx0, gz0 int, scratch *Scratch, times *StageTimes, keep *TileStages, eroded *[]uint8) (*voxel.CompactHeightfield, error) {
	var err error
	if scratch == nil {
		scratch = &Scratch{}
	}
	clock := stageClock{times: times, cpu: scratch.threadClock}
	clock.start()
	hf := &scratch.hf
	if err := hf.Reset(g); err != nil {
		return nil, err
	}
	climb := s.WalkableClimbCells()
	height := s.WalkableHeightCells()

	// Step 1: the solid heightfield.
	if src.voxels != nil {
		if err := hf.CopyWindow(src.voxels, gx0, gz0); err != nil {
			return nil, err
		}
	} else {
		var tris []int32 // nil: every triangle
		if src.query != nil {
			tris = src.query.Query(g.OriginM.X, g.OriginM.Z, g.MaxM.X, g.MaxM.Z, scratch.tris[:0])
			if !slices.IsSorted(tris) {
				slices.Sort(tris)
			}
			tris = slices.Compact(tris)
			if tris == nil {
				tris = []int32{}
			}
			scratch.tris = tris
		}
		if err := hf.RasterizeSoup(src.soup, tris, s.AgentMaxSlopeDeg, climb); err != nil {
			return nil, err
		}
	}
	clock.lap(StageRasterize)

	// Step 2: filters (the three in one pass) and compaction.
	if err := hf.FilterSpans(height, climb); err != nil {
		return nil, err
	}
	clock.lap(StageFilter)
	if keep != nil {
		if keep.Solid, err = cloneHeightfield(hf); err != nil {
			return nil, err
		}
		clock.start() // the copy is not part of a stage
	}
	var chf *voxel.CompactHeightfield
	var graph []int32
	if scratch.spare != nil {
		chf, graph, err = voxel.BuildCompactHeightfieldInto(scratch.spare, hf, height, climb, scratch.graph)
		scratch.spare = nil // chf is the caller's now
	} else {
		chf, graph, err = voxel.BuildCompactHeightfieldGraph(hf, height, climb, scratch.graph)
	}
	if err != nil {
		return nil, err
	}
	scratch.graph = graph
	clock.lap(StageCompact)

	// Step 3: erosion and build-time volumes.
	if keep != nil {
		keep.PreErosionAreas = slices.Clone(chf.Areas)
		clock.start()
	}
	if scratch.dist, err = chf.ErodeWalkableAreaGraph(s.WalkableRadiusCells(), graph, scratch.dist); err != nil {
		return nil, err
	}
	clock.lap(StageErode)
	if keep != nil {
		keep.ErodedAreas = slices.Clone(chf.Areas)
	}
	if eroded != nil {
		*eroded = chf.Areas
		if len(s.Volumes) > 0 || len(s.Obstacles) > 0 {
			*eroded = slices.Clone(chf.Areas)
		}
	}
	if keep != nil || eroded != nil {
		clock.start()
	}
	for i := range s.Volumes {
		if err := voxel.MarkConvexVolume(chf, &s.Volumes[i]); err != nil {
			return nil, err
		}
	}
	for i := range s.Obstacles {
		if _, err := voxel.MarkObstacle(chf, &s.Obstacles[i], s.WalkableRadiusCells()); err != nil {
			return nil, err
		}
	}
	clock.lap(StageVolumes)
	return chf, nil
}

// cloneHeightfield returns a copy of h (same grid and spans, bottom up in
// each column).
func cloneHeightfield(h *voxel.Heightfield) (*voxel.Heightfield, error) {
	n := h.Width * h.Height
	flat := make([]voxel.Span, 0, h.SpanCount())
	ends := make([]int, n)
	for z := 0; z < h.Height; z++ {
		for x := 0; x < h.Width; x++ {
			flat = h.AppendColumn(flat, x, z)
			ends[x+z*h.Width] = len(flat)
		}
	}
	cols := make([][]voxel.Span, n)
	start := 0
	for c, e := range ends {
		cols[c] = flat[start:e:e]
		start = e
	}
	return voxel.NewHeightfieldFromColumns(h.Grid, cols)
}
