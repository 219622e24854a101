package pipeline

import (
	"context"
	"fmt"
	"testing"

	"navviz/internal/cputime"
)

// BenchmarkTower builds towers of flat floors 3 m apart (towerOBJ) as
// `navmesh build` does (default settings, each tile's spans let go once
// built) on one worker, one op a whole level: the cost should grow with
// the spans, linearly in the floors. Besides the wall time it reports the
// process CPU per build (the worker and the collector), the CPU per million open spans and each stage's
// CPU in ms (docs/build.md §5.1 gives the figures). The 200 m tower of 100
// floors (66M spans) takes seconds: run it with -benchtime 1x.
func BenchmarkTower(b *testing.B) {
	for _, tc := range []struct {
		side   float64
		floors int
	}{{50, 50}, {50, 100}, {50, 200}, {50, 400}, {200, 100}} {
		b.Run(fmt.Sprintf("%gm/floors=%d", tc.side, tc.floors), func(b *testing.B) {
			src := towerSource(b, tc.side, tc.floors, 3)
			s := DefaultSettings()
			opt := BuildOptions{Workers: 1, Take: func(r *TileBuild) error {
				r.Spans, r.ErodedAreas = nil, nil
				return nil
			}}
			var totals StageTimes
			var cpu int64
			spans, n := 0, 0
			for b.Loop() {
				c0, _ := cputime.Process()
				bl, err := BuildLevel(context.Background(), &s, src, opt)
				if err != nil {
					b.Fatal(err)
				}
				c1, _ := cputime.Process()
				cpu += int64(c1 - c0)
				totals.add(&bl.StageTotals)
				spans = bl.SpanCount
				n++
			}
			b.ReportMetric(float64(cpu)/1e6/float64(n), "cpu-ms/op")
			if spans > 0 {
				b.ReportMetric(float64(cpu)/1e6/float64(n)/(float64(spans)/1e6), "cpu-ms/Mspans")
			}
			for st := Stage(0); st < NumStages; st++ {
				b.ReportMetric(float64(totals[st].Microseconds())/1000/float64(n), st.String()+"-ms")
			}
		})
	}
}
