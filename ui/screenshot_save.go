package ui

import (
	"fmt"
	"os"

	"github.com/hajimehoshi/ebiten/v2"
)

// The screenshots Draw saves: the scripted run's (--frames with
// --screenshot) and the one a key asked for.

// countFrame counts a drawn frame of a scripted run and, once
// opts.Frames are drawn, saves opts.Screenshot and ends the run. A
// scripted run with --build counts its frames once the build is done,
// with --demo-obstacles once the demo has run, with --scenario --run once
// every step ran (or one failed), with AutoCache once the cache is built.
func (g *Game) countFrame(screen *ebiten.Image) {
	if !(g.opts.Build && g.buildRequested) && !g.cacheDemoPending() && !g.scenarioPending() && !g.autoCachePending() {
		g.frames++
	}
	if g.opts.Frames > 0 && g.frames >= g.opts.Frames && !g.quit {
		if g.opts.Screenshot != "" {
			if err := saveScreen(screen, g.opts.Screenshot); err != nil {
				g.exitErr = err
			} else {
				fmt.Fprintln(os.Stderr, "navviz: screenshot saved to", g.opts.Screenshot)
			}
		}
		g.quit = true
	}
}

// saveAskedShot saves the screenshot a key asked for (shotPath), if any.
func (g *Game) saveAskedShot(screen *ebiten.Image) {
	if g.shotPath == "" {
		return
	}
	p := g.shotPath
	g.shotPath = ""
	if err := saveScreen(screen, p); err != nil {
		g.App.Report(err)
	} else {
		g.App.SetStatus("screenshot saved to " + p)
	}
}

// saveScreen reads the screen back and writes it to path as PNG.
func saveScreen(screen *ebiten.Image, path string) error {
	b := screen.Bounds()
	pix := make([]byte, 4*b.Dx()*b.Dy())
	screen.ReadPixels(pix)
	return savePNG(path, rgbaFromPixels(pix, b.Dx(), b.Dy()))
}
