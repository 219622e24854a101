package scenario

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tinyOBJ is the fuzz level: a 16 m square floor, a platform 1 m up with
// a ramp to it, and a slab 2.5 m over the floor (two layers in a tile);
// 2x2 tiles with fuzzSettings.
const tinyOBJ = `v 0 0 0
v 16 0 0
v 16 0 16
v 0 0 16
f 1 3 2
f 1 4 3
v 5 1 5
v 9 1 5
v 9 1 9
v 5 1 9
f 5 7 6
f 5 8 7
v 9 1 5
v 13 0 5
v 13 0 9
v 9 1 9
f 9 11 10
f 9 12 11
v 1 2.5 10
v 5 2.5 10
v 5 2.5 14
v 1 2.5 14
f 13 15 14
f 13 16 15
f 13 14 15
f 13 15 16
`

// Bounds of a fuzzed run, so that each takes milliseconds.
const (
	fuzzMaxSteps  = 24
	fuzzMaxShotPx = 48 * 32
	fuzzMaxAgents = 8
	fuzzMaxSecs   = 2
	fuzzMaxSizes  = 2
)

// fuzzSettings are the settings of every fuzzed run but the partition
// (the input's): 0.3 m cells, 32-cell tiles.
func fuzzSettings(partition string) *Settings {
	tile := 32
	return &Settings{TileSizeCells: &tile, Partition: partition}
}

// fuzzBound rewrites a parsed scenario to a small run on the tiny level
// (dir/tiny.obj): the fixed settings, at most fuzzMaxSizes agent sizes
// and fuzzMaxSteps steps, small shots and crowds, and no restore from a
// file outside dir. It reports false when nothing is left to run.
func fuzzBound(sc *Scenario) bool {
	partition := ""
	if sc.Settings != nil {
		partition = sc.Settings.Partition
	}
	sc.Level, sc.Settings = Level{OBJ: "tiny.obj"}, fuzzSettings(partition)
	if len(sc.AgentSizes) > fuzzMaxSizes {
		sc.AgentSizes = sc.AgentSizes[:fuzzMaxSizes]
	}
	var steps []Step
	for _, st := range sc.Steps {
		switch {
		case st.Restore != nil && st.Restore.File != "" && !nameRE.MatchString(st.Restore.File):
			continue
		case st.Shot != nil:
			if w, h, err := ParseSize(st.Shot.Size); err == nil && w*h > fuzzMaxShotPx {
				sh := *st.Shot
				sh.Size = "48x32"
				st.Shot = &sh
			}
		case st.Agents != nil:
			a := *st.Agents
			a.Count, a.Seconds = min(a.Count, fuzzMaxAgents), min(a.Seconds, fuzzMaxSecs)
			st.Agents = &a
		}
		steps = append(steps, st)
	}
	sc.Steps = steps[:min(len(steps), fuzzMaxSteps)]
	return len(sc.Steps) > 0
}

// fuzzSeeds are scenarios on the tiny level (the level and settings are
// replaced anyway) with every kind of step.
var fuzzSeeds = []string{
	`{"navviz-scenario": 1, "level": {"builtin": "city"}, "settings": {"partition": "layers"}, "steps": [
	  {"obstacle": {"name": "c", "cylinder": {"base_m": [7, 0.5, 7], "radius_m": 1, "height_m": 2}}},
	  {"update": 1}, {"update": "all"},
	  {"overlays": {"show": ["cache-polys", "obstacles", "removed", "ring", "repair-contours", "swaps", "queue"], "scope": "all"}},
	  {"shot": {"name": "a", "size": "32x24", "legend": true}},
	  {"remove_obstacle": "c"}, {"update": "all"}]}`,
	`{"navviz-scenario": 1, "level": {"builtin": "city"}, "settings": {"partition": "layers"}, "steps": [
	  {"volume": {"name": "v", "corners_m": [[1, 1], [6, 1], [6, 6]], "min_y_m": -1, "max_y_m": 3, "area": 5}},
	  {"obstacle": {"name": "b", "box": {"min_m": [2, -1, 11], "max_m": [3, 4, 12]}}},
	  {"obstacle": {"name": "o", "oriented_box": {"centre_m": [12, 0, 12], "half_m": [1, 1, 2], "yaw_rad": 0.5}}},
	  {"snapshot": {"slot": "s"}}, {"update": "all"}, {"snapshot": {"file": "s.nvtc"}},
	  {"remove_volume": "v"}, {"restore": {"slot": "s"}}, {"restore": {"file": "s.nvtc"}},
	  {"select_tile": [0, 1]}, {"camera": {"view": "top", "frame_tile": [0, 1]}},
	  {"overlays": {"show": ["input", "solid", "walkable", "compact", "eroded", "regions", "contours", "polys", "detail", "tiles", "layers", "portals", "selection"], "scope": "selected"}},
	  {"shot": {"name": "b", "size": "24x24"}}]}`,
	`{"navviz-scenario": 1, "level": {"builtin": "city"}, "steps": [
	  {"offmesh": {"name": "j", "start_m": [3, 0, 12], "end_m": [3, 2.5, 11], "radius_m": 0.5, "bidirectional": true, "area": 63}},
	  {"update": "all"}, {"path": {"start_m": [1, 0, 1], "end_m": [3, 2.5, 12]}},
	  {"agents": {"count": 4, "seed": 3, "target_m": [14, 0, 14], "seconds": 1}},
	  {"remove_offmesh": "j"}, {"update": "all"}, {"agents": {"seconds": 1}},
	  {"overlays": {"show": ["offmesh", "path", "agents", "cache-layers"]}},
	  {"shot": {"name": "p", "size": "32x24"}}]}`,
	`{"navviz-scenario": 1, "level": {"builtin": "city"}, "cache": false, "steps": [
	  {"path": {"start_m": [1, 0, 1], "end_m": [7, 1, 7]}}, {"agents": {"count": 3, "wander": true, "seconds": 2}},
	  {"camera": {"target_m": [8, 0, 8], "distance_m": 20, "ortho": true}}, {"shot": {"name": "n", "size": "32x24"}}]}`,
	`{"navviz-scenario": 1, "level": {"builtin": "city"}, "agent_sizes": [{"name": "big", "height_m": 2, "radius_m": 1.2, "climb_m": 0.5, "slope_deg": 40}], "steps": [
	  {"obstacle": {"name": "w", "box": {"min_m": [4, -1, 0], "max_m": [5, 3, 12]}}}, {"update": "all"},
	  {"show_agent": "big"}, {"snapshot": {"slot": "t"}}, {"remove_obstacle": "w"}, {"update": 2},
	  {"restore": {"slot": "t"}}, {"show_agent": "default"}, {"shot": {"name": "s", "size": "16x16"}}]}`,
}

// program turns bytes that are not a scenario file into a scenario on the
// tiny level, so that the fuzzer also reaches deep into the runner: each
// step takes a byte for its kind and up to six for its values (points on
// the level, names from a few, so they collide). Steps that do not pass
// checkStep are left out.
func program(data []byte) *Scenario {
	next := func() byte {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return b
	}
	x := func() float64 { return float64(next()%34)/2 - 0.5 } // -0.5..16 m
	y := func() float64 { return float64(next()%12)/2 - 1 }   // -1..4.5 m
	r := func() float64 { return float64(next()%8)/4 + 0.25 } // 0.25..2 m
	name := func() string { return string(rune('a' + next()%3)) }
	pt := func() [3]float64 { return [3]float64{x(), y(), x()} }
	sc := &Scenario{FormatVersion: Version, Level: Level{OBJ: "tiny.obj"}}
	if next()%4 == 0 {
		sc.AgentSizes = []AgentSize{{Name: "big", HeightM: 2, RadiusM: 1.2, ClimbM: 0.5, SlopeDeg: 40}}
	}
	if next()%5 == 0 && sc.AgentSizes == nil {
		no := false
		sc.Cache = &no
	}
	parts := []string{"layers", "watershed", "monotone"}
	sc.Settings = fuzzSettings(parts[int(next())%len(parts)])
	overlays := OverlayNames()
	for len(data) > 0 && len(sc.Steps) < fuzzMaxSteps {
		var st Step
		switch next() % 18 {
		case 0:
			st.Obstacle = &ObstacleStep{Name: name(), Cylinder: &CylinderShape{BaseM: pt(), RadiusM: r(), HeightM: r() + 1}}
		case 1:
			lo := pt()
			st.Obstacle = &ObstacleStep{Name: name(), Box: &BoxShape{MinM: lo, MaxM: [3]float64{lo[0] + r(), lo[1] + r() + 1, lo[2] + r()}}}
		case 2:
			st.Obstacle = &ObstacleStep{Name: name(), OrientedBox: &OrientedBoxShape{CentreM: pt(), HalfM: [3]float64{r(), r(), r()}, YawRad: float64(next()) / 40}}
		case 3:
			st.RemoveObstacle = name()
		case 4:
			cx, cz, d := x(), x(), r()
			st.Volume = &VolumeStep{Name: name(), CornersM: [][2]float64{{cx, cz}, {cx + d, cz}, {cx + d, cz + d}}, MinYM: y(), MaxYM: 5, Area: int(next() % 64)}
		case 5:
			st.RemoveVolume = name()
		case 6:
			st.OffMesh = &OffMeshStep{Name: name(), StartM: pt(), EndM: pt(), RadiusM: r(), Bidirectional: next()%2 == 0, Area: 63}
		case 7:
			st.RemoveOffMesh = name()
		case 8, 9:
			st.Update = &UpdateCount{All: next()%2 == 0, Tiles: int(next()%5) + 1}
		case 10:
			st.Snapshot = &SnapshotRef{Slot: name()}
			if next()%2 == 0 {
				st.Snapshot = &SnapshotRef{File: name() + ".nvtc"}
			}
		case 11:
			st.Restore = &SnapshotRef{Slot: name()}
			if next()%2 == 0 {
				st.Restore = &SnapshotRef{File: name() + ".nvtc"}
			}
		case 12:
			st.SelectTile = &[2]int{int(next() % 3), int(next() % 3)}
		case 13:
			st.Path = &PathStep{StartM: pt(), EndM: pt()}
		case 14:
			t := pt()
			st.Agents = &AgentsStep{Count: int(next() % 4), TargetM: &t, Seconds: float64(next() % 3)}
		case 15:
			b := next()
			st.Overlays = &OverlaysStep{Show: []string{overlays[int(b)%len(overlays)], overlays[int(b/7)%len(overlays)]}, Scope: Scopes[int(next())%len(Scopes)]}
			if st.Overlays.Show[0] == st.Overlays.Show[1] {
				st.Overlays.Show = st.Overlays.Show[:1]
			}
		case 16:
			st.ShowAgent = []string{DefaultAgent, "big"}[next()%2]
		case 17:
			st.Shot = &ShotStep{Name: fmt.Sprintf("s%d", len(sc.Steps)), Size: "32x24", Legend: next()%2 == 0}
		}
		if checkStep(&st, sc.CacheBuilt()) == nil {
			sc.Steps = append(sc.Steps, st)
		}
	}
	return sc
}

// FuzzScenarioRun parses scenarios and runs them, bounded (fuzzBound), on
// the tiny level in-process; bytes that are not a scenario file are made
// one (program), written (Marshal) and parsed again. No input makes the
// parser or the runner panic, and a failed step changes nothing the
// runner reports (the step stays next, the report keeps its steps).
func FuzzScenarioRun(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	// Programs: every kind of step in turn, then edits, updates and
	// snapshots of colliding names.
	var every []byte
	for k := range byte(18) {
		every = append(every, k, 3*k+1, 5*k+2, 7*k+3, 11*k+4, 13*k+5, 17*k+6)
	}
	f.Add(append([]byte{1, 1, 0}, every...))
	f.Add([]byte{0, 1, 0, 0, 1, 2, 3, 4, 5, 6, 8, 0, 10, 0, 0, 3, 0, 8, 0, 11, 0, 0, 16, 1, 8, 1, 17, 0})
	files, _ := filepath.Glob(filepath.Join(examplesDir, "*"+FileExt))
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	dir := f.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tiny.obj"), []byte(tinyOBJ), 0o644); err != nil {
		f.Fatal(err)
	}
	file := filepath.Join(dir, "fuzz"+FileExt)
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := Parse(data, file)
		if err != nil {
			out, err := Marshal(program(data))
			if err != nil {
				return // an unknown show_agent, a duplicate shot name
			}
			if sc, err = Parse(out, file); err != nil {
				t.Fatalf("Parse(Marshal(program)): %v\n%s", err, out)
			}
		}
		if !fuzzBound(sc) {
			return
		}
		r, err := NewRunner(sc, file)
		if err != nil {
			if !strings.Contains(err.Error(), file) {
				t.Fatalf("NewRunner's error does not name the file: %v", err)
			}
			return
		}
		for !r.Done() {
			next, reported := r.Next(), len(r.Report.Steps)
			if _, _, err := r.Step(); err != nil {
				if !strings.Contains(err.Error(), fmt.Sprintf("step %d:", next)) {
					t.Fatalf("the error of step %d does not name it: %v", next, err)
				}
				if r.Next() != next || len(r.Report.Steps) != reported {
					t.Fatalf("failed step %d moved the runner to step %d (%d reported, was %d)", next, r.Next(), len(r.Report.Steps), reported)
				}
				return
			}
		}
	})
}

// TestFuzzSeedsRun: the fuzz seeds run to the end on the tiny level (so
// the fuzzer starts from scenarios that exercise every step).
func TestFuzzSeedsRun(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tiny.obj"), []byte(tinyOBJ), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "fuzz"+FileExt)
	for i, s := range fuzzSeeds {
		sc, err := Parse([]byte(s), file)
		if err != nil {
			t.Fatalf("seed %d: %v", i, err)
		}
		fuzzBound(sc)
		if _, err := Run(sc, file); err != nil {
			t.Errorf("seed %d: %v", i, err)
		}
	}
}
