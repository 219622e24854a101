package pipeline

import (
	"fmt"
	"math"
	"strings"

	"navviz/core/voxel"
)

// PartitionType selects how the walkable area of a tile is split into
// regions (the regions stage; see NavSettings.Partition).
type PartitionType uint8

const (
	// Watershed partitions along the distance field (Recast's rcBuildRegions).
	Watershed PartitionType = iota
	// Monotone sweeps monotone regions (rcBuildRegionsMonotone).
	Monotone
	// Layers builds monotone regions on height layers, the tile cache's
	// cheapest rebuild (build3d-runtime.md, "Layer-first tiles").
	Layers
)

var partitionNames = [...]string{Watershed: "watershed", Monotone: "monotone", Layers: "layers"}

// String returns "watershed", "monotone" or "layers" (or "PartitionType(n)"
// for an invalid value).
func (p PartitionType) String() string {
	if int(p) < len(partitionNames) {
		return partitionNames[p]
	}
	return fmt.Sprintf("PartitionType(%d)", uint8(p))
}

// ParsePartitionType returns the partition named s (case-insensitive,
// surrounding spaces ignored): "watershed", "monotone" or "layers".
func ParsePartitionType(s string) (PartitionType, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for i, n := range partitionNames {
		if n == t {
			return PartitionType(i), nil
		}
	}
	return 0, fmt.Errorf("pipeline: unknown partition type %q, want watershed, monotone or layers", s)
}

// NavSettings are the parameters of a tiled navmesh build. Every field names
// its unit: M metres, Deg degrees, Cells cells (a cell is CellSizeM wide
// along x and z and CellHeightM high along y; error values in Cells are in
// CellSizeM for edges and in CellHeightM for detail heights). The voxel values
// the stages use are derived by the methods (WalkableHeightCells, ...).
type NavSettings struct {
	// CellSizeM is the size of a voxel column along x and z, metres (0.001..1000).
	CellSizeM float32
	// CellHeightM is the height of a voxel row, metres (0.001..1000).
	CellHeightM float32
	// AgentHeightM is the clearance an agent needs, metres (> 0; at most 255 rows).
	AgentHeightM float32
	// AgentRadiusM is the agent's radius, metres (>= 0; at most 127 cells).
	AgentRadiusM float32
	// AgentMaxClimbM is the largest step an agent climbs, metres (>= 0; at most 8191 rows).
	AgentMaxClimbM float32
	// AgentMaxSlopeDeg is the steepest walkable slope, degrees (0..90). A
	// triangle is walkable when its normal's y exceeds cos of this angle.
	AgentMaxSlopeDeg float32
	// TileSizeCells is the side of a tile, cells (8..4096).
	TileSizeCells int
	// Partition selects the region partition.
	Partition PartitionType
	// RegionMinSizeCells is the side of the smallest region kept, cells
	// (0..4096; the area is its square, RegionMinAreaCells).
	RegionMinSizeCells int
	// RegionMergeSizeCells is the side of regions merged into neighbours,
	// cells (0..4096; area RegionMergeAreaCells).
	RegionMergeSizeCells int
	// EdgeMaxLenM is the longest contour edge, metres (>= 0; 0 disables
	// splitting; at most 2^20 cells).
	EdgeMaxLenM float32
	// EdgeMaxErrorCells is the largest distance of a simplified contour from
	// the raw one, cells (0..100).
	EdgeMaxErrorCells float32
	// VertsPerPoly is the largest polygon's vertex count (3..6).
	VertsPerPoly int
	// DetailSampleDistCells is the detail mesh's sample spacing, cells
	// (0..1000; at most 0.9 means no height sampling).
	DetailSampleDistCells float32
	// DetailSampleMaxErrorCells is the detail mesh's largest height error,
	// cell heights (0..1000).
	DetailSampleMaxErrorCells float32
	// Volumes are the build-time area volumes, applied after erosion in
	// order (the later wins where they overlap).
	Volumes []voxel.ConvexVolume
	// Obstacles are build-time obstacles (build3d-runtime.md, "Baking"),
	// marked on every tile in list order after erosion and Volumes, grown by
	// WalkableRadiusCells (voxel.MarkObstacle). A build copies the list and
	// never reads it again: a tile cache built with them sees them as part
	// of the geometry, and its own obstacles come after them.
	Obstacles []voxel.Obstacle
	// AreaFlags gives the polygon flags of each area id: every polygon a
	// build makes (plain build and tile cache alike) gets the flags of its
	// area, stored in the tile data (Detour's tile-cache mesh process), so
	// query filters (query.Filter, whose IncludeFlags follow Detour: a
	// polygon with no flag passes no filter) keep working when the cache
	// swaps a tile. DefaultSettings gives every walkable area (1..63)
	// DefaultAreaFlags.
	AreaFlags [voxel.MaxArea + 1]uint16
}

// DefaultAreaFlags is the flag DefaultSettings gives every walkable area
// ("walk"; query.DefaultFilter includes it).
const DefaultAreaFlags uint16 = 1

// DefaultAreaTable returns the area flags of DefaultSettings:
// DefaultAreaFlags for areas 1..63, 0 for area 0 (not walkable).
func DefaultAreaTable() [voxel.MaxArea + 1]uint16 {
	var t [voxel.MaxArea + 1]uint16
	for a := 1; a < len(t); a++ {
		t[a] = DefaultAreaFlags
	}
	return t
}

// DefaultSettings returns the defaults of DESIGN.md (Recast's demo): cell
// 0.3 m, cell height 0.2 m, agent height 2.0 m, radius 0.6 m, climb 0.9 m,
// slope 45°, tile 64 cells, watershed, region min size 8 and merge size 20
// cells, edge max length 12 m, max error 1.3 cells, 6 verts per poly, detail
// sample distance 6 cells and max error 1 cell height, no volumes, flag
// DefaultAreaFlags on every walkable area.
func DefaultSettings() NavSettings {
	return NavSettings{
		CellSizeM:                 0.3,
		CellHeightM:               0.2,
		AgentHeightM:              2.0,
		AgentRadiusM:              0.6,
		AgentMaxClimbM:            0.9,
		AgentMaxSlopeDeg:          45,
		TileSizeCells:             64,
		Partition:                 Watershed,
		RegionMinSizeCells:        8,
		RegionMergeSizeCells:      20,
		EdgeMaxLenM:               12,
		EdgeMaxErrorCells:         1.3,
		VertsPerPoly:              6,
		DetailSampleDistCells:     6,
		DetailSampleMaxErrorCells: 1,
		AreaFlags:                 DefaultAreaTable(),
	}
}

// Limits checked by Validate.
const (
	MinCellSizeM       = 0.001
	MaxCellSizeM       = 1000
	MinTileSizeCells   = 8
	MaxTileSizeCells   = 4096
	MaxRegionSideCells = 4096
	MinVertsPerPoly    = 3
	MaxVertsPerPoly    = 6
)

func finite(v float32) bool { return !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) }

func rangeErr(field string, v any, want string) error {
	return fmt.Errorf("pipeline: NavSettings.%s = %v, want %s", field, v, want)
}

// Validate checks every field and the derived voxel values; the error names
// the first bad field and its value. A valid NavSettings gives derived values
// within: WalkableHeightCells 1..255, WalkableClimbCells 0..8191,
// WalkableRadiusCells 0..127, EdgeMaxLenCells 0..2^20.
func (s *NavSettings) Validate() error {
	if s == nil {
		return fmt.Errorf("pipeline: nil NavSettings")
	}
	inRange := func(field string, v, lo, hi float32) error {
		if !finite(v) || v < lo || v > hi {
			return rangeErr(field, v, fmt.Sprintf("a finite number in [%v, %v]", lo, hi))
		}
		return nil
	}
	if err := inRange("CellSizeM", s.CellSizeM, MinCellSizeM, MaxCellSizeM); err != nil {
		return err
	}
	if err := inRange("CellHeightM", s.CellHeightM, MinCellSizeM, MaxCellSizeM); err != nil {
		return err
	}
	if !finite(s.AgentHeightM) || s.AgentHeightM <= 0 {
		return rangeErr("AgentHeightM", s.AgentHeightM, "a finite number > 0")
	}
	if n := s.WalkableHeightCells(); n > voxel.MaxClearanceCells {
		return rangeErr("AgentHeightM", s.AgentHeightM, fmt.Sprintf("at most %d rows of CellHeightM %v (it is %d)", voxel.MaxClearanceCells, s.CellHeightM, n))
	}
	if !finite(s.AgentRadiusM) || s.AgentRadiusM < 0 {
		return rangeErr("AgentRadiusM", s.AgentRadiusM, "a finite number >= 0")
	}
	if n := s.WalkableRadiusCells(); n > voxel.MaxErodeRadiusCells {
		return rangeErr("AgentRadiusM", s.AgentRadiusM, fmt.Sprintf("at most %d cells of CellSizeM %v (it is %d)", voxel.MaxErodeRadiusCells, s.CellSizeM, n))
	}
	if !finite(s.AgentMaxClimbM) || s.AgentMaxClimbM < 0 {
		return rangeErr("AgentMaxClimbM", s.AgentMaxClimbM, "a finite number >= 0")
	}
	if n := s.WalkableClimbCells(); n > voxel.MaxSpanRow {
		return rangeErr("AgentMaxClimbM", s.AgentMaxClimbM, fmt.Sprintf("at most %d rows of CellHeightM %v (it is %d)", voxel.MaxSpanRow, s.CellHeightM, n))
	}
	if err := inRange("AgentMaxSlopeDeg", s.AgentMaxSlopeDeg, 0, 90); err != nil {
		return err
	}
	if s.TileSizeCells < MinTileSizeCells || s.TileSizeCells > MaxTileSizeCells {
		return rangeErr("TileSizeCells", s.TileSizeCells, fmt.Sprintf("%d..%d", MinTileSizeCells, MaxTileSizeCells))
	}
	if s.Partition > Layers {
		return rangeErr("Partition", s.Partition, "Watershed, Monotone or Layers")
	}
	if s.RegionMinSizeCells < 0 || s.RegionMinSizeCells > MaxRegionSideCells {
		return rangeErr("RegionMinSizeCells", s.RegionMinSizeCells, fmt.Sprintf("0..%d", MaxRegionSideCells))
	}
	if s.RegionMergeSizeCells < 0 || s.RegionMergeSizeCells > MaxRegionSideCells {
		return rangeErr("RegionMergeSizeCells", s.RegionMergeSizeCells, fmt.Sprintf("0..%d", MaxRegionSideCells))
	}
	if !finite(s.EdgeMaxLenM) || s.EdgeMaxLenM < 0 {
		return rangeErr("EdgeMaxLenM", s.EdgeMaxLenM, "a finite number >= 0")
	}
	if q := s.EdgeMaxLenM / s.CellSizeM; q > 1<<20 {
		return rangeErr("EdgeMaxLenM", s.EdgeMaxLenM, fmt.Sprintf("at most 2^20 cells of CellSizeM %v", s.CellSizeM))
	}
	if err := inRange("EdgeMaxErrorCells", s.EdgeMaxErrorCells, 0, 100); err != nil {
		return err
	}
	if s.VertsPerPoly < MinVertsPerPoly || s.VertsPerPoly > MaxVertsPerPoly {
		return rangeErr("VertsPerPoly", s.VertsPerPoly, fmt.Sprintf("%d..%d", MinVertsPerPoly, MaxVertsPerPoly))
	}
	if err := inRange("DetailSampleDistCells", s.DetailSampleDistCells, 0, 1000); err != nil {
		return err
	}
	if err := inRange("DetailSampleMaxErrorCells", s.DetailSampleMaxErrorCells, 0, 1000); err != nil {
		return err
	}
	for i := range s.Volumes {
		if err := s.Volumes[i].Validate(); err != nil {
			return fmt.Errorf("pipeline: NavSettings.Volumes[%d]: %w", i, err)
		}
	}
	for i := range s.Obstacles {
		if err := s.Obstacles[i].Validate(); err != nil {
			return fmt.Errorf("pipeline: NavSettings.Obstacles[%d]: %w", i, err)
		}
	}
	return nil
}

// Derived values. Each divides two float32 settings in float32 (IEEE single,
// correctly rounded, as Recast's C++ does in float) and then rounds the
// quotient to an integer as Recast's demo does; they are meaningful for
// settings that pass Validate. In float32, 0.9/0.2 is 4.4999998 (climb 4) and
// 0.6/0.2 is exactly 3, where float64 would give 2.9999999 (2).

// WalkableHeightCells is ceil(AgentHeightM / CellHeightM): the clearance an
// agent needs, in rows (10 with the defaults).
func (s *NavSettings) WalkableHeightCells() int {
	if s == nil {
		return 0
	}
	return ceilInt(s.AgentHeightM / s.CellHeightM)
}

// WalkableClimbCells is floor(AgentMaxClimbM / CellHeightM): the largest
// step, in rows (4 with the defaults).
func (s *NavSettings) WalkableClimbCells() int {
	if s == nil {
		return 0
	}
	return floorInt(s.AgentMaxClimbM / s.CellHeightM)
}

// WalkableRadiusCells is ceil(AgentRadiusM / CellSizeM): the erosion radius,
// in cells (2 with the defaults).
func (s *NavSettings) WalkableRadiusCells() int {
	if s == nil {
		return 0
	}
	return ceilInt(s.AgentRadiusM / s.CellSizeM)
}

// BorderCells is WalkableRadiusCells + 3: the ring of cells built around each
// tile (5 with the defaults).
func (s *NavSettings) BorderCells() int {
	if s == nil {
		return 0
	}
	return s.WalkableRadiusCells() + 3
}

// RegionMinAreaCells is RegionMinSizeCells squared (64 with the defaults).
func (s *NavSettings) RegionMinAreaCells() int {
	if s == nil {
		return 0
	}
	return s.RegionMinSizeCells * s.RegionMinSizeCells
}

// RegionMergeAreaCells is RegionMergeSizeCells squared (400 with the defaults).
func (s *NavSettings) RegionMergeAreaCells() int {
	if s == nil {
		return 0
	}
	return s.RegionMergeSizeCells * s.RegionMergeSizeCells
}

// EdgeMaxLenCells is EdgeMaxLenM / CellSizeM truncated toward zero (40 with
// the defaults; 12/0.3 is 40.0 in float32).
func (s *NavSettings) EdgeMaxLenCells() int {
	if s == nil {
		return 0
	}
	return floorInt(s.EdgeMaxLenM / s.CellSizeM)
}

// TileSizeM is TileSizeCells * CellSizeM in float32 (19.2 m with the defaults).
func (s *NavSettings) TileSizeM() float32 {
	if s == nil {
		return 0
	}
	return float32(s.TileSizeCells) * s.CellSizeM
}

// DetailSampleDistM is the detail sample spacing in metres:
// DetailSampleDistCells * CellSizeM (float32), or 0 (no height sampling) when
// DetailSampleDistCells is at most 0.9 (build3d-runtime.md; Recast's demo
// uses < 0.9). 1.8 m with the defaults.
func (s *NavSettings) DetailSampleDistM() float32 {
	if s == nil || s.DetailSampleDistCells <= 0.9 {
		return 0
	}
	return s.DetailSampleDistCells * s.CellSizeM
}

// DetailSampleMaxErrorM is DetailSampleMaxErrorCells * CellHeightM (float32;
// 0.2 m with the defaults).
func (s *NavSettings) DetailSampleMaxErrorM() float32 {
	if s == nil {
		return 0
	}
	return s.DetailSampleMaxErrorCells * s.CellHeightM
}

// WalkableSlopeCos is voxel.WalkableSlopeCos(AgentMaxSlopeDeg).
func (s *NavSettings) WalkableSlopeCos() float32 {
	if s == nil {
		return 0
	}
	return voxel.WalkableSlopeCos(s.AgentMaxSlopeDeg)
}

// ceilInt and floorInt round a float32 quotient to an int, saturating at
// ±2^30 (and NaN to 2^30) so that invalid settings still give a value
// Validate can report.
func ceilInt(q float32) int  { return satInt(math.Ceil(float64(q))) }
func floorInt(q float32) int { return satInt(math.Floor(float64(q))) }

func satInt(v float64) int {
	const lim = 1 << 30
	if !(v < lim) {
		return lim
	}
	if v < -lim {
		return -lim
	}
	return int(v)
}
