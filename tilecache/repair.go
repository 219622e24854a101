package tilecache

import (
	"fmt"
	"slices"
	"time"

	"navviz/core/contour"
	"navviz/core/pipeline"
	"navviz/core/region"
	"navviz/core/voxel"
)

// The layer repair of build3d-runtime.md ("Repairing a layer";
// docs/tilecache.md §11): a layer-first rebuild whose areas differ from the
// first build's only by removed spans starts from what the first build of
// the layer left (its regions, loops and contours) instead of labelling,
// tracing and simplifying the whole layer again. The region half is
// region.RepairBase, the contour half contour.RepairBase; polygons, detail
// and tile data are pipeline.BuildLayerFromContours, as for a layer built
// from scratch. The result is byte for byte the from-scratch one.

// Trace receives what the layer-first rebuilds of a cache do, for
// inspection (package inspect implements it; docs/tilecache.md §11.6). Set
// it with Options.Trace or Cache.SetTrace; nil, the default, costs nothing.
// A trace never changes a result. Its methods are called by Update on the
// caller's goroutine, once per layer built, in the order the layers are
// built (queue order, then ascending layer), before anything is swapped in.
type Trace interface {
	// CompareScratch reports whether a repaired layer should also have its
	// contours built from scratch, given in LayerTrace.Scratch (one more
	// contour build per repaired layer). It is asked once per repaired
	// layer, before Layer.
	CompareScratch() bool
	// Layer reports one layer built. The LayerTrace and everything it
	// points to belong to the cache and are valid only during the call:
	// copy what you keep, change nothing.
	Layer(lt *LayerTrace)
}

// LayerTrace is one layer built by a layer-first rebuild, as a Trace sees
// it. Span numbers are view indices of View (View.Index maps them to the
// tile's compact heightfield, View.X and View.Z give their columns).
type LayerTrace struct {
	// TX and TZ are the tile, Layer the layer number.
	TX, TZ, Layer int
	// View is the layer (read-only).
	View *region.LayerView
	// Areas are the areas in force (one per view span) and FirstAreas the
	// first build's.
	Areas, FirstAreas []uint8
	// RepairOn reports whether the cache repairs layers (Options.
	// DisableRepair false). With the repair off the preconditions are
	// still checked for the trace, and the layer is built from scratch.
	RepairOn bool
	// Repaired reports whether the layer was repaired (every precondition
	// held and the repair is on); otherwise it was built from scratch.
	Repaired bool
	// Verdict is the outcome of the preconditions: RepairOK, or which
	// failed and why (Verdict.String).
	Verdict region.Verdict
	// Removed lists the removed spans (walkable in the first build, area 0
	// now), ascending; Ring the ring spans of the components that lost
	// spans, as far as the checks got (region.RegionRepair.Ring).
	Removed, Ring []int32
	// Contours are the contours the layer's polygons were made from: the
	// repaired set, or the from-scratch one.
	Contours *contour.Set
	// Scratch holds the from-scratch contours of a repaired layer when
	// CompareScratch asked for them (nil otherwise); they equal Contours.
	Scratch *contour.Set
	// NewLoops (indices in Contours.Loops), GoneLoops (indices in
	// FirstContours.Loops) and RemadeRegions say what a repair changed;
	// every other region kept the first build's contours.
	NewLoops, GoneLoops []int32
	RemadeRegions       []uint16
	// FirstContours are the first build's contours of the layer.
	FirstContours *contour.Set
	// Data is the tile data made (nil: the layer has no polygon).
	Data []byte
}

// SetTrace sets the cache's trace (nil: none). See Trace.
func (c *Cache) SetTrace(t Trace) {
	if c != nil {
		c.trace = t
	}
}

// SetRepair turns the layer repair on or off (on after Build unless
// Options.DisableRepair). Either way the mesh is the same, byte for byte.
func (c *Cache) SetRepair(on bool) {
	if c != nil {
		c.repairOff = !on
	}
}

// RepairOn reports whether the cache repairs layers (false for a nil
// Cache).
func (c *Cache) RepairOn() bool { return c != nil && !c.repairOff }

// layerRepair is what the repair of one layer of a tile keeps from its first
// build (made on the layer's first rebuild that may repair).
type layerRepair struct {
	regions  *region.RepairBase
	contours *contour.RepairBase
	// The x/z box (metres) of the columns of the layer's walkable spans in
	// the first-build areas: a volume whose box misses it changes nothing
	// on the layer (volumes only change walkable spans).
	minX, minZ, maxX, maxZ float64
	walkable               bool
}

// repairScratch is the memory the repairs reuse.
type repairScratch struct {
	regions  region.RegionRepair
	contours contour.LayerRepair
	removed  []int32
}

// layerRepairOf returns the repair state of layer li of tile t, making it on
// first need from the layer's first-build areas: the regions
// (region.LayerView.NewRepairBase) and the contours
// (pipeline.BuildLayerContours, then contour.NewRepairBase), what the first
// build of the layer made (the same functions on the same areas).
func (c *Cache) layerRepairOf(t *tile, tl *tileLayers, li int, sc *buildScratch) (*layerRepair, error) {
	if tl.repair == nil {
		tl.repair = make([]*layerRepair, len(tl.views))
	}
	if lr := tl.repair[li]; lr != nil {
		return lr, nil
	}
	v := &tl.views[li]
	first := tl.first[li].areas
	rb, err := v.NewRepairBase(first, c.settings.RegionMinAreaCells())
	if err != nil {
		return nil, err
	}
	lab := &sc.labels
	cset, err := pipeline.BuildLayerContours(&c.settings, &t.spans.Grid, v, first, lab)
	if err != nil {
		return nil, err
	}
	if lab.Count != rb.Regions().Count || !slices.Equal(lab.IDs, rb.Regions().IDs) {
		return nil, fmt.Errorf("tilecache: layer %d: the repair base's regions differ from the build's", v.Layer)
	}
	// The base keeps an exact copy, the build's memory goes to the next.
	cb, err := contour.NewRepairBase(v, rb.Regions().IDs, cset.Clone())
	contour.Recycle(cset)
	if err != nil {
		return nil, err
	}
	lr := &layerRepair{regions: rb, contours: cb}
	g := &t.spans.Grid
	x0, z0, x1, z1 := v.Width, v.Height, -1, -1
	for k, a := range first {
		if a != voxel.AreaNull {
			x, z := int(v.X[k]), int(v.Z[k])
			x0, z0, x1, z1 = min(x0, x), min(z0, z), max(x1, x), max(z1, z)
		}
	}
	if x1 >= 0 {
		cs := float64(g.CellSizeM)
		ox, oz := float64(g.OriginM.X), float64(g.OriginM.Z)
		lr.walkable = true
		lr.minX, lr.maxX = ox+float64(float64(x0)*cs), ox+float64(float64(x1+1)*cs)
		lr.minZ, lr.maxZ = oz+float64(float64(z0)*cs), oz+float64(float64(z1+1)*cs)
	}
	tl.repair[li] = lr
	return lr, nil
}

// volumeTouches reports whether an area volume in force has a box that
// meets the layer's walkable box (precondition (a)).
func (c *Cache) volumeTouches(lr *layerRepair) bool {
	if !lr.walkable {
		return false
	}
	for i := range c.volumes {
		e := &c.volumes[i]
		if e.maxX >= lr.minX && e.minX <= lr.maxX && e.maxZ >= lr.minZ && e.minZ <= lr.maxZ {
			return true
		}
	}
	return false
}

// buildLayer builds layer li of tile t (at place at) from areas, the areas
// in force on its spans, which differ from the first build's: repaired when
// the repair is on and its preconditions hold, else from scratch
// (pipeline.BuildLayerMesh). It reports whether the layer was repaired. The
// trace, if any, sees the layer.
func (c *Cache) buildLayer(t *tile, tl *tileLayers, li int, at pipeline.TilePlace, areas []uint8, sc *buildScratch) (pipeline.LayerBuild, bool, error) {
	v := &tl.views[li]
	tm, w := &sc.times, &sc.watch
	w.lap(&tm.Layers) // the gathers and compares since the last lap
	if c.repairOff && c.trace == nil {
		lb, err := pipeline.BuildLayerMesh(&c.settings, at, &t.spans.Grid, v, areas, &sc.labels)
		w.lap(&tm.Scratch)
		return lb, false, err
	}
	lr, err := c.layerRepairOf(t, tl, li, sc)
	w.lap(&tm.Layers)
	if err != nil {
		return pipeline.LayerBuild{}, false, err
	}
	rs := &sc.repair
	verdict := region.Verdict{Reason: region.ReasonVolume, Span: -1}
	checked := false
	if !c.volumeTouches(lr) {
		if err := lr.regions.Repair(areas, &rs.regions); err != nil {
			return pipeline.LayerBuild{}, false, err
		}
		verdict, checked = rs.regions.Verdict, true
	}
	w.lap(&tm.Regions)
	var lb pipeline.LayerBuild
	repaired := verdict.OK() && !c.repairOff
	if repaired {
		if err := lr.contours.Repair(areas, rs.regions.IDs, rs.regions.Removed, &rs.contours); err != nil {
			return pipeline.LayerBuild{}, false, err
		}
		w.lap(&tm.Contours)
		lb, err = pipeline.BuildLayerFromContours(&c.settings, at, v.Layer, rs.contours.Set, lr.regions.Regions().Count)
		w.lap(&tm.Polys)
	} else {
		lb, err = pipeline.BuildLayerMesh(&c.settings, at, &t.spans.Grid, v, areas, &sc.labels)
		w.lap(&tm.Scratch)
	}
	if err != nil {
		return pipeline.LayerBuild{}, false, err
	}
	if c.trace != nil {
		var traced time.Duration // not charged to any part
		if err := c.traceLayer(t, tl, li, lr, areas, verdict, checked, repaired, &lb, sc); err != nil {
			return pipeline.LayerBuild{}, false, err
		}
		w.lap(&traced)
	}
	return lb, repaired, nil
}

// traceLayer reports a built layer to the trace.
func (c *Cache) traceLayer(t *tile, tl *tileLayers, li int, lr *layerRepair, areas []uint8, verdict region.Verdict, checked, repaired bool, lb *pipeline.LayerBuild, sc *buildScratch) error {
	v := &tl.views[li]
	rs := &sc.repair
	first := tl.first[li].areas
	lt := LayerTrace{
		TX: t.tx, TZ: t.tz, Layer: v.Layer, View: v,
		Areas: areas, FirstAreas: first,
		RepairOn: !c.repairOff, Repaired: repaired, Verdict: verdict,
		Contours: lb.Contours, FirstContours: lr.contours.Set(), Data: lb.Data,
	}
	if checked {
		lt.Removed, lt.Ring = rs.regions.Removed, rs.regions.Ring
	} else {
		// (a) failed on a volume before the spans were compared.
		rs.removed = rs.removed[:0]
		for k, a := range areas {
			if a == voxel.AreaNull && first[k] != voxel.AreaNull {
				rs.removed = append(rs.removed, int32(k))
			}
		}
		lt.Removed = rs.removed
	}
	if repaired {
		lt.NewLoops, lt.GoneLoops, lt.RemadeRegions = rs.contours.NewLoops, rs.contours.Gone, rs.contours.Regions
		if c.trace.CompareScratch() {
			var lab region.Labels
			set, err := pipeline.BuildLayerContours(&c.settings, &t.spans.Grid, v, areas, &lab)
			if err != nil {
				return err
			}
			lt.Scratch = set
		}
	}
	c.trace.Layer(&lt)
	contour.Recycle(lt.Scratch)
	return nil
}
