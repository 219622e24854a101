package contour

import (
	"fmt"
	"math/bits"
	"slices"
	"sort"

	"navviz/core/region"
	"navviz/core/voxel"
)

// checkInput validates the compact heightfield and the region ids against
// each other: the grid size, the column table (each column's Index is the
// number of spans before it and the counts add up to the span count), the
// areas and region ids (one per span) and the span count limit. Links are
// checked by EdgeFlags.
func checkInput(chf *voxel.CompactHeightfield, regs *region.Result) error {
	if chf == nil {
		return fmt.Errorf("contour: compact heightfield is nil")
	}
	if regs == nil {
		return fmt.Errorf("contour: region result is nil")
	}
	w, h := chf.Width, chf.Height
	if w < 1 || h < 1 || w > voxel.MaxGridSide || h > voxel.MaxGridSide {
		return fmt.Errorf("contour: grid of %d x %d columns, want 1..%d each", w, h, voxel.MaxGridSide)
	}
	if len(chf.Cells) != w*h {
		return fmt.Errorf("contour: %d cells for a %d x %d grid, want %d", len(chf.Cells), w, h, w*h)
	}
	n := len(chf.Spans)
	if n > MaxSpans {
		return fmt.Errorf("contour: %d spans, more than %d", n, MaxSpans)
	}
	if len(chf.Areas) != n {
		return fmt.Errorf("contour: %d areas for %d spans", len(chf.Areas), n)
	}
	if len(regs.IDs) != n {
		return fmt.Errorf("contour: %d region ids for %d spans", len(regs.IDs), n)
	}
	next := uint64(0)
	for c, cell := range chf.Cells {
		if uint64(cell.Index) != next {
			return fmt.Errorf("contour: column (%d, %d) starts at span %d, want %d", c%w, c/w, cell.Index, next)
		}
		next += uint64(cell.Count)
	}
	if next != uint64(n) {
		return fmt.Errorf("contour: columns hold %d spans, the span array %d", next, n)
	}
	return nil
}

// spanGraph is how the stage reads the spans it traces: their links, columns
// and floors. It is either a whole compact heightfield (chf set: links from
// the packed CompactSpan.Con, columns from the cell table) or one height
// layer of one (view set, layer.go: the layer's own links only, so another
// layer is a wall). The flags, the walk, the corner test and the
// simplification are the same code for both (tracer); only the four
// accessors below look at the representation.
type spanGraph struct {
	chf  *voxel.CompactHeightfield
	view *region.LayerView
}

// spanCount returns the number of spans (indices 0..spanCount()-1).
func (g *spanGraph) spanCount() int {
	if g.view != nil {
		return g.view.Index.Len()
	}
	return len(g.chf.Spans)
}

// column returns the column of span i; ok is false when no column holds it.
func (g *spanGraph) column(i int) (x, z int, ok bool) {
	if v := g.view; v != nil {
		if i < 0 || i >= v.Index.Len() {
			return 0, 0, false
		}
		return int(v.X[i]), int(v.Z[i]), true
	}
	return column(g.chf, i)
}

// floor returns the floor row of span i.
func (g *spanGraph) floor(i int) int32 {
	if g.view != nil {
		return int32(g.view.Y[i])
	}
	return int32(g.chf.Spans[i].Y)
}

// neighbour returns the span linked from span i of column (x, z) in
// direction d and its column, or ni = -1 when there is none (a link out of
// range reads as none, so nothing panics on a graph the validation would
// reject). The layer case is kept small enough to inline (the walk and the
// corner test call it for every edge).
func (g *spanGraph) neighbour(x, z, i, d int) (nx, nz, ni int) {
	if v := g.view; v != nil {
		j := v.Links.To(i, d)
		if j < 0 || int(j) >= v.Index.Len() {
			return 0, 0, -1
		}
		return int(v.X[j]), int(v.Z[j]), int(j) // (x, z) moved by d in a valid view
	}
	return g.chfNeighbour(x, z, i, d)
}

// chfNeighbour is neighbour on a compact heightfield.
func (g *spanGraph) chfNeighbour(x, z, i, d int) (nx, nz, ni int) {
	chf := g.chf
	l := chf.Spans[i].Link(d)
	if l == voxel.NotConnected {
		return 0, 0, -1
	}
	nx, nz = x+voxel.DirOffsetX[d], z+voxel.DirOffsetZ[d]
	if nx < 0 || nz < 0 || nx >= chf.Width || nz >= chf.Height {
		return 0, 0, -1
	}
	c := chf.Cells[nx+nz*chf.Width]
	ni = int(c.Index) + l
	if uint32(l) >= c.Count || ni >= len(chf.Spans) {
		return 0, 0, -1
	}
	return nx, nz, ni
}

// EdgeFlags returns, for every span, the set of its edges that are region
// boundaries: bit d (direction d of voxel.DirOffsetX/Z: −x, +z, +x, −z) is
// set when the span is in a region (id not region.NoRegion and without
// region.BorderFlag) and its neighbour in direction d is missing (not
// linked) or has another region id. Spans outside a region have no flag; so
// has a lone span whose four edges are all boundaries (Recast does not trace
// a one-span loop). dst is reused when large enough.
//
// EdgeFlags validates its input, including the links of the spans in a
// region (a link must point into the grid and to an existing span of the
// neighbour column). Elsewhere (corner heights, the walk) a link out of
// range reads as not linked, so nothing panics on any input.
func EdgeFlags(chf *voxel.CompactHeightfield, regs *region.Result, dst []uint8) ([]uint8, error) {
	if err := checkInput(chf, regs); err != nil {
		return nil, err
	}
	n := len(chf.Spans)
	if cap(dst) < n {
		dst = make([]uint8, n)
	}
	dst = dst[:n]
	w, h := chf.Width, chf.Height
	ids, spans, cells := regs.IDs, chf.Spans, chf.Cells
	for z := 0; z < h; z++ {
		for x := 0; x < w; x++ {
			cell := cells[x+z*w]
			for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
				if !inRegion(ids[i]) {
					dst[i] = 0
					continue
				}
				con := spans[i].Con
				var f uint8
				for d := 0; d < 4; d++ {
					l := int(con>>(8*d)) & 0xff
					if l == voxel.NotConnected {
						f |= 1 << d
						continue
					}
					nx, nz := x+voxel.DirOffsetX[d], z+voxel.DirOffsetZ[d]
					if nx < 0 || nz < 0 || nx >= w || nz >= h {
						return nil, fmt.Errorf("contour: span %d of column (%d, %d) links in direction %d outside the grid", i, x, z, d)
					}
					nc := cells[nx+nz*w]
					if uint32(l) >= nc.Count {
						return nil, fmt.Errorf("contour: span %d of column (%d, %d) links in direction %d to span %d of a column of %d", i, x, z, d, l, nc.Count)
					}
					if ids[int(nc.Index)+l] != ids[i] {
						f |= 1 << d
					}
				}
				dst[i] = boundaryBits(f)
			}
		}
	}
	return dst, nil
}

// inRegion reports whether a span with region id r is in a region: not
// NoRegion and not a border id.
func inRegion(r uint16) bool { return r != region.NoRegion && r&region.BorderFlag == 0 }

// boundaryBits finishes the edge flags of a span in a region from f, its
// edges whose neighbour is missing or in another region (bit d for
// direction d): a lone span, all four bits set, gets none, since a one-span
// loop is never traced (Recast skips it too). EdgeFlags and LayerEdgeFlags
// share it.
func boundaryBits(f uint8) uint8 {
	if f == 0xf {
		return 0
	}
	return f
}

// tracer walks loops on one span graph with its areas, region ids and edge
// flags (one per span each).
type tracer struct {
	g     *spanGraph
	ids   []uint16
	areas []uint8
	flags []uint8
	// reuse, when set (a repair), gives the raw vertex of an edge whose
	// surroundings are the first build's, as computed then.
	reuse *reuse
}

// regArea packs a span's region id and area as Recast's corner test does.
func (t *tracer) regArea(i int) uint32 {
	return uint32(t.ids[i]) | uint32(t.areas[i])<<16
}

// corner returns the height of the corner at the end of edge d of span i in
// column (x, z), the corner shared with the neighbour in direction d, the
// one in direction d+1 and the diagonal one, and whether it is a tile-border
// vertex. The height is the highest floor among the span, its neighbour
// across d and that neighbour's neighbour across d+1, its neighbour across
// d+1 and that one's neighbour across d (each only where linked). The cells
// around the corner, in the order (span, across d, diagonal, across d+1),
// carry region | area<<16 (0 where not reached; the diagonal as reached last,
// through the d+1 neighbour when both paths exist). The corner is a border
// vertex when for some rotation a, b, c, e of those four: a == b with the
// border flag set in both, c and e without it and of the same area, and none
// of the four zero.
func (t *tracer) corner(x, z, i, d int) (y int32, border bool) {
	dp := (d + 1) & 3
	ch := t.g.floor(i)
	var regs [4]uint32
	regs[0] = t.regArea(i)
	// The neighbour across d (into regs[1]) and from it the diagonal across
	// d+1, then the neighbour across d+1 (into regs[3]) and from it the
	// diagonal across d (both into regs[2]: the last reached wins).
	if ax, az, ai := t.g.neighbour(x, z, i, d); ai >= 0 {
		ch = max(ch, t.g.floor(ai))
		regs[1] = t.regArea(ai)
		if _, _, a2 := t.g.neighbour(ax, az, ai, dp); a2 >= 0 {
			ch = max(ch, t.g.floor(a2))
			regs[2] = t.regArea(a2)
		}
	}
	if ax, az, ai := t.g.neighbour(x, z, i, dp); ai >= 0 {
		ch = max(ch, t.g.floor(ai))
		regs[3] = t.regArea(ai)
		if _, _, a2 := t.g.neighbour(ax, az, ai, d); a2 >= 0 {
			ch = max(ch, t.g.floor(a2))
			regs[2] = t.regArea(a2)
		}
	}
	if (regs[0]|regs[1]|regs[2]|regs[3])&borderFlag == 0 {
		return ch, false // no border region: no rotation has two
	}
	for j := 0; j < 4; j++ {
		a, b, c, e := regs[j], regs[(j+1)&3], regs[(j+2)&3], regs[(j+3)&3]
		twoSameBorder := a&b&borderFlag != 0 && a == b
		twoInside := (c|e)&borderFlag == 0
		sameArea := c>>16 == e>>16
		noZero := a != 0 && b != 0 && c != 0 && e != 0
		if twoSameBorder && twoInside && sameArea && noZero {
			return ch, true
		}
	}
	return ch, false
}

// emit returns the raw vertex of flagged edge d of span i in column
// (x, z): the corner at the edge's end (corner), the neighbour region
// across the edge, AreaBorder and BorderVertex.
func (t *tracer) emit(x, z, i, d int) Vertex {
	y, border := t.corner(x, z, i, d)
	px, pz := x, z
	switch d {
	case 0:
		pz++
	case 1:
		px++
		pz++
	case 2:
		px++
	}
	var f uint32
	if _, _, ai := t.g.neighbour(x, z, i, d); ai >= 0 {
		f = uint32(t.ids[ai])
		if t.areas[ai] != t.areas[i] {
			f |= AreaBorder
		}
	}
	if border {
		f |= BorderVertex
	}
	return Vertex{X: int32(px), Y: y, Z: int32(pz), Flags: f}
}

// walk traces the loop through edge d of span i in column (x, z) (which
// must be flagged) into l.Raw and l.Keys, clearing the flags it visits.
func (t *tracer) walk(x, z, i, d int, l *Loop) error {
	if t.flags[i]&(1<<d) == 0 {
		return fmt.Errorf("contour: edge %d of span %d is not a flagged boundary edge", d, i)
	}
	l.Raw = l.Raw[:0]
	l.Keys = l.Keys[:0]
	l.Simplified = l.Simplified[:0]
	l.Region = t.ids[i]
	l.Area = t.areas[i]
	startI, startD := i, d
	// A loop visits each (span, direction) state at most once.
	limit := 4*t.g.spanCount() + 1
	for step := 0; ; step++ {
		if step >= limit {
			return fmt.Errorf("contour: the loop from edge %d of span %d does not close (links not mutual?)", startD, startI)
		}
		if t.flags[i]&(1<<d) != 0 {
			var v Vertex
			ok := false
			if t.reuse != nil {
				v, ok = t.reuse.vertex(i, i*4+d)
			}
			if !ok {
				v = t.emit(x, z, i, d)
				if t.reuse != nil {
					t.reuse.emitted = append(t.reuse.emitted, int32(i*4+d))
				}
			}
			l.Raw = append(l.Raw, v)
			l.Keys = append(l.Keys, int32(i*4+d))
			t.flags[i] &^= 1 << d
			if ok {
				// The first build's loop goes on as this one does while
				// its spans are not near a removed span (reuse.follow).
				last, closed := t.reuse.follow(l, int32(startI*4+startD))
				if closed {
					return nil
				}
				if last >= 0 {
					i, d = int(last>>2), int(last&3)
					x, z, _ = t.g.column(i)
				}
			}
			d = (d + 1) & 3 // turn clockwise: next edge of the same span
		} else {
			nx, nz, ni := t.g.neighbour(x, z, i, d)
			if ni < 0 {
				return fmt.Errorf("contour: edge %d of span %d is not flagged but has no neighbour (flags do not match the heightfield)", d, i)
			}
			x, z, i = nx, nz, ni
			d = (d + 3) & 3 // turn counter-clockwise in the neighbour
		}
		if i == startI && d == startD {
			return nil
		}
	}
}

// trace is TraceLoop on a checked graph: it traces the loop from edge dir of
// span (an index already checked against the graph).
func (t *tracer) trace(span, dir int) (Loop, error) {
	if dir < 0 || dir > 3 {
		return Loop{}, fmt.Errorf("contour: direction %d out of range 0..3", dir)
	}
	x, z, ok := t.g.column(span)
	if !ok {
		return Loop{}, fmt.Errorf("contour: no column holds span %d (column table not valid)", span)
	}
	var l Loop
	if err := t.walk(x, z, span, dir, &l); err != nil {
		return Loop{}, err
	}
	return l, nil
}

// traceAll traces every loop of the graph in edge-key order (span index,
// then direction): from every edge still flagged, a walk, RotateLoop (no
// change: the first edge of a loop met in this order is its smallest key)
// and the simplification. t.flags is consumed. The loops and their
// vertices are made in m's memory (its raw, keys, simple, idx and loops).
func (t *tracer) traceAll(maxErrorCells float32, maxEdgeLenCells int, flags BuildFlags, m *setMem) ([]Loop, error) {
	loops := m.loops[:0]
	ef := t.flags
	// Every flagged edge gives one raw vertex of one loop: the loops' Raw
	// and Keys are consecutive pieces of two arrays of that size, each
	// walked into in place, and their Simplified consecutive pieces of a
	// third, appended to (a few of the raw vertices; an array it outgrows
	// stays with the loops in it). All are capped, so an append to one
	// copies it.
	edges := 0
	for _, f := range ef {
		edges += bits.OnesCount8(f)
	}
	raw := slices.Grow(m.raw[:0], edges)
	keys := slices.Grow(m.keys[:0], edges)
	simple := m.simple[:0]
	m.raw, m.keys = raw, keys
	var l Loop
	for i := range ef {
		for d := 0; d < 4 && ef[i] != 0; d++ {
			if ef[i]&(1<<d) == 0 {
				continue
			}
			x, z, ok := t.g.column(i)
			if !ok {
				return nil, fmt.Errorf("contour: no column holds span %d", i)
			}
			l.Raw, l.Keys = raw[len(raw):len(raw)], keys[len(keys):len(keys)]
			if err := t.walk(x, z, i, d, &l); err != nil {
				return nil, err
			}
			RotateLoop(&l)
			n := len(l.Raw)
			raw, keys = raw[:len(raw)+n], keys[:len(keys)+n]
			out := Loop{
				Raw:    raw[len(raw)-n : len(raw) : len(raw)],
				Keys:   keys[len(keys)-n : len(keys) : len(keys)],
				Region: l.Region,
				Area:   l.Area,
			}
			st := len(simple)
			simple = simplify(out.Raw, out.Keys, maxErrorCells, maxEdgeLenCells, flags, &m.idx, simple)
			out.Simplified = simple[st:len(simple):len(simple)]
			loops = append(loops, out)
		}
	}
	m.loops, m.simple = loops, simple
	return loops, nil
}

// column returns the column (x, z) holding span i, found by bisection on
// Index+Count (which never decreases in a valid column table); ok is false
// when no column holds it.
func column(chf *voxel.CompactHeightfield, i int) (x, z int, ok bool) {
	c := sort.Search(len(chf.Cells), func(c int) bool {
		cell := chf.Cells[c]
		return uint64(cell.Index)+uint64(cell.Count) > uint64(i)
	})
	if c == len(chf.Cells) || uint64(chf.Cells[c].Index) > uint64(i) {
		return 0, 0, false
	}
	return c % chf.Width, c / chf.Width, true
}

// TraceLoop traces ONE loop of the region of span, starting at its edge dir,
// which must be flagged in flags (from EdgeFlags on the same heightfield and
// region ids). The walk keeps the region on its left seen from above: on a
// flagged edge it emits the corner at the edge's end (height and border test
// from the links, flags from the neighbour across the edge), clears the flag
// and turns to the span's next direction (d+1); on an edge that is not
// flagged it steps into the neighbour and turns back (d+3). It stops on
// coming back to the starting (span, direction). The returned loop starts at
// the given edge (call RotateLoop to start it at its smallest key); it has
// no simplified form yet.
//
// flags is changed: every visited edge is cleared. chf and regs must be
// those EdgeFlags accepted (TraceLoop only checks sizes and the span index).
func TraceLoop(chf *voxel.CompactHeightfield, regs *region.Result, flags []uint8, span, dir int) (Loop, error) {
	if chf == nil || regs == nil {
		return Loop{}, fmt.Errorf("contour: nil heightfield or region result")
	}
	n := len(chf.Spans)
	if len(regs.IDs) != n || len(chf.Areas) != n || len(flags) != n || chf.Width < 1 || chf.Height < 1 || len(chf.Cells) != chf.Width*chf.Height {
		return Loop{}, fmt.Errorf("contour: %d spans with %d areas, %d region ids and %d flags (want equal), %d cells for %d x %d",
			n, len(chf.Areas), len(regs.IDs), len(flags), len(chf.Cells), chf.Width, chf.Height)
	}
	if span < 0 || span >= n {
		return Loop{}, fmt.Errorf("contour: span %d out of range 0..%d", span, n-1)
	}
	t := tracer{g: &spanGraph{chf: chf}, ids: regs.IDs, areas: chf.Areas, flags: flags}
	return t.trace(span, dir)
}
