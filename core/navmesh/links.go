package navmesh

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"navviz/core/geom"
)

// Tolerances of the portal match (docs/format.md, "Links"), metres.
const (
	// portalPlaneTolM is how far apart (across the border) two portal
	// edges may lie and still face each other (Detour's 0.01).
	portalPlaneTolM = 0.01
	// portalShrinkM is cut from both ends of the overlap, so that edges
	// that only touch at an end do not link (Detour's 0.01).
	portalShrinkM = 0.01
)

// borderDirs are the four directions in the order the mesh visits the
// neighbouring positions of a tile.
var borderDirs = [4]uint8{DirPosX, DirPosZ, DirNegX, DirNegZ}

// neighbourPos returns the tile position across the border dir of (x, z),
// false when it falls outside int32.
func neighbourPos(x, z int32, dir uint8) (int32, int32, bool) {
	nx, nz := int64(x), int64(z)
	switch dir {
	case DirPosX:
		nx++
	case DirPosZ:
		nz++
	case DirNegX:
		nx--
	case DirNegZ:
		nz--
	}
	if nx < math.MinInt32 || nx > math.MaxInt32 || nz < math.MinInt32 || nz > math.MaxInt32 {
		return 0, 0, false
	}
	return int32(nx), int32(nz), true
}

// connect links the tile in slot s (its internal links are made with its
// mesh tile, fillMeshTile) with every tile at the four neighbouring
// positions (both ways), then puts the links of every touched tile in link
// order.
//
// Every held tile's links are in link order between calls, and the links
// a change leaves in place keep their order, so only the lists that got
// links are sorted: the tile's own (its internal links come in edge
// order, so only the polygons with a portal edge unless off-mesh links
// landed), the neighbours' polygons connectPair gave links (m.linked) and
// the tiles an off-mesh link touched.
func (m *Mesh) connect(s uint32) {
	mt := m.slots[s].tile
	var buf [16]uint32
	h := &mt.t.Header
	m.linked = m.linked[:0]
	for _, dir := range borderDirs {
		nx, nz, ok := neighbourPos(h.TileX, h.TileZ, dir)
		if !ok {
			continue
		}
		for _, n := range m.cols[[2]int32{nx, nz}] {
			m.connectPair(s, n, dir)
		}
	}
	touched := m.connectOffMesh(s, buf[:0])
	if m.offMeshCount > 0 {
		m.sortLinks(s)
	} else {
		for _, ps := range mt.portals {
			for k, e := range ps {
				if k == 0 || ps[k-1].poly != e.poly {
					m.sortPolyLinks(mt.links[e.poly])
				}
			}
		}
	}
	for _, t := range touched {
		m.sortLinks(t)
	}
	for _, sp := range m.linked {
		if sp.slot != s {
			m.sortPolyLinks(m.slots[sp.slot].tile.links[sp.poly])
		}
	}
}

// slotPoly is a polygon of the tile in a slot.
type slotPoly struct {
	slot uint32
	poly int32
}

// disconnect drops every link of the tiles at the neighbouring positions of
// slot s's tile that points into s, and every off-mesh link of any tile
// that points into s. The tile's own links go with it.
//
// Border links come in pairs (connectPair makes both ends at once, and
// either tile leaving drops both), so the polygons holding links into s
// are the targets of s's own border links: only those are visited, not
// every portal polygon of the neighbours (a polygon named twice is
// filtered twice, which changes nothing the second time). s's border
// links lie on its portal edges, so only those edges' links are read.
func (m *Mesh) disconnect(s uint32) {
	m.disconnectOffMesh(s)
	mt := m.slots[s].tile
	for _, ps := range mt.portals {
		for _, e := range ps {
			m.dropLinksBack(s, mt.links[e.poly], e.edge)
		}
	}
}

// dropLinksBack drops, for every border link of own (a polygon's links in
// slot s) on edge, the links of the polygon it names that point into s.
func (m *Mesh) dropLinksBack(s uint32, own []Link, edge int) {
	for _, l := range own {
		if int(l.Edge) != edge || l.Side == InternalSide || l.Side == OffMeshSide {
			continue
		}
		nt := m.slots[l.Ref.Slot()].tile
		p := l.Ref.Poly()
		ls := nt.links[p]
		kept := ls[:0]
		for _, nl := range ls {
			if nl.Ref.Slot() != s {
				kept = append(kept, nl)
			}
		}
		clear(ls[len(kept):])
		nt.links[p] = kept
	}
}

// relinkAll rebuilds every link of the mesh from scratch (used after a
// whole mesh is decoded or restored); the result equals what adding the
// tiles one by one gives.
func (m *Mesh) relinkAll() {
	for s := range m.slots {
		if m.slots[s].tile != nil {
			for p, ls := range m.slots[s].tile.links {
				m.slots[s].tile.links[p] = ls[:0]
			}
			m.connectInternal(uint32(s))
		}
	}
	for s := range m.slots {
		mt := m.slots[s].tile
		if mt == nil {
			continue
		}
		h := &mt.t.Header
		for _, dir := range [2]uint8{DirPosX, DirPosZ} {
			nx, nz, ok := neighbourPos(h.TileX, h.TileZ, dir)
			if !ok {
				continue
			}
			for _, n := range m.cols[[2]int32{nx, nz}] {
				m.connectPair(uint32(s), n, dir)
			}
		}
	}
	if m.offMeshCount > 0 {
		for s := range m.slots {
			if m.slots[s].tile == nil || len(m.slots[s].tile.t.OffMesh) == 0 {
				continue
			}
			for u := range m.slots {
				if m.slots[u].tile != nil {
					m.landAll(uint32(s), uint32(u))
				}
			}
		}
	}
	for s := range m.slots {
		if m.slots[s].tile != nil {
			m.sortLinks(uint32(s))
		}
	}
}

// connectInternal gives every polygon of slot s a link per edge with a
// neighbour inside the tile.
func (m *Mesh) connectInternal(s uint32) {
	mt := m.slots[s].tile
	ref := m.tileRef(s)
	for i := range mt.t.Polys {
		mt.links[i] = appendInternalLinks(mt.links[i], &mt.t.Polys[i], ref)
	}
}

// appendInternalLinks appends to ls the links of polygon p of tile ref
// with its neighbours inside the tile, one per such edge in edge order.
func appendInternalLinks(ls []Link, p *Poly, ref TileRef) []Link {
	for j, n := range p.Neis[:p.VertCount] {
		if n&ExtLink != 0 { // a portal, or NullIndex (a wall)
			continue
		}
		ls = append(ls, Link{Ref: ref.Poly(uint32(n)), Edge: uint8(j), Side: InternalSide, BMin: 0, BMax: 255})
	}
	return ls
}

// portalEdge is a portal edge of a tile facing one direction, from va to
// vb, with the values the portal test reads (slab, in double): w across
// the border at va; the ends along it ordered by u, (u0, y0) and (u1,
// y1); flip set when va is the (u1, y1) end.
type portalEdge struct {
	poly, edge     int
	w              float64
	u0, y0, u1, y1 float64
	flip           bool
}

// newPortalEdge returns edge of polygon poly, from va to vb, facing dir.
func newPortalEdge(poly, edge int, va, vb geom.Vec3, dir uint8) portalEdge {
	w, ua := slab(va, dir)
	_, ub := slab(vb, dir)
	e := portalEdge{poly: poly, edge: edge, w: w, u0: ua, y0: float64(va.Y), u1: ub, y1: float64(vb.Y)}
	if ua > ub {
		e.u0, e.y0, e.u1, e.y1, e.flip = ub, float64(vb.Y), ua, float64(va.Y), true
	}
	return e
}

// portalEdges sets ps[dir/2] (reusing its memory) to the portal edges of
// t facing border dir, for the four borders, in one pass over t's
// polygons.
func portalEdges(ps *[4][]portalEdge, t *Tile) {
	for k := range ps {
		ps[k] = ps[k][:0]
	}
	for i := range t.Polys {
		p := &t.Polys[i]
		for j := range int(p.VertCount) {
			// ExtLink|dir with dir one of 0, 2, 4, 6 (DirPosX..DirNegZ).
			if d := p.Neis[j] &^ ExtLink; p.Neis[j]&ExtLink != 0 && d < 8 && d%2 == 0 {
				a, b := p.EdgeVerts(j)
				ps[d/2] = append(ps[d/2], newPortalEdge(i, j, t.Verts[a], t.Verts[b], uint8(d)))
			}
		}
	}
}

// connectPair links the portal edges of slot a facing dir with the portal
// edges of slot b facing the opposite way, both ways (b lies across the
// border dir of a).
func (m *Mesh) connectPair(a, b uint32, dir uint8) {
	ta, tb := m.slots[a].tile, m.slots[b].tile
	ea := ta.portalEdges(dir)
	if len(ea) == 0 {
		return
	}
	eb := tb.portalEdges(OppositeDir(dir))
	if len(eb) == 0 {
		return
	}
	climb := float64(min(ta.t.Header.WalkableClimbM, tb.t.Header.WalkableClimbM))
	ga, gb := m.slots[a].gen, m.slots[b].gen
	for ia := range ea {
		pa := &ea[ia]
		for ib := range eb {
			pb := &eb[ib]
			lo, hi, ok := portalOverlap(pa, pb, climb)
			if !ok {
				continue
			}
			amin, amax := portalRange(pa, lo, hi)
			bmin, bmax := portalRange(pb, lo, hi)
			ta.links[pa.poly] = append(ta.links[pa.poly], Link{Ref: packRef(gb, b, uint32(pb.poly)), Edge: uint8(pa.edge), Side: dir, BMin: amin, BMax: amax})
			tb.links[pb.poly] = append(tb.links[pb.poly], Link{Ref: packRef(ga, a, uint32(pa.poly)), Edge: uint8(pb.edge), Side: OppositeDir(dir), BMin: bmin, BMax: bmax})
			m.linked = append(m.linked, slotPoly{b, int32(pb.poly)})
		}
	}
}

// slab returns the coordinate across the border (w) and along it (u) of v
// for a border facing dir.
func slab(v geom.Vec3, dir uint8) (w, u float64) {
	if dir == DirPosX || dir == DirNegX {
		return float64(v.X), float64(v.Z)
	}
	return float64(v.Z), float64(v.X)
}

// portalOverlap reports whether portal edges a and b on one border
// connect, and returns their overlap [lo, hi] along the border axis
// (docs/format.md, "Links"). All arithmetic is in double. The overlap is
// tested before the plane (either failing fails): most pairs do not
// overlap.
func portalOverlap(a, b *portalEdge, climb float64) (lo, hi float64, ok bool) {
	// The larger start and the smaller end by plain comparisons: the
	// values are numbers, and of -0 and +0 either gives the same links.
	lo, hi = a.u0, a.u1
	if b.u0 > lo {
		lo = b.u0
	}
	if b.u1 < hi {
		hi = b.u1
	}
	slo, shi := lo+portalShrinkM, hi-portalShrinkM
	if slo > shi {
		return 0, 0, false
	}
	if math.Abs(a.w-b.w) > portalPlaneTolM {
		return 0, 0, false
	}
	// Both segments are at least 2*portalShrinkM long here.
	at := func(e *portalEdge, u float64) float64 {
		return e.y0 + float64((e.y1-e.y0)*((u-e.u0)/(e.u1-e.u0)))
	}
	dlo := at(b, slo) - at(a, slo)
	dhi := at(b, shi) - at(a, shi)
	if dlo < 0 && dhi > 0 || dlo > 0 && dhi < 0 {
		return lo, hi, true // the edges cross
	}
	if math.Abs(dlo) <= climb || math.Abs(dhi) <= climb {
		return lo, hi, true
	}
	return 0, 0, false
}

// portalRange returns the part [lo, hi] of edge e (va to vb) as fractions
// of the edge from va, in 0..255: round(clamp(t, 0, 1) * 255), t in
// double.
func portalRange(e *portalEdge, lo, hi float64) (uint8, uint8) {
	u0, u1 := e.u0, e.u1 // u of va, vb
	if e.flip {
		u0, u1 = u1, u0
	}
	d := u1 - u0
	t0, t1 := (lo-u0)/d, (hi-u0)/d
	if t0 > t1 {
		t0, t1 = t1, t0
	}
	q := func(t float64) uint8 {
		// A plain clamp: t is a number (the edge is longer than
		// 2*portalShrinkM), and -0 rounds to the byte of +0.
		if t < 0 {
			t = 0
		} else if t > 1 {
			t = 1
		}
		return uint8(math.Round(t * 255))
	}
	return q(t0), q(t1)
}

// sortLinks puts every polygon's links of slot s in link order
// (compareLinks).
func (m *Mesh) sortLinks(s uint32) {
	for _, ls := range m.slots[s].tile.links {
		m.sortPolyLinks(ls)
	}
}

// sortPolyLinks puts one polygon's links in link order (sortLinks): an
// insertion sort (stable; a polygon has a few links), a stable merge sort
// for long lists.
func (m *Mesh) sortPolyLinks(ls []Link) {
	if len(ls) > 12 {
		slices.SortStableFunc(ls, m.compareLinks)
		return
	}
	for i := 1; i < len(ls); i++ {
		for j := i; j > 0 && m.compareLinks(ls[j], ls[j-1]) < 0; j-- {
			ls[j], ls[j-1] = ls[j-1], ls[j]
		}
	}
}

// compareLinks orders two links of one polygon (sortLinks): by edge, side,
// the neighbour tile's layer, the neighbour polygon, BMin, BMax, then the
// neighbour tile's z and x.
func (m *Mesh) compareLinks(a, b Link) int {
	if a.Edge != b.Edge {
		return cmp.Compare(a.Edge, b.Edge)
	}
	if c := cmp.Compare(a.Side, b.Side); c != 0 {
		return c
	}
	ha := &m.slots[a.Ref.Slot()].tile.t.Header
	hb := &m.slots[b.Ref.Slot()].tile.t.Header
	if c := cmp.Compare(ha.Layer, hb.Layer); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Ref.Poly(), b.Ref.Poly()); c != 0 {
		return c
	}
	if c := cmp.Compare(a.BMin, b.BMin); c != 0 {
		return c
	}
	if c := cmp.Compare(a.BMax, b.BMax); c != 0 {
		return c
	}
	if c := cmp.Compare(ha.TileZ, hb.TileZ); c != 0 {
		return c
	}
	return cmp.Compare(ha.TileX, hb.TileX)
}

// CheckLinks checks that every link of every polygon of m names a polygon
// of the mesh and has its reverse: a link from polygon P to Q across a tile
// border (Side a direction) needs a link from Q to P on the opposite side
// (OppositeDir), a link inside a tile (Side InternalSide) a link from Q
// to P inside the tile, and a link between a polygon and an off-mesh link
// node (Side OffMeshSide, counted with the border links) a link back at the
// same end, except at the end of a one-way off-mesh link, which only the
// node links. The mesh's edits (AddTile, ReplaceTile, RemoveTile,
// RestoreState, ...) keep the links so; CheckLinks confirms it, for tests
// and tools. It returns the number of links across tile borders and inside
// tiles (every link counted, good or bad) and an error naming the first bad
// link (tiles by TileZ, TileX, Layer, then polygons and links in order) and
// how many there are, nil when there is none.
func (m *Mesh) CheckLinks() (border, internal int, err error) {
	bad := 0
	for _, s := range m.ordered() {
		tr := m.tileRef(s)
		for i, links := range m.slots[s].tile.links {
			p := tr.Poly(uint32(i))
			for _, l := range links {
				want := uint8(InternalSide)
				oneWayEnd := false
				switch l.Side {
				case InternalSide:
					internal++
				case OffMeshSide:
					border++
					want = OffMeshSide
					if k, ok := m.slots[s].tile.t.OffMeshIndex(i); ok {
						oneWayEnd = l.Edge == 1 && !m.slots[s].tile.t.OffMesh[k].Bidirectional
					}
				default:
					border++
					want = OppositeDir(l.Side)
				}
				var e error
				if q, qi, qerr := m.polyOf(l.Ref, "CheckLinks"); qerr != nil {
					e = fmt.Errorf("%w (a link of polygon %#x, side %d)", qerr, uint64(p), l.Side)
				} else if !oneWayEnd && !slices.ContainsFunc(q.links[qi], func(b Link) bool { return b.Ref == p && b.Side == want && (want != OffMeshSide || b.Edge == l.Edge) }) {
					e = fmt.Errorf("navmesh: CheckLinks: link from polygon %#x to %#x (side %d) has no reverse", uint64(p), uint64(l.Ref), l.Side)
				}
				if e != nil {
					if bad++; bad == 1 {
						err = e
					}
				}
			}
		}
	}
	if bad > 1 {
		err = fmt.Errorf("%w (%d bad links in all)", err, bad)
	}
	return border, internal, err
}
