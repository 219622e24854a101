package ui

import (
	"fmt"

	"github.com/ebitengine/debugui"

	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/render"
	"navviz/tilecache"
	"navviz/ui/session"
)

// The Link tool draws, moves and deletes the cache's off-mesh links
// (jumps, ladders; tilecache.Cache.AddOffMeshLink, docs/tilecache.md §4a).
//
// Mouse and keys: a click on the level sets a link's start (a green
// square), the next click its end and adds the link (one undoable
// command, selected); a press on an end of a link (within its radius, at
// least offMeshGrabM) selects that link and a drag moves that end (one
// undoable command); Delete removes the selected link, Escape forgets a
// start not yet ended (or a drag in progress). The links are drawn by the
// "offmesh" overlay as arcs with arrows towards their end (both ways on a
// bidirectional link), the selected one white.

// Link tool defaults: radius (metres), both ways, walkable area 63 (its
// flags are the cache settings' AreaFlags[63]).
const (
	defaultOffMeshRadiusM = 0.5
	defaultOffMeshArea    = 63
)

// offMeshTool is the Link tool's settings and state.
type offMeshTool struct {
	// RadiusM, Bidirectional and AreaID are the new links' radius
	// (metres, > 0), direction and area id (0..63).
	RadiusM       float64
	Bidirectional bool
	AreaID        int

	// pending is the start clicked, waiting for the end.
	pending    geom.Vec3
	hasPending bool
	drag       offMeshDrag

	// cache is the cache (cacheView.cacheSeq) the state above belongs
	// to: another cache resets it (state).
	cache uint64
	// nums are the fields' texts (number_field.go).
	nums numberFields
}

// offMeshDrag is an end of a link being moved.
type offMeshDrag struct {
	active bool
	id     tilecache.OffMeshLinkID
	end    uint8 // 0 start, 1 end
	from   navmesh.OffMeshLink
	to     geom.Vec3
	moved  bool
}

// defaultOffMeshTool returns the tool's defaults.
func defaultOffMeshTool() offMeshTool {
	return offMeshTool{RadiusM: defaultOffMeshRadiusM, Bidirectional: true, AreaID: defaultOffMeshArea}
}

// state returns the tool, its gesture state reset when the cache changed
// since it was last used.
func (t *offMeshTool) state(a *session.App) *offMeshTool {
	if seq := a.CacheView().CacheSeq; t.cache != seq {
		t.cache = seq
		t.hasPending, t.drag = false, offMeshDrag{}
	}
	return t
}

// newLink returns the link from start to end with the tool's settings and
// the cache's flags for its area (validated).
func (t *offMeshTool) newLink(a *session.App, start, end geom.Vec3) (navmesh.OffMeshLink, error) {
	if t.AreaID < 0 || t.AreaID > navmesh.MaxArea {
		return navmesh.OffMeshLink{}, fmt.Errorf("ui: link area id %d, want 0..%d", t.AreaID, navmesh.MaxArea)
	}
	l := navmesh.OffMeshLink{StartM: start, EndM: end, RadiusM: float32(t.RadiusM), Bidirectional: t.Bidirectional,
		Area: uint8(t.AreaID), Flags: a.CacheView().Settings.AreaFlags[t.AreaID]}
	if err := l.Validate(); err != nil {
		return navmesh.OffMeshLink{}, fmt.Errorf("ui: cannot add the link: %w", err)
	}
	return l, nil
}

// click handles a click on level point p: the first click sets the start,
// the second adds the link from it to p (App.AddOffMesh, which selects
// it).
func (t *offMeshTool) click(a *session.App, p geom.Vec3) error {
	if !a.CacheView().Has {
		return a.Report(session.ErrNoCache)
	}
	t.state(a)
	if !p.Finite() {
		return a.Report(fmt.Errorf("ui: link point %v is not finite", p))
	}
	if !t.hasPending {
		t.pending, t.hasPending = p, true
		a.Gens.Preview++
		a.ReportOK(fmt.Sprintf("link start at (%.1f, %.1f, %.1f): click its end", p.X, p.Y, p.Z))
		return nil
	}
	l, err := t.newLink(a, t.pending, p)
	if err != nil {
		return a.Report(err)
	}
	t.hasPending = false
	a.Gens.Preview++
	return a.AddOffMesh(l)
}

// press handles a press on level point p: on an end of a link it selects
// the link and starts moving that end (true); elsewhere it does nothing
// (false: the release will be a click).
func (t *offMeshTool) press(a *session.App, p geom.Vec3) bool {
	if !a.CacheView().Has {
		return false
	}
	t.state(a)
	l, e, ok := a.OffMeshEndAt(p)
	if !ok || t.hasPending {
		return false
	}
	id := tilecache.OffMeshLinkID(l.UserID)
	a.SelectLink(id)
	t.drag = offMeshDrag{active: true, id: id, end: e, from: l, to: l.Point(e)}
	a.Gens.Preview++
	return true
}

// dragTo moves the end being dragged to p (shown as a preview).
func (t *offMeshTool) dragTo(a *session.App, p geom.Vec3) {
	t.state(a)
	if !t.drag.active || !p.Finite() {
		return
	}
	t.drag.to, t.drag.moved = p, true
	a.Gens.Preview++
}

// release ends a press at level point p: a drag that moved moves the
// link's end there (App.MoveOffMesh); a press on an end that did not move
// only selected it; any other press is a click.
func (t *offMeshTool) release(a *session.App, p geom.Vec3, moved bool) error {
	t.state(a)
	if !t.drag.active {
		if moved {
			return nil
		}
		return t.click(a, p)
	}
	d := t.drag
	t.drag = offMeshDrag{}
	a.Gens.Preview++
	if !d.moved {
		a.ReportOK(fmt.Sprintf("link L%d selected: drag an end to move it, Delete removes it", d.id))
		return nil
	}
	to := d.from
	if d.end == 0 {
		to.StartM = d.to
	} else {
		to.EndM = d.to
	}
	return a.MoveOffMesh(d.id, d.from, to)
}

// cancel forgets a start not yet ended and a drag in progress (Escape).
func (t *offMeshTool) cancel(a *session.App) {
	t.state(a)
	t.hasPending, t.drag = false, offMeshDrag{}
	a.Gens.Preview++
}

// previewPoints returns what the preview draws: the start waiting for its
// end, or the moved end's link as a line.
func (t *offMeshTool) previewPoints(a *session.App) []geom.Vec3 {
	t.state(a)
	switch {
	case t.drag.active:
		return []geom.Vec3{t.drag.from.Point(1 - t.drag.end), t.drag.to}
	case t.hasPending:
		return []geom.Vec3{t.pending}
	}
	return nil
}

// The tool interface (tool.go).

func (*offMeshTool) label() string   { return "link" }
func (*offMeshTool) takesLeft() bool { return true }

// putAway keeps a start not yet ended: back in the tool, the link goes
// on.
func (*offMeshTool) putAway(*session.App) {}

func (t *offMeshTool) Preview(a *session.App) *render.Overlay {
	return render.PreviewOverlay(nil, a.CacheView().GrowthM, t.previewPoints(a), true)
}

// pointer: a press on a link's end grabs it, a drag moves it, a release
// moves it there or is a click (release).
func (t *offMeshTool) pointer(ev pointerEvent, g *Game) bool {
	a := g.App
	at := func(x, y int) (geom.Vec3, bool) {
		p, ok := g.levelPoint(x, y)
		if !ok {
			a.Report(fmt.Errorf("ui: no level under the cursor for a link end"))
		}
		return p, ok
	}
	switch ev.Kind {
	case pointerPress:
		if p, ok := at(ev.X, ev.Y); ok {
			t.press(a, p)
		}
	case pointerDrag:
		if t.drag.active {
			if p, ok := at(ev.X, ev.Y); ok {
				t.dragTo(a, p)
			}
		}
	case pointerRelease:
		x, y := ev.PressX, ev.PressY
		if ev.Moved {
			x, y = ev.X, ev.Y
		}
		if p, ok := at(x, y); ok {
			a.Report(t.release(a, p, ev.Moved))
		} else {
			t.cancel(a)
		}
	}
	return false
}

// keys: Delete removes the selected link, Escape forgets a start or a
// drag.
func (t *offMeshTool) keys(k toolKeys, g *Game) {
	a := g.App
	switch {
	case k.Delete:
		a.Report(session.ErrOf(a.DeleteSelectedOffMesh()))
	case k.Escape:
		t.cancel(a)
	}
}

// panel draws the new links' radius, direction and area, and the links
// with select and remove buttons.
func (t *offMeshTool) panel(ctx *debugui.Context, g *Game) {
	a := g.App
	t.state(a)
	grid := []int{-3, -2}
	ctx.SetGridLayout(grid, nil)
	nf := &t.nums
	nf.label(ctx, "link-radius", "Radius (m)")
	nf.float(ctx, "link-radius", &t.RadiusM, numberSpec{digits: 2, step: 0.1})
	nf.label(ctx, "link-area", "Area id (0-63)")
	nf.int(ctx, "link-area", &t.AreaID, numberSpec{step: 1})
	ctx.SetGridLayout(nil, nil)
	t.AreaID = min(max(t.AreaID, 0), navmesh.MaxArea)
	t.RadiusM = max(t.RadiusM, 0.05)
	ctx.Checkbox(&t.Bidirectional, "Both ways")
	ctx.SetGridLayout([]int{-1, -1}, nil)
	ctx.Button("Cancel (Esc)").On(func() { t.cancel(a) })
	ctx.Button("Delete (Del)").On(func() { a.Report(session.ErrOf(a.DeleteSelectedOffMesh())) })
	ctx.SetGridLayout(nil, nil)
	ctx.Text("Click the level for a link's start, then its end. Drag an end to move it; Delete removes the selected link. Arrows point the way; white is selected.")
	v := a.CacheView()
	if !v.Has {
		return
	}
	links := v.Links
	ctx.Text(fmt.Sprintf("Links (%d), next id %d:", len(links), v.NextLink))
	ctx.SetGridLayout([]int{44, -1, 24}, nil)
	ctx.Loop(len(links), func(i int) {
		l := links[i]
		id := tilecache.OffMeshLinkID(l.UserID)
		label := fmt.Sprintf("L%d", id)
		if id == a.Selection.Link() {
			label = "*" + label
		}
		ctx.Button(label).On(func() { a.SelectLink(id) })
		ctx.Text(session.DescribeOffMesh(&l))
		ctx.Button("x").On(func() { a.Report(a.RemoveOffMesh(id)) })
	})
	ctx.SetGridLayout(nil, nil)
}
