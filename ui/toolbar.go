package ui

import (
	"image"
	"image/color"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
)

// The toolbar: a strip above the 3D view with one button per tool, always
// on the first screen whatever the columns show. Each button shows its key
// (1-8, also the shortcut when no field has the focus); pointing at one
// shows what it does in the message bar (debugui v0.2.0 has no tooltips).
// It is drawn and hit-tested here, not by debugui, so that its buttons
// have fixed places computed from the layout alone (toolbarButtons).

// toolbarEntry is one button of the toolbar.
type toolbarEntry struct {
	name string
	key  ebiten.Key
	hint string
	// tool returns the tool the button makes active; shape, for the
	// obstacle tool, the shape it picks (-1: any).
	tool  func(b *toolBox) tool
	shape int
}

// toolbarEntries are the toolbar's buttons, in order; the key of entry i
// is Key1+i.
var toolbarEntries = []toolbarEntry{
	{name: "select", hint: "Select: a left click picks a polygon and selects its tile (Inspect tab).", tool: func(b *toolBox) tool { return b.pick }, shape: -1},
	{name: "cylinder", hint: "Cylinder obstacle: click the level to place one, drag one to move it, Delete removes the selected one (Tools tab: its size).", tool: func(b *toolBox) tool { return b.obstacle }, shape: 0},
	{name: "box", hint: "Box obstacle: click the level to place one, drag one to move it (Tools tab: its size).", tool: func(b *toolBox) tool { return b.obstacle }, shape: 1},
	{name: "oriented box", hint: "Oriented box obstacle: click to place, drag to move, the wheel over one turns it (Tools tab: size and yaw).", tool: func(b *toolBox) tool { return b.obstacle }, shape: 2},
	{name: "volume", hint: "Area volume: click corners on the level, Enter closes the volume, Backspace drops the last corner (Tools tab: area and heights).", tool: func(b *toolBox) tool { return b.volume }, shape: -1},
	{name: "link", hint: "Off-mesh link: press on the start, release on the end (Tools tab: radius, direction, area).", tool: func(b *toolBox) tool { return b.link }, shape: -1},
	{name: "path", hint: "Path: the first click sets the start, the next the end (Path tab: length, corridor). Ctrl+click and Ctrl+right-click work with every tool.", tool: func(b *toolBox) tool { return b.pathPick }, shape: -1},
	{name: "agents", hint: "Agents: click the level to send the crowd there (Tools tab: count, seed, spawn).", tool: func(b *toolBox) tool { return b.agents }, shape: -1},
}

func init() {
	for i := range toolbarEntries {
		toolbarEntries[i].key = ebiten.Key1 + ebiten.Key(i)
	}
}

// Toolbar sizes in pixels (the debugui font: 6 px wide glyphs, 12 px high).
const (
	toolbarRowPx    = 24
	toolbarPadPx    = 3
	toolbarGapPx    = 4
	toolbarButtonPx = 20 // a button's height
)

// toolbarButtonWidth is the width of entry e's button: its key, a space
// and its name, and a margin.
func toolbarButtonWidth(e toolbarEntry) int {
	return (len(e.name)+2)*msgGlyphWPx + 2*msgPadPx
}

// toolbarButtons returns the rectangles of the toolbar's buttons in a
// toolbar of width wPx at (0, 0), left to right, wrapping into rows.
func toolbarButtons(wPx int) []image.Rectangle {
	out := make([]image.Rectangle, len(toolbarEntries))
	x, y := toolbarPadPx, toolbarPadPx
	for i, e := range toolbarEntries {
		bw := toolbarButtonWidth(e)
		if x > toolbarPadPx && x+bw > wPx-toolbarPadPx {
			x, y = toolbarPadPx, y+toolbarRowPx
		}
		out[i] = image.Rect(x, y, x+bw, y+toolbarButtonPx)
		x += bw + toolbarGapPx
	}
	return out
}

// toolbarHeight is the height of a toolbar of width wPx.
func toolbarHeight(wPx int) int {
	bs := toolbarButtons(wPx)
	return bs[len(bs)-1].Max.Y + toolbarPadPx
}

// toolbarAt returns the index of the toolbar button at screen point p, or
// -1.
func (g *Game) toolbarAt(p image.Point) int {
	r := g.lay.toolbar
	if !p.In(r) {
		return -1
	}
	for i, b := range toolbarButtons(r.Dx()) {
		if p.In(b.Add(r.Min)) {
			return i
		}
	}
	return -1
}

// toolbarActive reports whether entry i's tool is the active one.
func (g *Game) toolbarActive(i int) bool {
	e := toolbarEntries[i]
	if g.tools.active != e.tool(&g.tools) {
		return false
	}
	return e.shape < 0 || g.tools.obstacle.ShapeIdx == e.shape
}

// chooseToolbar makes entry i's tool active (with its shape) and shows the
// right column's tab of its settings.
func (g *Game) chooseToolbar(i int) {
	if i < 0 || i >= len(toolbarEntries) {
		return
	}
	e := toolbarEntries[i]
	if e.shape >= 0 {
		g.tools.obstacle.ShapeIdx = e.shape
	}
	g.setTool(e.tool(&g.tools))
	switch {
	case e.tool(&g.tools) == g.tools.pathPick:
		g.setTab(dockRight, tabPath)
	case e.tool(&g.tools) == g.tools.pick:
		g.setTab(dockRight, tabInspect)
	default:
		g.setTab(dockRight, tabTools)
	}
	g.App.SetStatus(e.hint)
}

// toolbarKey returns the toolbar entry whose key was just pressed, or -1.
func toolbarKey(just func(ebiten.Key) bool) int {
	for i, e := range toolbarEntries {
		if just(e.key) {
			return i
		}
	}
	return -1
}

// Colours of the toolbar (debugui's window, button and hover greys).
var (
	toolbarBGColor     = color.RGBA{R: 45, G: 45, B: 45, A: 255}
	toolbarButtonColor = color.RGBA{R: 75, G: 75, B: 75, A: 255}
	toolbarHoverColor  = color.RGBA{R: 95, G: 95, B: 95, A: 255}
	toolbarActiveColor = color.RGBA{R: 0x2e, G: 0x6b, B: 0x9e, A: 255}
)

// drawToolbar draws the toolbar: each button with its key and name, the
// active tool's in blue, the one under the pointer lighter.
func (g *Game) drawToolbar(screen *ebiten.Image) {
	r := g.lay.toolbar
	if r.Empty() {
		return
	}
	vector.DrawFilledRect(screen, float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy()), toolbarBGColor, false)
	hover := g.toolbarAt(g.pointer)
	for i, b := range toolbarButtons(r.Dx()) {
		b = b.Add(r.Min)
		col := toolbarButtonColor
		switch {
		case g.toolbarActive(i):
			col = toolbarActiveColor
		case i == hover:
			col = toolbarHoverColor
		}
		vector.DrawFilledRect(screen, float32(b.Min.X), float32(b.Min.Y), float32(b.Dx()), float32(b.Dy()), col, false)
		e := toolbarEntries[i]
		y := float64(b.Min.Y + (b.Dy()-msgLineHPx)/2 + 2)
		op := &text.DrawOptions{}
		op.GeoM.Translate(float64(b.Min.X+msgPadPx), y)
		op.ColorScale.ScaleWithColor(hintTextColor)
		if g.toolbarActive(i) {
			op.ColorScale.Reset()
			op.ColorScale.ScaleWithColor(statusTextColor)
		}
		debugui.DrawText(screen, string(rune('1'+i)), op)
		op = &text.DrawOptions{}
		op.GeoM.Translate(float64(b.Min.X+msgPadPx+2*msgGlyphWPx), y)
		op.ColorScale.ScaleWithColor(color.RGBA{R: 230, G: 230, B: 230, A: 255})
		debugui.DrawText(screen, e.name, op)
	}
}
