package main

import (
	"bufio"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"strconv"
	"strings"

	"navviz/core/level"
	"navviz/render"
)

// shotBackground is the clear colour of shot pictures.
var shotBackground = color.RGBA{30, 32, 40, 255}

// maxShotPx bounds each side of a shot.
const maxShotPx = 8192

// runShot implements
//
//	navmesh shot --level city|terrain|FILE.obj [--view orbit|top] [--size WxH]
//	             [--overlays a,b] [--ortho] -o out.png
//
// It builds the level's scene (render.LevelScene), shows only the overlays
// named by --overlays when given, frames the level, renders it with the
// software rasterizer and writes a PNG ("-o -" writes to stdout).
func runShot(args []string, stdout, stderr io.Writer) (err error) {
	fs := newFlagSet("shot", "--level city|terrain|FILE.obj [--view orbit|top] [--size WxH] [--overlays a,b] [--ortho] -o out.png", stdout)
	levelArg := fs.String("level", "city", "built-in level name or path of a .obj `level`")
	view := fs.String("view", "orbit", "camera: orbit (from above at an angle) or top (straight down, +x right, +z down)")
	size := fs.String("size", "1280x800", "image size in pixels, `WIDTHxHEIGHT`")
	overlays := fs.String("overlays", "", "comma-separated `names` of the overlays to show (default: all)")
	ortho := fs.Bool("ortho", false, "orthographic instead of perspective projection")
	out := fs.String("o", "", "output PNG `file` (- for stdout); required")
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

	soup, err := level.Load(*levelArg)
	if err != nil {
		return fmt.Errorf("load level %q: %w", *levelArg, err)
	}
	scene := render.LevelScene(soup)
	if *overlays != "" {
		names := splitList(*overlays)
		if unknown := scene.SetVisible(names); len(unknown) > 0 {
			var avail []string
			for _, o := range scene.Overlays {
				avail = append(avail, o.Name)
			}
			return usagef("unknown overlay %s: available overlays are %s",
				strings.Join(unknown, ", "), strings.Join(avail, ", "))
		}
	}
	cam.FrameAspect(soup.Bounds(), float64(wPx)/float64(hPx))
	img := render.Rasterize(scene, cam, wPx, hPx, shotBackground)

	w, finish, err := createOutput(*out, stdout)
	if err != nil {
		return err
	}
	defer func() { err = finish(err) }()
	bw := bufio.NewWriterSize(w, 1<<16)
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(bw, img); err != nil {
		return fmt.Errorf("encode %s: %w", *out, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", *out, err)
	}
	report := stdout
	if *out == "-" {
		report = stderr
	}
	fmt.Fprintf(report, "wrote %s: %dx%d, level %s (%d triangles), view %s\n",
		*out, wPx, hPx, *levelArg, len(soup.Tris), *view)
	return nil
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
