package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"time"

	"navviz/scenario"
)

// runScenario implements
//
//	navmesh scenario FILE [-o DIR] [--compare GOLDEN_DIR] [--tolerance PCT]
//	                 [--threshold N] [--update] [--json]
//
// It plays the scenario file headless (package scenario: the level, its
// tile cache, the steps) and, when every step succeeded, writes one PNG
// per shot step, the snapshot files, report.json and timings.json into
// DIR (default: the file's base name without .scenario.json, plus .out,
// in the current directory); a failing step writes nothing. --compare
// compares each shot with GOLDEN_DIR/NAME.png (scenario.Compare: a pixel
// differs when a channel differs by more than --threshold; a shot fails
// when more than --tolerance percent of its pixels differ), writes
// DIR/NAME.diff.png for each failing shot, prints one line per shot and
// exits 1 when any failed or had no golden. --compare also compares
// report.json with GOLDEN_DIR/report.json field by field
// (scenario.CompareReport), printing a FAIL line per difference naming
// the step and the field, and exits 1 when any differs. --update writes
// the shots and report.json as the goldens of GOLDEN_DIR instead. --json
// prints the report and the comparisons as one JSON object instead of
// text.
func runScenario(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("scenario", "FILE [-o DIR] [--compare GOLDEN_DIR] [--tolerance PCT] [--threshold N] [--update] [--json]", stdout)
	out := fs.String("o", "", "output `directory` (default: FILE's base name without .scenario.json, plus .out)")
	golden := fs.String("compare", "", "compare each shot with the same-named PNG in `GOLDEN_DIR`, and report.json with its report.json")
	tol := fs.Float64("tolerance", scenario.DefaultTolerancePct, "a shot fails when more than this `percent` of its pixels differ")
	thr := fs.Int("threshold", scenario.DefaultThreshold, "a pixel differs when a channel differs by more than `N` (0-255)")
	update := fs.Bool("update", false, "write the shots and report.json as the goldens of --compare's directory instead of comparing")
	asJSON := fs.Bool("json", false, "print the report and the comparisons as JSON")
	file, err := parseOneArg(fs, args, "FILE (a scenario file, see docs/scenario.md)")
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
	}
	dir := *out
	if dir == "" {
		dir = scenario.DefaultOutDir(file)
	}
	if *golden != "" && sameDir(dir, *golden) {
		return usagef("-o %s is the golden directory: the shots would overwrite the goldens they are compared with", dir)
	}
	t0 := time.Now()
	res, err := scenario.RunFile(file)
	if err != nil {
		return err
	}
	runTime := time.Since(t0)
	if err := res.Write(dir); err != nil {
		return err
	}
	var cmps []scenario.ShotCompare
	var repCmp *scenario.ReportCompare
	failed := 0
	switch {
	case *update:
		if err := scenario.UpdateGoldens(res.Shots, *golden); err != nil {
			return err
		}
		if err := scenario.UpdateGoldenReport(&res.Report, *golden); err != nil {
			return err
		}
	case *golden != "":
		if cmps, err = scenario.CompareGoldens(res.Shots, *golden, dir, *thr, *tol); err != nil {
			return err
		}
		for _, c := range cmps {
			if c.Failed {
				failed++
			}
		}
		if repCmp, err = scenario.CompareReport(&res.Report, *golden); err != nil {
			return err
		}
	}
	bw := &errWriter{w: stdout}
	if *asJSON {
		v := struct {
			OutDir        string                  `json:"out_dir"`
			Report        *scenario.Report        `json:"report"`
			Compare       []scenario.ShotCompare  `json:"compare,omitempty"`
			ReportCompare *scenario.ReportCompare `json:"report_compare,omitempty"`
		}{dir, &res.Report, cmps, repCmp}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(&v); err != nil {
			return err
		}
	} else {
		for _, s := range res.Report.Steps {
			bw.printf("step %d %s: %s\n", s.Step, s.Kind, s.Did)
		}
		bw.printf("wrote %d shots and %s to %s in %v (build %v)\n", len(res.Shots), scenario.ReportFile, dir,
			runTime.Round(time.Millisecond), res.BuildTime.Round(time.Millisecond))
		if *update {
			bw.printf("updated %d goldens and %s in %s\n", len(res.Shots), scenario.ReportFile, *golden)
		}
		for _, c := range cmps {
			bw.printf("%s\n", c.Line())
		}
		for _, l := range repCmp.Lines() {
			bw.printf("%s\n", l)
		}
	}
	if bw.err != nil {
		return bw.err
	}
	repFailed := repCmp != nil && repCmp.Failed
	if failed == 0 && !repFailed {
		return nil
	}
	if *asJSON {
		for _, c := range cmps {
			if c.Failed {
				fmt.Fprintln(stderr, c.Line())
			}
		}
		if repFailed {
			for _, l := range repCmp.Lines() {
				fmt.Fprintln(stderr, l)
			}
		}
	}
	what := fmt.Sprintf("%d of %d shots differ", failed, len(cmps))
	switch {
	case repFailed && failed == 0:
		what = scenario.ReportFile + " differs"
	case repFailed:
		what += " and " + scenario.ReportFile + " differs"
	}
	return fmt.Errorf("%s from the goldens in %s", what, *golden)
}

// sameDir reports whether paths a and b name the same directory (after
// cleaning and making them absolute).
func sameDir(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}
