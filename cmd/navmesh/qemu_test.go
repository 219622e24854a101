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

// requireQemuEnv, when set (make test sets it), turns a missing qemu-user
// emulator from a skip into a failure, so CI cannot pass without the
// cross-platform checks.
const requireQemuEnv = "NAVVIZ_REQUIRE_QEMU"

// qemuArchs are the GOARCH values on which Go fuses multiply-adds (see
// core/geom's fmaTargets) and the name of their qemu-user emulator.
var qemuArchs = []struct{ goarch, qemu string }{
	{"arm64", "aarch64"},
	{"ppc64le", "ppc64le"},
	{"s390x", "s390x"},
	{"riscv64", "riscv64"},
	{"loong64", "loongarch64"},
}

// crossTool returns the go command and a context bounding the emulated
// runs; it skips the test in -short mode.
func crossTool(t *testing.T) (goTool string, ctx context.Context) {
	t.Helper()
	if testing.Short() {
		t.Skip("cross-compiles and runs under qemu; skipped in -short mode")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go tool not in PATH: %v", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	t.Cleanup(cancel)
	return goTool, ctx
}

// qemuRunner returns the command prefix that runs a linux binary for
// goarch here: nothing on such a Linux host, else qemu-QEMU (or
// qemu-QEMU-static) from qemu-user, called explicitly so that no binfmt
// registration is needed. It skips the test when neither exists, or fails
// it when requireQemuEnv is set.
func qemuRunner(t *testing.T, goarch, qemu string) []string {
	t.Helper()
	if runtime.GOOS == "linux" && runtime.GOARCH == goarch {
		return nil
	}
	for _, name := range []string{"qemu-" + qemu, "qemu-" + qemu + "-static"} {
		if path, err := exec.LookPath(name); err == nil {
			return []string{path}
		}
	}
	msg := fmt.Sprintf("qemu-%s not found (Debian package qemu-user, installed by make deps): the %s determinism checks are not run", qemu, goarch)
	if os.Getenv(requireQemuEnv) != "" {
		t.Fatalf("%s, and %s is set", msg, requireQemuEnv)
	}
	t.Skip(msg)
	return nil
}

// goCross runs the go command with args for linux/goarch with cgo off.
func goCross(ctx context.Context, t *testing.T, goTool, goarch string, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(ctx, goTool, args...)
	cmd.Env = append(cmd.Environ(), "GOOS=linux", "GOARCH="+goarch, "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("GOARCH=%s go %s: %v\n%s", goarch, strings.Join(args, " "), err, out)
	}
}

// runUnder runs binary bin with args in dir through runner (see
// qemuRunner) and returns its standard output; it fails the test when bin
// fails.
func runUnder(ctx context.Context, t *testing.T, runner []string, dir, bin string, args ...string) string {
	t.Helper()
	argv := append(append(runner[:len(runner):len(runner)], bin), args...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s%s", strings.Join(argv, " "), err, stdout.String(), stderr.String())
	}
	t.Logf("%s %s: %v", filepath.Base(bin), strings.Join(args, " "), time.Since(start).Round(time.Millisecond))
	return stdout.String()
}

// TestArm64MatchesGolden cross-compiles navmesh for linux/arm64 (cgo off)
// and runs it under qemu-user, where Go may fuse multiply-adds: its hash
// matrix must equal the pinned table (testdata/hashmatrix, the file
// TestHashMatrixGolden compares on the host), and the city's plain build
// (navmesh build city -o), both generated levels (export-level) and the
// outputs of two example scenarios (PNGs and report.json) must be
// byte-identical to this host's. (ppc64le, s390x, riscv64 and loong64 give
// the same table too, but each run takes about 15 s under qemu, so only
// TestPinnedBitsUnderQemu runs there.)
func TestArm64MatchesGolden(t *testing.T) {
	goTool, ctx := crossTool(t)
	runner := qemuRunner(t, "arm64", "aarch64")
	dir := t.TempDir()
	bin := filepath.Join(dir, "navmesh-arm64")
	goCross(ctx, t, goTool, "arm64", "build", "-o", bin, ".")

	want, err := os.ReadFile(hashGolden)
	if err != nil {
		t.Fatal(err)
	}
	if got := runUnder(ctx, t, runner, ".", bin, "hashmatrix"); got != string(want) {
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
		runUnder(ctx, t, runner, ".", bin, append(args, "-o", armOut)...)
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

	// Scenario outputs (issue 9): every PNG and report.json byte-identical
	// (timings.json and index.html, which shows them, hold wall times and
	// are not compared).
	for _, name := range []string{"terrain-shapes", "path-reroute"} {
		file := filepath.Join("..", "..", "testdata", "scenarios", name+".scenario.json")
		hostDir, armDir := filepath.Join(dir, name+"-host"), filepath.Join(dir, name+"-arm64")
		if code, _, errOut := runCmd(t, "scenario", file, "-o", hostDir); code != 0 {
			t.Fatalf("navmesh scenario %s: code %d, stderr %q", file, code, errOut)
		}
		runUnder(ctx, t, runner, ".", bin, "scenario", file, "-o", armDir)
		entries, err := os.ReadDir(hostDir)
		if err != nil {
			t.Fatal(err)
		}
		compared := 0
		for _, e := range entries {
			if e.Name() == "timings.json" || e.Name() == "index.html" {
				continue
			}
			h, err := os.ReadFile(filepath.Join(hostDir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			a, err := os.ReadFile(filepath.Join(armDir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(h, a) {
				t.Errorf("navmesh scenario %s: %s differs between %s and arm64", name, e.Name(), runtime.GOARCH)
			}
			compared++
		}
		if compared < 2 {
			t.Errorf("navmesh scenario %s: only %d outputs compared", name, compared)
		}
	}
}

// TestPinnedBitsUnderQemu runs, on every target in qemuArchs under
// qemu-user, the unit tests that pin float64 bits the float32 outputs can
// hide: the deterministic SinCos and Hypot, the orientation predicate, the
// generated levels' OBJ hashes and the terrain's float64 heights (41 of
// which arm64 and riscv64 got wrong in the last bit while smoothstep's
// product was left unrounded).
func TestPinnedBitsUnderQemu(t *testing.T) {
	goTool, ctx := crossTool(t)
	pkgs := []struct {
		path, dir string
		tests     []string
	}{
		{"navviz/core/geom", "../../core/geom", []string{"TestSinCosBits", "TestSinCosSpecial", "TestHypot", "TestOrient2DTable"}},
		{"navviz/core/level", "../../core/level", []string{"TestRNG", "TestTerrainHeightBits", "TestTerrainDeterministic", "TestCityDeterministic"}},
	}
	for _, arch := range qemuArchs {
		t.Run(arch.goarch, func(t *testing.T) {
			runner := qemuRunner(t, arch.goarch, arch.qemu)
			dir := t.TempDir()
			for _, pkg := range pkgs {
				bin := filepath.Join(dir, filepath.Base(pkg.path)+".test")
				goCross(ctx, t, goTool, arch.goarch, "test", "-c", "-o", bin, pkg.path)
				out := runUnder(ctx, t, runner, pkg.dir, bin, "-test.run", "^("+strings.Join(pkg.tests, "|")+")$", "-test.v", "-test.count=1")
				for _, name := range pkg.tests {
					if !strings.Contains(out, "--- PASS: "+name+" ") {
						t.Errorf("%s %s: %s did not pass:\n%s", arch.goarch, pkg.path, name, out)
					}
				}
			}
		})
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
