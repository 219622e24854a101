package ui

import (
	"fmt"

	"github.com/ebitengine/debugui"

	"navviz/core/geom"
	"navviz/core/voxel"
	"navviz/ui/session"
)

// tool is one choice of the Cache panel's Tools section: what a plain left
// press in the view does, as RecastDemo gives each tool its own class with
// menu, click and render hooks. A tool keeps its own settings and gesture
// state; the Game holds one of each (toolBox), so that they survive
// choosing another tool and back, and hands the active one the frame's
// events (cacheStep).
type tool interface {
	// label names the tool on its choice button.
	label() string
	// panel draws the tool's rows of the Tools section.
	panel(ctx *debugui.Context, g *Game)
	// takesLeft reports whether a plain left press in the view starts a
	// gesture of the tool (toolPointer); false leaves the press to the
	// camera controller, whose click picks (the select tool).
	takesLeft() bool
	// pointer handles an event of the tool's gesture, or a wheel step
	// over the view; it reports whether it used a wheel step (the camera
	// then does not zoom).
	pointer(ev pointerEvent, g *Game) bool
	// keys applies the tool's keys (not while a widget has the focus).
	keys(k toolKeys, g *Game)
	// putAway forgets a gesture in progress: another tool was chosen or
	// the Cache panel closed. The settings stay.
	putAway(a *session.App)
	session.Previewer
}

// toolBox is the Game's tools, one of each, and the active one.
type toolBox struct {
	active   tool
	pick     *selectTool
	obstacle *obstacleTool
	volume   *volumeTool
	agents   *agentsTool
	link     *offMeshTool
	pathPick *pathPickTool // the toolbar's path tool (tool_path.go)
	// ptr is the left-button gesture of the active tool.
	ptr toolPointer
	// path is the Path tool's modifier clicks, not a choice: they work
	// with every tool (tool_path.go).
	path pathTool
}

// newToolBox returns the tools with their defaults, select active.
func newToolBox() toolBox {
	o, v, l := defaultObstacleTool(), defaultVolumeTool(), defaultOffMeshTool()
	b := toolBox{pick: &selectTool{}, obstacle: &o, volume: &v, agents: &agentsTool{}, link: &l, pathPick: &pathPickTool{}}
	b.active = b.pick
	return b
}

// ObstacleSelected loads the selected obstacle's shape and size into the
// Obstacle tool's fields, so that Apply edits what is selected.
func (b *toolBox) ObstacleSelected(o voxel.Obstacle) { b.obstacle.loadFrom(o) }

// CacheReplaced drops the Obstacle tool's drag and, with a new cache, the
// Volume tool's corners.
func (b *toolBox) CacheReplaced(restored bool) {
	b.obstacle.drag = obstacleDrag{}
	if !restored {
		b.volume.Corners = nil
	}
}

// setTool makes t the active tool: the one before puts its gesture away,
// and the preview shows t's.
func (g *Game) setTool(t tool) {
	b := &g.tools
	if b.active == t {
		return
	}
	b.active.putAway(g.App)
	b.active = t
	g.App.SetToolPreview(t)
	g.App.Gens.Preview++
	g.panelGen++
}

// toolChoice names the active tool at the top of the Tools tab (the
// toolbar chooses it: toolbar.go).
func (g *Game) toolChoice(ctx *debugui.Context) {
	name := g.tools.active.label()
	for i := range toolbarEntries {
		if g.toolbarActive(i) {
			name = fmt.Sprintf("%s (key %d)", toolbarEntries[i].name, i+1)
		}
	}
	ctx.Text("Tool: " + name + "; the toolbar above the view chooses another.")
}

// runTools hands the frame's keys, the tool gesture of the left button and
// the wheel over the view to the active tool; it returns in without what
// the tool used.
func (g *Game) runTools(in frameInput, keys toolKeys) frameInput {
	active := g.tools.active
	if in.Captured&debugui.InputCapturingStateFocus == 0 {
		g.toolKeys(keys)
	}
	ev, consumed := g.tools.ptr.step(in, active.takesLeft())
	if consumed {
		in.Left = false
	}
	if ev.Kind != pointerNone {
		active.pointer(ev, g)
	}
	hover := in.Captured&debugui.InputCapturingStateHover != 0
	if in.WheelY != 0 && !hover && !g.tools.ptr.down {
		if active.pointer(pointerEvent{Kind: pointerWheel, X: in.X, Y: in.Y, WheelY: in.WheelY}, g) {
			in.WheelY = 0
		}
	}
	return in
}

// toolKeys applies the keys of every tool (undo, redo), then the active
// tool's own.
func (g *Game) toolKeys(k toolKeys) {
	a := g.App
	switch {
	case k.Undo:
		a.Report(session.ErrOf(a.Undo()))
	case k.Redo:
		a.Report(session.ErrOf(a.Redo()))
	case k.Tool > 0:
		g.chooseToolbar(k.Tool - 1) // toolbar.go
	}
	g.tools.active.keys(k, g)
}

// levelPoint returns the level point under pixel (x, y) of the view
// (App.worldPoint).
func (g *Game) levelPoint(x, y int) (geom.Vec3, bool) {
	return g.App.WorldPoint(float64(x), float64(y), g.w, g.h)
}
