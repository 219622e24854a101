package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeBigOBJ writes a one-triangle OBJ 1e6 m wide (x and z) and returns
// its path.
func writeBigOBJ(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "big.obj")
	if err := os.WriteFile(p, []byte("v 0 0 0\nv 1000000 0 0\nv 0 0 1000000\nf 1 2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLimitsRefuseHugeLevel: every command that builds a whole level exits
// 1 on a one-triangle OBJ 1e6 m wide, with an error naming the file, its
// size, its tile count and the limit, without building (which would need
// hundreds of TB) and without writing its output; a raised limit moves the
// error on to the next limit.
func TestLimitsRefuseHugeLevel(t *testing.T) {
	big := writeBigOBJ(t)
	out := filepath.Join(t.TempDir(), "out")
	tests := []struct {
		name  string
		args  []string
		limit string
	}{
		{"build", []string{"build", big}, "BuildLimits.MaxTiles = 1048576 tiles"},
		{"build -o", []string{"build", big, "-o", out}, "BuildLimits.MaxTiles"},
		{"build --json", []string{"build", big, "--json", "--partition", "layers"}, "BuildLimits.MaxTiles"},
		{"build raised tiles", []string{"build", big, "--max-tiles", "3000000000"}, "BuildLimits.MaxBytes = 4 GiB"},
		{"build raised tiles and memory", []string{"build", big, "--max-tiles", "3000000000", "--max-memory-mib", "1000000000000"},
			"BuildLimits.MaxColumns = 268435456 columns"},
		{"shot", []string{"shot", "--level", big, "--overlays", "polys", "-o", out}, "BuildLimits.MaxTiles"},
		{"inspect", []string{"inspect", big, "--obstacle", "1,0,1,1,2"}, "BuildLimits.MaxTiles"},
		{"inspect raised", []string{"inspect", big, "--obstacle", "1,0,1,1,2", "--max-tiles", "3000000000"}, "BuildLimits.MaxBytes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(t, tc.args...)
			if code != 1 {
				t.Fatalf("exit code %d, want 1; stdout %q stderr %q", code, stdout, stderr)
			}
			for _, want := range []string{tc.limit, `level "` + big + `"`, "1e+06 x 1e+06 m", "2712743056 tiles (52084 x 52084 of 64 cells)"} {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr %q does not contain %q", stderr, want)
				}
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("output %s exists after the refusal (%v)", out, err)
			}
		})
	}
	code, _, stderr := runCmd(t, "build", big, "--max-memory-mib", "-1")
	if code != 2 || !strings.Contains(stderr, "max-memory-mib") {
		t.Errorf("--max-memory-mib -1: code %d, stderr %q; want a usage error", code, stderr)
	}
	code, _, stderr = runCmd(t, "shot", "--level", big, "--max-tiles", "-1", "-o", out)
	if code != 2 || !strings.Contains(stderr, "max-tiles") {
		t.Errorf("--max-tiles -1: code %d, stderr %q; want a usage error", code, stderr)
	}
}
