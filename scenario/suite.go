package scenario

import (
	"bytes"
	"fmt"
	"path/filepath"
	"time"
)

// SuiteEntry is one scenario of a run of several (navmesh scenario with
// several files or a directory), as the suite's index page and the JUnit
// file see it.
type SuiteEntry struct {
	// File is the scenario file, Name its base name (BaseName), Dir its
	// output directory.
	File, Name, Dir string
	// Result is the run (nil when it failed: Err says why); Compare the
	// compare with goldens (nil without one).
	Result  *Result
	Compare *Comparison
	Err     error
}

// Status is "error" (the run failed), "fail" (a compare failed), "pass"
// (the compare passed) or "new" (run, not compared).
func (e *SuiteEntry) Status() string {
	switch {
	case e == nil || e.Err != nil || e.Result == nil:
		return "error"
	case e.Compare == nil:
		return "new"
	case e.Compare.Failed():
		return "fail"
	}
	return "pass"
}

// suiteRow is one scenario on the suite page.
type suiteRow struct {
	Status, Name, File, Href, Error string
	Level, Shots, Report            string
	FinalMeshHash, TotalMs          string
}

// WriteSuiteIndex writes dir/index.html, the page linking each
// scenario's own report (its Dir/index.html, relatively) with its
// verdict, level, shot and report counts and mesh hash.
func WriteSuiteIndex(dir string, entries []SuiteEntry) error {
	data := struct {
		Entries  []suiteRow
		Failed   int
		Compared bool
	}{}
	for i := range entries {
		e := &entries[i]
		r := suiteRow{Status: e.Status(), Name: e.Name, File: e.File}
		if r.Status == "fail" || r.Status == "error" {
			data.Failed++
		}
		if e.Compare != nil {
			data.Compared = true
		}
		if e.Result == nil {
			r.Error = "the run failed, nothing written"
			if e.Err != nil {
				r.Error = e.Err.Error()
			}
			data.Entries = append(data.Entries, r)
			continue
		}
		r.Href = relURL(dir, filepath.Join(e.Dir, IndexFile))
		rep := &e.Result.Report
		r.Level, r.FinalMeshHash = rep.Level, rep.FinalMeshHash
		r.TotalMs = millis(e.Result.totalTime())
		shots := 0
		for _, s := range rep.Steps {
			if s.Shot != nil {
				shots++
			}
		}
		r.Shots, r.Report = fmt.Sprintf("%d shots", shots), "written"
		if c := e.Compare; c != nil {
			failed, repFailed := c.Failures()
			r.Shots, r.Report = fmt.Sprintf("%d of %d pass", shots-failed, shots), "ok"
			switch {
			case c.Report == nil:
				r.Report = "not compared"
			case c.Report.Problem != "":
				r.Report = "FAIL: " + c.Report.Problem
			case repFailed:
				r.Report = "FAIL: " + plural(len(c.Report.Diffs)+c.Report.More, "difference")
			}
		}
		data.Entries = append(data.Entries, r)
	}
	var buf bytes.Buffer
	if err := reportTmpl.ExecuteTemplate(&buf, "suite", &data); err != nil {
		return fmt.Errorf("scenario: %s: %w", IndexFile, err)
	}
	return (&Result{}).writeOutput(dir, IndexFile, buf.Bytes())
}

// totalTime returns the build time plus every step's.
func (res *Result) totalTime() time.Duration {
	total := res.BuildTime
	for _, t := range res.Timings {
		total += t.Duration
	}
	return total
}
