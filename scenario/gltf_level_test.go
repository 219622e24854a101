package scenario

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRunnerGLTFLevel (issue 31, item 4): a scenario's {"level": {"obj":
// FILE}} takes a glTF file too (chosen by content): the example GLB level
// builds and answers a path.
func TestRunnerGLTFLevel(t *testing.T) {
	data, err := os.ReadFile("../testdata/levels/courtyard.glb")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "courtyard.glb"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	src := `{"navviz-scenario": 1, "level": {"obj": "courtyard.glb"},
		"steps": [{"path": {"start_m": [0, 0, -5], "end_m": [5, 0, 5]}}]}`
	file := filepath.Join(dir, "g.scenario.json")
	sc, err := Parse([]byte(src), file)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(sc, file)
	if err != nil {
		t.Fatal(err)
	}
	if p := res.Report.Steps[0].Path; p == nil || !p.Found || p.Partial {
		t.Errorf("path %+v, want a complete path", p)
	}
}
