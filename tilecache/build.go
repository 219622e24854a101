package tilecache

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"navviz/core/pipeline"
	"navviz/core/region"
	"navviz/core/voxel"
	"navviz/internal/bytediff"
)

// buildScratch is memory reused between rebuilds, one per Update worker;
// it never changes a result.
type buildScratch struct {
	chf    voxel.CompactHeightfield // a tile's heightfield, unpacked (tile.spans)
	gather []uint8                  // a layer's areas in force
	diff   []bool                   // per layer: spans changed (planLayers)
	times  UpdateTimes
	watch  stopwatch
	stage  pipeline.Scratch
	labels region.Labels
	repair repairScratch
}

// firstBuild is the plain build (pipeline.BuildLevel: steps 1-3 and 5 of
// every tile, the mesh filled row by row, layers from the lowest); the
// cache takes its mesh as it is and keeps, for every tile that has
// something walkable, its step-3 heightfield (packed as each tile is
// built, the build's copy and stage results let go at once: takeTile)
// and the tile data of its layers. The build checks the level's size
// against opt.Limits first (pipeline.EstimateBuild).
func (c *Cache) firstBuild(ctx context.Context, opt Options) error {
	// The tiles are taken in the order the workers finish them and placed
	// by index once the build (which checks the limits before anything
	// proportional to the level is allocated) has succeeded.
	var mu sync.Mutex
	var taken []*tile
	take := func(tb *pipeline.TileBuild) error {
		t, err := takeTile(tb)
		if err != nil {
			return err
		}
		mu.Lock()
		taken = append(taken, t)
		mu.Unlock()
		return nil
	}
	b, err := pipeline.BuildLevel(ctx, &c.settings, c.src, pipeline.BuildOptions{Workers: opt.Workers, Progress: opt.Progress, Limits: opt.Limits, Take: take})
	if err != nil {
		return err
	}
	if b.Mesh == nil {
		return fmt.Errorf("tilecache: the plain build made no mesh")
	}
	c.mesh = b.Mesh
	c.tiles = make([]*tile, c.grid.TileCount())
	for _, t := range taken {
		if err := c.grid.CheckTile(t.tx, t.tz); err != nil {
			return err
		}
		c.tiles[t.tz*c.grid.TilesX+t.tx] = t
	}
	c.order = make([]int32, 0, len(b.Tiles))
	for i := range b.Tiles {
		tb := &b.Tiles[i]
		ti := int32(tb.TZ*c.grid.TilesX + tb.TX)
		t := c.tiles[ti]
		if t == nil || t.tx != tb.TX || t.tz != tb.TZ {
			return fmt.Errorf("tilecache: the plain build's tile (%d, %d) was not cached", tb.TX, tb.TZ)
		}
		for li := range tb.Layers {
			lb := &tb.Layers[li]
			if lb.Data == nil {
				continue
			}
			// The mesh's own tile, shared: its data and decoded tile
			// serve every later swap back to the first build.
			ref, ok := c.mesh.TileAt(int32(tb.TX), int32(tb.TZ), uint8(lb.Layer))
			if !ok {
				return fmt.Errorf("tilecache: the plain build's mesh lacks tile (%d, %d) layer %d", tb.TX, tb.TZ, lb.Layer)
			}
			built, err := c.mesh.Built(ref)
			if err != nil {
				return err
			}
			if built.ContentID() != lb.ContentID {
				return fmt.Errorf("tilecache: the plain build's mesh holds other data at tile (%d, %d) layer %d", tb.TX, tb.TZ, lb.Layer)
			}
			t.first = append(t.first, layerDataOf(lb.Layer, built))
			c.firstBytes += int64(len(built.Data()))
		}
		c.order = append(c.order, ti)
	}
	return nil
}

// takeTile is the heart of the first build's pipeline.BuildOptions.Take:
// it returns the cached tile of tb (its step-3 heightfield packed, its
// eroded areas) and clears what the build need not keep. It runs on the
// build's worker goroutines.
func takeTile(tb *pipeline.TileBuild) (*tile, error) {
	spans, err := voxel.Pack(tb.Spans)
	if err != nil {
		return nil, err
	}
	t := &tile{tx: tb.TX, tz: tb.TZ, spans: spans, eroded: tb.ErodedAreas, hasLast: true, lastIsFirst: true}
	if t.eroded == nil {
		t.eroded = t.spans.Areas
	}
	tb.Spans, tb.ErodedAreas, tb.Stages, tb.Regions = nil, nil, nil, nil
	for li := range tb.Layers {
		lb := &tb.Layers[li]
		lb.Contours, lb.Mesh, lb.Detail = nil, nil, nil
	}
	return t, nil
}

// buildLayers runs step 5 of tile t (pipeline.BuildTileMesh: regions,
// contours, polygons, detail, tile data; the plain build's code) on its
// cached step-3 heightfield (unpacked into sc.chf) with the given areas,
// and returns the tile data of every layer that has polygons, by ascending
// layer, appended to dst[:0]. areas is not changed.
func (c *Cache) buildLayers(t *tile, areas []uint8, sc *buildScratch, dst []layerData) ([]layerData, error) {
	at, err := c.grid.Place(t.tx, t.tz)
	if err != nil {
		return nil, err
	}
	tm, err := pipeline.BuildTileMesh(&c.settings, at, t.spans.Unpack(&sc.chf), t.eroded, areas, &sc.stage)
	if err != nil {
		return nil, err
	}
	out := dst[:0]
	for i := range tm.Layers {
		lb := &tm.Layers[i]
		if lb.Data == nil {
			continue
		}
		out = append(out, layerDataOf(lb.Layer, lb.Built))
	}
	return out, nil
}

// markAreas writes into p.areas (reusing its memory) the areas of tile t
// under the obstacles and volumes in force: the first build's areas, then
// every obstacle (grown by the agent radius) and every volume whose box
// reaches the tile's build grid, each in the order added
// (build3d-runtime.md, step 4). It sets p.removed to the number of spans
// the obstacles removed and p.dirty to a range of spans outside which the
// areas are the first build's, and reports whether a shape reached the
// grid: when none does, the areas in force are the first build's, and
// p.areas is left empty (nothing is copied).
func (c *Cache) markAreas(t *tile, p *plan) (bool, error) {
	dst := p.areas[:0]
	defer func() { p.areas = dst }()
	p.removed, p.dirty = 0, voxel.SpanRange{}
	reached := false
	touch := func() {
		if !reached {
			reached = true
			dst = append(dst, t.spans.Areas...)
		}
	}
	g := &t.spans.Grid
	// The build grid's x/z box; a shape whose marked columns could lie in
	// it reaches it (the exact tests decide).
	gx0, gz0 := float64(g.OriginM.X), float64(g.OriginM.Z)
	gx1, gz1 := float64(g.MaxM.X), float64(g.MaxM.Z)
	reach := func(minX, minZ, maxX, maxZ float64) bool {
		return maxX >= gx0 && minX <= gx1 && maxZ >= gz0 && minZ <= gz1
	}
	radius := c.settings.WalkableRadiusCells()
	for i := range c.obstacles {
		e := &c.obstacles[i]
		if !reach(e.minX, e.minZ, e.maxX, e.maxZ) {
			continue
		}
		touch()
		n, r, err := t.spans.MarkObstacle(dst, &e.o, radius)
		if err != nil {
			return true, err
		}
		p.removed += n
		p.dirty = p.dirty.Union(r)
	}
	for i := range c.volumes {
		e := &c.volumes[i]
		if !reach(e.minX, e.minZ, e.maxX, e.maxZ) {
			continue
		}
		touch()
		r, err := t.spans.MarkConvexVolume(dst, &e.v)
		if err != nil {
			return true, err
		}
		p.dirty = p.dirty.Union(r)
	}
	return reached, nil
}

// layersOf returns the height layers of tile t on the layer-first path,
// splitting them on first need (the heightfield unpacked into sc.chf):
// region.SplitLayers on the eroded areas, what pipeline.BuildTileMesh does,
// with each layer's first-build areas and tile data. They are a function of
// the geometry and settings only.
func (c *Cache) layersOf(t *tile, sc *buildScratch) (*tileLayers, error) {
	if t.layers != nil {
		return t.layers, nil
	}
	v := *t.spans.Unpack(&sc.chf)
	v.Areas = t.eroded
	views, _, err := region.SplitLayers(&v, v.BorderCells)
	if err != nil {
		return nil, err
	}
	if len(views) >= noLayer {
		return nil, fmt.Errorf("tilecache: %d height layers, want fewer than %d", len(views), noLayer)
	}
	tl := &tileLayers{views: views, first: make([]layerKey, len(views)), spanLayer: make([]uint8, len(t.spans.Areas))}
	for i := range tl.spanLayer {
		tl.spanLayer[i] = noLayer
	}
	// Without build-time volumes and obstacles the eroded areas are the
	// first build's, and so are the views' own (neither ever changes).
	same := len(t.eroded) > 0 && &t.eroded[0] == &t.spans.Areas[0]
	for li := range views {
		if same {
			tl.first[li].areas = views[li].Areas
		} else {
			tl.first[li].areas = views[li].GatherAreas(nil, t.spans.Areas)
		}
		for _, i := range views[li].Index.All() {
			tl.spanLayer[i] = uint8(li)
		}
		for j := range t.first {
			if int(t.first[j].layer) == views[li].Layer {
				tl.first[li].built = t.first[j].built
			}
		}
	}
	t.layers = tl
	return tl, nil
}

// changedLayers sets changed[li], for every view li of the tile, to whether
// a span of the view has another area in a than in b (areas of every span
// of the tile, equal outside the spans in r), and returns changed. Only
// the windows of eight spans that differ are looked at span by span
// (bytediff.Windows).
func (tl *tileLayers) changedLayers(changed []bool, a, b []uint8, r voxel.SpanRange) []bool {
	changed = slices.Grow(changed[:0], len(tl.views))[:len(tl.views)]
	clear(changed)
	lo, hi := max(r.Lo, 0), min(r.Hi, len(a), len(b), len(tl.spanLayer))
	if lo >= hi {
		return changed
	}
	a, b, layer := a[lo:hi], b[lo:hi], tl.spanLayer[lo:hi]
	bytediff.Windows(a, b, func(i, end int) bool {
		for ; i < end; i++ {
			if a[i] != b[i] {
				if l := layer[i]; l != noLayer {
					changed[l] = true
				}
			}
		}
		return true
	})
	return changed
}
