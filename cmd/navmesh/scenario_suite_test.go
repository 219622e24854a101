package main

import (
	"encoding/xml"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// junitFile is what the tests read back of a --junit file.
type junitFile struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Errors   int `xml:"errors,attr"`
	Suites   []struct {
		Name  string `xml:"name,attr"`
		Cases []struct {
			Name    string `xml:"name,attr"`
			Failure *struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			Error *struct {
				Message string `xml:"message,attr"`
			} `xml:"error"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func readJUnit(t *testing.T, path string) junitFile {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var j junitFile
	if err := xml.Unmarshal(b, &j); err != nil {
		t.Fatalf("%s does not parse: %v\n%s", path, err, b)
	}
	return j
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// perturb paints a 20x20 yellow block into the PNG at path.
func perturb(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	out := image.NewRGBA(img.Bounds())
	draw.Draw(out, out.Bounds(), img, image.Point{}, draw.Src)
	draw.Draw(out, image.Rect(40, 10, 60, 30), image.NewUniform(color.RGBA{255, 255, 0, 255}), image.Point{}, draw.Src)
	w, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := png.Encode(w, out); err != nil {
		t.Fatal(err)
	}
}

// TestScenarioJUnitSingle: a perturbed golden makes --compare exit 1;
// index.html names the failing shot; --junit has a testcase per shot and
// one for report.json, a <failure> with the diff path on that shot; the
// JUnit file is checked as an output (not an input, not a directory).
func TestScenarioJUnitSingle(t *testing.T) {
	dir, file := writeScenario(t, smallScenario)
	out, golden, junit := filepath.Join(dir, "out"), filepath.Join(dir, "golden"), filepath.Join(dir, "junit.xml")
	if code, _, stderr := runCmd(t, "scenario", file, "-o", out, "--compare", golden, "--update"); code != 0 {
		t.Fatalf("--update: code %d, stderr %q", code, stderr)
	}
	perturb(t, filepath.Join(golden, "carved.png"))
	code, stdout, stderr := runCmd(t, "scenario", file, "-o", out, "--compare", golden, "--junit", junit)
	if code != 1 || !strings.Contains(stdout, "FAIL carved") || !strings.Contains(stderr, "1 of 2 shots differ") {
		t.Fatalf("perturbed golden: code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	page := readText(t, filepath.Join(out, "index.html"))
	for _, want := range []string{`<article class="shot fail" id="shot-carved"`, `src="carved.golden.png"`, `src="carved.diff.png"`, `<article class="shot pass" id="shot-plain"`} {
		if !strings.Contains(page, want) {
			t.Errorf("index.html lacks %s", want)
		}
	}
	j := readJUnit(t, junit)
	if j.Tests != 3 || j.Failures != 1 || len(j.Suites) != 1 || j.Suites[0].Name != "small" {
		t.Fatalf("junit: %+v, want one suite small of 3 tests, 1 failure", j)
	}
	var names []string
	for _, c := range j.Suites[0].Cases {
		names = append(names, c.Name)
		if (c.Failure != nil) != (c.Name == "carved") {
			t.Errorf("testcase %s: failure %+v", c.Name, c.Failure)
		}
		if c.Failure != nil && !strings.Contains(c.Failure.Text, filepath.Join(out, "carved.diff.png")) {
			t.Errorf("carved's failure does not name the diff: %q", c.Failure.Text)
		}
	}
	if strings.Join(names, " ") != "plain carved report.json" {
		t.Errorf("testcases %v, want plain carved report.json", names)
	}
	// --junit - writes the XML to stdout, the text to stderr.
	code, stdout, stderr = runCmd(t, "scenario", file, "-o", out, "--compare", golden, "--junit", "-")
	if code != 1 || !strings.HasPrefix(stdout, "<?xml") || !strings.Contains(stderr, "FAIL carved") {
		t.Errorf("--junit -: code %d, stdout %.80q, stderr %.200q", code, stdout, stderr)
	}
	for _, c := range []struct {
		junit string
		code  int
		want  string
	}{
		{file, 2, "is the FILE"},
		{dir, 1, "--junit"},
	} {
		if code, _, stderr := runCmd(t, "scenario", file, "-o", out, "--junit", c.junit); code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("--junit %s: code %d, stderr %q; want %d and %q", c.junit, code, stderr, c.code, c.want)
		}
	}
	// A failing step still gives a JUnit file: one testcase with an error.
	bad := filepath.Join(dir, "bad.scenario.json")
	if err := os.WriteFile(bad, []byte(strings.Replace(smallScenario, `{"update": "all"}`, `{"remove_obstacle": "q"}`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := runCmd(t, "scenario", bad, "-o", filepath.Join(dir, "bad.out"), "--junit", junit); code != 1 {
		t.Errorf("failing step: code %d", code)
	}
	if j := readJUnit(t, junit); j.Errors != 1 || j.Suites[0].Cases[0].Error == nil || !strings.Contains(j.Suites[0].Cases[0].Error.Message, `remove_obstacle "q"`) {
		t.Errorf("failing step's junit: %+v", j)
	}
}

// TestScenarioSuite: several files (or a directory) write DIR/NAME per
// scenario, compare NAME with GOLDEN_DIR/NAME.golden, and DIR/index.html
// links each; a failing scenario does not stop the others.
func TestScenarioSuite(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "scen")
	if err := os.Mkdir(src, 0o755); err != nil {
		t.Fatal(err)
	}
	a, b := filepath.Join(src, "a.scenario.json"), filepath.Join(src, "b.scenario.json")
	for _, f := range []string{a, b} {
		if err := os.WriteFile(f, []byte(smallScenario), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, junit := filepath.Join(dir, "out"), filepath.Join(dir, "junit.xml")
	if code, stdout, stderr := runCmd(t, "scenario", a, b, "-o", out, "--compare", src, "--update"); code != 0 {
		t.Fatalf("--update: code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	for _, f := range []string{"a.golden/carved.png", "b.golden/report.json"} {
		if _, err := os.Stat(filepath.Join(src, f)); err != nil {
			t.Errorf("--update of a suite: %v", err)
		}
	}
	code, stdout, stderr := runCmd(t, "scenario", src, "-o", out, "--compare", src, "--junit", junit)
	if code != 0 || !strings.Contains(stdout, "== a (") || !strings.Contains(stdout, "2 scenarios, 0 failed") {
		t.Fatalf("a directory: code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	for _, f := range []string{"index.html", "a/index.html", "a/carved.png", "b/index.html", "b/report.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("suite output: %v", err)
		}
	}
	index := readText(t, filepath.Join(out, "index.html"))
	for _, want := range []string{`<a href="a/index.html">a</a>`, `<a href="b/index.html">b</a>`, `<b class="pass-text">2 pass</b>`} {
		if !strings.Contains(index, want) {
			t.Errorf("the suite's index.html lacks %s", want)
		}
	}
	if j := readJUnit(t, junit); len(j.Suites) != 2 || j.Tests != 6 || j.Failures != 0 {
		t.Errorf("suite junit: %+v, want 2 suites, 6 tests, no failure", j)
	}
	// b's golden perturbed, a third scenario failing a step: all run,
	// exit 1 naming both.
	perturb(t, filepath.Join(src, "b.golden", "carved.png"))
	c := filepath.Join(dir, "c.scenario.json")
	if err := os.WriteFile(c, []byte(strings.Replace(smallScenario, `{"update": "all"}`, `{"remove_obstacle": "q"}`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runCmd(t, "scenario", c, a, b, "-o", out, "--compare", src, "--junit", junit)
	if code != 1 || !strings.Contains(stderr, "2 of 3 scenarios failed") || !strings.Contains(stderr, "b: 1 of 2 shots differ") || !strings.Contains(stderr, `c: `) {
		t.Errorf("failing suite: code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	index = readText(t, filepath.Join(out, "index.html"))
	for _, want := range []string{`<b class="fail-text">2 fail</b>`, `<tr class="fail">`, `<tr class="error">`, `remove_obstacle &#34;q&#34;`} {
		if !strings.Contains(index, want) {
			t.Errorf("the failing suite's index.html lacks %s", want)
		}
	}
	if j := readJUnit(t, junit); len(j.Suites) != 3 || j.Errors != 1 || j.Failures != 1 {
		t.Errorf("failing suite junit: %+v, want 3 suites, 1 error, 1 failure", j)
	}
	// --json prints every scenario.
	if _, stdout, _ = runCmd(t, "scenario", a, b, "-o", out, "--compare", src, "--json"); !strings.Contains(stdout, `"scenarios": [`) || strings.Count(stdout, `"final_mesh_hash"`) != 2 {
		t.Errorf("suite --json: %.300s", stdout)
	}
	// Usage errors: two scenarios of one name, an empty directory.
	other := filepath.Join(dir, "a.scenario.json")
	if err := os.WriteFile(other, []byte(smallScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{a, other}, {empty}} {
		if code, _, stderr := runCmd(t, append([]string{"scenario", "-o", out}, args...)...); code != 2 {
			t.Errorf("%v: code %d, stderr %q; want a usage error", args, code, stderr)
		}
	}
}

// TestScenarioExamplesSuite: the six examples into one directory give one
// index with six entries, all passing (what make scenarios runs).
func TestScenarioExamplesSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every example")
	}
	examples := filepath.Join("..", "..", "testdata", "scenarios")
	files, _ := filepath.Glob(filepath.Join(examples, "*.scenario.json"))
	out, junit := filepath.Join(t.TempDir(), "out"), filepath.Join(t.TempDir(), "junit.xml")
	code, stdout, stderr := runCmd(t, append(append([]string{"scenario"}, files...), "-o", out, "--compare", examples, "--junit", junit)...)
	if code != 0 || len(files) != 6 {
		t.Fatalf("%d examples: code %d, stdout %q, stderr %q", len(files), code, stdout, stderr)
	}
	index := readText(t, filepath.Join(out, "index.html"))
	if n := strings.Count(index, `<tr class="pass">`); n != 6 || !strings.Contains(index, `<b class="pass-text">6 pass</b>`) {
		t.Errorf("the index has %d passing rows, want 6", n)
	}
	if j := readJUnit(t, junit); len(j.Suites) != 6 || j.Failures != 0 || j.Errors != 0 {
		t.Errorf("junit: %d suites, %d failures, %d errors", len(j.Suites), j.Failures, j.Errors)
	}
}
