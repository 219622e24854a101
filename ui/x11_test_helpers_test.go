package ui

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// x11App is a navviz process driven with xdotool on the display the tests
// run on (xvfb-run's), its window read back with ImageMagick's import.
type x11App struct {
	t      *testing.T
	ctx    context.Context
	dir    string       // the test's temporary directory
	wid    string       // the window's X id
	w, h   int          // the window's size in pixels
	appOut bytes.Buffer // navviz's output, for failure messages
}

// startX11App builds navviz, starts it with --size (the test size, cut
// to the screen) and args, and waits for its window and for the level to
// load. Without xdotool or import the test is skipped, except under make
// test (NAVVIZ_REQUIRE_X11_TOOLS=1, make deps installs both), where that
// is a failure; with -short it is skipped. The process is killed at the
// end of the test.
func startX11App(t *testing.T, args ...string) *x11App {
	t.Helper()
	return startX11AppTags(t, "", args...)
}

// startX11AppTags is startX11App with navviz built with the build tags
// tags ("": none; "nodialog": the Level tab's path field).
func startX11AppTags(t *testing.T, tags string, args ...string) *x11App {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and drives navviz: not with -short")
	}
	for _, tool := range []string{"xdotool", "import", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("NAVVIZ_REQUIRE_X11_TOOLS") != "" {
				t.Fatalf("%s not found (NAVVIZ_REQUIRE_X11_TOOLS is set; make deps installs it): %v", tool, err)
			}
			t.Skipf("%s not found: %v", tool, err)
		}
	}
	x := &x11App{t: t, dir: t.TempDir()}
	bin := filepath.Join(x.dir, "navviz")
	build := exec.Command("go", "build", "-tags", tags, "-o", bin, "navviz/cmd/navviz")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build navviz: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	x.ctx = ctx
	// The window fits the screen (xvfb-run's is 640x480 unless told).
	x.w, x.h = testW, testH
	if out, err := exec.CommandContext(ctx, "xdotool", "getdisplaygeometry").Output(); err == nil {
		var sw, sh int
		if _, err := fmt.Sscan(string(out), &sw, &sh); err == nil && sw > 0 && sh > 0 {
			x.w, x.h = min(x.w, sw), min(x.h, sh)
		}
	}
	app := exec.CommandContext(ctx, bin, append([]string{"--size", fmt.Sprintf("%dx%d", x.w, x.h)}, args...)...)
	app.Stdout, app.Stderr = &x.appOut, &x.appOut
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = app.Process.Kill() // it runs until killed
		_ = app.Wait()         // it was killed: the error says so
	})
	// The window of this navviz (search by its pid, waiting for it).
	x.wid = strings.Fields(x.run("search", "--sync", "--all", "--onlyvisible", "--pid", fmt.Sprint(app.Process.Pid), "--name", "navviz"))[0]
	time.Sleep(3 * time.Second) // the level loads and the panels are laid out
	return x
}

// run runs xdotool with args and returns its output.
func (x *x11App) run(args ...string) string {
	x.t.Helper()
	out, err := exec.CommandContext(x.ctx, "xdotool", args...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("xdotool %v: %v\n%s\nnavviz: %s", args, err, out, x.appOut.String())
	}
	return strings.TrimSpace(string(out))
}

// shot returns the window's picture.
func (x *x11App) shot() image.Image {
	x.t.Helper()
	p := filepath.Join(x.dir, "shot.png")
	if out, err := exec.CommandContext(x.ctx, "import", "-window", x.wid, p).CombinedOutput(); err != nil {
		x.t.Fatalf("import: %v\n%s", err, out)
	}
	f, err := os.Open(p)
	if err != nil {
		x.t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		x.t.Fatalf("decode %s: %v", p, err)
	}
	return img
}

// ownDisplay starts an Xvfb server of wPx x hPx for the rest of the test
// and points DISPLAY (xdotool, import and navviz) at it, for tests whose
// coordinates need a screen of that size (xvfb-run's is 640x480). Without
// Xvfb the test is skipped (a failure under NAVVIZ_REQUIRE_X11_TOOLS).
func ownDisplay(t *testing.T, wPx, hPx int) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts Xvfb and drives navviz: not with -short")
	}
	if _, err := exec.LookPath("Xvfb"); err != nil {
		if os.Getenv("NAVVIZ_REQUIRE_X11_TOOLS") != "" {
			t.Fatalf("Xvfb not found (NAVVIZ_REQUIRE_X11_TOOLS is set): %v", err)
		}
		t.Skipf("Xvfb not found: %v", err)
	}
	for n := 140; n < 200; n++ {
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X11-unix/X%d", n)); err == nil {
			continue // taken
		}
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X%d-lock", n)); err == nil {
			continue
		}
		disp := fmt.Sprintf(":%d", n)
		srv := exec.Command("Xvfb", disp, "-screen", "0", fmt.Sprintf("%dx%dx24", wPx, hPx), "-nolisten", "tcp")
		if err := srv.Start(); err != nil {
			t.Fatalf("Xvfb %s: %v", disp, err)
		}
		t.Cleanup(func() {
			_ = srv.Process.Kill()
			_ = srv.Wait() // killed: the error says so
		})
		for wait := 0; wait < 50; wait++ {
			if _, err := os.Stat(fmt.Sprintf("/tmp/.X11-unix/X%d", n)); err == nil {
				t.Setenv("DISPLAY", disp)
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Fatalf("Xvfb %s did not start in 5 s", disp)
	}
	t.Fatal("no free X display in :140-:199")
}
