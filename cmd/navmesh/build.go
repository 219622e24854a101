package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"

	"navviz/core/level"
	"navviz/core/navmesh/detour"
	"navviz/core/pipeline"
)

// buildReport is the --json output of navmesh build: the step-5 counts of
// the whole build and the CPU time of each stage (summed over the workers)
// in milliseconds, keyed by stage name.
type buildReport struct {
	Regions      int                `json:"regions"`
	Contours     int                `json:"contours"`
	Verts        int                `json:"verts"`
	Polys        int                `json:"polys"`
	DetailMeshes int                `json:"detailMeshes"`
	DetailVerts  int                `json:"detailVerts"`
	DetailTris   int                `json:"detailTris"`
	Tiles        int                `json:"tiles"`
	Layers       int                `json:"layers"`
	WalkableArea float64            `json:"walkableArea"`
	StageMs      map[string]float64 `json:"stageMs"`
	// Skipped is what the level reader left out (glTF points and lines).
	Skipped string `json:"skipped,omitempty"`
}

// stageMs returns the CPU time of every stage of b in milliseconds, keyed
// by stage name.
func stageMs(b *pipeline.Build) map[string]float64 {
	m := make(map[string]float64, pipeline.NumStages)
	for st := pipeline.Stage(0); st < pipeline.NumStages; st++ {
		m[st.String()] = float64(b.StageTotals[st].Nanoseconds()) / 1e6
	}
	return m
}

// runBuild implements
//
//	navmesh build LEVEL [--partition watershed|monotone|layers] [--solo]
//	                    [--tile-size N] [--detail-sample-dist X] [--workers N]
//	                    [--json] [-o mesh.bin [--format navviz|detour [--polyref64]]] [--cpuprofile FILE]
//	                    [--max-tiles N] [--max-columns N] [--max-memory-mib N]
//
// It builds the level (a built-in name or a .obj file) with the default
// settings changed by the flags, tiled (pipeline.BuildLevel) or as one tile
// (--solo, pipeline.BuildSolo, which has no tile size: --tile-size with it
// is a usage error), and prints the step-5 counts and the time
// of each stage; --json prints them as one JSON object instead. -o writes
// the navmesh (navmesh.Mesh.MarshalBinary; "-o -" writes it to stdout and
// the report to stderr); --format detour writes it as Detour's MSET file
// instead (core/navmesh/detour, docs/format.md §11), --polyref64 for a
// Detour built with DT_POLYREF64. -o and --cpuprofile are checked before anything
// is read or built (checkOutputs). A level over the size limits (pipeline.BuildLimits;
// the --max-* flags raise them) fails before anything is built.
// --cpuprofile writes a CPU profile of the build.
func runBuild(args []string, stdout, stderr io.Writer) (err error) {
	fs := newFlagSet("build", "LEVEL [--partition watershed|monotone|layers] [--solo] [--tile-size N] [--detail-sample-dist X] [--workers N] [--offmesh FILE] [--json] [-o mesh.bin] [--cpuprofile FILE]", stdout)
	settings := settingsFlags(fs)
	solo := fs.Bool("solo", false, "build the whole level as one tile with no border (Recast's solo mesh)")
	workers := fs.Int("workers", 0, "goroutines building tiles (0: every CPU)")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the text report")
	out := fs.String("o", "", "write the navmesh (Mesh.MarshalBinary) to `file` (- for stdout)")
	format := fs.String("format", "navviz", "format of -o: navviz (Mesh.MarshalBinary) or detour (Detour's MSET file, RecastDemo's Save)")
	ref64 := fs.Bool("polyref64", false, "with --format detour, write for a Detour built with DT_POLYREF64 (64-bit polygon references)")
	offMesh := fs.String("offmesh", "", "`file` of off-mesh links, one \"sx sy sz ex ey ez radius bidir area\" a line")
	limits := limitFlags(fs)
	profile := profileFlag(fs)
	name, err := parseOneArg(fs, args, levelArg)
	if err != nil {
		return err
	}
	s, err := settings()
	if err != nil {
		return err
	}
	if *workers < 0 {
		return usagef("--workers %d, want >= 0", *workers)
	}
	if *format != "navviz" && *format != "detour" {
		return usagef("--format %q, want navviz or detour", *format)
	}
	if *ref64 && *format != "detour" {
		return usagef("--polyref64 needs --format detour")
	}
	if *solo && flagSet(fs, "tile-size") {
		return usagef("--tile-size with --solo: a solo build is one tile of the whole level, it has no tile size")
	}
	if err := checkOutputs([]fileArg{{"-o", *out}, {"--cpuprofile", *profile}},
		[]fileArg{{"LEVEL", levelFile(name)}, {"--offmesh", *offMesh}}); err != nil {
		return err
	}

	links, err := readOffMesh(*offMesh, &s)
	if err != nil {
		return err
	}
	src, err := loadSource(name)
	if err != nil {
		return err
	}
	opt := pipeline.BuildOptions{Workers: *workers, Limits: *limits, OffMeshLinks: links}
	// The command reads the counts and the mesh, never a tile's spans:
	// letting them go as each tile is done lets the worker build its next
	// tile's compact heightfield in the same memory (as Recast's tiled
	// build frees each tile's), instead of faulting in fresh pages for
	// the whole level's.
	opt.Take = func(r *pipeline.TileBuild) error {
		r.Spans, r.ErodedAreas = nil, nil
		return nil
	}
	var b *pipeline.Build
	if err := withCPUProfile(*profile, func() (err error) {
		if *solo {
			b, err = pipeline.BuildSolo(context.Background(), &s, src, opt)
		} else {
			b, err = pipeline.BuildLevel(context.Background(), &s, src, opt)
		}
		return err
	}); err != nil {
		return err
	}

	report := stdout
	if isStdout(*out) {
		report = stderr
	}
	if *out != "" {
		data, err := b.Mesh.MarshalBinary()
		if *format == "detour" {
			data, err = detour.Encode(b.Mesh, detourOptions(b, *ref64))
		}
		if err != nil {
			return err
		}
		if err := writeOutput(*out, stdout, func(w io.Writer) error {
			_, err := w.Write(data)
			return err
		}); err != nil {
			return err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(report)
		return enc.Encode(buildReport{
			Regions: b.Regions, Contours: b.Contours, Verts: b.Verts, Polys: b.Polys,
			DetailMeshes: b.DetailMeshes, DetailVerts: b.DetailVerts, DetailTris: b.DetailTris,
			Tiles: b.NavTiles, Layers: b.Layers, WalkableArea: b.WalkableAreaM2, StageMs: stageMs(b),
			Skipped: src.Soup().Skipped,
		})
	}
	if sk := src.Soup().Skipped; sk != "" {
		fmt.Fprintf(report, "level %s: %s\n", name, sk)
	}
	return printBuild(report, name, b, *out)
}

// detourOptions returns the Detour file options of build b: its tile
// grid (a solo build's one tile is the whole level).
func detourOptions(b *pipeline.Build, ref64 bool) detour.Options {
	g := b.Grid
	w, h := g.TileSizeM(), g.TileSizeM()
	if b.Solo {
		w, h = float32(g.CellsX)*g.CellSizeM, float32(g.CellsZ)*g.CellSizeM
	}
	return detour.Options{BoundsM: g.BoundsM, TileWidthM: w, TileHeightM: h, PolyRef64: ref64}
}

// printBuild writes the text report of build b of level name.
func printBuild(w io.Writer, name string, b *pipeline.Build, out string) error {
	s := &b.Settings
	mode := fmt.Sprintf("tiled, %d x %d tiles of %d cells", b.Grid.TilesX, b.Grid.TilesZ, s.TileSizeCells)
	if b.Solo {
		mode = fmt.Sprintf("solo, one tile of %d x %d cells", b.Grid.CellsX, b.Grid.CellsZ)
	}
	path := "general path"
	if s.LayerFirst() {
		path = "layer first"
	}
	fmt.Fprintf(w, "level %s: %s, %d with walkable spans; partition %v (%s), detail sample distance %v cells; %d workers\n",
		name, mode, len(b.Tiles), s.Partition, path, s.DetailSampleDistCells, b.Workers)
	for _, r := range []struct {
		name string
		v    int
	}{
		{"regions", b.Regions}, {"contours", b.Contours}, {"verts", b.Verts}, {"polys", b.Polys},
		{"detail meshes", b.DetailMeshes}, {"detail verts", b.DetailVerts}, {"detail tris", b.DetailTris},
		{"tiles", b.NavTiles}, {"layers", b.Layers},
	} {
		fmt.Fprintf(w, "  %-14s %10d\n", r.name, r.v)
	}
	fmt.Fprintf(w, "  %-14s %10.2f m²\n", "walkable area", b.WalkableAreaM2)
	fmt.Fprintln(w, "stage times (CPU, summed over workers):")
	for st := pipeline.Stage(0); st < pipeline.NumStages; st++ {
		fmt.Fprintf(w, "  %-14s %10.2f ms\n", st, float64(b.StageTotals[st].Nanoseconds())/1e6)
	}
	fmt.Fprintf(w, "  %-14s %10.2f ms\n", "total", float64(b.StageTotals.Total().Nanoseconds())/1e6)
	fmt.Fprintf(w, "  %-14s %10.2f ms\n", "wall", float64(b.Wall.Nanoseconds())/1e6)
	if out != "" && out != "-" {
		fmt.Fprintf(w, "wrote %s\n", out)
	}
	return nil
}

// flagSet reports whether the flag name was given on fs's command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// loadSource loads level name (a built-in name, an OBJ or glTF file) and
// returns its source, see levelSource.
func loadSource(name string) (*pipeline.Source, error) {
	soup, err := level.Load(name)
	if err != nil {
		return nil, fmt.Errorf("load level %q: %w", name, err)
	}
	return levelSource(soup, name)
}

// levelSource returns the build source of soup indexed by a chunky mesh,
// named name. Its errors (a soup with no triangles, a vertex out of range)
// name the level.
func levelSource(soup *level.Soup, name string) (*pipeline.Source, error) {
	chunky, err := level.NewChunky(soup, 256)
	if err != nil {
		return nil, fmt.Errorf("level %q: %w", name, err)
	}
	src, err := pipeline.NewSoupSource(soup, chunky)
	if err != nil {
		return nil, fmt.Errorf("level %q: %w", name, err)
	}
	return src.Named(name), nil
}

// limitFlags defines the size-limit flags of a command that builds a whole
// level (--max-tiles, --max-columns, --max-memory-mib; 0 keeps pipeline's
// default, a negative value is a usage error) and returns the limits they
// set once parsed.
func limitFlags(fs *flag.FlagSet) *pipeline.BuildLimits {
	l := &pipeline.BuildLimits{}
	count := func(dst *int64, maxV int64, unit string) func(string) error {
		return func(v string) error {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 || n > maxV {
				return fmt.Errorf("want a whole number of %s, 0 to %d", unit, maxV)
			}
			*dst = n
			return nil
		}
	}
	var tiles, mib int64
	fs.Func("max-tiles", fmt.Sprintf("most `tiles` a build may have (0: %d)", pipeline.DefaultMaxTiles), func(v string) error {
		if err := count(&tiles, math.MaxInt, "tiles")(v); err != nil {
			return err
		}
		l.MaxTiles = int(tiles)
		return nil
	})
	fs.Func("max-columns", fmt.Sprintf("most build-grid `columns` a build may have (0: %d)", pipeline.DefaultMaxColumns),
		count(&l.MaxColumns, math.MaxInt64, "columns"))
	fs.Func("max-memory-mib", fmt.Sprintf("memory budget of a build in `MiB` (0: %d)", pipeline.DefaultMaxBytes>>20), func(v string) error {
		if err := count(&mib, math.MaxInt64>>20, "MiB")(v); err != nil {
			return err
		}
		l.MaxBytes = mib << 20
		return nil
	})
	return l
}
