package session

import (
	"fmt"
	"math"

	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/tilecache"
)

// The cache's off-mesh links as the App edits them (the Link tool,
// tool_offmesh.go, draws them): every edit is an undoable command run on
// the cache's owner.

// offMeshGrabM is the least horizontal distance, metres, within which
// a press takes a link's end; offMeshGrabYM the vertical one.
const (
	offMeshGrabM  = 0.75
	offMeshGrabYM = 2.5
)

// offMeshOps is the part of tilecache.Cache the link commands use.
type offMeshOps interface {
	AddOffMeshLink(navmesh.OffMeshLink) (tilecache.OffMeshLinkID, error)
	MoveOffMeshLink(tilecache.OffMeshLinkID, navmesh.OffMeshLink) error
	RemoveOffMeshLink(tilecache.OffMeshLinkID) error
}

// link returns the editor's handle of link id (made on first need).
func (e *cacheEditor) link(id tilecache.OffMeshLinkID) *offMeshHandle { return handleOf(e.links, id) }

// offMeshOpsOf returns the editor's cache as offMeshOps.
func offMeshOpsOf(e *cacheEditor) (offMeshOps, error) {
	if e == nil || e.c == nil {
		return nil, ErrNoCache
	}
	ops, ok := e.c.(offMeshOps)
	if !ok {
		return nil, fmt.Errorf("ui: this cache has no off-mesh links")
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
	c.h.Id = id
	e.links[id] = c.h
	e.record(Step{Kind: StepAddLink, Edit: Edit{Link: c.l, LinkID: id}})
	return nil
}

func (c *addOffMeshCmd) undo(e *cacheEditor) error {
	ops, err := offMeshOpsOf(e)
	if err != nil {
		return err
	}
	if err := ops.RemoveOffMeshLink(c.h.Id); err != nil {
		return err
	}
	e.record(Step{Kind: StepRemoveLink, Edit: Edit{LinkID: c.h.Id}})
	delete(e.links, c.h.Id)
	c.h.Id = 0
	return nil
}

func (c *addOffMeshCmd) String() string { return "add link" + nowID("", "L", c.h) }

// removeOffMeshCmd removes a link; undo adds it back (under a new id).
type removeOffMeshCmd struct{ add addOffMeshCmd }

func (c *removeOffMeshCmd) do(e *cacheEditor) error   { return c.add.undo(e) }
func (c *removeOffMeshCmd) undo(e *cacheEditor) error { return c.add.do(e) }
func (c *removeOffMeshCmd) String() string            { return "remove link" + nowID("now", "L", c.add.h) }

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
	if err := ops.MoveOffMeshLink(c.h.Id, l); err != nil {
		return err
	}
	e.record(Step{Kind: StepMoveLink, Edit: Edit{Link: l, LinkID: c.h.Id}})
	return nil
}

func (c *moveOffMeshCmd) do(e *cacheEditor) error   { return c.move(e, c.to) }
func (c *moveOffMeshCmd) undo(e *cacheEditor) error { return c.move(e, c.from) }
func (c *moveOffMeshCmd) String() string            { return "move link" + nowID("", "L", c.h) }

// AddOffMesh adds link l to the cache as an undoable command and selects
// it.
func (a *App) AddOffMesh(l navmesh.OffMeshLink) error {
	return a.runCommand("add link", func(*cacheEditor) command { return &addOffMeshCmd{h: &offMeshHandle{}, l: l} },
		func(cmd command) func(*App) {
			id := cmd.(*addOffMeshCmd).h.Id
			return func(a *App) { a.Selection.SetLink(id) }
		})
}

// MoveOffMesh moves link id from from to to (same id) as an undoable
// command.
func (a *App) MoveOffMesh(id tilecache.OffMeshLinkID, from, to navmesh.OffMeshLink) error {
	return a.runCommand("move link", func(e *cacheEditor) command { return &moveOffMeshCmd{h: e.link(id), from: from, to: to} }, nil)
}

// SelectLink selects link id (0: none).
func (a *App) SelectLink(id tilecache.OffMeshLinkID) { a.Selection.SetLink(id) }

// RemoveOffMesh removes link id as an undoable command.
func (a *App) RemoveOffMesh(id tilecache.OffMeshLinkID) error {
	if !a.CacheView().Has {
		return a.Report(ErrNoCache)
	}
	for _, l := range a.CacheView().Links {
		if tilecache.OffMeshLinkID(l.UserID) == id {
			if a.Selection.Link() == id {
				a.Selection.SetLink(0)
			}
			return a.runCommand("remove link", func(e *cacheEditor) command { return &removeOffMeshCmd{add: addOffMeshCmd{h: e.link(id), l: l}} }, nil)
		}
	}
	return a.Report(fmt.Errorf("ui: remove: no link L%d", id))
}

// DeleteSelectedOffMesh removes the selected link (Delete); false when
// none is selected.
func (a *App) DeleteSelectedOffMesh() (bool, error) {
	sel := a.Selection.Link()
	if sel == 0 {
		return false, nil
	}
	return true, a.RemoveOffMesh(sel)
}

// OffMeshEndAt returns the link end nearest to p within reach (its radius,
// at least offMeshGrabM, horizontally; offMeshGrabYM vertically).
func (a *App) OffMeshEndAt(p geom.Vec3) (navmesh.OffMeshLink, uint8, bool) {
	var best navmesh.OffMeshLink
	var bestEnd uint8
	bestD := math.Inf(1)
	for _, l := range a.CacheView().Links {
		for e := uint8(0); e < 2; e++ {
			q := l.Point(e)
			d := geom.Hypot(float64(q.X)-float64(p.X), float64(q.Z)-float64(p.Z))
			if d <= max(float64(l.RadiusM), offMeshGrabM) && math.Abs(float64(q.Y)-float64(p.Y)) <= offMeshGrabYM && d < bestD {
				best, bestEnd, bestD = l, e, d
			}
		}
	}
	return best, bestEnd, !math.IsInf(bestD, 1)
}

// DescribeOffMesh returns a one-line description of l for the list.
func DescribeOffMesh(l *navmesh.OffMeshLink) string {
	way := "one way"
	if l.Bidirectional {
		way = "both ways"
	}
	d := math.Sqrt(float64(l.EndM.Sub(l.StartM).Dot(l.EndM.Sub(l.StartM))))
	return fmt.Sprintf("%.1f m, %s, r %.2f, area %d", d, way, l.RadiusM, l.Area)
}
