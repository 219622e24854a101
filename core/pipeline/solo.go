package pipeline

import (
	"context"
	"fmt"
	"slices"

	"navviz/core/polymesh"
	"navviz/core/voxel"
)

// The solo build: the whole level as one tile with no border, as Recast's
// solo sample (Sample_SoloMesh) builds it, for comparison with Recast's
// published figures.

// SoloGrid returns the grid of a solo build of src under settings s: for a
// soup, origin and max corner the soup's bounds and Width, Height the
// bounds' extent in cells rounded as Recast's rcCalcGridSize does,
// (int)(extent/CellSizeM + 0.5) in float32 (at least 1); for a voxel source,
// its own grid. The border is 0. The grid is validated (voxel.Grid.Validate).
func SoloGrid(s *NavSettings, src *Source) (voxel.Grid, error) {
	if s == nil {
		return voxel.Grid{}, fmt.Errorf("pipeline: nil settings")
	}
	if src == nil {
		return voxel.Grid{}, fmt.Errorf("pipeline: nil source")
	}
	if err := s.Validate(); err != nil {
		return voxel.Grid{}, err
	}
	return soloGrid(s, src)
}

// soloGrid is SoloGrid on valid arguments.
func soloGrid(s *NavSettings, src *Source) (voxel.Grid, error) {
	if h := src.voxels; h != nil {
		if h.CellSizeM != s.CellSizeM || h.CellHeightM != s.CellHeightM {
			return voxel.Grid{}, fmt.Errorf("pipeline: voxel source cells are %v x %v m, settings say CellSizeM %v, CellHeightM %v",
				h.CellSizeM, h.CellHeightM, s.CellSizeM, s.CellHeightM)
		}
		g := h.Grid
		g.BorderCells = 0
		return g, g.Validate()
	}
	b := src.bounds
	cells := func(axis string, lo, hi float32) (int, error) {
		q := float32((hi-lo)/s.CellSizeM) + 0.5
		if !(q < voxel.MaxGridSide+1) {
			return 0, fmt.Errorf("pipeline: level is %v m along %s, %v cells of %v m, more than the %d of one grid", hi-lo, axis, q, s.CellSizeM, voxel.MaxGridSide)
		}
		return max(int(q), 1), nil
	}
	w, err := cells("x", b.Min.X, b.Max.X)
	if err != nil {
		return voxel.Grid{}, err
	}
	h, err := cells("z", b.Min.Z, b.Max.Z)
	if err != nil {
		return voxel.Grid{}, err
	}
	g := voxel.Grid{Width: w, Height: h, OriginM: b.Min, MaxM: b.Max, CellSizeM: s.CellSizeM, CellHeightM: s.CellHeightM}
	return g, g.Validate()
}

// BuildSoloSpans runs steps 1-3 (as BuildTileSpans does for a tile) on the
// solo grid of src (SoloGrid): every triangle of a soup rasterized in index
// order, or a voxel source's columns copied, then the filters, compaction,
// erosion, s.Volumes and s.Obstacles. scratch may be nil.
func BuildSoloSpans(s *NavSettings, src *Source, scratch *Scratch) (*voxel.CompactHeightfield, error) {
	g, err := SoloGrid(s, src)
	if err != nil {
		return nil, err
	}
	return tileSpans(s, src, g, 0, 0, scratch, nil, nil, nil)
}

// soloPlace is the place of the solo tile on grid g: tile (0, 0), the map
// with BaseM = the grid's origin and no cell offset (polymesh.DefaultMap of
// a grid without border: Recast's bmin + v*cs).
func soloPlace(g *voxel.Grid) TilePlace {
	return TilePlace{Map: polymesh.CoordMap{
		BaseM:       g.OriginM,
		CellSizeM:   g.CellSizeM,
		CellHeightM: g.CellHeightM,
		WidthCells:  g.Width,
		HeightCells: g.Height,
	}}
}

// BuildSolo is BuildLevel with the whole level as one tile (Recast's solo
// mesh): steps 1-3 on the solo grid (SoloGrid: the level's bounds, border 0,
// sizes rounded as rcCalcGridSize), then step 5 (BuildTileMesh) as for any
// tile, and the tile's navmesh tiles (tile (0, 0), one per layer on the
// layer-first path) in Build.Mesh. Without a border nothing is a tile
// border: the polygons have no portal edges.
//
// Build.Grid describes the one tile: TilesX = TilesZ = 1, CellsX and CellsZ
// the solo grid's size, BorderCells 0 and TileSizeCells the larger of the
// two (the tile's own grid is TileBuild.Spans'; s.TileSizeCells is not
// used). Build.Solo is set. Options, cancellation and errors are as for
// BuildLevel; the size check is EstimateSolo's.
func BuildSolo(ctx context.Context, s *NavSettings, src *Source, opt BuildOptions) (*Build, error) {
	if _, err := EstimateSolo(s, src, opt); err != nil {
		return nil, err
	}
	b := &Build{Settings: cloneSettings(s)}
	set := &b.Settings
	links := slices.Clone(opt.OffMeshLinks)
	g, err := soloGrid(set, src)
	if err != nil {
		return nil, err
	}
	b.Solo = true
	b.Grid = &TileGrid{
		BoundsM:       src.bounds,
		CellSizeM:     set.CellSizeM,
		CellHeightM:   set.CellHeightM,
		TileSizeCells: max(g.Width, g.Height),
		CellsX:        g.Width,
		CellsZ:        g.Height,
		TilesX:        1,
		TilesZ:        1,
	}
	job := func(i int, scratch *Scratch, r *TileBuild, keep *TileStages) (*voxel.CompactHeightfield, TilePlace, error) {
		chf, err := tileSpans(set, src, g, 0, 0, scratch, &r.Times, keep, &r.ErodedAreas)
		at := soloPlace(&g)
		at.OffMeshLinks = links
		return chf, at, err
	}
	if err := b.run(ctx, opt, 1, job); err != nil {
		return nil, err
	}
	return b, nil
}
