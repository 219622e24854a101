package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/cespare/xxhash/v2"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/pipeline"
	"navviz/core/voxel"
	"navviz/tilecache"
	"navviz/world"
)

// hashConfig is one column set of the hash matrix: the settings a scenario
// runs with (the defaults with this partition; layerFirst sets no detail
// height sampling, the layer-first setting) and, for a world of several
// agent sizes, its agents (none: one agent of the default settings).
type hashConfig struct {
	name       string
	partition  pipeline.PartitionType
	layerFirst bool
	agents     []world.Agent
}

// hashConfigs are the settings every scenario runs with, in table order.
var hashConfigs = []hashConfig{
	{"watershed", pipeline.Watershed, false, nil},
	{"monotone", pipeline.Monotone, false, nil},
	{"layers", pipeline.Layers, false, nil},
	{"layers-first", pipeline.Layers, true, nil},
	{"two-agents", pipeline.Watershed, false, []world.Agent{
		{Name: "small", HeightM: 1.6, RadiusM: 0.3, MaxClimbM: 0.9, MaxSlopeDeg: 45},
		{Name: "large", HeightM: 2.4, RadiusM: 1.2, MaxClimbM: 0.5, MaxSlopeDeg: 35},
	}},
}

func (h hashConfig) settings() pipeline.NavSettings {
	s := pipeline.DefaultSettings()
	s.Partition = h.partition
	if h.layerFirst {
		s.DetailSampleDistCells = 0
	}
	return s
}

// hashRow is one line of the hash matrix: the state after a step.
type hashRow struct {
	scenario, config, step string
	queue, tiles           int
	// mesh and snapshot are the xxhash64 of Mesh.MarshalBinary and of
	// Cache.Snapshot; content that of the tiles' data alone, by (z, x,
	// layer) (equal for equal tiles whatever their slots and generations).
	mesh, content, snapshot uint64
}

// agentList returns the config's agents: its own, or one agent of s.
func (h hashConfig) agentList(s pipeline.NavSettings) []world.Agent {
	if len(h.agents) > 0 {
		return h.agents
	}
	return []world.Agent{world.AgentOf("default", s)}
}

// hashScenario is a hash-matrix scenario: it edits a World of a level
// (built by hashMatrix) and reports rows after every step.
type hashScenario struct {
	name  string
	level string
	run   func(w *world.World, row func(step string) error) error
}

// hashScenarios lists the scenarios in table order.
var hashScenarios = []hashScenario{
	{"build3d/tilecache", "terrain", runTileCacheScenario},
}

// runTileCacheScenario is build3d-runtime.md's "build3d/tilecache" on the
// generated terrain (docs/tilecache.md, "Hash matrix"):
//
//	build     a cache of the terrain (BuildChunk)
//	add       a cylinder, a box, an oriented box and a volume (area 5)
//	update-3  Update(3): a sliced update
//	snapshot  the snapshot S is taken (nothing changes)
//	change    the box is removed, a second cylinder and a volume of area 0
//	          are added, UpdateAll
//	restore   Restore(S)
//	finish    UpdateAll
//	clear     every obstacle and volume removed, UpdateAll
func runTileCacheScenario(w *world.World, row func(string) error) error {
	if err := row("build"); err != nil {
		return err
	}
	v := geom.V3
	var box tilecache.ObstacleID
	for i, o := range []voxel.Obstacle{
		voxel.Cylinder(v(95, -10, 83), 1.5, 30),
		voxel.Box(v(40, -10, 40), v(44, 20, 41)),
		voxel.OrientedBox(v(60, 2, 100), v(3, 15, 0.75), 0.6),
	} {
		id, err := w.AddObstacle(o)
		if err != nil {
			return err
		}
		if i == 1 {
			box = id
		}
	}
	swamp := voxel.ConvexVolume{VertsXZ: [][2]float32{{98, 80}, {110, 80}, {110, 90}, {98, 90}}, MinYM: -10, MaxYM: 20, Area: 5}
	if _, err := w.AddVolume(swamp); err != nil {
		return err
	}
	if err := row("add"); err != nil {
		return err
	}
	if _, err := w.Update(3); err != nil {
		return err
	}
	if err := row("update-3"); err != nil {
		return err
	}
	snap, err := w.Snapshot()
	if err != nil {
		return err
	}
	if err := row("snapshot"); err != nil {
		return err
	}
	if err := w.RemoveObstacle(box); err != nil {
		return err
	}
	if _, err := w.AddObstacle(voxel.Cylinder(v(30, -10, 120), 2, 30)); err != nil {
		return err
	}
	hole := voxel.ConvexVolume{VertsXZ: [][2]float32{{70, 30}, {80, 28}, {76, 38}}, MinYM: -10, MaxYM: 20, Area: 0}
	if _, err := w.AddVolume(hole); err != nil {
		return err
	}
	if _, err := w.UpdateAll(); err != nil {
		return err
	}
	if err := row("change"); err != nil {
		return err
	}
	if err := w.Restore(snap); err != nil {
		return err
	}
	if err := row("restore"); err != nil {
		return err
	}
	if _, err := w.UpdateAll(); err != nil {
		return err
	}
	if err := row("finish"); err != nil {
		return err
	}
	for _, o := range w.Obstacles() {
		if err := w.RemoveObstacle(o.ID); err != nil {
			return err
		}
	}
	for _, vol := range w.Volumes() {
		if err := w.RemoveVolume(vol.ID); err != nil {
			return err
		}
	}
	if _, err := w.UpdateAll(); err != nil {
		return err
	}
	return row("clear")
}

// hashMatrix runs the scenarios whose name has the prefix (all for "") and
// returns their rows in table order.
func hashMatrix(prefix string) ([]hashRow, error) {
	var rows []hashRow
	ran := false
	for _, sc := range hashScenarios {
		if !strings.HasPrefix(sc.name, prefix) {
			continue
		}
		ran = true
		soup, err := level.Builtin(sc.level)
		if err != nil {
			return nil, err
		}
		for _, hc := range hashConfigs {
			s := hc.settings()
			agents := hc.agentList(s)
			w, err := world.Build(context.Background(), s, soup, agents, tilecache.Options{})
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", sc.name, hc.name, err)
			}
			err = sc.run(w, func(step string) error {
				for _, a := range agents {
					config := hc.name
					if len(agents) > 1 {
						config += "/" + a.Name
					}
					c, err := w.Cache(a.Name)
					if err != nil {
						return err
					}
					r, err := hashCache(c)
					if err != nil {
						return err
					}
					r.scenario, r.config, r.step = sc.name, config, step
					rows = append(rows, r)
				}
				return nil
			})
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", sc.name, hc.name, err)
			}
		}
	}
	if !ran {
		names := make([]string, len(hashScenarios))
		for i, sc := range hashScenarios {
			names[i] = sc.name
		}
		return nil, usagef("no scenario %q (have %s)", prefix, strings.Join(names, ", "))
	}
	return rows, nil
}

// hashCache returns the row figures of c (queue, tiles and hashes).
func hashCache(c *tilecache.Cache) (hashRow, error) {
	m := c.Mesh()
	mb, err := m.MarshalBinary()
	if err != nil {
		return hashRow{}, err
	}
	content := xxhash.New()
	for _, ref := range m.Tiles() {
		d, err := m.TileData(ref)
		if err != nil {
			return hashRow{}, err
		}
		content.Write(d)
	}
	sb, err := c.Snapshot()
	if err != nil {
		return hashRow{}, err
	}
	return hashRow{queue: c.QueueLen(), tiles: m.TileCount(), mesh: xxhash.Sum64(mb), content: content.Sum64(), snapshot: xxhash.Sum64(sb)}, nil
}

// writeHashMatrix prints rows as the hash-matrix table.
func writeHashMatrix(w io.Writer, rows []hashRow) error {
	var b strings.Builder
	b.WriteString("# navviz hash matrix (docs/tilecache.md): after each step of each scenario, the queued tiles,\n")
	b.WriteString("# the navmesh tiles and the xxhash64 of Mesh.MarshalBinary (mesh), of the tiles' data alone\n")
	b.WriteString("# by (z, x, layer) (content) and of Cache.Snapshot (snapshot)\n")
	fmt.Fprintf(&b, "%-18s %-16s %-9s %5s %5s  %-16s  %-16s  %s\n", "scenario", "config", "step", "queue", "tiles", "mesh", "content", "snapshot")
	for _, r := range rows {
		fmt.Fprintf(&b, "%-18s %-16s %-9s %5d %5d  %016x  %016x  %016x\n", r.scenario, r.config, r.step, r.queue, r.tiles, r.mesh, r.content, r.snapshot)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// runHashMatrix implements
//
//	navmesh hashmatrix [--scenario PREFIX] [-o FILE]
//
// It runs the hash-matrix scenarios (build3d/tilecache on the generated
// terrain, under every partition) and prints, for each step, the xxhash64
// of the serialized mesh and of the cache's snapshot; the table is pinned by
// testdata/hashmatrix/ (docs/tilecache.md, "Hash matrix").
func runHashMatrix(args []string, stdout, stderr io.Writer) (err error) {
	fs := newFlagSet("hashmatrix", "[--scenario PREFIX] [-o FILE]", stdout)
	scenario := fs.String("scenario", "", "run only the scenarios whose name starts with `prefix`")
	out := fs.String("o", "-", "write the table to `file` (- for stdout)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected argument %q", pos[0])
	}
	if err := checkOutputs([]fileArg{{"-o", *out}}, nil); err != nil {
		return err
	}
	rows, err := hashMatrix(*scenario)
	if err != nil {
		return err
	}
	return writeOutput(*out, stdout, func(w io.Writer) error { return writeHashMatrix(w, rows) })
}
