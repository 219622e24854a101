package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"navviz/core/level/leveltest"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
)

// decodeReport parses navmesh build --json output into a map, checking it
// is one object with exactly the documented keys.
func decodeReport(t *testing.T, out string) map[string]any {
	t.Helper()
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("--json output %q: %v", out, err)
	}
	if dec.More() {
		t.Fatalf("--json printed more than one value: %q", out)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"contours", "detailMeshes", "detailTris", "detailVerts", "layers", "polys", "regions", "stageMs", "tiles", "verts", "walkableArea"}
	if !slices.Equal(keys, want) {
		t.Fatalf("--json keys %v, want %v", keys, want)
	}
	stages, ok := m["stageMs"].(map[string]any)
	if !ok || len(stages) != int(pipeline.NumStages) {
		t.Fatalf("stageMs %v", m["stageMs"])
	}
	for st := pipeline.Stage(0); st < pipeline.NumStages; st++ {
		if v, ok := stages[st.String()].(float64); !ok || v < 0 {
			t.Errorf("stageMs[%q] = %v", st, stages[st.String()])
		}
	}
	return m
}

func TestBuildCommandJSON(t *testing.T) {
	code, out, errOut := runCmd(t, "build", "city", "--json", "--workers", "2")
	if code != 0 {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	m := decodeReport(t, out)
	for _, k := range []string{"regions", "contours", "verts", "polys", "detailMeshes", "detailVerts", "detailTris", "tiles", "walkableArea"} {
		if v, _ := m[k].(float64); v <= 0 {
			t.Errorf("%s = %v, want > 0", k, m[k])
		}
	}
	if m["layers"].(float64) != 1 {
		t.Errorf("watershed build with %v layers", m["layers"])
	}
	// The counts do not depend on the number of workers.
	_, out1, _ := runCmd(t, "build", "city", "--json", "--workers", "1")
	m1 := decodeReport(t, out1)
	for k, v := range m {
		if k != "stageMs" && m1[k] != v {
			t.Errorf("%s: %v with 2 workers, %v with 1", k, v, m1[k])
		}
	}
}

// TestBuildCommandSolo builds dungeon.obj solo: Recast's published counts
// (see core/pipeline TestSoloRecastFigures).
func TestBuildCommandSolo(t *testing.T) {
	path := leveltest.Path(t, "dungeon.obj")
	for _, tc := range []struct {
		partition string
		want      map[string]float64
	}{
		{"watershed", map[string]float64{"regions": 15, "contours": 15, "verts": 223, "polys": 118, "detailMeshes": 118, "detailVerts": 513, "detailTris": 291, "tiles": 1, "layers": 1}},
		{"monotone", map[string]float64{"regions": 16, "contours": 16, "verts": 210, "polys": 100, "detailMeshes": 100, "detailVerts": 453, "detailTris": 264, "tiles": 1, "layers": 1}},
	} {
		code, out, errOut := runCmd(t, "build", path, "--solo", "--partition", tc.partition, "--json")
		if code != 0 {
			t.Fatalf("code %d, stderr %q", code, errOut)
		}
		m := decodeReport(t, out)
		for k, v := range tc.want {
			if m[k] != v {
				t.Errorf("%s: %s = %v, want %v", tc.partition, k, m[k], v)
			}
		}
	}
}

func TestBuildCommandText(t *testing.T) {
	dir := t.TempDir()
	mesh := filepath.Join(dir, "city.bin")
	code, out, errOut := runCmd(t, "build", "--partition", "layers", "city", "--detail-sample-dist", "0", "--tile-size", "48", "-o", mesh)
	if code != 0 {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"layer first", "regions", "contours", "verts", "polys", "detail meshes", "detail verts",
		"detail tris", "tiles", "layers", "walkable area", "m²", "stage times", "rasterize", "contours", "link", "wall", "wrote " + mesh} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	data, err := os.ReadFile(mesh)
	if err != nil {
		t.Fatal(err)
	}
	var m navmesh.Mesh
	if err := m.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if m.TileCount() == 0 {
		t.Error("empty mesh written")
	}
	// The command lets each tile's spans go as it is built (Take): the mesh
	// is the one a build keeping them gives.
	s := pipeline.DefaultSettings()
	s.Partition, s.DetailSampleDistCells, s.TileSizeCells = pipeline.Layers, 0, 48
	src, err := loadSource("city")
	if err != nil {
		t.Fatal(err)
	}
	b, err := pipeline.BuildLevel(context.Background(), &s, src, pipeline.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want, err := b.Mesh.MarshalBinary(); err != nil || !bytes.Equal(data, want) {
		t.Errorf("written mesh (%d bytes) differs from a plain build's (%d bytes, %v)", len(data), len(want), err)
	}
	// -o - writes the mesh to stdout and the report to stderr.
	code, out, errOut = runCmd(t, "build", "city", "--partition", "layers", "--detail-sample-dist", "0", "--tile-size", "48", "-o", "-")
	if code != 0 || out != string(data) || !strings.Contains(errOut, "walkable area") {
		t.Errorf("-o -: code %d, %d bytes on stdout (want %d), stderr %q", code, len(out), len(data), errOut)
	}
}

func TestBuildCommandErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"build"}, 2, "missing LEVEL"},
		{[]string{"build", "city", "terrain"}, 2, `unexpected argument "terrain"`},
		{[]string{"build", "city", "--partition", "voronoi"}, 2, `unknown partition type "voronoi"`},
		{[]string{"build", "city", "--tile-size", "3"}, 2, "TileSizeCells = 3"},
		{[]string{"build", "city", "--detail-sample-dist", "-1"}, 2, "--detail-sample-dist -1"},
		{[]string{"build", "city", "--workers", "-2"}, 2, "--workers -2"},
		{[]string{"build", "city", "--solo", "--tile-size", "64"}, 2, "--tile-size with --solo: a solo build is one tile of the whole level"},
		{[]string{"build", "city", "--bogus"}, 2, "bogus"},
		{[]string{"build", "no-such-level.obj"}, 1, "load level"},
		{[]string{"build", "city", "-o", filepath.Join(t.TempDir(), "missing", "x.bin")}, 1, "-o: atomicfile: "},
	} {
		code, _, errOut := runCmd(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: code %d, stderr %q; want %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
	code, out, _ := runCmd(t, "build", "-h")
	if code != 0 || !strings.Contains(out, "-partition") || !strings.Contains(out, "-detail-sample-dist") {
		t.Errorf("build -h: code %d, stdout %q", code, out)
	}
	if code, _, errOut := runCmd(t); code != 2 || !strings.Contains(errOut, "build") {
		t.Errorf("usage does not list build: %q", errOut)
	}
}

// TestBadSoupNamesLevel: a level with no triangles or with a vertex out of
// range is refused by every command that builds it, the error naming the
// file.
func TestBadSoupNamesLevel(t *testing.T) {
	empty := writeLines(t, "empty.obj", "v 0 0 0\nv 1 0 0\n")
	far := writeLines(t, "far.obj", "v 0 0 0\nv 1 0 0\nv 3e30 0 1\nf 1 2 3\n")
	for _, lvl := range []struct{ path, want string }{
		{empty, "pipeline: the level has no triangles (2 vertices, no face)"},
		{far, "pipeline: vertex 2 (OBJ index 3) at (3e+30, 0, 1) is outside ±2097152 m"},
	} {
		for _, args := range [][]string{
			{"build", lvl.path},
			{"shot", "--level", lvl.path, "--overlays", "polys", "-o", filepath.Join(t.TempDir(), "x.png")},
			{"bench", "--level", lvl.path, "--auto-points", "1"},
			{"inspect", lvl.path, "--obstacle", "0,0,0,1,1"},
			{"path", lvl.path, "--pairs", writeLines(t, "pairs.txt", "0 0 0 1 0 1\n")},
		} {
			code, _, errOut := runCmd(t, args...)
			if want := fmt.Sprintf("level %q: %s", lvl.path, lvl.want); code != 1 || !strings.Contains(errOut, want) {
				t.Errorf("%v: code %d, stderr %q; want 1 and %q", args, code, errOut, want)
			}
		}
	}
}
