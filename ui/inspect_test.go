package ui

import (
	"image"
	"strings"
	"testing"

	"github.com/ebitengine/debugui"

	"navviz/render"
	"navviz/tilecache"
	"navviz/ui/session"
)

// runInspectSection runs the Inspect section in a window of its own for
// one frame (the Cache panel shows it collapsed).
func runInspectSection(t *testing.T, g *Game) {
	t.Helper()
	var d debugui.DebugUI
	if _, err := d.Update(func(ctx *debugui.Context) error {
		ctx.Window("Inspect test", image.Rect(0, 0, 400, 600), func(debugui.ContainerLayout) { g.inspectSection(ctx) })
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// TestInspectOnTerrain: with recording on, an obstacle's Update leaves a
// report per rebuilt layer; the inspector overlays draw the removed and
// ring spans and the contours, of every layer or of the one selected;
// recording off drops the reports and the cache's trace.
func TestInspectOnTerrain(t *testing.T) {
	g := terrainCacheGame(t)
	a := g.App
	runInspectSection(t, g) // off: the description only
	a.SetInspect(true)
	if !a.InspectOn() {
		t.Fatal("recording not on")
	}
	drawFrames(t, g, 1)
	pts := a.DemoPoints(1)
	if len(pts) == 0 {
		t.Fatal("no walkable point")
	}
	if _, err := a.Cache.AddObstacle(tilecache.CycleObstacle(pts[0])); err != nil {
		t.Fatal(err)
	}
	a.Edited()
	if err := a.UpdateAllCache(); err != nil {
		t.Fatal(err)
	}
	drawFrames(t, g, 1)
	reps := a.InspectReports()
	if len(reps) == 0 {
		t.Fatal("no reports after the update")
	}
	removed := 0
	for i := range reps {
		removed += reps[i].Removed
		if reps[i].Compared && !reps[i].ContoursEqual {
			t.Errorf("%v: %s", &reps[i], reps[i].Diff)
		}
		if row, verdict := inspectRow(&reps[i]); !strings.Contains(row, reps[i].Mode()) || verdict == "" {
			t.Errorf("row %q", row)
		}
	}
	if removed == 0 {
		t.Fatal("no removed spans reported")
	}
	if !strings.Contains(inspectSummary(reps), session.Plural(len(reps), "layer")) {
		t.Errorf("summary %q", inspectSummary(reps))
	}
	count := func(name string) int {
		o := a.Scene().Overlay(name)
		if o == nil {
			t.Fatalf("no overlay %q", name)
		}
		return len(o.Tris) + len(o.Lines) + len(o.Points)
	}
	allRemoved, allContours := count(render.OverlayRemoved), count(render.OverlayRepairContours)
	if allRemoved == 0 || allContours == 0 {
		t.Fatalf("overlays: removed %d, repair-contours %d", allRemoved, allContours)
	}
	// Select the layer that lost the fewest spans (of those that lost any).
	sel := -1
	for i := range reps {
		if reps[i].Removed > 0 && (sel < 0 || reps[i].Removed < reps[sel].Removed) {
			sel = i
		}
	}
	a.SelectInspect(sel)
	drawFrames(t, g, 1)
	if a.InspectSelected() != sel {
		t.Fatalf("selected %d, want %d", a.InspectSelected(), sel)
	}
	if n := count(render.OverlayRemoved); n == 0 || len(reps) > 1 && n >= allRemoved {
		t.Errorf("selected layer: removed overlay %d, all %d", n, allRemoved)
	}
	if d := inspectDetail(&reps[sel]); len(d) < 3 || !strings.Contains(strings.Join(d, "\n"), "Verdict: ") {
		t.Errorf("detail %q", d)
	}
	runInspectSection(t, g)
	a.SelectInspect(len(reps)) // out of range: every layer
	if a.InspectSelected() != -1 {
		t.Error("out-of-range selection kept")
	}
	runInspectSection(t, g)

	// An update that builds nothing keeps the reports.
	if err := a.UpdateAllCache(); err != nil {
		t.Fatal(err)
	}
	drawFrames(t, g, 1)
	if len(a.InspectReports()) != len(reps) {
		t.Error("an empty update dropped the reports")
	}

	a.SetInspect(false)
	drawFrames(t, g, 1)
	if len(a.InspectReports()) != 0 || count(render.OverlayRemoved) != 0 {
		t.Error("recording off kept reports")
	}
	if _, err := a.Cache.AddObstacle(tilecache.CycleObstacle(pts[0])); err != nil {
		t.Fatal(err)
	}
	a.Edited()
	if err := a.UpdateAllCache(); err != nil {
		t.Fatal(err)
	}
	drawFrames(t, g, 1)
	if len(a.InspectReports()) != 0 {
		t.Error("reports recorded with recording off")
	}
}
