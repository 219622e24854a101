package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"navviz/render"
)

func TestProgressBar(t *testing.T) {
	for _, tc := range []struct {
		done, total, w int
		want           string
	}{
		{45, 121, 10, "[###.......] 45/121"},
		{0, 0, 4, "[....] starting"},
		{121, 121, 4, "[####] 121/121"},
		{200, 100, 2, "[##] 200/100"},
	} {
		if got := ProgressBar(tc.done, tc.total, tc.w); got != tc.want {
			t.Errorf("progressBar(%d, %d, %d) = %q, want %q", tc.done, tc.total, tc.w, got, tc.want)
		}
	}
}

// TestScopeAllIgnoresSelection: at scope all a stage overlay's content
// does not depend on the selected tile, so selecting another tile keeps
// it (no whole-level rebuild); at the other scopes it is rebuilt.
func TestScopeAllIgnoresSelection(t *testing.T) {
	a := NewApp()
	if err := a.Load("terrain"); err != nil {
		t.Fatal(err)
	}
	b, err := BuildLevel(context.Background(), a.soup, &a.settings, nil)
	if err != nil {
		t.Fatal(err)
	}
	a.SetBuild(b)
	a.SetOverlayVisible(render.OverlayWalkable, true)
	for _, tc := range []struct {
		scope   SpanScope
		rebuilt bool
	}{{ScopeAll, false}, {ScopeNeighbours, true}, {ScopeSelected, true}} {
		a.SetScope(tc.scope)
		a.selected = TileRef{X: 0, Z: 0, OK: true}
		a.SyncSpanOverlays()
		before := a.scene.Overlay(render.OverlayWalkable)
		a.selected = TileRef{X: 1, Z: 1, OK: true}
		a.SyncSpanOverlays()
		if got := a.scene.Overlay(render.OverlayWalkable) != before; got != tc.rebuilt {
			t.Errorf("scope %s: rebuilt on a new selection %v, want %v", SpanScopeNames[tc.scope], got, tc.rebuilt)
		}
	}
}

// TestBuildSizeTextCountsSpans: the Build panel's size line of a tower of
// 100 floors counts its spans (about 100 a column), not only its columns:
// the estimate of navviz's build (KeepStages) with the spans named.
func TestBuildSizeTextCountsSpans(t *testing.T) {
	var obj strings.Builder
	for i := 0; i < 100; i++ {
		y := 3 * i
		fmt.Fprintf(&obj, "v 0 %d 0\nv 50 %d 0\nv 50 %d 50\nv 0 %d 50\nf %d %d %d\nf %d %d %d\n",
			y, y, y, y, 4*i+1, 4*i+3, 4*i+2, 4*i+1, 4*i+4, 4*i+3)
	}
	path := filepath.Join(t.TempDir(), "tower.obj")
	if err := os.WriteFile(path, []byte(obj.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	a := NewApp()
	if err := a.Load(path); err != nil {
		t.Fatal(err)
	}
	e, err := a.EstimateBuild(a.soup, a.levelName, UIBuildOptions)
	if err != nil {
		t.Fatal(err)
	}
	if e.WalkableSpans < 90*e.Columns/2 || e.Bytes < 100*e.Columns*8 {
		t.Errorf("estimate %v: want about 100 walkable spans a column, 8 bytes each at least", e)
	}
	want := fmt.Sprintf("Build size: %s of 4 GiB allowed.", e)
	if got := a.BuildSizeText(); got != want || !strings.Contains(got, " spans (") {
		t.Errorf("Build panel size line %q, want %q", got, want)
	}
}
