package pipeline

import (
	"fmt"
	"math"

	"navviz/core/geom"
	"navviz/core/voxel"
)

// MaxLevelCells bounds the level's size along x and z, in cells (float32
// represents every cell index below it exactly).
const MaxLevelCells = 1 << 24

// TileGrid is the tiling of a level: its cell grid starts at the level's min
// corner and is cut into square tiles of TileSizeCells cells. Tile (tx, tz)
// owns global cells [tx*TileSizeCells, (tx+1)*TileSizeCells) along x (same
// for z); its build grid adds BorderCells cells on every side.
//
// The world x of global cell line k is BoundsM.Min.X + float32(k)*CellSizeM
// (the product rounded to float32 before the sum); the same for z. Every
// tile and build-grid edge is such a line, so neighbouring tiles share their
// edges bit for bit.
type TileGrid struct {
	// BoundsM is the level's box, metres. Min is the grid origin; the y range
	// is every build grid's vertical range.
	BoundsM geom.Box3
	// CellSizeM and CellHeightM are the voxel sizes, metres.
	CellSizeM, CellHeightM float32
	// TileSizeCells is the side of a tile, cells.
	TileSizeCells int
	// BorderCells is the border ring of each build grid, cells.
	BorderCells int
	// CellsX and CellsZ are the level's size in cells: ceil(extent/CellSizeM)
	// in float32, at least 1.
	CellsX, CellsZ int
	// TilesX and TilesZ are the tile counts: ceil(Cells/TileSizeCells).
	TilesX, TilesZ int
}

// NewTileGrid returns the tile grid of a level with box boundsM under the
// (valid) settings s. The box must be non-empty, finite and within
// ±voxel.MaxCoordM, at most MaxLevelCells cells across, and its height must
// fit the span rows (ceil(height * (1/CellHeightM)) < voxel.MaxSpanRow).
func NewTileGrid(s *NavSettings, boundsM geom.Box3) (*TileGrid, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if boundsM.Empty() {
		return nil, fmt.Errorf("pipeline: level bounds %v are empty", boundsM)
	}
	for _, p := range [2]geom.Vec3{boundsM.Min, boundsM.Max} {
		for _, v := range [3]float32{p.X, p.Y, p.Z} {
			if !(v >= -voxel.MaxCoordM && v <= voxel.MaxCoordM) {
				return nil, fmt.Errorf("pipeline: level bounds %v not finite or outside ±%d m", boundsM, voxel.MaxCoordM)
			}
		}
	}
	g := &TileGrid{
		BoundsM:       boundsM,
		CellSizeM:     s.CellSizeM,
		CellHeightM:   s.CellHeightM,
		TileSizeCells: s.TileSizeCells,
		BorderCells:   s.BorderCells(),
	}
	cells := func(axis string, lo, hi float32) (int, error) {
		q := math.Ceil(float64((hi - lo) / s.CellSizeM))
		if q > MaxLevelCells {
			return 0, fmt.Errorf("pipeline: level is %v m along %s, %v cells of %v m, more than %d", hi-lo, axis, q, s.CellSizeM, MaxLevelCells)
		}
		return max(int(q), 1), nil
	}
	var err error
	if g.CellsX, err = cells("x", boundsM.Min.X, boundsM.Max.X); err != nil {
		return nil, err
	}
	if g.CellsZ, err = cells("z", boundsM.Min.Z, boundsM.Max.Z); err != nil {
		return nil, err
	}
	g.TilesX = (g.CellsX + g.TileSizeCells - 1) / g.TileSizeCells
	g.TilesZ = (g.CellsZ + g.TileSizeCells - 1) / g.TileSizeCells
	by := boundsM.Max.Y - boundsM.Min.Y
	if rows := math.Ceil(float64(by * (1 / s.CellHeightM))); !(rows < voxel.MaxSpanRow) {
		return nil, fmt.Errorf("pipeline: level is %v m high, %v rows of %v m, want below %d", by, rows, s.CellHeightM, voxel.MaxSpanRow)
	}
	return g, nil
}

// newTileGridCells is NewTileGrid for a level given in cells (a voxel
// source): the grid has exactly cellsX x cellsZ cells from originM.
func newTileGridCells(s *NavSettings, originM geom.Vec3, topM float32, cellsX, cellsZ int) (*TileGrid, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if cellsX < 1 || cellsZ < 1 || cellsX > MaxLevelCells || cellsZ > MaxLevelCells {
		return nil, fmt.Errorf("pipeline: level of %d x %d cells, want 1..%d each", cellsX, cellsZ, MaxLevelCells)
	}
	g := &TileGrid{
		CellSizeM:     s.CellSizeM,
		CellHeightM:   s.CellHeightM,
		TileSizeCells: s.TileSizeCells,
		BorderCells:   s.BorderCells(),
		CellsX:        cellsX,
		CellsZ:        cellsZ,
	}
	g.BoundsM.Min = originM
	g.BoundsM.Max = geom.Vec3{X: g.lineX(cellsX), Y: topM, Z: g.lineZ(cellsZ)}
	g.TilesX = (cellsX + g.TileSizeCells - 1) / g.TileSizeCells
	g.TilesZ = (cellsZ + g.TileSizeCells - 1) / g.TileSizeCells
	return g, nil
}

// lineX returns the world x of global cell line k.
func (g *TileGrid) lineX(k int) float32 {
	return g.BoundsM.Min.X + float32(float32(k)*g.CellSizeM)
}

// lineZ returns the world z of global cell line k.
func (g *TileGrid) lineZ(k int) float32 {
	return g.BoundsM.Min.Z + float32(float32(k)*g.CellSizeM)
}

// TileCount returns TilesX * TilesZ.
func (g *TileGrid) TileCount() int {
	if g == nil {
		return 0
	}
	return g.TilesX * g.TilesZ
}

// TileSizeM returns TileSizeCells * CellSizeM (float32).
func (g *TileGrid) TileSizeM() float32 {
	if g == nil {
		return 0
	}
	return float32(g.TileSizeCells) * g.CellSizeM
}

// CheckTile returns an error naming (tx, tz) when it is not a tile of g.
func (g *TileGrid) CheckTile(tx, tz int) error {
	if g == nil {
		return fmt.Errorf("pipeline: tile (%d, %d) of a nil TileGrid", tx, tz)
	}
	if tx < 0 || tz < 0 || tx >= g.TilesX || tz >= g.TilesZ {
		return fmt.Errorf("pipeline: tile (%d, %d) outside the %d x %d tiles", tx, tz, g.TilesX, g.TilesZ)
	}
	return nil
}

// TileBoxM returns the box of tile (tx, tz)'s own cells (no border): x and z
// from its first to its last cell line, y the level's range.
func (g *TileGrid) TileBoxM(tx, tz int) (geom.Box3, error) {
	if err := g.CheckTile(tx, tz); err != nil {
		return geom.Box3{}, err
	}
	t := g.TileSizeCells
	return geom.Box3{
		Min: geom.Vec3{X: g.lineX(tx * t), Y: g.BoundsM.Min.Y, Z: g.lineZ(tz * t)},
		Max: geom.Vec3{X: g.lineX((tx + 1) * t), Y: g.BoundsM.Max.Y, Z: g.lineZ((tz + 1) * t)},
	}, nil
}

// BuildGrid returns the build grid of tile (tx, tz): TileSizeCells +
// 2*BorderCells columns each way, starting at global cell
// (tx*TileSizeCells - BorderCells, tz*TileSizeCells - BorderCells); OriginM
// and MaxM are those cell lines in x and z and the level's y range.
func (g *TileGrid) BuildGrid(tx, tz int) (voxel.Grid, error) {
	if err := g.CheckTile(tx, tz); err != nil {
		return voxel.Grid{}, err
	}
	t, b := g.TileSizeCells, g.BorderCells
	gx0, gz0 := tx*t-b, tz*t-b
	n := t + 2*b
	vg := voxel.Grid{
		Width:       n,
		Height:      n,
		BorderCells: b,
		OriginM:     geom.Vec3{X: g.lineX(gx0), Y: g.BoundsM.Min.Y, Z: g.lineZ(gz0)},
		MaxM:        geom.Vec3{X: g.lineX(gx0 + n), Y: g.BoundsM.Max.Y, Z: g.lineZ(gz0 + n)},
		CellSizeM:   g.CellSizeM,
		CellHeightM: g.CellHeightM,
	}
	return vg, vg.Validate()
}

// BuildGridCellOffset returns the global cell of column (0, 0) of tile
// (tx, tz)'s build grid: (tx*TileSizeCells - BorderCells, tz*TileSizeCells -
// BorderCells). It may be negative.
func (g *TileGrid) BuildGridCellOffset(tx, tz int) (gx0, gz0 int) {
	if g == nil {
		return 0, 0
	}
	return tx*g.TileSizeCells - g.BorderCells, tz*g.TileSizeCells - g.BorderCells
}

// TileAt returns the tile whose own cells contain world point p (x and z;
// y is ignored): tile tx covers x in [line(tx*T), line((tx+1)*T)), and the
// last tile also its far edge. A point outside the tiles, or not finite, is
// an error naming it.
func (g *TileGrid) TileAt(p geom.Vec3) (tx, tz int, err error) {
	if g == nil {
		return 0, 0, fmt.Errorf("pipeline: TileAt on a nil TileGrid")
	}
	tx, okx := g.tileIndex(p.X, g.BoundsM.Min.X, g.TilesX, g.lineX)
	tz, okz := g.tileIndex(p.Z, g.BoundsM.Min.Z, g.TilesZ, g.lineZ)
	if !okx || !okz {
		return 0, 0, fmt.Errorf("pipeline: point (%v, %v) outside the tiles [%v, %v] x [%v, %v]",
			p.X, p.Z, g.BoundsM.Min.X, g.lineX(g.TilesX*g.TileSizeCells), g.BoundsM.Min.Z, g.lineZ(g.TilesZ*g.TileSizeCells))
	}
	return tx, tz, nil
}

func (g *TileGrid) tileIndex(v, origin float32, tiles int, line func(int) float32) (int, bool) {
	t := g.TileSizeCells
	if tiles <= 0 || t <= 0 || !(v >= origin && v <= line(tiles*t)) {
		return 0, false
	}
	est := math.Floor(float64((v - origin) / g.TileSizeM()))
	i := int(min(max(est, 0), float64(tiles-1)))
	// The estimate is off by at most one near an edge; settle it on the
	// cell lines themselves.
	for i > 0 && v < line(i*t) {
		i--
	}
	for i < tiles-1 && v >= line((i+1)*t) {
		i++
	}
	return i, true
}
