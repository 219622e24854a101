package session

import (
	"os/exec"
	"strings"
	"testing"
)

// forbiddenDeps are the packages of the window: session must build and
// run without a display, so it may depend on none of them (nor on ui).
var forbiddenDeps = []string{
	"github.com/hajimehoshi/ebiten",
	"github.com/ebitengine/",
	"github.com/sqweek/dialog",
	"navviz/ui",
}

// TestNoWindowDeps checks with go list that the package depends on no
// package of the window (Ebitengine, debugui, the file dialog, ui).
func TestNoWindowDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 2 {
		t.Fatalf("go list -deps listed %q: want the package and what it imports", deps)
	}
	for _, d := range deps {
		if d == "navviz/ui/session" {
			continue
		}
		for _, f := range forbiddenDeps {
			if d == f || strings.HasPrefix(d, f+"/") || (strings.HasSuffix(f, "/") && strings.HasPrefix(d, f)) {
				t.Errorf("session depends on %s (it must not on %s)", d, f)
			}
		}
	}
}
