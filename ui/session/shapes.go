package session

import (
	"fmt"
	"math"

	"navviz/core/geom"
	"navviz/core/voxel"
	"navviz/render"
	"navviz/tilecache"
)

// The cache's obstacles and volumes as the App edits them: every edit is an
// undoable command (undo.go) run on the cache's owner (cache_worker.go).
// The Obstacle and Volume tools (tool_obstacle.go, tool_volume.go) and the
// Cache panel's lists call these.

// rotateStepDeg is how far one wheel step turns an oriented box, degrees.
const rotateStepDeg = 15

// grabSlackM widens an obstacle's footprint for grabbing it with the
// pointer, metres; grabSlackYM is how far above or below its height range
// the pointer may hit the level.
const (
	grabSlackM  = 0.2
	grabSlackYM = 1.0
)

// sameObstacleTolM is how close two obstacles' footprint corners and
// height ranges must be to count as the same shape (the tool's fields
// round-trip an obstacle through float64 degrees and metres).
const sameObstacleTolM = 1e-3

// SameObstacle reports whether a and b have the same shape: the same kind,
// footprint corners (render.ObstacleLoopXZ) and height range within
// sameObstacleTolM.
func SameObstacle(a, b *voxel.Obstacle) bool {
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

// Translated returns o moved by d (metres).
func Translated(o voxel.Obstacle, d geom.Vec3) voxel.Obstacle {
	switch o.Shape {
	case voxel.ShapeBox:
		o.MinM, o.MaxM = o.MinM.Add(d), o.MaxM.Add(d)
	default:
		o.CentreM = o.CentreM.Add(d)
	}
	return o
}

// Rotated returns oriented box o turned by deg degrees (the yaw kept in
// (-180°, 180°]); other shapes are returned unchanged.
func Rotated(o voxel.Obstacle, deg float64) voxel.Obstacle {
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
	obs := a.CacheView().Obstacles
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

// SelectObstacle selects obstacle id (0 clears the selection) and has the
// Obstacle tool load its shape and size into its fields (toolEvents).
func (a *App) SelectObstacle(id tilecache.ObstacleID) {
	if id != 0 {
		o, ok := a.ObstacleByID(id)
		if !ok {
			return
		}
		if a.toolEvents != nil {
			a.toolEvents.ObstacleSelected(o)
		}
	}
	a.Selection.SetObstacle(id)
}

// hasObstacle reports whether the cache holds obstacle id.
func (a *App) hasObstacle(id tilecache.ObstacleID) bool {
	_, ok := a.ObstacleByID(id)
	return ok
}

// ObstacleByID returns obstacle id of the cache (as the latest view has
// it).
func (a *App) ObstacleByID(id tilecache.ObstacleID) (voxel.Obstacle, bool) {
	if id == 0 {
		return voxel.Obstacle{}, false
	}
	for _, o := range a.CacheView().Obstacles {
		if o.ID == id {
			return o.Obstacle, true
		}
	}
	return voxel.Obstacle{}, false
}

// AddObstacle adds o to the cache as an undoable command and selects it.
// An invalid obstacle is shown as an error and changes nothing.
func (a *App) AddObstacle(o voxel.Obstacle) error {
	if err := o.Validate(); err != nil {
		return a.Report(fmt.Errorf("ui: cannot place the obstacle: %w", err))
	}
	o = o.Normalized()
	return a.runCommand("place obstacle", func(*cacheEditor) command { return &AddObstacleCmd{H: &ObstacleHandle{}, O: o} },
		func(cmd command) func(*App) { return selectObstacle(cmd.(*AddObstacleCmd).H.Id) })
}

// ReplaceObstacle replaces obstacle id by to as an undoable command named
// what ("move", "rotate", "resize") and selects the result (its new id).
func (a *App) ReplaceObstacle(id tilecache.ObstacleID, to voxel.Obstacle, what string) error {
	from, ok := a.ObstacleByID(id)
	if !ok {
		return a.Report(fmt.Errorf("ui: %s: no obstacle #%d", what, id))
	}
	if err := to.Validate(); err != nil {
		return a.Report(fmt.Errorf("ui: %s obstacle #%d: %w", what, id, err))
	}
	to = to.Normalized()
	return a.runCommand(what+" obstacle", func(e *cacheEditor) command {
		return &ReplaceObstacleCmd{h: e.Obstacle(id), from: from, to: to, what: what}
	}, func(cmd command) func(*App) { return selectObstacle(cmd.(*ReplaceObstacleCmd).h.Id) })
}

// selectObstacle returns the frame's step that selects obstacle id (a
// runCommand selection).
func selectObstacle(id tilecache.ObstacleID) func(*App) {
	return func(a *App) { a.SelectObstacle(id) }
}

// RemoveObstacle removes obstacle id as an undoable command (undo adds the
// same shape again under a new id).
func (a *App) RemoveObstacle(id tilecache.ObstacleID) error {
	o, ok := a.ObstacleByID(id)
	if !ok {
		return a.Report(fmt.Errorf("ui: remove: no obstacle #%d", id))
	}
	return a.runCommand("remove obstacle", func(e *cacheEditor) command { return &RemoveObstacleCmd{H: e.Obstacle(id), o: o} }, nil)
}

// DeleteSelectedObstacle removes the selected obstacle (Delete); false when
// none is selected.
func (a *App) DeleteSelectedObstacle() (bool, error) {
	sel := a.Selection.Obstacle()
	if sel == 0 {
		return false, nil
	}
	return true, a.RemoveObstacle(sel)
}

// RotateObstacleAt turns the oriented box at level point p by steps wheel
// steps (rotateStepDeg each) and reports whether there was one.
func (a *App) RotateObstacleAt(p geom.Vec3, steps float64) bool {
	id, ok := a.ObstacleAt(p)
	if !ok {
		return false
	}
	o, _ := a.ObstacleByID(id)
	if o.Shape != voxel.ShapeOrientedBox || steps == 0 || math.IsNaN(steps) || math.IsInf(steps, 0) {
		return false
	}
	a.Report(a.ReplaceObstacle(id, Rotated(o, steps*rotateStepDeg), "rotate"))
	return true
}

// DescribeObstacle returns a one-line description of o for the list.
func DescribeObstacle(o *voxel.Obstacle) string {
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

// AddVolume adds v to the cache as an undoable command. An invalid volume
// is shown as an error and changes nothing.
func (a *App) AddVolume(v voxel.ConvexVolume) error {
	if err := v.Validate(); err != nil {
		return a.Report(fmt.Errorf("ui: cannot add the volume: %w", err))
	}
	return a.runCommand("add volume", func(*cacheEditor) command { return &AddVolumeCmd{H: &VolumeHandle{}, v: v} }, nil)
}

// RemoveVolume removes volume id as an undoable command (undo adds it
// again, under a new id and last in the order of volumes).
func (a *App) RemoveVolume(id tilecache.VolumeID) error {
	if !a.CacheView().Has {
		return a.Report(ErrNoCache)
	}
	for _, v := range a.CacheView().Volumes {
		if v.ID == id {
			vol := v.Volume
			return a.runCommand("remove volume", func(e *cacheEditor) command { return &RemoveVolumeCmd{h: e.Volume(id), v: vol} }, nil)
		}
	}
	return a.Report(fmt.Errorf("ui: remove: no volume #%d", id))
}

// DescribeVolume returns a one-line description of v for the list.
func DescribeVolume(v *voxel.ConvexVolume) string {
	return fmt.Sprintf("area %d, %d corners, y %.1f..%.1f", v.Area, len(v.VertsXZ), v.MinYM, v.MaxYM)
}
