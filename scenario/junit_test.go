package scenario

import (
	"bytes"
	"encoding/xml"
	"errors"
	"strconv"
	"strings"
	"testing"
)

// junitDoc is what the test reads back of WriteJUnit's XML (as a CI
// system would).
type junitDoc struct {
	XMLName xml.Name `xml:"testsuites"`
	Tests   int      `xml:"tests,attr"`
	Fail    int      `xml:"failures,attr"`
	Errors  int      `xml:"errors,attr"`
	Suites  []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Errors   int    `xml:"errors,attr"`
		Time     string `xml:"time,attr"`
		Cases    []struct {
			Name      string `xml:"name,attr"`
			ClassName string `xml:"classname,attr"`
			Time      string `xml:"time,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			Error *struct {
				Message string `xml:"message,attr"`
			} `xml:"error"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// TestWriteJUnit: the XML parses; a testsuite per scenario, a testcase
// per shot and one for report.json, a <failure> with the line and the
// diff path on the failing shot and on the report, times from the
// timings; a failed run is one testcase with an <error>.
func TestWriteJUnit(t *testing.T) {
	res, cmp, out := failingRun(t)
	var buf bytes.Buffer
	entries := []SuiteEntry{
		{File: "small.scenario.json", Name: "small", Dir: out, Result: res, Compare: cmp},
		{File: "bad.scenario.json", Name: "bad", Err: errors.New("bad.scenario.json: step 2: <nope> & more")},
	}
	if err := WriteJUnit(&buf, entries); err != nil {
		t.Fatal(err)
	}
	var doc junitDoc
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("the JUnit XML does not parse: %v\n%s", err, buf.String())
	}
	if doc.Tests != 4 || doc.Fail != 2 || doc.Errors != 1 || len(doc.Suites) != 2 {
		t.Fatalf("testsuites: %d tests, %d failures, %d errors, %d suites; want 4, 2, 1, 2\n%s", doc.Tests, doc.Fail, doc.Errors, len(doc.Suites), buf.String())
	}
	s := doc.Suites[0]
	var names []string
	for _, c := range s.Cases {
		names = append(names, c.Name)
		if c.ClassName != "small" {
			t.Errorf("testcase %s: classname %q, want small", c.Name, c.ClassName)
		}
		if _, err := strconv.ParseFloat(c.Time, 64); err != nil {
			t.Errorf("testcase %s: time %q: %v", c.Name, c.Time, err)
		}
	}
	if s.Name != "small" || strings.Join(names, " ") != "plain carved report.json" || s.Tests != 3 || s.Failures != 2 {
		t.Fatalf("suite %s: testcases %v, %d tests, %d failures; want plain carved report.json, 3, 2", s.Name, names, s.Tests, s.Failures)
	}
	if s.Cases[0].Failure != nil {
		t.Errorf("the passing shot has a failure: %+v", s.Cases[0].Failure)
	}
	f := s.Cases[1].Failure
	if f == nil || !strings.HasPrefix(f.Message, "FAIL carved: ") || !strings.Contains(f.Text, "carved.diff.png") || !strings.Contains(f.Text, "carved.png") {
		t.Errorf("the failing shot's failure: %+v", f)
	}
	if f := s.Cases[2].Failure; f == nil || !strings.Contains(f.Message, "final_mesh_hash") {
		t.Errorf("report.json's failure: %+v", f)
	}
	// The shot's time is its step's.
	for _, tm := range res.Timings {
		if tm.Step == res.Report.Steps[len(res.Report.Steps)-1].Step && seconds(tm.Duration) != s.Cases[1].Time {
			t.Errorf("carved's time %s, want its step's %s", s.Cases[1].Time, seconds(tm.Duration))
		}
	}
	bad := doc.Suites[1]
	if bad.Errors != 1 || len(bad.Cases) != 1 || bad.Cases[0].Error == nil || !strings.Contains(bad.Cases[0].Error.Message, "<nope> & more") {
		t.Errorf("the failed run's suite: %+v", bad)
	}
}
