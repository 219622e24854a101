package contour

import (
	"slices"
	"sync"

	"navviz/core/region"
	"navviz/core/voxel"
)

// Build traces and simplifies the contours of every region of chf
// partitioned by regs (Recast's rcBuildContours; docs/contours.md).
// maxErrorCells is the largest distance of a simplified wall or area edge
// from the raw one, in cells; maxEdgeLenCells the longest edge the flags'
// TessWallEdges / TessAreaEdges allow, in cells (0: no limit); flags is
// usually DefaultBuildFlags.
//
// Regions with region.BorderFlag (the tile border) and spans without a
// region are not traced; their edges are the tile border and walls of the traced
// regions. The steps are the exported building blocks: EdgeFlags; then, for
// every span in index order and every direction 0..3 whose edge is still
// flagged, TraceLoop from that edge, RotateLoop (no change: the first edge
// of a loop met in this order is its smallest key) and SimplifyLoop; finally
// JoinLoops.
//
// The input is validated (sizes, column table, links, parameters); on error
// nothing is returned.
func Build(chf *voxel.CompactHeightfield, regs *region.Result, maxErrorCells float32, maxEdgeLenCells int, flags BuildFlags) (*Set, error) {
	if err := checkSimplifyParams(maxErrorCells, maxEdgeLenCells, flags); err != nil {
		return nil, err
	}
	set := takeSet()
	ef, err := EdgeFlags(chf, regs, set.mem.flags)
	if err != nil {
		Recycle(set)
		return nil, err
	}
	set.mem.flags = ef
	t := tracer{g: &spanGraph{chf: chf}, ids: regs.IDs, areas: chf.Areas, flags: ef}
	if err := set.fill(&chf.Grid, &t, maxErrorCells, maxEdgeLenCells, flags); err != nil {
		Recycle(set)
		return nil, err
	}
	return set, nil
}

// fill makes s the contour set traced by t on grid g (in edge-key order,
// into s's memory): the grid's geometry, the parameters, the loops and the
// contours JoinLoops makes.
func (s *Set) fill(g *voxel.Grid, t *tracer, maxErrorCells float32, maxEdgeLenCells int, flags BuildFlags) error {
	m := s.mem
	loops, err := t.traceAll(maxErrorCells, maxEdgeLenCells, flags, m)
	if err != nil {
		return err
	}
	m.loops = loops
	*s = Set{
		Loops:           loops,
		OriginX:         g.OriginM.X,
		OriginY:         g.OriginM.Y,
		OriginZ:         g.OriginM.Z,
		CellSizeM:       g.CellSizeM,
		CellHeightM:     g.CellHeightM,
		Width:           g.Width,
		Height:          g.Height,
		Border:          g.BorderCells,
		MaxErrorCells:   maxErrorCells,
		MaxEdgeLenCells: maxEdgeLenCells,
		Flags:           flags,
		mem:             m,
	}
	m.join.reset()
	s.Contours = m.join.joinLoops(s.Loops)
	return nil
}

// setMem is the memory of a set made by Build or BuildLayer: the edge
// flags the trace consumed, the loops with their raw vertices, keys and
// simplified vertices (each loop a piece of one array), and the joined
// contours. Recycle hands it, with its Set, to a later build.
type setMem struct {
	flags    []uint8
	raw      []Vertex
	keys     []int32
	simple   []Vertex
	idx      []int32 // simplify's scratch
	loops    []Loop
	join     joinScratch
	owner    *Set // the set made in it: a copy of that Set is not Recycled
	recycled bool // in recycledSets (a second Recycle is ignored)
}

// recycledSets holds the sets given back by Recycle.
var recycledSets sync.Pool

// takeSet returns a set to fill: a recycled one, or a new one.
func takeSet() *Set {
	if s, ok := recycledSets.Get().(*Set); ok {
		s.mem.recycled = false
		return s
	}
	s := &Set{mem: new(setMem)}
	s.mem.owner = s
	return s
}

// Recycle hands the memory of s, a set Build or BuildLayer returned, to a
// later Build or BuildLayer (on any goroutine): the caller gives up s,
// which nothing else may refer to; after the call neither s nor any slice
// it holds may be used. Recycling never changes what a build returns. A
// nil set, a set made otherwise (a repair's, a copy of a set) and a second
// Recycle of the same set are ignored.
func Recycle(s *Set) {
	if s == nil || s.mem == nil || s.mem.owner != s || s.mem.recycled {
		return
	}
	s.mem.recycled = true
	recycledSets.Put(s)
}

// Clone returns a copy of s in memory of its own and of exact size: a set
// to keep (a repair base's) holds no build scratch. What shares memory in
// s shares it in the copy: a contour's vertices with its loop's. A nil set
// gives nil.
func (s *Set) Clone() *Set {
	if s == nil {
		return nil
	}
	c := *s
	c.mem = nil
	nr, ns := 0, 0
	for i := range s.Loops {
		nr, ns = nr+len(s.Loops[i].Raw), ns+len(s.Loops[i].Simplified)
	}
	raw, keys, simple := make([]Vertex, 0, nr), make([]int32, 0, nr), make([]Vertex, 0, ns)
	c.Loops = make([]Loop, len(s.Loops))
	for i, l := range s.Loops {
		r, k, v := len(raw), len(keys), len(simple)
		raw, keys, simple = append(raw, l.Raw...), append(keys, l.Keys...), append(simple, l.Simplified...)
		c.Loops[i] = Loop{Raw: raw[r:len(raw):len(raw)], Keys: keys[k:len(keys):len(keys)],
			Simplified: simple[v:len(simple):len(simple)], Region: l.Region, Area: l.Area}
	}
	// shared returns the copy of vs when vs is (the start of) loop j's
	// field f in s, else nil.
	shared := func(vs []Vertex, j int32, raw bool) []Vertex {
		if len(vs) == 0 || j < 0 || int(j) >= len(s.Loops) {
			return nil
		}
		src, dst := s.Loops[j].Simplified, c.Loops[j].Simplified
		if raw {
			src, dst = s.Loops[j].Raw, c.Loops[j].Raw
		}
		if len(src) < len(vs) || &src[0] != &vs[0] {
			return nil
		}
		return dst[:len(vs):len(vs)]
	}
	c.Contours = make([]Contour, len(s.Contours))
	nl := 0
	for _, ct := range s.Contours {
		nl += len(ct.Loops)
	}
	idx := make([]int32, 0, nl)
	for i, ct := range s.Contours {
		n := len(idx)
		idx = append(idx, ct.Loops...)
		cc := Contour{Region: ct.Region, Area: ct.Area, Loops: idx[n:len(idx):len(idx)]}
		first := int32(-1)
		if len(ct.Loops) > 0 {
			first = ct.Loops[0]
		}
		if cc.Verts = shared(ct.Verts, first, false); cc.Verts == nil && ct.Verts != nil {
			cc.Verts = slices.Clone(ct.Verts)
		}
		if cc.RawVerts = shared(ct.RawVerts, first, true); cc.RawVerts == nil && ct.RawVerts != nil {
			cc.RawVerts = slices.Clone(ct.RawVerts)
		}
		c.Contours[i] = cc
	}
	return &c
}

// EdgeOwners returns, for every edge key of a heightfield of spanCount
// spans, the index in s.Loops of the loop that holds the edge, or -1 (the
// "which loop owns which edge" a repair keeps). dst is reused when large
// enough. Keys outside the range are ignored. A nil Set owns no edge.
func (s *Set) EdgeOwners(spanCount int, dst []int32) []int32 {
	n := 4 * max(spanCount, 0)
	if cap(dst) < n {
		dst = make([]int32, n)
	}
	dst = dst[:n]
	for i := range dst {
		dst[i] = -1
	}
	if s == nil {
		return dst
	}
	for li := range s.Loops {
		for _, k := range s.Loops[li].Keys {
			if k >= 0 && int(k) < n {
				dst[k] = int32(li)
			}
		}
	}
	return dst
}
