package detour

import (
	"encoding/binary"
	"fmt"
	"math"

	"navviz/core/geom"
	"navviz/core/navmesh"
)

// decodeTile reads DNAV tile data in byte order bo and converts it to a
// navviz tile (docs/format.md §11.5); its derived fields (bounds, BV tree)
// are left to navmesh.FinishTile. linkSize is the size of a dtLink slot,
// or 0 to take the one (12 or 16 bytes) that makes the sections fill the
// data exactly; ref64 reports a 16-byte one.
func decodeTile(data []byte, bo binary.ByteOrder, linkSize int) (h TileHeader, t *navmesh.Tile, ref64 bool, err error) {
	if len(data) < headerSize {
		return h, nil, false, fmt.Errorf("DNAV tile of %d bytes, shorter than its %d-byte header", len(data), headerSize)
	}
	d := dec{b: data, bo: bo}
	if magic := d.u32(); magic != tileMagic {
		return h, nil, false, fmt.Errorf("tile data starts with % x, not the DNAV magic", data[:4])
	}
	h.Version = d.i32()
	if h.Version != tileVersion {
		return h, nil, false, fmt.Errorf("DNAV version %d, want %d (Detour 1.6's)", h.Version, tileVersion)
	}
	h.X, h.Y, h.Layer = d.i32(), d.i32(), d.i32()
	h.UserID = d.u32()
	h.PolyCount, h.VertCount, h.MaxLinkCount = d.i32(), d.i32(), d.i32()
	h.DetailMeshCount, h.DetailVertCount, h.DetailTriCount = d.i32(), d.i32(), d.i32()
	h.BVNodeCount, h.OffMeshConCount, h.OffMeshBase = d.i32(), d.i32(), d.i32()
	h.WalkableHeightM, h.WalkableRadiusM, h.WalkableClimbM = d.f32(), d.f32(), d.f32()
	h.BMin, h.BMax = d.vec(), d.vec()
	h.BVQuantFactor = d.f32()

	for _, c := range []struct {
		name string
		v    int32
	}{{"polyCount", h.PolyCount}, {"vertCount", h.VertCount}, {"maxLinkCount", h.MaxLinkCount},
		{"detailMeshCount", h.DetailMeshCount}, {"detailVertCount", h.DetailVertCount},
		{"detailTriCount", h.DetailTriCount}, {"bvNodeCount", h.BVNodeCount},
		{"offMeshConCount", h.OffMeshConCount}, {"offMeshBase", h.OffMeshBase}} {
		if c.v < 0 {
			return h, nil, false, fmt.Errorf("DNAV %s %d is negative", c.name, c.v)
		}
	}
	c := counts{verts: int64(h.VertCount), polys: int64(h.PolyCount), links: int64(h.MaxLinkCount),
		detailMeshes: int64(h.DetailMeshCount), detailVerts: int64(h.DetailVertCount),
		detailTris: int64(h.DetailTriCount), bvNodes: int64(h.BVNodeCount), offMesh: int64(h.OffMeshConCount)}
	sizes, total := c.sizes(int64(linkSize))
	if linkSize == 0 {
		s32, t32 := c.sizes(link32Size)
		s64, t64 := c.sizes(link64Size)
		switch int64(len(data)) {
		case t32:
			sizes, total = s32, t32
		case t64:
			sizes, total, ref64 = s64, t64, true
		default:
			return h, nil, false, fmt.Errorf("DNAV tile of %d bytes, but its counts make %d (32-bit references) or %d (DT_POLYREF64)", len(data), t32, t64)
		}
	}
	if total > int64(len(data)) {
		return h, nil, false, fmt.Errorf("DNAV tile of %d bytes, but its counts make %d", len(data), total)
	}

	// The polygons: ground polygons first, then one per off-mesh
	// connection (dtCreateNavMeshData's order).
	np, no := int(h.OffMeshBase), int(h.OffMeshConCount)
	if np+no != int(h.PolyCount) || int(h.DetailMeshCount) != np {
		return h, nil, false, fmt.Errorf("DNAV polyCount %d, offMeshBase %d, offMeshConCount %d, detailMeshCount %d: want polyCount = offMeshBase + offMeshConCount and detailMeshCount = offMeshBase", h.PolyCount, h.OffMeshBase, h.OffMeshConCount, h.DetailMeshCount)
	}
	if np < 1 || np >= extLink-1 {
		return h, nil, false, fmt.Errorf("DNAV tile has %d ground polygons, want 1..%d", np, extLink-2)
	}
	if h.Layer > math.MaxUint8 {
		return h, nil, false, fmt.Errorf("DNAV layer %d, navviz holds layers 0..255", h.Layer)
	}
	cs := 1 / h.BVQuantFactor
	if !(h.BVQuantFactor > 0) || math.IsInf(float64(cs), 0) || !(cs > 0) {
		return h, nil, false, fmt.Errorf("DNAV bvQuantFactor %v, want a finite number > 0 (1 / cell size)", h.BVQuantFactor)
	}
	t = &navmesh.Tile{Header: navmesh.Header{
		TileX: h.X, TileZ: h.Y, Layer: uint8(h.Layer), NVP: vertsPerPoly,
		WalkableHeightM: h.WalkableHeightM, WalkableRadiusM: h.WalkableRadiusM, WalkableClimbM: h.WalkableClimbM,
		// Detour keeps no cell height: the cell size stands in (docs/format.md §11.5).
		CellSizeM: cs, CellHeightM: cs,
	}}
	off := headerSize
	verts := make([]geom.Vec3, h.VertCount)
	d.off = off
	for i := range verts {
		verts[i] = d.vec()
	}
	off += int(sizes[0])

	type rec struct {
		verts, neis [vertsPerPoly]uint16
		flags       uint16
		vc, at      uint8
	}
	recs := make([]rec, h.PolyCount)
	d.off = off
	for i := range recs {
		r := &recs[i]
		d.off += 4 // firstLink
		for j := range r.verts {
			r.verts[j] = d.u16()
		}
		for j := range r.neis {
			r.neis[j] = d.u16()
		}
		r.flags, r.vc, r.at = d.u16(), d.u8(), d.u8()
	}
	off += int(sizes[1]) + int(sizes[2]) // the links are made on load

	t.Polys = make([]navmesh.Poly, np)
	for i := range np {
		r := &recs[i]
		if r.at>>6 != polyGround {
			return h, nil, false, fmt.Errorf("DNAV polygon %d (below offMeshBase %d) has type %d, want %d (ground)", i, np, r.at>>6, polyGround)
		}
		if r.vc < navmesh.MinVertsPerPoly || r.vc > vertsPerPoly {
			return h, nil, false, fmt.Errorf("DNAV polygon %d has %d vertices, want %d..%d", i, r.vc, navmesh.MinVertsPerPoly, vertsPerPoly)
		}
		p := &t.Polys[i]
		p.VertCount, p.Flags, p.Area = r.vc, r.flags, r.at&0x3f
		for j := range vertsPerPoly {
			p.Verts[j], p.Neis[j] = navmesh.NullIndex, navmesh.NullIndex
			if j >= int(r.vc) {
				continue
			}
			p.Verts[j] = r.verts[j]
			switch n := r.neis[j]; {
			case n == 0: // a wall
			case n&extLink != 0:
				if dir := n &^ extLink; dir > 6 || dir%2 != 0 {
					return h, nil, false, fmt.Errorf("DNAV polygon %d edge %d is a portal towards direction %d, navviz links only 0, 2, 4, 6", i, j, dir)
				}
				p.Neis[j] = n
			case int(n) > np:
				return h, nil, false, fmt.Errorf("DNAV polygon %d edge %d names polygon %d, beyond the %d ground polygons", i, j, n-1, np)
			default:
				p.Neis[j] = n - 1
			}
		}
	}

	// Detail meshes, repacked in polygon order (navviz wants them packed).
	if sizes[3] > 0 && off+int(sizes[3]) > len(data) {
		return h, nil, false, fmt.Errorf("DNAV detail meshes past the end")
	}
	type pd struct {
		vb, tb uint32
		vc, tc uint8
	}
	pds := make([]pd, np)
	d.off = off
	for i := range pds {
		pds[i] = pd{vb: d.u32(), tb: d.u32(), vc: d.u8(), tc: d.u8()}
		d.off += 2
	}
	off += int(sizes[3])
	dverts := make([]geom.Vec3, h.DetailVertCount)
	d.off = off
	for i := range dverts {
		dverts[i] = d.vec()
	}
	off += int(sizes[4])
	dtris := data[off : off+detailTriSize*int(h.DetailTriCount)]
	off += int(sizes[5]) + int(sizes[6]) // navviz builds its own BV tree
	t.DetailMeshes = make([]navmesh.DetailMesh, np)
	for i, x := range pds {
		if uint64(x.vb)+uint64(x.vc) > uint64(h.DetailVertCount) || uint64(x.tb)+uint64(x.tc) > uint64(h.DetailTriCount) {
			return h, nil, false, fmt.Errorf("DNAV polygon %d detail mesh: vertices %d+%d of %d, triangles %d+%d of %d", i, x.vb, x.vc, h.DetailVertCount, x.tb, x.tc, h.DetailTriCount)
		}
		t.DetailMeshes[i] = navmesh.DetailMesh{VertBase: uint32(len(t.DetailVerts)), TriBase: uint32(len(t.DetailTris)), VertCount: uint16(x.vc), TriCount: uint16(x.tc)}
		t.DetailVerts = append(t.DetailVerts, dverts[x.vb:x.vb+uint32(x.vc)]...)
		for k := range uint32(x.tc) {
			o := detailTriSize * (x.tb + k)
			t.DetailTris = append(t.DetailTris, [4]uint8(dtris[o:o+4]))
		}
	}

	// Off-mesh connections; their polygons give flags and area.
	d.off = off
	for k := range no {
		var pos [2]geom.Vec3
		pos[0], pos[1] = d.vec(), d.vec()
		rad := d.f32()
		poly, flags, _, user := d.u16(), d.u8(), d.u8(), d.u32()
		if int(poly) < np || int(poly) >= np+no {
			return h, nil, false, fmt.Errorf("DNAV off-mesh connection %d names polygon %d, want one of the off-mesh polygons %d..%d", k, poly, np, np+no-1)
		}
		r := &recs[poly]
		if r.at>>6 != polyOffMesh {
			return h, nil, false, fmt.Errorf("DNAV off-mesh connection %d names polygon %d of type %d, want %d", k, poly, r.at>>6, polyOffMesh)
		}
		t.OffMesh = append(t.OffMesh, navmesh.OffMeshLink{StartM: pos[0], EndM: pos[1], RadiusM: rad,
			Flags: r.flags, Area: r.at & 0x3f, Bidirectional: flags&offMeshBidir != 0, UserID: user})
	}
	// The ground polygons' vertices only: the off-mesh ones follow them.
	nv := len(verts) - 2*no
	if nv < 0 {
		return h, nil, false, fmt.Errorf("DNAV vertCount %d, fewer than the %d of its %d off-mesh connections", h.VertCount, 2*no, no)
	}
	t.Verts = verts[:nv]
	return h, t, ref64, nil
}
