package ui

import (
	"math"

	"github.com/hajimehoshi/ebiten/v2"
)

// The final screen.
//
// Every frame that drew anything ends with Ebitengine copying the whole
// offscreen screen onto the window's framebuffer. Under a software GL
// (Mesa's llvmpipe, what CI machines and remote desktops have) that copy
// is one of the largest costs of a frame: about 14 ns a pixel with
// Ebitengine's general image shader, 1280x800 pixels each frame. A shader
// that only fetches the source texel, blended as a copy, does it in about
// three quarters of the time.

// copyShaderSrc is the Kage source of the final-screen copy.
var copyShaderSrc = []byte(`//kage:unit pixels
package main

func Fragment(dst vec4, src vec2, color vec4) vec4 {
	return imageSrc0UnsafeAt(src)
}
`)

// DrawFinalScreen implements ebiten.FinalScreenDrawer: the offscreen is
// copied with copyShader when the window shows it pixel for pixel, and
// drawn scaled otherwise (a high-density display or a fullscreen
// letterbox: nearest pixel for whole scales, linear otherwise, as
// Ebitengine does).
func (g *Game) DrawFinalScreen(screen ebiten.FinalScreen, offscreen *ebiten.Image, geoM ebiten.GeoM) {
	scale := geoM.Element(0, 0)
	if scale == 1 && g.copyShader == nil && !g.copyShaderErr {
		s, err := ebiten.NewShader(copyShaderSrc)
		g.copyShader, g.copyShaderErr = s, err != nil // an error cannot happen: the source is fixed
	}
	if scale != 1 || g.copyShader == nil {
		op := &ebiten.DrawImageOptions{GeoM: geoM}
		if scale != math.Floor(scale) {
			op.Filter = ebiten.FilterLinear
		}
		screen.DrawImage(offscreen, op)
		return
	}
	op := &ebiten.DrawRectShaderOptions{GeoM: geoM, Blend: ebiten.BlendCopy}
	op.Images[0] = offscreen
	b := offscreen.Bounds()
	screen.DrawRectShader(b.Dx(), b.Dy(), g.copyShader, op)
}
