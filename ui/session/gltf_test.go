package session

import (
	"strings"
	"testing"
)

// TestAppLoadGLTF (issue 31, item 4): App.Load opens a GLB level (as the
// dialog, a drop and the command line do) and says in the status line what
// the reader skipped.
func TestAppLoadGLTF(t *testing.T) {
	a := NewApp()
	const p = "../../testdata/levels/courtyard.glb"
	if err := a.Load(p); err != nil {
		t.Fatal(err)
	}
	if s := a.Stats(); s.Triangles != 270 {
		t.Errorf("%d triangles, want 270", s.Triangles)
	}
	if want := "loaded " + p + " (skipped 1 line primitive)"; !strings.HasPrefix(a.Status(), want) {
		t.Errorf("status %q, want %q", a.Status(), want)
	}
}
