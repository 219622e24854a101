package tilecache

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"navviz/core/contour"
	"navviz/core/navmesh"
	"navviz/core/polymesh"
	"navviz/core/voxel"
)

// Rebuild says what rebuilding a tile took.
type Rebuild uint8

const (
	// RebuildUnchanged: the tile's areas equal those its tiles in the mesh
	// were last built from, so nothing was built and nothing changed.
	RebuildUnchanged Rebuild = iota
	// RebuildFirst: the areas equal the first build's, whose tile data was
	// swapped in without building (the last obstacle left the tile).
	RebuildFirst
	// RebuildBuilt: the areas changed and step 5 ran (regions, contours,
	// polygons, detail, tile data): on the general path for the whole
	// tile, on the layer-first path for every height layer whose spans or
	// areas differ from both the layer the mesh holds and the first
	// build's (TileUpdate.LayersBuilt).
	RebuildBuilt
)

var rebuildNames = [...]string{"unchanged", "first-build", "built"}

// String returns "unchanged", "first-build" or "built".
func (r Rebuild) String() string {
	if int(r) < len(rebuildNames) {
		return rebuildNames[r]
	}
	return fmt.Sprintf("Rebuild(%d)", uint8(r))
}

// SwapKind says what a swap did to one layer of a tile position.
type SwapKind uint8

const (
	// SwapKept: the layer's content id did not change; the mesh keeps the
	// tile, its references and its run-time polygon edits.
	SwapKept SwapKind = iota
	// SwapReplaced: the layer changed and replaced the tile in its slot
	// (next generation: references into the old tile are stale).
	SwapReplaced
	// SwapAdded: a new layer was added.
	SwapAdded
	// SwapRemoved: the layer no longer exists and its tile was removed.
	SwapRemoved
)

var swapNames = [...]string{"kept", "replaced", "added", "removed"}

// String returns "kept", "replaced", "added" or "removed".
func (k SwapKind) String() string {
	if int(k) < len(swapNames) {
		return swapNames[k]
	}
	return fmt.Sprintf("SwapKind(%d)", uint8(k))
}

// Swap is what happened to one layer of a rebuilt tile position.
type Swap struct {
	Layer uint8
	Kind  SwapKind
	// OldRef is the tile before the swap (0 for SwapAdded), Ref the tile
	// after it (0 for SwapRemoved; equal to OldRef for SwapKept).
	OldRef, Ref navmesh.TileRef
	// ContentID is the content id of the layer's tile data after the swap
	// (before it, for SwapRemoved).
	ContentID uint64
}

// TileUpdate is the rebuild of one queued tile.
type TileUpdate struct {
	// TX and TZ are the tile's coordinates.
	TX, TZ int
	// Rebuild says what the rebuild took.
	Rebuild Rebuild
	// LayersBuilt is the number of builds step 5 ran: on the layer-first
	// path one per height layer built (a layer whose spans and areas equal
	// those of the layer the mesh holds, or of the first build's, is not
	// built), on the general path 1 for the whole tile; 0 unless Rebuild is
	// RebuildBuilt.
	LayersBuilt int
	// LayersRepaired is the number of those layer builds that were
	// repairs of the first build's layer (build3d-runtime.md, "Repairing a
	// layer"); the others ran from scratch.
	LayersRepaired int
	// RemovedSpans is the number of spans the obstacles made not walkable
	// (spans walkable after step 3 that obstacles set to area 0).
	RemovedSpans int
	// Swaps lists what happened to each layer, lowest first; none for
	// RebuildUnchanged.
	Swaps []Swap
}

// UpdateResult is what an Update did.
type UpdateResult struct {
	// Tiles lists the rebuilt tiles in the order they were taken from the
	// queue (a tile that failed is not listed, unless its swap failed
	// half-way: then it is listed with the swaps made).
	Tiles []TileUpdate
	// Failed lists the tiles whose rebuild failed, in queue order. They
	// left the queue and the mesh keeps the tiles it held at their
	// positions; the next add or remove that reaches such a tile (or
	// QueueTile) queues it again.
	Failed []TileError
	// Remaining is the number of tiles still queued.
	Remaining int
}

// TileError is the failure of one tile's rebuild in Update.
type TileError struct {
	// TX and TZ are the tile's coordinates.
	TX, TZ int
	// Layer is the height layer whose build failed on the layer-first
	// path, -1 when the failure concerns the whole tile (the general
	// path's build, marking the areas, or the swap).
	Layer int
	// Err is the cause.
	Err error
}

// Error returns "tilecache: Update: tile (tx, tz) layer l: cause" (without
// the layer when Layer is -1; "<nil>" for a nil TileError).
func (e *TileError) Error() string {
	if e == nil {
		return "<nil>"
	}
	if e.Layer < 0 {
		return fmt.Sprintf("tilecache: Update: tile (%d, %d): %v", e.TX, e.TZ, e.Err)
	}
	return fmt.Sprintf("tilecache: Update: tile (%d, %d) layer %d: %v", e.TX, e.TZ, e.Layer, e.Err)
}

// Unwrap returns the cause (nil for a nil TileError).
func (e *TileError) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.Err
}

// layerError is a layer-first build failure of one layer (planLayers).
type layerError struct {
	layer int
	err   error
}

func (e *layerError) Error() string { return fmt.Sprintf("layer %d: %v", e.layer, e.err) }
func (e *layerError) Unwrap() error { return e.err }

// LayersBuilt returns the sum of the tiles' LayersBuilt.
func (r *UpdateResult) LayersBuilt() int {
	if r == nil {
		return 0
	}
	n := 0
	for i := range r.Tiles {
		n += r.Tiles[i].LayersBuilt
	}
	return n
}

// LayersRepaired returns the sum of the tiles' LayersRepaired.
func (r *UpdateResult) LayersRepaired() int {
	if r == nil {
		return 0
	}
	n := 0
	for i := range r.Tiles {
		n += r.Tiles[i].LayersRepaired
	}
	return n
}

// plan is a rebuilt tile waiting to be swapped in.
type plan struct {
	ti      int32
	err     error // the rebuild failed (reported in UpdateResult.Failed)
	rebuild Rebuild
	// areas are the areas in force (marked into a buffer of the cache's
	// free list, takeAreas); the tile keeps them as the areas it was last
	// built from after a RebuildBuilt swap, else they go back to the list.
	areas   []uint8
	layers  []layerData
	keys    []layerKey // layer-first path (RebuildBuilt only)
	built   int        // step-5 builds run
	repairs int        // of which repairs
	removed int
	// dirty is a range of spans outside which areas are the first
	// build's (markAreas).
	dirty voxel.SpanRange
}

// Update takes up to maxTiles tiles from the front of the queue, one tile
// per iteration (no clock is read: a budget does the same work everywhere),
// and rebuilds each from the obstacles and volumes in force now
// (build3d-runtime.md, "Rebuilding"): it marks the tile's first-build areas
// with them (markAreas); when the areas equal those the tile was last built
// from nothing changes; when they equal the first build's, the first
// build's tile data is used; otherwise step 5 runs on a copy of the cached
// heightfield. The result is swapped into the mesh layer by layer from the
// lowest (see Swap). maxTiles 0 does nothing; a negative one is an error
// and changes nothing.
//
// Every tile of the call is built before any is swapped in: by
// Options.Workers goroutines in parallel (one when a Trace is set, so that
// it sees the layers in order), each tile built alone from state no other
// tile of the call changes; the tiles are then swapped in queue order, so
// the result is the same for every number of workers.
//
// A tile whose rebuild fails does not stop the others (docs/tilecache.md
// §7): it leaves the queue, the mesh keeps the tiles it holds at its
// position (and the cache what they were built from), and it is listed in
// UpdateResult.Failed; the other tiles of the call are swapped in as
// usual. The error is then the failed tile's *TileError (naming the tile
// and the layer), or errors.Join of them when several failed, and the
// result is valid too. The next AddObstacle, RemoveObstacle, AddVolume or
// RemoveVolume that reaches a failed tile, or QueueTile, queues it again.
func (c *Cache) Update(maxTiles int) (UpdateResult, error) {
	var res UpdateResult
	err := c.UpdateInto(&res, maxTiles)
	return res, err
}

// UpdateInto is Update writing its result into *res and reusing the
// memory res holds: its Tiles and Failed arrays up to their capacity and
// the Swaps of every entry there (unused swap slices are left in the
// entries beyond the tiles, for the next call). A host that passes the
// same UpdateResult to every call, as RunCycle does, allocates nothing
// for the results once they have grown. What res held is overwritten (the
// caller must not use it, or Swaps slices it took from it, any more); the
// result equals Update's in content. A nil res is an error that changes
// nothing.
func (c *Cache) UpdateInto(res *UpdateResult, maxTiles int) error {
	if res == nil {
		return fmt.Errorf("tilecache: UpdateInto: nil result")
	}
	old := res.Tiles[:cap(res.Tiles)]
	clear(res.Failed[:cap(res.Failed)])
	*res = UpdateResult{Tiles: res.Tiles[:0], Failed: res.Failed[:0]}
	if err := c.check(); err != nil {
		clear(old)
		return err
	}
	// The swap slices of the tiles res held, for this call's tiles.
	for _, u := range old {
		if cap(u.Swaps) > 0 {
			c.swapMem = append(c.swapMem, u.Swaps[:0])
		}
	}
	clear(old)
	defer func() {
		// Swap slices left over stay with res, in the entries beyond its
		// tiles (which the next UpdateInto harvests); the cache holds
		// none of res's memory after the call.
		spare := res.Tiles[len(res.Tiles):cap(res.Tiles)]
		for i := range min(len(spare), len(c.swapMem)) {
			spare[i].Swaps = c.swapMem[i]
		}
		clear(c.swapMem)
		c.swapMem = c.swapMem[:0]
	}()
	if maxTiles < 0 {
		res.Remaining = len(c.queue)
		return fmt.Errorf("tilecache: Update: maxTiles = %d, want >= 0", maxTiles)
	}
	n := min(maxTiles, len(c.queue))
	if cap(c.plans) < n {
		c.plans = append(c.plans[:cap(c.plans)], make([]plan, n-cap(c.plans))...)
	}
	plans := c.plans[:n]
	defer func() { // keep nothing the tiles do not, but the layer lists' memory
		for k := range plans {
			clear(plans[k].layers)
			plans[k] = plan{layers: plans[k].layers[:0]}
		}
	}()
	for k := range plans {
		plans[k] = plan{ti: c.queue[k], areas: c.takeAreas(), layers: plans[k].layers[:0]}
	}
	c.buildPlans(plans)
	for k := range plans {
		if p := &plans[k]; p.err != nil {
			res.Failed = append(res.Failed, c.tileError(p.ti, p.err))
		}
	}
	res.Tiles = slices.Grow(res.Tiles, n-len(res.Failed))
	for k := range plans {
		p := &plans[k]
		t := c.tiles[p.ti]
		c.queued[p.ti] = false
		if p.err != nil || p.rebuild == RebuildUnchanged {
			c.putAreas(p.areas)
			if p.err == nil {
				u := TileUpdate{TX: t.tx, TZ: t.tz, Rebuild: p.rebuild, RemovedSpans: p.removed}
				if err := c.relinkHeld(t, &u); err != nil {
					res.Failed = append(res.Failed, c.tileError(p.ti, fmt.Errorf("swapping: %w", err)))
				}
				res.Tiles = append(res.Tiles, u)
			}
			continue
		}
		u := TileUpdate{TX: t.tx, TZ: t.tz, Rebuild: p.rebuild, RemovedSpans: p.removed, LayersBuilt: p.built, LayersRepaired: p.repairs}
		var watch stopwatch
		watch.start(c.times != nil)
		var mem []Swap
		if k := len(c.swapMem); k > 0 {
			mem, c.swapMem = c.swapMem[k-1], c.swapMem[:k-1]
		}
		swaps, err := c.swap(t, p.layers, mem)
		if c.times != nil {
			watch.lap(&c.times.Swap)
		}
		u.Swaps = swaps
		c.putAreas(t.last)
		if err != nil {
			c.putKeys(t.lastLayers, nil)
			// Data the stages made always decodes; this is a bug. The
			// mesh may hold some of the new layers: forget what its
			// tiles were built from, as Restore does, so that the
			// tile's next rebuild compares with the first build only.
			c.putAreas(p.areas)
			t.hasLast, t.lastIsFirst, t.last, t.lastLayers = false, false, nil, nil
			res.Failed = append(res.Failed, c.tileError(p.ti, fmt.Errorf("swapping: %w", err)))
			res.Tiles = append(res.Tiles, u)
			continue
		}
		t.hasLast = true
		t.lastIsFirst = p.rebuild == RebuildFirst
		c.putKeys(t.lastLayers, p.keys)
		t.last, t.lastLayers, t.lastDirty = p.areas, p.keys, p.dirty
		if t.lastIsFirst {
			c.putAreas(p.areas)
			t.last = nil
		}
		res.Tiles = append(res.Tiles, u)
	}
	c.queue = append(c.queue[:0], c.queue[n:]...)
	res.Remaining = len(c.queue)
	return res.err()
}

// buildPlans makes every plan: first each tile's areas and shortcut
// (markTile), one after another on the caller's goroutine; then the tiles
// that must be built (buildTile), on up to c.workers goroutines when there
// are two or more and no trace, each worker with its own scratch taking the
// next such tile in queue order. A build reads the cache's shapes and
// settings and changes only its own tile's lazily made state (layers,
// repair bases), and every queued tile is queued once, so no two
// goroutines share anything they change.
func (c *Cache) buildPlans(plans []plan) {
	if len(c.scratch) == 0 {
		c.scratch = append(c.scratch, new(buildScratch))
	}
	var watch stopwatch
	watch.start(c.times != nil)
	build := c.buildIdx[:0]
	for k := range plans {
		p := &plans[k]
		if p.err = c.markTile(p); p.err == nil && p.rebuild == RebuildBuilt {
			build = append(build, int32(k))
		}
	}
	c.buildIdx = build
	if c.settings.LayerFirst() {
		c.keepLayers(plans, build)
	}
	if c.times != nil {
		watch.lap(&c.times.Mark)
	}
	w := min(c.workers, len(build))
	if c.trace != nil {
		w = 1
	}
	for len(c.scratch) < max(w, 1) {
		c.scratch = append(c.scratch, new(buildScratch))
	}
	for _, sc := range c.scratch[:max(w, 1)] {
		sc.times = UpdateTimes{}
		sc.watch.on = c.times != nil
	}
	if c.times != nil {
		defer func() {
			for _, sc := range c.scratch[:max(w, 1)] {
				c.times.add(&sc.times)
			}
		}()
	}
	if w <= 1 {
		for _, k := range build {
			c.buildTile(&plans[k], c.scratch[0])
		}
		return
	}
	c.buildParallel(plans, build, w)
}

// buildParallel builds plans[build[...]] on w goroutines, each with its
// scratch c.scratch[i], taking the next plan in order.
func (c *Cache) buildParallel(plans []plan, build []int32, w int) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for i := range w {
		sc := c.scratch[i]
		wg.Go(func() {
			for {
				n := int(next.Add(1)) - 1
				if n >= len(build) {
					return
				}
				c.buildTile(&plans[build[n]], sc)
			}
		})
	}
	wg.Wait()
}

// keepLayers bounds the tiles holding height layers (tile.layers, with
// their repair bases) to c.layerCap, those rebuilt last: the tiles about
// to be built (plans[build]) move to the back of c.layered, then the tiles
// at the front lose their layers until at most c.layerCap hold them (never
// one about to be built; layersOf makes them again when needed). It runs
// on the caller's goroutine before the builds.
func (c *Cache) keepLayers(plans []plan, build []int32) {
	for _, k := range build {
		ti := plans[k].ti
		if i := slices.Index(c.layered, ti); i >= 0 {
			c.layered = slices.Delete(c.layered, i, i+1)
		}
		c.layered = append(c.layered, ti)
	}
	drop := min(len(c.layered)-c.layerCap, len(c.layered)-len(build))
	if drop <= 0 {
		return
	}
	for _, ti := range c.layered[:drop] {
		c.tiles[ti].layers = nil
	}
	c.layered = slices.Delete(c.layered, 0, drop)
}

// maxFreeAreas bounds the cache's list of spare area buffers.
const maxFreeAreas = 64

// takeAreas returns a spare area buffer (empty, or nil when there is none).
// Update's workers call it too.
func (c *Cache) takeAreas() []uint8 {
	c.freeMu.Lock()
	defer c.freeMu.Unlock()
	n := len(c.freeAreas)
	if n == 0 {
		return nil
	}
	b := c.freeAreas[n-1]
	c.freeAreas[n-1] = nil
	c.freeAreas = c.freeAreas[:n-1]
	return b[:0]
}

// putAreas gives an area buffer nobody uses any more back (nil is
// ignored; beyond maxFreeAreas it is left to the garbage collector).
func (c *Cache) putAreas(b []uint8) {
	c.freeMu.Lock()
	defer c.freeMu.Unlock()
	if b != nil && len(c.freeAreas) < maxFreeAreas {
		c.freeAreas = append(c.freeAreas, b)
	}
}

// putKeys gives back what old, the layer keys a tile's layers were last
// built from, holds that planLayers made (layerKey.owned) and that new,
// the keys replacing them, does not carry over (planLayers carries a key
// over at the same layer): the area buffers, the tiles (recycled unless
// the mesh still holds them: navmesh.BuiltTile.Recycle; the cache holds
// a tile it built in that key only) and the slice old itself.
func (c *Cache) putKeys(old, new []layerKey) {
	if old == nil {
		return
	}
	for li, k := range old {
		if !k.owned || len(k.areas) == 0 {
			continue
		}
		if li < len(new) && len(new[li].areas) > 0 && &new[li].areas[0] == &k.areas[0] {
			continue
		}
		c.putAreas(k.areas)
		k.built.Recycle()
	}
	clear(old)
	c.freeMu.Lock()
	defer c.freeMu.Unlock()
	if len(c.freeKeys) < maxFreeAreas {
		c.freeKeys = append(c.freeKeys, old[:0])
	}
}

// takeKeys returns n zero layer keys, in a slice putKeys gave back when
// one is large enough. Update's workers call it too.
func (c *Cache) takeKeys(n int) []layerKey {
	c.freeMu.Lock()
	defer c.freeMu.Unlock()
	for i := len(c.freeKeys) - 1; i >= 0; i-- {
		if k := c.freeKeys[i]; cap(k) >= n {
			last := len(c.freeKeys) - 1
			c.freeKeys[i] = c.freeKeys[last]
			c.freeKeys[last] = nil
			c.freeKeys = c.freeKeys[:last]
			return k[:n]
		}
	}
	return make([]layerKey, n)
}

// tileError is the TileError of tile ti for err (a *layerError names the
// layer).
func (c *Cache) tileError(ti int32, err error) TileError {
	t := c.tiles[ti]
	te := TileError{TX: t.tx, TZ: t.tz, Layer: -1, Err: err}
	var le *layerError
	if errors.As(err, &le) {
		te.Layer, te.Err = le.layer, le.err
	}
	return te
}

// err returns the error of the failed tiles: nil, the one *TileError, or
// errors.Join of them.
func (r *UpdateResult) err() error {
	switch len(r.Failed) {
	case 0:
		return nil
	case 1:
		return &r.Failed[0]
	}
	errs := make([]error, len(r.Failed))
	for i := range r.Failed {
		errs[i] = &r.Failed[i]
	}
	return errors.Join(errs...)
}

// UpdateAll rebuilds every queued tile (Update with the queue's length).
func (c *Cache) UpdateAll() (UpdateResult, error) {
	return c.Update(c.QueueLen())
}

// markTile marks tile p.ti's areas in force into p.areas and decides the
// rebuild (p.rebuild; the first build's layers for RebuildFirst).
func (c *Cache) markTile(p *plan) error {
	t := c.tiles[p.ti]
	reached, err := c.markAreas(t, p)
	if err != nil {
		return err
	}
	first := t.spans.Areas
	areas := p.areas
	if !reached {
		areas = first // p.areas stays an empty buffer, given back after the call
	}
	// The areas equal the first build's outside p.dirty, and the last
	// built ones outside t.lastDirty: only those spans are compared.
	d, dl := p.dirty, p.dirty.Union(t.lastDirty)
	switch {
	case t.hasLast && t.lastIsFirst && (!reached || bytes.Equal(areas[d.Lo:d.Hi], first[d.Lo:d.Hi])),
		t.hasLast && !t.lastIsFirst && bytes.Equal(areas[dl.Lo:dl.Hi], t.last[dl.Lo:dl.Hi]):
		p.rebuild = RebuildUnchanged
	case !reached || bytes.Equal(areas[d.Lo:d.Hi], first[d.Lo:d.Hi]):
		p.rebuild = RebuildFirst
		p.layers = append(p.layers[:0], t.first...) // the plan's own list (cleared after the call)
	default:
		p.rebuild = RebuildBuilt
	}
	return nil
}

// buildTile runs step 5 for a RebuildBuilt plan (buildStep5), recording a
// failure in p.err; sc is the worker's scratch.
func (c *Cache) buildTile(p *plan, sc *buildScratch) {
	if err := c.buildStep5(p, sc); err != nil {
		*p = plan{ti: p.ti, areas: p.areas, err: err}
	}
}

// buildStep5 builds tile p.ti from p.areas: planLayers on the layer-first
// path, buildLayers on the general one.
func (c *Cache) buildStep5(p *plan, sc *buildScratch) error {
	t := c.tiles[p.ti]
	if c.settings.LayerFirst() {
		return c.planLayers(t, p, sc)
	}
	if c.failBuild != nil {
		if err := c.failBuild(t.tx, t.tz, -1); err != nil {
			return err
		}
	}
	var err error
	sc.watch.start(sc.watch.on)
	p.layers, err = c.buildLayers(t, p.areas, sc, p.layers)
	sc.watch.lap(&sc.times.Scratch)
	if err != nil {
		return err
	}
	p.built = 1
	return nil
}

// planLayers is the layer-first rebuild of tile t from p.areas
// (build3d-runtime.md, "Layer-first tiles", "Rebuilding"): every height
// layer of the tile (split once, on the eroded areas) gathers its areas in
// force; a layer whose areas equal those the mesh's tile for that layer was
// last built from takes that tile data, one whose areas equal the first
// build's takes the first build's, and any other is built (buildLayer:
// repaired, or from scratch with pipeline.BuildLayerMesh). The tile data are
// those pipeline.BuildTileMesh gives for the same areas.
func (c *Cache) planLayers(t *tile, p *plan, sc *buildScratch) error {
	sc.watch.start(sc.watch.on)
	defer sc.watch.lap(&sc.times.Layers) // the gathers after the last build
	tl, err := c.layersOf(t, sc)
	if err != nil {
		return err
	}
	var last []layerKey
	if t.hasLast {
		last = t.lastLayers
		if t.lastIsFirst {
			last = tl.first
		}
	}
	at, err := c.grid.Place(t.tx, t.tz)
	if err != nil {
		return err
	}
	p.keys = c.takeKeys(len(tl.views))
	// The keys of the areas last built from (the first build's when the
	// mesh holds its tiles or nothing is known) and those areas: a layer
	// none of whose spans differ from them takes its key without
	// gathering its areas (they are the key's).
	ref, refKeys, dirty := t.spans.Areas, tl.first, p.dirty
	if t.hasLast && !t.lastIsFirst {
		ref, refKeys, dirty = t.last, t.lastLayers, dirty.Union(t.lastDirty)
	}
	shortcut := len(ref) == len(p.areas) && len(ref) == len(tl.spanLayer) && len(refKeys) == len(tl.views)
	if shortcut {
		sc.diff = tl.changedLayers(sc.diff, p.areas, ref, dirty)
	}
	for li := range tl.views {
		v := &tl.views[li]
		var k layerKey
		if !shortcut || sc.diff[li] {
			sc.gather = v.GatherAreas(sc.gather[:0], p.areas)
		}
		switch {
		case shortcut && !sc.diff[li]:
			k = refKeys[li]
		case li < len(last) && bytes.Equal(sc.gather, last[li].areas):
			k = last[li] // both never change: share them
		case bytes.Equal(sc.gather, tl.first[li].areas):
			k = tl.first[li]
		default:
			k.areas, k.owned = append(c.takeAreas(), sc.gather...), true
			if c.failBuild != nil {
				if err := c.failBuild(t.tx, t.tz, v.Layer); err != nil {
					return &layerError{layer: v.Layer, err: err}
				}
			}
			lb, repaired, err := c.buildLayer(t, tl, li, at, k.areas, sc)
			if err != nil {
				return &layerError{layer: v.Layer, err: err}
			}
			p.built++
			if repaired {
				p.repairs++
			}
			if lb.Data != nil {
				k.built = lb.Built
			}
			polymesh.Recycle(lb.Mesh) // nothing else holds them
			contour.Recycle(lb.Contours)
		}
		p.keys[li] = k
		if k.built != nil {
			p.layers = append(p.layers, layerDataOf(v.Layer, k.built))
		}
	}
	return nil
}

// held is a tile the mesh holds at a position (swap).
type held struct {
	layer uint8
	ref   navmesh.TileRef
	id    uint64
}

// swap puts layers (ascending), with the off-mesh links in force that
// start in them (withLinks), into the mesh at t's position, layer by
// layer from the lowest: an equal content id keeps the tile, a changed one
// replaces it, a new layer is added, a layer that no longer exists is
// removed.
func (c *Cache) swap(t *tile, layers []layerData, mem []Swap) ([]Swap, error) {
	layers, err := c.withLinks(t, layers)
	if err != nil {
		return nil, err
	}
	x, z := int32(t.tx), int32(t.tz)
	old := c.held[:0]
	defer func() { c.held = old[:0] }()
	c.refs = c.mesh.AppendTilesAt(c.refs[:0], x, z)
	for _, ref := range c.refs {
		tl, err := c.mesh.Tile(ref)
		if err != nil {
			return nil, err
		}
		id, err := c.mesh.TileContentID(ref)
		if err != nil {
			return nil, err
		}
		old = append(old, held{tl.Header.Layer, ref, id})
	}
	swaps := slices.Grow(mem[:0], max(len(old), len(layers))) // mem: a slice no one uses
	i, j := 0, 0
	for i < len(old) || j < len(layers) {
		switch {
		case j == len(layers) || (i < len(old) && old[i].layer < layers[j].layer):
			h := old[i]
			if err := c.mesh.RemoveTile(x, z, h.layer); err != nil {
				return swaps, err
			}
			swaps = append(swaps, Swap{Layer: h.layer, Kind: SwapRemoved, OldRef: h.ref, ContentID: h.id})
			i++
		case i == len(old) || layers[j].layer < old[i].layer:
			l := &layers[j]
			ref, err := c.mesh.AddBuilt(l.built)
			if err != nil {
				return swaps, err
			}
			swaps = append(swaps, Swap{Layer: l.layer, Kind: SwapAdded, Ref: ref, ContentID: l.id})
			j++
		default:
			h, l := old[i], &layers[j]
			if h.id == l.id {
				swaps = append(swaps, Swap{Layer: l.layer, Kind: SwapKept, OldRef: h.ref, Ref: h.ref, ContentID: l.id})
			} else {
				ref, err := c.mesh.ReplaceBuilt(l.built)
				if err != nil {
					return swaps, err
				}
				swaps = append(swaps, Swap{Layer: l.layer, Kind: SwapReplaced, OldRef: h.ref, Ref: ref, ContentID: l.id})
			}
			i++
			j++
		}
	}
	return swaps, nil
}
