package pipeline

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/voxel"
)

// squareSoup returns two triangles covering [0, sideM] x [0, sideM] at y 0.
func squareSoup(sideM float32) *level.Soup {
	return &level.Soup{
		Verts: []geom.Vec3{geom.V3(0, 0, 0), geom.V3(sideM, 0, 0), geom.V3(sideM, 0, sideM), geom.V3(0, 0, sideM)},
		Tris:  [][3]int32{{0, 2, 1}, {0, 3, 2}},
		Areas: []uint8{voxel.AreaWalkable, voxel.AreaWalkable},
	}
}

// oneTriangleSoup is a normal 20 m floor plus one stray triangle reaching
// strayM along x and z.
func oneTriangleSoup(strayM float32) *level.Soup {
	s := squareSoup(20)
	n := int32(len(s.Verts))
	s.Verts = append(s.Verts, geom.V3(0, 0, 0), geom.V3(strayM, 0, 0), geom.V3(0, 0, strayM))
	s.Tris = append(s.Tris, [3]int32{n, n + 2, n + 1})
	s.Areas = append(s.Areas, voxel.AreaWalkable)
	return s
}

// limitCase is a level over the default limits.
type limitCase struct {
	name     string
	soup     *level.Soup
	settings func(*NavSettings)
	limit    string // the BuildLimits field the error names
}

func limitCases() []limitCase {
	return []limitCase{
		{name: "one triangle 1e6 m wide", soup: oneTriangleSoup(1e6), limit: "MaxTiles"},
		{name: "2000 km level", soup: squareSoup(2e6), settings: func(s *NavSettings) { s.CellSizeM = 1 }, limit: "MaxTiles"},
		{name: "10 km level", soup: squareSoup(1e4), limit: "MaxBytes"},
		{name: "cell size 0.001 m", soup: squareSoup(100), settings: func(s *NavSettings) {
			s.CellSizeM, s.AgentRadiusM = MinCellSizeM, 0.01
		}, limit: "MaxTiles"},
		{name: "cell size 0.001 m, tile 4096", soup: squareSoup(100), settings: func(s *NavSettings) {
			s.CellSizeM, s.AgentRadiusM, s.TileSizeCells = MinCellSizeM, 0.01, MaxTileSizeCells
		}, limit: "MaxBytes"},
	}
}

func (tc *limitCase) src(t *testing.T) (*NavSettings, *Source) {
	t.Helper()
	s := DefaultSettings()
	if tc.settings != nil {
		tc.settings(&s)
	}
	src, err := NewSoupSource(tc.soup, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &s, src.Named(tc.name + ".obj")
}

// checkLimitErr checks that err is a *LimitError over limit naming the
// level, its size and the counts.
func checkLimitErr(t *testing.T, what string, err error, limit, level string) *LimitError {
	t.Helper()
	var le *LimitError
	if !errors.As(err, &le) {
		t.Fatalf("%s: error %v, want a *LimitError", what, err)
	}
	msg := err.Error()
	if le.Limit != limit {
		t.Errorf("%s: limit %s, want %s (%v)", what, le.Limit, limit, err)
	}
	for _, want := range []string{level, "BuildLimits." + limit, " m (x by z)", " tiles (", " columns"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%s: error %q does not contain %q", what, msg, want)
		}
	}
	if !strings.Contains(msg, "about ") && !(le.Estimate.Partial && strings.Contains(msg, "at least ")) {
		t.Errorf("%s: error %q gives no estimate (\"about\", or \"at least\" for a stopped count)", what, msg)
	}
	if le.Value <= le.Max {
		t.Errorf("%s: value %d not over the limit %d", what, le.Value, le.Max)
	}
	return le
}

// TestBuildLimitEntryPoints runs every pipeline entry point on levels over
// the default limits: each refuses with a *LimitError naming the limit
// before building (a build of these levels would need from tens of GB to
// hundreds of TB, so reaching the error at all shows the check came
// first), and EstimateBuild with the limits raised passes.
func TestBuildLimitEntryPoints(t *testing.T) {
	entries := []struct {
		name string
		solo bool
		run  func(s *NavSettings, src *Source, opt BuildOptions) error
	}{
		{"EstimateBuild", false, func(s *NavSettings, src *Source, opt BuildOptions) error {
			_, err := EstimateBuild(s, src, opt)
			return err
		}},
		{"BuildLevel", false, func(s *NavSettings, src *Source, opt BuildOptions) error {
			_, err := BuildLevel(context.Background(), s, src, opt)
			return err
		}},
		{"BuildLevel KeepStages", false, func(s *NavSettings, src *Source, opt BuildOptions) error {
			opt.KeepStages = true
			_, err := BuildLevel(context.Background(), s, src, opt)
			return err
		}},
		{"BuildLevel SpansOnly", false, func(s *NavSettings, src *Source, opt BuildOptions) error {
			opt.SpansOnly = true
			_, err := BuildLevel(context.Background(), s, src, opt)
			return err
		}},
	}
	for _, tc := range limitCases() {
		for _, e := range entries {
			t.Run(tc.name+"/"+e.name, func(t *testing.T) {
				s, src := tc.src(t)
				checkLimitErr(t, e.name, e.run(s, src, BuildOptions{}), tc.limit, tc.name+".obj")
			})
		}
		t.Run(tc.name+"/raised", func(t *testing.T) {
			s, src := tc.src(t)
			lift := BuildLimits{MaxTiles: math.MaxInt, MaxColumns: math.MaxInt64, MaxBytes: math.MaxInt64}
			e, err := EstimateBuild(s, src, BuildOptions{Limits: lift})
			if err != nil {
				t.Fatalf("limits lifted: %v", err)
			}
			if e.Tiles <= DefaultMaxTiles && e.Bytes <= DefaultMaxBytes {
				t.Errorf("estimate %v within the default limits", e)
			}
		})
	}
}

// TestBuildLimitSolo: BuildSolo refuses a solo grid over the memory budget
// with the same error, and a level too wide for one grid with the grid's
// error naming the level.
func TestBuildLimitSolo(t *testing.T) {
	tests := []struct {
		name  string
		soup  *level.Soup
		opt   BuildOptions
		limit string // "" : not a LimitError
		want  string
	}{
		{"one triangle 1e6 m wide", oneTriangleSoup(1e6), BuildOptions{}, "", "more than the 65536 of one grid"},
		{"2 km level, 256 MiB", squareSoup(2000), BuildOptions{Limits: BuildLimits{MaxBytes: 256 << 20}}, "MaxBytes", ""},
		{"2 km level, 1M columns", squareSoup(2000), BuildOptions{Limits: BuildLimits{MaxColumns: 1 << 20}}, "MaxColumns", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := DefaultSettings()
			src, err := NewSoupSource(tc.soup, nil)
			if err != nil {
				t.Fatal(err)
			}
			src = src.Named("lvl.obj")
			for _, run := range []func() error{
				func() error { _, err := EstimateSolo(&s, src, tc.opt); return err },
				func() error { _, err := BuildSolo(context.Background(), &s, src, tc.opt); return err },
			} {
				err := run()
				if tc.limit != "" {
					checkLimitErr(t, "solo", err, tc.limit, "lvl.obj")
					continue
				}
				if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "lvl.obj") {
					t.Errorf("error %v, want one naming lvl.obj with %q", err, tc.want)
				}
			}
		})
	}
}

// TestBuildLimitVoxelSource: a voxel source is checked the same way.
func TestBuildLimitVoxelSource(t *testing.T) {
	s := DefaultSettings()
	g := voxel.Grid{Width: 640, Height: 640, CellSizeM: s.CellSizeM, CellHeightM: s.CellHeightM,
		MaxM: geom.V3(192, 10, 192)}
	hf, err := voxel.NewHeightfield(g)
	if err != nil {
		t.Fatal(err)
	}
	src, err := NewVoxelSource(hf)
	if err != nil {
		t.Fatal(err)
	}
	opt := BuildOptions{Limits: BuildLimits{MaxTiles: 99}}
	_, err = BuildLevel(context.Background(), &s, src, opt)
	le := checkLimitErr(t, "voxel", err, "MaxTiles", "")
	if le.Value != 100 || le.Max != 99 {
		t.Errorf("value %d, max %d; want 100 tiles over 99", le.Value, le.Max)
	}
	opt.Limits.MaxTiles = 100
	if _, err := EstimateBuild(&s, src, opt); err != nil {
		t.Errorf("at the limit: %v", err)
	}
}

// TestEstimateBuild checks the figures of an estimate, the defaults and
// the argument checks.
func TestEstimateBuild(t *testing.T) {
	s := DefaultSettings()
	src, err := NewSoupSource(squareSoup(190), nil) // 634 cells: 10 x 10 tiles
	if err != nil {
		t.Fatal(err)
	}
	e, err := EstimateBuild(&s, src, BuildOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	cols := int64(74 * 74)
	// Two triangles covering 634 x 634 cells, each column once (the
	// diagonal's twice), the border rings once per build grid holding them.
	if e.WalkableSpans != e.SolidSpans || e.SolidSpans < 634*634 || e.SolidSpans > 100*cols {
		t.Errorf("spans %d solid, %d walkable; want 634^2 to %d, all walkable", e.SolidSpans, e.WalkableSpans, 100*cols)
	}
	perTile := (e.SolidSpans + 99) / 100
	want := BuildEstimate{SizeM: geom.V3(190, 0, 190), TilesX: 10, TilesZ: 10, TileSizeCells: 64, Tiles: 100,
		ColumnsPerTile: cols, Columns: 100 * cols, SolidSpans: e.SolidSpans, WalkableSpans: e.WalkableSpans,
		Bytes: 100*cols*bytesPerColumn + e.WalkableSpans*bytesPerWalkableSpan + 100*bytesPerTile +
			2*(cols*bytesPerColumn+perTile*bytesPerScratchSpan),
		Limits: BuildLimits{MaxTiles: DefaultMaxTiles, MaxColumns: DefaultMaxColumns, MaxBytes: DefaultMaxBytes}}
	if e != want {
		t.Errorf("estimate\n%+v, want\n%+v", e, want)
	}
	wantText := fmt.Sprintf("100 tiles (10 x 10 of 64 cells), 547600 columns, at most %s spans (%s walkable), about %s",
		formatCount(e.SolidSpans), formatCount(e.WalkableSpans), FormatBytes(e.Bytes))
	if got := e.String(); got != wantText {
		t.Errorf("String() = %q, want %q", got, wantText)
	}
	keep, err := EstimateBuild(&s, src, BuildOptions{Workers: 2, KeepStages: true})
	wantKeep := 100*cols*bytesPerColumnKeepStages + e.WalkableSpans*bytesPerWalkableSpan + e.SolidSpans*bytesPerSolidSpanKept +
		100*bytesPerTile + 2*(cols*bytesPerColumnKeepStages+perTile*bytesPerScratchSpan)
	if err != nil || keep.Bytes != wantKeep {
		t.Errorf("KeepStages: %d bytes, %v; want %d", keep.Bytes, err, wantKeep)
	}
	bad := []struct {
		name string
		s    *NavSettings
		src  *Source
		opt  BuildOptions
		want string
	}{
		{"nil settings", nil, src, BuildOptions{}, "nil settings"},
		{"nil source", &s, nil, BuildOptions{}, "nil source"},
		{"workers", &s, src, BuildOptions{Workers: -1}, "Workers = -1"},
		{"tiles", &s, src, BuildOptions{Limits: BuildLimits{MaxTiles: -1}}, "MaxTiles = -1"},
		{"columns", &s, src, BuildOptions{Limits: BuildLimits{MaxColumns: -2}}, "MaxColumns = -2"},
		{"bytes", &s, src, BuildOptions{Limits: BuildLimits{MaxBytes: -3}}, "MaxBytes = -3"},
		{"settings", &NavSettings{}, src, BuildOptions{}, "CellSizeM"},
	}
	for _, tc := range bad {
		if _, err := EstimateBuild(tc.s, tc.src, tc.opt); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: EstimateBuild error %v, want %q", tc.name, err, tc.want)
		}
		if _, err := BuildLevel(context.Background(), tc.s, tc.src, tc.opt); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: BuildLevel error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestEstimateCoversBuild builds a small level and checks the estimate is
// at least what the build keeps (its compact heightfields).
func TestEstimateCoversBuild(t *testing.T) {
	s := DefaultSettings()
	src, err := NewSoupSource(squareSoup(60), nil)
	if err != nil {
		t.Fatal(err)
	}
	e, err := EstimateBuild(&s, src, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := BuildLevel(context.Background(), &s, src, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if int64(b.BuiltTiles) != e.Tiles {
		t.Errorf("built %d tiles, estimated %d", b.BuiltTiles, e.Tiles)
	}
	kept := int64(0)
	for i := range b.Tiles {
		c := b.Tiles[i].Spans
		kept += int64(len(c.Cells))*8 + int64(len(c.Spans))*8 + int64(len(c.Areas))
	}
	if kept > e.Bytes {
		t.Errorf("the build keeps %d bytes of heightfields, more than the estimate %d", kept, e.Bytes)
	}
}

func TestFormatBytes(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{{0, "0 B"}, {1023, "1023 B"}, {1024, "1 KiB"}, {3 << 20, "3 MiB"}, {DefaultMaxBytes, "4 GiB"}, {math.MaxInt64, "8.19e+03 PiB"}} {
		if got := FormatBytes(tc.n); got != tc.want {
			t.Errorf("FormatBytes(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
