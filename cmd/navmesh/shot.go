package main

import (
	"bufio"
	"context"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/pipeline"
	"navviz/render"
)

// shotBackground is the clear colour of shot pictures.
var shotBackground = color.RGBA{30, 32, 40, 255}

// tilePitchRad is the orbit camera's pitch when --tile frames one tile
// (55°, steeper than the default 35°, to look into the tile).
const tilePitchRad = 55 * math.Pi / 180

// maxShotPx bounds each side of a shot.
const maxShotPx = 8192

// levelOverlays are the overlays of render.LevelScene.
var levelOverlays = []string{render.OverlayInput, render.OverlayGrid}

// shotOverlays lists every overlay name --overlays accepts.
func shotOverlays() []string {
	return append(append(slices.Clone(levelOverlays), render.SpanOverlayNames...), render.MeshOverlayNames...)
}

// isBuildOverlay reports whether overlay name needs the plain build.
func isBuildOverlay(name string) bool {
	return render.IsSpanOverlay(name) || render.IsMeshOverlay(name)
}

// runShot implements
//
//	navmesh shot --level city|terrain|FILE.obj [--view orbit|top] [--size WxH]
//	             [--overlays a,b] [--tile X,Z] [--partition P]
//	             [--detail-sample-dist CELLS] [--ortho] -o out.png
//
// It builds the level's scene (render.LevelScene), shows only the overlays
// named by --overlays when given, frames the level, renders it with the
// software rasterizer and writes a PNG ("-o -" writes to stdout; -o is
// checked before the level is read, checkOutputs).
//
// The span overlays (solid, walkable, compact, eroded, volumes) and the
// mesh overlays (regions, contours-raw, contours, polys, detail, tiles,
// layers, portals) need the plain build: when any is named, the level is
// built first with pipeline.DefaultSettings (BuildLevel, stages kept), its
// partition replaced by --partition and its detail sample distance by
// --detail-sample-dist (default: 6 cells, but 0 with --partition layers:
// the tile cache's settings, under which tiles are built one height layer
// at a time, so the layers overlay shows the layers). --tile X,Z restricts
// those overlays to tile (X, Z) and frames that tile instead of the level.
func runShot(args []string, stdout, stderr io.Writer) (err error) {
	fs := newFlagSet("shot", "--level city|terrain|FILE.obj [--view orbit|top] [--size WxH] [--overlays a,b] [--tile X,Z] [--partition P] [--detail-sample-dist CELLS] [--ortho] -o out.png", stdout)
	levelArg := fs.String("level", "city", "built-in level name or path of a .obj `level`")
	view := fs.String("view", "orbit", "camera: orbit (from above at an angle) or top (straight down, +x right, +z down)")
	size := fs.String("size", "1280x800", "image size in pixels, `WIDTHxHEIGHT`")
	overlays := fs.String("overlays", "", "comma-separated `names` of the overlays to show: "+strings.Join(shotOverlays(), ", ")+
		" (default: input, grid); the span and mesh overlays run the plain build with the default settings first")
	tileArg := fs.String("tile", "", "restrict the span and mesh overlays to tile `X,Z` and frame it")
	partArg := fs.String("partition", pipeline.DefaultSettings().Partition.String(), "region `partition` of the build: watershed, monotone or layers")
	detailArg := fs.String("detail-sample-dist", "", "detail sample distance of the build, `cells` (default 6; 0 with --partition layers, which builds tiles layer by layer; at most 0.9: no height sampling)")
	ortho := fs.Bool("ortho", false, "orthographic instead of perspective projection")
	out := fs.String("o", "", "output PNG `file` (- for stdout); required")
	limits := limitFlags(fs)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected argument %q", pos[0])
	}
	if *out == "" {
		return usagef("missing -o out.png")
	}
	wPx, hPx, err := parseSize(*size)
	if err != nil {
		return err
	}
	cam := render.DefaultCamera()
	switch *view {
	case "orbit":
	case "top":
		cam.TopDown = true
	default:
		return usagef("unknown --view %q: want orbit or top", *view)
	}
	cam.Ortho = *ortho
	var names []string
	if *overlays != "" {
		names = splitList(*overlays)
		var unknown []string
		for _, n := range names {
			if !slices.Contains(shotOverlays(), n) && !slices.Contains(unknown, n) {
				unknown = append(unknown, n)
			}
		}
		if len(unknown) > 0 {
			return usagef("unknown overlay %s: available overlays are %s",
				strings.Join(unknown, ", "), strings.Join(shotOverlays(), ", "))
		}
	}
	settings := pipeline.DefaultSettings()
	if settings.Partition, err = pipeline.ParsePartitionType(*partArg); err != nil {
		return usagef("invalid --partition %q: want watershed, monotone or layers", *partArg)
	}
	if settings.Partition == pipeline.Layers {
		settings.DetailSampleDistCells = 0
	}
	if *detailArg != "" {
		v, perr := strconv.ParseFloat(*detailArg, 32)
		settings.DetailSampleDistCells = float32(v)
		if perr == nil {
			perr = settings.Validate()
		}
		if perr != nil {
			return usagef("invalid --detail-sample-dist %q: want a number of cells, 0 to 1000", *detailArg)
		}
	}
	tx, tz, haveTile := 0, 0, *tileArg != ""
	if haveTile {
		if tx, tz, err = parseTile(*tileArg); err != nil {
			return err
		}
	}

	if err := checkOutputs([]fileArg{{"-o", *out}}, []fileArg{{"--level", levelFile(*levelArg)}}); err != nil {
		return err
	}

	soup, err := level.Load(*levelArg)
	if err != nil {
		return fmt.Errorf("load level %q: %w", *levelArg, err)
	}
	scene := render.LevelScene(soup)
	frame := soup.Bounds()
	var spans []string
	for _, n := range names {
		if isBuildOverlay(n) && !slices.Contains(spans, n) {
			spans = append(spans, n)
		}
	}
	var buildNote string
	if len(spans) > 0 || haveTile {
		grid, b, note, err := shotBuild(soup, *levelArg, len(spans) > 0, &settings, *limits)
		if err != nil {
			return err
		}
		buildNote = note
		var keep render.TileFilter
		if haveTile {
			if err := grid.CheckTile(tx, tz); err != nil {
				return usagef("invalid --tile %q: %v", *tileArg, err)
			}
			keep = func(x, z int) bool { return x == tx && z == tz }
			frame, _ = grid.TileBoxM(tx, tz)
			// Show the input of the tile's build grid only (the buildings
			// around would hide the tile), and look down into it.
			bg, _ := grid.BuildGrid(tx, tz)
			scene.Add(render.InputOverlay(soupWithin(soup, bg.OriginM.X, bg.OriginM.Z, bg.MaxM.X, bg.MaxM.Z)))
			cam.PitchRad = tilePitchRad // (the top view ignores it)
		}
		for _, n := range spans {
			o, err := render.StageOverlay(n, b, keep)
			if err != nil {
				return err
			}
			scene.Add(o)
		}
		if haveTile {
			// Frame the tile's own cells at the heights of what is shown in
			// them.
			if sb := spanBounds(scene, append([]string{render.OverlayInput}, spans...)); !sb.Empty() {
				sb.Min.X, sb.Max.X = frame.Min.X, frame.Max.X
				sb.Min.Z, sb.Max.Z = frame.Min.Z, frame.Max.Z
				frame = sb
			}
		}
	}
	if names != nil {
		scene.SetVisible(names)
	}
	cam.FrameAspect(frame, float64(wPx)/float64(hPx))
	img := render.Rasterize(scene, cam, wPx, hPx, shotBackground)

	if err := writeOutput(*out, stdout, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		enc := png.Encoder{CompressionLevel: png.BestSpeed}
		if err := enc.Encode(bw, img); err != nil {
			return fmt.Errorf("encode %s: %w", *out, err)
		}
		if err := bw.Flush(); err != nil {
			return fmt.Errorf("write %s: %w", *out, err)
		}
		return nil
	}); err != nil {
		return err
	}
	report := stdout
	if isStdout(*out) {
		report = stderr
	}
	fmt.Fprintf(report, "wrote %s: %dx%d, level %s (%d triangles), view %s%s\n",
		*out, wPx, hPx, *levelArg, len(soup.Tris), *view, buildNote)
	return nil
}

// shotBuild returns the tile grid of soup (level name) under the (valid)
// settings s and, when build is set, its plain build with the stages kept
// (refused over limits), plus a note for the report.
func shotBuild(soup *level.Soup, name string, build bool, s *pipeline.NavSettings, limits pipeline.BuildLimits) (*pipeline.TileGrid, *pipeline.Build, string, error) {
	src, err := levelSource(soup, name)
	if err != nil {
		return nil, nil, "", err
	}
	if !build {
		g, err := src.TileGrid(s)
		if err != nil {
			return nil, nil, "", fmt.Errorf("tile grid: %w", err)
		}
		return g, nil, "", nil
	}
	b, err := pipeline.BuildLevel(context.Background(), s, src, pipeline.BuildOptions{KeepStages: true, Limits: limits})
	if err != nil {
		return nil, nil, "", fmt.Errorf("build: %w", err)
	}
	note := fmt.Sprintf(", built %d tiles (%d with walkable spans, %d walkable spans) in %v",
		b.BuiltTiles, len(b.Tiles), b.WalkableSpans, b.Wall.Round(time.Millisecond))
	if b.Mesh != nil {
		note += fmt.Sprintf(", %s partition: %d regions, %d polygons in %d navmesh tiles (up to %d layers)",
			s.Partition, b.Regions, b.Polys, b.NavTiles, b.Layers)
	}
	return b.Grid, b, note, nil
}

// soupWithin returns a soup sharing s's vertices with only the triangles
// whose x/z bounding box overlaps [minX, maxX] x [minZ, maxZ].
func soupWithin(s *level.Soup, minX, minZ, maxX, maxZ float32) *level.Soup {
	out := &level.Soup{Verts: s.Verts}
	for i, t := range s.Tris {
		a, b, c := s.Verts[t[0]], s.Verts[t[1]], s.Verts[t[2]]
		if max(a.X, b.X, c.X) < minX || min(a.X, b.X, c.X) > maxX || max(a.Z, b.Z, c.Z) < minZ || min(a.Z, b.Z, c.Z) > maxZ {
			continue
		}
		out.Tris = append(out.Tris, t)
		if i < len(s.Areas) {
			out.Areas = append(out.Areas, s.Areas[i])
		}
	}
	return out
}

// spanBounds returns the box of the named overlays' vertices.
func spanBounds(sc *render.Scene, names []string) geom.Box3 {
	box := geom.EmptyBox()
	for _, n := range names {
		if o := sc.Overlay(n); o != nil {
			for _, vs := range [][]render.Vertex{o.Tris, o.Lines, o.Points} {
				for _, v := range vs {
					box = box.Extend(v.Pos)
				}
			}
		}
	}
	return box
}

// parseTile parses "X,Z" (two non-negative integers).
func parseTile(s string) (tx, tz int, err error) {
	a, b, ok := strings.Cut(s, ",")
	if ok {
		tx, err = strconv.Atoi(strings.TrimSpace(a))
		if err == nil {
			tz, err = strconv.Atoi(strings.TrimSpace(b))
		}
	}
	if !ok || err != nil || tx < 0 || tz < 0 {
		return 0, 0, usagef("invalid --tile %q: want X,Z, two tile numbers >= 0, e.g. 3,3", s)
	}
	return tx, tz, nil
}

// parseSize parses "WIDTHxHEIGHT" with both sides in [1, maxShotPx].
func parseSize(s string) (wPx, hPx int, err error) {
	ws, hs, ok := strings.Cut(strings.ToLower(s), "x")
	if ok {
		wPx, err = strconv.Atoi(ws)
		if err == nil {
			hPx, err = strconv.Atoi(hs)
		}
	}
	if !ok || err != nil {
		return 0, 0, usagef("invalid --size %q: want WIDTHxHEIGHT, e.g. 1280x800", s)
	}
	if wPx < 1 || hPx < 1 || wPx > maxShotPx || hPx > maxShotPx {
		return 0, 0, usagef("invalid --size %q: each side must be 1 to %d pixels", s, maxShotPx)
	}
	return wPx, hPx, nil
}
