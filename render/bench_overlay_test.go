package render

import (
	"sync"
	"testing"

	"navviz/core/pipeline"
)

// benchCity builds city once per partition with the kept stages (the span
// overlays need them), the way navviz's Build panel does.
var benchCity = struct {
	sync.Mutex
	builds map[pipeline.PartitionType]*pipeline.Build
}{builds: map[pipeline.PartitionType]*pipeline.Build{}}

func cityStagesBuild(tb testing.TB, p pipeline.PartitionType) *pipeline.Build {
	tb.Helper()
	benchCity.Lock()
	defer benchCity.Unlock()
	if b := benchCity.builds[p]; b != nil {
		return b
	}
	s := pipeline.DefaultSettings()
	s.Partition = p
	b := buildCity(tb, &s, pipeline.BuildOptions{KeepStages: true})
	benchCity.builds[p] = b
	return b
}

// buildOverlay returns the span or mesh overlay name of b, every tile.
func buildOverlay(tb testing.TB, name string, b *pipeline.Build) *Overlay {
	o, err := StageOverlay(name, b, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return o
}

// BenchmarkOverlay measures the scene build of every span and mesh overlay
// at whole-level scope (every tile) on city: the default build with kept
// stages, and for "layers" the layer partition (under the default one the
// overlay is one colour). Reported per op: triangles and lines of the
// overlay (run with -benchmem for the bytes).
//
//	go test -run '^$' -bench Overlay -benchmem ./render
func BenchmarkOverlay(b *testing.B) {
	names := append(append([]string(nil), SpanOverlayNames...), MeshOverlayNames...)
	for _, name := range names {
		b.Run(name, func(b *testing.B) {
			p := pipeline.DefaultSettings().Partition
			if name == OverlayLayers {
				p = pipeline.Layers
			}
			bl := cityStagesBuild(b, p)
			b.ReportAllocs()
			var o *Overlay
			for b.Loop() {
				o = buildOverlay(b, name, bl)
			}
			b.ReportMetric(float64(len(o.Tris)/3), "tris/op")
			b.ReportMetric(float64(len(o.Lines)/2), "lines/op")
		})
	}
}
