package polymesh

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"navviz/core/contour"
	"navviz/core/geom"
)

// Build returns the polygon mesh of a contour set (Recast's rcBuildPolyMesh)
// with polygons of at most nvp vertices, using the default coordinate map
// (BaseM = the tile's own min corner, no cell offset). See BuildMapped and
// docs/polys.md.
func Build(cset *contour.Set, nvp int) (*Mesh, error) {
	return BuildMapped(cset, nvp, nil)
}

// DefaultMap returns the coordinate map Build uses for cset: BaseM = the
// set's origin moved in by the border (X and Z: origin +
// float32(Border*CellSizeM)), CellX0 = CellZ0 = 0, the set's cell sizes and
// its extent without the border.
func DefaultMap(cset *contour.Set) CoordMap {
	b := float32(cset.Border)
	return CoordMap{
		BaseM: geom.Vec3{
			X: cset.OriginX + float32(b*cset.CellSizeM),
			Y: cset.OriginY,
			Z: cset.OriginZ + float32(b*cset.CellSizeM),
		},
		CellSizeM:   cset.CellSizeM,
		CellHeightM: cset.CellHeightM,
		WidthCells:  cset.Width - 2*cset.Border,
		HeightCells: cset.Height - 2*cset.Border,
	}
}

// BuildMapped is Build with an explicit coordinate map cm (nil: DefaultMap).
// cm must have the set's cell sizes and its extent without the border
// (Width-2*Border by Height-2*Border). The polygons are convex both in cells
// and in cm's float32 positions.
//
// Steps (docs/polys.md): every contour of at least three vertices, in set
// order, is moved to the tile's own cells (x and z minus Border),
// triangulated by ear clipping, its vertices welded into the mesh (same x
// and z, y within 2 rows), its triangles merged into convex polygons of up
// to nvp vertices (longest shared edge first) and stored with the contour's
// region and area. Then every vertex that a contour flagged BorderVertex is
// removed where possible and the hole it leaves triangulated and merged
// again; neighbours are linked across shared edges; with Border > 0, an edge
// without neighbour lying on the tile's border gets PortalFlag|side.
func BuildMapped(cset *contour.Set, nvp int, cm *CoordMap) (*Mesh, error) {
	return build(cset, nvp, cm, false)
}

// build is BuildMapped; plain makes the merges evaluate every pair in every
// round and the triangulation test every edge (the plain form of the rules,
// for tests).
func build(cset *contour.Set, nvp int, cm *CoordMap, plain bool) (*Mesh, error) {
	if err := validateSet(cset, nvp); err != nil {
		return nil, err
	}
	cmap := DefaultMap(cset)
	if cm != nil {
		if cm.CellSizeM != cset.CellSizeM || cm.CellHeightM != cset.CellHeightM ||
			cm.WidthCells != cmap.WidthCells || cm.HeightCells != cmap.HeightCells {
			return nil, fmt.Errorf("polymesh: CoordMap cells %v x %v m over %d x %d do not match the contour set's %v x %v m over %d x %d",
				cm.CellSizeM, cm.CellHeightM, cm.WidthCells, cm.HeightCells,
				cset.CellSizeM, cset.CellHeightM, cmap.WidthCells, cmap.HeightCells)
		}
		cmap = *cm
	}
	if err := cmap.Validate(); err != nil {
		return nil, err
	}
	b := builderPool.Get().(*builder)
	defer b.release()
	b.cmap = cmap
	b.nvp, b.o, b.plain = nvp, newOrienter(&b.cmap), plain
	b.tri.o, b.tri.plain, b.tri.slivers = &b.o, plain, 0
	nverts, maxTris := 0, 0
	for ci := range cset.Contours {
		if n := len(cset.Contours[ci].Verts); n >= 3 {
			nverts += n
			maxTris += n - 2
		}
	}
	b.weld.init(nverts)
	b.vflags = b.vflags[:0]
	// The mesh grows in the builder's arrays (room for the worst case)
	// and takes copies of its final size at the end.
	m := &b.work
	*m = Mesh{
		Verts:             slices.Grow(b.outVerts[:0], nverts),
		Polys:             slices.Grow(b.outPolys[:0], maxTris*2*nvp),
		Regs:              slices.Grow(b.outRegs[:0], maxTris),
		Areas:             slices.Grow(b.outAreas[:0], maxTris),
		NVP:               nvp,
		OriginM:           cmap.Pos(0, 0, 0),
		CellSizeM:         cset.CellSizeM,
		CellHeightM:       cset.CellHeightM,
		BorderCells:       cset.Border,
		MaxEdgeErrorCells: cset.MaxErrorCells,
		WidthCells:        cmap.WidthCells,
		HeightCells:       cmap.HeightCells,
		Map:               cmap,
	}
	b.m = m
	for ci := range cset.Contours {
		if !b.addContour(cset, ci) {
			m.BadContours = append(m.BadContours, ci)
		}
	}
	b.removeBorderVertices()
	if np := m.PolyCount(); np >= int(NullIndex) || (cset.Border > 0 && np > int(PortalFlag)) {
		return nil, fmt.Errorf("polymesh: %d polygons, want at most %d (%d with a border, where neighbour slots also hold portal markers)",
			np, NullIndex-1, PortalFlag)
	}
	b.buildAdjacency()
	if cset.Border > 0 {
		b.markPortals()
	}
	b.outVerts, b.outPolys, b.outRegs, b.outAreas = m.Verts[:0], m.Polys[:0], m.Regs[:0], m.Areas[:0]
	// The mesh returned: a recycled one (Recycle) refilled, or a new one,
	// its arrays of their final size.
	out, _ := recycled.Get().(*Mesh)
	if out == nil {
		out = new(Mesh)
	}
	*out, out.recycled = Mesh{
		Verts: append(out.Verts[:0], m.Verts...),
		Polys: append(out.Polys[:0], m.Polys...),
		Regs:  append(out.Regs[:0], m.Regs...),
		Areas: append(out.Areas[:0], m.Areas...),
		Flags: out.Flags[:0],
		NVP:   m.NVP, OriginM: m.OriginM, CellSizeM: m.CellSizeM, CellHeightM: m.CellHeightM,
		BorderCells: m.BorderCells, MaxEdgeErrorCells: m.MaxEdgeErrorCells,
		WidthCells: m.WidthCells, HeightCells: m.HeightCells, Map: m.Map,
		BadContours:     m.BadContours,
		SliverTriangles: b.tri.slivers,
		exactCalls:      b.o.exactCalls,
	}, false
	for range out.PolyCount() {
		out.Flags = append(out.Flags, 0)
	}
	if out.Flags == nil {
		out.Flags = []uint16{}
	}
	return out, nil
}

// recycled holds meshes given back by Recycle, whose memory Build fills
// again.
var recycled sync.Pool

// Recycle hands m's memory to a later Build (on any goroutine): the caller
// gives up m, which must be a mesh Build returned that nothing else
// refers to. After the call neither m nor any slice it held may be used.
// Recycling never changes what Build returns; a nil m is ignored, and so
// is a second Recycle of the same mesh before Build took it.
func Recycle(m *Mesh) {
	if m == nil || m.recycled {
		return
	}
	m.recycled = true
	m.BadContours = nil
	recycled.Put(m)
}

// validateSet checks the arguments of Build.
func validateSet(cset *contour.Set, nvp int) error {
	if cset == nil {
		return fmt.Errorf("polymesh: nil contour set")
	}
	if nvp < MinVertsPerPoly || nvp > MaxVertsPerPoly {
		return fmt.Errorf("polymesh: nvp %d out of range %d..%d", nvp, MinVertsPerPoly, MaxVertsPerPoly)
	}
	if !(cset.CellSizeM > 0) || math.IsInf(float64(cset.CellSizeM), 1) {
		return fmt.Errorf("polymesh: contour set CellSizeM %v, want a positive finite number", cset.CellSizeM)
	}
	if !(cset.CellHeightM > 0) || math.IsInf(float64(cset.CellHeightM), 1) {
		return fmt.Errorf("polymesh: contour set CellHeightM %v, want a positive finite number", cset.CellHeightM)
	}
	if cset.Border < 0 || cset.Width-2*cset.Border < 1 || cset.Height-2*cset.Border < 1 ||
		cset.Width > 0xffff || cset.Height > 0xffff {
		return fmt.Errorf("polymesh: contour set of %d x %d cells with border %d, want sides in 1..65535 larger than twice the border",
			cset.Width, cset.Height, cset.Border)
	}
	if !(cset.MaxErrorCells >= 0) || math.IsInf(float64(cset.MaxErrorCells), 1) {
		return fmt.Errorf("polymesh: contour set MaxErrorCells %v, want a finite number >= 0", cset.MaxErrorCells)
	}
	total := 0
	for ci := range cset.Contours {
		c := &cset.Contours[ci]
		if c.Area > 63 {
			return fmt.Errorf("polymesh: contour %d area %d, want 0..63", ci, c.Area)
		}
		if len(c.Verts) < 3 {
			continue
		}
		total += len(c.Verts)
		for vi, v := range c.Verts {
			x, z := int(v.X)-cset.Border, int(v.Z)-cset.Border
			if x < 0 || z < 0 || x > cset.Width-2*cset.Border || z > cset.Height-2*cset.Border || v.Y < 0 || v.Y > 0xffff {
				return fmt.Errorf("polymesh: contour %d vertex %d at (%d, %d, %d) outside the grid [%d, %d] x [0, 65535] x [%d, %d]",
					ci, vi, v.X, v.Y, v.Z, cset.Border, cset.Width-cset.Border, cset.Border, cset.Height-cset.Border)
			}
		}
	}
	if total >= MaxVerts {
		return fmt.Errorf("polymesh: contours hold %d vertices, want fewer than %d", total, MaxVerts)
	}
	return nil
}

// builderPool recycles the scratch memory of Build (reuse never changes a
// result).
var builderPool = sync.Pool{New: func() any { return new(builder) }}

// release drops the builder's references to the mesh and puts it back in
// the pool.
func (b *builder) release() {
	b.m = nil
	b.tri.o = nil
	b.o.m = nil
	builderPool.Put(b)
}

// builder is the state of one Build and its scratch memory.
type builder struct {
	m    *Mesh
	work Mesh     // the mesh being built (m), in the arrays below
	cmap CoordMap // the mesh's map, which o reads
	nvp  int
	// The mesh's arrays while it is built (build copies them out).
	outVerts [][3]uint16
	outPolys []uint16
	outRegs  []uint16
	outAreas []uint8
	o        orienter
	tri      triangulator
	weld     welder
	vflags   []bool // per mesh vertex: flagged for removal (BorderVertex)
	local    []int  // contour vertex -> mesh vertex
	polys    []uint16
	tmp      []uint16
	plain    bool // see build

	// Scratch of canRemoveVertex, removeVertex and buildAdjacency.
	remEdges  []remEdge
	holeEdges []holeEdge
	hole      []int
	hreg      []uint16
	harea     []uint8
	hpolys    []uint16
	pregs     []uint16
	pareas    []uint8
	adjFirst  []int32
	adjNext   []int32
	adjEdges  []adjEdge
	pn        []int8        // mergePolys: per polygon, its vertex count
	etable    []uint64      // mergePolys: the hash table of edge keys (firstPairs)
	found     []foundPair   // mergePolys: the first pairs
	cands     []mergeCand   // mergePolys: the merged polygon's candidate neighbours
	flips     []uint16      // mergePolys: the moved polygon's partners to evaluate again
	pairKeys  []uint64      // mergePolys: the pairs sharing an edge (rankKey)
	pairSlots []pairSlots   // mergePolys: their shared edge slots
	changed   []int32       // mergePolys: the pairs a round changes
	touched   [1 << 16]bool // mergePolys: by 0xffff-polygon, the polygons a round changes (false between rounds)
}

// remEdge is an edge at a vertex being removed: its other end and how many
// polygons share it.
type remEdge struct{ b, share int }

// holeEdge is an edge of the hole a removed vertex leaves, with the region
// and area of its polygon.
type holeEdge struct {
	a, b int
	reg  uint16
	area uint8
}

// adjEdge is an edge record of buildAdjacency.
type adjEdge struct {
	v0, v1       int32
	p0, p1       int32
	slot0, slot1 int32
}

// welder finds an existing mesh vertex with the same x and z and y within 2
// rows (Recast's addVertex) through hash buckets of (x, z), each a chain
// newest first. Vertices with the same x and z share a bucket, so the
// vertex found (the newest match) does not depend on the number of
// buckets; it is a power of two from 64 to 4096 (Recast's count) sized to
// the vertices. No Go map is involved.
type welder struct {
	first []int32
	mask  uint32
	next  []int32
}

func (w *welder) init(verts int) {
	n := 64
	for n < verts && n < 1<<12 {
		n <<= 1
	}
	if cap(w.first) < n {
		w.first = make([]int32, n)
	}
	w.first = w.first[:n]
	for i := range w.first {
		w.first[i] = -1
	}
	w.mask = uint32(n - 1)
	w.next = w.next[:0]
}

// bucket is Recast's computeVertexHash(x, 0, z), 0x8da6b343*x +
// 0xcb1ab31f*z in 32-bit arithmetic, masked to the bucket count.
func (w *welder) bucket(x, z uint16) int {
	const h1, h3 = 0x8da6b343, 0xcb1ab31f
	n := uint32(h1)*uint32(x) + uint32(h3)*uint32(z)
	return int(n & w.mask)
}

// addVertex returns the mesh vertex welded with (x, y, z), appending a new
// one when none matches. Among several matches the newest wins.
func (b *builder) addVertex(x, y, z uint16) int {
	w := &b.weld
	bucket := w.bucket(x, z)
	for i := w.first[bucket]; i >= 0; i = w.next[i] {
		v := b.m.Verts[i]
		dy := int(v[1]) - int(y)
		if v[0] == x && v[2] == z && dy >= -2 && dy <= 2 {
			return int(i)
		}
	}
	i := len(b.m.Verts)
	b.m.Verts = append(b.m.Verts, [3]uint16{x, y, z})
	b.vflags = append(b.vflags, false)
	w.next = append(w.next, w.first[bucket])
	w.first[bucket] = int32(i)
	return i
}

// countPolyVerts returns the number of used slots of p.
func countPolyVerts(p []uint16) int {
	for i, v := range p {
		if v == NullIndex {
			return i
		}
	}
	return len(p)
}

// addContour triangulates contour ci, welds its vertices, merges its
// triangles and stores the polygons. It reports false when the
// triangulation failed part way (the triangles found are still used).
func (b *builder) addContour(cset *contour.Set, ci int) bool {
	c := &cset.Contours[ci]
	n := len(c.Verts)
	if n < 3 {
		return true
	}
	t := &b.tri
	t.xs, t.zs = slices.Grow(t.xs[:0], n)[:n], slices.Grow(t.zs[:0], n)[:n]
	for j, v := range c.Verts {
		t.xs[j], t.zs[j] = int(v.X)-cset.Border, int(v.Z)-cset.Border
	}
	ok := t.run(n)
	b.local = b.local[:0]
	for j, v := range c.Verts {
		k := b.addVertex(uint16(t.xs[j]), uint16(v.Y), uint16(t.zs[j]))
		b.local = append(b.local, k)
		if v.Flags&contour.BorderVertex != 0 {
			b.vflags[k] = true
		}
	}
	nvp := b.nvp
	polys := slices.Grow(b.polys[:0], len(t.tris)/3*nvp)
	for k := 0; k+2 < len(t.tris); k += 3 {
		a, bb, cc := t.tris[k], t.tris[k+1], t.tris[k+2]
		if a == bb || a == cc || bb == cc {
			continue
		}
		p := polys[len(polys) : len(polys)+nvp]
		p[0], p[1], p[2] = uint16(b.local[a]), uint16(b.local[bb]), uint16(b.local[cc])
		for s := 3; s < nvp; s++ {
			p[s] = NullIndex
		}
		polys = polys[:len(polys)+nvp]
	}
	b.polys = polys
	np := len(polys) / nvp
	if np == 0 {
		return ok
	}
	np = b.mergePolys(polys, np, nil)
	// Each polygon takes 2·nvp slots in the mesh: its vertices, then its
	// neighbours (set by buildAdjacency).
	out := slices.Grow(b.m.Polys, 2*np*nvp)
	for j := 0; j < np; j++ {
		p := out[len(out) : len(out)+2*nvp]
		for s, v := range polys[j*nvp : (j+1)*nvp] {
			p[s], p[nvp+s] = v, NullIndex
		}
		out = out[:len(out)+2*nvp]
		b.m.Regs = append(b.m.Regs, c.Region)
		b.m.Areas = append(b.m.Areas, c.Area)
	}
	b.m.Polys = out
	return ok
}

// removeBorderVertices removes, in index order, every vertex flagged
// BorderVertex that canRemoveVertex allows (Recast's "remove edge
// vertices").
func (b *builder) removeBorderVertices() {
	for i := 0; i < len(b.m.Verts); i++ {
		if !b.vflags[i] {
			continue
		}
		if !b.canRemoveVertex(uint16(i)) {
			continue
		}
		b.removeVertex(uint16(i))
		copy(b.vflags[i:], b.vflags[i+1:])
		b.vflags = b.vflags[:len(b.vflags)-1]
		i--
	}
}

// canRemoveVertex reports whether removing vertex rem leaves a hole that can
// be filled: the polygons touching it keep more than two edges that do not
// touch it, and the edges at rem have at most two open ends (otherwise two
// polygons that do not share an edge meet at rem).
func (b *builder) canRemoveVertex(rem uint16) bool {
	m := b.m
	nvp := b.nvp
	np := m.PolyCount()
	remaining := 0
	for i := 0; i < np; i++ {
		p := m.Polys[i*2*nvp : i*2*nvp+nvp]
		nv := countPolyVerts(p)
		removed := 0
		for j := 0; j < nv; j++ {
			if p[j] == rem {
				removed++
			}
		}
		if removed > 0 {
			remaining += nv - (removed + 1)
		}
	}
	if remaining <= 2 {
		return false
	}
	// Edges at rem: other end and how many polygons share it. Every match
	// counts (Recast does not stop at the first).
	edges := b.remEdges[:0]
	defer func() { b.remEdges = edges[:0] }()
	for i := 0; i < np; i++ {
		p := m.Polys[i*2*nvp : i*2*nvp+nvp]
		nv := countPolyVerts(p)
		for j, k := 0, nv-1; j < nv; k, j = j, j+1 {
			if p[j] != rem && p[k] != rem {
				continue
			}
			other := int(p[k])
			if p[k] == rem {
				other = int(p[j])
			}
			exists := false
			for e := range edges {
				if edges[e].b == other {
					edges[e].share++
					exists = true
				}
			}
			if !exists {
				edges = append(edges, remEdge{other, 1})
			}
		}
	}
	open := 0
	for _, e := range edges {
		if e.share < 2 {
			open++
		}
	}
	return open <= 2
}

// removeVertex deletes vertex rem and every polygon using it, then fills the
// hole: its boundary is chained from the deleted polygons' edges that do not
// touch rem, triangulated, merged and appended (Recast's removeVertex).
func (b *builder) removeVertex(rem uint16) {
	m := b.m
	nvp := b.nvp
	edges := b.holeEdges[:0]
	defer func() { b.holeEdges = edges[:0] }()
	np := m.PolyCount()
	for i := 0; i < np; i++ {
		p := m.Polys[i*2*nvp : i*2*nvp+nvp]
		nv := countPolyVerts(p)
		has := false
		for j := 0; j < nv; j++ {
			if p[j] == rem {
				has = true
			}
		}
		if !has {
			continue
		}
		for j, k := 0, nv-1; j < nv; k, j = j, j+1 {
			if p[j] != rem && p[k] != rem {
				edges = append(edges, holeEdge{int(p[k]), int(p[j]), m.Regs[i], m.Areas[i]})
			}
		}
		// Delete polygon i: the last polygon takes its place.
		last := np - 1
		if i != last {
			copy(p, m.Polys[last*2*nvp:last*2*nvp+nvp])
		}
		for s := 0; s < nvp; s++ {
			m.Polys[i*2*nvp+nvp+s] = NullIndex
		}
		m.Regs[i] = m.Regs[last]
		m.Areas[i] = m.Areas[last]
		np--
		m.Polys = m.Polys[:np*2*nvp]
		m.Regs = m.Regs[:np]
		m.Areas = m.Areas[:np]
		i--
	}
	// Delete the vertex and renumber.
	m.Verts = append(m.Verts[:rem], m.Verts[rem+1:]...)
	for i := 0; i < np; i++ {
		p := m.Polys[i*2*nvp : i*2*nvp+nvp]
		for j := 0; j < nvp && p[j] != NullIndex; j++ {
			if p[j] > rem {
				p[j]--
			}
		}
	}
	for i := range edges {
		if edges[i].a > int(rem) {
			edges[i].a--
		}
		if edges[i].b > int(rem) {
			edges[i].b--
		}
	}
	if len(edges) == 0 {
		return
	}
	// Chain the hole: start with the first edge's start, then append edges
	// whose end meets the hole's first vertex (at the front) or whose start
	// meets its last vertex (at the back), until no edge fits.
	hole := append(b.hole[:0], edges[0].a)
	hreg := append(b.hreg[:0], edges[0].reg)
	harea := append(b.harea[:0], edges[0].area)
	defer func() { b.hole, b.hreg, b.harea = hole[:0], hreg[:0], harea[:0] }()
	for len(edges) > 0 {
		match := false
		for i := 0; i < len(edges); i++ {
			e := edges[i]
			add := false
			if hole[0] == e.b {
				hole = slices.Insert(hole, 0, e.a)
				hreg = slices.Insert(hreg, 0, e.reg)
				harea = slices.Insert(harea, 0, e.area)
				add = true
			} else if hole[len(hole)-1] == e.a {
				hole = append(hole, e.b)
				hreg = append(hreg, e.reg)
				harea = append(harea, e.area)
				add = true
			}
			if add {
				edges[i] = edges[len(edges)-1]
				edges = edges[:len(edges)-1]
				match = true
				i--
			}
		}
		if !match {
			break
		}
	}
	// Triangulate the hole (a failed triangulation keeps what it found).
	t := &b.tri
	t.xs = t.xs[:0]
	t.zs = t.zs[:0]
	for _, v := range hole {
		t.xs = append(t.xs, int(m.Verts[v][0]))
		t.zs = append(t.zs, int(m.Verts[v][2]))
	}
	t.run(len(hole))
	polys, pregs, pareas := b.hpolys[:0], b.pregs[:0], b.pareas[:0]
	defer func() { b.hpolys, b.pregs, b.pareas = polys[:0], pregs[:0], pareas[:0] }()
	for k := 0; k+2 < len(t.tris); k += 3 {
		a, bb, cc := t.tris[k], t.tris[k+1], t.tris[k+2]
		if a == bb || a == cc || bb == cc {
			continue
		}
		polys = append(polys, uint16(hole[a]), uint16(hole[bb]), uint16(hole[cc]))
		for s := 3; s < nvp; s++ {
			polys = append(polys, NullIndex)
		}
		reg := hreg[a]
		if hreg[a] != hreg[bb] || hreg[bb] != hreg[cc] {
			reg = MultipleRegions
		}
		pregs = append(pregs, reg)
		pareas = append(pareas, harea[a])
	}
	n := len(pregs)
	if n == 0 {
		return
	}
	n = b.mergePolys(polys, n, func(dst, src int, merged bool) {
		if merged {
			if pregs[dst] != pregs[src] {
				pregs[dst] = MultipleRegions
			}
			return
		}
		pregs[dst] = pregs[src]
		pareas[dst] = pareas[src]
	})
	for i := 0; i < n; i++ {
		m.Polys = append(m.Polys, polys[i*nvp:(i+1)*nvp]...)
		for s := 0; s < nvp; s++ {
			m.Polys = append(m.Polys, NullIndex)
		}
		m.Regs = append(m.Regs, pregs[i])
		m.Areas = append(m.Areas, pareas[i])
	}
}

// buildAdjacency fills the neighbour slots: two polygons sharing an edge
// (same two vertices, opposite directions) point at each other (Recast's
// buildMeshAdjacency, after Eric Lengyel).
func (b *builder) buildAdjacency() {
	m := b.m
	nvp := b.nvp
	np := m.PolyCount()
	nv := len(m.Verts)
	first := slices.Grow(b.adjFirst[:0], nv)[:nv]
	for i := range first {
		first[i] = -1
	}
	edges, nextEdge := b.adjEdges[:0], b.adjNext[:0]
	defer func() { b.adjFirst, b.adjEdges, b.adjNext = first[:0], edges[:0], nextEdge[:0] }()
	edgeEnd := func(p []uint16, j int) int32 {
		if j+1 >= nvp || p[j+1] == NullIndex {
			return int32(p[0])
		}
		return int32(p[j+1])
	}
	for i := 0; i < np; i++ {
		p := m.Polys[i*2*nvp : i*2*nvp+nvp]
		for j := 0; j < nvp && p[j] != NullIndex; j++ {
			v0, v1 := int32(p[j]), edgeEnd(p, j)
			if v0 < v1 {
				edges = append(edges, adjEdge{v0, v1, int32(i), int32(i), int32(j), 0})
				nextEdge = append(nextEdge, first[v0])
				first[v0] = int32(len(edges) - 1)
			}
		}
	}
	for i := 0; i < np; i++ {
		p := m.Polys[i*2*nvp : i*2*nvp+nvp]
		for j := 0; j < nvp && p[j] != NullIndex; j++ {
			v0, v1 := int32(p[j]), edgeEnd(p, j)
			if v0 <= v1 {
				continue
			}
			for e := first[v1]; e >= 0; e = nextEdge[e] {
				if edges[e].v1 == v0 && edges[e].p0 == edges[e].p1 {
					edges[e].p1 = int32(i)
					edges[e].slot1 = int32(j)
					break
				}
			}
		}
	}
	for _, e := range edges {
		if e.p0 != e.p1 {
			m.Polys[int(e.p0)*2*nvp+nvp+int(e.slot0)] = uint16(e.p1)
			m.Polys[int(e.p1)*2*nvp+nvp+int(e.slot1)] = uint16(e.p0)
		}
	}
}

// markPortals marks every edge without a neighbour that lies on the tile
// border: side 0 at x = 0, 1 at z = HeightCells, 2 at x = WidthCells, 3 at
// z = 0 (tested in that order).
func (b *builder) markPortals() {
	m := b.m
	nvp := b.nvp
	w, h := uint16(m.WidthCells), uint16(m.HeightCells)
	for i := 0; i < m.PolyCount(); i++ {
		p := m.Polys[i*2*nvp : (i+1)*2*nvp]
		for j := 0; j < nvp && p[j] != NullIndex; j++ {
			if p[nvp+j] != NullIndex {
				continue
			}
			nj := j + 1
			if nj >= nvp || p[nj] == NullIndex {
				nj = 0
			}
			va, vb := m.Verts[p[j]], m.Verts[p[nj]]
			switch {
			case va[0] == 0 && vb[0] == 0:
				p[nvp+j] = PortalFlag | 0
			case va[2] == h && vb[2] == h:
				p[nvp+j] = PortalFlag | 1
			case va[0] == w && vb[0] == w:
				p[nvp+j] = PortalFlag | 2
			case va[2] == 0 && vb[2] == 0:
				p[nvp+j] = PortalFlag | 3
			}
		}
	}
}
