package ui

import (
	"fmt"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"

	"navviz/core/pipeline"
)

// statsPanel shows the size of the level and the frame rate.
func (g *Game) statsPanel(ctx *debugui.Context) {
	s := g.App.Stats()
	ctx.Text(fmt.Sprintf("Triangles: %d, vertices: %d", s.Triangles, s.Vertices))
	if !s.Bounds.Empty() {
		sz := s.Bounds.Size()
		ctx.Text(fmt.Sprintf("Size: %.1f x %.1f x %.1f m", sz.X, sz.Y, sz.Z))
		ctx.Text(fmt.Sprintf("From %.1f, %.1f, %.1f to %.1f, %.1f, %.1f m", s.Bounds.Min.X, s.Bounds.Min.Y, s.Bounds.Min.Z,
			s.Bounds.Max.X, s.Bounds.Max.Y, s.Bounds.Max.Z))
	}
	ctx.Text(fmt.Sprintf("FPS: %.1f  TPS: %.1f", ebiten.ActualFPS(), ebiten.ActualTPS()))
	ctx.Text(fmt.Sprintf("Redraws %.1f ms apart (draw %.1f ms)", g.stats.frameMs, g.stats.drawMs))
	if st := &g.stats; st.rssBytes > 0 {
		ctx.Text(fmt.Sprintf("Memory: %s resident, Go heap %s", pipeline.FormatBytes(int64(st.rssBytes)), pipeline.FormatBytes(int64(st.heapBytes))))
	} else {
		ctx.Text(fmt.Sprintf("Memory: Go heap %s", pipeline.FormatBytes(int64(st.heapBytes))))
	}
	ctx.Text(fmt.Sprintf("Drawn: %d triangles, lines and points", g.view.drawnTris))
	ctx.Text(fmt.Sprintf("Scene rebuild: %.1f ms", g.view.buildMs))
}
