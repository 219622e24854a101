package ui

import (
	"fmt"
	"image"
	"image/color"
	"maps"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
)

// The docked layout.
//
// The panels sit in two columns at the window's edges, as in RecastDemo:
// the left one (tabs Level and View; in scenario mode Scenario and Stats)
// and the right one (tabs Build, Cache, Tools, Inspect, Path; panels.go),
// each widening with the window until the user drags its grip. The centre
// between them is cut into strips, top to bottom: the toolbar
// (toolbar.go), the 3D view, and under it the strips of fixed height
// (centreStrips: today the message bar; a timeline is one more entry).
// The camera projects into the view's rectangle (its aspect is the view's), and
// picking, framing and the mouse use its coordinates (Game.w, Game.h are
// its size; input is translated into it, see dockInput). Nothing of the
// dock covers the view and no click in the dock reaches it.
//
// A column collapses to a narrow strip (the » button, its window's title
// triangle, or Tab for both) and is resized by dragging the grip between
// it and the view (or, for the left column, its window's resize corner).
//
// debugui v0.2.0 places a window only when it first appears and lets the
// user move it, so each column's window is keyed (debugui.IDScope) by the
// rectangle it must have: a new layout (window resized, column resized or
// collapsed) makes a new window there, and a window the user dragged away
// is re-made in place. The sections' open/closed state lives in dockState
// so it survives that.

// Sizes of the dock in pixels.
const (
	dockLeftDefaultPx  = 270 // at dockScaleFromPx wide and less
	dockRightDefaultPx = 340
	// dockScaleFromPx is the screen width above which the columns widen
	// in proportion (until the user drags a grip).
	dockScaleFromPx = 1280
	dockMinPx       = 180 // narrowest open column
	dockStripPx     = 30  // a collapsed column
	dockGripPx      = 6   // the resize grip beside an open column
	minViewPx       = 120 // the view keeps at least this width
	// statusStripPx is the height of the message bar under the view: two
	// lines of text (a longer message grows over the view's bottom).
	statusStripPx = 2*msgLineHPx + 2*msgPadPx
)

// The two columns.
const (
	dockLeft = iota
	dockRight
)

// dockColumn is the state of one column.
type dockColumn struct {
	widthPx int  // width when open; 0: autoWidth (not dragged yet)
	open    bool // open, or collapsed to a strip

	// key is the debugui ID scope of the column's window (see above);
	// gen is bumped to re-make the window in place; init is the sections'
	// state when the window was made (their debugui Header's initial
	// expansion); seen the bounds debugui last gave the window, body its
	// body's and content the size of what it showed.
	key     string
	gen     int
	init    map[string]bool
	seen    image.Rectangle
	body    image.Rectangle
	content image.Point
}

// dockState is the Game's dock: both columns, the open sections and a
// grip drag in progress.
type dockState struct {
	cols     [2]dockColumn
	sections map[string]bool // open sections, by title
	tab      [2]int          // each column's tab (panels.go)
	grip     int             // column whose grip is being dragged (-1: none)
	cursorEW bool            // the cursor shows the resize shape
}

// newDockState returns both columns open at their default widths.
func newDockState() dockState {
	return dockState{
		cols: [2]dockColumn{
			{open: true},
			{open: true},
		},
		// Agent sizes starts folded: the Cache tab then fits a 1280x800
		// window.
		sections: map[string]bool{"Agent sizes": false},
		grip:     -1,
	}
}

// screenLayout is where things are on a screen: the column windows (empty
// when absent), their grips (empty when collapsed), the toolbar, the 3D
// view and the status strip (empty when there is no room or no UI).
type screenLayout struct {
	cols    [2]image.Rectangle
	grips   [2]image.Rectangle
	toolbar image.Rectangle
	view    image.Rectangle
	status  image.Rectangle
}

// autoWidth is the open width of column side on a wPx wide screen before
// the user drags its grip: the default, in proportion above
// dockScaleFromPx.
func autoWidth(side, wPx int) int {
	w := dockLeftDefaultPx
	if side == dockRight {
		w = dockRightDefaultPx
	}
	return w * max(wPx, dockScaleFromPx) / dockScaleFromPx
}

// centreStrips are the strips of fixed height under the view, top to
// bottom, each a height in pixels and where layout puts its rectangle. A
// new strip (the session timeline) is one more entry; each shows only
// when the screen is at least 3 of its heights high.
func (l *screenLayout) centreStrips() []struct {
	hPx int
	r   *image.Rectangle
} {
	return []struct {
		hPx int
		r   *image.Rectangle
	}{
		{statusStripPx, &l.status},
	}
}

// layout returns the layout of a wPx x hPx screen. hideUI gives the whole
// screen to the view; oneColumn (scenario mode) has no right column. Open
// columns are narrowed (down to dockMinPx, then collapsed) so that the view
// keeps minViewPx; the view is never empty.
func (d *dockState) layout(wPx, hPx int, hideUI, oneColumn bool) screenLayout {
	wPx, hPx = max(wPx, 1), max(hPx, 1)
	var l screenLayout
	if hideUI {
		l.view = image.Rect(0, 0, wPx, hPx)
		return l
	}
	n := 2
	if oneColumn {
		n = 1
	}
	widths := [2]int{}
	for i := 0; i < n; i++ {
		widths[i] = dockStripPx
		if c := d.cols[i]; c.open {
			w := c.widthPx
			if w == 0 {
				w = autoWidth(i, wPx)
			}
			widths[i] = max(w, dockMinPx) + dockGripPx
		}
	}
	// Narrow, then collapse, the widest open column while the view is too
	// narrow.
	for wPx-widths[0]-widths[1] < minViewPx {
		i := 0
		if widths[1] > widths[0] {
			i = 1
		}
		if widths[i] <= dockStripPx {
			break // both are strips: the view takes what is left
		}
		over := minViewPx - (wPx - widths[0] - widths[1])
		if w := widths[i] - over; w >= dockMinPx+dockGripPx {
			widths[i] = w
		} else {
			widths[i] = dockStripPx
		}
	}
	left, right := widths[0], widths[1]
	if left+right >= wPx {
		left, right = min(left, wPx/3), min(right, wPx/3)
	}
	for i, w := range [2]int{left, right} {
		if w == 0 {
			continue
		}
		col := w
		if w > dockStripPx {
			col = w - dockGripPx
		}
		if i == dockLeft {
			l.cols[i] = image.Rect(0, 0, col, hPx)
			if col < w {
				l.grips[i] = image.Rect(col, 0, w, hPx)
			}
		} else {
			l.cols[i] = image.Rect(wPx-col, 0, wPx, hPx)
			if col < w {
				l.grips[i] = image.Rect(wPx-w, 0, wPx-col, hPx)
			}
		}
	}
	// The centre, cut from the bottom (the strips) and the top (the
	// toolbar, when the view keeps twice its height; a scenario playing
	// has no tools).
	x0, x1 := left, max(wPx-right, left+1)
	top, bottom := 0, hPx
	strips := l.centreStrips()
	for i := len(strips) - 1; i >= 0; i-- {
		st := strips[i]
		if hPx >= 3*st.hPx && bottom-st.hPx > top {
			*st.r = image.Rect(x0, bottom-st.hPx, x1, bottom)
			bottom -= st.hPx
		}
	}
	if th := toolbarHeight(x1 - x0); !oneColumn && bottom-top >= 3*th {
		l.toolbar = image.Rect(x0, 0, x1, th)
		top = th
	}
	l.view = image.Rect(x0, top, x1, bottom)
	return l
}

// relayout recomputes g.lay for the screen size and the dock, and gives
// the App the view's size (framing fits the view's aspect).
func (g *Game) relayout() {
	g.lay = g.dock.layout(g.screenW, g.screenH, g.opts.HideUI, g.scen != nil)
	g.w, g.h = g.lay.view.Dx(), g.lay.view.Dy()
	g.App.SetViewport(g.w, g.h)
}

// dockWindow shows column side's window at its place in g.lay: when the
// column is open, sections(ctx) fills it; collapsed, a » button opens it.
// It notices the window's title triangle (the column collapses or opens),
// a drag of its resize corner (the left column's width follows) and a
// drag of the window (it goes back).
func (g *Game) dockWindow(ctx *debugui.Context, side int, title string, sections func()) {
	want := g.lay.cols[side]
	if want.Empty() {
		return
	}
	c := &g.dock.cols[side]
	key := fmt.Sprintf("dock %d %v %v %d", side, want, c.open, c.gen)
	if key != c.key {
		c.key, c.init = key, maps.Clone(g.dock.sections)
	}
	called := false
	open := c.open && want.Dx() > dockStripPx // a narrow window shows a strip
	if !open {
		title = ""
	}
	ctx.IDScope(key, func() {
		ctx.Window(title, want, func(l debugui.ContainerLayout) {
			called = true
			c.seen, c.body, c.content = l.Bounds, l.BodyBounds, l.ContentSize
			if !open {
				ctx.Button("»").On(func() { g.setDockOpen(side, true) })
				return
			}
			sections()
		})
	})
	switch {
	case !called:
		// The title's triangle folded the window: fold the column (or,
		// on a strip, open it).
		g.setDockOpen(side, !open)
	case c.seen == want:
	case side == dockLeft && open && c.seen.Min == want.Min && c.seen.Dx() != want.Dx():
		g.setDockWidth(side, c.seen.Dx())
	default:
		c.gen++ // moved or resized otherwise: back in place
	}
}

// section shows one collapsible section of a column: a header that keeps
// its state across the column's windows (see dockState), and body under
// it when open.
func (g *Game) section(ctx *debugui.Context, side int, title string, body func()) {
	// The Header's initial expansion must stay the same for the life of
	// the window (debugui keeps only whether it was toggled since).
	c := &g.dock.cols[side]
	open, known := c.init[title]
	if !known {
		open = true
		if v, ok := g.dock.sections[title]; ok {
			open = v
		}
		if c.init == nil {
			c.init = map[string]bool{}
		}
		c.init[title] = open
	}
	shown := false
	ctx.IDScope(title, func() {
		ctx.Header(title, open, func() {
			shown = true
			body()
		})
	})
	g.dock.sections[title] = shown
}

// setDockOpen opens or collapses column side.
func (g *Game) setDockOpen(side int, open bool) {
	g.dock.cols[side].open = open
	g.relayout()
}

// setDockWidth sets the open width of column side, within dockMinPx and
// what leaves the view minViewPx.
func (g *Game) setDockWidth(side int, wPx int) {
	other := g.lay.cols[1-side].Dx() + g.lay.grips[1-side].Dx()
	most := max(dockMinPx, g.screenW-other-minViewPx-dockGripPx)
	g.dock.cols[side].widthPx = max(dockMinPx, min(wPx, most))
	g.relayout()
}

// toggleDock collapses both columns when one is open, else opens both
// (Tab).
func (g *Game) toggleDock() {
	open := !(g.dock.cols[dockLeft].open || g.dock.cols[dockRight].open)
	g.dock.cols[dockLeft].open, g.dock.cols[dockRight].open = open, open
	g.relayout()
}

// dockInput runs the dock's part of one input snapshot (screen
// coordinates): Tab, and dragging a grip. It returns the snapshot for the
// view: in the view's coordinates, and captured (as if over a panel) when
// the pointer is outside the view or on a grip, so that no tool or camera
// move starts there.
func (g *Game) dockInput(in frameInput) frameInput {
	if g.opts.HideUI {
		return in
	}
	focus := in.Captured&debugui.InputCapturingStateFocus != 0
	if in.KeyDock && !focus {
		g.toggleDock()
	}
	pt := image.Pt(in.X, in.Y)
	d := &g.dock
	switch {
	case d.grip >= 0 && !in.Left:
		d.grip = -1
	case d.grip >= 0:
		w := in.X - g.lay.cols[dockLeft].Min.X
		if d.grip == dockRight {
			w = g.lay.cols[dockRight].Max.X - in.X
		}
		if w-dockGripPx/2 != g.lay.cols[d.grip].Dx() {
			g.setDockWidth(d.grip, w-dockGripPx/2)
		}
	case in.Left && !g.dockPrevLeft && !focus:
		for i, r := range g.lay.grips {
			if pt.In(r) {
				d.grip = i
			}
		}
		if in.Captured&debugui.InputCapturingStateHover != 0 {
			break // a debugui popup over the toolbar or the message bar
		}
		if i := g.toolbarAt(pt); i >= 0 {
			g.chooseToolbar(i) // toolbar.go
		}
		for _, b := range g.messageButtons() { // messages.go
			if pt.In(b.r) {
				b.do()
				g.panelGen++
			}
		}
	}
	g.pointer = pt
	g.dockPrevLeft = in.Left
	onGrip := d.grip >= 0 || pt.In(g.lay.grips[dockLeft]) || pt.In(g.lay.grips[dockRight])
	if onGrip != d.cursorEW {
		d.cursorEW = onGrip
		if onGrip {
			ebiten.SetCursorShape(ebiten.CursorShapeEWResize)
		} else {
			ebiten.SetCursorShape(ebiten.CursorShapeDefault)
		}
	}
	if onGrip || !pt.In(g.lay.view) {
		in.Captured |= debugui.InputCapturingStateHover
	}
	in.X -= g.lay.view.Min.X
	in.Y -= g.lay.view.Min.Y
	return in
}

// Colours of the dock's grips.
var (
	gripColor     = color.RGBA{R: 0x3a, G: 0x3f, B: 0x48, A: 0xff}
	gripLineColor = color.RGBA{R: 0x70, G: 0x78, B: 0x84, A: 0xff}
)

// drawGrips draws the columns' resize grips: a bar with a short line in
// the middle.
func (g *Game) drawGrips(screen *ebiten.Image) {
	for i, r := range g.lay.grips {
		if r.Empty() {
			continue
		}
		vector.DrawFilledRect(screen, float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy()), gripColor, false)
		mx := float32(r.Min.X) + float32(r.Dx())/2
		my := float32(r.Min.Y) + float32(r.Dy())/2
		col := gripLineColor
		if g.dock.grip == i {
			col = statusTextColor
		}
		vector.StrokeLine(screen, mx, my-20, mx, my+20, 2, col, false)
	}
}
