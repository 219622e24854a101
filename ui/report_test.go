package ui

import (
	"errors"
	"image"
	"path/filepath"
	"strings"
	"testing"
)

// TestReport: report shows an error and returns it, nil shows nothing;
// reportOK clears a reported error still shown and sets the status.
func TestReport(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct {
		name             string
		do               func(a *App) error
		wantRet          error
		wantErr, wantSta string
	}{
		{"nil", func(a *App) error { return a.Report(nil) }, nil, "", "idle"},
		{"error", func(a *App) error { return a.Report(boom) }, boom, "boom", "idle"},
		{"error then ok", func(a *App) error { a.Report(boom); a.ReportOK("done"); return nil }, nil, "", "done"},
		{"ok without status", func(a *App) error { a.Report(boom); a.ReportOK(""); return nil }, nil, "", "idle"},
		{"error after ok", func(a *App) error { a.ReportOK("done"); return a.Report(boom) }, boom, "boom", "done"},
		{"dismissed then ok", func(a *App) error {
			a.Report(boom)
			a.Err = ""        // Dismiss error
			a.Err = "another" // not reported: reportOK leaves it
			a.ReportOK("done")
			return nil
		}, nil, "another", "done"},
	} {
		a := NewApp()
		a.Status = "idle"
		if got := tc.do(a); got != tc.wantRet {
			t.Errorf("%s: returned %v, want %v", tc.name, got, tc.wantRet)
		}
		if a.Err != tc.wantErr || a.Status != tc.wantSta {
			t.Errorf("%s: Err %q status %q, want %q, %q", tc.name, a.Err, a.Status, tc.wantErr, tc.wantSta)
		}
	}
}

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
	if n := messageBarRed(drawFrames(t, g, 1)); n != 0 || a.Err != "" {
		t.Fatalf("before: Err %q, %d red pixels", a.Err, n)
	}
	g.setTool(g.tools.volume)
	g.toolKeys(toolKeys{Enter: true})
	if !strings.Contains(a.Err, ErrNoCache.Error()) {
		t.Errorf("Enter without a cache: Err %q", a.Err)
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
	if !strings.Contains(a.Err, "restore snapshot") || !strings.Contains(a.Err, missing) {
		t.Errorf("the worker's error: Err %q", a.Err)
	}
	if n := messageBarRed(drawFrames(t, g, 1)); n < 30 {
		t.Errorf("the worker's error: %d red pixels in the message bar", n)
	}
}
