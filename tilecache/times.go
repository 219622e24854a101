package tilecache

import "time"

// UpdateTimes sums the time Update spends in each part of its work, for
// measuring (Cache.SetUpdateTimes; navmesh bench prints them per layer
// build). The times are wall-clock durations read with time.Now around
// each part, summed over every worker (so with several workers they add up
// to more than the call took). Measuring changes no result.
type UpdateTimes struct {
	// Mark: marking every taken tile's areas and the shortcut compares.
	Mark time.Duration
	// Layers: splitting a tile's height layers and making a layer's repair
	// bases, on first need (§2, §11.2), and gathering each layer's areas.
	Layers time.Duration
	// Regions: the region half of the repair (the preconditions).
	Regions time.Duration
	// Contours: the contour half of the repair.
	Contours time.Duration
	// Polys: polygons, detail and tile data of the repaired layers.
	Polys time.Duration
	// Scratch: the layers built from scratch (and the general path's
	// tiles), every stage.
	Scratch time.Duration
	// Swap: swapping the tiles into the mesh, links included.
	Swap time.Duration
}

// Total returns the sum of the parts.
func (u *UpdateTimes) Total() time.Duration {
	if u == nil {
		return 0
	}
	return u.Mark + u.Layers + u.Regions + u.Contours + u.Polys + u.Scratch + u.Swap
}

// add adds o to u.
func (u *UpdateTimes) add(o *UpdateTimes) {
	u.Mark += o.Mark
	u.Layers += o.Layers
	u.Regions += o.Regions
	u.Contours += o.Contours
	u.Polys += o.Polys
	u.Scratch += o.Scratch
	u.Swap += o.Swap
}

// SetUpdateTimes makes every later Update add its times to *t (nil: stop
// measuring, the default, which reads no clock). t must not be read or
// changed during an Update.
func (c *Cache) SetUpdateTimes(t *UpdateTimes) {
	if c != nil {
		c.times = t
	}
}

// stopwatch charges the time between laps to a part of UpdateTimes; it
// reads the clock only when on.
type stopwatch struct {
	on bool
	t0 time.Time
}

// start starts the watch when on.
func (w *stopwatch) start(on bool) {
	w.on = on
	if on {
		w.t0 = time.Now()
	}
}

// lap adds the time since the last start or lap to *d.
func (w *stopwatch) lap(d *time.Duration) {
	if w.on {
		now := time.Now()
		*d += now.Sub(w.t0)
		w.t0 = now
	}
}
