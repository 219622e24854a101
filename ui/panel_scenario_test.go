package ui

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"navviz/render"
)

// playerScenario is a small terrain scenario whose step 6 fails (an
// unknown obstacle) and step 7 would shoot.
const playerScenario = `{
  "navviz-scenario": 1,
  "level": {"builtin": "terrain"},
  "settings": {"partition": "layers", "detail_sample_dist_cells": 0},
  "steps": [
    {"obstacle": {"name": "p", "cylinder": {"base_m": [95.3, 0.7, 82.9], "radius_m": 1, "height_m": 2}}},
    {"update": "all"},
    {"camera": {"view": "top", "target_m": [95.3, 0.7, 82.9], "distance_m": 30}},
    {"overlays": {"show": ["input", "cache-polys", "obstacles", "swaps"]}},
    {"shot": {"name": "a", "size": "160x100"}},
    {"remove_obstacle": "q"},
    {"shot": {"name": "b", "size": "160x100"}}
  ]
}`

// writePlayerScenario writes playerScenario into a temporary directory.
func writePlayerScenario(t *testing.T) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "player.scenario.json")
	if err := os.WriteFile(file, []byte(playerScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// sceneOnly draws g's scene alone (the background and the GPU view, no
// panel, label or message) as Draw does first.
func sceneOnly(g *Game) []byte {
	img := ebiten.NewImage(g.w, g.h)
	defer img.Deallocate()
	img.Fill(backgroundColor)
	g.view.draw(img, g.App)
	pix := make([]byte, 4*g.w*g.h)
	img.ReadPixels(pix)
	return rgbaFromPixels(pix, g.w, g.h).Pix
}

// TestScenarioPlayer plays a scenario step by step as the Next button
// does: each step's line, the shot written to OutDir with the runner's
// bytes, the scenario camera in the view; the failing step shows its
// error in the panel and the message bar, stays next, and the game keeps
// running; a scripted run then fails. A file that does not parse is shown
// too.
func TestScenarioPlayer(t *testing.T) {
	file := writePlayerScenario(t)
	out := filepath.Join(t.TempDir(), "out")
	g, err := NewGame(Options{Scenario: file, OutDir: out, Width: testW, Height: testH})
	if err != nil {
		t.Fatal(err)
	}
	drawFrames(t, g, 2)
	p := g.scen
	if p.r.Next() != 1 || g.scenarioPending() {
		t.Fatalf("before Next: next %d, pending %v", p.r.Next(), g.scenarioPending())
	}
	for i := 1; i <= 5; i++ {
		g.scenarioStep()
		drawFrames(t, g, 1)
		if p.err != "" || p.r.Next() != i+1 || !strings.HasPrefix(p.last, "step ") {
			t.Fatalf("step %d: err %q, next %d, last %q", i, p.err, p.r.Next(), p.last)
		}
	}
	if cam := p.r.CameraFor(g.w, g.h); g.App.Camera != cam || !cam.TopDown {
		t.Errorf("the view does not follow the scenario camera: %+v", g.App.Camera)
	}
	if o := g.App.Scene().Overlay(render.OverlayObstacles); o == nil || !o.Visible || len(o.Tris)+len(o.Lines) == 0 {
		t.Error("the obstacles overlay is not drawn")
	}
	if _, err := os.Stat(filepath.Join(out, "a.png")); err != nil {
		t.Errorf("shot a: %v", err)
	}
	img := drawFrames(t, g, 1)
	saveForInspection(t, "scenario-player", img)

	g.scenarioStep() // step 6 fails
	if !strings.Contains(p.err, `step 6`) || !strings.Contains(g.App.Err(), `"q"`) || p.r.Next() != 6 {
		t.Fatalf("failing step: err %q, Err %q, next %d", p.err, g.App.Err(), p.r.Next())
	}
	img = drawFrames(t, g, 2) // the game keeps running, the error drawn
	if redInMessageBar(img) == 0 {
		t.Error("the step's error is not drawn in the message bar")
	}
	if g.exitErr != nil {
		t.Errorf("an interactive run got an exit error: %v", g.exitErr)
	}
	if _, err := os.Stat(filepath.Join(out, "report.json")); err == nil {
		t.Error("report.json written before every step ran")
	}

	// A scripted run (--run --frames) stops at the failure and fails.
	g2, err := NewGame(Options{Scenario: file, RunScenario: true, Frames: 2, Width: 320, Height: 200})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 12 && g2.exitErr == nil; i++ {
		drawFrames(t, g2, 1)
	}
	if g2.exitErr == nil || !strings.Contains(g2.exitErr.Error(), "step 6") || g2.scenarioPending() {
		t.Errorf("scripted run: exit error %v, pending %v", g2.exitErr, g2.scenarioPending())
	}

	// A file that does not parse: shown, the game still draws.
	bad := filepath.Join(t.TempDir(), "bad.scenario.json")
	if err := os.WriteFile(bad, []byte(`{"navviz-scenario": 1, "level": {"builtin": "terrain"}, "steps": [{"overlays": {"show": ["polygons"]}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	g3, err := NewGame(Options{Scenario: bad, Width: 320, Height: 200})
	if err == nil || g3 == nil || !strings.Contains(g3.App.Err(), "polygons") {
		t.Fatalf("bad file: err %v, game %v", err, g3 != nil)
	}
	drawFrames(t, g3, 2)
}

// TestHideUI: with HideUI a frame is the scene alone (no panel, label or
// message bar; the message bar has a status line here), and two games of
// the same scenario draw the same bytes; without it the panels are drawn.
func TestHideUI(t *testing.T) {
	file := writePlayerScenario(t)
	frame := func(hide bool) (got, scene []byte) {
		g, err := NewGame(Options{Scenario: file, RunScenario: true, HideUI: hide, Width: 480, Height: 300})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 10 && g.scenarioPending(); i++ {
			drawFrames(t, g, 1)
		}
		if g.App.Status() == "" {
			t.Fatal("no status line to hide")
		}
		return drawFrames(t, g, 2).Pix, sceneOnly(g)
	}
	a, sceneA := frame(true)
	b, _ := frame(true)
	if !bytes.Equal(a, sceneA) {
		t.Error("a --hide-ui frame holds more than the scene")
	}
	if !bytes.Equal(a, b) {
		t.Error("two --hide-ui games drew different bytes")
	}
	shown, sceneShown := frame(false)
	if bytes.Equal(shown, sceneShown) {
		t.Error("without --hide-ui no panel was drawn")
	}
}

// TestScenarioOptions: the options that go with a scenario, and those
// that do not.
func TestScenarioOptions(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Options
		err  string
	}{
		{"scenario", Options{Scenario: "a.scenario.json", RunScenario: true, OutDir: "out", HideUI: true}, ""},
		{"hide-ui alone", Options{HideUI: true}, ""},
		{"run without scenario", Options{RunScenario: true}, "need a scenario"},
		{"out without scenario", Options{OutDir: "out"}, "need a scenario"},
		{"scenario and build", Options{Scenario: "a.scenario.json", Build: true}, "sets its own level"},
		{"scenario and overlays", Options{Scenario: "a.scenario.json", Overlays: []string{"input"}}, "sets its own level"},
		{"scenario and demo", Options{Scenario: "a.scenario.json", DemoObstacles: 2}, "sets its own level"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.o.normalize()
			if (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
				t.Errorf("normalize: %v, want %q", err, tc.err)
			}
		})
	}
}
