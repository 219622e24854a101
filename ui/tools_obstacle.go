package ui

import (
	"fmt"
	"math"
	"slices"

	"navviz/core/geom"
	"navviz/core/voxel"
	"navviz/render"
	"navviz/tilecache"
)

// toolKind is the tool a plain left click in the view uses.
type toolKind int

const (
	// toolSelect: a click picks a polygon of the live navmesh (liveMesh) and selects
	// its tile (the default; see App.Click).
	toolSelect toolKind = iota
	// toolObstacle: a click places an obstacle, a drag moves one, the
	// wheel turns an oriented box (tools_obstacle.go).
	toolObstacle
	// toolVolume: clicks add the corners of a convex volume
	// (tools_volume.go).
	toolVolume
	// toolAgents: a click sends every agent there (tools_agents.go).
	toolAgents
	// toolOffMesh: clicks draw off-mesh links, drags move their ends
	// (tools_offmesh.go).
	toolOffMesh
)

// toolNames are the Cache panel's tool choices, indexed by toolKind.
var toolNames = []string{"select", "obstacle", "volume", "agents", "link"}

// obstacleShapes are the Obstacle tool's shape choices, in dropdown order.
var obstacleShapes = []voxel.ObstacleShape{voxel.ShapeCylinder, voxel.ShapeBox, voxel.ShapeOrientedBox}

// obstacleShapeNames are their names.
var obstacleShapeNames = []string{"cylinder", "box", "oriented box"}

// rotateStepDeg is how far one wheel step turns an oriented box, degrees.
const rotateStepDeg = 15

// grabSlackM widens an obstacle's footprint for grabbing it with the
// pointer, metres; grabSlackYM is how far above or below its height range
// the pointer may hit the level.
const (
	grabSlackM  = 0.2
	grabSlackYM = 1.0
)

// obstacleTool is the Obstacle tool's settings (the shape and size of new
// obstacles, the Cache panel's fields; metres and degrees, float64 for
// debugui's number fields) and its drag state.
//
// Mouse: a left press on an obstacle selects it and a drag moves it (a
// white ghost follows the pointer; on release the move is one command:
// remove + add, so the obstacle gets a new id); a left press elsewhere on
// the level shows the new obstacle there and the release places it where
// the pointer is then. The wheel over an oriented box turns it by
// rotateStepDeg per step (consecutive turns are one undo step). Delete
// removes the selected obstacle; Escape cancels a drag.
type obstacleTool struct {
	// ShapeIdx indexes obstacleShapes.
	ShapeIdx int
	// RadiusM is a cylinder's radius; SizeXM and SizeZM a box's sides
	// along its own x and z (an oriented box's before the turn).
	RadiusM, SizeXM, SizeZM float64
	// HeightM is how far the shape reaches above the clicked floor;
	// BelowM how far below it it starts (so that its height range holds
	// the span floors, which lie up to a cell height from the surface).
	HeightM, BelowM float64
	// YawDeg is an oriented box's yaw, degrees from +x towards +z.
	YawDeg float64

	drag obstacleDrag
	// nums are the size fields' texts (number_field.go).
	nums numberFields
}

// sizeField is one size setting of the Obstacle tool as the Cache panel
// edits it: a slider from lo to hi (widened to hold the value) in steps of
// step, and a number field of digits decimals.
type sizeField struct {
	label         string
	v             *float64
	lo, hi, step  float64
	digits        int
	forCylinder   bool // shown for a cylinder
	forBox        bool // shown for a box and an oriented box
	forOrientedOn bool // shown for an oriented box only
}

// sizeFields lists the tool's size settings.
func (t *obstacleTool) sizeFields() []sizeField {
	return []sizeField{
		{label: "Radius (m)", v: &t.RadiusM, lo: 0.1, hi: 10, step: 0.05, digits: 2, forCylinder: true},
		{label: "Size x (m)", v: &t.SizeXM, lo: 0.1, hi: 20, step: 0.1, digits: 2, forBox: true},
		{label: "Size z (m)", v: &t.SizeZM, lo: 0.1, hi: 20, step: 0.1, digits: 2, forBox: true},
		{label: "Yaw (deg)", v: &t.YawDeg, lo: -180, hi: 180, step: 5, digits: 1, forOrientedOn: true},
		{label: "Height above floor (m)", v: &t.HeightM, lo: 0, hi: 10, step: 0.1, digits: 2, forCylinder: true, forBox: true},
		{label: "Start below floor (m)", v: &t.BelowM, lo: 0, hi: 5, step: 0.1, digits: 2, forCylinder: true, forBox: true},
	}
}

// shown reports whether field f applies to shape sh.
func (f *sizeField) shown(sh voxel.ObstacleShape) bool {
	switch sh {
	case voxel.ShapeCylinder:
		return f.forCylinder
	case voxel.ShapeOrientedBox:
		return f.forBox || f.forOrientedOn
	}
	return f.forBox
}

// sliderRange returns the slider's range for value v: [lo, hi] widened to
// hold v, so that the slider never clamps a value typed or loaded from an
// obstacle.
func (f *sizeField) sliderRange(v float64) (lo, hi float64) {
	return min(f.lo, v), max(f.hi, v)
}

// obstacleGhost returns the obstacle the tool's preview shows (nil: none):
// the one being placed or dragged; else, when an obstacle is selected and
// the tool's shape and size fields differ from it, what Apply would make of
// it (the same floor point), so that the grown footprint of a new size
// shows while the sliders move, before Apply.
func (a *App) obstacleGhost() *voxel.Obstacle {
	if a.Tool != toolObstacle {
		return nil
	}
	t := &a.ObstacleTool
	if d := &t.drag; d.active {
		g := d.cur
		return &g
	}
	o, ok := a.obstacleByID(a.SelectedObstacle)
	if !ok {
		return nil
	}
	g := t.newObstacle(t.obstacleFloor(o))
	if sameObstacle(&g, &o) || g.Validate() != nil {
		return nil
	}
	return &g
}

// sameObstacleTolM is how close two obstacles' footprint corners and
// height ranges must be to count as the same shape (the tool's fields
// round-trip an obstacle through float64 degrees and metres).
const sameObstacleTolM = 1e-3

// sameObstacle reports whether a and b have the same shape: the same kind,
// footprint corners (render.ObstacleLoopXZ) and height range within
// sameObstacleTolM.
func sameObstacle(a, b *voxel.Obstacle) bool {
	if a.Shape != b.Shape {
		return false
	}
	la, lb := render.ObstacleLoopXZ(a, 0), render.ObstacleLoopXZ(b, 0)
	if len(la) != len(lb) {
		return false
	}
	near := func(x, y float64) bool { return math.Abs(x-y) <= sameObstacleTolM }
	for i := range la {
		if !near(la[i][0], lb[i][0]) || !near(la[i][1], lb[i][1]) {
			return false
		}
	}
	alo, ahi := a.HeightRangeM()
	blo, bhi := b.HeightRangeM()
	return near(alo, blo) && near(ahi, bhi)
}

// obstacleDrag is a drag of the Obstacle tool in progress.
type obstacleDrag struct {
	active bool
	// place: placing a new obstacle; otherwise moving obstacle id.
	place bool
	id    tilecache.ObstacleID
	// start is the level point under the press; orig the shape at the
	// press, cur where the drag has it now.
	start     geom.Vec3
	orig, cur voxel.Obstacle
	moved     bool
}

// defaultObstacleTool returns the tool's defaults: a cylinder of radius
// 1 m, 2 m high, starting 0.5 m below the floor (the benchmark's shape);
// boxes 2 m x 1 m.
func defaultObstacleTool() obstacleTool {
	return obstacleTool{RadiusM: 1, SizeXM: 2, SizeZM: 1, HeightM: 2, BelowM: 0.5}
}

// shape returns the tool's shape.
func (t *obstacleTool) shape() voxel.ObstacleShape {
	if t.ShapeIdx >= 0 && t.ShapeIdx < len(obstacleShapes) {
		return obstacleShapes[t.ShapeIdx]
	}
	return voxel.ShapeCylinder
}

// newObstacle returns an obstacle of the tool's shape and size standing on
// the floor point p: centred on p in x and z, its height range from
// p.Y-BelowM to p.Y+HeightM. It is not validated.
func (t *obstacleTool) newObstacle(p geom.Vec3) voxel.Obstacle {
	lo := float64(p.Y) - t.BelowM
	hi := float64(p.Y) + t.HeightM
	sx, sz := t.SizeXM/2, t.SizeZM/2
	switch t.shape() {
	case voxel.ShapeBox:
		return voxel.Box(geom.V3(p.X-float32(sx), float32(lo), p.Z-float32(sz)), geom.V3(p.X+float32(sx), float32(hi), p.Z+float32(sz)))
	case voxel.ShapeOrientedBox:
		hy := (hi - lo) / 2
		return voxel.OrientedBox(geom.V3(p.X, float32(lo+hy), p.Z), geom.V3(float32(sx), float32(hy), float32(sz)), float32(t.YawDeg*math.Pi/180))
	}
	return voxel.Cylinder(geom.V3(p.X, float32(lo), p.Z), float32(t.RadiusM), float32(hi-lo))
}

// loadFrom sets the tool's shape and size fields from obstacle o (its
// floor taken at BelowM above the bottom of its height range), so that
// Apply edits what is selected.
func (t *obstacleTool) loadFrom(o voxel.Obstacle) {
	if i := slices.Index(obstacleShapes, o.Shape); i >= 0 {
		t.ShapeIdx = i
	}
	lo, hi := o.HeightRangeM()
	t.HeightM = max(0, hi-lo-t.BelowM)
	switch o.Shape {
	case voxel.ShapeCylinder:
		t.RadiusM = float64(o.RadiusM)
	case voxel.ShapeBox:
		t.SizeXM, t.SizeZM = float64(o.MaxM.X-o.MinM.X), float64(o.MaxM.Z-o.MinM.Z)
	case voxel.ShapeOrientedBox:
		t.SizeXM, t.SizeZM = 2*float64(o.HalfM.X), 2*float64(o.HalfM.Z)
		t.YawDeg = float64(o.YawRad) * 180 / math.Pi
	}
}

// obstacleFloor returns the floor point an obstacle was placed on: the
// centre of its footprint in x and z, BelowM above the bottom of its
// height range (clamped to its top).
func (t *obstacleTool) obstacleFloor(o voxel.Obstacle) geom.Vec3 {
	minX, minZ, maxX, maxZ := o.BoundsXZ()
	lo, hi := o.HeightRangeM()
	y := min(lo+t.BelowM, hi)
	return geom.V3(float32((minX+maxX)/2), float32(y), float32((minZ+maxZ)/2))
}

// translated returns o moved by d (metres).
func translated(o voxel.Obstacle, d geom.Vec3) voxel.Obstacle {
	switch o.Shape {
	case voxel.ShapeBox:
		o.MinM, o.MaxM = o.MinM.Add(d), o.MaxM.Add(d)
	default:
		o.CentreM = o.CentreM.Add(d)
	}
	return o
}

// rotated returns oriented box o turned by deg degrees (the yaw kept in
// (-180°, 180°]); other shapes are returned unchanged.
func rotated(o voxel.Obstacle, deg float64) voxel.Obstacle {
	if o.Shape != voxel.ShapeOrientedBox {
		return o
	}
	y := float64(o.YawRad)*180/math.Pi + deg
	y = math.Mod(y, 360)
	if y > 180 {
		y -= 360
	} else if y <= -180 {
		y += 360
	}
	o.YawRad = float32(y * math.Pi / 180)
	return o
}

// ObstacleAt returns the obstacle whose footprint (widened by grabSlackM)
// holds the level point p and whose height range is within grabSlackYM of
// p's height: the most recently added one when several do.
func (a *App) ObstacleAt(p geom.Vec3) (tilecache.ObstacleID, bool) {
	obs := a.cv().obstacles
	for i := len(obs) - 1; i >= 0; i-- {
		o := &obs[i].Obstacle
		lo, hi := o.HeightRangeM()
		if y := float64(p.Y); y < lo-grabSlackYM || y > hi+grabSlackYM {
			continue
		}
		if o.ContainsXZ(float64(p.X), float64(p.Z), grabSlackM) {
			return obs[i].ID, true
		}
	}
	return 0, false
}

// SelectObstacle selects obstacle id (0 clears the selection) and loads its
// shape and size into the tool's fields.
func (a *App) SelectObstacle(id tilecache.ObstacleID) {
	if id != 0 {
		o, ok := a.obstacleByID(id)
		if !ok {
			return
		}
		a.ObstacleTool.loadFrom(o)
	}
	if a.SelectedObstacle != id {
		a.SelectedObstacle = id
		a.gens.shapes++
	}
}

// ObstaclePress starts an Obstacle tool drag at level point p: on an
// obstacle, it selects it and starts moving it; elsewhere it starts
// placing a new one (shown as a ghost until ObstacleRelease).
func (a *App) ObstaclePress(p geom.Vec3) {
	t := &a.ObstacleTool
	if !a.cv().has {
		a.report(errNoCache)
		return
	}
	if id, ok := a.ObstacleAt(p); ok {
		o, _ := a.obstacleByID(id)
		a.SelectObstacle(id)
		t.drag = obstacleDrag{active: true, id: id, start: p, orig: o, cur: o}
	} else {
		o := t.newObstacle(p)
		t.drag = obstacleDrag{active: true, place: true, start: p, orig: o, cur: o}
	}
	a.gens.preview++
}

// ObstacleDragTo moves the drag's ghost so that it follows the pointer's
// level point p (in x, z and height).
func (a *App) ObstacleDragTo(p geom.Vec3) {
	d := &a.ObstacleTool.drag
	if !d.active {
		return
	}
	delta := p.Sub(d.start)
	if delta == (geom.Vec3{}) && !d.moved {
		return
	}
	d.cur = translated(d.orig, delta)
	d.moved = true
	a.gens.preview++
}

// ObstacleRelease ends the drag: a placement adds the ghost's obstacle, a
// move that moved replaces the obstacle by the ghost's (remove + add, a new
// id), both as one undoable command; the new obstacle is selected.
func (a *App) ObstacleRelease() error {
	d := a.ObstacleTool.drag
	a.ObstacleTool.drag = obstacleDrag{}
	a.gens.preview++
	if !d.active {
		return nil
	}
	switch {
	case d.place:
		return a.AddObstacle(d.cur)
	case d.moved:
		return a.replaceObstacle(d.id, d.cur, "move")
	}
	return nil
}

// CancelObstacleDrag forgets a drag in progress (Escape).
func (a *App) CancelObstacleDrag() {
	if a.ObstacleTool.drag.active {
		a.ObstacleTool.drag = obstacleDrag{}
		a.gens.preview++
	}
}

// AddObstacle adds o to the cache as an undoable command and selects it.
// An invalid obstacle is shown as an error and changes nothing.
func (a *App) AddObstacle(o voxel.Obstacle) error {
	if err := o.Validate(); err != nil {
		return a.report(fmt.Errorf("ui: cannot place the obstacle: %w", err))
	}
	o = o.Normalized()
	return a.runCommand("place obstacle", func(*cacheEditor) command { return &addObstacleCmd{h: &obstacleHandle{}, o: o} },
		func(cmd command) func(*App) { return selectObstacle(cmd.(*addObstacleCmd).h.id) })
}

// replaceObstacle replaces obstacle id by to as an undoable command named
// what ("move", "rotate", "resize") and selects the result (its new id).
func (a *App) replaceObstacle(id tilecache.ObstacleID, to voxel.Obstacle, what string) error {
	from, ok := a.obstacleByID(id)
	if !ok {
		return a.report(fmt.Errorf("ui: %s: no obstacle #%d", what, id))
	}
	if err := to.Validate(); err != nil {
		return a.report(fmt.Errorf("ui: %s obstacle #%d: %w", what, id, err))
	}
	to = to.Normalized()
	return a.runCommand(what+" obstacle", func(e *cacheEditor) command {
		return &replaceObstacleCmd{h: e.obstacle(id), from: from, to: to, what: what}
	}, func(cmd command) func(*App) { return selectObstacle(cmd.(*replaceObstacleCmd).h.id) })
}

// selectObstacle returns the frame's step that selects obstacle id (a
// runCommand selection).
func selectObstacle(id tilecache.ObstacleID) func(*App) {
	return func(a *App) { a.SelectObstacle(id) }
}

// RemoveObstacle removes obstacle id as an undoable command (undo adds the
// same shape again under a new id).
func (a *App) RemoveObstacle(id tilecache.ObstacleID) error {
	o, ok := a.obstacleByID(id)
	if !ok {
		return a.report(fmt.Errorf("ui: remove: no obstacle #%d", id))
	}
	return a.runCommand("remove obstacle", func(e *cacheEditor) command { return &removeObstacleCmd{h: e.obstacle(id), o: o} }, nil)
}

// DeleteSelectedObstacle removes the selected obstacle (Delete); false when
// none is selected.
func (a *App) DeleteSelectedObstacle() (bool, error) {
	if a.SelectedObstacle == 0 {
		return false, nil
	}
	return true, a.RemoveObstacle(a.SelectedObstacle)
}

// RotateObstacleAt turns the oriented box at level point p by steps wheel
// steps (rotateStepDeg each) and reports whether there was one.
func (a *App) RotateObstacleAt(p geom.Vec3, steps float64) bool {
	id, ok := a.ObstacleAt(p)
	if !ok {
		return false
	}
	o, _ := a.obstacleByID(id)
	if o.Shape != voxel.ShapeOrientedBox || steps == 0 || math.IsNaN(steps) || math.IsInf(steps, 0) {
		return false
	}
	a.report(a.replaceObstacle(id, rotated(o, steps*rotateStepDeg), "rotate"))
	return true
}

// ApplyToolToSelected replaces the selected obstacle by one of the tool's
// shape and size on the same floor point ("Apply" in the Cache panel).
func (a *App) ApplyToolToSelected() error {
	o, ok := a.obstacleByID(a.SelectedObstacle)
	if !ok {
		return a.report(fmt.Errorf("ui: apply: no obstacle is selected"))
	}
	t := &a.ObstacleTool
	return a.replaceObstacle(a.SelectedObstacle, t.newObstacle(t.obstacleFloor(o)), "resize")
}

// describeObstacle returns a one-line description of o for the list.
func describeObstacle(o *voxel.Obstacle) string {
	lo, hi := o.HeightRangeM()
	switch o.Shape {
	case voxel.ShapeCylinder:
		return fmt.Sprintf("cylinder at (%.1f, %.1f) r %.2f, y %.1f..%.1f", o.CentreM.X, o.CentreM.Z, o.RadiusM, lo, hi)
	case voxel.ShapeBox:
		return fmt.Sprintf("box (%.1f, %.1f)-(%.1f, %.1f), y %.1f..%.1f", o.MinM.X, o.MinM.Z, o.MaxM.X, o.MaxM.Z, lo, hi)
	case voxel.ShapeOrientedBox:
		return fmt.Sprintf("oriented box at (%.1f, %.1f) %.1f x %.1f, yaw %.0f°, y %.1f..%.1f",
			o.CentreM.X, o.CentreM.Z, 2*o.HalfM.X, 2*o.HalfM.Z, float64(o.YawRad)*180/math.Pi, lo, hi)
	}
	return o.Shape.String()
}
