package scenario

import (
	"strings"
	"testing"
)

func TestParseFind(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want Find
		err  string
	}{
		{q: "scratch", want: Find{Kind: "scratch"}},
		{q: "scratch=c", want: Find{Kind: "scratch", Precondition: "c"}},
		{q: "differ", want: Find{Kind: "differ"}},
		{q: "failed", want: Find{Kind: "failed"}},
		{q: "tile=5,7", want: Find{Kind: "tile", TX: 5, TZ: 7}},
		{q: "path-change=0.5", want: Find{Kind: "path-change", ChangeM: 0.5}},
		{q: "mesh-change", want: Find{Kind: "mesh-change"}},
		{q: "scratch=e", err: `precondition "e"`},
		{q: "tile=5", err: `tile "5"`},
		{q: "tile=-1,2", err: `tile "-1,2"`},
		{q: "path-change", err: `metres ""`},
		{q: "path-change=NaN", err: `metres "NaN"`},
		{q: "differ=1", err: "takes no value"},
		{q: "bogus", err: "unknown query"},
	} {
		got, err := ParseFind(tc.q)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), FindSyntax) {
				t.Errorf("%q: err %v, want %q and the syntax", tc.q, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: %+v, %v; want %+v", tc.q, got, err, tc.want)
		}
	}
}

// TestFindSteps: each query finds the steps of a report where its thing
// happens, and only those.
func TestFindSteps(t *testing.T) {
	rep := &Report{MeshHash: "h0", Steps: []StepReport{
		{Step: 1, Kind: KindObstacle},
		{Step: 2, Kind: KindUpdate, MeshHash: "h1", Update: &UpdateReport{
			Tiles:  []TileReport{{TX: 1, TZ: 2, Rebuild: "built"}},
			Layers: []LayerLine{{TX: 1, TZ: 2, Repaired: false, Precondition: "c", Verdict: "(c) split"}, {TX: 1, TZ: 2, Layer: 1, Repaired: true, Contours: "equal"}}}},
		{Step: 3, Kind: KindPath, Path: &PathReport{Found: true, LengthM: 10}},
		{Step: 4, Kind: KindUpdate, MeshHash: "h1", Update: &UpdateReport{
			Tiles:  []TileReport{{TX: 3, TZ: 2, Rebuild: "built"}},
			Layers: []LayerLine{{TX: 3, TZ: 2, Repaired: true, Contours: "DIFFER", Diff: "loop 2"}, {TX: 3, TZ: 2, Layer: 1, Repaired: false, Precondition: "b"}},
			Failed: []FailedTile{{TX: 4, TZ: 4, Layer: -1, Error: "boom"}}}},
		{Step: 5, Kind: KindShot, Path: &PathReport{Found: true, LengthM: 10.2}},
		{Step: 6, Kind: KindPath, Path: &PathReport{Found: true, LengthM: 13}},
		{Step: 7, Kind: KindRestore, MeshHash: "h0"},
	}}
	for _, tc := range []struct {
		q    string
		want []int
	}{
		{"scratch", []int{2, 4}},
		{"scratch=c", []int{2}},
		{"scratch=b", []int{4}},
		{"scratch=a", nil},
		{"differ", []int{4}},
		{"failed", []int{4}},
		{"tile=1,2", []int{2}},
		{"tile=2,1", nil},
		{"path-change=0.5", []int{6}},
		{"path-change=0.1", []int{5, 6}},
		{"mesh-change", []int{2, 7}},
	} {
		f, err := ParseFind(tc.q)
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, s := range f.Steps(rep) {
			got = append(got, s.Step)
			if s.Why == "" {
				t.Errorf("%s: step %d without a reason", tc.q, s.Step)
			}
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: steps %v, want %v", tc.q, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: steps %v, want %v", tc.q, got, tc.want)
				break
			}
		}
	}
}
