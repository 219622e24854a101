package scenario

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cespare/xxhash/v2"

	"navviz/core/agent"
	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/navmesh"
	"navviz/core/navmesh/detour"
	"navviz/core/pipeline"
	"navviz/inspect"
	"navviz/internal/readlimit"
	"navviz/render"
	"navviz/tilecache"
	"navviz/world"
)

// Background is the clear colour of shots (that of `navmesh shot`).
var Background = color.RGBA{30, 32, 40, 255}

// chunkyTrisPerNode is the triangles per leaf of the level's chunky mesh
// (what navviz and navmesh use).
const chunkyTrisPerNode = 256

// DefaultOverlays are the overlays visible before the first overlays
// step: with a tile cache, the level and the cache's mesh, obstacles,
// volumes and the path; without one, the level, the plain build's
// polygons and the path.
var (
	DefaultOverlays        = []string{render.OverlayInput, render.OverlayCachePolys, render.OverlayObstacles, render.OverlayVolumesRT, render.OverlayPath}
	DefaultOverlaysNoCache = []string{render.OverlayInput, render.OverlayPolys, render.OverlayPath}
)

// FrameAspect is the width/height ratio a framed box is fitted to when a
// camera step then gives only one of target_m and distance_m.
const FrameAspect = 1.6

// DefaultScope is the scope before the first overlays step that sets one
// (navviz's default).
const DefaultScope = ScopeNeighbours

// snapshotData is a snapshot taken by a step: the cache's bytes and the
// names in force.
type snapshotData struct {
	data      []byte
	obstacles map[string]tilecache.ObstacleID
	volumes   map[string]tilecache.VolumeID
	offMesh   map[string]tilecache.OffMeshLinkID
}

// SnapshotFile is a snapshot file a step wrote (an output: Name is a
// plain file name).
type SnapshotFile struct {
	Name string
	Data []byte
}

// Shot is the picture a shot step rendered.
type Shot struct {
	Name  string
	Image *image.RGBA
}

// StepTiming is how long one step took (kept out of the report, which
// must be the same on every run).
type StepTiming struct {
	Step     int           `json:"step"`
	Kind     string        `json:"kind"`
	Duration time.Duration `json:"ns"`
}

// Runner plays a scenario one step at a time. It holds the state the
// steps change: the level, the settings, the tile cache with named
// obstacles and volumes, snapshot slots, the camera, the visible overlays
// and their scope, the selected tile and the path's points. NewRunner
// loads the level and builds; Step runs the next step. A failed step
// changes nothing and is not consumed. A Runner is not safe for
// concurrent use.
type Runner struct {
	sc   *Scenario
	file string
	dir  string
	next int

	// Soup is the level, Settings its (valid) settings and Grid its
	// tiles.
	Soup     *level.Soup
	Settings pipeline.NavSettings
	Grid     *pipeline.TileGrid
	// World holds one tile cache per agent size (nil when the scenario
	// builds no cache); Cache is the shown agent's (Shown: "default"
	// until a show_agent step), the one the steps show, query and report.
	World *world.World
	Cache *tilecache.Cache
	Shown string
	// Build is the plain build (stages kept), made when an overlay first
	// needs it (the span and mesh overlays; the path without a cache).
	Build *pipeline.Build

	// chunky indexes Soup (made by NewRunner, reused by plainBuild).
	chunky    *level.Chunky
	rec       *inspect.Recorder
	reports   []inspect.LayerReport
	swaps     SwapLog
	obstacles map[string]tilecache.ObstacleID
	volumes   map[string]tilecache.VolumeID
	offMesh   map[string]tilecache.OffMeshLinkID
	slots     map[string]snapshotData
	files     []SnapshotFile
	// inputs are the files the run read (the scenario, the level, the
	// restored snapshots), which its outputs must not replace (Inputs).
	inputs    []string
	fileNames map[string]snapshotData

	// Camera is the camera; frame, when not nil, is the box framed for
	// each shot's aspect (CameraFor).
	Camera render.Camera
	frame  *geom.Box3
	// Visible are the visible overlays, Scope the per-tile overlays'
	// scope.
	Visible []string
	Scope   string
	// Selected is the selected tile (when HasSelected).
	Selected    [2]int
	HasSelected bool
	// PathStart and PathEnd are the path's points (when HasPath).
	PathStart, PathEnd geom.Vec3
	HasPath            bool
	// Crowd is the agents of the last agents step that spawned (nil
	// before one).
	Crowd *agent.Crowd

	levelScene *render.Scene

	// Report is what the steps did so far; Timings how long each took.
	Report  Report
	Timings []StepTiming
	// BuildTime is how long NewRunner's load and build took.
	BuildTime time.Duration
}

// NewRunner checks sc (Scenario.Validate), loads its level (file is the
// scenario file's path: it names errors and its directory resolves
// relative paths) and builds its tile cache (or, with "cache": false, its
// tile grid). Errors are *Error.
func NewRunner(sc *Scenario, file string) (*Runner, error) {
	t0 := time.Now()
	fail := func(err error) (*Runner, error) { return nil, &Error{File: file, Err: err} }
	if err := sc.Validate(file); err != nil {
		return nil, err
	}
	s, err := sc.NavSettings()
	if err != nil {
		return fail(err)
	}
	r := &Runner{
		sc: sc, file: file, dir: filepath.Dir(file), Settings: s, inputs: nonEmpty(file),
		obstacles: map[string]tilecache.ObstacleID{}, volumes: map[string]tilecache.VolumeID{},
		offMesh: map[string]tilecache.OffMeshLinkID{},
		slots:   map[string]snapshotData{}, fileNames: map[string]snapshotData{},
		Camera: render.DefaultCamera(), Scope: DefaultScope,
	}
	levelName := ""
	if sc.Level.Builtin != "" {
		seed := level.DefaultSeed
		if sc.Level.Seed != nil {
			seed = *sc.Level.Seed
		}
		r.Soup, err = level.Generate(sc.Level.Builtin, seed)
		levelName = fmt.Sprintf("%s seed %d", sc.Level.Builtin, seed)
	} else {
		r.Soup, err = level.LoadFile(sc.Level.LevelPath(r.dir))
		levelName = sc.Level.OBJ
		r.inputs = append(r.inputs, sc.Level.LevelPath(r.dir))
	}
	if err != nil {
		return fail(fmt.Errorf("level: %w", err))
	}
	r.chunky, err = level.NewChunky(r.Soup, chunkyTrisPerNode)
	if err != nil {
		return fail(fmt.Errorf("index level %s: %w", levelName, err))
	}
	if sc.CacheBuilt() {
		agents, err := sc.WorldAgents()
		if err != nil {
			return fail(err)
		}
		r.World, err = world.Build(context.Background(), r.Settings, r.Soup, agents, tilecache.Options{})
		if err != nil {
			return fail(fmt.Errorf("build the tile cache of %s: %w", levelName, err))
		}
		r.rec = inspect.NewRecorder(true)
		r.rec.SetMaxReports(math.MaxInt32)
		if err := r.show(DefaultAgent); err != nil {
			return fail(err)
		}
		g := r.Cache.Grid()
		r.Grid = &g
		r.Visible = slices.Clone(DefaultOverlays)
	} else {
		src, err := pipeline.NewSoupSource(r.Soup, r.chunky)
		if err != nil {
			return fail(fmt.Errorf("level %s: %w", levelName, err))
		}
		if r.Grid, err = src.TileGrid(&r.Settings); err != nil {
			return fail(fmt.Errorf("tile grid of %s: %w", levelName, err))
		}
		r.Visible = slices.Clone(DefaultOverlaysNoCache)
	}
	b := r.Soup.Bounds()
	r.frame = &b
	r.levelScene = render.LevelScene(r.Soup)
	r.Report = Report{
		Scenario: filepath.Base(file), Level: levelName, Partition: s.Partition.String(),
		Cache: r.Cache != nil, TilesX: r.Grid.TilesX, TilesZ: r.Grid.TilesZ,
		MeshHash: r.meshHash(), Steps: []StepReport{},
	}
	if len(sc.AgentSizes) > 0 {
		for _, a := range r.World.Agents() {
			r.Report.AgentSizes = append(r.Report.AgentSizes, a.Name)
		}
	}
	r.BuildTime = time.Since(t0)
	return r, nil
}

// Scenario returns the scenario being run.
// A nil or zero Runner (not made by NewRunner) has no scenario: it is
// Done, its Step is an error and its Scene is empty.
func (r *Runner) Scenario() *Scenario {
	if r == nil {
		return nil
	}
	return r.sc
}

// Done reports whether every step has run.
func (r *Runner) Done() bool { return r == nil || r.sc == nil || r.next >= len(r.sc.Steps) }

// Next returns the 1-based number of the step Step runs next (0 for a
// nil Runner).
func (r *Runner) Next() int {
	if r == nil {
		return 0
	}
	return r.next + 1
}

// Reports returns the inspector's layer reports: one per layer the last
// update that rebuilt a layer built.
func (r *Runner) Reports() []inspect.LayerReport {
	if r == nil {
		return nil
	}
	return r.reports
}

// SnapshotFiles returns the snapshot files the steps wrote, in order (a
// Inputs returns the files the run has read so far: the scenario file, the
// level's OBJ file and every snapshot file a restore step read (for
// Result.Inputs; none for a nil Runner).
func (r *Runner) Inputs() []string {
	if r == nil {
		return nil
	}
	return slices.Clone(r.inputs)
}

// nonEmpty returns path as a list of inputs, none when it is "".
func nonEmpty(path string) []string {
	if path == "" {
		return nil
	}
	return []string{path}
}

// later snapshot of the same name replaces the earlier one).
func (r *Runner) SnapshotFiles() []SnapshotFile {
	if r == nil {
		return nil
	}
	return r.files
}

// Step runs the next step and returns its report and, for a shot step,
// its picture. An error (an *Error naming the file, the step and the
// value) changes nothing: the step stays next.
func (r *Runner) Step() (*StepReport, *Shot, error) {
	if r == nil || r.sc == nil {
		return nil, nil, errors.New("scenario: Runner not made by NewRunner")
	}
	if r.Done() {
		return nil, nil, &Error{File: r.file, Err: fmt.Errorf("no step left (the scenario has %d)", len(r.sc.Steps))}
	}
	st := &r.sc.Steps[r.next]
	t0 := time.Now()
	rep := &StepReport{Step: r.next + 1, Kind: st.Kind()}
	shot, err := r.run(st, rep)
	if err != nil {
		return nil, nil, &Error{File: r.file, Step: r.next + 1, Err: err}
	}
	if r.World != nil {
		q := r.World.QueueLen()
		rep.Queued = &q
	}
	r.Timings = append(r.Timings, StepTiming{Step: rep.Step, Kind: rep.Kind, Duration: time.Since(t0)})
	r.Report.Steps = append(r.Report.Steps, *rep)
	r.Report.FinalMeshHash = r.meshHash()
	r.next++
	return rep, shot, nil
}

// run runs step st, filling rep.
func (r *Runner) run(st *Step, rep *StepReport) (*Shot, error) {
	c := r.World // every agent size is edited
	switch {
	case st.Obstacle != nil:
		o := st.Obstacle
		if id, dup := r.obstacles[o.Name]; dup {
			return nil, fmt.Errorf("obstacle %q: the name is taken (obstacle %d)", o.Name, id)
		}
		v := o.Voxel()
		id, err := c.AddObstacle(v)
		if err != nil {
			return nil, fmt.Errorf("obstacle %q: %w", o.Name, err)
		}
		r.obstacles[o.Name] = id
		r.edited()
		rep.Did = fmt.Sprintf("added %s obstacle %q (id %d)", v.Shape, o.Name, id)
	case st.RemoveObstacle != "":
		id, ok := r.obstacles[st.RemoveObstacle]
		if !ok {
			return nil, fmt.Errorf("remove_obstacle %q: no such obstacle (have %s)", st.RemoveObstacle, names(r.obstacles))
		}
		if err := c.RemoveObstacle(id); err != nil {
			return nil, fmt.Errorf("remove_obstacle %q: %w", st.RemoveObstacle, err)
		}
		delete(r.obstacles, st.RemoveObstacle)
		r.edited()
		rep.Did = fmt.Sprintf("removed obstacle %q (id %d)", st.RemoveObstacle, id)
	case st.Volume != nil:
		v := st.Volume
		if id, dup := r.volumes[v.Name]; dup {
			return nil, fmt.Errorf("volume %q: the name is taken (volume %d)", v.Name, id)
		}
		id, err := c.AddVolume(v.Voxel())
		if err != nil {
			return nil, fmt.Errorf("volume %q: %w", v.Name, err)
		}
		r.volumes[v.Name] = id
		r.edited()
		rep.Did = fmt.Sprintf("added volume %q (id %d, area %d)", v.Name, id, v.Area)
	case st.RemoveVolume != "":
		id, ok := r.volumes[st.RemoveVolume]
		if !ok {
			return nil, fmt.Errorf("remove_volume %q: no such volume (have %s)", st.RemoveVolume, names(r.volumes))
		}
		if err := c.RemoveVolume(id); err != nil {
			return nil, fmt.Errorf("remove_volume %q: %w", st.RemoveVolume, err)
		}
		delete(r.volumes, st.RemoveVolume)
		r.edited()
		rep.Did = fmt.Sprintf("removed volume %q (id %d)", st.RemoveVolume, id)
	case st.OffMesh != nil:
		o := st.OffMesh
		if id, dup := r.offMesh[o.Name]; dup {
			return nil, fmt.Errorf("offmesh %q: the name is taken (link %d)", o.Name, id)
		}
		flags := r.Settings.AreaFlags
		id, err := c.AddOffMeshLink(o.Link(&flags))
		if err != nil {
			return nil, fmt.Errorf("offmesh %q: %w", o.Name, err)
		}
		r.offMesh[o.Name] = id
		r.edited()
		rep.Did = fmt.Sprintf("added off-mesh link %q (id %d, area %d)", o.Name, id, o.Area)
	case st.RemoveOffMesh != "":
		id, ok := r.offMesh[st.RemoveOffMesh]
		if !ok {
			return nil, fmt.Errorf("remove_offmesh %q: no such off-mesh link (have %s)", st.RemoveOffMesh, names(r.offMesh))
		}
		if err := c.RemoveOffMeshLink(id); err != nil {
			return nil, fmt.Errorf("remove_offmesh %q: %w", st.RemoveOffMesh, err)
		}
		delete(r.offMesh, st.RemoveOffMesh)
		r.edited()
		rep.Did = fmt.Sprintf("removed off-mesh link %q (id %d)", st.RemoveOffMesh, id)
	case st.Update != nil:
		return nil, r.update(st.Update, rep)
	case st.Snapshot != nil:
		data, err := r.World.Snapshot()
		if err != nil {
			return nil, fmt.Errorf("snapshot: %w", err)
		}
		sd := snapshotData{data: data, obstacles: maps.Clone(r.obstacles), volumes: maps.Clone(r.volumes), offMesh: maps.Clone(r.offMesh)}
		if ref := st.Snapshot; ref.Slot != "" {
			r.slots[ref.Slot] = sd
			rep.Did = fmt.Sprintf("snapshot to slot %q (%d bytes)", ref.Slot, len(data))
		} else {
			r.fileNames[ref.File] = sd
			r.files = slices.DeleteFunc(r.files, func(f SnapshotFile) bool { return f.Name == ref.File })
			r.files = append(r.files, SnapshotFile{Name: ref.File, Data: data})
			rep.Did = fmt.Sprintf("snapshot to file %q (%d bytes)", ref.File, len(data))
		}
		rep.SnapshotHash = fmt.Sprintf("%016x", xxhash.Sum64(data))
	case st.Restore != nil:
		return nil, r.restore(st.Restore, rep)
	case st.Export != nil:
		return nil, r.export(st.Export, rep)
	case st.Camera != nil:
		return nil, r.camera(st.Camera, rep)
	case st.Overlays != nil:
		r.Visible = slices.Clone(st.Overlays.Show)
		if st.Overlays.Scope != "" {
			r.Scope = st.Overlays.Scope
		}
		rep.Did = fmt.Sprintf("overlays %s, scope %s", strings.Join(r.Visible, ", "), r.Scope)
	case st.SelectTile != nil:
		t := *st.SelectTile
		if err := r.Grid.CheckTile(t[0], t[1]); err != nil {
			return nil, fmt.Errorf("select_tile [%d, %d]: %w", t[0], t[1], err)
		}
		r.Selected, r.HasSelected = t, true
		rep.Did = fmt.Sprintf("selected tile (%d, %d)", t[0], t[1])
	case st.Path != nil:
		r.PathStart, r.PathEnd, r.HasPath = vec3(st.Path.StartM), vec3(st.Path.EndM), true
		p, err := r.path()
		if err != nil {
			return nil, fmt.Errorf("path: %w", err)
		}
		rep.Path = pathReport(&p)
		rep.Did = "set the path's points: " + rep.Path.summary()
	case st.Shot != nil:
		return r.shot(st.Shot, rep)
	case st.Agents != nil:
		return nil, r.agents(st.Agents, rep)
	case st.ShowAgent != "":
		if err := r.show(st.ShowAgent); err != nil {
			return nil, err
		}
		rep.MeshHash = r.meshHash()
		rep.Did = fmt.Sprintf("showing agent size %q", st.ShowAgent)
	default:
		return nil, fmt.Errorf("empty step")
	}
	return nil, nil
}

// names lists the keys of m sorted, for errors.
func names[V any](m map[string]V) string {
	if len(m) == 0 {
		return "none"
	}
	return strings.Join(slices.Sorted(maps.Keys(m)), ", ")
}

// edited notes a change of obstacles or volumes: the swap log starts
// afresh (as in navviz).
func (r *Runner) edited() { r.swaps.Reset() }

// show makes the agent size name the shown one: its cache is Cache and
// the inspector's trace follows it.
func (r *Runner) show(name string) error {
	c, err := r.World.Cache(name)
	if err != nil {
		return fmt.Errorf("show_agent: %w", err)
	}
	if r.Cache != nil {
		r.Cache.SetTrace(nil)
	}
	c.SetTrace(r.rec)
	r.Cache, r.Shown = c, name
	r.swaps.Reset()
	return nil
}

// shownShare returns how many of the first n tiles World.Update(n) takes
// from the shown agent's queue (it works the queues off in agent order).
func (r *Runner) shownShare(n int) int { return r.World.UpdateShares(n)[r.shownIndex()] }

// update runs an update step: World.Update (every agent size's queue, in
// agent order); the report is the shown agent's.
func (r *Runner) update(u *UpdateCount, rep *StepReport) error {
	c := r.Cache
	n := u.Tiles
	if u.All {
		n = r.World.QueueLen()
	}
	before := r.rec.Updates()
	r.rec.Begin()
	r.swaps.BeforeUpdate(c, r.shownShare(n))
	wres, err := r.World.Update(n)
	if err != nil {
		return fmt.Errorf("update %d: %w", n, err)
	}
	res := wres.Agents[r.shownIndex()]
	res.Remaining = wres.Remaining()
	r.swaps.AfterUpdate(&res)
	if r.rec.Updates() != before {
		r.reports = r.rec.Reports()
	}
	ur := &UpdateReport{Remaining: res.Remaining, LayersBuilt: res.LayersBuilt(), LayersRepaired: res.LayersRepaired(), Tiles: []TileReport{}, Layers: []LayerLine{}}
	for _, t := range res.Tiles {
		ur.Tiles = append(ur.Tiles, tileReport(&t))
	}
	for _, f := range res.Failed {
		ur.Failed = append(ur.Failed, FailedTile{TX: f.TX, TZ: f.TZ, Layer: f.Layer, Error: f.Err.Error()})
	}
	if r.rec.Updates() != before {
		for i := range r.reports {
			ur.Layers = append(ur.Layers, LayerLineOf(&r.reports[i]))
		}
	}
	rep.Update = ur
	rep.MeshHash = r.meshHash()
	rep.Did = fmt.Sprintf("updated %d tiles: %d layers built, %d repaired, %d from scratch; %d tiles left",
		len(res.Tiles), ur.LayersBuilt, ur.LayersRepaired, ur.LayersBuilt-ur.LayersRepaired, res.Remaining)
	return nil
}

// restore runs a restore step.
func (r *Runner) restore(ref *SnapshotRef, rep *StepReport) error {
	var sd snapshotData
	what := ""
	switch {
	case ref.Slot != "":
		s, ok := r.slots[ref.Slot]
		if !ok {
			return fmt.Errorf("restore slot %q: no snapshot in that slot (have %s)", ref.Slot, names(r.slots))
		}
		sd, what = s, fmt.Sprintf("slot %q", ref.Slot)
	default:
		if s, ok := r.fileNames[ref.File]; ok {
			sd = s
		} else {
			path := ref.File
			if !filepath.IsAbs(path) {
				path = filepath.Join(r.dir, filepath.FromSlash(path))
			}
			data, err := readlimit.ReadFile(path, "snapshot", r.World.MaxSnapshotBytes())
			if err != nil {
				return fmt.Errorf("restore file %q: %w", ref.File, err)
			}
			if !slices.Contains(r.inputs, path) {
				r.inputs = append(r.inputs, path)
			}
			// A snapshot file from elsewhere has ids, not names.
			sd = snapshotData{data: data, obstacles: map[string]tilecache.ObstacleID{}, volumes: map[string]tilecache.VolumeID{},
				offMesh: map[string]tilecache.OffMeshLinkID{}}
		}
		what = fmt.Sprintf("file %q", ref.File)
	}
	if err := r.World.Restore(sd.data); err != nil {
		return fmt.Errorf("restore %s: %w", what, err)
	}
	r.obstacles, r.volumes, r.offMesh = maps.Clone(sd.obstacles), maps.Clone(sd.volumes), maps.Clone(sd.offMesh)
	r.swaps.Reset()
	rep.MeshHash = r.meshHash()
	rep.Did = fmt.Sprintf("restored %s: %d obstacles, %d volumes", what, len(r.Cache.Obstacles()), len(r.Cache.Volumes()))
	return nil
}

// camera runs a camera step.
func (r *Runner) camera(cs *CameraStep, rep *StepReport) error {
	cam, frame := r.Camera, r.frame
	switch {
	case cs.FrameTile != nil:
		t := *cs.FrameTile
		b, err := r.tileFrame(t[0], t[1])
		if err != nil {
			return fmt.Errorf("camera frame_tile [%d, %d]: %w", t[0], t[1], err)
		}
		frame = &b
	case cs.FrameLevel:
		b := r.Soup.Bounds()
		frame = &b
	}
	switch cs.View {
	case "orbit":
		cam.TopDown = false
	case "top":
		cam.TopDown = true
	}
	if cs.Ortho != nil {
		cam.Ortho = *cs.Ortho
	}
	if cs.YawDeg != nil {
		cam.YawRad = *cs.YawDeg * math.Pi / 180
	}
	if cs.PitchDeg != nil {
		cam.PitchRad = *cs.PitchDeg * math.Pi / 180
	}
	if (cs.TargetM != nil || cs.DistanceM != nil) && frame != nil {
		// An explicit target or distance ends the framing: the value not
		// given comes from framing the box at FrameAspect.
		cam.FrameAspect(*frame, FrameAspect)
		frame = nil
	}
	if cs.TargetM != nil {
		cam.Target = vec3(*cs.TargetM)
	}
	if cs.DistanceM != nil {
		cam.DistanceM = *cs.DistanceM
	}
	r.Camera, r.frame = cam, frame
	view := "orbit"
	if cam.TopDown {
		view = "top"
	}
	rep.Did = fmt.Sprintf("camera %s, yaw %.4g°, pitch %.4g°", view, cam.YawRad*180/math.Pi, cam.PitchRad*180/math.Pi)
	if frame != nil {
		rep.Did += fmt.Sprintf(", framing x %.2f..%.2f y %.2f..%.2f z %.2f..%.2f m", frame.Min.X, frame.Max.X, frame.Min.Y, frame.Max.Y, frame.Min.Z, frame.Max.Z)
	} else {
		rep.Did += fmt.Sprintf(", target (%.2f, %.2f, %.2f) m, distance %.4g m", cam.Target.X, cam.Target.Y, cam.Target.Z, cam.DistanceM)
	}
	return nil
}

// tileFrame returns the box of tile (tx, tz) that frame_tile frames and
// the selection overlay outlines: its own columns, from the lowest
// polygon vertex of the navmesh tiles at that position to the highest
// plus the agent height (the cache's mesh, else the plain build's when
// made; without polygons there, the level's height range).
func (r *Runner) tileFrame(tx, tz int) (geom.Box3, error) {
	b, err := r.Grid.TileBoxM(tx, tz)
	if err != nil {
		return b, err
	}
	if m := r.mesh(false); m != nil {
		y := geom.EmptyBox()
		for _, ref := range m.TilesAt(int32(tx), int32(tz)) {
			if t, err := m.Tile(ref); err == nil {
				for _, v := range t.Verts {
					y = y.Extend(v)
				}
			}
		}
		if !y.Empty() {
			b.Min.Y, b.Max.Y = y.Min.Y, y.Max.Y+r.Settings.AgentHeightM
		}
	}
	return b, nil
}

// CameraFor returns the camera of a wPx x hPx shot: Camera, with the
// framed box (a frame_tile or frame_level step, or the level before any
// camera step) fitted to that aspect.
func (r *Runner) CameraFor(wPx, hPx int) render.Camera {
	if r == nil {
		return render.DefaultCamera()
	}
	cam := r.Camera
	if r.frame != nil && wPx > 0 && hPx > 0 {
		cam.FrameAspect(*r.frame, float64(wPx)/float64(hPx))
	}
	return cam
}

// mesh returns the navmesh paths and frames use: the cache's, else the
// plain build's (built when build is set and it is not yet).
func (r *Runner) mesh(build bool) *navmesh.Mesh {
	if r.Cache != nil {
		return r.Cache.Mesh()
	}
	if r.Build == nil && build {
		if err := r.plainBuild(); err != nil {
			return nil
		}
	}
	return render.BuildMesh(r.Build)
}

// export encodes the shown mesh in e's format and keeps it as an output
// file (written with the snapshot files).
func (r *Runner) export(e *ExportStep, rep *StepReport) error {
	m := r.mesh(true)
	if m == nil {
		return fmt.Errorf("export %q: no navmesh to export (the plain build failed)", e.File)
	}
	var data []byte
	var err error
	if e.Format == "detour" {
		size := r.Grid.TileSizeM()
		data, err = detour.Encode(m, detour.Options{BoundsM: r.Grid.BoundsM, TileWidthM: size, TileHeightM: size, PolyRef64: e.PolyRef64})
	} else {
		data, err = m.MarshalBinary()
	}
	if err != nil {
		return fmt.Errorf("export %q: %w", e.File, err)
	}
	r.files = slices.DeleteFunc(r.files, func(f SnapshotFile) bool { return f.Name == e.File })
	r.files = append(r.files, SnapshotFile{Name: e.File, Data: data})
	format := cmp.Or(e.Format, "navviz")
	rep.Did = fmt.Sprintf("exported the %s navmesh to file %q (%s format, %d bytes)", r.Shown, e.File, format, len(data))
	rep.ExportHash = fmt.Sprintf("%016x", xxhash.Sum64(data))
	return nil
}

// plainBuild makes the plain build (stages kept) if there is none.
func (r *Runner) plainBuild() error {
	if r.Build != nil {
		return nil
	}
	src, err := pipeline.NewSoupSource(r.Soup, r.chunky)
	if err != nil {
		return fmt.Errorf("build source: %w", err)
	}
	b, err := pipeline.BuildLevel(context.Background(), &r.Settings, src, pipeline.BuildOptions{KeepStages: true})
	if err != nil {
		return fmt.Errorf("plain build: %w", err)
	}
	r.Build = b
	return nil
}

// shownIndex returns the shown agent's position in the World.
func (r *Runner) shownIndex() int {
	for i, a := range r.World.Agents() {
		if a.Name == r.Shown {
			return i
		}
	}
	return 0
}

// meshHash returns the xxhash64 of the cache's mesh
// (navmesh.Mesh.MarshalBinary) in hex, or "" without a cache.
func (r *Runner) meshHash() string {
	if r.Cache == nil {
		return ""
	}
	data, err := r.Cache.Mesh().MarshalBinary()
	if err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprintf("%016x", xxhash.Sum64(data))
}

// path finds the path between the points on the path's mesh.
func (r *Runner) path() (Path, error) {
	if r.Cache == nil {
		if err := r.plainBuild(); err != nil {
			return Path{}, err
		}
	}
	return FindPath(r.mesh(false), r.PathStart, r.PathEnd), nil
}

// tileFilter returns the filter of the scope and selection (nil: every
// tile) and whether anything is drawn at all (navviz's rule).
func (r *Runner) tileFilter() (render.TileFilter, bool) {
	if r.Scope == ScopeAll {
		return nil, true
	}
	if !r.HasSelected {
		return nil, false
	}
	sx, sz := r.Selected[0], r.Selected[1]
	if r.Scope == ScopeSelected {
		return func(tx, tz int) bool { return tx == sx && tz == sz }, true
	}
	return func(tx, tz int) bool { return max(tx-sx, sx-tx) <= 1 && max(tz-sz, sz-tz) <= 1 }, true
}

// overlay builds the overlay called name from the state.
func (r *Runner) overlay(name string) (*render.Overlay, error) {
	keep, show := r.tileFilter()
	switch {
	case slices.Contains(LevelOverlays, name):
		if o := r.levelScene.Overlay(name); o != nil {
			return o, nil
		}
	case name == render.OverlayVolumes:
		// The build-time volumes (a scenario adds its volumes at run
		// time: volumes-rt); no build needed.
		return render.VolumesOverlay(r.Settings.Volumes, r.Soup.Bounds()), nil
	case render.IsSpanOverlay(name) || render.IsMeshOverlay(name):
		if !show {
			break
		}
		if err := r.plainBuild(); err != nil {
			return nil, err
		}
		return render.StageOverlay(name, r.Build, keep)
	case name == render.OverlaySelection:
		if r.HasSelected {
			b, err := r.tileFrame(r.Selected[0], r.Selected[1])
			if err == nil {
				return render.SelectionOverlay([]geom.Box3{b}), nil
			}
		}
	case render.IsCacheOverlay(name):
		return render.CacheStateOverlay(name, &render.CacheState{Cache: r.Cache, LevelBounds: r.Soup.Bounds(), Swaps: r.swaps.View()}), nil
	case render.IsInspectOverlay(name):
		if !show {
			break
		}
		var reps []inspect.LayerReport
		for _, rp := range r.reports {
			if keep == nil || keep(rp.TX, rp.TZ) {
				reps = append(reps, rp)
			}
		}
		return render.InspectOverlay(name, reps)
	case name == render.OverlayPath:
		if !r.HasPath {
			break
		}
		p, err := r.path()
		if err != nil {
			return nil, err
		}
		if p.Points != nil {
			return render.PathOverlay(r.mesh(false), p.Corridor, p.Points), nil
		}
		return render.PathMarkersOverlay(&r.PathStart, &r.PathEnd), nil
	case name == render.OverlayAgents:
		if r.Crowd != nil {
			return render.AgentsOverlay(r.mesh(false), r.Crowd.Agents()), nil
		}
	}
	return &render.Overlay{Name: name}, nil
}

// Scene returns the scene of the current state: the visible overlays in
// OverlayNames' order, each visible.
func (r *Runner) Scene() (*render.Scene, error) {
	sc := &render.Scene{}
	if r == nil || r.sc == nil {
		return sc, nil
	}
	for _, name := range OverlayNames() {
		if !slices.Contains(r.Visible, name) {
			continue
		}
		o, err := r.overlay(name)
		if err != nil {
			return nil, fmt.Errorf("overlay %s: %w", name, err)
		}
		c := *o
		c.Visible = true
		sc.Overlays = append(sc.Overlays, &c)
	}
	return sc, nil
}

// shot runs a shot step.
func (r *Runner) shot(s *ShotStep, rep *StepReport) (*Shot, error) {
	wPx, hPx, err := ParseSize(s.Size)
	if err != nil {
		return nil, err
	}
	sc, err := r.Scene()
	if err != nil {
		return nil, fmt.Errorf("shot %q: %w", s.Name, err)
	}
	img := render.Rasterize(sc, r.CameraFor(wPx, hPx), wPx, hPx, Background)
	if s.Legend {
		drawLegend(img, r.legendEntries())
	}
	sr := &ShotReport{Name: s.Name, File: s.Name + ".png", Width: wPx, Height: hPx, Overlays: slices.Clone(r.Visible), Scope: r.Scope}
	if r.HasSelected {
		t := r.Selected
		sr.SelectedTile = &t
	}
	if r.HasPath {
		p, err := r.path()
		if err != nil {
			return nil, fmt.Errorf("shot %q: %w", s.Name, err)
		}
		rep.Path = pathReport(&p)
	}
	rep.Shot = sr
	rep.MeshHash = r.meshHash()
	rep.Did = fmt.Sprintf("shot %q, %dx%d", s.Name, wPx, hPx)
	return &Shot{Name: s.Name, Image: img}, nil
}
