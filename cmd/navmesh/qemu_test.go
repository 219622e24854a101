package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// requireQemuEnv, when set (make test sets it), turns a missing
// qemu-aarch64 from a skip into a failure, so CI cannot pass without the
// arm64 check.
const requireQemuEnv = "NAVVIZ_REQUIRE_QEMU"

// arm64Runner returns the command prefix that runs a linux/arm64 binary
// here: nothing on an arm64 Linux host, qemu-aarch64 (or
// qemu-aarch64-static) from qemu-user elsewhere, called explicitly so that
// no binfmt registration is needed. It skips the test when neither exists,
// or fails it when requireQemuEnv is set.
func arm64Runner(t *testing.T) []string {
	t.Helper()
	if runtime.GOOS == "linux" && runtime.GOARCH == "arm64" {
		return nil
	}
	for _, name := range []string{"qemu-aarch64", "qemu-aarch64-static"} {
		if path, err := exec.LookPath(name); err == nil {
			return []string{path}
		}
	}
	const msg = "qemu-aarch64 not found (Debian package qemu-user, installed by make deps): the arm64 determinism checks are not run"
	if os.Getenv(requireQemuEnv) != "" {
		t.Fatalf("%s, and %s is set", msg, requireQemuEnv)
	}
	t.Skip(msg)
	return nil
}

// arm64Tool returns the go command and a context bounding the arm64 runs;
// it skips the test in -short mode.
func arm64Tool(t *testing.T) (goTool string, ctx context.Context) {
	t.Helper()
	if testing.Short() {
		t.Skip("cross-compiles for arm64 and runs under qemu; skipped in -short mode")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go tool not in PATH: %v", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	t.Cleanup(cancel)
	return goTool, ctx
}

// goArm64 runs the go command with args for linux/arm64 with cgo off.
func goArm64(ctx context.Context, t *testing.T, goTool string, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(ctx, goTool, args...)
	cmd.Env = append(cmd.Environ(), "GOOS=linux", "GOARCH=arm64", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("GOARCH=arm64 go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// runArm64 runs the linux/arm64 binary bin with args in dir through runner
// and returns its standard output; it fails the test when bin fails.
func runArm64(ctx context.Context, t *testing.T, runner []string, dir, bin string, args ...string) string {
	t.Helper()
	argv := append(append(runner[:len(runner):len(runner)], bin), args...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("arm64 %s %s: %v\n%s%s", filepath.Base(bin), strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	t.Logf("arm64 %s %s: %v", filepath.Base(bin), strings.Join(args, " "), time.Since(start).Round(time.Millisecond))
	return stdout.String()
}

// TestArm64MatchesGolden cross-compiles navmesh for linux/arm64 (cgo off)
// and runs it under qemu-user, where Go may fuse multiply-adds: its hash
// matrix must equal the pinned table (testdata/hashmatrix, the file
// TestHashMatrixGolden compares on the host), and the city's plain build
// (navmesh build city -o) and both generated levels (export-level) must be
// byte-identical to this host's.
func TestArm64MatchesGolden(t *testing.T) {
	goTool, ctx := arm64Tool(t)
	runner := arm64Runner(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "navmesh-arm64")
	goArm64(ctx, t, goTool, "build", "-o", bin, ".")

	want, err := os.ReadFile(hashGolden)
	if err != nil {
		t.Fatal(err)
	}
	if got := runArm64(ctx, t, runner, ".", bin, "hashmatrix"); got != string(want) {
		t.Errorf("arm64 hash matrix differs from %s: %s", hashGolden, firstLineDiff(got, string(want)))
	}

	for _, args := range [][]string{
		{"build", "city"},
		{"export-level", "city"},
		{"export-level", "terrain"},
	} {
		name := strings.Join(args, "-")
		hostOut, armOut := filepath.Join(dir, name+"-host"), filepath.Join(dir, name+"-arm64")
		if code, _, errOut := runCmd(t, append(args, "-o", hostOut)...); code != 0 {
			t.Fatalf("navmesh %s: code %d, stderr %q", strings.Join(args, " "), code, errOut)
		}
		runArm64(ctx, t, runner, ".", bin, append(args, "-o", armOut)...)
		h, err := os.ReadFile(hostOut)
		if err != nil {
			t.Fatal(err)
		}
		a, err := os.ReadFile(armOut)
		if err != nil {
			t.Fatal(err)
		}
		if len(h) == 0 || !bytes.Equal(h, a) {
			t.Errorf("navmesh %s -o: %d bytes on %s, %d on arm64, not identical", strings.Join(args, " "), len(h), runtime.GOARCH, len(a))
		}
	}
}

// TestArm64PinnedBits runs, on linux/arm64 under qemu-user, the unit tests
// that pin float64 bits the float32 outputs above can hide: the
// deterministic SinCos and Hypot, the orientation predicate, the generated
// levels' OBJ hashes and the terrain's float64 heights (which arm64 got
// wrong in the last bit while smoothstep's product was left unrounded).
func TestArm64PinnedBits(t *testing.T) {
	goTool, ctx := arm64Tool(t)
	runner := arm64Runner(t)
	dir := t.TempDir()
	for _, pkg := range []struct {
		path, dir string
		tests     []string
	}{
		{"navviz/core/geom", "../../core/geom", []string{"TestSinCosBits", "TestSinCosSpecial", "TestHypot", "TestOrient2DTable"}},
		{"navviz/core/level", "../../core/level", []string{"TestRNG", "TestTerrainHeightBits", "TestTerrainDeterministic", "TestCityDeterministic"}},
	} {
		bin := filepath.Join(dir, filepath.Base(pkg.path)+".test")
		goArm64(ctx, t, goTool, "test", "-c", "-o", bin, pkg.path)
		out := runArm64(ctx, t, runner, pkg.dir, bin, "-test.run", "^("+strings.Join(pkg.tests, "|")+")$", "-test.v", "-test.count=1")
		for _, name := range pkg.tests {
			if !strings.Contains(out, "--- PASS: "+name+" ") {
				t.Errorf("arm64 %s: %s did not pass:\n%s", pkg.path, name, out)
			}
		}
	}
}

// firstLineDiff describes the first line where got and want differ.
func firstLineDiff(got, want string) string {
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(gl) && i < len(wl); i++ {
		if gl[i] != wl[i] {
			return fmt.Sprintf("line %d:\n got  %s\n want %s", i+1, gl[i], wl[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(gl), len(wl))
}
