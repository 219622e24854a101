package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCPUProfile checks that --cpuprofile writes a profile (runtime/pprof's
// gzipped protocol buffer) for build and bench, and that a path it cannot
// create is an error naming the flag, with nothing run.
func TestCPUProfile(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"build", []string{"build", "city", "--partition", "layers", "--detail-sample-dist", "0", "--json"}},
		{"bench", []string{"bench", "city", "--warmup", "0", "--cycles", "1", "--workers", "1", "--json"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".prof")
			code, _, errOut := runCmd(t, append(tc.args, "--cpuprofile", path)...)
			if code != 0 {
				t.Fatalf("code %d, stderr %q", code, errOut)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("%s: not a gzipped profile: %v", path, err)
			}
			raw, err := io.ReadAll(zr)
			if err != nil || len(raw) == 0 {
				t.Fatalf("%s: %d bytes of profile, %v", path, len(raw), err)
			}

			bad := filepath.Join(dir, "missing", tc.name+".prof")
			code, out, errOut := runCmd(t, append(tc.args, "--cpuprofile", bad)...)
			if code != 1 || !strings.Contains(errOut, "--cpuprofile") || !strings.Contains(errOut, bad) || out != "" {
				t.Errorf("unwritable --cpuprofile: code %d, stdout %q, stderr %q", code, out, errOut)
			}
		})
	}
}
