package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
	"navviz/core/voxel"
	"navviz/render"
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
	// only camera, overlays, select_tile, path and shot steps may run.
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

// Step is one step: exactly one of its fields is set (Kind names it).
// Note is free text for humans.
type Step struct {
	Note           string        `json:"note,omitempty"`
	Obstacle       *ObstacleStep `json:"obstacle,omitempty"`
	RemoveObstacle string        `json:"remove_obstacle,omitempty"`
	Volume         *VolumeStep   `json:"volume,omitempty"`
	RemoveVolume   string        `json:"remove_volume,omitempty"`
	OffMesh        *OffMeshStep  `json:"offmesh,omitempty"`
	RemoveOffMesh  string        `json:"remove_offmesh,omitempty"`
	Update         *UpdateCount  `json:"update,omitempty"`
	Snapshot       *SnapshotRef  `json:"snapshot,omitempty"`
	Restore        *SnapshotRef  `json:"restore,omitempty"`
	Camera         *CameraStep   `json:"camera,omitempty"`
	Overlays       *OverlaysStep `json:"overlays,omitempty"`
	SelectTile     *[2]int       `json:"select_tile,omitempty"`
	Path           *PathStep     `json:"path,omitempty"`
	Shot           *ShotStep     `json:"shot,omitempty"`
	Agents         *AgentsStep   `json:"agents,omitempty"`
	// ShowAgent names the agent size (AgentSizes, or "default") whose mesh
	// the later steps show, query and report.
	ShowAgent string `json:"show_agent,omitempty"`
}

// Step kinds, the JSON keys of Step.
const (
	KindObstacle       = "obstacle"
	KindRemoveObstacle = "remove_obstacle"
	KindVolume         = "volume"
	KindRemoveVolume   = "remove_volume"
	KindOffMesh        = "offmesh"
	KindRemoveOffMesh  = "remove_offmesh"
	KindUpdate         = "update"
	KindSnapshot       = "snapshot"
	KindRestore        = "restore"
	KindCamera         = "camera"
	KindOverlays       = "overlays"
	KindSelectTile     = "select_tile"
	KindPath           = "path"
	KindShot           = "shot"
	KindAgents         = "agents"
	KindShowAgent      = "show_agent"
)

// stepField is one kind of step and whether a Step sets it.
type stepField struct {
	kind string
	set  bool
}

// fields lists every kind of step, in field order, with whether s sets it:
// the one list of kinds (kinds, stepKinds).
func (s *Step) fields() []stepField {
	return []stepField{
		{KindObstacle, s.Obstacle != nil},
		{KindRemoveObstacle, s.RemoveObstacle != ""},
		{KindVolume, s.Volume != nil},
		{KindRemoveVolume, s.RemoveVolume != ""},
		{KindOffMesh, s.OffMesh != nil},
		{KindRemoveOffMesh, s.RemoveOffMesh != ""},
		{KindUpdate, s.Update != nil},
		{KindSnapshot, s.Snapshot != nil},
		{KindRestore, s.Restore != nil},
		{KindCamera, s.Camera != nil},
		{KindOverlays, s.Overlays != nil},
		{KindSelectTile, s.SelectTile != nil},
		{KindPath, s.Path != nil},
		{KindShot, s.Shot != nil},
		{KindAgents, s.Agents != nil},
		{KindShowAgent, s.ShowAgent != ""},
	}
}

// kinds returns the kinds of the fields set in s, in field order.
func (s *Step) kinds() []string {
	var k []string
	for _, f := range s.fields() {
		if f.set {
			k = append(k, f.kind)
		}
	}
	return k
}

// stepKinds returns every kind of step, in field order.
func stepKinds() []string {
	var k []string
	for _, f := range (&Step{}).fields() {
		k = append(k, f.kind)
	}
	return k
}

// Kind returns the step's kind (its one key), or "" when not exactly one
// field is set.
func (s *Step) Kind() string {
	if s == nil {
		return ""
	}
	if k := s.kinds(); len(k) == 1 {
		return k[0]
	}
	return ""
}

// ObstacleStep adds a named obstacle of one of three shapes (exactly one
// set), metres.
type ObstacleStep struct {
	Name        string            `json:"name"`
	Cylinder    *CylinderShape    `json:"cylinder,omitempty"`
	Box         *BoxShape         `json:"box,omitempty"`
	OrientedBox *OrientedBoxShape `json:"oriented_box,omitempty"`
}

// CylinderShape is voxel.Cylinder: base centre, radius and height.
type CylinderShape struct {
	BaseM   [3]float64 `json:"base_m"`
	RadiusM float64    `json:"radius_m"`
	HeightM float64    `json:"height_m"`
}

// BoxShape is voxel.Box: the min and max corners.
type BoxShape struct {
	MinM [3]float64 `json:"min_m"`
	MaxM [3]float64 `json:"max_m"`
}

// OrientedBoxShape is voxel.OrientedBox: centre, half sizes and yaw
// (radians, from +x towards +z; radians so that a recorded yaw is
// reproduced bit for bit).
type OrientedBoxShape struct {
	CentreM [3]float64 `json:"centre_m"`
	HalfM   [3]float64 `json:"half_m"`
	YawRad  float64    `json:"yaw_rad"`
}

// OffMeshStep adds a named off-mesh link (tilecache.Cache.AddOffMeshLink;
// its flags are the settings' AreaFlags of its area).
type OffMeshStep struct {
	Name          string     `json:"name"`
	StartM        [3]float64 `json:"start_m"`
	EndM          [3]float64 `json:"end_m"`
	RadiusM       float64    `json:"radius_m"`
	Bidirectional bool       `json:"bidirectional,omitempty"`
	Area          int        `json:"area"`
}

// Link returns the step's off-mesh link (values rounded to float32),
// with the flags areaFlags gives its area (nil: none). A nil step gives
// the zero link.
func (o *OffMeshStep) Link(areaFlags *[navmesh.MaxArea + 1]uint16) navmesh.OffMeshLink {
	if o == nil {
		return navmesh.OffMeshLink{}
	}
	v := func(a [3]float64) geom.Vec3 { return geom.V3(float32(a[0]), float32(a[1]), float32(a[2])) }
	l := navmesh.OffMeshLink{StartM: v(o.StartM), EndM: v(o.EndM), RadiusM: float32(o.RadiusM), Bidirectional: o.Bidirectional, Area: uint8(o.Area)}
	if areaFlags != nil && o.Area >= 0 && o.Area <= navmesh.MaxArea {
		l.Flags = areaFlags[o.Area]
	}
	return l
}

// VolumeStep adds a named run-time area volume (voxel.ConvexVolume).
type VolumeStep struct {
	Name     string       `json:"name"`
	CornersM [][2]float64 `json:"corners_m"`
	MinYM    float64      `json:"min_y_m"`
	MaxYM    float64      `json:"max_y_m"`
	Area     int          `json:"area"`
}

// UpdateCount is the argument of an update step: a number of tiles
// (Tiles >= 1, JSON number) or every queued tile (All, JSON "all").
type UpdateCount struct {
	All   bool
	Tiles int
}

// MarshalJSON writes "all" or the number.
func (u UpdateCount) MarshalJSON() ([]byte, error) {
	if u.All {
		return []byte(`"all"`), nil
	}
	return []byte(strconv.Itoa(u.Tiles)), nil
}

// UnmarshalJSON reads "all" or a whole number of tiles.
func (u *UpdateCount) UnmarshalJSON(b []byte) error {
	if string(b) == `"all"` {
		*u = UpdateCount{All: true}
		return nil
	}
	n, err := strconv.Atoi(string(b))
	if err != nil {
		return fmt.Errorf("update %s: want a whole number of tiles or \"all\"", b)
	}
	*u = UpdateCount{Tiles: n}
	return nil
}

// SnapshotRef names where a snapshot goes or comes from: a named slot in
// memory (Slot) or a file (File). Exactly one is set. A snapshot step's
// file is an output (written to the output directory, a plain file name);
// a restore step's file is the one an earlier snapshot step of the same
// scenario wrote, or else a file read relative to the scenario file.
type SnapshotRef struct {
	Slot string `json:"slot,omitempty"`
	File string `json:"file,omitempty"`
}

// CameraStep changes the camera; nil fields keep their value. FrameTile
// and FrameLevel frame a tile or the whole level for each shot's aspect;
// they exclude TargetM and DistanceM.
type CameraStep struct {
	// View is "orbit" or "top" ("": unchanged).
	View      string      `json:"view,omitempty"`
	Ortho     *bool       `json:"ortho,omitempty"`
	TargetM   *[3]float64 `json:"target_m,omitempty"`
	YawDeg    *float64    `json:"yaw_deg,omitempty"`
	PitchDeg  *float64    `json:"pitch_deg,omitempty"`
	DistanceM *float64    `json:"distance_m,omitempty"`
	FrameTile *[2]int     `json:"frame_tile,omitempty"`
	// FrameLevel frames the whole level.
	FrameLevel bool `json:"frame_level,omitempty"`
}

// OverlaysStep sets the visible overlays (exactly Show, in the scene's
// fixed drawing order) and, when Scope is set, the scope of the per-tile
// overlays.
type OverlaysStep struct {
	Show  []string `json:"show"`
	Scope string   `json:"scope,omitempty"`
}

// Scopes of the per-tile overlays (span, mesh and inspector overlays).
const (
	ScopeSelected   = "selected"
	ScopeNeighbours = "neighbours"
	ScopeAll        = "all"
)

// Scopes lists the scope names.
var Scopes = []string{ScopeSelected, ScopeNeighbours, ScopeAll}

// PathStep sets the path's start and end points, metres.
type PathStep struct {
	StartM [3]float64 `json:"start_m"`
	EndM   [3]float64 `json:"end_m"`
}

// ShotStep renders a picture called Name (a file NAME.png) of Size
// ("WIDTHxHEIGHT", each side 1..MaxShotPx), with an optional legend box.
type ShotStep struct {
	Name   string `json:"name"`
	Size   string `json:"size"`
	Legend bool   `json:"legend,omitempty"`
}

// LevelOverlays are the overlays of render.LevelScene.
var LevelOverlays = []string{render.OverlayInput, render.OverlayGrid}

// OverlayNames returns every overlay name an overlays step accepts, in
// drawing order: the level's, the span and mesh stages' (plain build),
// the selection, the tile cache's, the repair inspector's, the path and
// the agents.
func OverlayNames() []string {
	var n []string
	n = append(n, LevelOverlays...)
	n = append(n, render.SpanOverlayNames...)
	n = append(n, render.MeshOverlayNames...)
	n = append(n, render.OverlaySelection)
	n = append(n, render.CacheOverlayNames...)
	n = append(n, render.InspectOverlayNames...)
	n = append(n, render.OverlayPath)
	n = append(n, render.OverlayAgents)
	return n
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

// nameRE is what obstacle, volume, slot and shot names may be.
var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// checkName checks a name of what.
func checkName(what, name string) error {
	if !nameRE.MatchString(name) {
		return fmt.Errorf("%s name %q: want 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit", what, name)
	}
	return nil
}

// checkNum checks that v is finite and within ±MaxAbsValue.
func checkNum(what string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > MaxAbsValue {
		return fmt.Errorf("%s = %v: want a finite number within ±%d", what, v, MaxAbsValue)
	}
	return nil
}

func checkVec(what string, v [3]float64) error {
	for i, c := range v {
		if err := checkNum(fmt.Sprintf("%s[%d]", what, i), c); err != nil {
			return err
		}
	}
	return nil
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

// Validate checks s as Parse checks a file (file names it in errors): the
// version, the level, the settings, each step on its own and the shot
// names. Errors are *Error.
func (s *Scenario) Validate(file string) error {
	fail := func(step int, format string, args ...any) error {
		return &Error{File: file, Step: step, Err: fmt.Errorf(format, args...)}
	}
	if s == nil {
		return fail(0, "nil scenario")
	}
	if s.FormatVersion != Version {
		return fail(0, "\"navviz-scenario\": %d: this navviz reads version %d", s.FormatVersion, Version)
	}
	if err := checkLevel(&s.Level); err != nil {
		return fail(0, "level: %v", err)
	}
	if _, err := s.NavSettings(); err != nil {
		return fail(0, "%v", err)
	}
	agents, err := s.WorldAgents()
	if err != nil {
		return fail(0, "%v", err)
	}
	if len(s.AgentSizes) > 0 && !s.CacheBuilt() {
		return fail(0, "agent_sizes need the tile cache, and the scenario has \"cache\": false")
	}
	shots := map[string]int{}
	for i := range s.Steps {
		st := &s.Steps[i]
		if err := checkStep(st, s.CacheBuilt()); err != nil {
			return fail(i+1, "%v", err)
		}
		if st.ShowAgent != "" && !slices.ContainsFunc(agents, func(a world.Agent) bool { return a.Name == st.ShowAgent }) {
			return fail(i+1, "show_agent %q: no such agent size (have %s)", st.ShowAgent, agentNames(agents))
		}
		if st.Shot != nil {
			if j, dup := shots[st.Shot.Name]; dup {
				return fail(i+1, "shot %q: duplicate name (step %d has it)", st.Shot.Name, j)
			}
			shots[st.Shot.Name] = i + 1
		}
	}
	return nil
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
	return append(data, '\n'), nil
}

// CacheBuilt reports whether the scenario builds a tile cache.
func (s *Scenario) CacheBuilt() bool { return s != nil && (s.Cache == nil || *s.Cache) }

// checkLevel checks the level reference.
func checkLevel(l *Level) error {
	switch {
	case (l.Builtin == "") == (l.OBJ == ""):
		return fmt.Errorf("want exactly one of \"builtin\" (%s) and \"obj\" (a file)", strings.Join(level.BuiltinNames(), ", "))
	case l.Builtin != "" && !slices.Contains(level.BuiltinNames(), l.Builtin):
		return fmt.Errorf("unknown built-in level %q (have %s)", l.Builtin, strings.Join(level.BuiltinNames(), ", "))
	case l.OBJ != "" && l.Seed != nil:
		return fmt.Errorf("\"seed\" is for built-in levels, not for obj %q", l.OBJ)
	}
	return nil
}

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

// cacheKinds are the step kinds that need the tile cache.
var cacheKinds = []string{KindObstacle, KindRemoveObstacle, KindVolume, KindRemoveVolume, KindOffMesh, KindRemoveOffMesh, KindUpdate, KindSnapshot, KindRestore, KindShowAgent}

// agentNames lists the agents' names for errors.
func agentNames(agents []world.Agent) string {
	n := make([]string, len(agents))
	for i, a := range agents {
		n[i] = a.Name
	}
	return strings.Join(n, ", ")
}

// checkStep checks one step on its own.
func checkStep(st *Step, cache bool) error {
	k := st.kinds()
	switch len(k) {
	case 0:
		return fmt.Errorf("empty step: want one of %s", strings.Join(stepKinds(), ", "))
	case 1:
	default:
		return fmt.Errorf("one step has %s: want one kind per step", strings.Join(k, " and "))
	}
	if !cache && slices.Contains(cacheKinds, k[0]) {
		return fmt.Errorf("%s needs the tile cache, and the scenario has \"cache\": false", k[0])
	}
	switch {
	case st.Obstacle != nil:
		return checkObstacle(st.Obstacle)
	case st.RemoveObstacle != "":
		return checkName("obstacle", st.RemoveObstacle)
	case st.Volume != nil:
		return checkVolume(st.Volume)
	case st.RemoveVolume != "":
		return checkName("volume", st.RemoveVolume)
	case st.OffMesh != nil:
		return checkOffMesh(st.OffMesh)
	case st.RemoveOffMesh != "":
		return checkName("offmesh", st.RemoveOffMesh)
	case st.ShowAgent != "":
		return checkName("show_agent", st.ShowAgent)
	case st.Update != nil:
		if !st.Update.All && (st.Update.Tiles < 1 || st.Update.Tiles > MaxAbsValue) {
			return fmt.Errorf("update %d: want 1 to %d tiles or \"all\"", st.Update.Tiles, MaxAbsValue)
		}
	case st.Snapshot != nil:
		return checkSnapshotRef("snapshot", st.Snapshot, true)
	case st.Restore != nil:
		return checkSnapshotRef("restore", st.Restore, false)
	case st.Camera != nil:
		return checkCamera(st.Camera)
	case st.Overlays != nil:
		return checkOverlays(st.Overlays)
	case st.SelectTile != nil:
		return checkTile("select_tile", *st.SelectTile)
	case st.Path != nil:
		if err := checkVec("path start_m", st.Path.StartM); err != nil {
			return err
		}
		return checkVec("path end_m", st.Path.EndM)
	case st.Shot != nil:
		if err := checkName("shot", st.Shot.Name); err != nil {
			return err
		}
		if strings.HasSuffix(st.Shot.Name, ".diff") {
			return fmt.Errorf("shot name %q: names ending in .diff are the compare's difference pictures", st.Shot.Name)
		}
		_, _, err := ParseSize(st.Shot.Size)
		return err
	case st.Agents != nil:
		return checkAgents(st.Agents)
	}
	return nil
}

func checkTile(what string, t [2]int) error {
	if t[0] < 0 || t[1] < 0 || t[0] > MaxAbsValue || t[1] > MaxAbsValue {
		return fmt.Errorf("%s [%d, %d]: want two tile numbers 0 to %d", what, t[0], t[1], MaxAbsValue)
	}
	return nil
}

func checkObstacle(o *ObstacleStep) error {
	if err := checkName("obstacle", o.Name); err != nil {
		return err
	}
	n := 0
	for _, set := range []bool{o.Cylinder != nil, o.Box != nil, o.OrientedBox != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return fmt.Errorf("obstacle %q: want exactly one of cylinder, box, oriented_box (has %d)", o.Name, n)
	}
	what := "obstacle " + strconv.Quote(o.Name)
	var err error
	switch {
	case o.Cylinder != nil:
		c := o.Cylinder
		err = errors.Join(checkVec(what+" base_m", c.BaseM), checkNum(what+" radius_m", c.RadiusM), checkNum(what+" height_m", c.HeightM))
	case o.Box != nil:
		err = errors.Join(checkVec(what+" min_m", o.Box.MinM), checkVec(what+" max_m", o.Box.MaxM))
	default:
		b := o.OrientedBox
		err = errors.Join(checkVec(what+" centre_m", b.CentreM), checkVec(what+" half_m", b.HalfM), checkNum(what+" yaw_rad", b.YawRad))
	}
	if err != nil {
		return err
	}
	v := o.Voxel()
	if err := v.Validate(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

func checkVolume(v *VolumeStep) error {
	if err := checkName("volume", v.Name); err != nil {
		return err
	}
	what := "volume " + strconv.Quote(v.Name)
	for i, c := range v.CornersM {
		if err := errors.Join(checkNum(fmt.Sprintf("%s corners_m[%d][0]", what, i), c[0]), checkNum(fmt.Sprintf("%s corners_m[%d][1]", what, i), c[1])); err != nil {
			return err
		}
	}
	if err := errors.Join(checkNum(what+" min_y_m", v.MinYM), checkNum(what+" max_y_m", v.MaxYM)); err != nil {
		return err
	}
	if v.Area < 0 || v.Area > 63 {
		return fmt.Errorf("%s area %d: want 0 to 63", what, v.Area)
	}
	cv := v.Voxel()
	if err := cv.Validate(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

func checkOffMesh(o *OffMeshStep) error {
	if err := checkName("offmesh", o.Name); err != nil {
		return err
	}
	what := "offmesh " + strconv.Quote(o.Name)
	if err := errors.Join(checkVec(what+" start_m", o.StartM), checkVec(what+" end_m", o.EndM), checkNum(what+" radius_m", o.RadiusM)); err != nil {
		return err
	}
	if o.Area < 0 || o.Area > navmesh.MaxArea {
		return fmt.Errorf("%s area %d: want 0 to %d", what, o.Area, navmesh.MaxArea)
	}
	if err := o.Link(nil).Validate(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

func checkSnapshotRef(kind string, r *SnapshotRef, output bool) error {
	if (r.Slot == "") == (r.File == "") {
		return fmt.Errorf("%s: want exactly one of \"slot\" and \"file\"", kind)
	}
	if r.Slot != "" {
		return checkName(kind+" slot", r.Slot)
	}
	if output {
		if err := checkName(kind+" file", r.File); err != nil {
			return err
		}
		if strings.HasSuffix(r.File, ".png") || r.File == ReportFile || r.File == TimingsFile {
			return fmt.Errorf("%s file %q: the output directory's PNGs, %s and %s are taken", kind, r.File, ReportFile, TimingsFile)
		}
		return nil
	}
	if strings.ContainsRune(r.File, 0) {
		return fmt.Errorf("%s file %q: not a file name", kind, r.File)
	}
	return nil
}

func checkCamera(c *CameraStep) error {
	if c.View != "" && c.View != "orbit" && c.View != "top" {
		return fmt.Errorf("camera view %q: want orbit or top", c.View)
	}
	if c.FrameTile != nil && c.FrameLevel {
		return fmt.Errorf("camera: frame_tile and frame_level exclude each other")
	}
	if (c.FrameTile != nil || c.FrameLevel) && (c.TargetM != nil || c.DistanceM != nil) {
		return fmt.Errorf("camera: frame_tile and frame_level set the target and distance: leave out target_m and distance_m")
	}
	if c.TargetM != nil {
		if err := checkVec("camera target_m", *c.TargetM); err != nil {
			return err
		}
	}
	for _, f := range []struct {
		name string
		v    *float64
	}{{"yaw_deg", c.YawDeg}, {"pitch_deg", c.PitchDeg}, {"distance_m", c.DistanceM}} {
		if f.v != nil {
			if err := checkNum("camera "+f.name, *f.v); err != nil {
				return err
			}
		}
	}
	if c.PitchDeg != nil && math.Abs(*c.PitchDeg) > 90 {
		return fmt.Errorf("camera pitch_deg = %v: want -90 to 90", *c.PitchDeg)
	}
	if c.DistanceM != nil && !(*c.DistanceM >= render.MinDistanceM) {
		return fmt.Errorf("camera distance_m = %v: want at least %v", *c.DistanceM, render.MinDistanceM)
	}
	if c.FrameTile != nil {
		return checkTile("camera frame_tile", *c.FrameTile)
	}
	return nil
}

func checkOverlays(o *OverlaysStep) error {
	if o.Show == nil {
		return fmt.Errorf("overlays: missing \"show\" (the list of visible overlays; [] hides all)")
	}
	names := OverlayNames()
	for i, n := range o.Show {
		if !slices.Contains(names, n) {
			return fmt.Errorf("overlays: unknown overlay %q: want one of %s", n, strings.Join(names, ", "))
		}
		if slices.Contains(o.Show[:i], n) {
			return fmt.Errorf("overlays: %q listed twice", n)
		}
	}
	if o.Scope != "" && !slices.Contains(Scopes, o.Scope) {
		return fmt.Errorf("overlays: unknown scope %q: want %s", o.Scope, strings.Join(Scopes, ", "))
	}
	return nil
}

// ParseSize parses "WIDTHxHEIGHT" with each side 1..MaxShotPx.
func ParseSize(s string) (wPx, hPx int, err error) {
	ws, hs, ok := strings.Cut(s, "x")
	if ok {
		wPx, err = strconv.Atoi(ws)
		if err == nil {
			hPx, err = strconv.Atoi(hs)
		}
	}
	if !ok || err != nil {
		return 0, 0, fmt.Errorf("shot size %q: want WIDTHxHEIGHT, e.g. 640x400", s)
	}
	if wPx < 1 || hPx < 1 || wPx > MaxShotPx || hPx > MaxShotPx {
		return 0, 0, fmt.Errorf("shot size %q: each side must be 1 to %d pixels", s, MaxShotPx)
	}
	return wPx, hPx, nil
}

// Voxel returns the obstacle the step adds (float32 metres; not
// validated).
func (o *ObstacleStep) Voxel() voxel.Obstacle {
	switch {
	case o == nil:
	case o.Cylinder != nil:
		c := o.Cylinder
		return voxel.Cylinder(vec3(c.BaseM), float32(c.RadiusM), float32(c.HeightM))
	case o.Box != nil:
		return voxel.Box(vec3(o.Box.MinM), vec3(o.Box.MaxM))
	case o.OrientedBox != nil:
		b := o.OrientedBox
		return voxel.OrientedBox(vec3(b.CentreM), vec3(b.HalfM), float32(b.YawRad))
	}
	return voxel.Obstacle{}
}

// ObstacleStepOf returns the step that adds obstacle o as name (the GUI's
// recorder): float32 values convert to float64 exactly, so Voxel gives o
// back bit for bit.
func ObstacleStepOf(name string, o voxel.Obstacle) ObstacleStep {
	st := ObstacleStep{Name: name}
	switch o.Shape {
	case voxel.ShapeCylinder:
		st.Cylinder = &CylinderShape{BaseM: vec64(o.CentreM), RadiusM: float64(o.RadiusM), HeightM: float64(o.HeightM)}
	case voxel.ShapeBox:
		st.Box = &BoxShape{MinM: vec64(o.MinM), MaxM: vec64(o.MaxM)}
	case voxel.ShapeOrientedBox:
		st.OrientedBox = &OrientedBoxShape{CentreM: vec64(o.CentreM), HalfM: vec64(o.HalfM), YawRad: float64(o.YawRad)}
	}
	return st
}

// Voxel returns the volume the step adds (not validated).
func (v *VolumeStep) Voxel() voxel.ConvexVolume {
	if v == nil {
		return voxel.ConvexVolume{}
	}
	cv := voxel.ConvexVolume{MinYM: float32(v.MinYM), MaxYM: float32(v.MaxYM), Area: uint8(v.Area)}
	for _, c := range v.CornersM {
		cv.VertsXZ = append(cv.VertsXZ, [2]float32{float32(c[0]), float32(c[1])})
	}
	return cv
}

// VolumeStepOf returns the step that adds volume cv as name.
func VolumeStepOf(name string, cv voxel.ConvexVolume) VolumeStep {
	st := VolumeStep{Name: name, MinYM: float64(cv.MinYM), MaxYM: float64(cv.MaxYM), Area: int(cv.Area)}
	for _, c := range cv.VertsXZ {
		st.CornersM = append(st.CornersM, [2]float64{float64(c[0]), float64(c[1])})
	}
	return st
}

func vec3(v [3]float64) geom.Vec3 { return geom.V3(float32(v[0]), float32(v[1]), float32(v[2])) }

func vec64(v geom.Vec3) [3]float64 { return [3]float64{float64(v.X), float64(v.Y), float64(v.Z)} }
