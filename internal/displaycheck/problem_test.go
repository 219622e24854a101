package displaycheck

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestProblem(t *testing.T) {
	for _, tc := range []struct {
		name      string
		env       map[string]string
		reachable bool
		want      string // a substring of the message, "" for no problem
	}{
		{"no display", nil, true, "DISPLAY is not set; run navviz in a desktop session or under xvfb-run -a"},
		{"empty display", map[string]string{"DISPLAY": ""}, true, "DISPLAY is not set"},
		{"wayland only", map[string]string{"WAYLAND_DISPLAY": "wayland-0"}, true, "navviz needs X11 (under Wayland enable XWayland"},
		{"local reachable", map[string]string{"DISPLAY": ":0"}, true, ""},
		{"local screen reachable", map[string]string{"DISPLAY": ":1.0"}, true, ""},
		{"local unreachable", map[string]string{"DISPLAY": ":99"}, false, "no X server answers on DISPLAY=:99 (/tmp/.X11-unix/X99)"},
		{"unix form unreachable", map[string]string{"DISPLAY": "unix:3.1"}, false, "(/tmp/.X11-unix/X3)"},
		{"remote not probed", map[string]string{"DISPLAY": "localhost:10.0"}, false, ""},
		{"malformed left to Ebitengine", map[string]string{"DISPLAY": ":x"}, false, ""},
		{"check off", map[string]string{"NAVVIZ_NO_DISPLAY_CHECK": "1"}, false, ""},
		{"check off 0 means on", map[string]string{"NAVVIZ_NO_DISPLAY_CHECK": "0"}, false, "DISPLAY is not set"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			getenv := func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
			probed := ""
			reach := func(n string) bool { probed = n; return tc.reachable }
			got := problem(getenv, reach)
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("problem = %q, want %q", got, tc.want)
			}
			if strings.Contains(got, "\n") {
				t.Errorf("message %q is more than one line", got)
			}
			if d := tc.env["DISPLAY"]; strings.HasPrefix(d, "localhost") && probed != "" {
				t.Errorf("remote display %s probed as local %s", d, probed)
			}
		})
	}
}

func TestLocalDisplay(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    string
		isOK bool
	}{
		{":0", "0", true},
		{":12.3", "12", true},
		{"unix:5", "5", true},
		{"unix:5.0", "5", true},
		{"localhost:10.0", "", false},
		{"host.example:0", "", false},
		{":", "", false},
		{":.0", "", false},
		{":1x", "", false},
		{"", "", false},
	} {
		n, ok := localDisplay(tc.in)
		if n != tc.n || ok != tc.isOK {
			t.Errorf("localDisplay(%q) = %q, %v; want %q, %v", tc.in, n, ok, tc.n, tc.isOK)
		}
	}
}

// TestImportsOnlySyscall guards the init-order argument of the package
// doc: this package imports nothing but syscall, gate nothing but syscall
// and this package.
func TestImportsOnlySyscall(t *testing.T) {
	for _, tc := range []struct {
		dir     string
		allowed []string
	}{
		{".", []string{"syscall"}},
		{"gate", []string{"syscall", "navviz/internal/displaycheck"}},
	} {
		files, err := filepath.Glob(filepath.Join(tc.dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		n := 0
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			n++
			for _, imp := range af.Imports {
				if p, _ := strconv.Unquote(imp.Path.Value); !slices.Contains(tc.allowed, p) {
					t.Errorf("%s imports %q: the check could then run after Ebitengine's init", f, p)
				}
			}
		}
		if n == 0 {
			t.Fatalf("no source files in %s", tc.dir)
		}
	}
}
