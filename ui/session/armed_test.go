package session

import (
	"testing"

	"navviz/render"
)

// TestArmedOverlays checks the first-run visibility of ArmedOverlays: each
// starts unticked, is ticked the first time it has something to show, and
// one the user set first keeps the user's choice.
func TestArmedOverlays(t *testing.T) {
	a := NewApp()
	if err := a.Load("terrain"); err != nil {
		t.Fatal(err)
	}
	a.SyncSpanOverlays()
	for _, name := range ArmedOverlays {
		if o := a.scene.Overlay(name); o != nil && o.Visible {
			t.Errorf("%s ticked with nothing to show", name)
		}
	}
	if !a.scene.Overlay(render.OverlayInput).Visible {
		t.Error("input hidden")
	}
	// The user hides the path before it has anything to show: it stays
	// hidden when it has.
	a.SetOverlayVisible(render.OverlayPath, false)
	if err := a.SelectTile(0, 0); err != nil {
		t.Fatal(err)
	}
	a.SyncSpanOverlays()
	sel := a.scene.Overlay(render.OverlaySelection)
	if sel == nil || !sel.Visible || len(sel.Lines)+len(sel.Tris) == 0 {
		t.Fatalf("selection after selecting a tile: %+v, want ticked with content", sel)
	}
	if a.armed[render.OverlaySelection] {
		t.Error("selection still armed once shown")
	}
	// Once shown it is the user's: hiding it sticks.
	a.SetOverlayVisible(render.OverlaySelection, false)
	if err := a.SelectTile(1, 0); err != nil {
		t.Fatal(err)
	}
	a.SyncSpanOverlays()
	if a.scene.Overlay(render.OverlaySelection).Visible {
		t.Error("selection ticked again after the user hid it")
	}
	a.SetPathPoint(false, a.soup.Bounds().Center())
	a.SyncSpanOverlays()
	if o := a.scene.Overlay(render.OverlayPath); o == nil || o.Visible {
		t.Errorf("path the user hid: %+v, want listed and hidden", o)
	}
}
