package render

import (
	"image/color"
	"testing"

	"navviz/core/contour"
	"navviz/core/geom"
	"navviz/inspect"
)

// inspectReports is a hand-made report: two removed spans, one ring span,
// a repaired contour that differs and its from-scratch counterpart.
func inspectReports() []inspect.LayerReport {
	sq := []contour.Vertex{{X: 2, Y: 0, Z: 2}, {X: 2, Y: 0, Z: 6}, {X: 6, Y: 0, Z: 6}, {X: 6, Y: 0, Z: 2, Flags: contour.BorderVertex}}
	return []inspect.LayerReport{{
		Frame:          inspect.Frame{OriginX: -1, OriginY: 0, OriginZ: -1, CellSizeM: 0.5, CellHeightM: 0.25},
		Removed:        2,
		RemovedPos:     []geom.Vec3{geom.V3(0.25, 0, 0.25), geom.V3(0.75, 0, 0.25)},
		Ring:           1,
		RingPos:        []geom.Vec3{geom.V3(1.25, 0, 0.25)},
		Repaired:       true,
		Compared:       true,
		Contours:       []inspect.Outline{{Region: 1, Verts: sq}, {Region: 2, Verts: sq, Differs: true}},
		ScratchDiffers: []inspect.Outline{{Region: 2, Verts: sq[:3], Differs: true}},
	}}
}

// count returns how many vertices of vs have colour col.
func count(vs []Vertex, col color.RGBA) int {
	n := 0
	for _, v := range vs {
		if v.Col == col {
			n++
		}
	}
	return n
}

// TestInspectOverlays: the removed and ring spans become one red or
// yellow square each, above their floors; the repair contours draw every
// outline, the differing ones (repaired and from scratch) in magenta.
func TestInspectOverlays(t *testing.T) {
	reps := inspectReports()
	for _, name := range InspectOverlayNames {
		o, err := InspectOverlay(name, reps)
		if err != nil || o.Name != name || !o.Visible {
			t.Fatalf("%s: %v, %+v", name, err, o)
		}
		if e, err := InspectOverlay(name, nil); err != nil || len(e.Tris)+len(e.Lines)+len(e.Points) != 0 {
			t.Errorf("%s of no report: %v, not empty", name, err)
		}
		if !IsInspectOverlay(name) {
			t.Errorf("IsInspectOverlay(%q) false", name)
		}
	}
	if _, err := InspectOverlay("nope", reps); err == nil || IsInspectOverlay("nope") {
		t.Error("unknown name accepted")
	}
	rm := RemovedOverlay(reps)
	if len(rm.Tris) != 2*6 || count(rm.Tris, removedFill) != 12 || len(rm.Points) != 2 {
		t.Errorf("removed: %d triangle vertices, %d points", len(rm.Tris), len(rm.Points))
	}
	for _, v := range rm.Tris {
		if v.Pos.Y <= 0 || v.Pos.X < 0 || v.Pos.X > 1 {
			t.Errorf("removed square vertex %v outside its cells or not lifted", v.Pos)
		}
	}
	rg := RingOverlay(reps)
	if len(rg.Tris) != 6 || count(rg.Tris, ringFill) != 6 {
		t.Errorf("ring: %d triangle vertices", len(rg.Tris))
	}
	rc := RepairContoursOverlay(reps)
	// Two squares (4 segments each) and a triangle: 11 segments.
	if len(rc.Lines) != 2*11 {
		t.Fatalf("contours: %d line vertices, want 22", len(rc.Lines))
	}
	if got := count(rc.Lines, contourDiffer); got != 2*(4+3) {
		t.Errorf("contours: %d magenta line vertices, want 14", got)
	}
	// The first square's corner (2, 0, 2) is at (-1+1, lift, -1+1).
	if p := rc.Lines[1].Pos; p.X != 0 || p.Z != 0 || p.Y <= 0 {
		t.Errorf("first contour vertex at %v", p)
	}
	if count(rc.Points, contourBorderVert) != 2 {
		t.Errorf("%d border vertex points, want 2 (the from-scratch triangle has none)", count(rc.Points, contourBorderVert))
	}
	// A report without a frame draws nothing.
	bad := reps
	bad[0].Frame = inspect.Frame{}
	if o := RepairContoursOverlay(bad); len(o.Lines) != 0 {
		t.Error("contours drawn without a frame")
	}
	if o := RemovedOverlay(bad); len(o.Tris) != 0 {
		t.Error("spans drawn without a frame")
	}
}
