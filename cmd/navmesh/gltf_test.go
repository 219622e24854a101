package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestGLTFLevels (issue 31, item 4): export-level --format glb writes a
// GLB that build reads (by content) into the same counts as the OBJ
// export; building the example GLB reports its skipped line primitive;
// an unknown --format is a usage error.
func TestGLTFLevels(t *testing.T) {
	dir := t.TempDir()
	counts := func(path string) map[string]any {
		code, out, errOut := runCmd(t, "build", path, "--json")
		if code != 0 {
			t.Fatalf("build %s: code %d, %s", path, code, errOut)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatal(err)
		}
		delete(m, "stageMs")
		return m
	}
	var got []map[string]any
	for _, f := range []string{"obj", "glb"} {
		out := filepath.Join(dir, "terrain."+f)
		if code, _, errOut := runCmd(t, "export-level", "terrain", "--format", f, "-o", out); code != 0 {
			t.Fatalf("export-level --format %s: code %d, %s", f, code, errOut)
		}
		got = append(got, counts(out))
	}
	if a, b := got[0], got[1]; len(a) == 0 || jsonText(t, a) != jsonText(t, b) {
		t.Errorf("OBJ builds %v, GLB %v", a, b)
	}
	code, out, _ := runCmd(t, "build", "../../testdata/levels/courtyard.glb")
	if code != 0 || !strings.HasPrefix(out, "level ../../testdata/levels/courtyard.glb: skipped 1 line primitive\n") {
		t.Errorf("build courtyard.glb: code %d, %q", code, out)
	}
	if m := counts("../../testdata/levels/courtyard.glb"); m["skipped"] != "skipped 1 line primitive" {
		t.Errorf("--json skipped = %v", m["skipped"])
	}
	if code, _, errOut := runCmd(t, "export-level", "city", "--format", "fbx", "-o", filepath.Join(dir, "x")); code != 2 || !strings.Contains(errOut, `unknown --format "fbx": want obj or glb`) {
		t.Errorf("--format fbx: code %d, %q", code, errOut)
	}
}

func jsonText(t *testing.T, m map[string]any) string {
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
