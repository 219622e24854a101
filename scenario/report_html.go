package scenario

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// IndexFile is the HTML report of a run, written beside its pictures
// (docs/scenario.md, "The HTML report").
const IndexFile = "index.html"

// GoldenCopyExt ends the copy of a failing shot's golden in the output
// directory (NAME.golden.png), so the directory alone, uploaded as a CI
// artifact, shows the three pictures.
const GoldenCopyExt = ".golden.png"

//go:embed report_html.tmpl
var reportTmplText string

//go:embed report_html.css
var reportCSS string

//go:embed report_html.js
var reportJS string

// reportTmpl holds the two pages: "scenario" (one run) and "suite" (the
// index of several runs).
var reportTmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"css":    func() template.CSS { return template.CSS(reportCSS) },
	"js":     func() template.JS { return template.JS(reportJS) },
	"minus":  func(a, b int) int { return a - b },
	"plural": plural,
	// pic is the data of one picture of a shot: its URL, its class.
	"pic": func(src, class string, shot pageShot) any {
		return struct {
			Src, Class string
			Shot       pageShot
		}{src, class, shot}
	},
}).Parse(reportTmplText))

// Comparison is what a compare with goldens found: the shots'
// comparisons (CompareGoldens) and the report's (CompareReport).
type Comparison struct {
	// GoldenDir is the golden directory compared with.
	GoldenDir string
	Shots     []ShotCompare
	Report    *ReportCompare
}

// Failures returns the number of failing shots and whether the report
// failed (0, false for a nil Comparison: nothing was compared).
func (c *Comparison) Failures() (shots int, report bool) {
	if c == nil {
		return 0, false
	}
	for i := range c.Shots {
		if c.Shots[i].Failed {
			shots++
		}
	}
	return shots, c.Report != nil && c.Report.Failed
}

// Failed reports whether a shot or the report failed.
func (c *Comparison) Failed() bool {
	n, rep := c.Failures()
	return n > 0 || rep
}

// pageShot is one shot on the page; the pictures are URLs relative to
// the page ("" when there is none).
type pageShot struct {
	Name          string
	Step          int
	Width, Height int
	New, Golden   string
	Diff          string
	// GoldenPath names the golden as the comparison did (shown when the
	// picture is not at Golden).
	GoldenPath string
	// Status is "pass", "fail" or "new" (not compared); Line the verdict.
	Status, Line string
	Percent      string
	// Box is the differing box in percent of the picture, for the frame
	// drawn over it.
	Box *pageBox
}

type pageBox struct {
	Text                     string
	Left, Top, Width, Height string
}

// pageUpdate is an update step's rebuilt layers.
type pageUpdate struct {
	Step   int
	Update *UpdateReport
}

type pagePath struct {
	Step int
	Kind string
	Path *PathReport
}

type pageAgents struct {
	Step   int
	Agents *AgentsReport
}

type pageStep struct {
	Step       int
	Kind, Did  string
	MeshHash   string
	DurationMs string
}

// scenarioPage is the data of the "scenario" page.
type scenarioPage struct {
	Report      *Report
	Compared    bool
	GoldenDir   string
	Shots       []pageShot
	ShotsFailed int
	ReportCmp   *ReportCompare
	Updates     []pageUpdate
	Paths       []pagePath
	Agents      []pageAgents
	Steps       []pageStep
	BuildMs     string
	TotalMs     string
}

// WriteIndex writes DIR/index.html, the run's HTML report: the summary,
// each shot (with cmp: its golden, the new picture and the difference
// side by side, swipe and blink), the report's differences, the repair
// verdicts, the path and agent figures and the steps. Pictures are
// referenced relatively: the shots in dir, a failing shot's golden copy
// (NAME.golden.png, CompareGoldens), else the golden where it lies. Write
// calls it without cmp; a compare calls it again with its results.
func (res *Result) WriteIndex(dir string, cmp *Comparison) error {
	if res == nil {
		return errNilResult
	}
	data, err := res.indexHTML(dir, cmp)
	if err != nil {
		return err
	}
	return res.writeOutput(dir, IndexFile, data)
}

// indexHTML returns the bytes of WriteIndex's page.
func (res *Result) indexHTML(dir string, cmp *Comparison) ([]byte, error) {
	var buf bytes.Buffer
	if err := reportTmpl.ExecuteTemplate(&buf, "scenario", res.page(dir, cmp)); err != nil {
		return nil, fmt.Errorf("scenario: %s: %w", IndexFile, err)
	}
	return buf.Bytes(), nil
}

// writeOutput writes dir/name atomically, refusing an input of the run.
func (res *Result) writeOutput(dir, name string, data []byte) error {
	if dir == "" {
		return fmt.Errorf("scenario: %s: no output directory", name)
	}
	path := filepath.Join(dir, name)
	if in := res.inputOf(path); in != "" {
		return fmt.Errorf("scenario: output %s is the input %s: refusing to overwrite what the scenario read", path, in)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("scenario: output directory: %w", err)
	}
	if err := writeFile(path, data); err != nil {
		return fmt.Errorf("scenario: %w", err)
	}
	return nil
}

// page gathers the page's data from the report, the timings and cmp.
func (res *Result) page(dir string, cmp *Comparison) *scenarioPage {
	p := &scenarioPage{Report: &res.Report, Compared: cmp != nil, BuildMs: millis(res.BuildTime), TotalMs: millis(res.totalTime())}
	byName := map[string]*ShotCompare{}
	if cmp != nil {
		p.GoldenDir, p.ReportCmp = cmp.GoldenDir, cmp.Report
		p.ShotsFailed, _ = cmp.Failures()
		for i := range cmp.Shots {
			byName[cmp.Shots[i].Name] = &cmp.Shots[i]
		}
	}
	durations := map[int]time.Duration{}
	for _, t := range res.Timings {
		durations[t.Step] = t.Duration
	}
	for i := range res.Report.Steps {
		s := &res.Report.Steps[i]
		ps := pageStep{Step: s.Step, Kind: s.Kind, Did: s.Did, MeshHash: s.MeshHash}
		if d, ok := durations[s.Step]; ok {
			ps.DurationMs = millis(d)
		}
		p.Steps = append(p.Steps, ps)
		if s.Update != nil {
			p.Updates = append(p.Updates, pageUpdate{s.Step, s.Update})
		}
		if s.Path != nil {
			p.Paths = append(p.Paths, pagePath{s.Step, s.Kind, s.Path})
		}
		if s.Agents != nil {
			p.Agents = append(p.Agents, pageAgents{s.Step, s.Agents})
		}
		if s.Shot != nil {
			p.Shots = append(p.Shots, shotOnPage(dir, s.Step, s.Shot, byName[s.Shot.Name], cmp != nil))
		}
	}
	return p
}

// shotOnPage returns a shot as the page shows it.
func shotOnPage(dir string, step int, s *ShotReport, c *ShotCompare, compared bool) pageShot {
	ps := pageShot{Name: s.Name, Step: step, Width: s.Width, Height: s.Height, New: fileURL(s.File), Status: "new"}
	switch {
	case c == nil && compared:
		ps.Status, ps.Line = "fail", "FAIL "+s.Name+": not compared"
	case c == nil:
	default:
		ps.Status, ps.Line, ps.GoldenPath = "pass", c.Line(), c.Golden
		if c.Failed {
			ps.Status = "fail"
		}
		if c.Problem == "" {
			ps.Percent = fmt.Sprintf("%.3f", c.Percent)
		}
		if c.GoldenCopy != "" {
			ps.Golden = fileURL(filepath.Base(c.GoldenCopy))
		} else if _, err := os.Stat(c.Golden); err == nil {
			ps.Golden = relURL(dir, c.Golden)
		}
		if c.DiffFile != "" {
			ps.Diff = fileURL(filepath.Base(c.DiffFile))
		}
		if b := c.Diff.Box; !b.Empty() && c.Diff.Total > 0 && s.Width > 0 && s.Height > 0 {
			pct := func(v, of int) string { return fmt.Sprintf("%.4f%%", 100*float64(v)/float64(of)) }
			ps.Box = &pageBox{Text: c.Box, Left: pct(b.Min.X, s.Width), Top: pct(b.Min.Y, s.Height),
				Width: pct(b.Dx(), s.Width), Height: pct(b.Dy(), s.Height)}
		}
	}
	return ps
}

// fileURL returns a relative URL of the slash-separated path p, each
// element escaped.
func fileURL(p string) string {
	parts := strings.Split(filepath.ToSlash(p), "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// relURL returns the URL of file target relative to directory dir (""
// when there is none: the two share no root).
func relURL(dir, target string) string {
	ad, err1 := filepath.Abs(dir)
	at, err2 := filepath.Abs(target)
	if err1 != nil || err2 != nil {
		return ""
	}
	rel, err := filepath.Rel(ad, at)
	if err != nil {
		return ""
	}
	return fileURL(rel)
}

// plural writes n and what, with an s unless n is 1.
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// millis writes d in milliseconds, one decimal.
func millis(d time.Duration) string {
	return fmt.Sprintf("%.1f", float64(d)/float64(time.Millisecond))
}
