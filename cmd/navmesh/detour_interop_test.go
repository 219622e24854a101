package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/level/leveltest"
	"navviz/core/navmesh"
	"navviz/core/navmesh/detour"
)

// requireNodeEnv, when set (make test sets it), turns a missing node or npm
// from a skip into a failure, so CI cannot pass without the check against
// real Detour.
const requireNodeEnv = "NAVVIZ_REQUIRE_NODE"

// interopDir is the harness that runs real Detour (@recast-navigation,
// Detour compiled to WASM) under node.
const interopDir = "../../interop/detour"

// detourPairs is the number of seeded point pairs asked of each mesh.
const detourPairs = 300

// nodeTools returns node's path after `npm ci` in interopDir; it skips the
// test in -short mode, and when node or npm is missing (fails it when
// requireNodeEnv is set).
func nodeTools(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs npm ci and real Detour under node; skipped in -short mode")
	}
	var paths []string
	for _, tool := range []string{"node", "npm"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			msg := fmt.Sprintf("%s not in PATH (the check against real Detour needs node and npm: apt-get install nodejs npm)", tool)
			if os.Getenv(requireNodeEnv) != "" {
				t.Fatalf("%s; %s is set", msg, requireNodeEnv)
			}
			t.Skip(msg)
		}
		paths = append(paths, p)
	}
	cmd := exec.CommandContext(t.Context(), paths[1], "ci", "--no-audit", "--no-fund")
	cmd.Dir = interopDir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci in %s: %v\n%s", interopDir, err, out)
	}
	return paths[0]
}

// runNode runs node script with args in interopDir and returns its JSON
// lines.
func runNode(t *testing.T, node, script string, args ...string) []map[string]any {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), node, append([]string{script}, args...)...)
	cmd.Dir = interopDir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s %v: %v\n%s", script, args, err, stderr.Bytes())
	}
	return jsonLines(t, out)
}

func jsonLines(t *testing.T, out []byte) []map[string]any {
	t.Helper()
	var rs []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r map[string]any
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		rs = append(rs, r)
	}
	return rs
}

// meshPoint returns a seeded point on a polygon of m: a random tile, a
// random polygon and a random point of one of its fan triangles.
func meshPoint(r *rand.Rand, m *navmesh.Mesh, refs []navmesh.TileRef) geom.Vec3 {
	tl, _ := m.Tile(refs[r.IntN(len(refs))])
	p := tl.Polys[r.IntN(len(tl.Polys))]
	k := 1 + r.IntN(int(p.VertCount)-2)
	a, b, c := tl.Verts[p.Verts[0]], tl.Verts[p.Verts[k]], tl.Verts[p.Verts[k+1]]
	u, v := r.Float64(), r.Float64()
	if u+v > 1 {
		u, v = 1-u, 1-v
	}
	f := func(a, b, c float32) float32 {
		return float32(float64(a) + float64(u*float64(b-a)) + float64(v*float64(c-a)))
	}
	return geom.V3(f(a.X, b.X, c.X), f(a.Y, b.Y, c.Y), f(a.Z, b.Z, c.Z))
}

// writePairs writes detourPairs seeded pairs of points on m's polygons.
func writePairs(t *testing.T, m *navmesh.Mesh, path string) {
	t.Helper()
	r := rand.New(rand.NewPCG(31, 300))
	refs := m.Tiles()
	var b strings.Builder
	for range detourPairs {
		a, c := meshPoint(r, m, refs), meshPoint(r, m, refs)
		fmt.Fprintf(&b, "%v %v %v %v %v %v\n", a.X, a.Y, a.Z, c.X, c.Y, c.Z)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// comparePairs answers the pairs file with navmesh path on mesh (a level
// or a Detour file) and with real Detour on the Detour file dtFile, and
// checks the acceptance rule: the same status on every pair, lengths within
// 1 % on at least 99 % of the pairs complete in both.
func comparePairs(t *testing.T, node, mesh, dtFile, pairs string) {
	t.Helper()
	var out, errb bytes.Buffer
	if err := runPath([]string{mesh, "--pairs", pairs, "--json"}, &out, &errb); err != nil {
		t.Fatalf("navmesh path %s: %v\n%s", mesh, err, errb.Bytes())
	}
	ours := jsonLines(t, out.Bytes())
	theirs := runNode(t, node, "check.mjs", dtFile, "--pairs", pairs)[1:]
	if len(ours) != detourPairs || len(theirs) != detourPairs {
		t.Fatalf("%d answers from navmesh path, %d from Detour, want %d each", len(ours), len(theirs), detourPairs)
	}
	statusDiff, complete, close := 0, 0, 0
	for i := range ours {
		a, b := ours[i], theirs[i]
		if a["status"] != b["status"] {
			statusDiff++
			t.Errorf("%s pair %d: status %v here, %v in Detour", mesh, i, a["status"], b["status"])
			continue
		}
		if a["status"] != "complete" {
			continue
		}
		complete++
		la, lb := a["length"].(float64), b["length"].(float64)
		if math.Abs(la-lb) <= 0.01*max(la, lb) {
			close++
		} else {
			t.Logf("%s pair %d: length %.4f m here, %.4f m in Detour", mesh, i, la, lb)
		}
	}
	t.Logf("%s: %d pairs, %d with a different status, %d complete in both, %d of them within 1 %%", mesh, detourPairs, statusDiff, complete, close)
	if complete == 0 || float64(close) < 0.99*float64(complete) {
		t.Errorf("%s: %d of %d pairs complete in both have lengths within 1 %%, want at least 99 %%", mesh, close, complete)
	}
}

// TestDetourInterop checks navviz's Detour files against real Detour on
// dungeon and city: Detour loads `navmesh build --format detour`'s file
// with the same tiles and polygons and answers 300 seeded pairs as
// `navmesh path` does on the level; Detour's own navmesh of the level
// (Recast's build, exportNavMesh) is read by navviz with Detour's tile and
// polygon counts and answers the same pairs as Detour does.
func TestDetourInterop(t *testing.T) {
	node := nodeTools(t)
	dir := t.TempDir()
	city := filepath.Join(dir, "city.obj")
	var sink bytes.Buffer
	if err := runExportLevel([]string{"city", "-o", city}, &sink, &sink); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, level, obj string }{
		{"dungeon", leveltest.Path(t, "dungeon"), leveltest.Path(t, "dungeon")},
		{"city", "city", city},
	} {
		t.Run(c.name, func(t *testing.T) {
			ours := filepath.Join(dir, c.name+".bin")
			if err := runBuild([]string{c.level, "--format", "detour", "-o", ours}, &sink, &sink); err != nil {
				t.Fatal(err)
			}
			f, err := detour.ReadFile(ours)
			if err != nil {
				t.Fatal(err)
			}
			pairs := filepath.Join(dir, c.name+".pairs")
			writePairs(t, f.Mesh, pairs)
			sum := runNode(t, node, "check.mjs", ours)[0]
			if tiles, polys := meshCounts(f.Mesh); sum["tiles"] != float64(tiles) || sum["polys"] != float64(polys) {
				t.Errorf("Detour loads %v tiles and %v polygons of our file, want %d and %d", sum["tiles"], sum["polys"], tiles, polys)
			}
			comparePairs(t, node, c.level, ours, pairs)

			theirs := filepath.Join(dir, c.name+"-detour.bin")
			built := runNode(t, node, "build.mjs", c.obj, theirs)[0]
			g, err := detour.ReadFile(theirs)
			if err != nil {
				t.Fatal(err)
			}
			if tiles, polys := meshCounts(g.Mesh); built["tiles"] != float64(tiles) || built["polys"] != float64(polys) {
				t.Errorf("navviz reads %d tiles and %d polygons of Detour's file, Detour has %v and %v", tiles, polys, built["tiles"], built["polys"])
			}
			t.Logf("Detour's own %s navmesh: %v tiles, %v polygons", c.name, built["tiles"], built["polys"])
			writePairs(t, g.Mesh, pairs)
			comparePairs(t, node, theirs, theirs, pairs)
		})
	}
}

// meshCounts returns m's tile and polygon counts.
func meshCounts(m *navmesh.Mesh) (tiles, polys int) {
	for _, ref := range m.Tiles() {
		t, _ := m.Tile(ref)
		polys += len(t.Polys)
	}
	return m.TileCount(), polys
}

// TestBuildFormatDetour: build --format detour [--polyref64] writes a file
// navmesh path answers on as on the level; bad --format uses are usage
// errors.
func TestBuildFormatDetour(t *testing.T) {
	lvl := leveltest.Path(t, "dungeon")
	dir := t.TempDir()
	pairs := filepath.Join(dir, "pairs")
	var sink bytes.Buffer
	for _, ref64 := range []bool{false, true} {
		out := filepath.Join(dir, fmt.Sprint(ref64)+".bin")
		args := []string{lvl, "--format", "detour", "-o", out}
		if ref64 {
			args = append(args, "--polyref64")
		}
		if err := runBuild(args, &sink, &sink); err != nil {
			t.Fatal(err)
		}
		f, err := detour.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if f.PolyRef64 != ref64 || f.Kind != detour.KindSet {
			t.Errorf("ref64 %v: read back as %v, PolyRef64 %v", ref64, f.Kind, f.PolyRef64)
		}
		writePairs(t, f.Mesh, pairs)
		var a, b bytes.Buffer
		if err := runPath([]string{lvl, "--pairs", pairs, "--json"}, &a, &sink); err != nil {
			t.Fatal(err)
		}
		if err := runPath([]string{out, "--pairs", pairs, "--json"}, &b, &sink); err != nil {
			t.Fatal(err)
		}
		if a.String() != b.String() {
			t.Errorf("ref64 %v: navmesh path on the Detour file answers differently from the level", ref64)
		}
	}
	for _, args := range [][]string{
		{lvl, "--format", "obj", "-o", filepath.Join(dir, "x")},
		{lvl, "--polyref64", "-o", filepath.Join(dir, "x")},
	} {
		var usage usageError
		if err := runBuild(args, &sink, &sink); !errors.As(err, &usage) {
			t.Errorf("build %v: error %v, want a usage error", args, err)
		}
	}
}

// TestDetourTileCacheInterop: Detour's own tile cache of dungeon and city
// (Recast's layers, generateTileCache and exportTileCache: a TSET file of
// FastLZ-compressed DTLR layers) is read by navviz with Detour's layer
// count and each layer as Recast built it before compressing it: position,
// size, height range, and the count and sums of its cells' heights and
// areas; every cell's top lies within the level's bounds.
func TestDetourTileCacheInterop(t *testing.T) {
	node := nodeTools(t)
	dir := t.TempDir()
	city := filepath.Join(dir, "city.obj")
	var sink bytes.Buffer
	if err := runExportLevel([]string{"city", "-o", city}, &sink, &sink); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, obj string }{
		{"dungeon", leveltest.Path(t, "dungeon")},
		{"city", city},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, c.name+"-tilecache.bin")
			lines := runNode(t, node, "tilecache.mjs", c.obj, out)
			sum, layers := lines[0], lines[1:]
			tc, err := detour.ReadTileCacheFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if sum["added"] != float64(len(layers)) || len(tc.Layers) != len(layers) {
				t.Fatalf("navviz reads %d layers, Detour built %d and its tile cache took %v", len(tc.Layers), len(layers), sum["added"])
			}
			soup, err := level.LoadFile(c.obj)
			if err != nil {
				t.Fatal(err)
			}
			bounds := soup.Bounds()
			const slack = 0.5 // m: a cell's centre and its height step
			cells := 0
			for i, l := range tc.Layers {
				w := layers[i]
				filled, heights, areas := 0, 0, 0
				for k, h := range l.Heights {
					if h == detour.LayerEmpty {
						continue
					}
					filled++
					heights += int(h)
					areas += int(l.Areas[k])
				}
				got := map[string]any{"tlayer": float64(l.TLayer), "width": float64(l.Width), "height": float64(l.Height),
					"hmin": float64(l.HMin), "hmax": float64(l.HMax), "filled": float64(filled), "heights": float64(heights), "areas": float64(areas)}
				for k, v := range got {
					if w[k] != v {
						t.Errorf("layer %d (%d, %d) %d: %s %v here, %v in Recast", i, l.TX, l.TY, l.TLayer, k, v, w[k])
					}
				}
				bmin := w["bmin"].([]any)
				if float32(bmin[0].(float64)) != l.BMin.X || float32(bmin[1].(float64)) != l.BMin.Y || float32(bmin[2].(float64)) != l.BMin.Z {
					t.Errorf("layer %d: bmin %v here, %v in Recast", i, l.BMin, bmin)
				}
				for y := range int(l.Height) {
					for x := range int(l.Width) {
						p, ok := l.CellTop(&tc.Cache, x, y)
						if !ok {
							continue
						}
						cells++
						if p.X < bounds.Min.X-slack || p.X > bounds.Max.X+slack || p.Z < bounds.Min.Z-slack || p.Z > bounds.Max.Z+slack ||
							p.Y < bounds.Min.Y-slack || p.Y > bounds.Max.Y+slack {
							t.Fatalf("layer %d cell (%d, %d): top %v outside the level's bounds %v", i, x, y, p, bounds)
						}
					}
				}
			}
			t.Logf("Detour's %s tile cache: %d layers, %d cells with a span, navmesh of %v tiles and %v polygons", c.name, len(tc.Layers), cells, sum["navMeshTiles"], sum["polys"])
		})
	}
}
