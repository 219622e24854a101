package geom

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// TestNoFusedMultiplyAdd compiles this package for arm64, whose Go compiler
// fuses a*b+c unless the product is rounded by an explicit conversion, and
// fails if any fused multiply-add instruction appears. It guards the
// determinism rule (same bits on every platform) that SinCos and Orient2D
// rely on. NAVVIZ_FMA_ALL_ARCHS=1 also checks riscv64, ppc64le, s390x and
// amd64 at GOAMD64=v3 (slow on a cold build cache: the standard library is
// compiled for each).
func TestNoFusedMultiplyAdd(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles the package; skipped in -short mode")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not in PATH")
	}
	fused := regexp.MustCompile(`\b(FN?MADD[SD]?|FN?MSUB[SD]?|VFN?MADD\w*|VFN?MSUB\w*|WFN?MA\w*|WFN?MS\w*)\b`)
	archs := []struct{ goarch, env string }{{"arm64", ""}}
	if os.Getenv("NAVVIZ_FMA_ALL_ARCHS") != "" {
		archs = append(archs, []struct{ goarch, env string }{
			{"riscv64", ""}, {"ppc64le", ""}, {"s390x", ""}, {"amd64", "GOAMD64=v3"},
		}...)
	}
	for _, arch := range archs {
		out := filepath.Join(t.TempDir(), "geom.a")
		build := exec.Command(goTool, "build", "-o", out, ".")
		build.Env = append(build.Environ(), "GOOS=linux", "GOARCH="+arch.goarch, "CGO_ENABLED=0")
		if arch.env != "" {
			build.Env = append(build.Env, arch.env)
		}
		if msg, err := build.CombinedOutput(); err != nil {
			t.Fatalf("GOARCH=%s go build: %v\n%s", arch.goarch, err, msg)
		}
		dump := exec.Command(goTool, "tool", "objdump", out)
		dump.Env = build.Env
		asm, err := dump.Output()
		if err != nil {
			t.Fatalf("GOARCH=%s go tool objdump: %v", arch.goarch, err)
		}
		for _, line := range regexp.MustCompile(`(?m)^.*$`).FindAll(asm, -1) {
			if fused.Match(line) {
				t.Errorf("GOARCH=%s %s: fused multiply-add: %s", arch.goarch, arch.env, line)
			}
		}
	}
}
