package ui

import (
	"fmt"
	"math"

	"navviz/core/geom"
	"navviz/core/voxel"
	"navviz/tilecache"
)

// Volume tool defaults: the y range reaches volumeBelowM below and
// volumeAboveM above the first corner's height; new volumes get area
// defaultVolumeArea.
const (
	volumeBelowM      = 1.0
	volumeAboveM      = 3.0
	defaultVolumeArea = 1
)

// closeSnapM is how near the first corner (metres, in x and z) a click
// closes the polygon instead of adding a corner.
const closeSnapM = 0.5

// volumeTool is the Volume tool's state: the corners clicked so far and the
// fields of the volume they will make.
//
// Mouse and keys: each left click on the level adds a corner (shown as
// green points and lines; a corner that would make the polygon not convex
// is rejected with a message and not added); a click on the first corner,
// Enter or "Close polygon" adds the volume (one undoable command);
// Backspace drops the last corner, Escape all of them.
type volumeTool struct {
	// Corners are the clicked corners, metres (their y is the clicked
	// level height; the volume uses x and z).
	Corners []geom.Vec3
	// MinYM and MaxYM are the volume's y range, metres: set from the
	// first corner (volumeBelowM below, volumeAboveM above), then free to
	// edit.
	MinYM, MaxYM float64
	// AreaID is the area id the volume gives (0..63; 0 makes the spans
	// not walkable).
	AreaID int
}

// defaultVolumeTool returns the tool's defaults (area 1, no corners).
func defaultVolumeTool() volumeTool {
	return volumeTool{AreaID: defaultVolumeArea, MinYM: -volumeBelowM, MaxYM: volumeAboveM}
}

// volume returns the convex volume of the corners and fields (not
// validated).
func (t *volumeTool) volume() voxel.ConvexVolume {
	v := voxel.ConvexVolume{MinYM: float32(t.MinYM), MaxYM: float32(t.MaxYM), Area: uint8(min(max(t.AreaID, 0), 255))}
	for _, p := range t.Corners {
		v.VertsXZ = append(v.VertsXZ, [2]float32{p.X, p.Z})
	}
	return v
}

// convexSoFar reports whether the corners so far can still make a convex
// volume: fewer than three, or a polygon that passes the convexity tests
// of voxel.ConvexVolume.Validate.
func (t *volumeTool) convexSoFar() bool {
	return len(t.Corners) < 3 || checkConvex(t.Corners) == nil
}

// checkConvex returns the error voxel.ConvexVolume.Validate gives the
// polygon of corners (x and z) for reasons of shape: too few corners, not
// convex, a corner that doubles back. The y range and area are not
// checked here.
func checkConvex(corners []geom.Vec3) error {
	v := voxel.ConvexVolume{MinYM: 0, MaxYM: 0, Area: 1}
	for _, p := range corners {
		v.VertsXZ = append(v.VertsXZ, [2]float32{p.X, p.Z})
	}
	return v.Validate()
}

// VolumeClick handles a click of the Volume tool on level point p: near the
// first corner of a polygon of three or more corners it closes the
// polygon (CloseVolume); otherwise p becomes the next corner, unless the
// polygon would then not be convex (or p repeats a corner), which is
// shown as an error and changes nothing. The first corner sets the y
// range around its height.
func (a *App) VolumeClick(p geom.Vec3) error {
	t := &a.VolumeTool
	if !a.cv().has {
		return a.report(errNoCache)
	}
	if !p.Finite() {
		return a.report(fmt.Errorf("ui: volume corner %v is not finite", p))
	}
	if n := len(t.Corners); n >= 3 {
		f := t.Corners[0]
		if math.Hypot(float64(p.X-f.X), float64(p.Z-f.Z)) <= closeSnapM {
			return a.CloseVolume()
		}
	}
	for i, c := range t.Corners {
		if c.X == p.X && c.Z == p.Z {
			return a.report(fmt.Errorf("ui: corner rejected: it repeats corner %d", i+1))
		}
	}
	next := append(append([]geom.Vec3(nil), t.Corners...), p)
	if len(next) >= 3 {
		if err := checkConvex(next); err != nil {
			return a.report(fmt.Errorf("ui: corner %d rejected: the polygon would not be convex (%v); click elsewhere, or Backspace to drop the last corner", len(next), err))
		}
	}
	if len(t.Corners) == 0 {
		t.MinYM, t.MaxYM = float64(p.Y)-volumeBelowM, float64(p.Y)+volumeAboveM
	}
	t.Corners = next
	a.gens.preview++
	a.reportOK(fmt.Sprintf("volume corner %d at (%.1f, %.1f); Enter or a click on the first corner closes it", len(next), p.X, p.Z))
	return nil
}

// CloseVolume adds the volume of the corners as an undoable command and
// clears the corners. A polygon of fewer than three corners, a bad y range
// or area id is shown as an error and changes nothing.
func (a *App) CloseVolume() error {
	t := &a.VolumeTool
	if !a.cv().has {
		return a.report(errNoCache)
	}
	v := t.volume()
	if t.AreaID < 0 || t.AreaID > int(voxel.MaxArea) {
		return a.report(fmt.Errorf("ui: volume area id %d, want 0..%d", t.AreaID, voxel.MaxArea))
	}
	if err := v.Validate(); err != nil {
		return a.report(fmt.Errorf("ui: cannot add the volume: %w", err))
	}
	if err := a.runCommand("add volume", func(*cacheEditor) command { return &addVolumeCmd{h: &volumeHandle{}, v: v} }, nil); err != nil {
		return err
	}
	t.Corners = nil
	a.gens.preview++
	return nil
}

// UndoVolumeCorner drops the last corner (Backspace); false when there is
// none.
func (a *App) UndoVolumeCorner() bool {
	t := &a.VolumeTool
	if len(t.Corners) == 0 {
		return false
	}
	t.Corners = t.Corners[:len(t.Corners)-1]
	a.gens.preview++
	return true
}

// ClearVolumeCorners drops every corner (Escape).
func (a *App) ClearVolumeCorners() {
	if len(a.VolumeTool.Corners) > 0 {
		a.VolumeTool.Corners = nil
		a.gens.preview++
	}
}

// RemoveVolume removes volume id as an undoable command (undo adds it
// again, under a new id and last in the order of volumes).
func (a *App) RemoveVolume(id tilecache.VolumeID) error {
	if !a.cv().has {
		return a.report(errNoCache)
	}
	for _, v := range a.cv().volumes {
		if v.ID == id {
			vol := v.Volume
			return a.runCommand("remove volume", func(e *cacheEditor) command { return &removeVolumeCmd{h: e.volume(id), v: vol} }, nil)
		}
	}
	return a.report(fmt.Errorf("ui: remove: no volume #%d", id))
}

// describeVolume returns a one-line description of v for the list.
func describeVolume(v *voxel.ConvexVolume) string {
	return fmt.Sprintf("area %d, %d corners, y %.1f..%.1f", v.Area, len(v.VertsXZ), v.MinYM, v.MaxYM)
}
