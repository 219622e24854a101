package scenario

import (
	"bytes"
	"flag"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// update rewrites the examples' goldens: go test ./scenario -run Examples -update
var update = flag.Bool("update", false, "write the golden PNGs of testdata/scenarios instead of comparing")

// examplesDir holds the example scenarios and their goldens.
var examplesDir = filepath.Join("..", "testdata", "scenarios")

// examples returns the example scenario files.
func examples(t testing.TB) []string {
	files, err := filepath.Glob(filepath.Join(examplesDir, "*"+FileExt))
	if err != nil || len(files) < 4 {
		t.Fatalf("examples in %s: %v, %v (want at least 4)", examplesDir, files, err)
	}
	return files
}

// TestExamples runs every example scenario twice: the two runs must give
// byte-identical PNGs and report.json, every shot must match its golden
// (NAME.golden/SHOT.png) under the default threshold and tolerance, and
// the report its golden NAME.golden/report.json field by field. With
// -update it writes the goldens instead.
func TestExamples(t *testing.T) {
	for _, file := range examples(t) {
		t.Run(BaseName(file), func(t *testing.T) {
			res, err := RunFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if *update {
				if err := UpdateGoldens(res.Shots, GoldenDir(file)); err != nil {
					t.Fatal(err)
				}
				if err := UpdateGoldenReport(&res.Report, GoldenDir(file)); err != nil {
					t.Fatal(err)
				}
				return
			}
			again, err := RunFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sameOutputs(t, res, again)
			cmps, err := CompareGoldens(res.Shots, GoldenDir(file), t.TempDir(), DefaultThreshold, DefaultTolerancePct)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cmps {
				if c.Failed {
					t.Errorf("%s (regenerate with: go test ./scenario -run Examples -update)", c.Line())
				}
			}
			rc, err := CompareReport(&res.Report, GoldenDir(file))
			if err != nil {
				t.Fatal(err)
			}
			if rc.Failed {
				for _, l := range rc.Lines() {
					t.Errorf("%s (regenerate with: go test ./scenario -run Examples -update)", l)
				}
			}
			checkExample(t, BaseName(file), &res.Report)
		})
	}
}

// sameOutputs fails unless a and b have byte-identical PNGs and reports.
func sameOutputs(t *testing.T, a, b *Result) {
	t.Helper()
	ra, err := a.ReportJSON()
	if err != nil {
		t.Fatal(err)
	}
	rb, err := b.ReportJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ra, rb) {
		t.Errorf("report.json differs between two runs")
	}
	if len(a.Shots) != len(b.Shots) {
		t.Fatalf("%d shots, then %d", len(a.Shots), len(b.Shots))
	}
	for i := range a.Shots {
		pa, err := EncodePNG(a.Shots[i].Image)
		if err != nil {
			t.Fatal(err)
		}
		pb, err := EncodePNG(b.Shots[i].Image)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(pa, pb) {
			t.Errorf("shot %s differs between two runs", a.Shots[i].Name)
		}
	}
}

// checkExample checks what each example is there to show, in its report.
func checkExample(t *testing.T, name string, r *Report) {
	layers := func() []LayerLine {
		var out []LayerLine
		for _, s := range r.Steps {
			if s.Update != nil {
				out = append(out, s.Update.Layers...)
			}
		}
		return out
	}
	switch name {
	case "terrain-shapes":
		var shapes []string
		for _, s := range r.Steps {
			if s.Kind == KindObstacle {
				shapes = append(shapes, strings.Fields(strings.TrimPrefix(s.Did, "added "))[0])
			}
		}
		if !slices.Contains(shapes, "cylinder") || !slices.Contains(shapes, "box") || !slices.Contains(shapes, "oriented") {
			t.Errorf("obstacle shapes %v, want all three", shapes)
		}
	case "footbridge-repair":
		found := false
		for _, l := range layers() {
			found = found || (l.TX == 5 && l.TZ == 8 && l.Layer == 1 && l.Repaired && l.Removed > 0 && l.Ring > 0 && l.Contours == "equal")
		}
		if !found {
			t.Errorf("no repaired layer 1 of tile (5,8) with removed and ring spans: %+v", layers())
		}
	case "street-split":
		found := false
		for _, l := range layers() {
			found = found || (!l.Repaired && l.Precondition == "c" && strings.Contains(l.Verdict, "split"))
		}
		if !found {
			t.Errorf("no layer built from scratch after a split: %+v", layers())
		}
		if r.FinalMeshHash != r.MeshHash {
			t.Errorf("the restored mesh is %s, not the first build's %s", r.FinalMeshHash, r.MeshHash)
		}
	case "agents-reroute":
		// The wall swaps the tiles round the target: the agents whose
		// corridors ran there re-plan, and none stands in the wall.
		var last *AgentsReport
		for _, s := range r.Steps {
			if s.Agents != nil {
				last = s.Agents
			}
		}
		if last == nil || last.Replans == 0 || last.Moving+last.Arrived == 0 || last.Unreachable == len(last.Agents) {
			t.Errorf("agents after the wall %+v, want re-plans and agents on their way", last)
		} else {
			for i, a := range last.Agents {
				if p := a.PosM; p[0] > 94 && p[0] < 104 && p[2] > 139 && p[2] < 141 {
					t.Errorf("agent %d stands in the wall at %v", i, p)
				}
			}
		}
	case "path-reroute":
		var paths []*PathReport
		for _, s := range r.Steps {
			if s.Shot != nil && s.Path != nil {
				paths = append(paths, s.Path)
			}
		}
		if len(paths) != 2 || !paths[0].Found || !paths[1].Found || paths[1].Partial || !(paths[1].LengthM > paths[0].LengthM) || paths[1].Corners <= paths[0].Corners {
			t.Errorf("paths at the shots %+v, want a longer detour after the wall", paths)
		}
	}
}

// BenchmarkScenario runs each example (load, build, every step, no file
// written).
func BenchmarkScenario(b *testing.B) {
	for _, file := range examples(b) {
		sc, err := Load(file)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(BaseName(file), func(b *testing.B) {
			for b.Loop() {
				if _, err := Run(sc, file); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
