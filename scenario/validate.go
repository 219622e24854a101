package scenario

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"navviz/core/level"
	"navviz/core/navmesh"
	"navviz/render"
	"navviz/world"
)

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
	if err := errors.Join(checkString("description", s.Description, MaxDescriptionBytes),
		checkString("level.obj", s.Level.OBJ, MaxStringBytes), checkList("steps", "steps", len(s.Steps))); err != nil {
		return fail(0, "%v", err)
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
	pixels, crowd, agentLines := 0, 0, 0
	for i := range s.Steps {
		st := &s.Steps[i]
		if err := checkStep(st, s.CacheBuilt()); err != nil {
			return fail(i+1, "%v", err)
		}
		if st.Shot != nil {
			w, h, _ := ParseSize(st.Shot.Size)
			if pixels += w * h; pixels > MaxShotPixels {
				return fail(i+1, "%v", overCap(fmt.Sprintf("shot %q", st.Shot.Name), pixels, "pixels in the shots up to it", MaxShotPixels))
			}
		}
		if st.Agents != nil {
			if st.Agents.Count > 0 {
				crowd = st.Agents.Count
			}
			if agentLines += crowd; agentLines > MaxAgentLines {
				return fail(i+1, "%v", overCap("agents", agentLines, "agents reported by the agents steps up to it", MaxAgentLines))
			}
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
	if err := checkString("note", st.Note, MaxStringBytes); err != nil {
		return err
	}
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
	case st.Export != nil:
		return checkExport(st.Export)
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
		for _, suf := range []string{".diff", ".golden"} {
			if strings.HasSuffix(st.Shot.Name, suf) {
				return fmt.Errorf("shot name %q: names ending in %s are the compare's pictures (NAME%s.png)", st.Shot.Name, suf, suf)
			}
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
	if err := checkList(what+" corners_m", "corners_m", len(v.CornersM)); err != nil {
		return err
	}
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
		return checkOutputFile(kind, r.File)
	}
	if err := checkString(kind+".file", r.File, MaxStringBytes); err != nil {
		return err
	}
	if strings.ContainsRune(r.File, 0) {
		return fmt.Errorf("%s file %q: not a file name", kind, r.File)
	}
	return nil
}

// checkOutputFile checks the name of a file a step writes into the output
// directory (a snapshot, an export): a plain name that none of the run's
// own outputs takes.
func checkOutputFile(kind, name string) error {
	if err := checkName(kind+" file", name); err != nil {
		return err
	}
	if strings.HasSuffix(name, ".png") || name == ReportFile || name == TimingsFile || name == IndexFile {
		return fmt.Errorf("%s file %q: the output directory's PNGs, %s, %s and %s are taken", kind, name, ReportFile, TimingsFile, IndexFile)
	}
	return nil
}

// checkExport checks an export step.
func checkExport(e *ExportStep) error {
	if err := checkOutputFile("export", e.File); err != nil {
		return err
	}
	switch e.Format {
	case "", "navviz":
		if e.PolyRef64 {
			return fmt.Errorf("export %q: polyref64 is for format \"detour\"", e.File)
		}
	case "detour":
	default:
		return fmt.Errorf("export %q: format %q, want \"navviz\" or \"detour\"", e.File, e.Format)
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
	ok = ok && len(s) <= 32 // "8192x8192" with room for leading zeros
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
