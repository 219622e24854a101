package detour

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"navviz/core/geom"
	"navviz/core/navmesh"
)

// Options are what Write needs beyond the mesh: the level's tile grid
// (dtNavMeshParams' orig, tileWidth, tileHeight, with which Detour finds
// the tile under a point) and the reference width of the Detour build that
// is to load the file.
type Options struct {
	// BoundsM is the level's box, metres (pipeline.TileGrid.BoundsM): its
	// Min is the corner of tile (0, 0), and its y range that of every
	// tile's Detour header, as Recast gives it (Detour clamps a query box
	// to the tile's box, so a tile box only as high as its polygons would
	// let a query far above them find them).
	BoundsM geom.Box3
	// TileWidthM and TileHeightM are the tile's side along x and z,
	// metres (> 0; pipeline.TileGrid.TileSizeM, or a solo build's whole
	// extent).
	TileWidthM, TileHeightM float32
	// PolyRef64 writes for a Detour built with DT_POLYREF64: 64-bit tile
	// references in the container and 16-byte dtLink slots in the tiles.
	PolyRef64 bool
}

func (o *Options) check() error {
	b := &o.BoundsM
	for _, v := range [...]float32{b.Min.X, b.Min.Y, b.Min.Z, b.Max.X, b.Max.Y, b.Max.Z} {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return fmt.Errorf("detour: Options.BoundsM %v is not finite", *b)
		}
	}
	for _, v := range [...]float32{o.TileWidthM, o.TileHeightM} {
		if !(v > 0) || math.IsInf(float64(v), 0) {
			return fmt.Errorf("detour: Options tile size %v x %v m, want finite sizes > 0", o.TileWidthM, o.TileHeightM)
		}
	}
	return nil
}

// Write writes m as an MSET file (docs/format.md §11): the container of
// RecastDemo's saveAll with one DNAV tile per tile of m, in m.Tiles order
// (tile index i, salt 1), each as dtCreateNavMeshData would lay it out
// from the same polygons, with m's run-time flags and areas. Nothing is
// written when m cannot be written (an error says why).
func Write(w io.Writer, m *navmesh.Mesh, opt Options) error {
	data, err := Encode(m, opt)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// Encode returns the bytes Write writes.
func Encode(m *navmesh.Mesh, opt Options) ([]byte, error) {
	if m == nil {
		return nil, fmt.Errorf("detour: Write of a nil Mesh")
	}
	if err := opt.check(); err != nil {
		return nil, err
	}
	refs := m.Tiles()
	if len(refs) == 0 {
		return nil, fmt.Errorf("detour: the mesh has no tiles (Detour needs at least one)")
	}
	maxPolys := 1
	var links []navmesh.OffMeshLink // every off-mesh link of the mesh
	for _, ref := range refs {
		t, err := m.Tile(ref)
		if err != nil {
			return nil, err
		}
		maxPolys = max(maxPolys, len(t.Polys)+len(t.OffMesh))
		links = append(links, t.OffMesh...)
	}
	maxTiles := int32(nextPow2(uint32(len(refs))))
	mp := int32(nextPow2(uint32(maxPolys)))
	tileBits, polyBits, saltBits := refBits(maxTiles, mp, opt.PolyRef64)
	if !opt.PolyRef64 && saltBits < minSaltBits32 {
		return nil, fmt.Errorf("detour: %d tiles of up to %d polygons need %d tile and %d polygon bits, leaving %d of a 32-bit reference for the salt (Detour wants %d): write for DT_POLYREF64 (--polyref64)",
			len(refs), maxPolys, tileBits, polyBits, saltBits, minSaltBits32)
	}
	if opt.PolyRef64 && (uint64(len(refs)) > 1<<tileBits64 || uint64(maxPolys) > 1<<polyBits64) {
		return nil, fmt.Errorf("detour: %d tiles of up to %d polygons do not fit DT_POLYREF64's %d tile and %d polygon bits", len(refs), maxPolys, tileBits64, polyBits64)
	}
	e := &enc{bo: binary.LittleEndian}
	e.i32(setMagic)
	e.i32(setVersion)
	e.i32(int32(len(refs)))
	e.f32(opt.BoundsM.Min.X)
	e.f32(opt.BoundsM.Min.Y)
	e.f32(opt.BoundsM.Min.Z)
	e.f32(opt.TileWidthM)
	e.f32(opt.TileHeightM)
	e.i32(maxTiles)
	e.i32(mp)
	for i, ref := range refs {
		tileRef := uint64(1)<<(polyBits+tileBits) | uint64(i)<<polyBits
		data, err := encodeTile(m, ref, &opt, links)
		if err != nil {
			t, _ := m.Tile(ref)
			return nil, fmt.Errorf("detour: tile (%d, %d) layer %d: %w", t.Header.TileX, t.Header.TileZ, t.Header.Layer, err)
		}
		if opt.PolyRef64 {
			e.u64(tileRef)
			e.i32(int32(len(data)))
			e.zero(tileHdr64Size - 12)
		} else {
			e.u32(uint32(tileRef))
			e.i32(int32(len(data)))
		}
		e.b = append(e.b, data...)
	}
	return e.b, nil
}

// tileBox returns the Detour header bounds of tile t: its vertices' and
// detail vertices' box (navmesh's BMin, BMax) grown to its cell of the
// tile grid in x and z and to the level's y range, which is what Recast
// gives a tile; Detour clamps queries to it and classifies off-mesh link
// ends by it.
func tileBox(t *navmesh.Tile, opt *Options) (bmin, bmax geom.Vec3) {
	h := &t.Header
	o := opt.BoundsM.Min
	bmin, bmax = h.BMin, h.BMax
	bmin.Y, bmax.Y = min(bmin.Y, o.Y), max(bmax.Y, opt.BoundsM.Max.Y)
	x0 := float32(float64(o.X) + float64(float64(h.TileX)*float64(opt.TileWidthM)))
	z0 := float32(float64(o.Z) + float64(float64(h.TileZ)*float64(opt.TileHeightM)))
	x1 := float32(float64(o.X) + float64(float64(h.TileX+1)*float64(opt.TileWidthM)))
	z1 := float32(float64(o.Z) + float64(float64(h.TileZ+1)*float64(opt.TileHeightM)))
	bmin.X, bmin.Z = min(bmin.X, x0), min(bmin.Z, z0)
	bmax.X, bmax.Z = max(bmax.X, x1), max(bmax.Z, z1)
	return bmin, bmax
}

// classify is Detour's classifyOffMeshPoint: the direction (0..7, as the
// portal directions) of the neighbour tile p lies towards, 0xff inside.
func classify(p, bmin, bmax geom.Vec3) uint8 {
	const xp, zp, xm, zm = 1, 2, 4, 8
	code := 0
	if p.X >= bmax.X {
		code |= xp
	}
	if p.Z >= bmax.Z {
		code |= zp
	}
	if p.X < bmin.X {
		code |= xm
	}
	if p.Z < bmin.Z {
		code |= zm
	}
	switch code {
	case xp:
		return 0
	case xp | zp:
		return 1
	case zp:
		return 2
	case xm | zp:
		return 3
	case xm:
		return 4
	case xm | zm:
		return 5
	case zm:
		return 6
	case xp | zm:
		return 7
	}
	return 0xff
}

// encodeTile returns the DNAV data of tile ref of m (dtCreateNavMeshData).
func encodeTile(m *navmesh.Mesh, ref navmesh.TileRef, opt *Options, level []navmesh.OffMeshLink) ([]byte, error) {
	t, err := m.Tile(ref)
	if err != nil {
		return nil, err
	}
	np, no, nv := len(t.Polys), len(t.OffMesh), len(t.Verts)
	if np >= extLink-1 {
		return nil, fmt.Errorf("%d polygons: Detour's neighbour entries (index+1 below 0x8000) hold at most %d", np, extLink-2)
	}
	if nv+2*no >= 0xffff {
		return nil, fmt.Errorf("%d vertices and %d off-mesh links: Detour holds fewer than 65535 vertices (2 per link)", nv, no)
	}
	bmin, bmax := tileBox(t, opt)
	cs := t.Header.CellSizeM

	// Link slots: dtCreateNavMeshData's count (every edge, twice every
	// portal edge, twice every off-mesh link end inside the tile), or the
	// links this mesh made if those are more.
	edges, portals := 0, 0
	for i := range t.Polys {
		p := &t.Polys[i]
		for j := 0; j < int(p.VertCount); j++ {
			edges++
			if p.Neis[j]&navmesh.ExtLink != 0 && p.Neis[j] != navmesh.NullIndex {
				portals++
			}
		}
	}
	ends := no // the starts of the links the tile holds are inside it
	for i := range level {
		if classify(level[i].EndM, bmin, bmax) == 0xff {
			ends++
		}
	}
	maxLinks := edges + 2*portals + 2*ends
	have := 0
	for i := range np + no {
		ls, err := m.Links(ref.Poly(uint32(i)))
		if err != nil {
			return nil, err
		}
		have += len(ls)
	}
	maxLinks = max(maxLinks, have)
	linkSize := int64(link32Size)
	if opt.PolyRef64 {
		linkSize = link64Size
	}

	ndv, ndt := len(t.DetailVerts), len(t.DetailTris)
	c := counts{verts: int64(nv + 2*no), polys: int64(np + no), links: int64(maxLinks),
		detailMeshes: int64(np), detailVerts: int64(ndv), detailTris: int64(ndt), bvNodes: int64(2 * np), offMesh: int64(no)}
	sizes, total := c.sizes(linkSize)
	if total > math.MaxInt32 {
		return nil, fmt.Errorf("tile data of %d bytes, more than Detour's int dataSize holds", total)
	}
	e := &enc{bo: binary.LittleEndian, b: make([]byte, 0, total)}
	e.i32(tileMagic)
	e.i32(tileVersion)
	e.i32(t.Header.TileX)
	e.i32(t.Header.TileZ)
	e.i32(int32(t.Header.Layer))
	e.u32(0) // userId
	for _, n := range [...]int{np + no, nv + 2*no, maxLinks, np, ndv, ndt, 2 * np, no, np} {
		e.i32(int32(n))
	}
	e.f32(t.Header.WalkableHeightM)
	e.f32(t.Header.WalkableRadiusM)
	e.f32(t.Header.WalkableClimbM)
	for _, v := range [...]geom.Vec3{bmin, bmax} {
		e.f32(v.X)
		e.f32(v.Y)
		e.f32(v.Z)
	}
	e.f32(1 / cs) // bvQuantFactor
	pad := func(start int, size int64) { e.zero(int(int64(start)+size) - len(e.b)) }

	start := len(e.b)
	for _, v := range t.Verts {
		e.f32(v.X)
		e.f32(v.Y)
		e.f32(v.Z)
	}
	for _, l := range t.OffMesh {
		for _, v := range [...]geom.Vec3{l.StartM, l.EndM} {
			e.f32(v.X)
			e.f32(v.Y)
			e.f32(v.Z)
		}
	}
	pad(start, sizes[0])

	start = len(e.b)
	for i := range np + no {
		flags, err := m.PolyFlags(ref.Poly(uint32(i)))
		if err != nil {
			return nil, err
		}
		area, err := m.PolyArea(ref.Poly(uint32(i)))
		if err != nil {
			return nil, err
		}
		e.u32(0) // firstLink: made on load
		var verts, neis [vertsPerPoly]uint16
		vc, typ := uint8(2), uint8(polyOffMesh)
		if i < np {
			p := &t.Polys[i]
			vc, typ = p.VertCount, polyGround
			for j := 0; j < int(p.VertCount); j++ {
				verts[j] = p.Verts[j]
				switch n := p.Neis[j]; {
				case n == navmesh.NullIndex:
					neis[j] = 0
				case n&navmesh.ExtLink != 0:
					neis[j] = n
				default:
					neis[j] = n + 1
				}
			}
		} else {
			k := i - np
			verts[0], verts[1] = uint16(nv+2*k), uint16(nv+2*k+1)
		}
		for _, v := range verts {
			e.u16(v)
		}
		for _, v := range neis {
			e.u16(v)
		}
		e.u16(flags)
		e.u8(vc)
		e.u8(area&0x3f | typ<<6)
	}
	pad(start, sizes[1])

	e.zero(int(sizes[2])) // links: made on load

	start = len(e.b)
	for i, d := range t.DetailMeshes {
		if d.VertCount > 0xff || d.TriCount > 0xff {
			return nil, fmt.Errorf("polygon %d has %d detail vertices and %d detail triangles, Detour holds at most 255 each", i, d.VertCount, d.TriCount)
		}
		e.u32(d.VertBase)
		e.u32(d.TriBase)
		e.u8(uint8(d.VertCount))
		e.u8(uint8(d.TriCount))
		e.zero(2)
	}
	pad(start, sizes[3])
	start = len(e.b)
	for _, v := range t.DetailVerts {
		e.f32(v.X)
		e.f32(v.Y)
		e.f32(v.Z)
	}
	pad(start, sizes[4])
	start = len(e.b)
	for _, tr := range t.DetailTris {
		e.b = append(e.b, tr[:]...)
	}
	pad(start, sizes[5])

	start = len(e.b)
	for _, n := range bvTree(t, bmin, cs) {
		for _, v := range n.BMin {
			e.u16(v)
		}
		for _, v := range n.BMax {
			e.u16(v)
		}
		e.i32(n.I)
	}
	pad(start, sizes[6]) // dtCreateNavMeshData reserves 2n nodes; the last stays zero

	start = len(e.b)
	for k, l := range t.OffMesh {
		for _, v := range [...]geom.Vec3{l.StartM, l.EndM} {
			e.f32(v.X)
			e.f32(v.Y)
			e.f32(v.Z)
		}
		e.f32(l.RadiusM)
		e.u16(uint16(np + k))
		var f uint8
		if l.Bidirectional {
			f = offMeshBidir
		}
		e.u8(f)
		e.u8(classify(l.EndM, bmin, bmax))
		e.u32(l.UserID)
	}
	pad(start, sizes[7])
	if int64(len(e.b)) != total {
		return nil, fmt.Errorf("internal error: wrote %d bytes of tile data, want %d", len(e.b), total)
	}
	return e.b, nil
}

// bvTree returns t's BV tree with its boxes quantized as
// dtCreateNavMeshData's createBVTree does: (int)((v - bmin) * (1/cs)) in
// float32, truncated and clamped to 0..65535 for both corners, bmin the
// Detour header's (which may lie below t's own). The tree's shape is
// navmesh's (a tree of any split is valid for Detour's queries).
func bvTree(t *navmesh.Tile, bmin geom.Vec3, cs float32) []navmesh.BVNode {
	qf := 1 / cs
	q := func(v, b float32) uint16 {
		f := float32(v-b) * qf
		return uint16(max(0, min(float64(f), 0xffff)))
	}
	nodes := append([]navmesh.BVNode(nil), t.BVTree...)
	for i := len(nodes) - 1; i >= 0; i-- {
		n := &nodes[i]
		if n.I >= 0 {
			lo, hi := polyBounds(t, int(n.I))
			n.BMin = [3]uint16{q(lo.X, bmin.X), q(lo.Y, bmin.Y), q(lo.Z, bmin.Z)}
			n.BMax = [3]uint16{q(hi.X, bmin.X), q(hi.Y, bmin.Y), q(hi.Z, bmin.Z)}
			continue
		}
		l, span := &nodes[i+1], 1
		if l.I < 0 {
			span = int(-l.I)
		}
		r := &nodes[i+1+span]
		for a := range 3 {
			n.BMin[a], n.BMax[a] = min(l.BMin[a], r.BMin[a]), max(l.BMax[a], r.BMax[a])
		}
	}
	return nodes
}

// polyBounds returns the box of polygon i's vertices and detail vertices.
func polyBounds(t *navmesh.Tile, i int) (lo, hi geom.Vec3) {
	p := &t.Polys[i]
	box := geom.EmptyBox()
	for j := 0; j < int(p.VertCount); j++ {
		box = box.Extend(t.Verts[p.Verts[j]])
	}
	d := t.DetailMeshes[i]
	for _, v := range t.DetailVerts[d.VertBase : d.VertBase+uint32(d.VertCount)] {
		box = box.Extend(v)
	}
	return box.Min, box.Max
}
