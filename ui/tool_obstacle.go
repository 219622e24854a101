package ui

import (
	"fmt"
	"math"
	"slices"

	"github.com/ebitengine/debugui"

	"navviz/core/geom"
	"navviz/core/voxel"
	"navviz/render"
	"navviz/tilecache"
	"navviz/ui/session"
)

// obstacleShapes are the Obstacle tool's shape choices, in dropdown order.
var obstacleShapes = []voxel.ObstacleShape{voxel.ShapeCylinder, voxel.ShapeBox, voxel.ShapeOrientedBox}

// obstacleShapeNames are their names.
var obstacleShapeNames = []string{"cylinder", "box", "oriented box"}

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

// The tool interface (tool.go).

func (*obstacleTool) label() string   { return "obstacle" }
func (*obstacleTool) takesLeft() bool { return true }

// panel draws the shape choice, the size rows, Apply and Deselect for the
// selected obstacle, and the tool's help.
func (t *obstacleTool) panel(ctx *debugui.Context, g *Game) {
	a := g.App
	if choiceButtons(ctx, "Shape", &t.ShapeIdx, obstacleShapeNames) {
		a.Gens.Preview++
	}
	t.sizeRows(ctx, a)
	if sel := a.Selection.Obstacle(); sel != 0 {
		ctx.SetGridLayout([]int{-1, -1}, nil)
		ctx.Button(fmt.Sprintf("Apply to #%d", sel)).On(func() { a.Report(t.apply(a)) })
		ctx.Button("Deselect").On(func() { a.SelectObstacle(0) })
		ctx.SetGridLayout(nil, nil)
	}
	ctx.Text("Click the level: place. Drag an obstacle: move it. Wheel over an oriented box: turn 15°. Delete: remove the selected one. The yellow outline is the footprint grown by the agent radius. With an obstacle selected, the sliders show its new size as a white ghost (grey: grown footprint); Apply makes it so.")
}

// sizeRows edits the size settings of the tool's shape: per setting a
// label, a slider to drag and a number field to type into
// (number_field.go). Any change redraws the preview, which shows the
// selected obstacle at the new size with its grown footprint before Apply
// (ghost).
func (t *obstacleTool) sizeRows(ctx *debugui.Context, a *session.App) {
	grid := []int{-4, -3, -2}
	ctx.SetGridLayout(grid, nil)
	fields := t.sizeFields()
	sh := t.shape()
	ctx.Loop(len(fields), func(i int) {
		f := &fields[i]
		if !f.shown(sh) {
			return
		}
		before := *f.v
		t.nums.label(ctx, f.label, f.label)
		lo, hi := f.sliderRange(*f.v)
		ctx.SliderF(f.v, lo, hi, f.step, f.digits)
		t.nums.float(ctx, f.label, f.v, numberSpec{digits: f.digits})
		if *f.v != before {
			a.Gens.Preview++
		}
	})
	ctx.SetGridLayout(nil, nil)
}

// pointer places, moves and turns obstacles (see obstacleTool).
func (t *obstacleTool) pointer(ev pointerEvent, g *Game) bool {
	a := g.App
	switch ev.Kind {
	case pointerPress:
		p, ok := g.levelPoint(ev.X, ev.Y)
		if !ok {
			a.Report(fmt.Errorf("ui: no level under the cursor to place an obstacle on"))
			return false
		}
		t.press(a, p)
	case pointerDrag:
		if p, ok := g.levelPoint(ev.X, ev.Y); ok {
			t.dragTo(a, p)
		}
	case pointerRelease:
		a.Report(t.release(a))
	case pointerWheel:
		if !a.CacheView().Has {
			return false
		}
		p, ok := g.levelPoint(ev.X, ev.Y)
		return ok && a.RotateObstacleAt(p, ev.WheelY)
	}
	return false
}

// keys: Delete removes the selected obstacle, Escape cancels a drag (and
// the gesture: the button's release is no placement).
func (t *obstacleTool) keys(k toolKeys, g *Game) {
	a := g.App
	if k.Delete {
		a.Report(session.ErrOf(a.DeleteSelectedObstacle()))
	}
	if k.Escape {
		t.cancelDrag(a)
		g.tools.ptr.cancel()
	}
}

func (t *obstacleTool) putAway(a *session.App) { t.cancelDrag(a) }

// Preview shows the ghost (the obstacle being placed or dragged, or the
// selected one resized) with its grown footprint.
func (t *obstacleTool) Preview(a *session.App) *render.Overlay {
	return render.PreviewOverlay(t.ghost(a), a.CacheView().GrowthM, nil, true)
}

// ghost returns the obstacle the tool's preview shows (nil: none): the one
// being placed or dragged; else, when an obstacle is selected and the
// tool's shape and size fields differ from it, what Apply would make of it
// (the same floor point), so that the grown footprint of a new size shows
// while the sliders move, before Apply.
func (t *obstacleTool) ghost(a *session.App) *voxel.Obstacle {
	if d := &t.drag; d.active {
		g := d.cur
		return &g
	}
	o, ok := a.ObstacleByID(a.Selection.Obstacle())
	if !ok {
		return nil
	}
	g := t.newObstacle(t.obstacleFloor(o))
	if session.SameObstacle(&g, &o) || g.Validate() != nil {
		return nil
	}
	return &g
}

// press starts a drag at level point p: on an obstacle, it selects it and
// starts moving it; elsewhere it starts placing a new one (shown as a
// ghost until release).
func (t *obstacleTool) press(a *session.App, p geom.Vec3) {
	if !a.CacheView().Has {
		a.Report(session.ErrNoCache)
		return
	}
	if id, ok := a.ObstacleAt(p); ok {
		o, _ := a.ObstacleByID(id)
		a.SelectObstacle(id)
		t.drag = obstacleDrag{active: true, id: id, start: p, orig: o, cur: o}
	} else {
		o := t.newObstacle(p)
		t.drag = obstacleDrag{active: true, place: true, start: p, orig: o, cur: o}
	}
	a.Gens.Preview++
}

// dragTo moves the drag's ghost so that it follows the pointer's level
// point p (in x, z and height).
func (t *obstacleTool) dragTo(a *session.App, p geom.Vec3) {
	d := &t.drag
	if !d.active {
		return
	}
	delta := p.Sub(d.start)
	if delta == (geom.Vec3{}) && !d.moved {
		return
	}
	d.cur = session.Translated(d.orig, delta)
	d.moved = true
	a.Gens.Preview++
}

// release ends the drag: a placement adds the ghost's obstacle, a move
// that moved replaces the obstacle by the ghost's (remove + add, a new
// id), both as one undoable command; the new obstacle is selected.
func (t *obstacleTool) release(a *session.App) error {
	d := t.drag
	t.drag = obstacleDrag{}
	a.Gens.Preview++
	if !d.active {
		return nil
	}
	switch {
	case d.place:
		return a.AddObstacle(d.cur)
	case d.moved:
		return a.ReplaceObstacle(d.id, d.cur, "move")
	}
	return nil
}

// cancelDrag forgets a drag in progress (Escape).
func (t *obstacleTool) cancelDrag(a *session.App) {
	if t.drag.active {
		t.drag = obstacleDrag{}
		a.Gens.Preview++
	}
}

// apply replaces the selected obstacle by one of the tool's shape and size
// on the same floor point ("Apply" in the Cache panel).
func (t *obstacleTool) apply(a *session.App) error {
	sel := a.Selection.Obstacle()
	o, ok := a.ObstacleByID(sel)
	if !ok {
		return a.Report(fmt.Errorf("ui: apply: no obstacle is selected"))
	}
	return a.ReplaceObstacle(sel, t.newObstacle(t.obstacleFloor(o)), "resize")
}
