package ui

import (
	"strings"
	"testing"
	"time"

	"navviz/core/pipeline"
	"navviz/render"
)

// TestFirstRun: with AutoCache (navviz's default) the tile cache of the
// level builds with no input at all, with the obstacle preset, and the
// live navmesh (cache-polys) is drawn; the status line says what to do
// next; the stage overlays that show nothing before a plain build are not
// ticked; a level loaded later gets its own cache.
func TestFirstRun(t *testing.T) {
	g, err := NewGame(Options{Level: "terrain", Width: testW, Height: testH, AutoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	a := g.App
	deadline := time.Now().Add(60 * time.Second)
	for g.autoCachePending() {
		if time.Now().After(deadline) {
			t.Fatal("the automatic cache build did not finish in 60 s")
		}
		drawFrames(t, g, 1)
	}
	img := drawFrames(t, g, 2)
	saveForInspection(t, "first-run-terrain", img)
	if a.Cache == nil || a.Err() != "" {
		t.Fatalf("first run: cache %v, Err %q, CacheErr %q", a.Cache != nil, a.Err(), a.CacheErr())
	}
	if a.Settings().Partition != pipeline.Layers || a.Settings().DetailSampleDistCells != 0 {
		t.Errorf("first run: settings %v / detail %v, want the obstacle preset", a.Settings().Partition, a.Settings().DetailSampleDistCells)
	}
	o := a.Scene().Overlay(render.OverlayCachePolys)
	if o == nil || !o.Visible || len(o.Tris) == 0 {
		t.Fatalf("first run: cache-polys overlay %+v has nothing to show", o)
	}
	if !strings.Contains(a.Status(), "Obstacle tool") {
		t.Errorf("first run: status %q does not say what to do next", a.Status())
	}
	for _, name := range append(append([]string(nil), render.SpanOverlayNames...), render.MeshOverlayNames...) {
		if o := a.Scene().Overlay(name); o != nil && o.Visible {
			t.Errorf("first run: %s is ticked but shows nothing before a plain build", name)
		}
	}

	// Another level: its cache builds too.
	first := a.Cache
	if err := a.Load("city"); err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(90 * time.Second)
	for g.autoCachePending() {
		if time.Now().After(deadline) {
			t.Fatal("the automatic cache build of city did not finish in 90 s")
		}
		drawFrames(t, g, 1)
	}
	drawFrames(t, g, 1)
	if a.Cache == nil || a.Cache == first {
		t.Fatalf("city: cache %v (same as terrain's: %v), CacheErr %q", a.Cache != nil, a.Cache == first, a.CacheErr())
	}
}
