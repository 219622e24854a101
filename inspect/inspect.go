package inspect

import (
	"fmt"
	"slices"
	"sync"

	"navviz/core/contour"
	"navviz/core/geom"
	"navviz/core/region"
	"navviz/core/voxel"
	"navviz/tilecache"
)

// Limits of a Recorder's memory.
const (
	// DefaultMaxReports is the number of layer reports a Recorder keeps per
	// Update by default (NewRecorder); later layers are counted in Dropped.
	DefaultMaxReports = 256
	// MaxSpanPositions is the number of span positions a LayerReport keeps
	// of its removed spans and of its ring spans (the counts are exact).
	MaxSpanPositions = 4096
)

// Frame is the grid geometry of a layer's tile (the compact heightfield's,
// border included): the min corner in metres and the cell sizes.
type Frame struct {
	OriginX, OriginY, OriginZ float32
	CellSizeM, CellHeightM    float32
}

// Outline is one contour of a layer: its simplified vertices (grid units
// of the Frame: x and z in cells, y in rows), its region and area. Differs
// marks a repaired contour that differs from the from-scratch contour of
// the same index, or a from-scratch contour that differs from the repaired
// one.
type Outline struct {
	Region  uint16
	Area    uint8
	Verts   []contour.Vertex
	Differs bool
}

// LayerReport is what one layer-first rebuild did to one layer.
type LayerReport struct {
	// TX, TZ are the tile, Layer the layer number.
	TX, TZ, Layer int
	// RepairOn reports whether the cache repairs layers, Repaired whether
	// this layer was repaired (else it was built from scratch).
	RepairOn, Repaired bool
	// Reason is the verdict of the preconditions (region.RepairOK or the
	// first that failed), Precondition the precondition it belongs to ("a",
	// "b", "c", "d", "links"; "" when every one held), and Verdict the
	// verdict in words (region.Verdict.String; "ok (repair off)" when every
	// precondition held but the repair is off).
	Reason       region.RepairReason
	Precondition string
	Verdict      string
	// Removed and Ring count the removed spans (walkable in the first
	// build, area 0 now) and the ring spans of the components that lost
	// spans; RemovedPos and RingPos hold the world position (metres) of
	// the floor centre of the first MaxSpanPositions of each, in view
	// order.
	Removed, Ring       int
	RemovedPos, RingPos []geom.Vec3
	// RegionsRebuilt counts the regions a repair traced again, NewLoops and
	// GoneLoops the loops it made and dropped (0 for a layer built from
	// scratch).
	RegionsRebuilt, NewLoops, GoneLoops int
	// Compared reports whether the repaired contours were compared with
	// the from-scratch ones (a repaired layer with Recorder.CompareScratch
	// on); ContoursEqual whether they were equal, and Diff the first
	// difference (contour.Set.Diff) when not.
	Compared, ContoursEqual bool
	Diff                    string
	// HasPolys reports whether the layer made polygons (tile data).
	HasPolys bool
	// Frame is the tile's grid, Contours the layer's contours (repaired or
	// from scratch), and ScratchDiffers the from-scratch contours that
	// differ from the repaired ones (empty when they are equal or were not
	// compared).
	Frame          Frame
	Contours       []Outline
	ScratchDiffers []Outline
}

// Mode returns "repaired" or "scratch" ("" for a nil report).
func (r *LayerReport) Mode() string {
	if r == nil {
		return ""
	}
	if r.Repaired {
		return "repaired"
	}
	return "scratch"
}

// Compare returns the contour comparison in a word: "equal", "DIFFER" or
// "-" when not compared (or for a nil report).
func (r *LayerReport) Compare() string {
	switch {
	case r == nil || !r.Compared:
		return "-"
	case r.ContoursEqual:
		return "equal"
	}
	return "DIFFER"
}

// PreconditionsDoc is where the repair's preconditions are written down
// for users: the (a), links, (b), (c), (d) of LayerReport.Precondition.
const PreconditionsDoc = "docs/tilecache.md §11.3"

// FailedPrecondition returns the failed precondition in a sentence, citing
// where it is described ("Failed precondition: (b) of the layer repair,
// docs/tilecache.md §11.3."), or "" when none failed (or for a nil
// report).
func (r *LayerReport) FailedPrecondition() string {
	if r == nil || r.Precondition == "" {
		return ""
	}
	return "Failed precondition: (" + r.Precondition + ") of the layer repair, " + PreconditionsDoc + "."
}

// String returns the report on one line: tile, layer, mode and verdict,
// the span counts, the regions rebuilt and the contour comparison ("<nil>"
// for a nil report).
func (r *LayerReport) String() string {
	if r == nil {
		return "<nil>"
	}
	return fmt.Sprintf("tile (%d,%d) layer %d: %s (%s); removed %d, ring %d, regions rebuilt %d, loops +%d -%d, contours %s",
		r.TX, r.TZ, r.Layer, r.Mode(), r.Verdict, r.Removed, r.Ring, r.RegionsRebuilt, r.NewLoops, r.GoneLoops, r.Compare())
}

// Recorder is a tilecache.Trace that keeps a LayerReport per layer built
// by the last Update that built one. Its methods are safe for concurrent
// use (the cache calls Layer on the goroutine of Update; a GUI may read the
// reports from another). The zero Recorder is ready to use (no comparison,
// DefaultMaxReports per Update). On a nil *Recorder every method does
// nothing and returns its zero value (no reports, CompareScratch false).
type Recorder struct {
	mu       sync.Mutex
	compare  bool
	max      int
	begun    bool
	reports  []LayerReport
	dropped  int
	updates  int
	observed int
}

// NewRecorder returns a recorder that asks for the from-scratch contours of
// every repaired layer when compare is true and keeps at most
// DefaultMaxReports reports per Update.
func NewRecorder(compare bool) *Recorder {
	return &Recorder{compare: compare, max: DefaultMaxReports}
}

// SetMaxReports sets the number of reports kept per Update (n < 1: 1).
func (r *Recorder) SetMaxReports(n int) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.max = max(n, 1)
}

// SetCompareScratch turns the comparison with from-scratch contours on or
// off (it costs one more contour build per repaired layer).
func (r *Recorder) SetCompareScratch(on bool) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.compare = on
}

// CompareScratch implements tilecache.Trace.
func (r *Recorder) CompareScratch() bool {
	if r == nil {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.compare
}

// Begin marks the start of an Update: the next layer reported replaces the
// reports kept. An Update that builds no layer leaves the previous reports.
// Without Begin the reports accumulate (up to the bound).
func (r *Recorder) Begin() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.begun = true
}

// Clear drops every report; the next layer reported starts a new list.
func (r *Recorder) Clear() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reports, r.dropped, r.begun = nil, 0, true
}

// Reports returns the reports kept, in the order the layers were built.
// The slice is the caller's; the reports' contents are shared and must not
// be changed.
func (r *Recorder) Reports() []LayerReport {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.reports)
}

// Dropped returns the number of layers of the current reports' Update
// beyond the bound, not kept.
func (r *Recorder) Dropped() int {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dropped
}

// Updates returns how many report lists the recorder started (the Begins
// followed by a layer, counting the first list).
func (r *Recorder) Updates() int {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.updates
}

// Layer implements tilecache.Trace: it copies what the report needs.
func (r *Recorder) Layer(lt *tilecache.LayerTrace) {
	if r == nil || lt == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.begun || r.observed == 0 {
		r.reports, r.dropped, r.begun = r.reports[:0:0], 0, false
		r.updates++
	}
	r.observed++
	limit := r.max
	if limit == 0 { // the zero Recorder
		limit = DefaultMaxReports
	}
	if len(r.reports) >= limit {
		r.dropped++
		return
	}
	r.reports = append(r.reports, NewReport(lt))
}

// NewReport makes the report of one layer trace, copying what it keeps
// (the trace and its data are not changed and not retained).
func NewReport(lt *tilecache.LayerTrace) LayerReport {
	rep := LayerReport{
		TX: lt.TX, TZ: lt.TZ, Layer: lt.Layer,
		RepairOn: lt.RepairOn, Repaired: lt.Repaired,
		Reason:       lt.Verdict.Reason,
		Precondition: lt.Verdict.Reason.Precondition(),
		Verdict:      lt.Verdict.String(),
		Removed:      len(lt.Removed), Ring: len(lt.Ring),
		HasPolys: len(lt.Data) > 0,
	}
	if lt.Verdict.OK() && !lt.Repaired {
		rep.Verdict = "ok (repair off)"
	}
	frameSet := lt.Contours
	if frameSet == nil {
		frameSet = lt.FirstContours
	}
	if frameSet != nil {
		rep.Frame = Frame{frameSet.OriginX, frameSet.OriginY, frameSet.OriginZ, frameSet.CellSizeM, frameSet.CellHeightM}
	}
	rep.RemovedPos = spanPositions(lt.View, lt.Removed, rep.Frame)
	rep.RingPos = spanPositions(lt.View, lt.Ring, rep.Frame)
	if lt.Repaired {
		rep.RegionsRebuilt, rep.NewLoops, rep.GoneLoops = len(lt.RemadeRegions), len(lt.NewLoops), len(lt.GoneLoops)
	}
	rep.Contours = outlines(lt.Contours)
	if lt.Repaired && lt.Scratch != nil {
		rep.Compared = true
		rep.Diff = lt.Contours.Diff(lt.Scratch)
		rep.ContoursEqual = rep.Diff == ""
		if !rep.ContoursEqual {
			scratch := outlines(lt.Scratch)
			for i := range max(len(scratch), len(rep.Contours)) {
				switch {
				case i >= len(scratch):
					rep.Contours[i].Differs = true
				case i >= len(rep.Contours) || !sameOutline(&rep.Contours[i], &scratch[i]):
					if i < len(rep.Contours) {
						rep.Contours[i].Differs = true
					}
					scratch[i].Differs = true
					rep.ScratchDiffers = append(rep.ScratchDiffers, scratch[i])
				}
			}
		}
	}
	return rep
}

// sameOutline reports whether two outlines have the same region, area and
// vertices.
func sameOutline(a, b *Outline) bool {
	return a.Region == b.Region && a.Area == b.Area && slices.Equal(a.Verts, b.Verts)
}

// outlines copies the contours of s.
func outlines(s *contour.Set) []Outline {
	if s == nil {
		return nil
	}
	out := make([]Outline, len(s.Contours))
	for i := range s.Contours {
		c := &s.Contours[i]
		out[i] = Outline{Region: c.Region, Area: c.Area, Verts: slices.Clone(c.Verts)}
	}
	return out
}

// spanPositions returns the world position of the floor centre of the
// first MaxSpanPositions view spans of spans (those outside the view are
// skipped): the centre of the span's column (View.X, View.Z) on the grid of
// f, at the height of its floor row (View.Y).
func spanPositions(v *region.LayerView, spans []int32, f Frame) []geom.Vec3 {
	if v == nil || len(spans) == 0 {
		return nil
	}
	g := voxel.Grid{OriginM: geom.V3(f.OriginX, f.OriginY, f.OriginZ), CellSizeM: f.CellSizeM, CellHeightM: f.CellHeightM}
	out := make([]geom.Vec3, 0, min(len(spans), MaxSpanPositions))
	for _, k := range spans {
		if len(out) == MaxSpanPositions {
			break
		}
		if k < 0 || int(k) >= len(v.X) || int(k) >= len(v.Z) || int(k) >= len(v.Y) {
			continue
		}
		x, z := g.CellCenterM(int(v.X[k]), int(v.Z[k]))
		y := g.RowHeightM(int(v.Y[k]))
		out = append(out, geom.V3(float32(x), float32(y), float32(z)))
	}
	return out
}

// Summary counts the reports of one Update.
type Summary struct {
	// Layers is the number of reports, Repaired how many were repaired,
	// Removed and Ring the span counts summed, Differ the repaired layers
	// whose contours differ from scratch, and Reasons the layers built
	// from scratch by reason.
	Layers, Repaired, Removed, Ring, Differ int
	Reasons                                 [region.NumRepairReasons]int
}

// Summarize counts reps.
func Summarize(reps []LayerReport) Summary {
	var s Summary
	for i := range reps {
		r := &reps[i]
		s.Layers++
		s.Removed += r.Removed
		s.Ring += r.Ring
		if r.Repaired {
			s.Repaired++
		} else if int(r.Reason) < len(s.Reasons) {
			s.Reasons[r.Reason]++
		}
		if r.Compared && !r.ContoursEqual {
			s.Differ++
		}
	}
	return s
}

// Recorder implements tilecache.Trace.
var _ tilecache.Trace = (*Recorder)(nil)
