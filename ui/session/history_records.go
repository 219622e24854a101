package session

import (
	"encoding/binary"
	"slices"
	"time"
	"unsafe"

	"navviz/core/region"
	"navviz/tilecache"
	"navviz/world"
)

// What an Update step keeps of its rebuilds (docs/tilecache.md §11.6,
// "What the history keeps"): per agent the tiles as tilecache reported
// them (rebuild kind, counts, swaps), the failed tiles, the time of each
// part (tilecache.UpdateTimes), and one compact LayerRecord per layer
// built, from the caches' traces (historyTap). Everything else the
// inspector shows of a layer (contours, span positions, the drawn search)
// is replayed on demand: Seek to the step before, trace, replay the step.

// UpdateRecord is what one Update call did.
type UpdateRecord struct {
	// MaxTiles is the call's argument (what replay calls again).
	MaxTiles int
	// Wall is how long the call took (with the traces' recording).
	Wall time.Duration
	// Err is the call's error text ("": every tile swapped in).
	Err string
	// Agents holds one record per agent, World order.
	Agents []AgentUpdate
}

// AgentUpdate is what an Update did in one agent's cache.
type AgentUpdate struct {
	// Tiles are the rebuilt tiles (swaps included), as tilecache lists
	// them; Failed the tiles whose rebuild failed.
	Tiles  []tilecache.TileUpdate
	Failed []TileFailure
	// Remaining is the number of tiles still queued in this cache.
	Remaining int
	// Times sums the time spent in each part of the rebuilds.
	Times tilecache.UpdateTimes
	// Layers holds a record per layer built (layer-first tiles), in the
	// order they were built.
	Layers []LayerRecord
}

// TileFailure is a tile whose rebuild failed (tilecache.TileError).
type TileFailure struct {
	TX, TZ, Layer int
	Err           string
}

// Comparison is the outcome of comparing a repaired layer's contours with
// the from-scratch ones.
type Comparison uint8

// The comparisons.
const (
	NotCompared Comparison = iota // built from scratch, or comparison off
	ContoursEqual
	ContoursDiffer
)

// LayerRecord is one layer built, compactly (about 100 bytes plus its
// spans).
type LayerRecord struct {
	TX, TZ   int32
	Layer    uint8
	RepairOn bool
	Repaired bool
	HasPolys bool
	Compare  Comparison
	// Verdict is the preconditions' outcome (its Reason the kind, the
	// rest the component, region, span and sizes concerned).
	Verdict region.Verdict
	// Removed and Ring count the removed spans and the ring spans;
	// RemovedSpans and RingSpans hold their view indices (SpanRuns).
	Removed, Ring           int32
	RemovedSpans, RingSpans SpanRuns
	// RegionsRebuilt, NewLoops and GoneLoops say what a repair changed
	// (0 for a layer built from scratch).
	RegionsRebuilt, NewLoops, GoneLoops int32
	// Took is the time since the previous layer of the Update was
	// reported (the builds run one after another under a trace).
	Took time.Duration
}

// Scratch reports whether the layer was built from scratch.
func (r *LayerRecord) Scratch() bool { return !r.Repaired }

// SpanRuns is an ascending list of span indices as runs: per run the gap
// from the previous run's end and its length, unsigned varints. Removed
// spans come in runs along rows, so a layer's thousands of spans take a
// few hundred bytes.
type SpanRuns []byte

// SpanRunsOf encodes the ascending indices spans (nil for none).
func SpanRunsOf(spans []int32) SpanRuns {
	var b []byte
	next := int64(0)
	for i := 0; i < len(spans); {
		j := i + 1
		for j < len(spans) && spans[j] == spans[j-1]+1 {
			j++
		}
		b = binary.AppendUvarint(b, uint64(int64(spans[i])-next))
		b = binary.AppendUvarint(b, uint64(j-i))
		next = int64(spans[j-1]) + 1
		i = j
	}
	return b
}

// Spans decodes the indices (nil for none or bad bytes).
func (s SpanRuns) Spans() []int32 {
	var out []int32
	next := int64(0)
	for b := []byte(s); len(b) > 0; {
		gap, n := binary.Uvarint(b)
		if n <= 0 {
			return nil
		}
		b = b[n:]
		run, n := binary.Uvarint(b)
		if n <= 0 {
			return nil
		}
		b = b[n:]
		start := next + int64(gap)
		for k := int64(0); k < int64(run); k++ {
			out = append(out, int32(start+k))
		}
		next = start + int64(run)
	}
	return out
}

// layerRecordOf makes the record of one traced layer.
func layerRecordOf(lt *tilecache.LayerTrace, took time.Duration) LayerRecord {
	r := LayerRecord{
		TX: int32(lt.TX), TZ: int32(lt.TZ), Layer: uint8(lt.Layer),
		RepairOn: lt.RepairOn, Repaired: lt.Repaired, HasPolys: len(lt.Data) > 0,
		Verdict: lt.Verdict,
		Removed: int32(len(lt.Removed)), Ring: int32(len(lt.Ring)),
		RemovedSpans: SpanRunsOf(lt.Removed), RingSpans: SpanRunsOf(lt.Ring),
		Took: took,
	}
	if lt.Repaired {
		r.RegionsRebuilt, r.NewLoops, r.GoneLoops = int32(len(lt.RemadeRegions)), int32(len(lt.NewLoops)), int32(len(lt.GoneLoops))
		if lt.Scratch != nil {
			r.Compare = ContoursEqual
			if lt.Contours.Diff(lt.Scratch) != "" {
				r.Compare = ContoursDiffer
			}
		}
	}
	return r
}

// historyTap is the trace of one agent's cache: it records every layer
// built for the history and passes it on to the inspector's trace (fwd,
// nil: none).
type historyTap struct {
	rec     *layerLog
	agent   int
	fwd     tilecache.Trace
	compare bool
}

// layerLog gathers the layers an Update builds, per agent, until the
// step is recorded.
type layerLog struct {
	layers [][]LayerRecord
	last   time.Time
}

// begin starts the log of an Update of a World of n agents.
func (l *layerLog) begin(n int) {
	l.layers = make([][]LayerRecord, n)
	l.last = time.Now()
}

// CompareScratch implements tilecache.Trace.
func (t *historyTap) CompareScratch() bool {
	return t.compare || (t.fwd != nil && t.fwd.CompareScratch())
}

// Layer implements tilecache.Trace.
func (t *historyTap) Layer(lt *tilecache.LayerTrace) {
	if t.rec != nil && t.agent < len(t.rec.layers) {
		now := time.Now()
		t.rec.layers[t.agent] = append(t.rec.layers[t.agent], layerRecordOf(lt, now.Sub(t.rec.last)))
		t.rec.last = now
	}
	if t.fwd != nil {
		t.fwd.Layer(lt)
	}
}

// updateRecordOf makes the record of a World Update(n) that returned res
// and err in wall, with the layers log gathered and the caches' times
// (times[i] the agent's, the call's alone).
func updateRecordOf(n int, res *world.UpdateResult, err error, wall time.Duration, log *layerLog, times []tilecache.UpdateTimes) *UpdateRecord {
	u := &UpdateRecord{MaxTiles: n, Wall: wall, Agents: make([]AgentUpdate, len(res.Agents))}
	if err != nil {
		u.Err = err.Error()
	}
	for i := range res.Agents {
		r := &res.Agents[i]
		a := &u.Agents[i]
		a.Tiles = slices.Clone(r.Tiles)
		for k := range a.Tiles {
			a.Tiles[k].Swaps = slices.Clone(a.Tiles[k].Swaps)
		}
		for _, f := range r.Failed {
			a.Failed = append(a.Failed, TileFailure{TX: f.TX, TZ: f.TZ, Layer: f.Layer, Err: f.Err.Error()})
		}
		a.Remaining = r.Remaining
		if i < len(times) {
			a.Times = times[i]
		}
		if log != nil && i < len(log.layers) {
			a.Layers = log.layers[i]
		}
	}
	return u
}

// Layers returns every layer record of the update, all agents.
func (u *UpdateRecord) Layers() []LayerRecord {
	if u == nil {
		return nil
	}
	var out []LayerRecord
	for i := range u.Agents {
		out = append(out, u.Agents[i].Layers...)
	}
	return out
}

// Failed returns the number of tiles that failed, all agents.
func (u *UpdateRecord) Failed() int {
	n := 0
	if u != nil {
		for i := range u.Agents {
			n += len(u.Agents[i].Failed)
		}
	}
	return n
}

// bytes estimates the memory a step holds beyond keyframes.
func (st *Step) bytes() int {
	n := int(unsafe.Sizeof(*st)) + 8*len(st.MeshHash) + 8*len(st.Edit.Volume.VertsXZ)
	if nc := st.NewCache; nc != nil {
		n += int(unsafe.Sizeof(*nc)) + len(nc.Agents)*int(unsafe.Sizeof(world.Agent{})) +
			len(nc.Obstacles)*int(unsafe.Sizeof(tilecache.Obstacle{})) + len(nc.Volumes)*64 + len(nc.Links)*40
	}
	if s := st.Snapshot; s != nil {
		n += int(unsafe.Sizeof(*s)) + len(s.What)
	}
	if u := st.Update; u != nil {
		n += int(unsafe.Sizeof(*u)) + len(u.Err)
		for i := range u.Agents {
			a := &u.Agents[i]
			n += int(unsafe.Sizeof(*a))
			for k := range a.Tiles {
				n += int(unsafe.Sizeof(a.Tiles[k])) + len(a.Tiles[k].Swaps)*int(unsafe.Sizeof(tilecache.Swap{}))
			}
			for k := range a.Failed {
				n += int(unsafe.Sizeof(a.Failed[k])) + len(a.Failed[k].Err)
			}
			for k := range a.Layers {
				l := &a.Layers[k]
				n += int(unsafe.Sizeof(*l)) + len(l.RemovedSpans) + len(l.RingSpans)
			}
		}
	}
	return n
}
