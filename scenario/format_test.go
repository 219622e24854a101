package scenario

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// minimal wraps steps in a valid header.
func minimal(steps string) string {
	return `{"navviz-scenario": 1, "level": {"builtin": "terrain"}, "steps": [` + steps + `]}`
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string // substrings of the error
	}{
		{"not json", `{`, []string{"f.json:", "unexpected EOF"}},
		{"no version", `{"level": {"builtin": "city"}, "steps": []}`, []string{"f.json:", `missing "navviz-scenario"`}},
		{"future version", `{"navviz-scenario": 2, "level": {"builtin": "city"}, "steps": []}`, []string{`"navviz-scenario": 2`}},
		{"unknown top key", `{"navviz-scenario": 1, "levle": {}, "steps": []}`, []string{`unknown field "levle"`}},
		{"no level", `{"navviz-scenario": 1, "steps": []}`, []string{`missing "level"`}},
		{"unknown level", `{"navviz-scenario": 1, "level": {"builtin": "moon"}, "steps": []}`, []string{`"moon"`}},
		{"both levels", `{"navviz-scenario": 1, "level": {"builtin": "city", "obj": "a.obj"}, "steps": []}`, []string{"exactly one"}},
		{"no steps", `{"navviz-scenario": 1, "level": {"builtin": "city"}}`, []string{`missing "steps"`}},
		{"trailing data", minimal(``) + `{}`, []string{"after the JSON value"}},
		{"bad setting", `{"navviz-scenario": 1, "level": {"builtin": "city"}, "settings": {"cell_size_m": -1}, "steps": []}`, []string{"CellSizeM", "-1"}},
		{"huge setting", `{"navviz-scenario": 1, "level": {"builtin": "city"}, "settings": {"edge_max_len_m": 1e300}, "steps": []}`, []string{"edge_max_len_m", "1e+300"}},
		{"unknown setting", `{"navviz-scenario": 1, "level": {"builtin": "city"}, "settings": {"cell_size": 1}, "steps": []}`, []string{`unknown field "cell_size"`}},
		{"bad partition", `{"navviz-scenario": 1, "level": {"builtin": "city"}, "settings": {"partition": "Layers "}, "steps": []}`, []string{`"Layers "`}},
		{"unknown step key", minimal(`{"shot": {"name": "a", "size": "8x8"}}, {"jump": 1}`), []string{"f.json: step 2:", `unknown field "jump"`}},
		{"empty step", minimal(`{}`), []string{"step 1:", "empty step"}},
		{"agent size taken", `{"navviz-scenario": 1, "level": {"builtin": "city"}, "agent_sizes": [{"name": "default", "height_m": 2, "radius_m": 1, "climb_m": 0.5, "slope_deg": 40}], "steps": []}`, []string{"agent_sizes[0]", `"default" is taken`}},
		{"bad agent size", `{"navviz-scenario": 1, "level": {"builtin": "city"}, "agent_sizes": [{"name": "big", "height_m": 2, "radius_m": -1, "climb_m": 0.5, "slope_deg": 40}], "steps": []}`, []string{"agent_sizes[0]", `"big"`, "-1"}},
		{"agent sizes without cache", `{"navviz-scenario": 1, "level": {"builtin": "city"}, "cache": false, "agent_sizes": [{"name": "big", "height_m": 2, "radius_m": 1, "climb_m": 0.5, "slope_deg": 40}], "steps": []}`, []string{"agent_sizes need the tile cache"}},
		{"unknown shown agent", minimal(`{"show_agent": "giant"}`), []string{"step 1:", `show_agent "giant"`, "have default"}},
		{"two kinds", minimal(`{"update": 1, "select_tile": [1, 1]}`), []string{"step 1:", "update and select_tile"}},
		{"unknown overlay", minimal(`{"overlays": {"show": ["input", "polygons"]}}`), []string{"step 1:", `unknown overlay "polygons"`}},
		{"twice overlay", minimal(`{"overlays": {"show": ["input", "input"]}}`), []string{"listed twice"}},
		{"no show", minimal(`{"overlays": {"scope": "all"}}`), []string{`missing "show"`}},
		{"bad scope", minimal(`{"overlays": {"show": [], "scope": "tile"}}`), []string{`unknown scope "tile"`}},
		{"radius NaN-like", minimal(`{"obstacle": {"name": "a", "cylinder": {"base_m": [0, 0, 0], "radius_m": 0, "height_m": 1}}}`), []string{"step 1:", `obstacle "a"`, "radius"}},
		{"coordinate too far", minimal(`{"obstacle": {"name": "a", "box": {"min_m": [0, 0, 0], "max_m": [3000000, 1, 1]}}}`), []string{"max_m[0] = 3e+06", "2097152"}},
		{"two shapes", minimal(`{"obstacle": {"name": "a", "box": {"min_m": [0, 0, 0], "max_m": [1, 1, 1]}, "cylinder": {"base_m": [0, 0, 0], "radius_m": 1, "height_m": 1}}}`), []string{"exactly one of cylinder"}},
		{"bad name", minimal(`{"obstacle": {"name": "a b", "box": {"min_m": [0, 0, 0], "max_m": [1, 1, 1]}}}`), []string{`obstacle name "a b"`}},
		{"concave volume", minimal(`{"volume": {"name": "v", "corners_m": [[0, 0], [10, 0], [1, 1], [0, 10]], "min_y_m": 0, "max_y_m": 1, "area": 2}}`), []string{"step 1:", `volume "v"`}},
		{"volume area", minimal(`{"volume": {"name": "v", "corners_m": [[0, 0], [10, 0], [0, 10]], "min_y_m": 0, "max_y_m": 1, "area": 64}}`), []string{"area 64"}},
		{"update zero", minimal(`{"update": 0}`), []string{"update 0"}},
		{"update word", minimal(`{"update": "some"}`), []string{`"some"`}},
		{"update fraction", minimal(`{"update": 1.5}`), []string{"1.5"}},
		{"snapshot both", minimal(`{"snapshot": {"slot": "a", "file": "b"}}`), []string{"exactly one of"}},
		{"snapshot file path", minimal(`{"snapshot": {"file": "../x.nvtc"}}`), []string{`"../x.nvtc"`}},
		{"snapshot file report", minimal(`{"snapshot": {"file": "report.json"}}`), []string{`"report.json"`}},
		{"snapshot file index", minimal(`{"snapshot": {"file": "index.html"}}`), []string{`"index.html"`, "are taken"}},
		{"camera view", minimal(`{"camera": {"view": "side"}}`), []string{`camera view "side"`}},
		{"camera frame and target", minimal(`{"camera": {"frame_level": true, "target_m": [0, 0, 0]}}`), []string{"leave out target_m"}},
		{"camera pitch", minimal(`{"camera": {"pitch_deg": 91}}`), []string{"pitch_deg = 91"}},
		{"camera distance", minimal(`{"camera": {"distance_m": 0}}`), []string{"distance_m = 0"}},
		{"negative tile", minimal(`{"select_tile": [-1, 0]}`), []string{"select_tile [-1, 0]"}},
		{"path huge", minimal(`{"path": {"start_m": [0, 0, 0], "end_m": [0, 1e30, 0]}}`), []string{"end_m[1] = 1e+30"}},
		{"shot size zero", minimal(`{"shot": {"name": "a", "size": "0x10"}}`), []string{`"0x10"`, "1 to 8192"}},
		{"shot size big", minimal(`{"shot": {"name": "a", "size": "8193x10"}}`), []string{`"8193x10"`}},
		{"shot size words", minimal(`{"shot": {"name": "a", "size": "big"}}`), []string{`"big"`}},
		{"shot dup", minimal(`{"shot": {"name": "a", "size": "8x8"}}, {"shot": {"name": "a", "size": "8x8"}}`), []string{"step 2:", `shot "a": duplicate`}},
		{"shot diff name", minimal(`{"shot": {"name": "a.diff", "size": "8x8"}}`), []string{`"a.diff"`}},
		{"shot golden name", minimal(`{"shot": {"name": "a.golden", "size": "8x8"}}`), []string{`"a.golden"`, "NAME.golden.png"}},
		{"cache off", `{"navviz-scenario": 1, "level": {"builtin": "city"}, "cache": false, "steps": [{"update": "all"}]}`, []string{"step 1:", "needs the tile cache"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Parse([]byte(c.src), "f.json")
			if err == nil {
				t.Fatalf("Parse accepted %s: %+v", c.src, s)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// everyStep is a scenario with every kind of step and every optional
// field set.
func everyStep() *Scenario {
	seed := uint64(7)
	yes, no := true, false
	f := func(v float64) *float64 { return &v }
	i := func(v int) *int { return &v }
	return &Scenario{
		FormatVersion: Version, Description: "all", Level: Level{Builtin: "city", Seed: &seed},
		Settings: &Settings{CellSizeM: f(0.25), CellHeightM: f(0.1), AgentHeightM: f(1.8), AgentRadiusM: f(0.5),
			AgentMaxClimbM: f(0.5), AgentMaxSlopeDeg: f(40), TileSizeCells: i(48), Partition: "layers",
			RegionMinSizeCells: i(4), RegionMergeSizeCells: i(10), EdgeMaxLenM: f(10), EdgeMaxErrorCells: f(1.1),
			VertsPerPoly: i(5), DetailSampleDistCells: f(0), DetailSampleMaxErrorCells: f(2)},
		Cache: &yes,
		Steps: []Step{
			{Note: "a", Obstacle: &ObstacleStep{Name: "c", Cylinder: &CylinderShape{BaseM: [3]float64{1.5, -0.25, 3}, RadiusM: 0.1, HeightM: 2}}},
			{Obstacle: &ObstacleStep{Name: "b", Box: &BoxShape{MinM: [3]float64{0, 0, 0}, MaxM: [3]float64{1, 2, 3}}}},
			{Obstacle: &ObstacleStep{Name: "o", OrientedBox: &OrientedBoxShape{CentreM: [3]float64{5, 0, 5}, HalfM: [3]float64{1, 1, 2}, YawRad: float64(float32(0.3))}}},
			{RemoveObstacle: "b"},
			{Volume: &VolumeStep{Name: "v", CornersM: [][2]float64{{0, 0}, {4, 0}, {4, 4}}, MinYM: -1, MaxYM: 3, Area: 5}},
			{RemoveVolume: "v"},
			{Update: &UpdateCount{Tiles: 3}},
			{Update: &UpdateCount{All: true}},
			{Snapshot: &SnapshotRef{Slot: "s"}},
			{Snapshot: &SnapshotRef{File: "s.nvtc"}},
			{Restore: &SnapshotRef{Slot: "s"}},
			{Restore: &SnapshotRef{File: "dir/s.nvtc"}},
			{Camera: &CameraStep{View: "top", Ortho: &no, TargetM: &[3]float64{1, 2, 3}, YawDeg: f(10), PitchDeg: f(-20), DistanceM: f(30)}},
			{Camera: &CameraStep{FrameTile: &[2]int{2, 3}}},
			{Camera: &CameraStep{View: "orbit", FrameLevel: true}},
			{Overlays: &OverlaysStep{Show: []string{"input", "removed", "path"}, Scope: ScopeAll}},
			{Overlays: &OverlaysStep{Show: []string{}}},
			{SelectTile: &[2]int{4, 5}},
			{Path: &PathStep{StartM: [3]float64{1, 0, 1}, EndM: [3]float64{9, 0, 9}}},
			{Shot: &ShotStep{Name: "x", Size: "64x40", Legend: true}},
			{Shot: &ShotStep{Name: "y.1", Size: "1x8192"}},
		},
	}
}

func TestMarshalRoundTrip(t *testing.T) {
	cases := map[string]*Scenario{"every step": everyStep(),
		"obj": {FormatVersion: Version, Level: Level{OBJ: "levels/a.obj"}, Steps: []Step{}}}
	files, _ := filepath.Glob(filepath.Join(examplesDir, "*"+FileExt))
	for _, f := range files {
		s, err := Load(f)
		if err != nil {
			t.Fatal(err)
		}
		cases[filepath.Base(f)] = s
	}
	for name, s := range cases {
		t.Run(name, func(t *testing.T) {
			data, err := Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(data), "{\n  \"navviz-scenario\": 1,") {
				t.Errorf("the version is not the first key:\n%.80s", data)
			}
			back, err := Parse(data, "round-trip")
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, s) {
				t.Errorf("Parse(Marshal(s)) differs from s:\n%s", data)
			}
		})
	}
}

func TestMarshalRejectsInvalid(t *testing.T) {
	s := everyStep()
	s.Steps = append(s.Steps, Step{Overlays: &OverlaysStep{Show: []string{"nope"}}})
	if _, err := Marshal(s); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Fatalf("Marshal of an unknown overlay: err = %v", err)
	}
}

func TestObstacleStepOfIsExact(t *testing.T) {
	for _, st := range everyStep().Steps[:3] {
		o := st.Obstacle.Voxel()
		back := ObstacleStepOf(st.Obstacle.Name, o)
		if got := back.Voxel(); got != o {
			t.Errorf("ObstacleStepOf(%v).Voxel() = %v", o, got)
		}
	}
	v := everyStep().Steps[4].Volume.Voxel()
	back := VolumeStepOf("v", v)
	if got := back.Voxel(); !reflect.DeepEqual(got, v) {
		t.Errorf("VolumeStepOf(%v).Voxel() = %v", v, got)
	}
}

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(examplesDir, "*"+FileExt))
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	every, err := Marshal(everyStep())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(every)
	f.Add([]byte(minimal(`{"update": "all"}, {"camera": {"pitch_deg": 1e400}}`)))
	f.Add([]byte(minimal(`{"shot": {"name": "a", "size": "-1x-1"}}`)))
	f.Add([]byte(`{"navviz-scenario": 1, "level": {"builtin": "city"}, "settings": {"tile_size_cells": 9999999999}, "steps": null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data, "fuzz")
		if err != nil {
			return
		}
		out, err := Marshal(s)
		if err != nil {
			t.Fatalf("Marshal of a parsed scenario: %v", err)
		}
		back, err := Parse(out, "fuzz")
		if err != nil {
			t.Fatalf("Parse(Marshal(s)): %v\n%s", err, out)
		}
		if !reflect.DeepEqual(back, s) {
			t.Fatalf("Parse(Marshal(s)) != s:\n%s", out)
		}
	})
}
