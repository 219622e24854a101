package ui

import (
	"fmt"
	"math"

	"github.com/ebitengine/debugui"

	"navviz/core/geom"
	"navviz/core/voxel"
	"navviz/render"
	"navviz/ui/session"
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

// maxAreaID is the largest area id a volume may give.
const maxAreaID = 63

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

	// nums are the fields' texts (number_field.go).
	nums numberFields
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

// click handles a click on level point p: near the first corner of a
// polygon of three or more corners it closes the polygon (close);
// otherwise p becomes the next corner, unless the polygon would then not
// be convex (or p repeats a corner), which is shown as an error and
// changes nothing. The first corner sets the y range around its height.
func (t *volumeTool) click(a *session.App, p geom.Vec3) error {
	if !a.CacheView().Has {
		return a.Report(session.ErrNoCache)
	}
	if !p.Finite() {
		return a.Report(fmt.Errorf("ui: volume corner %v is not finite", p))
	}
	if n := len(t.Corners); n >= 3 {
		f := t.Corners[0]
		if math.Hypot(float64(p.X-f.X), float64(p.Z-f.Z)) <= closeSnapM {
			return t.close(a)
		}
	}
	for i, c := range t.Corners {
		if c.X == p.X && c.Z == p.Z {
			return a.Report(fmt.Errorf("ui: corner rejected: it repeats corner %d", i+1))
		}
	}
	next := append(append([]geom.Vec3(nil), t.Corners...), p)
	if len(next) >= 3 {
		if err := checkConvex(next); err != nil {
			return a.Report(fmt.Errorf("ui: corner %d rejected: the polygon would not be convex (%v); click elsewhere, or Backspace to drop the last corner", len(next), err))
		}
	}
	if len(t.Corners) == 0 {
		t.MinYM, t.MaxYM = float64(p.Y)-volumeBelowM, float64(p.Y)+volumeAboveM
	}
	t.Corners = next
	a.Gens.Preview++
	a.ReportOK(fmt.Sprintf("volume corner %d at (%.1f, %.1f); Enter or a click on the first corner closes it", len(next), p.X, p.Z))
	return nil
}

// close adds the volume of the corners (App.AddVolume, an undoable
// command) and clears the corners. A polygon of fewer than three corners,
// a bad y range or area id is shown as an error and changes nothing.
func (t *volumeTool) close(a *session.App) error {
	if !a.CacheView().Has {
		return a.Report(session.ErrNoCache)
	}
	if t.AreaID < 0 || t.AreaID > int(voxel.MaxArea) {
		return a.Report(fmt.Errorf("ui: volume area id %d, want 0..%d", t.AreaID, voxel.MaxArea))
	}
	if err := a.AddVolume(t.volume()); err != nil {
		return err
	}
	t.Corners = nil
	a.Gens.Preview++
	return nil
}

// dropCorner drops the last corner (Backspace); false when there is none.
func (t *volumeTool) dropCorner(a *session.App) bool {
	if len(t.Corners) == 0 {
		return false
	}
	t.Corners = t.Corners[:len(t.Corners)-1]
	a.Gens.Preview++
	return true
}

// clearCorners drops every corner (Escape).
func (t *volumeTool) clearCorners(a *session.App) {
	if len(t.Corners) > 0 {
		t.Corners = nil
		a.Gens.Preview++
	}
}

// The tool interface (tool.go).

func (*volumeTool) label() string   { return "volume" }
func (*volumeTool) takesLeft() bool { return true }

// putAway keeps the corners: back in the tool, the polygon goes on.
func (*volumeTool) putAway(*session.App) {}

// panel shows the corners so far, the y range and area fields, and the
// close, drop and clear buttons.
func (t *volumeTool) panel(ctx *debugui.Context, g *Game) {
	a := g.App
	state := "convex so far"
	if !t.convexSoFar() {
		state = "NOT convex"
	}
	ctx.Text(fmt.Sprintf("Corners: %d (%s)", len(t.Corners), state))
	grid := []int{-3, -2}
	ctx.SetGridLayout(grid, nil)
	nf := &t.nums
	nf.label(ctx, "vol-min-y", "Min y (m)")
	nf.float(ctx, "vol-min-y", &t.MinYM, numberSpec{digits: 2, step: 0.5})
	nf.label(ctx, "vol-max-y", "Max y (m)")
	nf.float(ctx, "vol-max-y", &t.MaxYM, numberSpec{digits: 2, step: 0.5})
	nf.label(ctx, "vol-area", "Area id (0-63)")
	nf.int(ctx, "vol-area", &t.AreaID, numberSpec{step: 1})
	ctx.SetGridLayout(nil, nil)
	t.AreaID = min(max(t.AreaID, 0), int(maxAreaID))
	ctx.SetGridLayout([]int{-1, -1, -1}, nil)
	ctx.Button("Close (Enter)").On(func() { a.Report(t.close(a)) })
	ctx.Button("Drop corner").On(func() { t.dropCorner(a) })
	ctx.Button("Clear (Esc)").On(func() { t.clearCorners(a) })
	ctx.SetGridLayout(nil, nil)
	ctx.Text("Click the level to add corners of a convex polygon; click the first corner or press Enter to add the volume. Backspace drops the last corner.")
}

// pointer: a click (a release that did not move) adds a corner where the
// press was.
func (t *volumeTool) pointer(ev pointerEvent, g *Game) bool {
	if ev.Kind != pointerRelease || ev.Moved {
		return false
	}
	a := g.App
	p, ok := g.levelPoint(ev.PressX, ev.PressY)
	if !ok {
		a.Report(fmt.Errorf("ui: no level under the cursor for a volume corner"))
		return false
	}
	a.Report(t.click(a, p))
	return false
}

// keys: Enter closes the polygon, Backspace drops the last corner, Escape
// all of them.
func (t *volumeTool) keys(k toolKeys, g *Game) {
	a := g.App
	switch {
	case k.Enter:
		a.Report(t.close(a))
	case k.Backspace:
		t.dropCorner(a)
	case k.Escape:
		t.clearCorners(a)
	}
}

// Preview shows the corners, green while convex, red when not.
func (t *volumeTool) Preview(a *session.App) *render.Overlay {
	return render.PreviewOverlay(nil, a.CacheView().GrowthM, t.Corners, t.convexSoFar())
}
