package scenario

import (
	"reflect"
	"strings"
	"testing"

	"navviz/core/pipeline"
	"navviz/core/voxel"
)

// TestSettingsOf: SettingsOf then NavSettings gives the settings back bit
// for bit, writes only the fields that differ, and refuses build-time
// volumes and obstacles.
func TestSettingsOf(t *testing.T) {
	layers := pipeline.DefaultSettings()
	layers.Partition, layers.DetailSampleDistCells = pipeline.Layers, 0
	odd := pipeline.DefaultSettings()
	odd.CellSizeM, odd.AgentRadiusM, odd.TileSizeCells, odd.VertsPerPoly = 0.17, 0.43, 48, 5
	withVol := pipeline.DefaultSettings()
	withVol.Volumes = []voxel.ConvexVolume{{VertsXZ: [][2]float32{{0, 0}, {1, 0}, {0, 1}}, MinYM: 0, MaxYM: 1, Area: 2}}
	for _, tc := range []struct {
		name   string
		s      pipeline.NavSettings
		fields int // JSON keys written
		err    string
	}{
		{"defaults", pipeline.DefaultSettings(), 0, ""},
		{"layers", layers, 2, ""},
		{"odd values", odd, 4, ""},
		{"build-time volume", withVol, 0, "1 build-time volumes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := SettingsOf(tc.s)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			sc := &Scenario{FormatVersion: Version, Level: Level{Builtin: "terrain"}, Settings: st, Steps: []Step{}}
			data, err := Marshal(sc)
			if err != nil {
				t.Fatal(err)
			}
			back, err := Parse(data, "x.scenario.json")
			if err != nil {
				t.Fatal(err)
			}
			got, err := back.NavSettings()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.s) {
				t.Errorf("round trip: got %+v, want %+v", got, tc.s)
			}
			n := 0
			if st != nil {
				v := reflect.ValueOf(*st)
				for i := 0; i < v.NumField(); i++ {
					if !v.Field(i).IsZero() {
						n++
					}
				}
			}
			if n != tc.fields {
				t.Errorf("%d fields written, want %d", n, tc.fields)
			}
		})
	}
}
