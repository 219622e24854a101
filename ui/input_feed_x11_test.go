package ui

import (
	"fmt"
	"image"
	"testing"
	"time"
)

// TestPressAfterJump moves the pointer of a real navviz window onto the
// Level panel's "Tile cache panel" checkbox, lets it rest there (debugui
// hovers it), then moves it to the View panel's "solid" checkbox and
// clicks with no pause (xdotool mousemove X Y click 1: the move and the
// press arrive in one tick). The click must toggle "solid" only: debugui
// v0.2.0 alone resolves the press against the widget hovered in the
// previous tick and toggles "Tile cache panel" as well (pointerFeed fixes
// that). Three rounds: "solid" is on after the odd ones, off after the
// even ones, and "Tile cache panel" never changes.
func TestPressAfterJump(t *testing.T) {
	x := startX11App(t, "--no-cache", "city")
	cacheBox := levelPanelRect.Min.Add(image.Pt(12, 126)) // "Tile cache panel"
	solidBox := viewPanelRect.Min.Add(image.Pt(12, 81))   // "solid", second overlay row
	rest := image.Pt(x.w/2, x.h/2)                        // in the 3D view, off every panel
	move := func(p image.Point, more ...string) {
		x.run(append([]string{"mousemove", "--window", x.wid, fmt.Sprint(p.X), fmt.Sprint(p.Y)}, more...)...)
	}
	// shotAtRest is the window with the pointer off the panels (no hover
	// highlight), a few frames after it got there.
	shotAtRest := func() image.Image {
		move(rest)
		time.Sleep(1500 * time.Millisecond)
		return x.shot()
	}
	// changed counts the pixels around a checkbox that differ between a and b.
	changed := func(a, b image.Image, at image.Point) int {
		n := 0
		r := image.Rect(at.X-8, at.Y-8, at.X+8, at.Y+8)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if a.At(x, y) != b.At(x, y) {
					n++
				}
			}
		}
		return n
	}
	before := shotAtRest()
	for round := 1; round <= 3; round++ {
		move(cacheBox)
		time.Sleep(time.Second) // debugui hovers the checkbox
		move(solidBox, "click", "1")
		time.Sleep(500 * time.Millisecond)
		after := shotAtRest()
		if n := changed(before, after, cacheBox); n != 0 {
			t.Fatalf("round %d: %d pixels of \"Tile cache panel\" changed: the press went to the widget hovered before the jump", round, n)
		}
		solidOn := changed(before, after, solidBox) > 0
		if want := round%2 == 1; solidOn != want {
			t.Fatalf("round %d: \"solid\" checked %v, want %v: the press was lost", round, solidOn, want)
		}
	}
}
