package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"navviz/scenario"
)

// runScenario implements
//
//	navmesh scenario FILE... [-o DIR] [--compare GOLDEN_DIR] [--tolerance PCT]
//	                 [--threshold N] [--update] [--junit FILE] [--json]
//
// It plays the scenario file headless (package scenario: the level, its
// tile cache, the steps) and, when every step succeeded, writes one PNG
// per shot step, the snapshot files, report.json, timings.json and
// index.html (the HTML report) into DIR (default: the file's base name
// without .scenario.json, plus .out, in the current directory); a failing
// step writes nothing. --compare compares each shot with
// GOLDEN_DIR/NAME.png (scenario.Compare: a pixel differs when a channel
// differs by more than --threshold; a shot fails when more than
// --tolerance percent of its pixels differ), writes DIR/NAME.diff.png and
// DIR/NAME.golden.png for each failing shot, prints one line per shot and
// exits 1 when any failed or had no golden. --compare also compares
// report.json with GOLDEN_DIR/report.json field by field
// (scenario.CompareReport), printing a FAIL line per difference naming
// the step and the field, and exits 1 when any differs; index.html then
// shows the comparisons. --update writes the shots and report.json as the
// goldens of GOLDEN_DIR instead. --junit writes the JUnit XML of the run
// (scenario.WriteJUnit). --json prints the report and the comparisons as
// one JSON object instead of text.
//
// Several FILEs, or a directory (its *.scenario.json), make a suite: each
// scenario NAME writes into DIR/NAME (DIR's default: scenarios.out) and
// compares with GOLDEN_DIR/NAME.golden, a failing one does not stop the
// others, and DIR/index.html links every scenario's report.
func runScenario(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("scenario", "FILE... [-o DIR] [--compare GOLDEN_DIR] [--tolerance PCT] [--threshold N] [--update] [--junit FILE] [--find Q] [--json]", stdout)
	out := fs.String("o", "", "output `directory` (default: FILE's base name without .scenario.json, plus .out; with several scenarios, scenarios.out)")
	golden := fs.String("compare", "", "compare each shot with the same-named PNG in `GOLDEN_DIR`, and report.json with its report.json (with several scenarios: GOLDEN_DIR/NAME.golden)")
	tol := fs.Float64("tolerance", scenario.DefaultTolerancePct, "a shot fails when more than this `percent` of its pixels differ")
	thr := fs.Int("threshold", scenario.DefaultThreshold, "a pixel differs when a channel differs by more than `N` (0-255)")
	update := fs.Bool("update", false, "write the shots and report.json as the goldens of --compare's directory instead of comparing")
	junit := fs.String("junit", "", "write the JUnit XML report to `FILE` (one testsuite per scenario, one testcase per shot and one for report.json)")
	asJSON := fs.Bool("json", false, "print the report and the comparisons as JSON")
	findQ := fs.String("find", "", "print the steps where `Q` happens: "+scenario.FindSyntax)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	var find *scenario.Find
	if *findQ != "" {
		f, err := scenario.ParseFind(*findQ)
		if err != nil {
			return usageError{err}
		}
		find = &f
	}
	files, suite, err := scenarioFiles(pos)
	if err != nil {
		return err
	}
	switch {
	case *thr < 0 || *thr > 255:
		return usagef("invalid --threshold %d: want 0 to 255", *thr)
	case math.IsNaN(*tol) || *tol < 0 || *tol > 100:
		return usagef("invalid --tolerance %v: want a percentage, 0 to 100", *tol)
	case *update && *golden == "":
		return usagef("--update needs --compare GOLDEN_DIR (the directory to write)")
	case *junit != "" && *asJSON && isStdout(*junit):
		return usagef("--junit %s and --json both write to the standard output", *junit)
	}
	dir := *out
	switch {
	case dir != "":
	case suite:
		dir = "scenarios.out"
	default:
		dir = scenario.DefaultOutDir(files[0])
	}
	var ins []fileArg
	plays := make([]scenarioPlay, len(files))
	for i, f := range files {
		p := &plays[i]
		p.entry = scenario.SuiteEntry{File: f, Name: scenario.BaseName(f), Dir: dir}
		p.golden = *golden
		if suite {
			p.entry.Dir = filepath.Join(dir, p.entry.Name)
			if *golden != "" {
				p.golden = filepath.Join(*golden, p.entry.Name+scenario.GoldenExt)
			}
		}
		if p.golden != "" && sameDir(p.entry.Dir, p.golden) {
			return usagef("-o %s is the golden directory: the shots would overwrite the goldens they are compared with", p.entry.Dir)
		}
		ins = append(ins, fileArg{"FILE", f})
	}
	if err := checkOutputs([]fileArg{{"--junit", *junit}}, ins); err != nil {
		return err
	}
	// The text report goes to stderr when the JUnit XML takes stdout.
	w := stdout
	if *junit != "" && isStdout(*junit) {
		w = stderr
	}
	bw := &errWriter{w: w}
	opts := scenarioOpts{threshold: *thr, tolerance: *tol, update: *update, asJSON: *asJSON, find: find, findQ: *findQ}
	var entries []scenario.SuiteEntry
	var failures []string
	for i := range plays {
		p := &plays[i]
		if suite && !*asJSON {
			bw.printf("== %s (%s)\n", p.entry.Name, p.entry.File)
		}
		failure, err := p.play(&opts, bw)
		entries = append(entries, p.entry)
		if err != nil && !suite {
			if jerr := writeJUnit(*junit, stdout, entries); jerr != nil {
				return errors.Join(err, jerr)
			}
			return err
		}
		if err != nil {
			bw.printf("%s: %v\n", p.entry.Name, err)
			failure = err.Error()
		}
		if failure != "" && !suite {
			failures = append(failures, failure)
		} else if failure != "" {
			failures = append(failures, fmt.Sprintf("%s: %s", p.entry.Name, failure))
		}
	}
	if suite {
		if err := scenario.WriteSuiteIndex(dir, entries); err != nil {
			return err
		}
		if !*asJSON {
			bw.printf("wrote %s: %d scenarios, %d failed\n", filepath.Join(dir, scenario.IndexFile), len(entries), len(failures))
		}
	}
	if err := writeJUnit(*junit, stdout, entries); err != nil {
		return err
	}
	if *asJSON {
		var v any = &plays[0].json
		if suite {
			all := struct {
				OutDir    string          `json:"out_dir"`
				Scenarios []*scenarioJSON `json:"scenarios"`
			}{OutDir: dir}
			for i := range plays {
				all.Scenarios = append(all.Scenarios, &plays[i].json)
			}
			v = &all
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			return err
		}
	}
	if bw.err != nil {
		return bw.err
	}
	if len(failures) == 0 {
		return nil
	}
	if *asJSON {
		for _, p := range plays {
			for _, l := range p.failLines {
				fmt.Fprintln(stderr, l)
			}
		}
	}
	if !suite {
		return errors.New(failures[0])
	}
	return fmt.Errorf("%d of %d scenarios failed (see %s):\n  %s", len(failures), len(entries),
		filepath.Join(dir, scenario.IndexFile), strings.Join(failures, "\n  "))
}

// scenarioFiles returns the scenario files the arguments name (a
// directory names its *.scenario.json, sorted) and whether they make a
// suite: several arguments or a directory. Two scenarios of one base name
// would write one output directory: a usage error.
func scenarioFiles(args []string) (files []string, suite bool, err error) {
	if len(args) == 0 {
		return nil, false, usagef("missing FILE (a scenario file, see docs/scenario.md)")
	}
	seen := map[string]string{}
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil || !fi.IsDir() {
			// A file that does not exist fails when the run reads it.
			files = append(files, a)
			continue
		}
		suite = true
		found, err := filepath.Glob(filepath.Join(a, "*"+scenario.FileExt))
		if err != nil {
			return nil, false, fmt.Errorf("scenario directory %s: %w", a, err)
		}
		if len(found) == 0 {
			return nil, false, usagef("scenario directory %s holds no *%s file", a, scenario.FileExt)
		}
		files = append(files, found...)
	}
	for _, f := range files {
		name := scenario.BaseName(f)
		if prev, ok := seen[name]; ok {
			return nil, false, usagef("%s and %s are both scenario %q: their outputs would be one directory", prev, f, name)
		}
		seen[name] = f
	}
	return files, suite || len(files) > 1, nil
}

// scenarioOpts are the flags that shape every scenario's play.
type scenarioOpts struct {
	threshold int
	tolerance float64
	update    bool
	asJSON    bool
	// find is --find's query (nil without it), findQ its text.
	find  *scenario.Find
	findQ string
}

// scenarioJSON is what --json prints of a scenario.
type scenarioJSON struct {
	File          string                  `json:"file,omitempty"`
	OutDir        string                  `json:"out_dir"`
	Error         string                  `json:"error,omitempty"`
	Report        *scenario.Report        `json:"report"`
	Compare       []scenario.ShotCompare  `json:"compare,omitempty"`
	ReportCompare *scenario.ReportCompare `json:"report_compare,omitempty"`
	// Found are the steps --find matched (absent without --find).
	Found []scenario.Found `json:"found,omitempty"`
}

// scenarioPlay is one scenario of the command line: its entry in the
// suite (the run and the compare), its golden directory ("" without
// --compare), what --json prints and the FAIL lines.
type scenarioPlay struct {
	entry     scenario.SuiteEntry
	golden    string
	json      scenarioJSON
	failLines []string
}

// play runs the scenario, writes its outputs and compares it (or updates
// its goldens), printing the text lines to bw unless --json. It returns
// the compare's failure ("" when it passed or nothing was compared); err
// is a failed step or output.
func (p *scenarioPlay) play(o *scenarioOpts, bw *errWriter) (failure string, err error) {
	e := &p.entry
	p.json = scenarioJSON{File: e.File, OutDir: e.Dir}
	defer func() {
		if err != nil {
			e.Err, p.json.Error = err, err.Error()
		}
	}()
	t0 := time.Now()
	res, err := scenario.RunFile(e.File)
	if err != nil {
		return "", err
	}
	runTime := time.Since(t0)
	if err := res.Write(e.Dir); err != nil {
		return "", err
	}
	e.Result, p.json.Report = res, &res.Report
	switch {
	case o.update:
		if err := scenario.UpdateGoldens(res.Shots, p.golden); err != nil {
			return "", err
		}
		if err := scenario.UpdateGoldenReport(&res.Report, p.golden); err != nil {
			return "", err
		}
	case p.golden != "":
		cmp := &scenario.Comparison{GoldenDir: p.golden}
		if cmp.Shots, err = scenario.CompareGoldens(res.Shots, p.golden, e.Dir, o.threshold, o.tolerance); err != nil {
			return "", err
		}
		if cmp.Report, err = scenario.CompareReport(&res.Report, p.golden); err != nil {
			return "", err
		}
		if err := res.WriteIndex(e.Dir, cmp); err != nil {
			return "", err
		}
		e.Compare, p.json.Compare, p.json.ReportCompare = cmp, cmp.Shots, cmp.Report
	}
	if o.find != nil {
		p.json.Found = o.find.Steps(&res.Report)
	}
	if !o.asJSON {
		for _, s := range res.Report.Steps {
			bw.printf("step %d %s: %s\n", s.Step, s.Kind, s.Did)
		}
		if o.find != nil {
			for _, f := range p.json.Found {
				bw.printf("find %s: step %d %s: %s\n", o.findQ, f.Step, f.Kind, f.Why)
			}
			if len(p.json.Found) == 0 {
				bw.printf("find %s: no step\n", o.findQ)
			}
		}
		bw.printf("wrote %d shots, %s and %s to %s in %v (build %v)\n", len(res.Shots), scenario.ReportFile, scenario.IndexFile,
			e.Dir, runTime.Round(time.Millisecond), res.BuildTime.Round(time.Millisecond))
		if o.update {
			bw.printf("updated %d goldens and %s in %s\n", len(res.Shots), scenario.ReportFile, p.golden)
		}
	}
	if e.Compare == nil {
		return "", nil
	}
	for _, c := range e.Compare.Shots {
		if !o.asJSON {
			bw.printf("%s\n", c.Line())
		}
		if c.Failed {
			p.failLines = append(p.failLines, c.Line())
		}
	}
	for _, l := range e.Compare.Report.Lines() {
		if !o.asJSON {
			bw.printf("%s\n", l)
		}
		if e.Compare.Report.Failed {
			p.failLines = append(p.failLines, l)
		}
	}
	failed, repFailed := e.Compare.Failures()
	if failed == 0 && !repFailed {
		return "", nil
	}
	what := fmt.Sprintf("%d of %d shots differ", failed, len(e.Compare.Shots))
	switch {
	case repFailed && failed == 0:
		what = scenario.ReportFile + " differs"
	case repFailed:
		what += " and " + scenario.ReportFile + " differs"
	}
	return fmt.Sprintf("%s from the goldens in %s", what, p.golden), nil
}

// writeJUnit writes the entries' JUnit XML to path (nothing when path is
// ""; the standard output when it names it).
func writeJUnit(path string, stdout io.Writer, entries []scenario.SuiteEntry) error {
	if path == "" {
		return nil
	}
	return writeOutput(path, stdout, func(w io.Writer) error { return scenario.WriteJUnit(w, entries) })
}

// sameDir reports whether paths a and b name the same directory (after
// cleaning and making them absolute).
func sameDir(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}
