package ui

import (
	"image"
	"testing"
)

// TestToolbarReachesEveryTool: at 1280x800 the toolbar is on the first
// screen with a button per tool (select, the three obstacle shapes,
// volume, link, path, agents), each wholly inside it; one click on a
// button (press and release, injected as a user's) makes its tool active
// with its shape, shows the tool's tab, and the tool's key does the same.
func TestToolbarReachesEveryTool(t *testing.T) {
	g := newTestGame(t, "city")
	drawFrames(t, g, 1)
	screen := image.Rect(0, 0, testW, testH)
	tb := g.lay.toolbar
	if tb.Empty() || !tb.In(screen) || tb.Overlaps(g.lay.view) {
		t.Fatalf("toolbar %v: want a strip on the %v screen beside the view %v", tb, screen, g.lay.view)
	}
	want := []string{"select", "cylinder", "box", "oriented box", "volume", "link", "path", "agents"}
	if len(toolbarEntries) != len(want) {
		t.Fatalf("%d toolbar entries, want %d", len(toolbarEntries), len(want))
	}
	buttons := toolbarButtons(tb.Dx())
	check := func(how string, i int) {
		t.Helper()
		e := toolbarEntries[i]
		if !g.toolbarActive(i) || g.tools.active.label() != e.tool(&g.tools).label() {
			t.Errorf("%s %q: active tool %s (shape %d)", how, e.name, g.tools.active.label(), g.tools.obstacle.ShapeIdx)
		}
		for k := range toolbarEntries {
			if k != i && g.toolbarActive(k) {
				t.Errorf("%s %q: %q shows active too", how, e.name, toolbarEntries[k].name)
			}
		}
	}
	for i, name := range want {
		if toolbarEntries[i].name != name {
			t.Errorf("entry %d is %q, want %q", i, toolbarEntries[i].name, name)
		}
		b := buttons[i].Add(tb.Min)
		if !b.In(tb) {
			t.Errorf("button %q %v outside the toolbar %v", name, b, tb)
		}
		// Start from another tool, so that the click must change it.
		other := (i + 1) % len(want)
		g.chooseToolbar(other)
		c := image.Pt((b.Min.X+b.Max.X)/2, (b.Min.Y+b.Max.Y)/2)
		g.injected = append(g.injected, frameInput{X: c.X, Y: c.Y}, frameInput{X: c.X, Y: c.Y, Left: true}, frameInput{X: c.X, Y: c.Y})
		drawFrames(t, g, 3)
		check("click on", i)
		if g.App.Selected().OK {
			t.Errorf("the click on %q reached the view (tile selected)", name)
		}
		wantTab := tabTools
		switch name {
		case "select":
			wantTab = tabInspect
		case "path":
			wantTab = tabPath
		}
		if g.dock.tab[dockRight] != wantTab {
			t.Errorf("%q shows tab %d, want %d", name, g.dock.tab[dockRight], wantTab)
		}
		// The key does the same.
		g.chooseToolbar(other)
		g.toolKeys(toolKeys{Tool: i + 1})
		check("key of", i)
	}
}

// TestToolbarWraps: a narrow toolbar puts its buttons on more rows, none
// overlapping another or past the toolbar's right edge.
func TestToolbarWraps(t *testing.T) {
	for _, w := range []int{120, 300, 658, 1200} {
		bs := toolbarButtons(w)
		h := toolbarHeight(w)
		for i, b := range bs {
			if b.Max.Y > h || (b.Max.X > w && b.Min.X > toolbarPadPx) {
				t.Errorf("width %d: button %d %v outside %dx%d", w, i, b, w, h)
			}
			for k := 0; k < i; k++ {
				if b.Overlaps(bs[k]) {
					t.Errorf("width %d: buttons %d and %d overlap", w, k, i)
				}
			}
		}
	}
	if toolbarHeight(1200) != toolbarRowPx+2*toolbarPadPx-(toolbarRowPx-toolbarButtonPx) || toolbarHeight(300) <= toolbarHeight(1200) {
		t.Errorf("heights %d (300 px) and %d (1200 px)", toolbarHeight(300), toolbarHeight(1200))
	}
}

// TestUIScale: --ui-scale takes 1, 1.5 and 2 (with or without an x) and
// refuses the rest; a device scale factor snaps to the nearest; a scale
// divides the screen Layout gives (the panels, toolbar and view are drawn
// that many times larger), and the View tab's choice takes effect at the
// next Layout.
func TestUIScale(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"1", 1, true}, {"1.5", 1.5, true}, {"2x", 2, true}, {" 1.5X ", 1.5, true},
		{"0", 0, false}, {"3", 0, false}, {"1.25", 0, false}, {"big", 0, false}, {"", 0, false},
	} {
		got, err := ParseUIScale(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseUIScale(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
	for f, want := range map[float64]float64{0: 1, 1: 1, 1.25: 1.5, 1.5: 1.5, 1.8: 2, 3: 2} {
		if got := snapUIScale(f); got != want {
			t.Errorf("snapUIScale(%v) = %v, want %v", f, got, want)
		}
	}
	if _, err := (Options{UIScale: 3}).normalize(); err == nil {
		t.Error("Options.UIScale 3 accepted")
	}
	if deviceScale() != 1 {
		t.Skipf("device scale factor %v: the sizes below are for 1", deviceScale())
	}
	g := newTestGame(t, "city")
	for _, tc := range []struct {
		scale float64
		w, h  int
	}{{1, 1280, 800}, {1.5, 853, 533}, {2, 640, 400}} {
		g.setUIScale(tc.scale)
		if w, h := g.Layout(1280, 800); w != tc.w || h != tc.h || g.lay.view.Max.X > w {
			t.Errorf("scale %v: Layout(1280, 800) = %d, %d (view %v), want %d, %d", tc.scale, w, h, g.lay.view, tc.w, tc.h)
		}
	}
}

// TestTabsFitTheScreen: at 1280x800, on city with its tile cache built,
// every tab of both columns shows all it has without scrolling: no column
// needs more than one screen (the columns' content as debugui measured it
// fits their windows' bodies).
func TestTabsFitTheScreen(t *testing.T) {
	g, err := NewGame(Options{Level: "city", Width: testW, Height: testH, AutoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	for g.autoCachePending() {
		drawFrames(t, g, 1)
	}
	for side, names := range tabNames {
		for tab, name := range names {
			g.setTab(side, tab)
			drawFrames(t, g, 3)
			c := g.dock.cols[side]
			saveForInspection(t, "tab-"+name, drawFrames(t, g, 1))
			t.Logf("tab %s: content %v, body %v", name, c.content, c.body)
			if c.body.Empty() || c.content.Y > c.body.Dy() {
				t.Errorf("tab %s: content %d px high in a body of %v", name, c.content.Y, c.body)
			}
		}
	}
}
