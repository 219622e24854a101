package pipeline

import (
	"slices"

	"navviz/core/voxel"
)

// Scratch holds memory reused between BuildTileSpans calls: the solid
// heightfield, the triangle list and the erosion distances. Reuse never
// changes a result. A Scratch is not safe for concurrent use; give each
// goroutine its own. The zero value is ready to use.
type Scratch struct {
	hf   voxel.Heightfield
	tris []int32
	dist []uint8
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
//  3. erosion by WalkableRadiusCells and s.Volumes marked in order.
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
	if scratch == nil {
		scratch = &Scratch{}
	}
	hf := &scratch.hf
	if err := hf.Reset(g); err != nil {
		return nil, err
	}
	climb := s.WalkableClimbCells()
	height := s.WalkableHeightCells()

	// Step 1: the solid heightfield.
	if src.voxels != nil {
		gx0, gz0 := tg.BuildGridCellOffset(tx, tz)
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

	// Step 2: filters and compaction.
	if err := hf.FilterLowHangingWalkableObstacles(climb); err != nil {
		return nil, err
	}
	if err := hf.FilterLedgeSpans(height, climb); err != nil {
		return nil, err
	}
	if err := hf.FilterWalkableLowHeightSpans(height); err != nil {
		return nil, err
	}
	chf, err := voxel.BuildCompactHeightfield(hf, height, climb)
	if err != nil {
		return nil, err
	}

	// Step 3: erosion and build-time volumes.
	if scratch.dist, err = chf.ErodeWalkableArea(s.WalkableRadiusCells(), scratch.dist); err != nil {
		return nil, err
	}
	for i := range s.Volumes {
		if err := voxel.MarkConvexVolume(chf, &s.Volumes[i]); err != nil {
			return nil, err
		}
	}
	return chf, nil
}
