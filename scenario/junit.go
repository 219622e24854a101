package scenario

import (
	"encoding/xml"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"
)

// The JUnit XML that CI systems read (GitHub Actions' test reporters,
// GitLab's artifacts:reports:junit, Jenkins' junit step): one testsuite
// per scenario, one testcase per shot and one for report.json
// (docs/scenario.md, "JUnit").

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Time       string          `xml:"time,attr"`
	File       string          `xml:"file,attr,omitempty"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
}

// junitProblem is a <failure> or an <error>: the message, its type and
// the text (every line, the pictures' paths).
type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",cdata"`
}

// seconds writes d in seconds, as JUnit's time attributes are.
func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// WriteJUnit writes the entries as JUnit XML to w: per scenario a
// testsuite named after it, holding a testcase per shot (its time the
// shot step's, from the timings) and one named report.json (the build
// and every other step); a failing shot's <failure> has its verdict line
// and the paths of the difference picture, the golden and the new
// picture, report.json's has a line per difference. A scenario whose run
// failed has one testcase, "run", with an <error>.
func WriteJUnit(w io.Writer, entries []SuiteEntry) error {
	all := junitSuites{Name: "navmesh scenario"}
	var total time.Duration
	for i := range entries {
		s, d := junitSuiteOf(&entries[i])
		all.Suites = append(all.Suites, s)
		all.Tests += s.Tests
		all.Failures += s.Failures
		all.Errors += s.Errors
		total += d
	}
	all.Time = seconds(total)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(&all); err != nil {
		return fmt.Errorf("scenario: JUnit XML: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// junitSuiteOf returns the testsuite of e and its time.
func junitSuiteOf(e *SuiteEntry) (junitSuite, time.Duration) {
	s := junitSuite{Name: e.Name, File: e.File}
	if e.Result == nil {
		msg := "the run failed"
		if e.Err != nil {
			msg = e.Err.Error()
		}
		s.Cases = []junitCase{{Name: "run", ClassName: e.Name, File: e.File, Time: seconds(0),
			Error: &junitProblem{Message: msg, Type: "scenario", Text: msg}}}
		s.Tests, s.Errors, s.Time = 1, 1, seconds(0)
		return s, 0
	}
	res := &e.Result.Report
	s.Properties = []junitProperty{{"level", res.Level}, {"mesh_hash", res.MeshHash}, {"final_mesh_hash", res.FinalMeshHash}, {"out_dir", e.Dir}}
	durations := map[int]time.Duration{}
	for _, t := range e.Result.Timings {
		durations[t.Step] = t.Duration
	}
	byName := map[string]*ShotCompare{}
	var repCmp *ReportCompare
	if e.Compare != nil {
		for i := range e.Compare.Shots {
			byName[e.Compare.Shots[i].Name] = &e.Compare.Shots[i]
		}
		repCmp = e.Compare.Report
	}
	total := e.Result.totalTime()
	rest := total
	for _, st := range res.Steps {
		if st.Shot == nil {
			continue
		}
		d := durations[st.Step]
		rest -= d
		tc := junitCase{Name: st.Shot.Name, ClassName: e.Name, File: e.File, Time: seconds(d)}
		c := byName[st.Shot.Name]
		switch {
		case e.Compare != nil && c == nil:
			tc.Failure = &junitProblem{Message: "not compared", Type: "screenshot", Text: "shot " + st.Shot.Name + " was not compared"}
		case c != nil && c.Failed:
			text := []string{c.Line(), "new:    " + filepath.Join(e.Dir, st.Shot.File), "golden: " + c.Golden}
			if c.DiffFile != "" {
				text = append(text, "diff:   "+c.DiffFile)
			}
			text = append(text, "report: "+filepath.Join(e.Dir, IndexFile))
			tc.Failure = &junitProblem{Message: c.Line(), Type: "screenshot", Text: strings.Join(text, "\n")}
		}
		s.Cases = append(s.Cases, tc)
	}
	tc := junitCase{Name: ReportFile, ClassName: e.Name, File: e.File, Time: seconds(rest)}
	if repCmp != nil && repCmp.Failed {
		lines := repCmp.Lines()
		msg := lines[0]
		if n := len(repCmp.Diffs) + repCmp.More; repCmp.Problem == "" && n > 1 {
			msg = fmt.Sprintf("%s differs from %s in %d fields; first: %s", ReportFile, repCmp.Golden, n, lines[0])
		}
		tc.Failure = &junitProblem{Message: msg, Type: "report", Text: strings.Join(lines, "\n")}
	}
	s.Cases = append(s.Cases, tc)
	for _, c := range s.Cases {
		if c.Failure != nil {
			s.Failures++
		}
	}
	s.Tests, s.Time = len(s.Cases), seconds(total)
	return s, total
}
