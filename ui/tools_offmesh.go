package ui

import (
	"fmt"
	"math"

	"github.com/ebitengine/debugui"

	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/tilecache"
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
	// offMeshGrabM is the least horizontal distance, metres, within which
	// a press takes a link's end; offMeshGrabYM the vertical one.
	offMeshGrabM  = 0.75
	offMeshGrabYM = 2.5
)

// offMeshTool is the Link tool's settings and state.
type offMeshTool struct {
	// RadiusM, Bidirectional and AreaID are the new links' radius
	// (metres, > 0), direction and area id (0..63).
	RadiusM       float64
	Bidirectional bool
	AreaID        int
	// Selected is the selected link (0: none).
	Selected tilecache.OffMeshLinkID

	// pending is the start clicked, waiting for the end.
	pending    geom.Vec3
	hasPending bool
	drag       offMeshDrag

	// cache is the cache (cacheView.cacheSeq) the state above belongs
	// to: another cache resets it (offMeshState).
	cache uint64
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

// offMeshOps is the part of tilecache.Cache the link commands use.
type offMeshOps interface {
	AddOffMeshLink(navmesh.OffMeshLink) (tilecache.OffMeshLinkID, error)
	MoveOffMeshLink(tilecache.OffMeshLinkID, navmesh.OffMeshLink) error
	RemoveOffMeshLink(tilecache.OffMeshLinkID) error
}

// defaultOffMeshTool returns the tool's defaults.
func defaultOffMeshTool() offMeshTool {
	return offMeshTool{RadiusM: defaultOffMeshRadiusM, Bidirectional: true, AreaID: defaultOffMeshArea}
}

// offMeshState returns the tool, its state reset when the cache changed
// since it was last used.
func (a *App) offMeshState() *offMeshTool {
	t := &a.OffMeshTool
	if seq := a.cv().cacheSeq; t.cache != seq {
		t.cache = seq
		t.Selected, t.hasPending, t.drag = 0, false, offMeshDrag{}
	}
	return t
}

// link returns the editor's handle of link id (made on first need).
func (e *cacheEditor) link(id tilecache.OffMeshLinkID) *offMeshHandle { return handleOf(e.links, id) }

// offMeshOpsOf returns the editor's cache as offMeshOps. The session
// recorder does not write links yet: a session that edits them cannot be
// saved as a scenario (rather than saved without them).
func offMeshOpsOf(e *cacheEditor) (offMeshOps, error) {
	if e == nil || e.c == nil {
		return nil, errNoCache
	}
	ops, ok := e.c.(offMeshOps)
	if !ok {
		return nil, fmt.Errorf("ui: this cache has no off-mesh links")
	}
	if e.rec != nil && e.rec.on {
		e.rec.fail("the session edits off-mesh links, which Save session as scenario does not write yet (add offmesh steps by hand, docs/scenario.md)")
	}
	return ops, nil
}

// addOffMeshCmd adds a link; undo removes it.
type addOffMeshCmd struct {
	h *offMeshHandle
	l navmesh.OffMeshLink
}

func (c *addOffMeshCmd) do(e *cacheEditor) error {
	ops, err := offMeshOpsOf(e)
	if err != nil {
		return err
	}
	id, err := ops.AddOffMeshLink(c.l)
	if err != nil {
		return err
	}
	c.h.id = id
	e.links[id] = c.h
	return nil
}

func (c *addOffMeshCmd) undo(e *cacheEditor) error {
	ops, err := offMeshOpsOf(e)
	if err != nil {
		return err
	}
	if err := ops.RemoveOffMeshLink(c.h.id); err != nil {
		return err
	}
	delete(e.links, c.h.id)
	c.h.id = 0
	return nil
}

func (c *addOffMeshCmd) String() string { return fmt.Sprintf("add link L%d", c.h.id) }

// removeOffMeshCmd removes a link; undo adds it back (under a new id).
type removeOffMeshCmd struct{ add addOffMeshCmd }

func (c *removeOffMeshCmd) do(e *cacheEditor) error   { return c.add.undo(e) }
func (c *removeOffMeshCmd) undo(e *cacheEditor) error { return c.add.do(e) }
func (c *removeOffMeshCmd) String() string            { return "remove link" }

// moveOffMeshCmd moves a link's ends (same id); undo moves them back.
type moveOffMeshCmd struct {
	h        *offMeshHandle
	from, to navmesh.OffMeshLink
}

func (c *moveOffMeshCmd) move(e *cacheEditor, l navmesh.OffMeshLink) error {
	ops, err := offMeshOpsOf(e)
	if err != nil {
		return err
	}
	return ops.MoveOffMeshLink(c.h.id, l)
}

func (c *moveOffMeshCmd) do(e *cacheEditor) error   { return c.move(e, c.to) }
func (c *moveOffMeshCmd) undo(e *cacheEditor) error { return c.move(e, c.from) }
func (c *moveOffMeshCmd) String() string            { return fmt.Sprintf("move link L%d", c.h.id) }

// newOffMeshLink returns the link from start to end with the tool's
// settings and the cache's flags for its area (validated).
func (a *App) newOffMeshLink(start, end geom.Vec3) (navmesh.OffMeshLink, error) {
	t := &a.OffMeshTool
	if t.AreaID < 0 || t.AreaID > navmesh.MaxArea {
		return navmesh.OffMeshLink{}, fmt.Errorf("ui: link area id %d, want 0..%d", t.AreaID, navmesh.MaxArea)
	}
	l := navmesh.OffMeshLink{StartM: start, EndM: end, RadiusM: float32(t.RadiusM), Bidirectional: t.Bidirectional,
		Area: uint8(t.AreaID), Flags: a.cv().settings.AreaFlags[t.AreaID]}
	if err := l.Validate(); err != nil {
		return navmesh.OffMeshLink{}, fmt.Errorf("ui: cannot add the link: %w", err)
	}
	return l, nil
}

// OffMeshClick handles a click of the Link tool on level point p: the
// first click sets the start, the second adds the link from it to p (an
// undoable command) and selects it.
func (a *App) OffMeshClick(p geom.Vec3) error {
	if !a.cv().has {
		return a.report(errNoCache)
	}
	t := a.offMeshState()
	if !p.Finite() {
		return a.report(fmt.Errorf("ui: link point %v is not finite", p))
	}
	if !t.hasPending {
		t.pending, t.hasPending = p, true
		a.gens.preview++
		a.reportOK(fmt.Sprintf("link start at (%.1f, %.1f, %.1f): click its end", p.X, p.Y, p.Z))
		return nil
	}
	l, err := a.newOffMeshLink(t.pending, p)
	if err != nil {
		return a.report(err)
	}
	t.hasPending = false
	a.gens.preview++
	return a.runCommand("add link", func(*cacheEditor) command { return &addOffMeshCmd{h: &offMeshHandle{}, l: l} },
		func(cmd command) func(*App) {
			id := cmd.(*addOffMeshCmd).h.id
			return func(a *App) { a.offMeshState().Selected = id }
		})
}

// offMeshEndAt returns the link end nearest to p within reach (its radius,
// at least offMeshGrabM, horizontally; offMeshGrabYM vertically).
func (a *App) offMeshEndAt(p geom.Vec3) (navmesh.OffMeshLink, uint8, bool) {
	var best navmesh.OffMeshLink
	var bestEnd uint8
	bestD := math.Inf(1)
	for _, l := range a.cv().links {
		for e := uint8(0); e < 2; e++ {
			q := l.Point(e)
			d := math.Hypot(float64(q.X)-float64(p.X), float64(q.Z)-float64(p.Z))
			if d <= max(float64(l.RadiusM), offMeshGrabM) && math.Abs(float64(q.Y)-float64(p.Y)) <= offMeshGrabYM && d < bestD {
				best, bestEnd, bestD = l, e, d
			}
		}
	}
	return best, bestEnd, !math.IsInf(bestD, 1)
}

// OffMeshPress handles a press of the Link tool on level point p: on an
// end of a link it selects the link and starts moving that end (true);
// elsewhere it does nothing (false: the release will be a click).
func (a *App) OffMeshPress(p geom.Vec3) bool {
	if !a.cv().has {
		return false
	}
	t := a.offMeshState()
	l, e, ok := a.offMeshEndAt(p)
	if !ok || t.hasPending {
		return false
	}
	t.Selected = tilecache.OffMeshLinkID(l.UserID)
	t.drag = offMeshDrag{active: true, id: t.Selected, end: e, from: l, to: l.Point(e)}
	a.gens.shapes++
	a.gens.preview++
	return true
}

// OffMeshDragTo moves the end being dragged to p (shown as a preview).
func (a *App) OffMeshDragTo(p geom.Vec3) {
	t := a.offMeshState()
	if !t.drag.active || !p.Finite() {
		return
	}
	t.drag.to, t.drag.moved = p, true
	a.gens.preview++
}

// OffMeshRelease ends a press of the Link tool at level point p: a drag
// that moved moves the link's end there (an undoable command); a press
// on an end that did not move only selected it; any other press is a
// click (OffMeshClick).
func (a *App) OffMeshRelease(p geom.Vec3, moved bool) error {
	t := a.offMeshState()
	if !t.drag.active {
		if moved {
			return nil
		}
		return a.OffMeshClick(p)
	}
	d := t.drag
	t.drag = offMeshDrag{}
	a.gens.preview++
	if !d.moved {
		a.reportOK(fmt.Sprintf("link L%d selected: drag an end to move it, Delete removes it", d.id))
		return nil
	}
	to := d.from
	if d.end == 0 {
		to.StartM = d.to
	} else {
		to.EndM = d.to
	}
	return a.runCommand("move link", func(e *cacheEditor) command { return &moveOffMeshCmd{h: e.link(d.id), from: d.from, to: to} }, nil)
}

// RemoveOffMesh removes link id as an undoable command.
func (a *App) RemoveOffMesh(id tilecache.OffMeshLinkID) error {
	if !a.cv().has {
		return a.report(errNoCache)
	}
	t := a.offMeshState()
	for _, l := range a.cv().links {
		if tilecache.OffMeshLinkID(l.UserID) == id {
			if t.Selected == id {
				t.Selected = 0
			}
			return a.runCommand("remove link", func(e *cacheEditor) command { return &removeOffMeshCmd{add: addOffMeshCmd{h: e.link(id), l: l}} }, nil)
		}
	}
	return a.report(fmt.Errorf("ui: remove: no link L%d", id))
}

// DeleteSelectedOffMesh removes the selected link (Delete); false when
// none is selected.
func (a *App) DeleteSelectedOffMesh() (bool, error) {
	t := a.offMeshState()
	if t.Selected == 0 {
		return false, nil
	}
	return true, a.RemoveOffMesh(t.Selected)
}

// CancelOffMesh forgets a start not yet ended and a drag in progress
// (Escape).
func (a *App) CancelOffMesh() {
	t := a.offMeshState()
	t.hasPending, t.drag = false, offMeshDrag{}
	a.gens.preview++
}

// offMeshPreview returns what the preview draws for the Link tool: the
// start waiting for its end, or the moved end's link as a line.
func (a *App) offMeshPreview() []geom.Vec3 {
	t := a.offMeshState()
	switch {
	case t.drag.active:
		return []geom.Vec3{t.drag.from.Point(1 - t.drag.end), t.drag.to}
	case t.hasPending:
		return []geom.Vec3{t.pending}
	}
	return nil
}

// offMeshPointerEvent hands a gesture of the Link tool to it.
func (g *Game) offMeshPointerEvent(ev pointerEvent) {
	a := g.App
	at := func(x, y int) (geom.Vec3, bool) {
		p, ok := a.worldPoint(float64(x), float64(y), g.w, g.h)
		if !ok {
			a.report(fmt.Errorf("ui: no level under the cursor for a link end"))
		}
		return p, ok
	}
	switch ev.Kind {
	case pointerPress:
		if p, ok := at(ev.X, ev.Y); ok {
			a.OffMeshPress(p)
		}
	case pointerDrag:
		if a.OffMeshTool.drag.active {
			if p, ok := at(ev.X, ev.Y); ok {
				a.OffMeshDragTo(p)
			}
		}
	case pointerRelease:
		x, y := ev.PressX, ev.PressY
		if ev.Moved {
			x, y = ev.X, ev.Y
		}
		if p, ok := at(x, y); ok {
			_ = a.OffMeshRelease(p, ev.Moved) // errors are shown
		} else {
			a.CancelOffMesh()
		}
	}
}

// offMeshKeys applies the Link tool's keys.
func (g *Game) offMeshKeys(k toolKeys) {
	a := g.App
	switch {
	case k.Delete:
		_, _ = a.DeleteSelectedOffMesh()
	case k.Escape:
		a.CancelOffMesh()
	}
}

// offMeshPanel draws the Link tool's rows of the Cache panel: the new
// links' radius, direction and area, and the links with select and remove
// buttons.
func (g *Game) offMeshPanel(ctx *debugui.Context) {
	a := g.App
	t := a.offMeshState()
	grid := []int{-3, -2}
	ctx.SetGridLayout(grid, nil)
	nf := &g.cache.nums
	ctx.Text("Radius (m)")
	nf.float(ctx, "link-radius", &t.RadiusM, numberSpec{digits: 2, step: 0.1})
	nf.errorRow(ctx, "link-radius", grid)
	ctx.Text("Area id (0-63)")
	nf.int(ctx, "link-area", &t.AreaID, numberSpec{step: 1})
	nf.errorRow(ctx, "link-area", grid)
	ctx.SetGridLayout(nil, nil)
	t.AreaID = min(max(t.AreaID, 0), navmesh.MaxArea)
	t.RadiusM = max(t.RadiusM, 0.05)
	ctx.Checkbox(&t.Bidirectional, "Both ways")
	ctx.SetGridLayout([]int{-1, -1}, nil)
	ctx.Button("Cancel (Esc)").On(a.CancelOffMesh)
	ctx.Button("Delete (Del)").On(func() { _, _ = a.DeleteSelectedOffMesh() })
	ctx.SetGridLayout(nil, nil)
	ctx.Text("Click the level for a link's start, then its end. Drag an end to move it; Delete removes the selected link. Arrows point the way; white is selected.")
	v := a.cv()
	if !v.has {
		return
	}
	links := v.links
	ctx.Text(fmt.Sprintf("Links (%d), next id %d:", len(links), v.nextLink))
	ctx.SetGridLayout([]int{44, -1, 24}, nil)
	ctx.Loop(len(links), func(i int) {
		l := links[i]
		id := tilecache.OffMeshLinkID(l.UserID)
		label := fmt.Sprintf("L%d", id)
		if id == t.Selected {
			label = "*" + label
		}
		ctx.Button(label).On(func() { t.Selected = id; a.gens.shapes++ })
		ctx.Text(describeOffMesh(&l))
		ctx.Button("x").On(func() { _ = a.RemoveOffMesh(id) })
	})
	ctx.SetGridLayout(nil, nil)
}

// describeOffMesh returns a one-line description of l for the list.
func describeOffMesh(l *navmesh.OffMeshLink) string {
	way := "one way"
	if l.Bidirectional {
		way = "both ways"
	}
	d := math.Sqrt(float64(l.EndM.Sub(l.StartM).Dot(l.EndM.Sub(l.StartM))))
	return fmt.Sprintf("%.1f m, %s, r %.2f, area %d", d, way, l.RadiusM, l.Area)
}
