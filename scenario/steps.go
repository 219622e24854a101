package scenario

import (
	"fmt"
	"strconv"

	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/core/voxel"
	"navviz/render"
)

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
	Export         *ExportStep   `json:"export,omitempty"`
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
	KindExport         = "export"
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
		{KindExport, s.Export != nil},
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

// ExportStep writes the shown agent's navmesh as it is at this step (the
// tile cache's live mesh, or the plain build's without a cache) into the
// output directory: File is a plain file name, Format "navviz" (the
// default: navmesh build -o's format, docs/format.md §6) or "detour" (the
// MSET file Detour's loaders open, §11; PolyRef64 for a Detour built with
// DT_POLYREF64).
type ExportStep struct {
	File      string `json:"file"`
	Format    string `json:"format,omitempty"`
	PolyRef64 bool   `json:"polyref64,omitempty"`
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
