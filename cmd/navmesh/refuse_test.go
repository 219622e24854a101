//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// refuseFiles are the files of TestOutputRefused: a level, an off-mesh
// link file and a points file in dir, plus a symbolic and a hard link to
// the level.
type refuseFiles struct {
	dir, level, links, points, soft, hard string
}

func writeRefuseFiles(t *testing.T) refuseFiles {
	t.Helper()
	dir := t.TempDir()
	f := refuseFiles{
		dir:    dir,
		level:  filepath.Join(dir, "in.obj"),
		links:  filepath.Join(dir, "in.offmesh"),
		points: filepath.Join(dir, "points.txt"),
		soft:   filepath.Join(dir, "soft.obj"),
		hard:   filepath.Join(dir, "hard.obj"),
	}
	for p, text := range map[string]string{f.level: flatOBJ, f.links: "2 0 2 10 0 10 0.5 1 63\n", f.points: "6 0 6\n"} {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("in.obj", f.soft); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(f.level, f.hard); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestOutputRefused: every output flag of every command (-o of build,
// shot, export-level and hashmatrix, --cpuprofile of build and bench) is
// checked before the command runs: one naming an input (directly, through
// a symbolic link or a hard link) or another output is a usage error
// (exit 2), and a read-only target an error (exit 1, also for root: the
// file has no write bit). The inputs and the target stay byte-identical,
// nothing else is made, and the level is never built (a broken level's
// error would show).
func TestOutputRefused(t *testing.T) {
	f := writeRefuseFiles(t)
	ro := filepath.Join(f.dir, "ro.out")
	if err := os.WriteFile(ro, []byte("read-only target"), 0o444); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(f.dir, "broken.obj")
	if err := os.WriteFile(broken, []byte("v 0 0 0\nf 1 2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(f.dir, "fresh.out")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"build -o level", []string{"build", f.level, "-o", f.level}, 2, "-o " + f.level + " is the LEVEL " + f.level + ": refusing to overwrite an input"},
		{"build -o symlink", []string{"build", f.level, "-o", f.soft}, 2, "is the LEVEL"},
		{"build -o hard link", []string{"build", f.level, "-o", f.hard}, 2, "is the LEVEL"},
		{"build level via link", []string{"build", f.soft, "-o", f.level}, 2, "is the LEVEL " + f.soft},
		{"build -o offmesh", []string{"build", f.level, "--offmesh", f.links, "-o", f.links}, 2, "is the --offmesh " + f.links},
		{"build --cpuprofile level", []string{"build", f.level, "--cpuprofile", f.level}, 2, "--cpuprofile " + f.level + " is the LEVEL"},
		{"build --cpuprofile offmesh", []string{"build", f.level, "--offmesh", f.links, "--cpuprofile", f.links}, 2, "is the --offmesh"},
		{"build -o and --cpuprofile", []string{"build", f.level, "-o", fresh, "--cpuprofile", fresh}, 2, "-o " + fresh + " and --cpuprofile " + fresh + " are the same file"},
		{"build -o read-only", []string{"build", broken, "-o", ro}, 1, "-o: atomicfile: " + ro + " is read-only (mode -r--r--r--)"},
		{"build --cpuprofile read-only", []string{"build", broken, "--cpuprofile", ro}, 1, "--cpuprofile: atomicfile: " + ro + " is read-only"},
		{"shot -o level", []string{"shot", "--level", f.level, "-o", f.level}, 2, "-o " + f.level + " is the --level " + f.level},
		{"shot -o hard link", []string{"shot", "--level", f.hard, "-o", f.level}, 2, "is the --level"},
		{"shot -o read-only", []string{"shot", "--level", broken, "-o", ro}, 1, "is read-only"},
		{"export -o read-only", []string{"export-level", "terrain", "-o", ro}, 1, "is read-only"},
		{"hashmatrix -o read-only", []string{"hashmatrix", "-o", ro}, 1, "is read-only"},
		{"bench --cpuprofile level", []string{"bench", "--level", f.level, "--points", f.points, "--cpuprofile", f.level}, 2, "--cpuprofile " + f.level + " is the LEVEL"},
		{"bench --cpuprofile points", []string{"bench", "--level", f.level, "--points", f.points, "--cpuprofile", f.points}, 2, "is the --points " + f.points},
		{"bench --cpuprofile read-only", []string{"bench", "--level", broken, "--auto-points", "1", "--cpuprofile", ro}, 1, "is read-only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := map[string][]byte{}
			for _, p := range []string{f.level, f.links, f.points, ro} {
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				before[p] = b
			}
			names := dirEntries(t, f.dir)
			code, out, stderr := runCmd(t, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Errorf("code %d, stderr %q; want %d and %q", code, stderr, tc.code, tc.want)
			}
			if strings.Contains(stderr, "face index") || out != "" {
				t.Errorf("the command ran before its output was checked: stdout %q, stderr %q", out, stderr)
			}
			for p, b := range before {
				if got, err := os.ReadFile(p); err != nil || !bytes.Equal(got, b) {
					t.Errorf("%s changed: %q (%v), was %q", p, got, err, b)
				}
			}
			if after := dirEntries(t, f.dir); !slices.Equal(after, names) {
				t.Errorf("directory holds %q, was %q", after, names)
			}
		})
	}
}

// TestCPUProfileWriteError: a profile that cannot be written (/dev/full)
// is an error after the run, exit 1, naming the flag.
func TestCPUProfileWriteError(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	f := writeRefuseFiles(t)
	code, _, stderr := runCmd(t, "build", f.level, "--cpuprofile", "/dev/full")
	if code != 1 || !strings.Contains(stderr, "--cpuprofile /dev/full") || !strings.Contains(stderr, "no space left on device") {
		t.Errorf("code %d, stderr %q; want 1 and the write error", code, stderr)
	}
}
