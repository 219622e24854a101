package geom

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// fmaTargets are the targets on which Go 1.26 fuses a*b+c into one
// multiply-add with a single rounding, unless the product is rounded by an
// explicit conversion (float64(a*b) + c). Verified by compiling x*y+z, x*y-z
// and z-x*y for each: arm64, riscv64 and loong64 fuse all three forms,
// ppc64le and s390x the first two (ppc64 big-endian uses ppc64le's rules),
// and amd64 fuses x*y+z into VFMADD231SD/SS at GOAMD64=v3 and above (not at
// the default v1, where every pinned hash is made). `go tool objdump` cannot
// show the amd64 case: its decoder does not know VEX instructions and prints
// the VFMADD231SD bytes (c4 e2 f9 b9 ..) as a MOVL, so the guard reads the
// compiler's own listing (-gcflags=-S) on every target. 386, arm (VMLA, a
// multiply then a rounded add), mips and wasm do not fuse.
var fmaTargets = []struct {
	name string
	env  []string
}{
	{"arm64", []string{"GOARCH=arm64"}},
	{"ppc64le", []string{"GOARCH=ppc64le"}},
	{"s390x", []string{"GOARCH=s390x"}},
	{"riscv64", []string{"GOARCH=riscv64"}},
	{"loong64", []string{"GOARCH=loong64"}},
	{"amd64-v3", []string{"GOARCH=amd64", "GOAMD64=v3"}},
}

// fusedOp matches the mnemonic, as the Go compiler's -S listing spells it,
// of a fused multiply-add on any target: arm64, riscv64 and loong64
// F[N]M{ADD,SUB}{S,D,F}, ppc64 and s390x F[N]M{ADD,SUB}[S], amd64
// VF[N]M{ADD,SUB}*, and the vector forms (ppc64 XS/XV..MADD.., s390x
// VFMA/WFMADB.., arm64 VFMLA/VFMLS, loong64 [X]VFMADD..). It does not match
// integer multiply-adds (arm64 MADD, ppc64 MADDLD), arm's unfused VMLA
// (MULAD) or s390x's VFMAX.
var fusedOp = regexp.MustCompile(`^(FN?M(ADD|SUB)[SDF]?|X?VFN?M(ADD|SUB)\w*|X[SV]N?M(ADD|SUB)\w*|VFML[AS]|[VW]FN?M[AS]([DS]B)?)$`)

// inexactMath matches a call to a math function whose last bits may differ
// between targets: math.Hypot is assembly on amd64 and generic Go, compiled
// with fusion (1+q*q), on arm64 (they differ by two ulps at x = -4.5051e-07,
// y = 1.5098e-07; see TestHypot); the others are approximations built from
// fusable polynomials. Exact functions (Sqrt, Floor, Mod, Frexp, ...) are
// allowed. The listing names the callee as the compiler sees it after
// inlining the exported wrapper (math.pow, math.archHypot, math.Sincos), as
// the operand of CALL, or of JAL X1 on riscv64.
var inexactMath = regexp.MustCompile(`(?:^|[ ,$])math\.(?i:(arch)?(hypot|pow|exp|exp2|expm1|expmulti|log|log2|log10|log1p|sin|cos|tan|sincos|asin|acos|atan|atan2|sinh|cosh|tanh|asinh|acosh|atanh|cbrt|erf|erfc|erfinv|erfcinv|gamma|lgamma))\(SB\)`)

// mathName returns the math function a listing's callee symbol names, in
// lower case without "arch" (math.archHypot(SB) is math.hypot).
func mathName(sym string) string {
	m := inexactMath.FindStringSubmatch(sym)
	if m == nil {
		return sym
	}
	return "math." + strings.ToLower(m[2])
}

// inexactAllowed lists the functions that may call an inexact math
// function, with the reason: none of them feeds a build, a query, a
// snapshot or a pinned picture.
var inexactAllowed = map[string]string{
	// The interactive camera's wheel zoom (fractional steps); its
	// distance is clamped and never pinned.
	"navviz/render.(*Camera).Zoom": "math.pow",
}

// fmaProbe is compiled with the module's packages: it must show fused
// operations and an inexact call on every target, or the guard is blind.
const fmaProbe = "navviz/core/geom/testdata/fmaprobe"

// TestNoFusedMultiplyAdd compiles every package of the module whose
// floating-point results matter (all but ui and cmd: the build, the tile
// cache, inspect, queries, level generators and render) for every target
// in fmaTargets and fails on any fused multiply-add in the compiler's
// listing, or any call to an inexact math function (DESIGN.md's
// determinism rule). Inlined code counts: Vec3.Add(v.Scale(s)) fuses after
// inlining unless Scale rounds its products. The build cache replays the
// listings, so a warm run takes a few seconds; a cold one compiles the
// standard library once per target (about a minute each on two cores).
func TestNoFusedMultiplyAdd(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles the module for six targets; skipped in -short mode")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go tool not in PATH: %v", err)
	}
	list := exec.Command(goTool, "list", "-f", "{{if .GoFiles}}{{.ImportPath}}{{end}}", "navviz/...")
	out, err := list.Output()
	if err != nil {
		t.Fatalf("go list navviz/...: %v", err)
	}
	var pkgs []string
	for _, p := range strings.Fields(string(out)) {
		if p == "navviz/ui" || p == "navviz/cmd" || strings.HasPrefix(p, "navviz/cmd/") {
			continue
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found only %v", pkgs)
	}
	for _, target := range fmaTargets {
		build := exec.Command(goTool, append([]string{"build", "-gcflags=-S"}, append(pkgs, fmaProbe)...)...)
		build.Env = append(build.Environ(), "GOOS=linux", "CGO_ENABLED=0", "GOAMD64=v1")
		build.Env = append(build.Env, target.env...)
		var stderr bytes.Buffer
		build.Stdout, build.Stderr = &stderr, &stderr
		if err := build.Run(); err != nil {
			t.Fatalf("%s: go build -gcflags=-S: %v\n%.2000s", target.name, err, stderr.String())
		}
		listings := scanListings(stderr.Bytes())
		if p := listings[fmaProbe]; p == nil || len(p.fused) < 2 || len(p.inexact) < 1 {
			t.Fatalf("%s: the guard does not see the probe's fused multiply-adds or its math.Hypot call: %+v", target.name, p)
		}
		var counts []string
		for _, pkg := range pkgs {
			l := listings[pkg]
			if l == nil || l.funcs == 0 {
				t.Errorf("%s: no compiler listing for %s", target.name, pkg)
				continue
			}
			for _, f := range l.fused {
				t.Errorf("%s: fused multiply-add in %s", target.name, f)
			}
			for _, c := range l.inexact {
				if inexactAllowed[c.fn] != c.callee {
					t.Errorf("%s: %s calls %s, whose bits differ between targets", target.name, c.where, c.callee)
				}
			}
			if len(l.fused) > 0 {
				counts = append(counts, fmt.Sprintf("%s %d", pkg, len(l.fused)))
			}
		}
		t.Logf("%s: %d packages, fused multiply-adds: %v", target.name, len(pkgs), counts)
	}
}

// listing is what scanListings gathers from one package's compiler listing.
type listing struct {
	funcs   int      // functions listed
	fused   []string // "file:line func OP" of each fused multiply-add
	inexact []inexactCall
}

// inexactCall is a call to a function inexactMath matches.
type inexactCall struct {
	fn, callee, where string
}

// scanListings reads the output of go build -gcflags=-S: a "# pkg" line
// opens a package's listing, "pkg.Func STEXT ..." a function, and a line
// "\t0x0000 00000 (file.go:12)\tOP\tARGS" is an instruction.
func scanListings(out []byte) map[string]*listing {
	listings := map[string]*listing{}
	var cur *listing
	fn := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "# "):
			pkg := strings.TrimPrefix(line, "# ")
			if listings[pkg] == nil {
				listings[pkg] = &listing{}
			}
			cur = listings[pkg]
		case cur == nil:
		case strings.Contains(line, " STEXT"):
			fn = strings.Fields(line)[0]
			cur.funcs++
		case strings.HasPrefix(line, "\t"):
			f := strings.Split(line, "\t")
			if len(f) < 3 {
				continue
			}
			pos := f[1]
			if i := strings.IndexByte(pos, '('); i >= 0 {
				pos = strings.Trim(pos[i:], "()")
			}
			switch {
			case fusedOp.MatchString(f[2]):
				cur.fused = append(cur.fused, fmt.Sprintf("%s %s %s", pos, fn, f[2]))
			case len(f) > 3 && inexactMath.MatchString(f[3]):
				cur.inexact = append(cur.inexact, inexactCall{fn, mathName(f[3]), pos + " " + fn})
			}
		}
	}
	return listings
}

// TestFusedOpMnemonics checks fusedOp against the mnemonics the compiler
// prints for x*y+z and its variants on each target, and against
// look-alikes that are not fused.
func TestFusedOpMnemonics(t *testing.T) {
	fused := []string{
		"FMADDD", "FMADDS", "FMSUBD", "FMSUBS", "FNMADDD", "FNMADDS", "FNMSUBD", "FNMSUBS", "VFMLA", "VFMLS", // arm64, riscv64
		"FMADD", "FMSUB", "FNMADD", "FNMSUB", "XSMADDADP", "XVMADDMSP", "XSNMSUBADP", // ppc64, s390x
		"WFMADB", "WFMSDB", "VFMA", "VFMS", "WFNMASB", // s390x vector
		"FMADDF", "FMSUBF", "FNMADDF", "FNMSUBF", "VFMADDD", "XVFMSUBF", // loong64
		"VFMADD231SD", "VFMADD231SS", "VFMSUB213PD", "VFNMADD231SD", "VFMADDSUB213PS", // amd64
	}
	notFused := []string{
		"MADD", "MSUB", "MADDW", "MSUBW", "MADDLD", "MULAD", "MULSD", "MULSS", "FMULD", "FNMULD",
		"FADDD", "VFMAX", "WFMAXDB", "FMAXD", "VFMIN", "FMOVD", "VMULSD",
	}
	for _, op := range fused {
		if !fusedOp.MatchString(op) {
			t.Errorf("%s not recognised as fused", op)
		}
	}
	for _, op := range notFused {
		if fusedOp.MatchString(op) {
			t.Errorf("%s taken for a fused multiply-add", op)
		}
	}
	for _, c := range []struct {
		sym, name string // name "" when the call is allowed
	}{
		{"math.hypot(SB)", "math.hypot"}, {"math.archHypot(SB)", "math.hypot"}, {"math.pow(SB)", "math.pow"},
		{"math.archPow(SB)", "math.pow"}, {"math.Sincos(SB)", "math.sincos"}, {"math.sqrt(SB)", ""},
		{"math.floor(SB)", ""}, {"math.mod(SB)", ""}, {"math.Frexp(SB)", ""}, {"math.logb(SB)", ""},
		{"mymath.pow(SB)", ""}, {"math.power(SB)", ""}, {"X1, math.hypot(SB)", "math.hypot"},
	} {
		got := ""
		if inexactMath.MatchString(c.sym) {
			got = mathName(c.sym)
		}
		if got != c.name {
			t.Errorf("call %s: inexact %q, want %q", c.sym, got, c.name)
		}
	}
}
