package navmesh

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"navviz/core/geom"
)

// ErrCorruptTile is wrapped by every error DecodeTile returns for data that
// breaks the tile format.
var ErrCorruptTile = errors.New("navmesh: corrupt tile data")

func corrupt(off int, format string, args ...any) error {
	return fmt.Errorf("%w: offset %d: %s", ErrCorruptTile, off, fmt.Sprintf(format, args...))
}

// reader reads little-endian values from data; callers check the length
// first, and a read past the end yields zero bytes instead of panicking.
type reader struct {
	data []byte
	off  int
}

func (r *reader) bytes(n int) []byte {
	if n < 0 || r.off+n > len(r.data) || r.off+n < r.off {
		r.off = len(r.data)
		return make([]byte, max(n, 0))
	}
	b := r.data[r.off : r.off+n]
	r.off += n
	return b
}

func (r *reader) u8() uint8   { return r.bytes(1)[0] }
func (r *reader) u16() uint16 { return binary.LittleEndian.Uint16(r.bytes(2)) }
func (r *reader) u32() uint32 { return binary.LittleEndian.Uint32(r.bytes(4)) }
func (r *reader) u64() uint64 { return binary.LittleEndian.Uint64(r.bytes(8)) }
func (r *reader) f32() float32 {
	return math.Float32frombits(r.u32())
}
func (r *reader) vec() geom.Vec3 {
	x := r.f32()
	y := r.f32()
	return geom.Vec3{X: x, Y: y, Z: r.f32()}
}

// finiteVecs reads n vectors, each finite; the error names the first that
// is not as what (such as "vertex") with its index and offset.
func (r *reader) finiteVecs(n int, what string) ([]geom.Vec3, error) {
	off := r.off
	vs := make([]geom.Vec3, n)
	for i := range vs {
		vs[i] = r.vec()
	}
	if err := checkFinite(vs, off, what); err != nil {
		return nil, err
	}
	return vs, nil
}

// checkFinite reports the first vector of vs (stored from offset off) that
// is not finite, as what (such as "vertex") with its index and offset.
func checkFinite(vs []geom.Vec3, off int, what string) error {
	for i, v := range vs {
		if !finiteVec(v) {
			return corrupt(off+vertSize*i, "%s %d = %v is not finite", what, i, v)
		}
	}
	return nil
}

// checkCounts checks the header's vertex, polygon and BV node counts.
func checkCounts(nv, np, nbv uint64) error {
	if nv < MinVertsPerPoly || nv > MaxTileVerts {
		return corrupt(16, "vertex count %d, want %d..%d", nv, MinVertsPerPoly, MaxTileVerts)
	}
	if np < 1 || np > MaxTilePolys {
		return corrupt(20, "polygon count %d, want 1..%d", np, MaxTilePolys)
	}
	if nbv != 2*np-1 {
		return corrupt(32, "BV node count %d, want 2*polygons-1 = %d", nbv, 2*np-1)
	}
	return nil
}

// checkHeaderFloats checks the header's agent sizes and cell sizes.
func checkHeaderFloats(h *Header) error {
	for i, f := range []struct {
		name string
		v    float32
		want string
	}{{"walkable height", h.WalkableHeightM, ">= 0"}, {"walkable radius", h.WalkableRadiusM, ">= 0"},
		{"walkable climb", h.WalkableClimbM, ">= 0"}, {"cell size", h.CellSizeM, "> 0"}, {"cell height", h.CellHeightM, "> 0"}} {
		if !finite32(f.v) || f.v < 0 || (f.want == "> 0" && f.v == 0) {
			return corrupt(64+4*i, "%s %v m, want a finite number %s", f.name, f.v, f.want)
		}
	}
	return nil
}

// checkDetailMeshes checks that the detail meshes (stored from offset off)
// take the ndv detail vertices and ndt triangles in turn.
func checkDetailMeshes(ds []DetailMesh, off int, ndv, ndt uint64) error {
	var vsum, tsum uint64
	for i, d := range ds {
		dOff := off + detailMeshSize*i
		if uint64(d.VertBase) != vsum || uint64(d.TriBase) != tsum {
			return corrupt(dOff, "detail mesh %d starts at vertex %d, triangle %d; want the running sums %d, %d",
				i, d.VertBase, d.TriBase, vsum, tsum)
		}
		vsum += uint64(d.VertCount)
		tsum += uint64(d.TriCount)
		if vsum > ndv || tsum > ndt {
			return corrupt(dOff, "detail mesh %d ends at vertex %d, triangle %d, beyond the %d detail vertices, %d triangles",
				i, vsum, tsum, ndv, ndt)
		}
	}
	if vsum != ndv || tsum != ndt {
		return corrupt(off+detailMeshSize*len(ds), "detail meshes cover %d vertices and %d triangles, header says %d and %d", vsum, tsum, ndv, ndt)
	}
	return nil
}

// checkDetailTris checks every detail triangle (stored from offset triOff)
// against its polygon's local vertices and the edge flag bits.
func checkDetailTris(t *Tile, triOff int) error {
	for i, d := range t.DetailMeshes {
		n := int(t.Polys[i].VertCount) + int(d.VertCount)
		for k := int(d.TriBase); k < int(d.TriBase)+int(d.TriCount); k++ {
			tr := t.DetailTris[k]
			for c := 0; c < 3; c++ {
				if int(tr[c]) >= n {
					return corrupt(triOff+4*k+c, "detail triangle %d (polygon %d) corner %d = %d, beyond the polygon's %d local vertices", k, i, c, tr[c], n)
				}
			}
			if tr[3]&^DetailEdgeMask != 0 {
				return corrupt(triOff+4*k+3, "detail triangle %d flags 0x%02x use bits outside 0x%02x", k, tr[3], DetailEdgeMask)
			}
		}
	}
	return nil
}

// checkBounds checks the header values derived from the records: the
// vertical origin and the bounds.
func checkBounds(t *Tile) error {
	h := &t.Header
	lowest, box := t.vertBounds()
	if math.Float32bits(h.OriginY) != math.Float32bits(lowest) {
		return corrupt(36, "vertical origin %v m, want the lowest vertex y %v m", h.OriginY, lowest)
	}
	if !sameBits(h.BMin, box.Min) || !sameBits(h.BMax, box.Max) {
		return corrupt(40, "bounds %v..%v m, want the vertices' bounds %v..%v m", h.BMin, h.BMax, box.Min, box.Max)
	}
	return nil
}

// check runs on a tile in memory every check DecodeTile runs on the same
// tile's data, in the same order, with the same errors and offsets (the
// layout of docs/format.md): a tile that passes encodes to data DecodeTile
// accepts, and decodes back to a tile equal to it.
func (t *Tile) check() error {
	off, err := t.checkRecords()
	if err != nil {
		return err
	}
	if err := checkBounds(t); err != nil {
		return err
	}
	return t.checkDerived(off)
}

// checkRecords runs check's checks of t's own records, everything before
// the bounds, the BV tree and the off-mesh records, and returns the offset
// of the BV tree.
func (t *Tile) checkRecords() (int, error) {
	h := &t.Header
	nvp := int(h.NVP)
	if nvp < MinVertsPerPoly || nvp > MaxVertsPerPoly {
		return 0, corrupt(7, "NVP %d, want %d..%d", h.NVP, MinVertsPerPoly, MaxVertsPerPoly)
	}
	np := len(t.Polys)
	if err := checkCounts(uint64(len(t.Verts)), uint64(np), uint64(len(t.BVTree))); err != nil {
		return 0, err
	}
	if len(t.DetailMeshes) != np {
		return 0, corrupt(24, "%d detail meshes for %d polygons", len(t.DetailMeshes), np)
	}
	if err := checkHeaderFloats(h); err != nil {
		return 0, err
	}
	if len(t.OffMesh) > MaxTileOffMesh {
		return 0, corrupt(84, "off-mesh link count %d, want at most %d", len(t.OffMesh), MaxTileOffMesh)
	}
	off := t.headerSize()
	if err := checkFinite(t.Verts, off, "vertex"); err != nil {
		return 0, err
	}
	off += vertSize * len(t.Verts)
	polyOff, recSize := off, polyRecordSize(nvp)
	for i := range t.Polys {
		if err := checkPolyRecord(t, i, polyOff+i*recSize); err != nil {
			return 0, err
		}
	}
	if err := t.checkNeighbours(); err != nil {
		return 0, err
	}
	off += recSize * np
	if err := checkDetailMeshes(t.DetailMeshes, off, uint64(len(t.DetailVerts)), uint64(len(t.DetailTris))); err != nil {
		return 0, err
	}
	off += detailMeshSize * np
	if err := checkFinite(t.DetailVerts, off, "detail vertex"); err != nil {
		return 0, err
	}
	off += vertSize * len(t.DetailVerts)
	if err := checkDetailTris(t, off); err != nil {
		return 0, err
	}
	off += detailTriSize * len(t.DetailTris)
	return off, nil
}

// checkDerived runs check's checks of the BV tree (at offset off) and of
// the off-mesh records.
func (t *Tile) checkDerived(off int) error {
	if err := checkBVTree(t, off); err != nil {
		return err
	}
	off += bvNodeSize * len(t.BVTree)
	for k := range t.OffMesh {
		if err := t.OffMesh[k].Validate(); err != nil {
			return corrupt(off+OffMeshRecordSize*k, "off-mesh link %d: %v", k, err)
		}
	}
	return nil
}

// finite32 reports whether v is a number other than an infinity: its
// exponent bits are not all ones.
func finite32(v float32) bool { return math.Float32bits(v)&0x7f800000 != 0x7f800000 }

// finiteVec reports whether every component of v is finite (geom's
// Vec3.Finite by the exponent bits, for the per-vertex checks).
func finiteVec(v geom.Vec3) bool { return finite32(v.X) && finite32(v.Y) && finite32(v.Z) }

// DecodeTile parses and checks tile data (docs/format.md, "Tile data"). It
// never panics; corrupt data gives an error wrapping ErrCorruptTile that
// names the field and its byte offset. The returned Tile shares nothing with
// data. A Tile that DecodeTile accepts encodes back to the same bytes.
func DecodeTile(data []byte) (*Tile, error) {
	if len(data) < TileHeaderSize {
		return nil, corrupt(0, "%d bytes, shorter than the %d-byte header", len(data), TileHeaderSize)
	}
	r := &reader{data: data}
	if m := string(r.bytes(4)); m != TileMagic {
		return nil, corrupt(0, "magic %q, want %q", m, TileMagic)
	}
	version := r.u16()
	if version != TileVersion && version != TileVersionNoOffMesh {
		return nil, corrupt(4, "version %d, want %d or %d", version, TileVersionNoOffMesh, TileVersion)
	}
	headerSize := TileHeaderSize
	if version == TileVersion {
		headerSize = TileHeaderSizeV2
		if len(data) < headerSize {
			return nil, corrupt(0, "%d bytes, shorter than the %d-byte version-%d header", len(data), headerSize, version)
		}
	}
	t := &Tile{}
	h := &t.Header
	h.Layer = r.u8()
	h.NVP = r.u8()
	if h.NVP < MinVertsPerPoly || h.NVP > MaxVertsPerPoly {
		return nil, corrupt(7, "NVP %d, want %d..%d", h.NVP, MinVertsPerPoly, MaxVertsPerPoly)
	}
	h.TileX = int32(r.u32())
	h.TileZ = int32(r.u32())
	nv := r.u32()
	np := r.u32()
	ndv := r.u32()
	ndt := r.u32()
	nbv := r.u32()
	if err := checkCounts(uint64(nv), uint64(np), uint64(nbv)); err != nil {
		return nil, err
	}
	var noff uint32
	if version == TileVersion {
		noff = binary.LittleEndian.Uint32(data[84:88])
		if noff < 1 || noff > MaxTileOffMesh {
			return nil, corrupt(84, "off-mesh link count %d, want 1..%d in a version-%d tile (a tile without off-mesh links is version %d)",
				noff, MaxTileOffMesh, version, TileVersionNoOffMesh)
		}
	}
	nvp := int(h.NVP)
	want := int64(headerSize) + OffMeshRecordSize*int64(noff) + vertSize*int64(nv) + int64(polyRecordSize(nvp))*int64(np) +
		detailMeshSize*int64(np) + vertSize*int64(ndv) + detailTriSize*int64(ndt) + bvNodeSize*int64(nbv)
	if int64(len(data)) != want {
		return nil, corrupt(24, "the counts (%d verts, %d polygons, %d detail verts, %d detail tris, %d BV nodes, %d off-mesh links) need %d bytes, data has %d",
			nv, np, ndv, ndt, nbv, noff, want, len(data))
	}
	h.OriginY = r.f32()
	h.BMin = r.vec()
	h.BMax = r.vec()
	h.WalkableHeightM = r.f32()
	h.WalkableRadiusM = r.f32()
	h.WalkableClimbM = r.f32()
	h.CellSizeM = r.f32()
	h.CellHeightM = r.f32()
	if err := checkHeaderFloats(h); err != nil {
		return nil, err
	}
	r.off = headerSize

	// Vertices.
	var err error
	if t.Verts, err = r.finiteVecs(int(nv), "vertex"); err != nil {
		return nil, err
	}

	// Polygons.
	t.Polys = make([]Poly, np)
	polyOff := r.off
	for i := range t.Polys {
		off := r.off
		p := &t.Polys[i]
		for j := 0; j < MaxVertsPerPoly; j++ {
			p.Verts[j], p.Neis[j] = NullIndex, NullIndex
		}
		for j := 0; j < nvp; j++ {
			p.Verts[j] = r.u16()
		}
		for j := 0; j < nvp; j++ {
			p.Neis[j] = r.u16()
		}
		p.Flags = r.u16()
		p.Area = r.u8()
		p.VertCount = r.u8()
		if err := checkPolyRecord(t, i, off); err != nil {
			return nil, err
		}
	}
	if err := t.checkNeighboursAt(polyOff); err != nil {
		return nil, err
	}

	// Detail meshes.
	t.DetailMeshes = make([]DetailMesh, np)
	detailOff := r.off
	for i := range t.DetailMeshes {
		t.DetailMeshes[i] = DetailMesh{VertBase: r.u32(), TriBase: r.u32(), VertCount: r.u16(), TriCount: r.u16()}
	}
	if err := checkDetailMeshes(t.DetailMeshes, detailOff, uint64(ndv), uint64(ndt)); err != nil {
		return nil, err
	}
	if t.DetailVerts, err = r.finiteVecs(int(ndv), "detail vertex"); err != nil {
		return nil, err
	}
	t.DetailTris = make([][4]uint8, ndt)
	triOff := r.off
	for i := range t.DetailTris {
		copy(t.DetailTris[i][:], r.bytes(4))
	}
	if err := checkDetailTris(t, triOff); err != nil {
		return nil, err
	}
	if err := checkBounds(t); err != nil {
		return nil, err
	}

	// BV tree.
	t.BVTree = make([]BVNode, nbv)
	bvOff := r.off
	for i := range t.BVTree {
		n := &t.BVTree[i]
		for k := 0; k < 3; k++ {
			n.BMin[k] = r.u16()
		}
		for k := 0; k < 3; k++ {
			n.BMax[k] = r.u16()
		}
		n.I = int32(r.u32())
	}
	if err := checkBVTree(t, bvOff); err != nil {
		return nil, err
	}

	// Off-mesh links.
	if noff > 0 {
		t.OffMesh = make([]OffMeshLink, noff)
	}
	for k := range t.OffMesh {
		off := r.off
		c := &t.OffMesh[k]
		c.StartM = r.vec()
		c.EndM = r.vec()
		c.RadiusM = r.f32()
		c.Flags = r.u16()
		c.Area = r.u8()
		dir := r.u8()
		c.UserID = r.u32()
		if dir&^offMeshDirBidirectional != 0 {
			return nil, corrupt(off+31, "off-mesh link %d direction byte 0x%02x, want 0 (one way) or 1 (both ways)", k, dir)
		}
		c.Bidirectional = dir == offMeshDirBidirectional
		if err := c.Validate(); err != nil {
			return nil, corrupt(off, "off-mesh link %d: %v", k, err)
		}
	}
	if r.off != len(data) {
		return nil, corrupt(r.off, "%d bytes left after the last section", len(data)-r.off)
	}
	return t, nil
}

// vertBounds returns the lowest y of t's vertices (the header's OriginY)
// and the box of its vertices and detail vertices (BMin, BMax).
func (t *Tile) vertBounds() (lowest float32, box geom.Box3) {
	lowest = t.Verts[0].Y
	box = geom.EmptyBox()
	for _, v := range t.Verts {
		lowest = min(lowest, v.Y)
		box = box.Extend(v)
	}
	for _, v := range t.DetailVerts {
		box = box.Extend(v)
	}
	return lowest, box
}

func sameBits(a, b geom.Vec3) bool {
	return math.Float32bits(a.X) == math.Float32bits(b.X) &&
		math.Float32bits(a.Y) == math.Float32bits(b.Y) &&
		math.Float32bits(a.Z) == math.Float32bits(b.Z)
}

// checkPolyRecord checks polygon i's own fields: vertex count, vertex
// indices in range, empty slots, area and the form of its neighbour
// entries. A vertex may repeat (Recast's welding can give such degenerate
// polygons; Detour accepts them).
func checkPolyRecord(t *Tile, i, off int) error {
	p := &t.Polys[i]
	nvp := int(t.Header.NVP)
	nv := int(p.VertCount)
	np := len(t.Polys)
	recFlagsOff := off + 4*nvp
	if nv < MinVertsPerPoly || nv > nvp {
		return corrupt(recFlagsOff+3, "polygon %d vertex count %d, want %d..%d", i, nv, MinVertsPerPoly, nvp)
	}
	if p.Area > MaxArea {
		return corrupt(recFlagsOff+2, "polygon %d area %d, want 0..%d", i, p.Area, MaxArea)
	}
	for j := 0; j < nvp; j++ {
		vOff, nOff := off+2*j, off+2*nvp+2*j
		if j >= nv {
			if p.Verts[j] != NullIndex {
				return corrupt(vOff, "polygon %d vertex slot %d = %d after its %d vertices, want 0xffff", i, j, p.Verts[j], nv)
			}
			if p.Neis[j] != NullIndex {
				return corrupt(nOff, "polygon %d neighbour slot %d = 0x%04x after its %d vertices, want 0xffff", i, j, p.Neis[j], nv)
			}
			continue
		}
		if int(p.Verts[j]) >= len(t.Verts) {
			return corrupt(vOff, "polygon %d vertex slot %d = %d, beyond the %d vertices", i, j, p.Verts[j], len(t.Verts))
		}
		n := p.Neis[j]
		switch {
		case n == NullIndex:
		case n&ExtLink != 0:
			d := n &^ ExtLink
			if d != DirPosX && d != DirPosZ && d != DirNegX && d != DirNegZ {
				return corrupt(nOff, "polygon %d neighbour slot %d = 0x%04x, a portal with direction %d (want 0, 2, 4 or 6)", i, j, n, d)
			}
		case int(n) >= np:
			return corrupt(nOff, "polygon %d neighbour slot %d = %d, beyond the %d polygons", i, j, n, np)
		case int(n) == i:
			return corrupt(nOff, "polygon %d neighbour slot %d names the polygon itself", i, j)
		}
	}
	return nil
}

// checkNeighbours runs checkPolyNeighbours on every polygon; the polygon
// records must be valid (checkPolyRecord, or BuildTile's filling).
func (t *Tile) checkNeighbours() error {
	return t.checkNeighboursAt(t.headerSize() + vertSize*len(t.Verts))
}

// checkNeighboursAt is checkNeighbours with the polygon records at offset
// off of the data.
func (t *Tile) checkNeighboursAt(off int) error {
	recSize := polyRecordSize(int(t.Header.NVP))
	// On the goroutine's stack for the tiles of usual sizes.
	var buf [512]uint8
	reversed := buf[:min(len(t.Polys), len(buf))]
	if len(t.Polys) > len(buf) {
		reversed = make([]uint8, len(t.Polys))
	}
	for i := range t.Polys {
		if err := checkPolyNeighbours(t, i, off+i*recSize, reversed); err != nil {
			return err
		}
	}
	return nil
}

// checkPolyNeighbours checks polygon i's edges against the polygons they
// name: an internal neighbour shares the edge reversed and names i back; a
// portal edge runs along its border (both ends at the same x for ±x, the
// same z for ±z).
//
// The reverse of an edge is the reverse of the edge it was found for, so
// each pair is searched once: bit j of reversed[i] marks edge j of
// polygon i as found, by a lower polygon, to be the reverse of one of its
// edges (polygons are checked in order; only later ones are marked).
func checkPolyNeighbours(t *Tile, i, off int, reversed []uint8) error {
	p := &t.Polys[i]
	nvp := int(t.Header.NVP)
	nv := int(p.VertCount)
	for j := 0; j < nv; j++ {
		n := p.Neis[j]
		if n == NullIndex || reversed[i]&(1<<j) != 0 {
			continue
		}
		a, b := p.EdgeVerts(j)
		nOff := off + 2*nvp + 2*j
		if n&ExtLink != 0 {
			va, vb := t.Verts[a], t.Verts[b]
			if d := n &^ ExtLink; !alongBorder(va, vb, d) {
				return corrupt(nOff, "polygon %d portal edge %d (direction %d) from %v to %v does not run along its border", i, j, d, va, vb)
			}
			continue
		}
		k, found := reverseEdge(&t.Polys[n], uint16(i), a, b)
		if !found {
			return corrupt(nOff, "polygon %d edge %d (vertices %d-%d) names polygon %d, which has no edge %d-%d naming %d back", i, j, a, b, n, b, a, i)
		}
		if int(n) > i {
			reversed[n] |= 1 << k
		}
	}
	return nil
}

// alongBorder reports whether a portal edge from va to vb facing dir runs
// along its border: both ends at the same x for ±x, the same z for ±z.
func alongBorder(va, vb geom.Vec3, dir uint16) bool {
	switch dir {
	case DirPosX, DirNegX:
		return math.Float32bits(va.X) == math.Float32bits(vb.X)
	case DirPosZ, DirNegZ:
		return math.Float32bits(va.Z) == math.Float32bits(vb.Z)
	}
	return true
}

// reverseEdge returns the first edge k of q that names polygon i and runs
// from b to a.
func reverseEdge(q *Poly, i, a, b uint16) (int, bool) {
	qn := int(q.VertCount)
	for k := 0; k < qn; k++ {
		if q.Neis[k] != i || q.Verts[k] != b {
			continue
		}
		if _, next := q.EdgeVerts(k); next == a {
			return k, true
		}
	}
	return 0, false
}

// checkBVTree checks the tree's shape (preorder, escape counts, every
// polygon in exactly one leaf), that each leaf's box is its polygon's
// quantized box and each inner node's box the union of its children's.
func checkBVTree(t *Tile, off int) error {
	nodes := t.BVTree
	// On the goroutine's stack for the tiles of usual sizes.
	var seenBuf [512]bool
	seen := seenBuf[:0]
	if len(t.Polys) <= len(seenBuf) {
		seen = seenBuf[:len(t.Polys)]
	} else {
		seen = make([]bool, len(t.Polys))
	}
	type span struct{ lo, hi int }
	var stackBuf [64]span
	stack := append(stackBuf[:0], span{0, len(nodes)})
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := &nodes[s.lo]
		nOff := off + bvNodeSize*s.lo
		if n.I >= 0 {
			if s.hi-s.lo != 1 {
				return corrupt(nOff+12, "BV node %d is a leaf where a subtree of %d nodes belongs", s.lo, s.hi-s.lo)
			}
			if int(n.I) >= len(t.Polys) {
				return corrupt(nOff+12, "BV leaf %d names polygon %d, beyond the %d polygons", s.lo, n.I, len(t.Polys))
			}
			if seen[n.I] {
				return corrupt(nOff+12, "BV leaf %d names polygon %d a second time", s.lo, n.I)
			}
			seen[n.I] = true
			bmin, bmax := t.polyBox(int(n.I))
			if n.BMin != bmin || n.BMax != bmax {
				return corrupt(nOff, "BV leaf %d box %v..%v, want polygon %d's quantized box %v..%v", s.lo, n.BMin, n.BMax, n.I, bmin, bmax)
			}
			continue
		}
		esc := -int64(n.I)
		if esc != int64(s.hi-s.lo) || esc < 3 {
			return corrupt(nOff+12, "BV node %d escape %d, want the subtree size %d (at least 3)", s.lo, esc, s.hi-s.lo)
		}
		left := s.lo + 1
		lsize := 1
		if l := nodes[left]; l.I < 0 {
			if -int64(l.I) >= int64(s.hi-left) {
				return corrupt(off+bvNodeSize*left+12, "BV node %d escape %d leaves no room for its sibling", left, -int64(l.I))
			}
			lsize = int(-l.I)
		}
		right := left + lsize
		a, b := &nodes[left], &nodes[right]
		for k := 0; k < 3; k++ {
			if n.BMin[k] != min(a.BMin[k], b.BMin[k]) || n.BMax[k] != max(a.BMax[k], b.BMax[k]) {
				return corrupt(nOff, "BV node %d box %v..%v is not the union of its children's %v..%v and %v..%v",
					s.lo, n.BMin, n.BMax, a.BMin, a.BMax, b.BMin, b.BMax)
			}
		}
		stack = append(stack, span{right, s.hi}, span{left, right})
	}
	return nil
}
