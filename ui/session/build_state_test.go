package session

import (
	"context"
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
