package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"navviz/internal/readlimit"
)

// TestParseStrict: what encoding/json lets through is refused, naming the
// step and the field path: arrays of a fixed size with another count,
// duplicate keys, invalid UTF-8.
func TestParseStrict(t *testing.T) {
	cyl := func(base string) string {
		return minimal(`{"obstacle": {"name": "a", "cylinder": {"base_m": ` + base + `, "radius_m": 1, "height_m": 2}}}`)
	}
	cases := []struct {
		name, src string
		want      []string
	}{
		{"base_m short", cyl(`[40, 0]`), []string{"step 1:", "obstacle.cylinder.base_m: 2 values, want 3"}},
		{"base_m long", cyl(`[40, 0, 1, 2]`), []string{"step 1:", "obstacle.cylinder.base_m: 4 values, want 3"}},
		{"base_m empty", cyl(`[]`), []string{"base_m: 0 values, want 3"}},
		{"box max_m", minimal(`{"obstacle": {"name": "b", "box": {"min_m": [0, 0, 0], "max_m": [1, 1]}}}`), []string{"obstacle.box.max_m: 2 values"}},
		{"oriented half_m", minimal(`{"obstacle": {"name": "o", "oriented_box": {"centre_m": [0, 0, 0], "half_m": [1], "yaw_rad": 0}}}`), []string{"obstacle.oriented_box.half_m: 1 values"}},
		{"path start_m", minimal(`{"shot": {"name": "a", "size": "8x8"}}, {"path": {"start_m": [1], "end_m": [1, 2, 3]}}`), []string{"step 2:", "path.start_m: 1 values, want 3"}},
		{"path end_m", minimal(`{"path": {"start_m": [1, 2, 3], "end_m": [1, 2, 3, 4]}}`), []string{"path.end_m: 4 values"}},
		{"offmesh start_m", minimal(`{"offmesh": {"name": "j", "start_m": [1, 2], "end_m": [1, 2, 3], "radius_m": 1, "area": 63}}`), []string{"offmesh.start_m: 2 values"}},
		{"camera target_m", minimal(`{"camera": {"target_m": [1, 2]}}`), []string{"camera.target_m: 2 values"}},
		{"camera frame_tile", minimal(`{"camera": {"frame_tile": [1]}}`), []string{"camera.frame_tile: 1 values, want 2"}},
		{"select_tile", minimal(`{"select_tile": [1, 2, 3]}`), []string{"select_tile: 3 values, want 2"}},
		{"volume corner", minimal(`{"volume": {"name": "v", "corners_m": [[0, 0], [4, 0, 1], [4, 4]], "min_y_m": 0, "max_y_m": 1, "area": 2}}`), []string{"volume.corners_m[1]: 3 values, want 2"}},
		{"agents target_m", minimal(`{"agents": {"count": 2, "target_m": [1, 2], "seconds": 1}}`), []string{"agents.target_m: 2 values"}},
		{"duplicate header key", `{"navviz-scenario": 1, "level": {"builtin": "city"}, "level": {"builtin": "terrain"}, "steps": []}`, []string{"f.json: level: duplicate key"}},
		{"duplicate version", `{"navviz-scenario": 1, "navviz-scenario": 2, "level": {"builtin": "city"}, "steps": []}`, []string{`duplicate key "navviz-scenario"`}},
		{"duplicate setting", `{"navviz-scenario": 1, "level": {"builtin": "city"}, "settings": {"cell_size_m": 0.3, "cell_size_m": 0.2}, "steps": []}`, []string{"settings.cell_size_m: duplicate key"}},
		{"duplicate agent size key", `{"navviz-scenario": 1, "level": {"builtin": "city"}, "agent_sizes": [{"name": "a", "name": "b", "height_m": 2, "radius_m": 1, "climb_m": 0.5, "slope_deg": 40}], "steps": []}`, []string{"agent_sizes[0].name: duplicate key"}},
		{"duplicate step key", minimal(`{"update": 1, "update": 2}`), []string{"step 1:", "update: duplicate key"}},
		{"duplicate nested key", cyl(`[1, 2, 3], "base_m": [4, 5, 6]`), []string{"step 1:", "obstacle.cylinder.base_m: duplicate key"}},
		{"duplicate in another case", minimal(`{"shot": {"name": "a", "Name": "b", "size": "8x8"}}`), []string{"shot.Name", `key "Name" repeats "name"`}},
		{"invalid UTF-8 description", "{\"navviz-scenario\": 1,\n\"description\": \"caf\xe9\", \"level\": {\"builtin\": \"city\"}, \"steps\": []}", []string{"f.json:", "invalid UTF-8 at byte 42 (line 2)"}},
		{"invalid UTF-8 note", minimal("{\"note\": \"\xff\", \"update\": 1}"), []string{"invalid UTF-8"}},
		{"BOM twice", "\uFEFF\uFEFF" + minimal(``), []string{"invalid character"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Parse([]byte(c.src), "f.json")
			if err == nil {
				t.Fatalf("Parse accepted %q: %+v", c.src, s)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// TestParseBOM: a leading UTF-8 byte order mark is skipped (as in OBJ
// files).
func TestParseBOM(t *testing.T) {
	src := minimal(`{"select_tile": [1, 2]}`)
	want, err := Parse([]byte(src), "f.json")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Parse([]byte("\uFEFF"+src), "f.json")
	if err != nil {
		t.Fatalf("with a BOM: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("with a BOM: %+v, want %+v", got, want)
	}
}

// steps returns n copies of step, comma-separated.
func steps(step string, n int) string {
	return strings.TrimSuffix(strings.Repeat(step+",", n), ",")
}

// TestParseCaps: a file over a cap is refused, naming the count and the
// cap; at the cap it is accepted.
func TestParseCaps(t *testing.T) {
	corners := func(n int) string {
		return minimal(`{"volume": {"name": "v", "corners_m": [` + steps(`[0, 0]`, n) + `], "min_y_m": 0, "max_y_m": 1, "area": 2}}`)
	}
	cases := []struct {
		name, src string
		want      []string // nil: accepted
	}{
		{"steps at the cap", minimal(steps(`{"select_tile": [0, 0]}`, MaxSteps)), nil},
		{"steps over the cap", minimal(steps(`{"select_tile": [0, 0]}`, MaxSteps+5)), []string{"f.json: steps: 10005 steps, over the cap of 10000"}},
		{"corners over the cap", corners(MaxVolumeCorners + 1), []string{"step 1:", "volume.corners_m: 65 corners, over the cap of 64"}},
		{"note over the cap", minimal(`{"note": "` + strings.Repeat("x", MaxStringBytes+1) + `", "update": 1}`), []string{"step 1:", "note: 4097 bytes, over the cap of 4096"}},
		{"note at the cap", minimal(`{"note": "` + strings.Repeat("x", MaxStringBytes) + `", "update": 1}`), nil},
		{"key over the cap", minimal(`{"` + strings.Repeat("k", MaxStringBytes+1) + `": 1}`), []string{"step 1:", "4097 bytes, over the cap of 4096"}},
		{"description over the cap", `{"navviz-scenario": 1, "description": "` + strings.Repeat("d", MaxDescriptionBytes+1) + `", "level": {"builtin": "city"}, "steps": []}`, []string{"description: 65537 bytes, over the cap of 65536"}},
		{"overlays over the cap", minimal(`{"overlays": {"show": [` + steps(`"input"`, len(OverlayNames())+1) + `]}}`), []string{"overlays.show:", "over the cap of"}},
		{"agent sizes over the cap", `{"navviz-scenario": 1, "level": {"builtin": "city"}, "agent_sizes": [` + steps(`{}`, 16) + `], "steps": []}`, []string{"agent_sizes: 16 agent sizes, over the cap of 15"}},
		{"shot pixels at the cap", minimal(`{"shot": {"name": "a", "size": "8192x8192"}}, {"shot": {"name": "b", "size": "8192x8192"}}, {"shot": {"name": "c", "size": "8192x8192"}}, {"shot": {"name": "d", "size": "8192x8192"}}`), nil},
		{"shot pixels over the cap", minimal(`{"shot": {"name": "a", "size": "8192x8192"}}, {"shot": {"name": "b", "size": "8192x8192"}}, {"shot": {"name": "c", "size": "8192x8192"}}, {"shot": {"name": "d", "size": "8192x8192"}}, {"shot": {"name": "e", "size": "1x1"}}`),
			[]string{"step 5:", `shot "e": 268435457 pixels in the shots up to it, over the cap of 268435456`}},
		{"agents at the cap", minimal(steps(`{"agents": {"count": 1000, "seconds": 0}}`, 262)), nil},
		{"agents over the cap", minimal(`{"agents": {"count": 1000, "seconds": 0}},` + steps(`{"agents": {"seconds": 0}}`, 262)),
			[]string{"step 263:", "agents: 263000 agents reported by the agents steps up to it, over the cap of 262144"}},
		{"file over the limit", minimal(`{"update": 1}`) + strings.Repeat(" ", MaxFileBytes), []string{"f.json:", "over the 10502144-byte limit"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.src), "f.json")
			switch {
			case c.want == nil && err != nil:
				t.Fatalf("refused: %v", err)
			case c.want != nil && err == nil:
				t.Fatalf("accepted")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// TestValidateCaps: Validate (and so Marshal) refuses what Parse refuses,
// so that navviz never writes a file it cannot read.
func TestValidateCaps(t *testing.T) {
	cases := []struct {
		name string
		edit func(s *Scenario)
		want string
	}{
		{"steps", func(s *Scenario) { s.Steps = make([]Step, MaxSteps+1) }, "10001 steps, over the cap of 10000"},
		{"corners", func(s *Scenario) {
			s.Steps = []Step{{Volume: &VolumeStep{Name: "v", CornersM: make([][2]float64, MaxVolumeCorners+1), MaxYM: 1}}}
		}, "corners_m: 65 corners, over the cap of 64"},
		{"note", func(s *Scenario) { s.Steps[0].Note = strings.Repeat("n", MaxStringBytes+1) }, "note: 4097 bytes"},
		{"description", func(s *Scenario) { s.Description = strings.Repeat("d", MaxDescriptionBytes+1) }, "description: 65537 bytes"},
		{"obj path", func(s *Scenario) { s.Level = Level{OBJ: strings.Repeat("o", MaxStringBytes+1)} }, "level.obj: 4097 bytes"},
		{"restore file", func(s *Scenario) {
			s.Steps[0] = Step{Restore: &SnapshotRef{File: strings.Repeat("r", MaxStringBytes+1)}}
		}, "restore.file: 4097 bytes"},
		{"shot size", func(s *Scenario) {
			s.Steps[0] = Step{Shot: &ShotStep{Name: "s", Size: strings.Repeat("0", 5000) + "8x8"}}
		}, "shot size"},
		{"file size", func(s *Scenario) {
			s.Steps = make([]Step, MaxSteps)
			for i := range s.Steps {
				s.Steps[i] = Step{Note: strings.Repeat("<", 1000), SelectTile: &[2]int{0, 0}}
			}
		}, "over the 10502144-byte limit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := everyStep()
			c.edit(s)
			_, err := Marshal(s)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Marshal: err = %v, want %q", err, c.want)
			}
		})
	}
}

// TestLoadBounded: Load reads at most MaxFileBytes: a larger file (a
// sparse one here) and an endless one (/dev/zero) are refused with the
// size and the limit.
func TestLoadBounded(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.scenario.json")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 10<<30); err != nil {
		t.Fatal(err)
	}
	paths := []string{big}
	if _, err := os.Stat("/dev/zero"); err == nil {
		paths = append(paths, "/dev/zero")
	}
	for _, p := range paths {
		_, err := Load(p)
		var tl *readlimit.TooLargeError
		if !errors.As(err, &tl) || tl.LimitBytes != MaxFileBytes || !strings.Contains(err.Error(), p) {
			t.Errorf("Load(%s): %v, want a size error naming the file and the %d-byte limit", p, err, MaxFileBytes)
		}
	}
}
