package geom

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// buildPackages are the packages whose arithmetic must give the same bits on
// every platform: everything that takes part in a build or a cache rebuild.
// core/level is not scanned: its generators halve and quarter lengths
// (x - w/2), which the compiler turns into exact products by powers of two
// that it then fuses, harmlessly; their pinned OBJ hashes are checked at
// GOAMD64=v3, where the same fusions happen.
var buildPackages = []string{
	"geom", "voxel", "region", "contour", "polymesh", "navmesh", "pipeline",
}

// TestNoFusedMultiplyAdd compiles every build package (buildPackages and the
// tile cache) for arm64, whose Go compiler fuses a*b+c unless the product is
// rounded by an explicit conversion, and fails if a fused multiply-add
// instruction appears in any of them (DESIGN.md's determinism rule).
// NAVVIZ_FMA_ALL_ARCHS=1 also checks riscv64, ppc64le, s390x and amd64 at
// GOAMD64=v3 (slow on a cold build cache: the standard library is compiled
// for each).
func TestNoFusedMultiplyAdd(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles the build packages; skipped in -short mode")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go tool not in PATH: %v", err)
	}
	fused := regexp.MustCompile(`\b(FN?MADD[SD]?|FN?MSUB[SD]?|VFN?MADD\w*|VFN?MSUB\w*|WFN?MA\w*|WFN?MS\w*)\b`)
	archs := []struct{ goarch, env string }{{"arm64", ""}}
	if os.Getenv("NAVVIZ_FMA_ALL_ARCHS") != "" {
		archs = append(archs, []struct{ goarch, env string }{
			{"riscv64", ""}, {"ppc64le", ""}, {"s390x", ""}, {"amd64", "GOAMD64=v3"},
		}...)
	}
	pkgs := []string{"navviz/tilecache"}
	for _, p := range buildPackages {
		pkgs = append(pkgs, "navviz/core/"+p)
	}
	for _, arch := range archs {
		for _, pkg := range pkgs {
			out := filepath.Join(t.TempDir(), filepath.Base(pkg)+".a")
			build := exec.Command(goTool, "build", "-o", out, pkg)
			build.Env = append(build.Environ(), "GOOS=linux", "GOARCH="+arch.goarch, "CGO_ENABLED=0")
			if arch.env != "" {
				build.Env = append(build.Env, arch.env)
			}
			if msg, err := build.CombinedOutput(); err != nil {
				t.Fatalf("GOARCH=%s go build %s: %v\n%s", arch.goarch, pkg, err, msg)
			}
			// Only the package's own symbols: its archive also holds inlined
			// standard-library code, which is not ours to check.
			dump := exec.Command(goTool, "tool", "objdump", "-s", "^"+regexp.QuoteMeta(pkg)+`\.`, out)
			dump.Env = build.Env
			asm, err := dump.Output()
			if err != nil {
				t.Fatalf("GOARCH=%s go tool objdump %s: %v", arch.goarch, pkg, err)
			}
			if len(asm) == 0 {
				t.Fatalf("GOARCH=%s: objdump printed nothing for %s", arch.goarch, pkg)
			}
			for _, line := range strings.Split(string(asm), "\n") {
				if fused.MatchString(line) {
					t.Errorf("GOARCH=%s %s %s: fused multiply-add: %s", arch.goarch, arch.env, pkg, line)
				}
			}
		}
	}
}
