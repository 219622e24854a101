package detour

import (
	"encoding/binary"
	"math"
)

// Magic numbers and versions (Detour's ints as written on a little-endian
// machine: 'M'<<24|'S'<<16|'E'<<8|'T' is the bytes "TESM").
const (
	setMagic      = 'M'<<24 | 'S'<<16 | 'E'<<8 | 'T' // NAVMESHSET_MAGIC
	setVersion    = 1                                // NAVMESHSET_VERSION
	tileMagic     = 'D'<<24 | 'N'<<16 | 'A'<<8 | 'V' // DT_NAVMESH_MAGIC
	tileVersion   = 7                                // DT_NAVMESH_VERSION
	tsetMagic     = 'T'<<24 | 'S'<<16 | 'E'<<8 | 'T' // TILECACHESET_MAGIC
	layerMagic    = 'D'<<24 | 'T'<<16 | 'L'<<8 | 'R' // DT_TILECACHE_MAGIC
	stateMagic    = 'D'<<24 | 'N'<<16 | 'M'<<8 | 'S' // DT_NAVMESH_STATE_MAGIC
	mmapMagic     = 0x4d4d4150                       // TrinityCore's MMAP_MAGIC, 'MMAP'
	mmtileHdrSize = 20                               // TrinityCore's MmapTileHeader
)

// Record sizes, bytes (sizeof of Detour's structs on every 32- and 64-bit
// ABI Detour runs on, wasm32 included).
const (
	setHeaderSize  = 40  // NavMeshSetHeader: magic, version, numTiles, dtNavMeshParams
	paramsSize     = 28  // dtNavMeshParams: orig[3], tileWidth, tileHeight, maxTiles, maxPolys
	headerSize     = 100 // dtMeshHeader
	vertSize       = 12  // float[3]
	polySize       = 32  // dtPoly: firstLink, verts[6], neis[6], flags, vertCount, areaAndtype
	link32Size     = 12  // dtLink with 32-bit dtPolyRef
	link64Size     = 16  // dtLink with DT_POLYREF64 (8-byte ref, 4-byte next, 4 bytes, no padding)
	detailMeshSize = 12  // dtPolyDetail: vertBase, triBase, vertCount, triCount, 2 bytes padding
	detailTriSize  = 4   // 3 local vertex indices and the edge flags
	bvNodeSize     = 16  // dtBVNode: bmin[3], bmax[3], i
	offMeshSize    = 36  // dtOffMeshConnection: pos[6], rad, poly, flags, side, userId
	tileHdr32Size  = 8   // NavMeshTileHeader: 32-bit tileRef, dataSize
	tileHdr64Size  = 16  // NavMeshTileHeader with DT_POLYREF64: u64 tileRef, dataSize, 4 bytes padding
	tileHdr64Pack  = 12  // the same written by a compiler that packs it (i386)
)

// Detour's constants.
const (
	vertsPerPoly  = 6      // DT_VERTS_PER_POLYGON
	extLink       = 0x8000 // DT_EXT_LINK
	polyGround    = 0      // DT_POLYTYPE_GROUND
	polyOffMesh   = 1      // DT_POLYTYPE_OFFMESH_CONNECTION
	offMeshBidir  = 1      // DT_OFFMESH_CON_BIDIR
	saltBits64    = 16     // DT_SALT_BITS
	tileBits64    = 28     // DT_TILE_BITS
	polyBits64    = 20     // DT_POLY_BITS
	minSaltBits32 = 10     // dtNavMesh::init refuses fewer salt bits
	refBits32     = 32
)

// align4 is dtAlign4.
func align4(n int) int { return (n + 3) &^ 3 }

// sectionSizes returns the sizes of the sections of DNAV tile data after
// the header, dtAlign4-padded, in file order (dtCreateNavMeshData), and
// their sum with the header, computed in 64 bits from header counts.
type counts struct {
	verts, polys, links, detailMeshes, detailVerts, detailTris, bvNodes, offMesh int64
}

func (c counts) sizes(linkSize int64) (s [8]int64, total int64) {
	a4 := func(n int64) int64 { return (n + 3) &^ 3 }
	s = [8]int64{
		a4(vertSize * c.verts), a4(polySize * c.polys), a4(linkSize * c.links),
		a4(detailMeshSize * c.detailMeshes), a4(vertSize * c.detailVerts),
		a4(detailTriSize * c.detailTris), a4(bvNodeSize * c.bvNodes), a4(offMeshSize * c.offMesh),
	}
	total = headerSize
	for _, n := range s {
		total += n
	}
	return s, total
}

// ilog2 and nextPow2 are Detour's dtIlog2 and dtNextPow2 (of 32-bit values).
func nextPow2(v uint32) uint32 {
	v--
	v |= v >> 1
	v |= v >> 2
	v |= v >> 4
	v |= v >> 8
	v |= v >> 16
	return v + 1
}

func ilog2(v uint32) uint32 {
	r := uint32(0)
	for v > 1 {
		v >>= 1
		r++
	}
	return r
}

// refBits returns the tile and polygon bits of a Detour mesh's references
// (dtNavMesh::init): fixed with 64-bit references, else from maxTiles and
// maxPolys.
func refBits(maxTiles, maxPolys int32, ref64 bool) (tileBits, polyBits, saltBits uint32) {
	if ref64 {
		return tileBits64, polyBits64, saltBits64
	}
	tileBits = ilog2(nextPow2(uint32(maxTiles)))
	polyBits = ilog2(nextPow2(uint32(maxPolys)))
	saltBits = 0
	if tileBits+polyBits < refBits32 {
		saltBits = min(31, refBits32-tileBits-polyBits)
	}
	return tileBits, polyBits, saltBits
}

// enc appends fixed-size values in one byte order.
type enc struct {
	b  []byte
	bo binary.AppendByteOrder
}

func (e *enc) u8(v uint8)   { e.b = append(e.b, v) }
func (e *enc) u16(v uint16) { e.b = e.bo.AppendUint16(e.b, v) }
func (e *enc) u32(v uint32) { e.b = e.bo.AppendUint32(e.b, v) }
func (e *enc) i32(v int32)  { e.u32(uint32(v)) }
func (e *enc) u64(v uint64) { e.b = e.bo.AppendUint64(e.b, v) }
func (e *enc) f32(v float32) {
	e.u32(math.Float32bits(v))
}
func (e *enc) zero(n int) { e.b = append(e.b, make([]byte, n)...) }
