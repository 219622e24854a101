package polymesh

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// TestNoFusedMultiplyAdd compiles this package for arm64, whose Go compiler
// fuses a*b+c unless the product is rounded by an explicit conversion, and
// fails if a fused multiply-add instruction appears in it (the detail
// stage's float32 arithmetic must give the same bits on every platform).
func TestNoFusedMultiplyAdd(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles the package; skipped in -short mode")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not in PATH")
	}
	out := filepath.Join(t.TempDir(), "polymesh.a")
	build := exec.Command(goTool, "build", "-o", out, ".")
	build.Env = append(build.Environ(), "GOOS=linux", "GOARCH=arm64", "CGO_ENABLED=0")
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("GOARCH=arm64 go build: %v\n%s", err, msg)
	}
	dump := exec.Command(goTool, "tool", "objdump", "-s", `^navviz/core/polymesh\.`, out)
	dump.Env = build.Env
	asm, err := dump.Output()
	if err != nil {
		t.Fatalf("go tool objdump: %v", err)
	}
	fused := regexp.MustCompile(`\bFN?M(ADD|SUB)[SD]?\b`)
	for _, line := range regexp.MustCompile(`(?m)^.*$`).FindAll(asm, -1) {
		if fused.Match(line) {
			t.Errorf("fused multiply-add: %s", line)
		}
	}
	if len(asm) == 0 {
		t.Error("objdump printed nothing for the package")
	}
}
