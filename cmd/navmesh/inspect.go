package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/pipeline"
	"navviz/core/voxel"
	"navviz/inspect"
	"navviz/scenario"
	"navviz/tilecache"
)

// obstacleList is the value of the repeatable --obstacle flag: cylinders
// given as x,y,z,r,h (base centre, radius and height, metres).
type obstacleList []voxel.Obstacle

func (l *obstacleList) String() string { return fmt.Sprintf("%d obstacles", len(*l)) }

// Set parses one x,y,z,r,h and appends the cylinder.
func (l *obstacleList) Set(s string) error {
	f := strings.Split(s, ",")
	if len(f) != 5 {
		return fmt.Errorf("%q: %d numbers, want 5 (x,y,z,r,h)", s, len(f))
	}
	var v [5]float32
	for i, t := range f {
		x, err := strconv.ParseFloat(strings.TrimSpace(t), 32)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%q: %q is not a finite number", s, t)
		}
		v[i] = float32(x)
	}
	o := voxel.Cylinder(geom.V3(v[0], v[1], v[2]), v[3], v[4])
	if err := o.Validate(); err != nil {
		return fmt.Errorf("%q: %w", s, err)
	}
	*l = append(*l, o)
	return nil
}

// runInspect implements
//
//	navmesh inspect LEVEL --obstacle x,y,z,r,h [--obstacle ...] [--json]
//
// It builds LEVEL (a built-in name or a Wavefront OBJ file) with a
// layer-first tile cache (the default settings with Partition Layers and
// DetailSampleDistCells 0), adds the cylinders (base centre x,y,z, radius
// r, height h, metres), runs UpdateAll with an inspect.Recorder that
// compares every repaired layer's contours with the from-scratch ones, and
// prints one line per rebuilt layer: tile, layer, repaired or scratch with
// the verdict of the repair's preconditions, removed spans, ring spans,
// regions rebuilt and whether the contours are equal. --json prints a JSON
// array of the same fields instead.
func runInspect(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("inspect", "LEVEL --obstacle x,y,z,r,h [--obstacle ...] [--json]", stdout)
	var obs obstacleList
	fs.Var(&obs, "obstacle", "a cylinder `x,y,z,r,h`: base centre, radius and height in metres (repeatable)")
	asJSON := fs.Bool("json", false, "print a JSON array instead of the text report")
	limits := limitFlags(fs)
	name, err := parseOneArg(fs, args, levelArg)
	if err != nil {
		return err
	}
	switch {
	case len(obs) == 0:
		return usagef("missing --obstacle x,y,z,r,h")
	}
	soup, err := level.Load(name)
	if err != nil {
		return err
	}
	reps, err := inspectLevel(soup, name, obs, *limits)
	if err != nil {
		return err
	}
	// One line per layer, the fields of scenario's report.json layers.
	lines := make([]scenario.LayerLine, len(reps))
	for i := range reps {
		lines[i] = scenario.LayerLineOf(&reps[i])
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(lines)
	}
	return writeInspect(stdout, name, len(obs), lines)
}

// inspectLevel builds soup (level name) with a layer-first cache (refused
// over limits), adds obs, runs UpdateAll with a recorder and returns its
// reports.
func inspectLevel(soup *level.Soup, name string, obs []voxel.Obstacle, limits pipeline.BuildLimits) ([]inspect.LayerReport, error) {
	s := pipeline.DefaultSettings()
	s.Partition, s.DetailSampleDistCells = pipeline.Layers, 0
	src, err := levelSource(soup, name)
	if err != nil {
		return nil, err
	}
	c, err := tilecache.Build(context.Background(), &s, src, tilecache.Options{Limits: limits})
	if err != nil {
		return nil, err
	}
	rec := inspect.NewRecorder(true)
	rec.SetMaxReports(math.MaxInt32)
	c.SetTrace(rec)
	for i, o := range obs {
		if _, err := c.AddObstacle(o); err != nil {
			return nil, fmt.Errorf("obstacle %d: %w", i+1, err)
		}
	}
	rec.Begin()
	if _, err := c.UpdateAll(); err != nil {
		return nil, err
	}
	c.SetTrace(nil)
	return rec.Reports(), nil
}

// writeInspect prints the text report of navmesh inspect.
func writeInspect(w io.Writer, name string, obstacles int, lines []scenario.LayerLine) error {
	repaired, removed, differ := 0, 0, 0
	for _, l := range lines {
		if l.Repaired {
			repaired++
		}
		if l.Contours == "DIFFER" {
			differ++
		}
		removed += l.Removed
	}
	bw := &errWriter{w: w}
	bw.printf("%s: %d obstacles, %d layers rebuilt: %d repaired, %d from scratch; %d spans removed; %d repaired layers differ from scratch\n",
		name, obstacles, len(lines), repaired, len(lines)-repaired, removed, differ)
	for _, l := range lines {
		mode := "scratch "
		if l.Repaired {
			mode = "repaired"
		}
		bw.printf("tile (%d,%d) layer %d  %s  removed %5d  ring %5d  regions rebuilt %3d  contours %-6s  %s\n",
			l.TX, l.TZ, l.Layer, mode, l.Removed, l.Ring, l.RegionsRebuilt, l.Contours, l.Verdict)
		if l.Diff != "" {
			bw.printf("    first difference: %s\n", l.Diff)
		}
	}
	return bw.err
}

// errWriter is a writer that keeps the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

// printf writes unless an earlier write failed.
func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}
