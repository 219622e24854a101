package pipeline

import (
	"math"
	"strings"
	"testing"

	"navviz/core/voxel"
)

func TestDefaultSettings(t *testing.T) {
	s := DefaultSettings()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		got, want int
	}{
		{"WalkableHeightCells", s.WalkableHeightCells(), 10},
		{"WalkableClimbCells", s.WalkableClimbCells(), 4},
		{"WalkableRadiusCells", s.WalkableRadiusCells(), 2},
		{"BorderCells", s.BorderCells(), 5},
		{"RegionMinAreaCells", s.RegionMinAreaCells(), 64},
		{"RegionMergeAreaCells", s.RegionMergeAreaCells(), 400},
		{"EdgeMaxLenCells", s.EdgeMaxLenCells(), 40},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %d, want %d", tc.name, tc.got, tc.want)
		}
	}
	if got := s.DetailSampleDistM(); got != float32(6)*float32(0.3) {
		t.Errorf("DetailSampleDistM = %v", got)
	}
	if got := s.DetailSampleMaxErrorM(); got != float32(0.2) {
		t.Errorf("DetailSampleMaxErrorM = %v", got)
	}
	if got := s.TileSizeM(); got != float32(64)*float32(0.3) {
		t.Errorf("TileSizeM = %v", got)
	}
	s.DetailSampleDistCells = 0.9
	if s.DetailSampleDistM() != 0 {
		t.Errorf("DetailSampleDistCells 0.9 samples")
	}
}

// TestDerivedFloat32 pins the float32 rounding of the derived values.
func TestDerivedFloat32(t *testing.T) {
	for _, tc := range []struct {
		climb, ch float32
		want      int
	}{
		{0.9, 0.2, 4}, // 4.4999998
		{0.6, 0.2, 3}, // exactly 3 in float32 (2.9999999 in float64)
		{0.4, 0.2, 2},
		{0.19, 0.2, 0},
		{0, 0.2, 0},
	} {
		s := DefaultSettings()
		s.AgentMaxClimbM, s.CellHeightM = tc.climb, tc.ch
		if got := s.WalkableClimbCells(); got != tc.want {
			t.Errorf("climb %v / %v = %d cells, want %d", tc.climb, tc.ch, got, tc.want)
		}
	}
	s := DefaultSettings()
	s.AgentRadiusM = 0.61
	if got := s.WalkableRadiusCells(); got != 3 {
		t.Errorf("radius 0.61/0.3 = %d cells, want 3", got)
	}
	s.AgentRadiusM = 0
	if got, b := s.WalkableRadiusCells(), s.BorderCells(); got != 0 || b != 3 {
		t.Errorf("radius 0: %d cells, border %d", got, b)
	}
}

func TestValidateErrors(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	for _, tc := range []struct {
		mod  func(*NavSettings)
		want string
	}{
		{func(s *NavSettings) { s.CellSizeM = 0 }, "CellSizeM = 0"},
		{func(s *NavSettings) { s.CellSizeM = nan }, "CellSizeM = NaN"},
		{func(s *NavSettings) { s.CellHeightM = -0.2 }, "CellHeightM = -0.2"},
		{func(s *NavSettings) { s.CellHeightM = inf }, "CellHeightM = +Inf"},
		{func(s *NavSettings) { s.AgentHeightM = 0 }, "AgentHeightM = 0"},
		{func(s *NavSettings) { s.AgentHeightM = 60 }, "AgentHeightM = 60"},
		{func(s *NavSettings) { s.AgentRadiusM = -1 }, "AgentRadiusM = -1"},
		{func(s *NavSettings) { s.AgentRadiusM = 100 }, "AgentRadiusM = 100"},
		{func(s *NavSettings) { s.AgentMaxClimbM = nan }, "AgentMaxClimbM = NaN"},
		{func(s *NavSettings) { s.AgentMaxClimbM = 5000 }, "AgentMaxClimbM = 5000"},
		{func(s *NavSettings) { s.AgentMaxSlopeDeg = 90.5 }, "AgentMaxSlopeDeg = 90.5"},
		{func(s *NavSettings) { s.AgentMaxSlopeDeg = -1 }, "AgentMaxSlopeDeg = -1"},
		{func(s *NavSettings) { s.TileSizeCells = 7 }, "TileSizeCells = 7"},
		{func(s *NavSettings) { s.TileSizeCells = 5000 }, "TileSizeCells = 5000"},
		{func(s *NavSettings) { s.Partition = 3 }, "Partition = PartitionType(3)"},
		{func(s *NavSettings) { s.RegionMinSizeCells = -1 }, "RegionMinSizeCells = -1"},
		{func(s *NavSettings) { s.RegionMergeSizeCells = 5000 }, "RegionMergeSizeCells = 5000"},
		{func(s *NavSettings) { s.EdgeMaxLenM = -12 }, "EdgeMaxLenM = -12"},
		{func(s *NavSettings) { s.EdgeMaxLenM = 1e9 }, "EdgeMaxLenM = 1e+09"},
		{func(s *NavSettings) { s.EdgeMaxErrorCells = nan }, "EdgeMaxErrorCells = NaN"},
		{func(s *NavSettings) { s.VertsPerPoly = 7 }, "VertsPerPoly = 7"},
		{func(s *NavSettings) { s.VertsPerPoly = 2 }, "VertsPerPoly = 2"},
		{func(s *NavSettings) { s.DetailSampleDistCells = -1 }, "DetailSampleDistCells = -1"},
		{func(s *NavSettings) { s.DetailSampleMaxErrorCells = inf }, "DetailSampleMaxErrorCells = +Inf"},
		{func(s *NavSettings) {
			s.Volumes = []voxel.ConvexVolume{{VertsXZ: [][2]float32{{0, 0}, {1, 0}, {0, 1}}}, {VertsXZ: [][2]float32{{0, 0}}}}
		}, "Volumes[1]"},
	} {
		s := DefaultSettings()
		tc.mod(&s)
		err := s.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err %v, want %q", err, tc.want)
		}
	}
}

func TestPartitionType(t *testing.T) {
	for _, p := range []PartitionType{Watershed, Monotone, Layers} {
		q, err := ParsePartitionType(" " + strings.ToUpper(p.String()) + " ")
		if err != nil || q != p {
			t.Errorf("Parse(%s) = %v, %v", p, q, err)
		}
	}
	if _, err := ParsePartitionType("voronoi"); err == nil || !strings.Contains(err.Error(), `"voronoi"`) {
		t.Errorf("Parse(voronoi) err %v", err)
	}
	if got := PartitionType(9).String(); got != "PartitionType(9)" {
		t.Errorf("String = %q", got)
	}
}

// FuzzNavSettingsValidate checks that Validate never panics and that valid
// settings give sane derived values and tile grids.
func FuzzNavSettingsValidate(f *testing.F) {
	d := DefaultSettings()
	f.Add(d.CellSizeM, d.CellHeightM, d.AgentHeightM, d.AgentRadiusM, d.AgentMaxClimbM, d.AgentMaxSlopeDeg,
		d.TileSizeCells, uint8(d.Partition), d.RegionMinSizeCells, d.RegionMergeSizeCells, d.EdgeMaxLenM,
		d.EdgeMaxErrorCells, d.VertsPerPoly, d.DetailSampleDistCells, d.DetailSampleMaxErrorCells, float32(100))
	f.Add(float32(0.001), float32(1000), float32(1e-9), float32(0), float32(0), float32(90),
		8, uint8(2), 0, 4096, float32(0), float32(0), 3, float32(0), float32(0), float32(1e6))
	f.Add(float32(math.NaN()), float32(-1), float32(math.Inf(1)), float32(-0.0), float32(1e30), float32(45),
		-1, uint8(200), -5, 1<<40, float32(1e30), float32(-1), 100, float32(1e10), float32(-1e10), float32(-3))
	f.Fuzz(func(t *testing.T, cs, ch, ah, ar, ac, slope float32, tile int, part uint8, rmin, rmerge int,
		edgeLen, edgeErr float32, vpp int, dsd, dse float32, extent float32) {
		s := NavSettings{
			CellSizeM: cs, CellHeightM: ch, AgentHeightM: ah, AgentRadiusM: ar, AgentMaxClimbM: ac,
			AgentMaxSlopeDeg: slope, TileSizeCells: tile, Partition: PartitionType(part),
			RegionMinSizeCells: rmin, RegionMergeSizeCells: rmerge, EdgeMaxLenM: edgeLen,
			EdgeMaxErrorCells: edgeErr, VertsPerPoly: vpp, DetailSampleDistCells: dsd,
			DetailSampleMaxErrorCells: dse,
		}
		err := s.Validate()
		_ = s.WalkableHeightCells() + s.WalkableClimbCells() + s.BorderCells() + s.EdgeMaxLenCells()
		_ = s.DetailSampleDistM() + s.DetailSampleMaxErrorM() + s.WalkableSlopeCos()
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		if h := s.WalkableHeightCells(); h < 1 || h > 255 {
			t.Fatalf("WalkableHeightCells %d", h)
		}
		if c := s.WalkableClimbCells(); c < 0 || c > voxel.MaxSpanRow {
			t.Fatalf("WalkableClimbCells %d", c)
		}
		if r := s.WalkableRadiusCells(); r < 0 || r > voxel.MaxErodeRadiusCells || s.BorderCells() != r+3 {
			t.Fatalf("WalkableRadiusCells %d border %d", r, s.BorderCells())
		}
		if e := s.EdgeMaxLenCells(); e < 0 || e > 1<<20 {
			t.Fatalf("EdgeMaxLenCells %d", e)
		}
		if s.RegionMinAreaCells() < 0 || s.RegionMergeAreaCells() < 0 {
			t.Fatalf("negative region areas")
		}
		if c := s.WalkableSlopeCos(); !(c >= -1e-6 && c <= 1) {
			t.Fatalf("WalkableSlopeCos %v", c)
		}
		if d := s.DetailSampleDistM(); !(d >= 0) || math.IsInf(float64(d), 0) {
			t.Fatalf("DetailSampleDistM %v", d)
		}
		// A tile grid over a box of the fuzzed extent is either an error or
		// consistent.
		b := boxOf(0, 0, 0, extent, 1, extent)
		g, err := NewTileGrid(&s, b)
		if err != nil {
			return
		}
		if g.TilesX < 1 || g.TilesZ < 1 || g.CellsX < 1 {
			t.Fatalf("tile grid %+v", g)
		}
		if _, err := g.BuildGrid(g.TilesX-1, g.TilesZ-1); err != nil {
			t.Fatalf("last tile: %v", err)
		}
	})
}
