//go:build (linux && !android) || freebsd || netbsd || openbsd || dragonfly

package displaycheck

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestNavvizWithoutDisplay builds the navviz binary and runs it with no
// display: it must print one line, "navviz: no display: ...", and exit
// with status 1, not panic in Ebitengine's init. It needs no display
// itself (this package does not import Ebitengine).
func TestNavvizWithoutDisplay(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		goCmd = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	bin := filepath.Join(t.TempDir(), "navviz")
	build := exec.Command(goCmd, "build", "-o", bin, "./cmd/navviz")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/navviz: %v\n%s", err, out)
	}
	// A local display number nobody serves.
	free := ""
	for n := 990; n < 1000 && free == ""; n++ {
		if !reachable(strconv.Itoa(n)) {
			free = strconv.Itoa(n)
		}
	}
	if free == "" {
		t.Fatal("displays :990 to :999 all answer")
	}
	var base []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k != "DISPLAY" && k != "WAYLAND_DISPLAY" && k != "NAVVIZ_NO_DISPLAY_CHECK" {
			base = append(base, kv)
		}
	}
	for _, tc := range []struct {
		name string
		env  []string
		want string
	}{
		{"unset", nil, "navviz: no display: DISPLAY is not set; run navviz in a desktop session or under xvfb-run -a navviz ...\n"},
		{"wayland only", []string{"WAYLAND_DISPLAY=wayland-0"}, "navviz: no display: DISPLAY is not set and navviz needs X11"},
		{"nobody serves it", []string{"DISPLAY=:" + free}, "navviz: no display: no X server answers on DISPLAY=:" + free},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, "city")
			cmd.Env = append(append([]string(nil), base...), tc.env...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 1 {
				t.Fatalf("run: %v, want exit status 1; stderr:\n%s", err, stderr.String())
			}
			got := stderr.String()
			if !strings.HasPrefix(got, tc.want) || strings.Count(got, "\n") != 1 || !strings.HasSuffix(got, "\n") {
				t.Errorf("stderr %q, want one line starting %q", got, tc.want)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout %q, want nothing", stdout.String())
			}
		})
	}
}
