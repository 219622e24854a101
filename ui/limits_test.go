package ui

import (
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"navviz/core/pipeline"
	"navviz/core/voxel"
)

// TestHugeLevelKeepsPrevious loads a one-triangle OBJ 1e6 m wide over a
// level with a build, a tile cache and an obstacle: the load is refused
// with the size limit's error in the window, and the level, build, cache
// and obstacle stay. The Build panel shows the size estimate of the
// current level; settings that make it too large refuse the Build button
// and the cache build the same way.
func TestHugeLevelKeepsPrevious(t *testing.T) {
	g := newTestGame(t, "terrain")
	drawFrames(t, g, 1)
	a := g.App
	if got := a.BuildSizeText(); !strings.HasPrefix(got, "Build size: 64 tiles (8 x 8 of 64 cells), ") || !strings.Contains(got, "MiB of 4 GiB allowed") {
		t.Errorf("Build panel size line %q", got)
	}
	g.applyObstaclePreset()
	g.startCacheBuild()
	waitCache(t, g)
	a.Auto.SetOn(false)
	pts := a.DemoPoints(1)
	if len(pts) != 1 {
		t.Fatal("no walkable point on terrain")
	}
	if err := a.AddObstacle(voxel.Cylinder(pts[0], 1, 2)); err != nil {
		t.Fatal(err)
	}
	g.startBuild()
	waitBuild(t, g)
	soup, scene, build, cache := a.Soup(), a.Scene(), a.Build(), a.Cache
	if build == nil || cache == nil {
		t.Fatalf("build %v, cache %v (Err %q)", build != nil, cache != nil, a.Err())
	}

	big := filepath.Join(t.TempDir(), "big.obj")
	if err := os.WriteFile(big, []byte("v 0 0 0\nv 1000000 0 0\nv 0 0 1000000\nf 1 2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g.RequestLoad(big)
	img := drawFrames(t, g, 2)
	saveForInspection(t, "huge-level", img)
	for _, want := range []string{big, "BuildLimits.MaxTiles", "2712743056 tiles", "1e+06 x 1e+06 m"} {
		if !strings.Contains(a.Err(), want) {
			t.Errorf("App.Err = %q, want it to contain %q", a.Err(), want)
		}
	}
	if a.LevelName() != "terrain" || a.Soup() != soup || a.Scene() != scene || a.Build() != build || a.Cache != cache {
		t.Errorf("after the refused load: level %q, soup kept %v, scene kept %v, build kept %v, cache kept %v",
			a.LevelName(), a.Soup() == soup, a.Scene() == scene, a.Build() == build, a.Cache == cache)
	}
	if obs := a.Cache.Obstacles(); len(obs) != 1 {
		t.Errorf("after the refused load the cache has %d obstacles, want 1", len(obs))
	}
	if red := redInMessageBar(img); red < 20 {
		t.Errorf("found %d red pixels in the message bar, want the error text", red)
	}
	if got := a.BuildSizeText(); !strings.HasPrefix(got, "Build size: 64 tiles") {
		t.Errorf("after the refused load the Build panel says %q, want terrain's size", got)
	}

	// Settings that make terrain too large: the panel says so, Build and
	// Build cache refuse, the build and the cache stay.
	s := a.Settings()
	s.CellSizeM, s.AgentRadiusM = pipeline.MinCellSizeM, 0.1
	a.SetSettings(s)
	if err := a.SettingsErr(); err != nil {
		t.Fatal(err)
	}
	if got := a.BuildSizeText(); !strings.HasPrefix(got, "Too large to build: ") || !strings.Contains(got, "BuildLimits.MaxTiles") {
		t.Errorf("Build panel size line %q", got)
	}
	g.startBuild()
	if g.buildRequested || !strings.Contains(a.BuildErr(), "BuildLimits.MaxTiles") || !strings.Contains(a.Err(), "BuildLimits.MaxTiles") {
		t.Errorf("Build over the limits: requested %v, BuildErr %q, Err %q", g.buildRequested, a.BuildErr(), a.Err())
	}
	g.startCacheBuild()
	if running, _, _ := g.cache.runner.Progress(); running || !strings.Contains(a.CacheErr(), "BuildLimits.MaxTiles") {
		t.Errorf("cache build over the limits: running %v, CacheErr %q", running, a.CacheErr())
	}
	drawFrames(t, g, 2)
	if a.Build() != build || a.Cache != cache || a.Soup() != soup {
		t.Errorf("a refused build replaced the build (%v), the cache (%v) or the level (%v)", a.Build() != build, a.Cache != cache, a.Soup() != soup)
	}
}

// redInMessageBar counts the red (error text) pixels of the window's
// bottom 30 rows.
func redInMessageBar(img interface {
	Bounds() image.Rectangle
	RGBAAt(x, y int) color.RGBA
}) int {
	red := 0
	b := img.Bounds()
	for y := b.Max.Y - 30; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if c := img.RGBAAt(x, y); c.R > 200 && c.G < 140 && c.B < 140 {
				red++
			}
		}
	}
	return red
}
