package navmesh

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/cespare/xxhash/v2"

	"navviz/core/geom"
)

// Tile data format constants (docs/format.md, "Tile data").
const (
	// TileMagic is the first four bytes of tile data.
	TileMagic = "NVTL"
	// TileVersion is the newest version this package writes and reads:
	// version 2 adds off-mesh links. A tile without off-mesh links is
	// written as version 1 (TileVersionNoOffMesh), whose bytes are those
	// of a version-2 tile without the off-mesh count and section.
	TileVersion uint16 = 2
	// TileVersionNoOffMesh is the version of a tile without off-mesh
	// links.
	TileVersionNoOffMesh uint16 = 1
	// TileHeaderSize is the size of a version-1 tile header in bytes.
	TileHeaderSize = 84
	// TileHeaderSizeV2 is the size of a version-2 tile header: the
	// version-1 header and the off-mesh link count (u32).
	TileHeaderSizeV2 = 88
	// MaxVertsPerPoly is the largest polygon (and NVP) a tile holds.
	MaxVertsPerPoly = 6
	// MinVertsPerPoly is the smallest NVP and the smallest polygon.
	MinVertsPerPoly = 3
	// MaxTileVerts is the largest vertex count of a tile (indices are
	// uint16 and 0xffff is NullIndex).
	MaxTileVerts = 0xffff
	// MaxTilePolys is the largest polygon count of a tile (an internal
	// neighbour entry is a polygon index below ExtLink).
	MaxTilePolys = 0x8000
	// MaxArea is the largest area id (Detour's DT_MAX_AREAS - 1).
	MaxArea = 63
	// DetailEdgeMask holds the bits a detail triangle's flags byte may use
	// (two per edge; bit 2k marks edge k as lying on the polygon boundary).
	DetailEdgeMask = 0x3f
)

// Neighbour entries of a tile polygon (Poly.Neis).
const (
	// NullIndex is an unused vertex slot, or a neighbour slot of an edge
	// with no neighbour (a wall).
	NullIndex uint16 = 0xffff
	// ExtLink marks a portal edge on the tile border: the entry is
	// ExtLink|dir with dir one of DirPosX, DirPosZ, DirNegX, DirNegZ.
	ExtLink uint16 = 0x8000
)

// Directions of a portal edge and of a link across a tile border (Detour's
// numbering: the tile across the border is at x+1, z+1, x-1, z-1).
const (
	DirPosX = 0 // border x = max, neighbour tile (TileX+1, TileZ)
	DirPosZ = 2 // border z = max, neighbour tile (TileX, TileZ+1)
	DirNegX = 4 // border x = min, neighbour tile (TileX-1, TileZ)
	DirNegZ = 6 // border z = min, neighbour tile (TileX, TileZ-1)
)

// OppositeDir returns the direction that faces dir across a border
// ((dir + 4) mod 8).
func OppositeDir(dir uint8) uint8 { return (dir + 4) & 7 }

// Sizes of the records that follow the header, bytes.
const (
	vertSize       = 12
	detailMeshSize = 12
	detailTriSize  = 4
	bvNodeSize     = 16
)

func polyRecordSize(nvp int) int { return 4*nvp + 4 }

// Header is the fixed part of a tile (docs/format.md, "Header"). The record
// counts are the lengths of the Tile's slices.
type Header struct {
	// TileX, TileZ locate the tile in the level's tile grid, tiles.
	TileX, TileZ int32
	// Layer numbers the tile among the tiles at (TileX, TileZ), from 0.
	Layer uint8
	// NVP is the number of vertex and neighbour slots of every polygon
	// record, 3..6.
	NVP uint8
	// OriginY is the tile's vertical origin, metres: the lowest y of its
	// polygon vertices (Verts).
	OriginY float32
	// BMin and BMax bound every polygon vertex and detail vertex, metres
	// (exactly: each component is reached by some vertex).
	BMin, BMax geom.Vec3
	// WalkableHeightM, WalkableRadiusM and WalkableClimbM are the agent the
	// tile was built for, metres (>= 0). WalkableClimbM is the vertical
	// tolerance of links across tile borders.
	WalkableHeightM, WalkableRadiusM, WalkableClimbM float32
	// CellSizeM and CellHeightM are the build's voxel size, metres (> 0).
	// CellSizeM is also the BV tree's quantum on every axis.
	CellSizeM, CellHeightM float32
}

// Poly is a polygon of a tile. Slots from VertCount up to MaxVertsPerPoly
// hold NullIndex in both arrays.
type Poly struct {
	// Verts are indices into Tile.Verts, in the polygon's winding (convex
	// corners turn clockwise seen from +y, as Recast's).
	Verts [MaxVertsPerPoly]uint16
	// Neis holds per edge j (Verts[j] to Verts[j+1 mod VertCount]):
	// NullIndex (wall), a polygon index of this tile (< ExtLink), or
	// ExtLink|dir for a portal edge on the tile border.
	Neis [MaxVertsPerPoly]uint16
	// Flags are the user flags as built (a Mesh keeps run-time edits
	// apart).
	Flags uint16
	// Area is the area id as built, 0..MaxArea.
	Area uint8
	// VertCount is the number of vertices, 3..NVP.
	VertCount uint8
}

// EdgeVerts returns the vertex indices of edge j (0 <= j < VertCount): from
// Verts[j] to the next vertex, Verts[0] after the last.
func (p Poly) EdgeVerts(j int) (a, b uint16) {
	a, b = p.Verts[j], p.Verts[0]
	if j+1 < int(p.VertCount) {
		b = p.Verts[j+1]
	}
	return a, b
}

// DetailMesh locates a polygon's detail sub-mesh. Local vertex index k of a
// detail triangle is the polygon's vertex k when k < Poly.VertCount, else
// Tile.DetailVerts[VertBase + k - VertCount].
type DetailMesh struct {
	VertBase, TriBase   uint32
	VertCount, TriCount uint16
}

// BVNode is a node of the tile's bounding-volume tree: a box in cells of
// CellSizeM from Header.BMin (min rounded down, max rounded up, clamped to
// 0..65535). I >= 0: a leaf holding polygon I. I < 0: an inner node whose
// subtree (itself included) is -I nodes long; its children follow it.
type BVNode struct {
	BMin, BMax [3]uint16
	I          int32
}

// Tile is decoded tile data. A Tile returned by DecodeTile or held by a
// Mesh is shared: treat it as read-only.
type Tile struct {
	Header       Header
	Verts        []geom.Vec3 // polygon vertices, metres
	Polys        []Poly
	DetailMeshes []DetailMesh // one per polygon
	DetailVerts  []geom.Vec3  // extra detail vertices, metres
	DetailTris   [][4]uint8   // three local vertex indices, edge flags
	BVTree       []BVNode     // 2*len(Polys)-1 nodes in preorder
	// OffMesh are the off-mesh links whose start the tile holds (node
	// len(Polys)+k of the tile is OffMesh[k]).
	OffMesh []OffMeshLink
}

// headerSize returns the size of t's header: version 2's when t has
// off-mesh links, else version 1's.
func (t *Tile) headerSize() int {
	if len(t.OffMesh) > 0 {
		return TileHeaderSizeV2
	}
	return TileHeaderSize
}

// offMeshDirBidirectional is the bit of an off-mesh record's direction
// byte that makes the link bidirectional (the only bit that may be set).
const offMeshDirBidirectional = 0x01

// ContentID returns the content id of tile data: the xxhash64 of its bytes.
func ContentID(data []byte) uint64 { return xxhash.Sum64(data) }

// MarshalBinary encodes t in the tile data format and checks the result
// with DecodeTile: a Tile that DecodeTile would reject is an error.
func (t *Tile) MarshalBinary() ([]byte, error) {
	if t == nil {
		return nil, fmt.Errorf("navmesh: MarshalBinary of a nil Tile")
	}
	data, err := t.encode()
	if err != nil {
		return nil, err
	}
	if _, err := DecodeTile(data); err != nil {
		return nil, err
	}
	return data, nil
}

// encode writes t without checking its contents beyond what the layout
// needs (counts that fit their fields, unused slots empty).
func (t *Tile) encode() ([]byte, error) { return t.encodeInto(nil) }

// encodeInto is encode appending to dst[:0] (its memory reused when large
// enough).
func (t *Tile) encodeInto(dst []byte) ([]byte, error) {
	h := &t.Header
	nvp := int(h.NVP)
	if nvp < MinVertsPerPoly || nvp > MaxVertsPerPoly {
		return nil, fmt.Errorf("navmesh: tile NVP %d, want %d..%d", nvp, MinVertsPerPoly, MaxVertsPerPoly)
	}
	if len(t.DetailMeshes) != len(t.Polys) {
		return nil, fmt.Errorf("navmesh: tile has %d detail meshes for %d polygons", len(t.DetailMeshes), len(t.Polys))
	}
	for _, n := range []int{len(t.Verts), len(t.Polys), len(t.DetailVerts), len(t.DetailTris), len(t.BVTree), len(t.OffMesh)} {
		if uint64(n) > math.MaxUint32/bvNodeSize {
			return nil, fmt.Errorf("navmesh: tile record count %d too large", n)
		}
	}
	for i := range t.Polys {
		p := &t.Polys[i]
		for j := nvp; j < MaxVertsPerPoly; j++ {
			if p.Verts[j] != NullIndex || p.Neis[j] != NullIndex {
				return nil, fmt.Errorf("navmesh: tile polygon %d slot %d beyond NVP %d is not empty", i, j, nvp)
			}
		}
	}
	size := t.headerSize() + OffMeshRecordSize*len(t.OffMesh) + vertSize*len(t.Verts) + polyRecordSize(nvp)*len(t.Polys) +
		detailMeshSize*len(t.DetailMeshes) + vertSize*len(t.DetailVerts) +
		detailTriSize*len(t.DetailTris) + bvNodeSize*len(t.BVTree)
	b := dst[:0]
	if cap(b) < size {
		b = make([]byte, 0, size)
	}
	le := binary.LittleEndian
	b = append(b, TileMagic...)
	version := TileVersionNoOffMesh
	if len(t.OffMesh) > 0 {
		version = TileVersion
	}
	b = le.AppendUint16(b, version)
	b = append(b, h.Layer, h.NVP)
	b = le.AppendUint32(b, uint32(h.TileX))
	b = le.AppendUint32(b, uint32(h.TileZ))
	b = le.AppendUint32(b, uint32(len(t.Verts)))
	b = le.AppendUint32(b, uint32(len(t.Polys)))
	b = le.AppendUint32(b, uint32(len(t.DetailVerts)))
	b = le.AppendUint32(b, uint32(len(t.DetailTris)))
	b = le.AppendUint32(b, uint32(len(t.BVTree)))
	b = appendF32(b, h.OriginY)
	b = appendVec(b, h.BMin)
	b = appendVec(b, h.BMax)
	b = appendF32(b, h.WalkableHeightM)
	b = appendF32(b, h.WalkableRadiusM)
	b = appendF32(b, h.WalkableClimbM)
	b = appendF32(b, h.CellSizeM)
	b = appendF32(b, h.CellHeightM)
	if len(t.OffMesh) > 0 {
		b = le.AppendUint32(b, uint32(len(t.OffMesh)))
	}
	for _, v := range t.Verts {
		b = appendVec(b, v)
	}
	for i := range t.Polys {
		p := &t.Polys[i]
		for j := 0; j < nvp; j++ {
			b = le.AppendUint16(b, p.Verts[j])
		}
		for j := 0; j < nvp; j++ {
			b = le.AppendUint16(b, p.Neis[j])
		}
		b = le.AppendUint16(b, p.Flags)
		b = append(b, p.Area, p.VertCount)
	}
	// The fixed-size records are written in place through array pointers
	// (one length check each, no appends).
	o := len(b)
	b = b[:size]
	for _, d := range t.DetailMeshes {
		r := (*[detailMeshSize]byte)(b[o:])
		le.PutUint32(r[0:], d.VertBase)
		le.PutUint32(r[4:], d.TriBase)
		le.PutUint16(r[8:], d.VertCount)
		le.PutUint16(r[10:], d.TriCount)
		o += detailMeshSize
	}
	for _, v := range t.DetailVerts {
		putVec((*[vertSize]byte)(b[o:]), v)
		o += vertSize
	}
	for _, tr := range t.DetailTris {
		*(*[detailTriSize]byte)(b[o:]) = tr
		o += detailTriSize
	}
	for _, n := range t.BVTree {
		r := (*[bvNodeSize]byte)(b[o:])
		le.PutUint16(r[0:], n.BMin[0])
		le.PutUint16(r[2:], n.BMin[1])
		le.PutUint16(r[4:], n.BMin[2])
		le.PutUint16(r[6:], n.BMax[0])
		le.PutUint16(r[8:], n.BMax[1])
		le.PutUint16(r[10:], n.BMax[2])
		le.PutUint32(r[12:], uint32(n.I))
		o += bvNodeSize
	}
	for i := range t.OffMesh {
		appendOffMesh(b[o:o], &t.OffMesh[i]) // in place: b has the room
		o += OffMeshRecordSize
	}
	return b, nil
}

// putVec writes v as three f32.
func putVec(r *[vertSize]byte, v geom.Vec3) {
	le := binary.LittleEndian
	le.PutUint32(r[0:], math.Float32bits(v.X))
	le.PutUint32(r[4:], math.Float32bits(v.Y))
	le.PutUint32(r[8:], math.Float32bits(v.Z))
}

// appendOffMesh appends the 36-byte record of off-mesh link c.
func appendOffMesh(b []byte, c *OffMeshLink) []byte {
	le := binary.LittleEndian
	b = appendVec(b, c.StartM)
	b = appendVec(b, c.EndM)
	b = appendF32(b, c.RadiusM)
	b = le.AppendUint16(b, c.Flags)
	dir := uint8(0)
	if c.Bidirectional {
		dir = offMeshDirBidirectional
	}
	b = append(b, c.Area, dir)
	return le.AppendUint32(b, c.UserID)
}

func appendF32(b []byte, v float32) []byte {
	return binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
}

func appendVec(b []byte, v geom.Vec3) []byte {
	return appendF32(appendF32(appendF32(b, v.X), v.Y), v.Z)
}

// PolyDetailVert returns local vertex k of polygon i's detail sub-mesh,
// metres (see DetailMesh), and false when i or k is out of range.
func (t *Tile) PolyDetailVert(i, k int) (geom.Vec3, bool) {
	if t == nil || i < 0 || i >= len(t.Polys) || k < 0 {
		return geom.Vec3{}, false
	}
	p := &t.Polys[i]
	if k < int(p.VertCount) {
		if k >= MaxVertsPerPoly || int(p.Verts[k]) >= len(t.Verts) {
			return geom.Vec3{}, false
		}
		return t.Verts[p.Verts[k]], true
	}
	if i >= len(t.DetailMeshes) {
		return geom.Vec3{}, false
	}
	d := t.DetailMeshes[i]
	k -= int(p.VertCount)
	if k >= int(d.VertCount) || uint64(d.VertBase)+uint64(k) >= uint64(len(t.DetailVerts)) {
		return geom.Vec3{}, false
	}
	return t.DetailVerts[int(d.VertBase)+k], true
}

// quantize returns coordinate v as a BV-tree cell count from base:
// (double(v) - double(base)) / double(cellSizeM), rounded down (up when
// up is set) and clamped to 0..65535.
func quantize(v, base, cellSizeM float32, up bool) uint16 {
	q := (float64(v) - float64(base)) / float64(cellSizeM)
	if up {
		q = math.Ceil(q)
	} else {
		q = math.Floor(q)
	}
	if !(q > 0) {
		return 0
	}
	if q >= 0xffff {
		return 0xffff
	}
	return uint16(q)
}

// polyBox returns the quantized box of polygon i: its vertices and its
// detail vertices. The tile's counts and indices must be valid and its
// positions finite: the box is made with plain comparisons (no NaN
// handling; of -0 and +0 it may keep either, which quantize to the same).
func (t *Tile) polyBox(i int) (bmin, bmax [3]uint16) {
	p := &t.Polys[i]
	lo := t.Verts[p.Verts[0]]
	hi := lo
	for j := 1; j < int(p.VertCount); j++ {
		extendBox(&lo, &hi, t.Verts[p.Verts[j]])
	}
	d := t.DetailMeshes[i]
	for k := 0; k < int(d.VertCount); k++ {
		extendBox(&lo, &hi, t.DetailVerts[int(d.VertBase)+k])
	}
	h := &t.Header
	bmin = [3]uint16{
		quantize(lo.X, h.BMin.X, h.CellSizeM, false),
		quantize(lo.Y, h.BMin.Y, h.CellSizeM, false),
		quantize(lo.Z, h.BMin.Z, h.CellSizeM, false),
	}
	bmax = [3]uint16{
		quantize(hi.X, h.BMin.X, h.CellSizeM, true),
		quantize(hi.Y, h.BMin.Y, h.CellSizeM, true),
		quantize(hi.Z, h.BMin.Z, h.CellSizeM, true),
	}
	return bmin, bmax
}

// extendBox grows lo, hi to hold finite v (polyBox).
func extendBox(lo, hi *geom.Vec3, v geom.Vec3) {
	if v.X < lo.X {
		lo.X = v.X
	} else if v.X > hi.X {
		hi.X = v.X
	}
	if v.Y < lo.Y {
		lo.Y = v.Y
	} else if v.Y > hi.Y {
		hi.Y = v.Y
	}
	if v.Z < lo.Z {
		lo.Z = v.Z
	} else if v.Z > hi.Z {
		hi.Z = v.Z
	}
}
