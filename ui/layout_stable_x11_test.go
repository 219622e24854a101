package ui

import (
	"fmt"
	"image"
	"testing"
	"time"
)

// TestLayoutStaysUnderCursor drives a real navviz window as a user does
// (xdotool): it presses a control, changes state in a way that used to
// insert content above it, and presses the same pixel again. The same
// control must get both presses: the pixels around it are back to what
// they were before the first press (a header folds back, a checkbox
// clears), and differed in between. The cases:
//   - settings error: the Build tab's "Area volumes" header, with an
//     invalid Cell size typed in between (its error once took a row under
//     the field);
//   - path: the same header, with a Ctrl+click path start in the view in
//     between (the Path panel once appeared at the top of the column);
//   - swap: the Inspect tab's "Record layer rebuilds" checkbox, with a
//     polygon picked and an obstacle placed on it in between (the
//     Inspector once appeared above it, and changed height with a swap);
//   - error: the Level tab's Stats header, with a failed load in between
//     (the Level panel once grew error lines and buttons above it).
func TestLayoutStaysUnderCursor(t *testing.T) {
	ownDisplay(t, testW, testH)
	x := startX11AppTags(t, "nodialog", "city")
	d := newDockState()
	lay := d.layout(x.w, x.h, false, false)
	right, left := lay.cols[dockRight], lay.cols[dockLeft]
	viewC := image.Pt((lay.view.Min.X+lay.view.Max.X)/2, (lay.view.Min.Y+lay.view.Max.Y)/2)
	// tab returns the centre of tab i of column c (a row of equal
	// buttons under the title, debugui's padding 5 and spacing 4).
	tab := func(c image.Rectangle, i, n int) image.Point {
		w := (c.Dx() - 10 - 4*(n-1)) / n
		return image.Pt(c.Min.X+5+i*(w+4)+w/2, c.Min.Y+37)
	}
	move := func(p image.Point) {
		x.run("mousemove", "--window", x.wid, fmt.Sprint(p.X), fmt.Sprint(p.Y))
		time.Sleep(300 * time.Millisecond)
	}
	click := func(p image.Point) {
		move(p)
		x.run("mousedown", "1")
		time.Sleep(300 * time.Millisecond)
		x.run("mouseup", "1")
		time.Sleep(1200 * time.Millisecond)
	}
	key := func(k string) {
		x.run("keydown", k)
		time.Sleep(600 * time.Millisecond)
		x.run("keyup", k)
		time.Sleep(800 * time.Millisecond)
	}
	// around is the picture of the 16x16 pixels around p, the pointer
	// resting in the view (no hover highlight).
	around := func(p image.Point) []uint32 {
		t.Helper()
		move(viewC)
		time.Sleep(1200 * time.Millisecond)
		img := x.shot()
		var px []uint32
		for y := p.Y - 8; y < p.Y+8; y++ {
			for xx := p.X - 8; xx < p.X+8; xx++ {
				r, g, b, _ := img.At(xx, y).RGBA()
				px = append(px, r>>8<<16|g>>8<<8|b>>8)
			}
		}
		return px
	}
	same := func(a, b []uint32) bool {
		for i := range a {
			if a[i] != b[i] {
				return false
			}
		}
		return true
	}
	// pressTwice presses at, runs change, presses at again.
	pressTwice := func(name string, at image.Point, change func()) {
		t.Helper()
		before := around(at)
		click(at)
		if mid := around(at); same(before, mid) {
			t.Fatalf("%s: the first press at %v changed nothing there", name, at)
		}
		change()
		click(at)
		var after []uint32
		for try := 0; try < 5; try++ {
			if after = around(at); same(before, after) {
				return
			}
		}
		t.Errorf("%s: the second press at %v went to another control (the pixels there differ from before the first)", name, at)
	}

	volumes := right.Min.Add(image.Pt(13, 411)) // the Build tab's "Area volumes" header triangle
	cellSize := image.Pt(right.Max.X-90, right.Min.Y+81)
	pressTwice("settings error", volumes, func() {
		click(cellSize)
		x.run("type", "--delay", "150", "abc")
		time.Sleep(500 * time.Millisecond)
		key("Return")
	})
	pressTwice("path", volumes, func() {
		move(viewC)
		x.run("keydown", "ctrl")
		time.Sleep(300 * time.Millisecond)
		click(viewC)
		x.run("keyup", "ctrl")
		time.Sleep(time.Second)
	})
	click(tab(right, tabInspect, len(tabNames[dockRight])))
	record := right.Min.Add(image.Pt(13, 367)) // "Record layer rebuilds"
	pressTwice("swap", record, func() {
		click(viewC) // picks a polygon (the select tool)
		key("2")     // the cylinder tool
		click(viewC) // an obstacle on it: the cache updates, the layer swaps
		time.Sleep(2 * time.Second)
		key("1")
	})
	stats := left.Min.Add(image.Pt(13, 235)) // the Level tab's Stats header triangle
	pressTwice("error", stats, func() {
		click(left.Min.Add(image.Pt(60, 169))) // the path field (nodialog)
		x.run("type", "--delay", "100", "/no/such.obj")
		time.Sleep(500 * time.Millisecond)
		click(left.Min.Add(image.Pt(232, 169))) // Open
		time.Sleep(2 * time.Second)
		// The error is up: red text in the message bar.
		img := x.shot()
		red := 0
		for y := lay.status.Min.Y; y < lay.status.Max.Y; y++ {
			for xx := lay.status.Min.X; xx < lay.status.Max.X; xx++ {
				r, g, b, _ := img.At(xx, y).RGBA()
				if r>>8 > 200 && g>>8 < 140 && b>>8 < 140 {
					red++
				}
			}
		}
		if red < 20 {
			t.Fatalf("error: %d red pixels in the message bar after opening a missing file, want the error", red)
		}
	})
}
