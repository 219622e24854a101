package ui

import (
	"fmt"
	"image/color"
	"math"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"navviz/core/geom"
	"navviz/render"
)

// The in-view labels of the tile cache: queue order, obstacle and volume
// ids, drawn over the scene and under the panels.

// Colours of the in-view labels.
var (
	labelShadow   = color.RGBA{0, 0, 0, 220}
	labelObstacle = color.RGBA{255, 235, 120, 255}
	labelSelected = color.RGBA{160, 240, 255, 255}
	labelVolume   = color.RGBA{200, 255, 200, 255}
)

// maxQueueLabels bounds the queue numbers drawn in the view.
const maxQueueLabels = 200

// drawCacheLabels draws, over the scene and under the panels, the queue
// order numbers at the centre of the queued tiles' lowest floor (when
// "queue" is shown; render.TileMarkFrame), "#id" over
// each obstacle ("obstacles") and "V#id" over each run-time volume
// ("volumes-rt"), projected through the camera.
func (g *Game) drawCacheLabels(screen *ebiten.Image) {
	a := g.App
	c := a.CacheView()
	if !c.Has {
		return
	}
	// screen is the view's rectangle of the screen (dock.go).
	w, h := screen.Bounds().Dx(), screen.Bounds().Dy()
	ox, oy := float64(screen.Bounds().Min.X), float64(screen.Bounds().Min.Y)
	shown := func(name string) bool {
		o := a.Scene().Overlay(name)
		return o != nil && o.Visible
	}
	label := func(p geom.Vec3, s string, col color.RGBA) {
		x, y, _, ok := a.Camera.Project(p, w, h)
		if !ok || x < -50 || y < -20 || x > float64(w)+50 || y > float64(h)+20 {
			return
		}
		x, y = x+ox, y+oy
		for _, d := range [][2]float64{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}} {
			drawCentred(screen, s, x+d[0], y+d[1], labelShadow)
		}
		drawCentred(screen, s, x, y, col)
	}
	if shown(render.OverlayQueue) {
		q := c.Queue
		for i, p := range q[:min(len(q), maxQueueLabels)] {
			if r, ok := render.TileMarkFrame(&c.Grid, c.Mesh, p[0], p[1], 0); ok {
				label(r.Center(), fmt.Sprint(i+1), lightenRGBA(render.QueueColour(i, len(q)), 0.45))
			}
		}
	}
	if shown(render.OverlayObstacles) {
		for _, o := range c.Obstacles {
			minX, minZ, maxX, maxZ := o.Obstacle.BoundsXZ()
			_, hi := o.Obstacle.HeightRangeM()
			col := labelObstacle
			if o.ID == a.Selection.Obstacle() {
				col = labelSelected
			}
			label(geom.V3(float32((minX+maxX)/2), float32(hi)+0.4, float32((minZ+maxZ)/2)), fmt.Sprintf("#%d", o.ID), col)
		}
	}
	if shown(render.OverlayVolumesRT) {
		for _, v := range c.Volumes {
			var sx, sz float32
			for _, p := range v.Volume.VertsXZ {
				sx += p[0]
				sz += p[1]
			}
			n := float32(max(len(v.Volume.VertsXZ), 1))
			y := v.Volume.MaxYM
			if a.Soup() != nil {
				y = min(y, a.Soup().Bounds().Max.Y)
			}
			label(geom.V3(sx/n, y, sz/n), fmt.Sprintf("V#%d", v.ID), labelVolume)
		}
	}
}

// lightenRGBA moves c towards white by f (0..1), for text on dark
// shadows.
func lightenRGBA(c color.RGBA, f float64) color.RGBA {
	l := func(v uint8) uint8 { return uint8(math.Round(float64(v) + (255-float64(v))*f)) }
	return color.RGBA{l(c.R), l(c.G), l(c.B), c.A}
}

// drawCentred draws s centred on (x, y) in the debugui font.
func drawCentred(screen *ebiten.Image, s string, x, y float64, col color.RGBA) {
	op := &text.DrawOptions{}
	op.GeoM.Translate(x, y)
	op.PrimaryAlign = text.AlignCenter
	op.SecondaryAlign = text.AlignCenter
	op.ColorScale.ScaleWithColor(col)
	debugui.DrawText(screen, s, op)
}
