package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"navviz/core/pipeline"
	"navviz/world"
)

// Version is the format version this package reads and writes: the value
// of the first key, "navviz-scenario".
const Version = 1

// MaxAbsValue bounds every number of a scenario file (coordinates, sizes,
// angles, counts): finite and within ±2^21 (voxel.MaxCoordM, the range the
// voxel stages accept).
const MaxAbsValue = 1 << 21

// MaxShotPx bounds each side of a shot, pixels.
const MaxShotPx = 8192

// Scenario is a parsed scenario file: what to load and build, then the
// steps in order. The zero values of optional fields mean "default" (see
// docs/scenario.md). Marshal writes it back; Parse(Marshal(s)) equals s.
type Scenario struct {
	// FormatVersion is the value of "navviz-scenario" (Version).
	FormatVersion int `json:"navviz-scenario"`
	// Description is free text for humans (ignored by the runner).
	Description string `json:"description,omitempty"`
	// Level is the level to load.
	Level Level `json:"level"`
	// Settings are the NavSettings fields that differ from
	// pipeline.DefaultSettings (nil: all defaults).
	Settings *Settings `json:"settings,omitempty"`
	// Cache says whether a tile cache is built (nil: true). Without it
	// only camera, overlays, select_tile, path, agents and shot steps may
	// run.
	Cache *bool `json:"cache,omitempty"`
	// AgentSizes are agent configurations besides the settings' own
	// (called "default"): with any, the scenario runs on a world.World of
	// one tile cache per agent size, every edit carving each of them
	// (docs/world.md); show_agent steps choose the mesh the later steps
	// show. Needs the cache.
	AgentSizes []AgentSize `json:"agent_sizes,omitempty"`
	// Steps are run in order.
	Steps []Step `json:"steps"`
}

// AgentSize is one agent configuration of AgentSizes: its name and the
// settings that depend on the body (world.Agent), metres and degrees.
type AgentSize struct {
	Name     string  `json:"name"`
	HeightM  float64 `json:"height_m"`
	RadiusM  float64 `json:"radius_m"`
	ClimbM   float64 `json:"climb_m"`
	SlopeDeg float64 `json:"slope_deg"`
}

// DefaultAgent is the name of the agent size of the scenario's settings.
const DefaultAgent = "default"

// WorldAgents returns the scenario's agent sizes as world.Agents: the
// settings' own ("default") first, then AgentSizes, each checked (names
// unique, numbers finite, the settings with each body valid).
func (s *Scenario) WorldAgents() ([]world.Agent, error) {
	base, err := s.NavSettings()
	if err != nil {
		return nil, err
	}
	agents := []world.Agent{world.AgentOf(DefaultAgent, base)}
	if s == nil {
		return agents, nil
	}
	if len(s.AgentSizes) >= world.MaxAgents {
		return nil, fmt.Errorf("agent_sizes: %d, want at most %d besides %q", len(s.AgentSizes), world.MaxAgents-1, DefaultAgent)
	}
	for i, a := range s.AgentSizes {
		what := fmt.Sprintf("agent_sizes[%d]", i)
		if err := checkName(what, a.Name); err != nil {
			return nil, err
		}
		for _, n := range []struct {
			name string
			v    float64
		}{{"height_m", a.HeightM}, {"radius_m", a.RadiusM}, {"climb_m", a.ClimbM}, {"slope_deg", a.SlopeDeg}} {
			if err := checkNum(what+"."+n.name, n.v); err != nil {
				return nil, err
			}
		}
		for _, b := range agents {
			if b.Name == a.Name {
				return nil, fmt.Errorf("%s: the name %q is taken", what, a.Name)
			}
		}
		ag := world.Agent{Name: a.Name, HeightM: float32(a.HeightM), RadiusM: float32(a.RadiusM), MaxClimbM: float32(a.ClimbM), MaxSlopeDeg: float32(a.SlopeDeg)}
		ns := ag.Settings(base)
		if err := ns.Validate(); err != nil {
			return nil, fmt.Errorf("%s %q: %w", what, a.Name, err)
		}
		agents = append(agents, ag)
	}
	return agents, nil
}

// Level names the level: a built-in generated level (Builtin, with Seed;
// nil Seed: level.DefaultSeed) or a Wavefront OBJ file (OBJ, a path
// relative to the scenario file's directory unless absolute). Exactly one
// of Builtin and OBJ is set.
type Level struct {
	Builtin string  `json:"builtin,omitempty"`
	Seed    *uint64 `json:"seed,omitempty"`
	OBJ     string  `json:"obj,omitempty"`
}

// Settings holds the NavSettings fields a scenario sets; nil fields keep
// pipeline.DefaultSettings' value. Units are in the names, as in
// pipeline.NavSettings.
type Settings struct {
	CellSizeM                 *float64 `json:"cell_size_m,omitempty"`
	CellHeightM               *float64 `json:"cell_height_m,omitempty"`
	AgentHeightM              *float64 `json:"agent_height_m,omitempty"`
	AgentRadiusM              *float64 `json:"agent_radius_m,omitempty"`
	AgentMaxClimbM            *float64 `json:"agent_max_climb_m,omitempty"`
	AgentMaxSlopeDeg          *float64 `json:"agent_max_slope_deg,omitempty"`
	TileSizeCells             *int     `json:"tile_size_cells,omitempty"`
	Partition                 string   `json:"partition,omitempty"`
	RegionMinSizeCells        *int     `json:"region_min_size_cells,omitempty"`
	RegionMergeSizeCells      *int     `json:"region_merge_size_cells,omitempty"`
	EdgeMaxLenM               *float64 `json:"edge_max_len_m,omitempty"`
	EdgeMaxErrorCells         *float64 `json:"edge_max_error_cells,omitempty"`
	VertsPerPoly              *int     `json:"verts_per_poly,omitempty"`
	DetailSampleDistCells     *float64 `json:"detail_sample_dist_cells,omitempty"`
	DetailSampleMaxErrorCells *float64 `json:"detail_sample_max_error_cells,omitempty"`
}

// Error is an error of a scenario file: the file, the step (1-based; 0:
// the header) and what is wrong.
type Error struct {
	File string
	Step int
	Err  error
}

func (e *Error) Error() string {
	if e == nil {
		return "<nil>"
	}
	if e.Step > 0 {
		return fmt.Sprintf("%s: step %d: %v", e.File, e.Step, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

func (e *Error) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.Err
}

// header is the file as decoded before the steps.
type header struct {
	FormatVersion *int              `json:"navviz-scenario"`
	Description   string            `json:"description"`
	Level         *Level            `json:"level"`
	Settings      *Settings         `json:"settings"`
	Cache         *bool             `json:"cache"`
	AgentSizes    []AgentSize       `json:"agent_sizes"`
	Steps         []json.RawMessage `json:"steps"`
}

// decodeStrict decodes data into v rejecting unknown fields and trailing
// data.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("unexpected data after the JSON value")
	}
	return nil
}

// Parse reads a scenario file's bytes; file names it in errors (and is
// not opened). It checks everything that does not need the level: the
// version, unknown keys, one kind per step, names, numbers (finite, within
// ±MaxAbsValue), overlay and scope names, shot sizes, unique shot names
// and the settings (pipeline.NavSettings.Validate). Errors are *Error.
func Parse(data []byte, file string) (*Scenario, error) {
	fail := func(step int, format string, args ...any) error {
		return &Error{File: file, Step: step, Err: fmt.Errorf(format, args...)}
	}
	data, err := checkText(data, file)
	if err != nil {
		return nil, err
	}
	var h header
	if err := decodeStrict(data, &h); err != nil {
		return nil, fail(0, "%v", err)
	}
	if h.FormatVersion == nil {
		return nil, fail(0, "missing \"navviz-scenario\": %d (the format version)", Version)
	}
	if *h.FormatVersion != Version {
		return nil, fail(0, "\"navviz-scenario\": %d: this navviz reads version %d", *h.FormatVersion, Version)
	}
	if h.Level == nil {
		return nil, fail(0, "missing \"level\"")
	}
	s := &Scenario{FormatVersion: Version, Description: h.Description, Level: *h.Level, Settings: h.Settings, Cache: h.Cache, AgentSizes: h.AgentSizes}
	if h.Steps == nil {
		return nil, fail(0, "missing \"steps\"")
	}
	s.Steps = make([]Step, len(h.Steps))
	for i, raw := range h.Steps {
		if err := decodeStrict(raw, &s.Steps[i]); err != nil {
			return nil, fail(i+1, "%v", err)
		}
	}
	if err := s.Validate(file); err != nil {
		return nil, err
	}
	return s, nil
}

// Marshal checks s (Validate) and writes it as an indented scenario file,
// the version first (FormatVersion is written as Version; nil Steps as
// []). Parse(Marshal(s)) equals s.
func Marshal(s *Scenario) ([]byte, error) {
	c := *s
	c.FormatVersion = Version
	if c.Steps == nil {
		c.Steps = []Step{}
	}
	if err := c.Validate("scenario"); err != nil {
		return nil, fmt.Errorf("scenario: marshal: %w", err)
	}
	data, err := json.MarshalIndent(&c, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("scenario: marshal: %w", err)
	}
	if len(data)+1 > MaxFileBytes {
		return nil, fmt.Errorf("scenario: marshal: %w", tooLarge(len(data)+1))
	}
	return append(data, '\n'), nil
}

// CacheBuilt reports whether the scenario builds a tile cache.
func (s *Scenario) CacheBuilt() bool { return s != nil && (s.Cache == nil || *s.Cache) }

// LevelPath returns the OBJ path of l resolved against dir (the scenario
// file's directory), or "" for a built-in level.
func (l *Level) LevelPath(dir string) string {
	if l == nil || l.OBJ == "" {
		return ""
	}
	if filepath.IsAbs(l.OBJ) {
		return l.OBJ
	}
	return filepath.Join(dir, filepath.FromSlash(l.OBJ))
}

// NavSettings returns pipeline.DefaultSettings with the scenario's
// settings applied, validated (the error names the field and value).
func (s *Scenario) NavSettings() (pipeline.NavSettings, error) {
	ns := pipeline.DefaultSettings()
	if s == nil {
		return ns, nil
	}
	st := s.Settings
	if st == nil {
		return ns, nil
	}
	if err := setNums([]numSetting[float64, float32]{
		{"cell_size_m", st.CellSizeM, &ns.CellSizeM},
		{"cell_height_m", st.CellHeightM, &ns.CellHeightM},
		{"agent_height_m", st.AgentHeightM, &ns.AgentHeightM},
		{"agent_radius_m", st.AgentRadiusM, &ns.AgentRadiusM},
		{"agent_max_climb_m", st.AgentMaxClimbM, &ns.AgentMaxClimbM},
		{"agent_max_slope_deg", st.AgentMaxSlopeDeg, &ns.AgentMaxSlopeDeg},
		{"edge_max_len_m", st.EdgeMaxLenM, &ns.EdgeMaxLenM},
		{"edge_max_error_cells", st.EdgeMaxErrorCells, &ns.EdgeMaxErrorCells},
		{"detail_sample_dist_cells", st.DetailSampleDistCells, &ns.DetailSampleDistCells},
		{"detail_sample_max_error_cells", st.DetailSampleMaxErrorCells, &ns.DetailSampleMaxErrorCells},
	}); err != nil {
		return ns, err
	}
	if err := setNums([]numSetting[int, int]{
		{"tile_size_cells", st.TileSizeCells, &ns.TileSizeCells},
		{"region_min_size_cells", st.RegionMinSizeCells, &ns.RegionMinSizeCells},
		{"region_merge_size_cells", st.RegionMergeSizeCells, &ns.RegionMergeSizeCells},
		{"verts_per_poly", st.VertsPerPoly, &ns.VertsPerPoly},
	}); err != nil {
		return ns, err
	}
	if st.Partition != "" {
		p, err := pipeline.ParsePartitionType(st.Partition)
		if err != nil || p.String() != st.Partition {
			return ns, fmt.Errorf("settings.partition %q: want watershed, monotone or layers", st.Partition)
		}
		ns.Partition = p
	}
	if err := ns.Validate(); err != nil {
		return ns, fmt.Errorf("settings: %w", err)
	}
	return ns, nil
}

// numSetting is one numeric field of Settings: its JSON name, its value
// (nil: keep the default) and the NavSettings field it sets.
type numSetting[S float64 | int, D float32 | int] struct {
	name string
	v    *S
	dst  *D
}

// setNums sets the destination of every field given a value, in order,
// after checkNum; the first bad value is the error.
func setNums[S float64 | int, D float32 | int](fields []numSetting[S, D]) error {
	for _, f := range fields {
		if f.v == nil {
			continue
		}
		if err := checkNum("settings."+f.name, float64(*f.v)); err != nil {
			return err
		}
		*f.dst = D(*f.v)
	}
	return nil
}
