package scenario

import (
	"image"
	"image/draw"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// failingRun runs a small terrain scenario (shots "plain" and "carved",
// 160x100, an obstacle updated between them) into out, compared with the
// goldens in golden: carved's golden has a 20x20 block changed and the
// golden report another final mesh hash, so the shot and the report
// fail. It returns the run, the comparison and out, where index.html has
// been written with the comparison.
func failingRun(t testing.TB) (res *Result, cmp *Comparison, out string) {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "small"+FileExt)
	src := terrainScenario(`{"camera": {"view": "top", "frame_level": true}},
		{"shot": {"name": "plain", "size": "160x100"}},
		` + addPillar + `, {"update": "all"},
		{"overlays": {"show": ["cache-polys", "obstacles"]}},
		{"shot": {"name": "carved", "size": "160x100"}}`)
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := RunFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out, golden := filepath.Join(dir, "out"), filepath.Join(dir, "golden")
	if err := res.Write(out); err != nil {
		t.Fatal(err)
	}
	rgba := image.NewRGBA(res.Shots[1].Image.Bounds())
	draw.Draw(rgba, rgba.Bounds(), res.Shots[1].Image, image.Point{}, draw.Src)
	goldens := []Shot{res.Shots[0], {Name: "carved", Image: changeBlock(rgba, image.Rect(60, 30, 80, 50), 90)}}
	if err := UpdateGoldens(goldens, golden); err != nil {
		t.Fatal(err)
	}
	rep := res.Report
	rep.FinalMeshHash = "0123456789abcdef"
	if err := UpdateGoldenReport(&rep, golden); err != nil {
		t.Fatal(err)
	}
	cmp = &Comparison{GoldenDir: golden}
	if cmp.Shots, err = CompareGoldens(res.Shots, golden, out, DefaultThreshold, DefaultTolerancePct); err != nil {
		t.Fatal(err)
	}
	if cmp.Report, err = CompareReport(&res.Report, golden); err != nil {
		t.Fatal(err)
	}
	if n, repFailed := cmp.Failures(); n != 1 || !repFailed {
		t.Fatalf("the compare found %d failing shots, report failed %v: want 1 and true", n, repFailed)
	}
	if err := res.WriteIndex(out, cmp); err != nil {
		t.Fatal(err)
	}
	return res, cmp, out
}

func readIndex(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestWriteIndexFailing: the page of a failing compare names the failing
// shot, shows its golden copy, new picture and difference (relative
// URLs, files that exist), the box, the passing shot's golden where it
// lies, and the report's difference; it loads nothing from the network.
func TestWriteIndexFailing(t *testing.T) {
	_, cmp, out := failingRun(t)
	page := readIndex(t, out)
	plainGolden := relURL(out, filepath.Join(cmp.GoldenDir, "plain.png"))
	for _, want := range []string{
		`<article class="shot fail" id="shot-carved"`,
		`<article class="shot pass" id="shot-plain"`,
		`src="carved.golden.png"`, `src="carved.png"`, `src="carved.diff.png"`,
		`src="` + plainGolden + `"`,
		`FAIL carved: `, `box 60,30-79,49`,
		`class="box" style="left: 37.5000%; top: 30.0000%; width: 12.5000%; height: 20.0000%"`,
		`<code>final_mesh_hash</code></td><td><code>&#34;`, `<code>&#34;0123456789abcdef&#34;</code>`,
		`2 shots: <b class="pass-text">1 pass</b>`,
		`type="range" class="swipe"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("index.html lacks %s", want)
		}
	}
	if plainGolden != "../golden/plain.png" {
		t.Errorf("the passing shot's golden is at %q, want ../golden/plain.png", plainGolden)
	}
	for _, f := range []string{"carved.golden.png", "carved.png", "carved.diff.png"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("the page shows %s: %v", f, err)
		}
	}
	for _, bad := range []string{"http:", "https:", "//", "<link rel=\"stylesheet\"", "<script src"} {
		if bad == "//" {
			// Comments in the script are //; a protocol-relative URL
			// would be in an attribute.
			bad = `="//`
		}
		if strings.Contains(page, bad) {
			t.Errorf("index.html holds %q: it must load nothing from elsewhere", bad)
		}
	}
}

// TestWriteIndexSections: without a compare the page shows the new
// pictures only, and every section the report has figures for: the
// repairs (from-scratch layers highlighted), the paths, the agents, the
// steps; text from the report is escaped.
func TestWriteIndexSections(t *testing.T) {
	rep := testReport()
	rep.Level = `<script>alert("level")</script>.obj`
	rep.Steps[1].Update.Layers = append(rep.Steps[1].Update.Layers,
		LayerLine{TX: 1, TZ: 0, Layer: 1, Verdict: "(c) split: region 2", Contours: "-"})
	rep.Steps = append(rep.Steps, StepReport{Step: 5, Kind: KindShot, Did: "shot", Shot: &ShotReport{Name: "s", File: "s.png", Width: 8, Height: 4}})
	res := &Result{Report: *rep}
	dir := t.TempDir()
	if err := res.WriteIndex(dir, nil); err != nil {
		t.Fatal(err)
	}
	page := readIndex(t, dir)
	for _, want := range []string{
		`&lt;script&gt;alert(&#34;level&#34;)&lt;/script&gt;.obj`,
		`<span class="badge new">not compared</span>`,
		`<article class="shot new" id="shot-s"`, `src="s.png"`,
		`id="repairs"`, `<tr class="repaired"><td>1,0</td><td>0</td>`,
		`<tr class="scratch"><td>1,0</td><td>1</td><td>from scratch</td>`, `(c) split: region 2`,
		`<td>12.50</td><td>4</td><td>9</td>`,
		`id="figures"`, `<td>4</td><td>1</td><td>60</td><td>1.00</td>`,
		`<code>00000000000000aa</code> after the first build, <code>00000000000000bb</code>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("index.html lacks %s", want)
		}
	}
	for _, bad := range []string{"<script>alert", `class="diff"`, `swipe`} {
		if bad == "swipe" {
			bad = `type="range"`
		}
		if strings.Contains(page, bad) {
			t.Errorf("index.html holds %s", bad)
		}
	}
}

// TestWriteSuiteIndex: the suite page links each scenario's page
// relatively, with its verdict, and names a failed run's error.
func TestWriteSuiteIndex(t *testing.T) {
	res, cmp, out := failingRun(t)
	dir := filepath.Dir(out)
	ok := &Comparison{Shots: []ShotCompare{{Name: "plain"}, {Name: "carved"}}, Report: &ReportCompare{}}
	entries := []SuiteEntry{
		{File: "a.scenario.json", Name: "a", Dir: out, Result: res, Compare: cmp},
		{File: "b.scenario.json", Name: "b", Dir: filepath.Join(dir, "b"), Result: res, Compare: ok},
		{File: "c.scenario.json", Name: "c", Dir: filepath.Join(dir, "c"), Err: os.ErrPermission},
	}
	if err := WriteSuiteIndex(dir, entries); err != nil {
		t.Fatal(err)
	}
	page := readIndex(t, dir)
	for _, want := range []string{
		`<h1>3 scenarios <span class="badge fail">FAIL</span>`,
		`<b class="pass-text">1 pass</b>, <b class="fail-text">2 fail</b>`,
		`<a href="out/index.html">a</a>`, `<td>1 of 2 pass</td><td>FAIL: 1 difference</td>`,
		`<a href="b/index.html">b</a>`, `<td>2 of 2 pass</td><td>ok</td>`,
		`<tr class="error">`, `permission denied`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the suite's index.html lacks %s", want)
		}
	}
	if got := []string{entries[0].Status(), entries[1].Status(), entries[2].Status(), (&SuiteEntry{Result: res}).Status()}; strings.Join(got, " ") != "fail pass error new" {
		t.Errorf("statuses %v, want fail pass error new", got)
	}
}
