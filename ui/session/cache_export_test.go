package session

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"navviz/core/geom"
	"navviz/core/navmesh/detour"
	"navviz/core/voxel"
)

// TestExportNavMesh: the live navmesh, an edit included, goes to a file in
// navviz's format (the cache's mesh bytes) or Detour's (read back with the
// same tiles); no path or no cache is an error shown in the window.
func TestExportNavMesh(t *testing.T) {
	a := cityApp(t)
	if err := a.AddObstacle(voxel.Cylinder(geom.V3(101, -0.5, 142), 2, 3)); err != nil {
		t.Fatal(err)
	}
	if _, err := a.StepCache(8); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	nv, dt := filepath.Join(dir, "live.bin"), filepath.Join(dir, "live.mset")
	if err := a.ExportNavMesh(nv, false); err != nil {
		t.Fatal(err)
	}
	if err := a.ExportNavMesh(dt, true); err != nil {
		t.Fatal(err)
	}
	want, err := a.Cache.Mesh().MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(nv); !bytes.Equal(got, want) {
		t.Errorf("%s: %d bytes, want the live mesh's %d", nv, len(got), len(want))
	}
	df, err := detour.ReadFile(dt)
	if err != nil {
		t.Fatal(err)
	}
	if df.Mesh.TileCount() != a.Cache.Mesh().TileCount() || !strings.Contains(a.Status(), "Detour navmesh set") {
		t.Errorf("Detour file: %d tiles, the cache %d; status %q", df.Mesh.TileCount(), a.Cache.Mesh().TileCount(), a.Status())
	}
	if err := a.ExportNavMesh("", true); err == nil || !strings.Contains(a.Err(), "no file name") {
		t.Errorf("no path: %v, Err %q", err, a.Err())
	}
	if err := NewApp().ExportNavMesh(nv, false); err == nil {
		t.Error("an App without a cache exported")
	}
}
