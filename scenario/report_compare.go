package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"navviz/internal/readlimit"
)

// MaxReportBytes bounds a golden report.json, read and written: 64 MiB,
// room for MaxSteps steps of 6 KiB (the examples' reports take 4 to 18
// KB; an agents step of the most agents, 1000, about 150 KB).
const MaxReportBytes = 64 << 20

// MaxReportDiffs is how many differences a report comparison lists (the
// rest are counted).
const MaxReportDiffs = 50

// ReportDiff is one field where a report differs from its golden.
type ReportDiff struct {
	// Step is the step's number (1-based) and Kind its kind, for a field
	// of a step; 0 and "" for the report's own fields.
	Step int    `json:"step,omitempty"`
	Kind string `json:"kind,omitempty"`
	// Field is the field's path in report.json (in a step, from the
	// step: "update.tiles[0].rebuild").
	Field string `json:"field"`
	// Got and Golden are the values, as JSON (shortened when long).
	Got    string `json:"got"`
	Golden string `json:"golden"`
}

// Line returns the difference as a FAIL line.
func (d *ReportDiff) Line() string {
	if d == nil {
		return ""
	}
	at := ReportFile
	if d.Step > 0 {
		at = fmt.Sprintf("%s step %d %s", ReportFile, d.Step, d.Kind)
	}
	return fmt.Sprintf("FAIL %s: %s = %s, golden %s", at, d.Field, d.Got, d.Golden)
}

// ReportCompare is the comparison of a run's report.json with the
// golden directory's.
type ReportCompare struct {
	// Golden is the golden report's path.
	Golden string `json:"golden"`
	// Failed reports a difference or a missing golden (Problem says so).
	Failed  bool   `json:"failed"`
	Problem string `json:"problem,omitempty"`
	// Diffs are the first MaxReportDiffs differences, in report order;
	// More counts the others.
	Diffs []ReportDiff `json:"diffs,omitempty"`
	More  int          `json:"more,omitempty"`
}

// Lines returns the comparison's lines: one FAIL line per difference (or
// for the problem), or one ok line.
func (c *ReportCompare) Lines() []string {
	switch {
	case c == nil:
		return nil
	case c.Problem != "":
		return []string{fmt.Sprintf("FAIL %s: %s", ReportFile, c.Problem)}
	case !c.Failed:
		return []string{fmt.Sprintf("ok   %s: equal to %s", ReportFile, c.Golden)}
	}
	var l []string
	for i := range c.Diffs {
		l = append(l, c.Diffs[i].Line())
	}
	if c.More > 0 {
		l = append(l, fmt.Sprintf("FAIL %s: %d more differences", ReportFile, c.More))
	}
	return l
}

// reportJSON returns r as report.json's bytes (indented, a final
// newline).
func reportJSON(r *Report) ([]byte, error) {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("scenario: report: %w", err)
	}
	return append(b, '\n'), nil
}

// UpdateGoldenReport writes r as goldenDir/report.json (atomically; the
// directory is created if need be). A report over MaxReportBytes is
// refused: CompareReport could not read it.
func UpdateGoldenReport(r *Report, goldenDir string) error {
	data, err := reportJSON(r)
	if err != nil {
		return err
	}
	path := filepath.Join(goldenDir, ReportFile)
	if len(data) > MaxReportBytes {
		return fmt.Errorf("scenario: %w", &readlimit.TooLargeError{Path: path, What: "golden report", SizeBytes: int64(len(data)), LimitBytes: MaxReportBytes})
	}
	if err := os.MkdirAll(goldenDir, 0o755); err != nil {
		return fmt.Errorf("scenario: golden directory: %w", err)
	}
	if err := writeFile(path, data); err != nil {
		return fmt.Errorf("scenario: %w", err)
	}
	return nil
}

// CompareReport compares r field by field with goldenDir/report.json: the
// mesh hashes, the steps' kinds, sentences, queues, updates (tiles,
// swaps, the repair's verdicts), paths, agents and shots. A missing
// golden fails (Problem); err is for a golden that cannot be read.
func CompareReport(r *Report, goldenDir string) (*ReportCompare, error) {
	c := &ReportCompare{Golden: filepath.Join(goldenDir, ReportFile)}
	data, err := readlimit.ReadFile(c.Golden, "golden report", MaxReportBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		c.Failed, c.Problem = true, fmt.Sprintf("missing golden %s (write it with --update)", c.Golden)
		return c, nil
	case err != nil:
		return nil, fmt.Errorf("scenario: %w", err)
	}
	var want Report
	if err := json.Unmarshal(data, &want); err != nil {
		return nil, fmt.Errorf("scenario: golden %s: %w", c.Golden, err)
	}
	for _, d := range diffReports(r, &want) {
		if len(c.Diffs) < MaxReportDiffs {
			c.Diffs = append(c.Diffs, d)
		} else {
			c.More++
		}
	}
	c.Failed = len(c.Diffs) > 0
	return c, nil
}

// diffReports returns every field where got differs from want, in
// report order; a step's fields are named from the step, and a step
// count that differs is one difference after the steps compared.
func diffReports(got, want *Report) []ReportDiff {
	var out []ReportDiff
	add := func(step int, kind string) func(field, gv, wv string) {
		return func(field, gv, wv string) {
			out = append(out, ReportDiff{Step: step, Kind: kind, Field: field, Got: gv, Golden: wv})
		}
	}
	g, w := reflect.ValueOf(got).Elem(), reflect.ValueOf(want).Elem()
	for i := range g.NumField() {
		name := jsonName(g.Type().Field(i))
		if name != "steps" {
			diffValue(name, g.Field(i), w.Field(i), add(0, ""))
			continue
		}
		gs, ws := got.Steps, want.Steps
		for j := range min(len(gs), len(ws)) {
			diffValue("", reflect.ValueOf(gs[j]), reflect.ValueOf(ws[j]), add(j+1, gs[j].Kind))
		}
		if len(gs) != len(ws) {
			add(0, "")(name, fmt.Sprintf("%d steps", len(gs)), fmt.Sprintf("%d steps", len(ws)))
		}
	}
	return out
}

// jsonName returns the JSON name of a struct field ("-" or "" when it
// has none).
func jsonName(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name
}

// diffValue calls add for every field where got differs from want (two
// values of one type), named by path and the JSON field names: the
// fields of structs, the entries of lists (then their count when it
// differs); a fixed-size array, a number, a string or a bool is one
// value.
func diffValue(path string, got, want reflect.Value, add func(field, got, want string)) {
	switch got.Kind() {
	case reflect.Pointer:
		if got.IsNil() || want.IsNil() {
			if got.IsNil() != want.IsNil() {
				add(path, jsonText(got), jsonText(want))
			}
			return
		}
		diffValue(path, got.Elem(), want.Elem(), add)
	case reflect.Struct:
		t := got.Type()
		for i := range t.NumField() {
			if name := jsonName(t.Field(i)); name != "" && name != "-" {
				diffValue(join(path, name), got.Field(i), want.Field(i), add)
			}
		}
	case reflect.Slice:
		for i := range min(got.Len(), want.Len()) {
			diffValue(fmt.Sprintf("%s[%d]", path, i), got.Index(i), want.Index(i), add)
		}
		if got.Len() != want.Len() {
			add(path, fmt.Sprintf("%d entries", got.Len()), fmt.Sprintf("%d entries", want.Len()))
		}
	default:
		if !reflect.DeepEqual(got.Interface(), want.Interface()) {
			add(path, jsonText(got), jsonText(want))
		}
	}
}

// jsonText writes v as JSON for a difference line, shortened past 80
// bytes; a nil pointer is "absent".
func jsonText(v reflect.Value) string {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		return "absent"
	}
	b, err := json.Marshal(v.Interface())
	if err != nil {
		return fmt.Sprintf("%v", v.Interface())
	}
	if s := string(b); len(s) > 80 {
		return strings.ToValidUTF8(s[:77], "") + "..."
	}
	return string(b)
}
