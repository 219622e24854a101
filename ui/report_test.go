package ui

import (
	"image"
	"path/filepath"
	"strings"
	"testing"

	"navviz/ui/session"
)

// messageBarRed counts the red text pixels of the message bar (the
// bottom lines of the window).
func messageBarRed(img *image.RGBA) int {
	n := 0
	b := img.Bounds()
	for y := b.Max.Y - 2*msgPadPx - msgMaxLines*msgLineHPx; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := img.RGBAAt(x, y)
			if c.R > 200 && c.G < 130 && c.B < 130 {
				n++
			}
		}
	}
	return n
}

// TestErrorsReachTheMessageBar: the error of a key whose action fails
// (Enter of the Volume tool without a cache) and the error of a cache job
// that failed on the worker (a snapshot file that does not exist, read
// there) are shown in red in the message bar, not dropped.
func TestErrorsReachTheMessageBar(t *testing.T) {
	g := newTestGame(t, "terrain")
	a := g.App
	if n := messageBarRed(drawFrames(t, g, 1)); n != 0 || a.Err() != "" {
		t.Fatalf("before: Err %q, %d red pixels", a.Err(), n)
	}
	g.setTool(g.tools.volume)
	g.toolKeys(toolKeys{Enter: true})
	// The window words it for the user; the whole chain is the detail.
	if !strings.Contains(a.ErrDetail(), session.ErrNoCache.Error()) || a.Err() != session.UserWords(a.ErrDetail()) {
		t.Errorf("Enter without a cache: Err %q, detail %q", a.Err(), a.ErrDetail())
	}
	if n := messageBarRed(drawFrames(t, g, 1)); n < 30 {
		t.Errorf("Enter without a cache: %d red pixels in the message bar", n)
	}

	g = terrainCacheGame(t)
	a = g.App
	a.EnableCacheWorker()
	a.ReportOK("")
	missing := filepath.Join(t.TempDir(), "missing.nvtc")
	if err := a.RestoreSnapshot(missing); err != nil {
		t.Fatalf("with a worker RestoreSnapshot returned %v: its error must come from the worker", err)
	}
	waitWorker(t, g)
	if !strings.Contains(a.Err(), "restore snapshot") || !strings.Contains(a.Err(), missing) {
		t.Errorf("the worker's error: Err %q", a.Err())
	}
	if n := messageBarRed(drawFrames(t, g, 1)); n < 30 {
		t.Errorf("the worker's error: %d red pixels in the message bar", n)
	}
}
