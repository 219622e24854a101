package ui

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"navviz/core/navmesh"
	"navviz/internal/cputime"
	"navviz/render"
	"navviz/ui/session"
)

// The frame benchmark (navviz --bench-frames N --stats-json FILE): once the
// level's automatic cache build (and the plain build, when a stage overlay
// is shown) has ended, it times the scene rebuild of every visible overlay,
// then orbits the camera once around the level over N Updates while
// timing the frames, writes BenchStats as JSON and ends the loop.

// BenchStats is what the frame benchmark writes (JSON).
type BenchStats struct {
	Level     string   `json:"level"`
	SizePx    string   `json:"size_px"`
	Frames    int      `json:"frames"`
	Scope     string   `json:"scope"`
	Overlays  []string `json:"overlays"`
	CPUs      int      `json:"cpus"`
	LoadAvg1m float64  `json:"load_avg_1m"` // /proc/loadavg at the end (0: unknown)

	// FrameMs is the time between two frames Ebitengine presented while
	// orbiting (Draw to Draw).
	FrameMs Spread `json:"frame_ms"`
	// ViewMs is the time between two frames that showed a new camera
	// position (a frame whose view is still being rendered in the
	// background shows the previous one).
	ViewMs Spread `json:"view_ms"`
	// ProjectMs is the time one rendering of the whole visible scene took
	// (render.Rasterizer: project, set up, fill) while orbiting.
	ProjectMs Spread `json:"project_ms"`
	// DrawnTris is the triangles, lines and points the rasterizer set up
	// per view while orbiting (those that cover a pixel).
	DrawnTris Spread `json:"drawn_tris"`
	// DrawMs is the time Draw itself took.
	DrawMs Spread `json:"draw_ms"`
	// TPS is the Updates per second while orbiting; EbitenTPS what
	// Ebitengine reports at the end.
	TPS       float64 `json:"tps"`
	EbitenTPS float64 `json:"ebiten_tps"`
	// ViewsShown is how many distinct camera positions were drawn out of
	// Frames.
	ViewsShown int `json:"views_shown"`
	// CPUMsPerView is the CPU time of the whole process (every thread:
	// the rendering jobs and llvmpipe's threads too) while
	// orbiting, divided by ViewsShown: what a view costs, much less
	// dependent on the machine's load than the frame times (0: unknown).
	CPUMsPerView float64 `json:"cpu_ms_per_view"`

	// Overlay is the rebuild cost of each visible overlay: building its
	// content and rendering it alone at the framed camera.
	Overlay map[string]OverlayCost `json:"scene_rebuild"`

	PeakRSSMB    float64 `json:"peak_rss_mb"`
	RSSMB        float64 `json:"rss_mb"`
	HeapLiveMB   float64 `json:"heap_live_mb"`  // Go heap live after the last collection
	NavmeshPolys int     `json:"navmesh_polys"` // the live cache's (0: no cache)
	BuildPolys   int     `json:"build_polys"`   // the plain build's (0: none)
	CacheBuildMs float64 `json:"cache_build_ms"`
}

// Spread summarises samples in milliseconds.
type Spread struct {
	N      int     `json:"n"`
	Median float64 `json:"median"`
	P95    float64 `json:"p95"`
	Max    float64 `json:"max"`
}

// OverlayCost is the rebuild cost of one overlay.
type OverlayCost struct {
	// ContentMs builds the overlay's triangles and lines from the state
	// (render's overlay builders).
	ContentMs float64 `json:"content_ms"`
	// ProjectMs renders it alone (full resolution, the faster of two
	// runs).
	ProjectMs float64 `json:"project_ms"`
	// SceneMs is their sum: what a change of the overlay costs.
	SceneMs float64 `json:"scene_ms"`
	// Tris is the overlay's triangles, DrawnTris the triangles, lines and
	// points of it the rasterizer sets up (those that cover a pixel).
	Tris      int `json:"tris"`
	DrawnTris int `json:"drawn_tris"`
}

// spreadOf returns the median, 95th percentile and maximum of ms.
func spreadOf(ms []float64) Spread {
	if len(ms) == 0 {
		return Spread{}
	}
	s := slices.Clone(ms)
	slices.Sort(s)
	at := func(q float64) float64 {
		i := int(math.Ceil(q*float64(len(s)))) - 1
		return s[min(max(i, 0), len(s)-1)]
	}
	return Spread{N: len(s), Median: at(0.5), P95: at(0.95), Max: s[len(s)-1]}
}

// benchPhase is where the frame benchmark is.
type benchPhase int

const (
	benchWaiting benchPhase = iota // builds running
	benchOrbit                     // orbiting the camera
	benchDone                      // stats written
)

// benchRun is the state of the frame benchmark.
type benchRun struct {
	phase   benchPhase
	tick    int     // Updates while orbiting
	yaw0    float64 // camera yaw when the orbit began
	started time.Time
	cpu0    time.Duration // process CPU time when the orbit began
	stats   BenchStats

	lastDraw    time.Time
	lastView    time.Time
	lastViewCam render.Camera
	frameMs     []float64
	viewMs      []float64
	drawMs      []float64
	projectMs   []float64
	drawnTris   []float64
}

// benchStep runs the benchmark's part of one Update (only with
// Options.BenchFrames).
func (g *Game) benchStep() {
	b := g.bench
	if b == nil {
		return
	}
	switch b.phase {
	case benchWaiting:
		if g.buildRequested || g.autoCachePending() || g.App.StagePending() {
			return
		}
		g.benchOverlays()
		g.App.FrameLevel()
		b.yaw0 = g.App.Camera.YawRad
		b.phase = benchOrbit
		b.started = time.Now()
		b.cpu0, _ = cputime.Process()
	case benchOrbit:
		if b.tick >= g.opts.BenchFrames {
			g.benchFinish()
			return
		}
		b.tick++
		g.App.Camera.YawRad = b.yaw0 + 2*math.Pi*float64(b.tick)/float64(g.opts.BenchFrames)
	}
}

// benchFrame notes a Draw that began at start and took took; viewCam is
// the camera of the view it showed.
func (b *benchRun) benchFrame(start time.Time, took time.Duration, viewCam render.Camera) {
	if b == nil || b.phase != benchOrbit || b.tick == 0 {
		return
	}
	if !b.lastDraw.IsZero() {
		b.frameMs = append(b.frameMs, msSince(b.lastDraw, start))
	}
	b.lastDraw = start
	b.drawMs = append(b.drawMs, float64(took)/float64(time.Millisecond))
	if viewCam != b.lastViewCam {
		if !b.lastView.IsZero() {
			b.viewMs = append(b.viewMs, msSince(b.lastView, start))
		}
		b.lastView, b.lastViewCam = start, viewCam
		b.stats.ViewsShown++
	}
}

// msSince returns t - from in milliseconds.
func msSince(from, t time.Time) float64 { return float64(t.Sub(from)) / float64(time.Millisecond) }

// benchOverlays measures the rebuild of every visible overlay.
func (g *Game) benchOverlays() {
	a := g.App
	costs := map[string]OverlayCost{}
	keep, show := a.SpanFilter()
	var level *render.Scene
	levelMs := 0.0
	for _, o := range a.Scene().Overlays {
		if o == nil || !o.Visible {
			continue
		}
		name := o.Name
		t0 := time.Now()
		var built *render.Overlay
		switch {
		case slices.Contains(session.BuildOverlayNames, name):
			built = a.BuildSpanOverlay(name, keep, show)
		case render.IsCacheOverlay(name):
			built = a.BuildCacheOverlay(name)
		case name == render.OverlayInput || name == render.OverlayGrid:
			if level == nil {
				level = render.LevelScene(a.Soup())
				levelMs = msSince(t0, time.Now())
			}
			built = level.Overlay(name)
		default:
			built = o // built elsewhere (inspector, path): projection only
		}
		content := msSince(t0, time.Now())
		if name == render.OverlayInput || name == render.OverlayGrid {
			content = levelMs // one builder makes both
		}
		if built == nil {
			built = o
		}
		one := *built
		one.Visible = true
		var v sceneView
		proj := math.Inf(1)
		for range 2 { // the faster of two: the first one also allocates
			t1 := time.Now()
			v.build(&render.Scene{Overlays: []*render.Overlay{&one}}, a.Camera, g.w, g.h)
			proj = min(proj, msSince(t1, time.Now()))
		}
		costs[name] = OverlayCost{ContentMs: round2(content), ProjectMs: round2(proj), SceneMs: round2(content + proj),
			Tris: len(built.Tris) / 3, DrawnTris: v.drawnTris}
		g.bench.stats.Overlays = append(g.bench.stats.Overlays, name)
	}
	g.bench.stats.Overlay = costs
}

// benchFinish writes the stats and ends the loop.
func (g *Game) benchFinish() {
	b := g.bench
	a := g.App
	s := &b.stats
	wall := time.Since(b.started).Seconds()
	s.Level = a.LevelName()
	s.SizePx = fmt.Sprintf("%dx%d", g.w, g.h)
	s.Frames = g.opts.BenchFrames
	s.Scope = session.ScopeName(a.Scope())
	s.CPUs = runtime.NumCPU()
	s.LoadAvg1m = loadAvg1m()
	s.FrameMs = spreadOf(b.frameMs)
	s.ViewMs = spreadOf(b.viewMs)
	s.DrawMs = spreadOf(b.drawMs)
	s.ProjectMs = spreadOf(b.projectMs)
	s.DrawnTris = spreadOf(b.drawnTris)
	if wall > 0 {
		s.TPS = round2(float64(b.tick) / wall)
	}
	s.EbitenTPS = round2(ebiten.ActualTPS())
	if cpu, _ := cputime.Process(); cpu > 0 && s.ViewsShown > 0 {
		s.CPUMsPerView = round2(float64(cpu-b.cpu0) / float64(time.Millisecond) / float64(s.ViewsShown))
	}
	rss, _ := cputime.PeakRSS()
	s.PeakRSSMB = round2(float64(rss) / (1 << 20))
	s.RSSMB = round2(float64(residentBytes()) / (1 << 20))
	s.HeapLiveMB = round2(float64(liveHeapBytes()) / (1 << 20))
	if v := a.CacheView(); v.Has {
		s.NavmeshPolys = meshPolys(v.Mesh)
	}
	if a.Build() != nil {
		s.BuildPolys = meshPolys(render.BuildMesh(a.Build()))
	}
	s.CacheBuildMs = round2(float64(a.CacheBuildTime) / float64(time.Millisecond))
	b.phase = benchDone
	g.quit = true
	data, err := json.MarshalIndent(s, "", "  ")
	if err == nil {
		err = session.WriteFileAtomic(g.opts.StatsJSON, append(data, '\n'))
	}
	if err != nil {
		g.exitErr = fmt.Errorf("ui: write bench stats %s: %w", g.opts.StatsJSON, err)
		return
	}
	fmt.Fprintf(os.Stderr, "navviz: bench: frame median %.1f ms, p95 %.1f ms; stats written to %s\n", s.FrameMs.Median, s.FrameMs.P95, g.opts.StatsJSON)
	fmt.Print(s.CostTable())
}

// CostTable returns the overlay costs as the Markdown table of
// docs/guide.md, slowest scene rebuild first (ties by name), then a line
// with the frame figures.
func (s *BenchStats) CostTable() string {
	names := make([]string, 0, len(s.Overlay))
	for n := range s.Overlay {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int {
		if c := cmp.Compare(s.Overlay[b].SceneMs, s.Overlay[a].SceneMs); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	var sb strings.Builder
	sb.WriteString("| overlay | content ms | render ms | triangles | drawn |\n|---|---:|---:|---:|---:|\n")
	for _, n := range names {
		c := s.Overlay[n]
		if c.SceneMs < 1 && c.DrawnTris == 0 {
			continue
		}
		tris := strconv.Itoa(c.Tris)
		if c.Tris == 0 {
			tris = "lines"
		}
		fmt.Fprintf(&sb, "| `%s` | %.1f | %.1f | %s | %d |\n", n, c.ContentMs, c.ProjectMs, tris, c.DrawnTris)
	}
	fmt.Fprintf(&sb, "\n%s, view %s, scope %s, load %.2f: frame median %.1f ms, p95 %.1f ms; render median %.1f ms; %.2f Updates/s; %.1f ms CPU per view; peak RSS %.0f MB\n",
		s.Level, s.SizePx, s.Scope, s.LoadAvg1m, s.FrameMs.Median, s.FrameMs.P95, s.ProjectMs.Median, s.TPS, s.CPUMsPerView, s.PeakRSSMB)
	return sb.String()
}

// meshPolys returns the number of polygons of m (0 for nil).
func meshPolys(m *navmesh.Mesh) int {
	if m == nil {
		return 0
	}
	n := 0
	for _, ref := range m.Tiles() {
		if t, err := m.Tile(ref); err == nil {
			n += len(t.Polys)
		}
	}
	return n
}

// round2 rounds v to two decimals (readable JSON).
func round2(v float64) float64 { return math.Round(v*100) / 100 }

// loadAvg1m is the one-minute load average (/proc/loadavg), or 0.
func loadAvg1m() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}
