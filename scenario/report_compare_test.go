package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testReport is a report with a step of each kind that has figures.
func testReport() *Report {
	q := 2
	return &Report{
		Scenario: "t.scenario.json", Level: "terrain seed 1", Partition: "layers", Cache: true, TilesX: 2, TilesZ: 2,
		MeshHash: "00000000000000aa", FinalMeshHash: "00000000000000bb",
		Steps: []StepReport{
			{Step: 1, Kind: KindObstacle, Did: "added", Queued: &q},
			{Step: 2, Kind: KindUpdate, Did: "updated", MeshHash: "00000000000000bb", Update: &UpdateReport{
				Tiles:  []TileReport{{TX: 1, TZ: 0, Rebuild: "built", LayersBuilt: 1, LayersRepaired: 1, RemovedSpans: 30}},
				Layers: []LayerLine{{TX: 1, Layer: 0, Repaired: true, Precondition: "", Verdict: "repaired", Contours: "equal"}},
			}},
			{Step: 3, Kind: KindPath, Did: "path", Path: &PathReport{Found: true, Corners: 4, Polygons: 9, LengthM: 12.5}},
			{Step: 4, Kind: KindAgents, Did: "agents", Agents: &AgentsReport{Steps: 60, TimeS: 1, Moving: 1, Agents: []AgentLine{{PosM: [3]float32{1, 2, 3}, State: "moving"}}}},
		},
	}
}

func TestCompareReport(t *testing.T) {
	cases := []struct {
		name string
		edit func(r *Report)
		want []string // the FAIL lines; nil: equal
	}{
		{"equal", func(r *Report) {}, nil},
		{"final mesh hash", func(r *Report) { r.FinalMeshHash = "00000000000000cc" },
			[]string{`FAIL report.json: final_mesh_hash = "00000000000000cc", golden "00000000000000bb"`}},
		{"verdict", func(r *Report) { r.Steps[1].Update.Layers[0].Verdict = "(c) split" },
			[]string{`FAIL report.json step 2 update: update.layers[0].verdict = "(c) split", golden "repaired"`}},
		{"path figures", func(r *Report) { r.Steps[2].Path.LengthM, r.Steps[2].Path.Corners = 13, 5 },
			[]string{"FAIL report.json step 3 path: path.corners = 5, golden 4", "FAIL report.json step 3 path: path.length_m = 13, golden 12.5"}},
		{"agent position", func(r *Report) { r.Steps[3].Agents.Agents[0].PosM[2] = 4 },
			[]string{"FAIL report.json step 4 agents: agents.agents[0].pos_m = [1,2,4], golden [1,2,3]"}},
		{"queued absent", func(r *Report) { r.Steps[0].Queued = nil },
			[]string{"FAIL report.json step 1 obstacle: queued = absent, golden 2"}},
		{"one more tile", func(r *Report) {
			u := r.Steps[1].Update
			u.Tiles = append(u.Tiles, u.Tiles[0])
		}, []string{"FAIL report.json step 2 update: update.tiles = 2 entries, golden 1 entries"}},
		{"a step more", func(r *Report) { r.Steps = append(r.Steps, StepReport{Step: 5, Kind: KindShot}) },
			[]string{"FAIL report.json: steps = 5 steps, golden 4 steps"}},
	}
	dir := t.TempDir()
	if err := UpdateGoldenReport(testReport(), dir); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := testReport()
			c.edit(r)
			rc, err := CompareReport(r, dir)
			if err != nil {
				t.Fatal(err)
			}
			got := rc.Lines()
			if c.want == nil {
				if rc.Failed || len(got) != 1 || !strings.HasPrefix(got[0], "ok   report.json") {
					t.Errorf("equal reports: %q", got)
				}
				return
			}
			if !rc.Failed || strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("lines\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// TestCompareReportMany: the first MaxReportDiffs differences are listed,
// the others counted.
func TestCompareReportMany(t *testing.T) {
	agents := func(state string) *Report {
		r := testReport()
		a := r.Steps[3].Agents
		a.Agents = nil
		for range MaxReportDiffs + 7 {
			a.Agents = append(a.Agents, AgentLine{State: state})
		}
		return r
	}
	dir := t.TempDir()
	if err := UpdateGoldenReport(agents("moving"), dir); err != nil {
		t.Fatal(err)
	}
	rc, err := CompareReport(agents("arrived"), dir)
	if err != nil {
		t.Fatal(err)
	}
	l := rc.Lines()
	if !rc.Failed || len(rc.Diffs) != MaxReportDiffs || rc.More != 7 || l[len(l)-1] != "FAIL report.json: 7 more differences" {
		t.Errorf("%d listed, %d more; last line %q", len(rc.Diffs), rc.More, l[len(l)-1])
	}
}

// TestCompareReportGolden: a missing golden fails the comparison; a
// broken one or one over MaxReportBytes is an error naming it.
func TestCompareReportGolden(t *testing.T) {
	dir := t.TempDir()
	rc, err := CompareReport(testReport(), dir)
	if err != nil || !rc.Failed || !strings.Contains(rc.Problem, "missing golden") {
		t.Errorf("without a golden: %+v, %v", rc, err)
	}
	if err := os.WriteFile(filepath.Join(dir, ReportFile), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := CompareReport(testReport(), dir); err == nil || !strings.Contains(err.Error(), ReportFile) {
		t.Errorf("a broken golden: %v", err)
	}
	if err := os.Truncate(filepath.Join(dir, ReportFile), MaxReportBytes+1); err != nil {
		t.Fatal(err)
	}
	if _, err := CompareReport(testReport(), dir); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("a golden over the limit: %v", err)
	}
}
