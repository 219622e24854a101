package tilecache

import (
	"context"
	"testing"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/pipeline"
	"navviz/internal/cputime"
)

// BenchmarkDragObstacle is issue 33's moving obstacle on the generated
// city: the cycle's cylinder (CycleObstacle) at the first of
// CityCyclePoints dragged along x in 0.3 m steps, 3 m either side, back and
// forth; one op is one drag step, as navviz makes it: RemoveObstacle of the
// old position, AddObstacle of the new one and UpdateAll of the touched
// tiles (tile 64, layers, no detail sampling, one worker). It reports the
// process CPU per step and the tiles rebuilt per step.
func BenchmarkDragObstacle(b *testing.B) {
	soup := loadLevel(b, "city")
	s := pipeline.DefaultSettings()
	s.Partition, s.DetailSampleDistCells = pipeline.Layers, 0
	ch, err := level.NewChunky(soup, 256)
	if err != nil {
		b.Fatal(err)
	}
	c, err := BuildChunk(context.Background(), &s, soup, ch, Options{Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	p := CityCyclePoints()[0]
	const steps = 20 // 6 m in 0.3 m steps
	at := func(k int) geom.Vec3 {
		k %= 2 * steps // back and forth
		if k > steps {
			k = 2*steps - k
		}
		return geom.V3(float32(float64(p.X)-3+0.3*float64(k)), p.Y, p.Z)
	}
	id, err := c.AddObstacle(CycleObstacle(at(0)))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := c.UpdateAll(); err != nil {
		b.Fatal(err)
	}
	tiles := 0
	b.ReportAllocs()
	c0, _ := cputime.Process()
	k := 0
	for b.Loop() {
		k++
		if err := c.RemoveObstacle(id); err != nil {
			b.Fatal(err)
		}
		if id, err = c.AddObstacle(CycleObstacle(at(k))); err != nil {
			b.Fatal(err)
		}
		res, err := c.UpdateAll()
		if err != nil {
			b.Fatal(err)
		}
		tiles += len(res.Tiles)
	}
	c1, _ := cputime.Process()
	b.ReportMetric(float64(c1-c0)/1e3/float64(k), "cpu-µs/step")
	b.ReportMetric(float64(tiles)/float64(k), "tiles/step")
}
