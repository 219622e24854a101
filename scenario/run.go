package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"navviz/internal/readlimit"
)

// Output file names.
const (
	// ReportFile is the report of a run (Report), byte-identical between
	// runs.
	ReportFile = "report.json"
	// TimingsFile holds the timings (never compared).
	TimingsFile = "timings.json"
	// FileExt is the extension of scenario files.
	FileExt = ".scenario.json"
	// GoldenExt is the extension of the golden directory beside a
	// scenario file: NAME.scenario.json has its goldens in NAME.golden/.
	GoldenExt = ".golden"
)

// Result is a whole run of a scenario.
type Result struct {
	Report    Report
	Shots     []Shot
	Snapshots []SnapshotFile
	Timings   []StepTiming
	BuildTime time.Duration
	// Inputs are the files the run read (Runner.Inputs): Write refuses to
	// replace any of them.
	Inputs []string
}

// Load reads and parses the scenario file at path. A file over
// MaxFileBytes is refused (a *readlimit.TooLargeError) having read no
// more than that.
func Load(path string) (*Scenario, error) {
	data, err := readlimit.ReadFile(path, "scenario file", MaxFileBytes)
	if err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	return Parse(data, path)
}

// Run plays every step of sc (read from file) and returns the pictures,
// the snapshot files and the report. Nothing is written.
func Run(sc *Scenario, file string) (*Result, error) {
	r, err := NewRunner(sc, file)
	if err != nil {
		return nil, err
	}
	res := &Result{BuildTime: r.BuildTime}
	for !r.Done() {
		_, shot, err := r.Step()
		if err != nil {
			return nil, err
		}
		if shot != nil {
			res.Shots = append(res.Shots, *shot)
		}
	}
	res.Report, res.Snapshots, res.Timings, res.Inputs = r.Report, r.SnapshotFiles(), r.Timings, r.Inputs()
	return res, nil
}

// RunFile loads the scenario file at path and runs it.
func RunFile(path string) (*Result, error) {
	sc, err := Load(path)
	if err != nil {
		return nil, err
	}
	return Run(sc, path)
}

// DefaultOutDir returns the default output directory of a scenario file:
// its base name without FileExt (or its extension) plus ".out", in the
// current directory.
func DefaultOutDir(path string) string {
	return BaseName(path) + ".out"
}

// BaseName returns the scenario file's base name without FileExt (or
// without its extension).
func BaseName(path string) string {
	b := filepath.Base(path)
	if n := len(b) - len(FileExt); n > 0 && b[n:] == FileExt {
		return b[:n]
	}
	return b[:len(b)-len(filepath.Ext(b))]
}

// GoldenDir returns the golden directory beside a scenario file:
// DIR/NAME.golden for DIR/NAME.scenario.json.
func GoldenDir(path string) string {
	return filepath.Join(filepath.Dir(path), BaseName(path)+GoldenExt)
}

// errNilResult is what a nil *Result's methods return.
var errNilResult = errors.New("scenario: nil Result")

// ReportJSON returns report.json's bytes (indented, a final newline).
func (res *Result) ReportJSON() ([]byte, error) {
	if res == nil {
		return nil, errNilResult
	}
	return reportJSON(&res.Report)
}

// Write writes the outputs into dir (created if need be), each file
// atomically: NAME.png per shot, the snapshot files, report.json,
// timings.json and index.html (WriteIndex, nothing compared). The PNGs are encoded before anything is written.
func (res *Result) Write(dir string) error {
	if res == nil {
		return errNilResult
	}
	type file struct {
		name string
		data []byte
	}
	var files []file
	for _, s := range res.Shots {
		data, err := EncodePNG(s.Image)
		if err != nil {
			return fmt.Errorf("shot %q: %w", s.Name, err)
		}
		files = append(files, file{s.Name + ".png", data})
	}
	for _, s := range res.Snapshots {
		files = append(files, file{s.Name, s.Data})
	}
	rep, err := res.ReportJSON()
	if err != nil {
		return err
	}
	files = append(files, file{ReportFile, rep})
	tim := struct {
		BuildNs time.Duration `json:"build_ns"`
		Steps   []StepTiming  `json:"steps"`
	}{res.BuildTime, res.Timings}
	tb, err := json.MarshalIndent(&tim, "", "  ")
	if err != nil {
		return fmt.Errorf("scenario: timings: %w", err)
	}
	files = append(files, file{TimingsFile, append(tb, '\n')})
	index, err := res.indexHTML(dir, nil)
	if err != nil {
		return err
	}
	files = append(files, file{IndexFile, index})
	for _, f := range files {
		if in := res.inputOf(filepath.Join(dir, f.name)); in != "" {
			return fmt.Errorf("scenario: output %s is the input %s: refusing to overwrite what the scenario read", filepath.Join(dir, f.name), in)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("scenario: output directory: %w", err)
	}
	for _, f := range files {
		if err := writeFile(filepath.Join(dir, f.name), f.data); err != nil {
			return fmt.Errorf("scenario: %w", err)
		}
	}
	return nil
}

// inputOf returns the input of the run that path names (the same file,
// links followed), or "" when it names none.
func (res *Result) inputOf(path string) string {
	out, err := os.Stat(path)
	if err != nil {
		return ""
	}
	for _, in := range res.Inputs {
		if fi, err := os.Stat(in); err == nil && os.SameFile(out, fi) {
			return in
		}
	}
	return ""
}

// ShotCompare is the comparison of one shot with its golden.
type ShotCompare struct {
	Name string `json:"name"`
	// Golden is the golden file's path.
	Golden string `json:"golden"`
	// Failed reports a failure: Problem says why when the pictures could
	// not be compared (no golden, another size), else Diff fails the
	// tolerance and DiffFile is the difference picture written.
	Failed   bool    `json:"failed"`
	Problem  string  `json:"problem,omitempty"`
	Diff     Diff    `json:"-"`
	Percent  float64 `json:"percent_differing"`
	Box      string  `json:"box,omitempty"`
	DiffFile string  `json:"diff_file,omitempty"`
	// GoldenCopy is the golden's copy beside DiffFile (NAME.golden.png),
	// so the output directory alone shows the three pictures.
	GoldenCopy string `json:"golden_copy,omitempty"`
}

// Line returns the one-line verdict of the comparison.
func (c *ShotCompare) Line() string {
	switch {
	case c == nil:
		return ""
	case c.Problem != "":
		return fmt.Sprintf("FAIL %s: %s", c.Name, c.Problem)
	case c.Failed:
		return fmt.Sprintf("FAIL %s: %.3f%% of pixels differ (%d of %d), box %s; see %s", c.Name, c.Percent, c.Diff.Differing, c.Diff.Total, c.Box, c.DiffFile)
	}
	return fmt.Sprintf("ok   %s: %.3f%% of pixels differ", c.Name, c.Percent)
}

// boxString writes r as x0,y0-x1,y1 (inclusive corners).
func boxString(r image.Rectangle) string {
	if r.Empty() {
		return ""
	}
	return fmt.Sprintf("%d,%d-%d,%d", r.Min.X, r.Min.Y, r.Max.X-1, r.Max.Y-1)
}

// CompareGoldens compares each shot with goldenDir/NAME.png (threshold and
// tolerance as Compare and Diff.Fails). A failing shot gets its difference
// picture outDir/NAME.diff.png and a copy of its golden,
// outDir/NAME.golden.png (both written atomically, so the directory alone
// shows the three pictures); any other shot has old ones removed. It
// returns one comparison per shot, in order; err is for what stops the
// comparison itself (a golden that cannot be decoded, a picture that
// cannot be written).
func CompareGoldens(shots []Shot, goldenDir, outDir string, threshold int, tolerancePct float64) ([]ShotCompare, error) {
	var out []ShotCompare
	for _, s := range shots {
		c := ShotCompare{Name: s.Name, Golden: filepath.Join(goldenDir, s.Name+".png")}
		diffPath := filepath.Join(outDir, s.Name+".diff.png")
		copyPath := filepath.Join(outDir, s.Name+GoldenCopyExt)
		size := s.Image.Bounds().Size()
		want, err := readPNG(c.Golden, &size)
		var sizeErr *SizeError
		switch {
		case errors.Is(err, fs.ErrNotExist):
			c.Failed, c.Problem = true, fmt.Sprintf("missing golden %s (write it with --update)", c.Golden)
		case errors.As(err, &sizeErr):
			c.Failed, c.Problem = true, fmt.Sprintf("%v (%s)", err, c.Golden)
		case err != nil:
			return out, fmt.Errorf("scenario: golden of shot %q: %w", s.Name, err)
		default:
			d, err := Compare(s.Image, want, threshold)
			if err != nil {
				c.Failed, c.Problem = true, fmt.Sprintf("%v (%s)", err, c.Golden)
				break
			}
			c.Diff, c.Percent, c.Box = d, d.Percent(), boxString(d.Box)
			if d.Fails(tolerancePct) {
				c.Failed, c.DiffFile, c.GoldenCopy = true, diffPath, copyPath
				if err := writePNGs(outDir, map[string]image.Image{diffPath: DiffImage(s.Image, want, threshold), copyPath: want}); err != nil {
					return out, fmt.Errorf("scenario: difference picture or golden copy of shot %q: %w", s.Name, err)
				}
			}
		}
		if c.DiffFile == "" {
			for _, p := range []string{diffPath, copyPath} {
				if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return out, fmt.Errorf("scenario: remove the old %s: %w", p, err)
				}
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// writePNGs encodes each picture and writes it to its path (atomically)
// in directory dir, created if need be.
func writePNGs(dir string, pics map[string]image.Image) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, path := range slices.Sorted(maps.Keys(pics)) {
		data, err := EncodePNG(pics[path])
		if err == nil {
			err = writeFile(path, data)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// UpdateGoldens writes each shot as goldenDir/NAME.png (atomically; the
// directory is created if need be).
func UpdateGoldens(shots []Shot, goldenDir string) error {
	if err := os.MkdirAll(goldenDir, 0o755); err != nil {
		return fmt.Errorf("scenario: golden directory: %w", err)
	}
	for _, s := range shots {
		data, err := EncodePNG(s.Image)
		if err != nil {
			return fmt.Errorf("scenario: shot %q: %w", s.Name, err)
		}
		if err := writeFile(filepath.Join(goldenDir, s.Name+".png"), data); err != nil {
			return fmt.Errorf("scenario: %w", err)
		}
	}
	return nil
}
