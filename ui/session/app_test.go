package session

import (
	"testing"

	"navviz/render"
)

func TestAppTransitions(t *testing.T) {
	a := NewApp()
	if err := a.Load("terrain"); err != nil {
		t.Fatal(err)
	}
	gen := a.gen
	a.SetOverlayVisible(render.OverlayGrid, false)
	if a.scene.Overlay(render.OverlayGrid).Visible || a.gen == gen {
		t.Error("hiding the grid did not take or did not bump Gen")
	}
	cam := a.Camera
	a.Camera.Zoom(5)
	a.FrameLevel()
	if a.Camera.DistanceM != cam.DistanceM || a.Camera.Target != cam.Target {
		t.Errorf("FrameLevel did not restore the framing: %+v vs %+v", a.Camera, cam)
	}
	a.SetTopDown(true)
	a.SetOrtho(true)
	if !a.Camera.TopDown || !a.Camera.Ortho {
		t.Error("view mode did not change")
	}
	if s := a.Stats(); s.Triangles == 0 || s.Vertices == 0 || s.Bounds.Empty() {
		t.Errorf("stats %+v", s)
	}
	if err := a.Load("city"); err != nil {
		t.Fatal(err)
	}
	if a.scene.Overlay(render.OverlayGrid).Visible || !a.scene.Overlay(render.OverlayInput).Visible {
		t.Error("overlay visibility did not survive loading another level")
	}
	if err := a.Load(""); err == nil || a.err == "" || a.levelName != "city" {
		t.Errorf("empty name: err %v, Err %q, level %q", err, a.err, a.levelName)
	}
}
