package render

import (
	"fmt"
	"image/color"
	"slices"

	"navviz/core/contour"
	"navviz/core/geom"
	"navviz/inspect"
)

// Overlay names of the repair inspector (package inspect), drawn from the
// layer reports of the last Update (navviz's Inspect section draws the
// report selected).
const (
	// OverlayRemoved: the removed spans of the reported layers (walkable in
	// the first build, area 0 now), a red square on each span's floor.
	OverlayRemoved = "removed"
	// OverlayRing: the ring spans of the reported layers (the spans next to
	// the removed ones that the repair's connectivity search must reach), a
	// yellow square on each span's floor.
	OverlayRing = "ring"
	// OverlayRepairContours: the contours of the reported layers (repaired
	// or from scratch) in their region's colour lightened; where a repaired
	// layer's contours differ from the from-scratch ones, both the
	// repaired contour and the from-scratch one are drawn in magenta.
	OverlayRepairContours = "repair-contours"
)

// InspectOverlayNames lists the inspector overlays in drawing order.
var InspectOverlayNames = []string{OverlayRemoved, OverlayRing, OverlayRepairContours}

// IsInspectOverlay reports whether name is one of InspectOverlayNames.
func IsInspectOverlay(name string) bool { return slices.Contains(InspectOverlayNames, name) }

// Colours and heights of the inspector overlays.
var (
	removedFill   = color.RGBA{255, 40, 40, 200}
	removedPoint  = color.RGBA{255, 0, 0, 255}
	ringFill      = color.RGBA{255, 230, 40, 200}
	ringPoint     = color.RGBA{255, 255, 0, 255}
	contourDiffer = color.RGBA{255, 0, 255, 255}
)

const (
	// inspectSpanLiftRows lifts the removed-span squares above their
	// floors, in cell heights; inspectRingLiftRows the ring-span squares
	// (the two sets never share a span).
	inspectSpanLiftRows = float32(0.5)
	inspectRingLiftRows = float32(0.55)
	// inspectSpanInset shrinks each square by that fraction of a cell on
	// each side so neighbouring spans stay apart.
	inspectSpanInset = float32(0.08)
	// inspectContourLiftRows lifts the contours; the differing ones a
	// little more.
	inspectContourLiftRows = float32(1.0)
	inspectDifferLiftRows  = float32(1.3)
	// inspectPointPx is the size of the span and contour points.
	inspectPointPx = 4
)

// appendSpanSquares adds a filled square of a cell (inset) at each span
// floor centre of pts, lifted liftRows cell heights of f, and a point.
func appendSpanSquares(o *Overlay, pts []geom.Vec3, f inspect.Frame, liftRows float32, fill, point color.RGBA) {
	h := float32(f.CellSizeM * (0.5 - inspectSpanInset))
	if !(h > 0) {
		return
	}
	dy := float32(liftRows * f.CellHeightM)
	for _, p := range pts {
		y := float32(p.Y + dy)
		a := geom.V3(p.X-h, y, p.Z-h)
		b := geom.V3(p.X+h, y, p.Z-h)
		c := geom.V3(p.X+h, y, p.Z+h)
		d := geom.V3(p.X-h, y, p.Z+h)
		o.Tris = append(o.Tris, Vertex{a, fill}, Vertex{b, fill}, Vertex{c, fill},
			Vertex{a, fill}, Vertex{c, fill}, Vertex{d, fill})
		o.Points = append(o.Points, Vertex{geom.V3(p.X, y, p.Z), point})
	}
}

// RemovedOverlay returns the overlay "removed": a red square on the floor
// of every removed span of reps (the positions the reports kept).
func RemovedOverlay(reps []inspect.LayerReport) *Overlay {
	o := surfaceOverlay(OverlayRemoved)
	o.PointSizePx = inspectPointPx
	for i := range reps {
		appendSpanSquares(o, reps[i].RemovedPos, reps[i].Frame, inspectSpanLiftRows, removedFill, removedPoint)
	}
	return o
}

// RingOverlay returns the overlay "ring": a yellow square on the floor of
// every ring span of reps.
func RingOverlay(reps []inspect.LayerReport) *Overlay {
	o := surfaceOverlay(OverlayRing)
	o.PointSizePx = inspectPointPx
	for i := range reps {
		appendSpanSquares(o, reps[i].RingPos, reps[i].Frame, inspectRingLiftRows, ringFill, ringPoint)
	}
	return o
}

// RepairContoursOverlay returns the overlay "repair-contours": every
// contour of reps as lines with a point per vertex, in its region's colour
// lightened (white points on tile-border vertices); a repaired contour
// that differs from the from-scratch one, and the from-scratch contours
// that differ, in magenta, the latter lifted a little higher.
func RepairContoursOverlay(reps []inspect.LayerReport) *Overlay {
	o := surfaceOverlay(OverlayRepairContours)
	o.PointSizePx = inspectPointPx
	for i := range reps {
		r := &reps[i]
		if !(r.Frame.CellSizeM > 0) {
			continue
		}
		f := cellFrame{baseX: r.Frame.OriginX, baseZ: r.Frame.OriginZ, baseY: r.Frame.OriginY, cs: r.Frame.CellSizeM, ch: r.Frame.CellHeightM}
		for j := range r.Contours {
			c := &r.Contours[j]
			col := lighten(contourRegionColour(c.Region, 0), contourSimpLight)
			if c.Differs {
				col = contourDiffer
			}
			appendOutline(o, &f, c, inspectContourLiftRows, col)
		}
		for j := range r.ScratchDiffers {
			appendOutline(o, &f, &r.ScratchDiffers[j], inspectDifferLiftRows, contourDiffer)
		}
	}
	return o
}

// appendOutline adds the closed outline c to o in col with a point per
// vertex (white on tile-border vertices), lifted liftRows.
func appendOutline(o *Overlay, f *cellFrame, c *inspect.Outline, liftRows float32, col color.RGBA) {
	o.Lines = appendLoopLines(o.Lines, f, c.Verts, liftRows, col)
	for _, v := range c.Verts {
		pc := col
		if v.Flags&contour.BorderVertex != 0 {
			pc = contourBorderVert
		}
		o.Points = append(o.Points, Vertex{contourPos(f, v, liftRows), pc})
	}
}

// InspectOverlay returns the inspector overlay called name drawn from reps
// (nil or empty: an empty overlay), or an error for a name not in
// InspectOverlayNames.
func InspectOverlay(name string, reps []inspect.LayerReport) (*Overlay, error) {
	switch name {
	case OverlayRemoved:
		return RemovedOverlay(reps), nil
	case OverlayRing:
		return RingOverlay(reps), nil
	case OverlayRepairContours:
		return RepairContoursOverlay(reps), nil
	}
	return nil, fmt.Errorf("render: unknown inspector overlay %q", name)
}

// InspectRemovedColour, InspectRingColour and InspectDifferColour are the
// colours of the removed spans, the ring spans and the differing contours
// in the inspector overlays (for legends).
func InspectRemovedColour() color.RGBA { return removedPoint }

// InspectRingColour: see InspectRemovedColour.
func InspectRingColour() color.RGBA { return ringPoint }

// InspectDifferColour: see InspectRemovedColour.
func InspectDifferColour() color.RGBA { return contourDiffer }
