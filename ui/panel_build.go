package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ebitengine/debugui"

	"navviz/core/pipeline"
	"navviz/core/voxel"
	"navviz/ui/session"
)

// floatSetting is one float32 field of NavSettings in the form.
type floatSetting struct {
	label  string
	field  func(*pipeline.NavSettings) *float32
	step   float64
	digits int
}

// intSetting is one int field of NavSettings in the form.
type intSetting struct {
	label string
	field func(*pipeline.NavSettings) *int
	step  int
}

// The form's fields, in NavSettings order (Partition and Volumes have
// their own widgets).
var (
	floatSettings = []floatSetting{
		{"Cell size (m)", func(s *pipeline.NavSettings) *float32 { return &s.CellSizeM }, 0.05, 3},
		{"Cell height (m)", func(s *pipeline.NavSettings) *float32 { return &s.CellHeightM }, 0.05, 3},
		{"Agent height (m)", func(s *pipeline.NavSettings) *float32 { return &s.AgentHeightM }, 0.1, 2},
		{"Agent radius (m)", func(s *pipeline.NavSettings) *float32 { return &s.AgentRadiusM }, 0.1, 2},
		{"Agent max climb (m)", func(s *pipeline.NavSettings) *float32 { return &s.AgentMaxClimbM }, 0.1, 2},
		{"Agent max slope (deg)", func(s *pipeline.NavSettings) *float32 { return &s.AgentMaxSlopeDeg }, 1, 1},
	}
	intSettingsA = []intSetting{
		{"Tile size (cells)", func(s *pipeline.NavSettings) *int { return &s.TileSizeCells }, 8},
	}
	intSettingsB = []intSetting{
		{"Region min size (cells)", func(s *pipeline.NavSettings) *int { return &s.RegionMinSizeCells }, 1},
		{"Region merge size (cells)", func(s *pipeline.NavSettings) *int { return &s.RegionMergeSizeCells }, 1},
	}
	floatSettingsB = []floatSetting{
		{"Edge max length (m)", func(s *pipeline.NavSettings) *float32 { return &s.EdgeMaxLenM }, 1, 2},
		{"Edge max error (cells)", func(s *pipeline.NavSettings) *float32 { return &s.EdgeMaxErrorCells }, 0.1, 2},
	}
	intSettingsC = []intSetting{
		{"Verts per polygon", func(s *pipeline.NavSettings) *int { return &s.VertsPerPoly }, 1},
	}
	floatSettingsC = []floatSetting{
		{"Detail sample dist (cells)", func(s *pipeline.NavSettings) *float32 { return &s.DetailSampleDistCells }, 1, 2},
		{"Detail max error (cells)", func(s *pipeline.NavSettings) *float32 { return &s.DetailSampleMaxErrorCells }, 0.1, 2},
	}
)

// partitionNames are the Partition dropdown's choices, indexed by
// pipeline.PartitionType.
var partitionNames = []string{pipeline.Watershed.String(), pipeline.Monotone.String(), pipeline.Layers.String()}

// buildForm is the Build panel's editing state: float64 and int mirrors of
// the settings for debugui's number fields, and the volume lines.
type buildForm struct {
	floats    map[string]float64
	ints      map[string]int
	partition int
	volumes   []string // one line per volume, see parseVolume
	volErr    string   // the first volume line that does not parse
	scopeIdx  int
	nums      numberFields // the number fields' texts and errors

	shownProblem string // the settings problem the panel showed last frame
}

// load fills the form from s.
func (f *buildForm) load(s *pipeline.NavSettings) {
	f.floats, f.ints = map[string]float64{}, map[string]int{}
	f.nums = nil // show the loaded values, dropping texts being edited
	for _, list := range [][]floatSetting{floatSettings, floatSettingsB, floatSettingsC} {
		for _, fs := range list {
			f.floats[fs.label] = float64(*fs.field(s))
		}
	}
	for _, list := range [][]intSetting{intSettingsA, intSettingsB, intSettingsC} {
		for _, is := range list {
			f.ints[is.label] = *is.field(s)
		}
	}
	f.partition = int(s.Partition)
	f.volumes = f.volumes[:0]
	for _, v := range s.Volumes {
		f.volumes = append(f.volumes, formatVolume(&v))
	}
	f.volErr = ""
}

// store writes the form into s (volumes only when every line parses) and
// reports whether the volumes changed.
func (f *buildForm) store(s *pipeline.NavSettings) (volumesChanged bool, vols []voxel.ConvexVolume) {
	for _, list := range [][]floatSetting{floatSettings, floatSettingsB, floatSettingsC} {
		for _, fs := range list {
			*fs.field(s) = float32(f.floats[fs.label])
		}
	}
	for _, list := range [][]intSetting{intSettingsA, intSettingsB, intSettingsC} {
		for _, is := range list {
			*is.field(s) = f.ints[is.label]
		}
	}
	if f.partition >= 0 && f.partition < len(partitionNames) {
		s.Partition = pipeline.PartitionType(f.partition)
	}
	f.volErr = ""
	vols = make([]voxel.ConvexVolume, 0, len(f.volumes))
	for i, line := range f.volumes {
		v, err := parseVolume(line)
		if err != nil {
			f.volErr = fmt.Sprintf("volume %d: %v", i+1, err)
			return false, nil
		}
		vols = append(vols, v)
	}
	if volumesEqual(vols, s.Volumes) {
		return false, nil
	}
	return true, vols
}

func volumesEqual(a, b []voxel.ConvexVolume) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Area != b[i].Area || a[i].MinYM != b[i].MinYM || a[i].MaxYM != b[i].MaxYM || len(a[i].VertsXZ) != len(b[i].VertsXZ) {
			return false
		}
		for k := range a[i].VertsXZ {
			if a[i].VertsXZ[k] != b[i].VertsXZ[k] {
				return false
			}
		}
	}
	return true
}

// volumeSyntax describes a volume line.
const volumeSyntax = "AREA MINY MAXY X1 Z1 X2 Z2 X3 Z3 ... (area id 0-63, metres)"

// parseVolume parses a volume line: the area id, the y range in metres and
// at least three x z corners in metres, separated by spaces or commas.
// Convexity and ranges are left to ConvexVolume.Validate.
func parseVolume(line string) (voxel.ConvexVolume, error) {
	f := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
	var v voxel.ConvexVolume
	if len(f) < 9 || len(f)%2 == 0 {
		return v, fmt.Errorf("%d numbers, want %s", len(f), volumeSyntax)
	}
	area, err := strconv.ParseUint(f[0], 10, 8)
	if err != nil {
		return v, fmt.Errorf("area id %q: want a whole number 0-63", f[0])
	}
	v.Area = uint8(area)
	nums := make([]float32, len(f)-1)
	for i, s := range f[1:] {
		x, err := strconv.ParseFloat(s, 32)
		if err != nil {
			return v, fmt.Errorf("number %d %q is not a number", i+2, s)
		}
		nums[i] = float32(x)
	}
	v.MinYM, v.MaxYM = nums[0], nums[1]
	for i := 2; i+1 < len(nums); i += 2 {
		v.VertsXZ = append(v.VertsXZ, [2]float32{nums[i], nums[i+1]})
	}
	return v, nil
}

// formatVolume is the inverse of parseVolume.
func formatVolume(v *voxel.ConvexVolume) string {
	g := func(x float32) string { return strconv.FormatFloat(float64(x), 'g', -1, 32) }
	parts := []string{strconv.Itoa(int(v.Area)), g(v.MinYM), g(v.MaxYM)}
	for _, p := range v.VertsXZ {
		parts = append(parts, g(p[0]), g(p[1]))
	}
	return strings.Join(parts, " ")
}

// settingsProblem returns the text shown in the Build panel for the edited
// settings: a volume line that does not parse, else the Validate error, else
// "".
func (g *Game) settingsProblem() string {
	if g.form.volErr != "" {
		return g.form.volErr
	}
	if err := g.App.SettingsErr(); err != nil {
		return err.Error()
	}
	return ""
}

// buildStatusLines is the height of the Build tab's status area.
const buildStatusLines = 5

// buildPanel edits the settings, starts and cancels builds, and shows the
// progress, the timings and the tile selection.
func (g *Game) buildPanel(ctx *debugui.Context) {
	a := g.App
	if g.form.floats == nil {
		s := a.Settings()
		g.form.load(&s)
	}
	changed := false
	mark := func() { changed = true }

	ctx.Header("Settings", true, func() {
		grid := []int{-3, -2}
		ctx.SetGridLayout(grid, nil)
		floatRows := func(list []floatSetting) {
			ctx.Loop(len(list), func(i int) {
				fs := list[i]
				v := g.form.floats[fs.label]
				g.form.nums.label(ctx, fs.label, fs.label)
				if g.form.nums.float(ctx, fs.label, &v, numberSpec{digits: fs.digits, step: fs.step}) {
					g.form.floats[fs.label] = v
					changed = true
				}
			})
		}
		intRows := func(list []intSetting) {
			ctx.Loop(len(list), func(i int) {
				is := list[i]
				v := g.form.ints[is.label]
				g.form.nums.label(ctx, is.label, is.label)
				if g.form.nums.int(ctx, is.label, &v, numberSpec{step: float64(is.step)}) {
					g.form.ints[is.label] = v
					changed = true
				}
			})
		}
		ctx.IDScope("a", func() { floatRows(floatSettings) })
		ctx.IDScope("b", func() { intRows(intSettingsA) })
		ctx.Text("Partition")
		ctx.Dropdown(&g.form.partition, partitionNames).On(mark)
		ctx.IDScope("c", func() { intRows(intSettingsB) })
		ctx.IDScope("d", func() { floatRows(floatSettingsB) })
		ctx.IDScope("e", func() { intRows(intSettingsC) })
		ctx.IDScope("f", func() { floatRows(floatSettingsC) })
		ctx.SetGridLayout(nil, nil)
	})
	ctx.Header("Area volumes", false, func() {
		ctx.Text("One line per volume: " + volumeSyntax)
		ctx.SetGridLayout([]int{-1, 24}, nil)
		remove := -1
		ctx.Loop(len(g.form.volumes), func(i int) {
			ctx.TextField(&g.form.volumes[i]).On(mark)
			ctx.Button("x").On(func() { remove = i })
		})
		ctx.SetGridLayout(nil, nil)
		if remove >= 0 {
			g.form.volumes = append(g.form.volumes[:remove], g.form.volumes[remove+1:]...)
			changed = true
		}
		ctx.Button("Add volume on the selected tile").On(func() {
			g.form.volumes = append(g.form.volumes, g.defaultVolumeLine())
			changed = true
		})
	})
	if changed {
		g.applyForm()
	}

	// What the settings give, the problem with them, the size, the
	// progress and a failure share an area of fixed height: the buttons
	// under it keep their places whichever shows.
	s := a.Settings()
	problem := g.settingsProblem()
	g.form.shownProblem = problem
	running, done, total := g.runner.Progress()
	size := a.BuildSizeText()
	var lines []string
	col := statusTextColor
	switch {
	case problem != "":
		lines, col = append(lines, "Invalid settings: "+problem), errorColour
	case a.BuildErr() != "":
		lines, col = append(lines, "Build failed: "+a.BuildErr()), errorColour
	case running:
		lines = append(lines, "Building "+session.ProgressBar(done, total, 20))
	}
	lines = append(lines, fmt.Sprintf("Voxels: walkable height %d rows, climb %d rows, radius %d cells, border %d cells; tile %.4g m",
		s.WalkableHeightCells(), s.WalkableClimbCells(), s.WalkableRadiusCells(), s.BorderCells(), s.TileSizeM()))
	if size != "" {
		lines = append(lines, size)
	}
	fixedText(ctx, buildStatusLines, strings.Join(lines, "\n"), col)

	ctx.SetGridLayout([]int{-1, -1}, nil)
	label := "Build"
	switch {
	case problem != "":
		label = "Build (fix settings)"
	case strings.HasPrefix(size, "Too large"):
		label = "Build (too large)"
	}
	ctx.Button(label).On(g.startBuild)
	if running {
		ctx.Button("Cancel").On(g.cancelBuild)
	} else {
		ctx.Button("Defaults").On(func() {
			d := pipeline.DefaultSettings()
			d.Volumes = a.Settings().Volumes
			g.form.load(&d)
			g.applyForm()
		})
	}
	ctx.SetGridLayout(nil, nil)

	ctx.SetGridLayout([]int{-2, -3}, nil)
	ctx.Text("Stage overlays:")
	g.form.scopeIdx = int(a.Scope())
	ctx.Dropdown(&g.form.scopeIdx, session.SpanScopeNames).On(func() { a.SetScope(session.SpanScope(g.form.scopeIdx)) })
	ctx.SetGridLayout(nil, nil)
	sel := "Selected tile: none"
	if a.Selected().OK {
		sel = fmt.Sprintf("Selected tile: (%d, %d)", a.Selected().X, a.Selected().Z)
		if b := a.Build(); b != nil {
			if t := b.Tile(a.Selected().X, a.Selected().Z); t != nil {
				sel += fmt.Sprintf(", %d walkable spans", t.WalkableSpans)
			} else {
				sel += ", nothing walkable"
			}
		}
	}
	fixedText(ctx, 2, sel+". Left-click the level to select a tile (and the polygon there).", statusTextColor)
	ctx.Button("Frame selected tile").On(a.FrameSelection)

	if b := a.Build(); b != nil {
		ctx.Text(fmt.Sprintf("Built %d tiles (%d with walkable spans) on %d workers in %s: %d open spans, %d walkable.",
			b.BuiltTiles, len(b.Tiles), b.Workers, fmtDur(b.Wall), b.SpanCount, b.WalkableSpans))
		if c := session.CountNavMesh(a.NavMesh()); c.Tiles > 0 {
			ctx.Text(fmt.Sprintf("Navmesh: %d tiles, %d polygons, %d vertices, %d detail triangles; up to %d layer(s) at a tile position.",
				c.Tiles, c.Polys, c.Verts, c.DetailTris, c.MaxLayers))
		}
		ctx.Text("Stage times, summed over the workers:")
		ctx.SetGridLayout([]int{-4, -3, -4, -3}, nil)
		for st := pipeline.Stage(0); st < pipeline.NumStages; st++ {
			ctx.Text(st.String())
			ctx.Text(fmtDur(b.StageTotals[st]))
		}
		ctx.Text("total")
		ctx.Text(fmtDur(b.StageTotals.Total()))
		ctx.SetGridLayout(nil, nil)
	}
}

// applyForm copies the form into the App's settings.
func (g *Game) applyForm() {
	s := g.App.Settings()
	ch, vols := g.form.store(&s)
	g.App.SetSettings(s)
	if ch {
		g.App.SetVolumes(vols)
	}
}

// defaultVolumeLine returns a volume line for a 6 m square of area 1 in the
// middle of the selected tile (or of the level), over the level's height.
func (g *Game) defaultVolumeLine() string {
	a := g.App
	cx, cz, y0, y1 := float32(0), float32(0), float32(-1), float32(1)
	if a.Soup() != nil {
		b := a.Soup().Bounds()
		c := b.Center()
		cx, cz, y0, y1 = c.X, c.Z, b.Min.Y-1, b.Max.Y+1
	}
	if boxes := a.SelectionBoxes(); len(boxes) > 0 {
		c := boxes[0].Center()
		cx, cz = c.X, c.Z
	}
	r := float32(3)
	v := voxel.ConvexVolume{
		VertsXZ: [][2]float32{{cx - r, cz - r}, {cx + r, cz - r}, {cx + r, cz + r}, {cx - r, cz + r}},
		MinYM:   y0, MaxYM: y1, Area: 1,
	}
	return formatVolume(&v)
}

// startBuild starts a build of the current level with the edited settings,
// unless they are invalid (the panel shows why) or the build would exceed
// the size limits (then BuildErr and Err say so, and the previous build
// stays).
func (g *Game) startBuild() {
	a := g.App
	if g.settingsProblem() != "" || a.Soup() == nil {
		return
	}
	if err := a.Oversize(a.Soup(), a.LevelName(), session.UIBuildOptions); err != nil {
		a.SetBuildErr(err.Error())
		a.Report(fmt.Errorf("build: %w", err))
		return
	}
	a.SetBuildErr("")
	g.buildRequested = true
	g.runner.Start(a.Soup(), a.Settings())
}

// cancelBuild stops the running build.
func (g *Game) cancelBuild() {
	g.runner.Cancel()
	g.buildRequested = false
	g.App.SetStatus("build cancelled")
}

// pollBuild applies a finished build on the game goroutine.
func (g *Game) pollBuild() {
	res, ok := g.runner.Poll()
	if !ok {
		return
	}
	g.buildRequested = false
	a := g.App
	if res.Err != nil {
		a.SetBuildErr(res.Err.Error())
		a.Report(fmt.Errorf("build: %w", res.Err))
		return
	}
	first := a.Build() == nil
	a.SetBuild(res.Build)
	a.SetStatus(fmt.Sprintf("built %d tiles in %s", res.Build.BuiltTiles, fmtDur(res.Build.Wall)))
	if g.opts.Build && first && !g.framedBuild {
		g.framedBuild = true
		a.SyncSpanOverlays()
		a.FrameSelection()
	}
}

// fmtDur formats a duration in milliseconds with two significant decimals.
func fmtDur(d time.Duration) string {
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}
