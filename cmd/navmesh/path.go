package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"

	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/core/navmesh/detour"
	"navviz/core/pipeline"
	"navviz/core/query"
	"navviz/core/voxel"
	"navviz/scenario"
	"navviz/tilecache"
)

// rayLengthM is the length of a --rays ray, metres.
const rayLengthM = 10

// settingsFlags defines the settings flags navmesh build and navmesh path
// share (--partition, --tile-size, --detail-sample-dist) and returns a
// function that gives the default settings changed by them once parsed (a
// bad value is a usage error).
func settingsFlags(fs *flag.FlagSet) func() (pipeline.NavSettings, error) {
	def := pipeline.DefaultSettings()
	partition := fs.String("partition", def.Partition.String(), "region partition: watershed, monotone or layers (layers with a detail sample distance of at most 0.9 cells builds one layer at a time)")
	tileSize := fs.Int("tile-size", def.TileSizeCells, "tile side in `cells`")
	sampleDist := fs.Float64("detail-sample-dist", float64(def.DetailSampleDistCells), "detail mesh sample distance in `cells` (at most 0.9: no height sampling)")
	return func() (pipeline.NavSettings, error) {
		s := def
		var err error
		if s.Partition, err = pipeline.ParsePartitionType(*partition); err != nil {
			return s, usageError{err}
		}
		s.TileSizeCells = *tileSize
		if d := *sampleDist; math.IsNaN(d) || math.IsInf(d, 0) || d < 0 || d > math.MaxFloat32 {
			return s, usagef("--detail-sample-dist %v, want a finite number >= 0", d)
		}
		s.DetailSampleDistCells = float32(*sampleDist)
		if err := s.Validate(); err != nil {
			return s, usageError{err}
		}
		return s, nil
	}
}

// pathResult is one --json line of navmesh path for a pair.
type pathResult struct {
	I        int          `json:"i"`
	Status   string       `json:"status"`
	Start    [3]float32   `json:"start"`
	End      [3]float32   `json:"end"`
	Corridor int          `json:"corridor"`
	Points   [][3]float32 `json:"points"`
	Length   float64      `json:"length"`
	Error    string       `json:"error,omitempty"`
}

// rayResult is one --json line of navmesh path for a ray.
type rayResult struct {
	I     int     `json:"i"`
	Ray   bool    `json:"ray"`
	Hit   bool    `json:"hit"`
	T     float64 `json:"t"`
	Dist  float64 `json:"dist"`
	Error string  `json:"error,omitempty"`
}

func arr(v geom.Vec3) [3]float32 { return [3]float32{v.X, v.Y, v.Z} }

// runPath implements
//
//	navmesh path LEVEL --pairs FILE [--rays FILE] [--partition P]
//	                   [--tile-size N] [--detail-sample-dist X] [--workers N]
//	                   [--json] [--search detour|optimal] [--offmesh FILE]
//	                   [--cache --obstacle x,y,z,r,h ...] [--max-tiles N] [--max-columns N] [--max-memory-mib N]
//
// LEVEL may also be a Detour navmesh file (core/navmesh/detour: an MSET
// file, a DNAV tile, a TrinityCore .mmtile, by content), which is read
// instead of built (the settings flags then do nothing).
//
// It builds the level with the settings of navmesh build (tiled; --cache:
// a tile cache with the same settings, the --obstacle cylinders and the
// --offmesh links added and every tile updated; the plain build takes the
// links too) and answers, with the default query filter: for
// every line "sx sy sz ex ey ez" of the pairs file, the nearest polygons
// within scenario.PathHalfExtentsM (2, 4, 2 m), FindPathLimited with the
// --search rule (default detour, query.SearchDetour) and StraightPath (a partial
// corridor's path ends at the point of its last polygon nearest to the
// end); for every line "x y z dx dz" of the rays file, a 10 m Raycast from
// the nearest point along (dx, dz) normalised. Blank lines and lines
// starting with # are skipped; i counts the pairs (and the rays) from 0.
// Text output is one line per answer; --json one JSON object per line
// (docs/query.md, "navmesh path").
func runPath(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("path", "LEVEL --pairs FILE [--rays FILE] [--partition P] [--tile-size N] [--detail-sample-dist X] [--json] [--search detour|optimal] [--offmesh FILE] [--cache --obstacle x,y,z,r,h ...]", stdout)
	settings := settingsFlags(fs)
	pairsFile := fs.String("pairs", "", "`file` of point pairs, one \"sx sy sz ex ey ez\" a line (- for stdin)")
	raysFile := fs.String("rays", "", "`file` of rays, one \"x y z dx dz\" a line")
	workers := fs.Int("workers", 0, "goroutines building tiles (0: every CPU)")
	asJSON := fs.Bool("json", false, "print one JSON object per line")
	cached := fs.Bool("cache", false, "answer on a tile cache after the --obstacle edits")
	offMesh := fs.String("offmesh", "", "`file` of off-mesh links, one \"sx sy sz ex ey ez radius bidir area\" a line")
	var obs obstacleList
	fs.Var(&obs, "obstacle", "with --cache, a cylinder `x,y,z,r,h`: base centre, radius and height in metres (repeatable)")
	search := fs.String("search", query.SearchDetour.String(), "path search `rule`: detour (Detour's corridors) or optimal (least cost for the cost model)")
	limits := limitFlags(fs)
	name, err := parseOneArg(fs, args, levelArg)
	if err != nil {
		return err
	}
	switch {
	case *pairsFile == "" && *raysFile == "":
		return usagef("missing --pairs FILE (or --rays FILE)")
	case len(obs) > 0 && !*cached:
		return usagef("--obstacle needs --cache")
	case *workers < 0:
		return usagef("--workers %d, want >= 0", *workers)
	}
	rule, err := query.ParseSearchRule(*search)
	if err != nil {
		return usagef("--search: %v", err)
	}
	s, err := settings()
	if err != nil {
		return err
	}
	var pairs, rays []float32
	if *pairsFile != "" {
		if pairs, err = readNumberLines(*pairsFile, "pairs file", 6, os.Stdin); err != nil {
			return err
		}
	}
	if *raysFile != "" {
		if rays, err = readNumberLines(*raysFile, "rays file", 5, os.Stdin); err != nil {
			return err
		}
	}
	links, err := readOffMesh(*offMesh, &s)
	if err != nil {
		return err
	}
	m, err := pathMesh(name, &s, *workers, *limits, *cached, obs, links)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(stdout)
	enc := json.NewEncoder(bw)
	for i := range len(pairs) / 6 {
		p := pairs[6*i:]
		r := answerPair(m, rule, i, geom.V3(p[0], p[1], p[2]), geom.V3(p[3], p[4], p[5]))
		if *asJSON {
			err = enc.Encode(r)
		} else {
			_, err = fmt.Fprintf(bw, "pair %d: %s, corridor %d, %d points, %.4f m%s\n", r.I, r.Status, r.Corridor, len(r.Points), r.Length, textErr(r.Error))
		}
		if err != nil {
			return err
		}
	}
	for i := range len(rays) / 5 {
		v := rays[5*i:]
		r := answerRay(m, i, geom.V3(v[0], v[1], v[2]), float64(v[3]), float64(v[4]))
		if *asJSON {
			err = enc.Encode(r)
		} else {
			_, err = fmt.Fprintf(bw, "ray %d: hit %v, t %.6f, %.4f m%s\n", r.I, r.Hit, r.T, r.Dist, textErr(r.Error))
		}
		if err != nil {
			return err
		}
	}
	return bw.Flush()
}

func textErr(e string) string {
	if e == "" {
		return ""
	}
	return " (" + e + ")"
}

// pathMesh builds level name with s and the off-mesh links: the plain
// tiled build, or with cached a tile cache with obs and the links added and
// every tile updated.
func pathMesh(name string, s *pipeline.NavSettings, workers int, limits pipeline.BuildLimits, cached bool, obs []voxel.Obstacle, links []navmesh.OffMeshLink) (*navmesh.Mesh, error) {
	if detour.IsDetourFile(name) {
		if cached || len(links) > 0 {
			return nil, usagef("%s is a Detour navmesh file: --cache and --offmesh need a level to build", name)
		}
		f, err := detour.ReadFile(name)
		if err != nil {
			return nil, err
		}
		return f.Mesh, nil
	}
	src, err := loadSource(name)
	if err != nil {
		return nil, err
	}
	if !cached {
		b, err := pipeline.BuildLevel(context.Background(), s, src, pipeline.BuildOptions{Workers: workers, Limits: limits, OffMeshLinks: links})
		if err != nil {
			return nil, err
		}
		return b.Mesh, nil
	}
	c, err := tilecache.Build(context.Background(), s, src, tilecache.Options{Workers: workers, Limits: limits})
	if err != nil {
		return nil, err
	}
	for i, o := range obs {
		if _, err := c.AddObstacle(o); err != nil {
			return nil, fmt.Errorf("obstacle %d: %w", i+1, err)
		}
	}
	for i, l := range links {
		if _, err := c.AddOffMeshLink(l); err != nil {
			return nil, fmt.Errorf("off-mesh link %d: %w", i+1, err)
		}
	}
	if _, err := c.UpdateAll(); err != nil {
		return nil, err
	}
	return c.Mesh(), nil
}

// answerPair answers pair i from a to b with the search rule.
func answerPair(m *navmesh.Mesh, rule query.SearchRule, i int, a, b geom.Vec3) pathResult {
	r := pathResult{I: i, Status: "none", Start: arr(a), End: arr(b), Points: [][3]float32{}}
	sr, sp, err := query.NearestPoly(m, a, scenario.PathHalfExtentsM)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	er, ep, err := query.NearestPoly(m, b, scenario.PathHalfExtentsM)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	r.Start, r.End = arr(sp), arr(ep)
	corridor, err := query.FindPathLimited(m, sr, er, sp, ep, query.DefaultFilter(), query.PathLimits{Rule: rule})
	end := ep
	switch {
	case err == nil:
		r.Status = "complete"
	case errors.Is(err, query.ErrPartial):
		r.Status = "partial"
		if end, err = query.ClosestPointOnPoly(m, corridor[len(corridor)-1], ep); err != nil {
			r.Status, r.Error = "none", err.Error()
			return r
		}
	default:
		r.Error = err.Error()
		return r
	}
	r.Corridor = len(corridor)
	pts, err := query.StraightPath(m, sp, end, corridor)
	if err != nil {
		r.Status, r.Error = "none", err.Error()
		return r
	}
	for _, p := range pts {
		r.Points = append(r.Points, arr(p))
	}
	r.Length = query.PathLength(pts)
	return r
}

// answerRay answers ray i: rayLengthM from the nearest point to p along
// (dx, dz) normalised. A ray that reaches its end has t 1 and dist
// rayLengthM.
func answerRay(m *navmesh.Mesh, i int, p geom.Vec3, dx, dz float64) rayResult {
	r := rayResult{I: i, Ray: true}
	l := math.Hypot(dx, dz)
	if !(l > 0) || math.IsInf(l, 0) {
		r.Error = fmt.Sprintf("direction (%v, %v) has no length", dx, dz)
		return r
	}
	ref, sp, err := query.NearestPoly(m, p, scenario.PathHalfExtentsM)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	end := geom.Vec3{X: float32(float64(sp.X) + rayLengthM*dx/l), Y: sp.Y, Z: float32(float64(sp.Z) + rayLengthM*dz/l)}
	h, err := query.Raycast(m, ref, sp, end, query.DefaultFilter())
	if err != nil {
		r.Error = err.Error()
		return r
	}
	r.Hit, r.T, r.Dist = !h.Reached(), 1, rayLengthM
	if r.Hit {
		r.T, r.Dist = h.T, h.T*rayLengthM
	}
	return r
}
