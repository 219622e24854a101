package detour

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"navviz/core/geom"
	"navviz/internal/readlimit"
)

// Tile-cache file sizes and bounds (docs/format.md §13).
const (
	tsetVersion        = 1  // TILECACHESET_VERSION
	layerVersion       = 1  // DT_TILECACHE_VERSION
	tsetHeaderSize     = 92 // TileCacheSetHeader: magic, version, numTiles, dtNavMeshParams, dtTileCacheParams
	tsetTileHeaderSize = 8  // TileCacheTileHeader: dtCompressedTileRef (always 32 bits), dataSize
	layerHeaderSize    = 56 // dtAlign4(sizeof(dtTileCacheLayerHeader)): 54 bytes of fields, 2 of padding

	// LayerEmpty is a layer cell's height where the layer has no span.
	LayerEmpty = 0xff
)

// MaxTileCacheFileBytes bounds the files ReadTileCache takes: 512 MiB. A
// tile cache holds compressed layers of at most 255 x 255 cells (about
// 10 KiB a 64-cell tile); a game's cache of 64 x 64 tiles of four layers is
// under 200 MiB, and the layers decoded are several times the file.
const MaxTileCacheFileBytes = 512 << 20

// MaxTileCacheCells bounds the cells of all the layers of a file decoded
// together: 256 Mi cells, 768 MiB of heights, areas and connections.
// FastLZ expands up to about 90 times, so the file size alone does not
// bound them.
const MaxTileCacheCells = 256 << 20

// ErrNotTileCache is wrapped by the error for input that is no tile-cache
// set (the message says what it looks like).
var ErrNotTileCache = errors.New("not a Detour tile-cache file")

// CacheParams is dtTileCacheParams.
type CacheParams struct {
	OrigM geom.Vec3
	// CellM and RowM are Recast's cs and ch: a layer cell's side and a
	// height unit, metres.
	CellM, RowM float32
	// Width and Height are a tile's size in cells.
	Width, Height                                    int32
	WalkableHeightM, WalkableRadiusM, WalkableClimbM float32
	MaxSimplificationError                           float32
	MaxTiles, MaxObstacles                           int32
}

// Layer is one compressed tile of a tile cache (dtTileCacheLayerHeader and
// its grids), decompressed.
type Layer struct {
	// Ref is the entry's dtCompressedTileRef; DataSize the size of its data
	// (header and compressed grids).
	Ref      uint32
	DataSize int
	// TX, TY are the tile's grid position (Detour's y is navviz's z) and
	// TLayer its layer there (0 the lowest).
	TX, TY, TLayer int32
	BMin, BMax     geom.Vec3
	// HMin and HMax are the layer's height range in RowM units above the
	// tile's heightfield origin.
	HMin, HMax uint16
	// Width and Height are the grid's size in cells; MinX..MaxY the part
	// of it that holds spans.
	Width, Height          uint8
	MinX, MaxX, MinY, MaxY uint8
	// Heights, Areas and Cons hold a value per cell, x + y*Width: the
	// height in RowM units above BMin.Y (LayerEmpty: no span), the area id
	// (0: none) and the connections (bit d: the neighbour in direction d
	// (0 -x, 1 +z, 2 +x, 3 -z) is walkable in this layer; bit 4+d: it is
	// walkable but in another layer, a portal).
	Heights, Areas, Cons []uint8
}

// TileCache is a TSET file read: the tile cache's parameters and layers.
// The file format holds no obstacles (Detour's temporary obstacles live
// only in a running dtTileCache; the layers are without them).
type TileCache struct {
	// BigEndian is set when the file's values are big endian.
	BigEndian bool
	Params    Params
	Cache     CacheParams
	Layers    []Layer
}

// CellTop returns the world position of the top of cell (x, y) of l: its
// centre in x and z and its height, and false for an empty cell.
func (l *Layer) CellTop(c *CacheParams, x, y int) (geom.Vec3, bool) {
	h := l.Heights[x+y*int(l.Width)]
	if h == LayerEmpty {
		return geom.Vec3{}, false
	}
	// float64 steps: no fused multiply-add (determinism rule).
	fx := float32(float64(l.BMin.X) + float64(c.CellM*(float32(x)+0.5)))
	fz := float32(float64(l.BMin.Z) + float64(c.CellM*(float32(y)+0.5)))
	fy := float32(float64(l.BMin.Y) + float64(c.RowM*float32(h)))
	return geom.V3(fx, fy, fz), true
}

// IsTileCache reports whether data (a file's first bytes) starts with the
// TSET magic in either byte order.
func IsTileCache(data []byte) bool {
	_, ok := magicOrder(data, tsetMagic)
	return ok
}

// IsTileCacheFile reports whether the file at path starts as IsTileCache
// wants (false when it cannot be read).
func IsTileCacheFile(path string) bool { return IsTileCache(fileHead(path)) }

// ReadTileCacheFile reads the tile-cache file at path (at most
// MaxTileCacheFileBytes); see ReadTileCache.
func ReadTileCacheFile(path string) (*TileCache, error) {
	f, err := readlimit.Open(path, "Detour tile-cache file", MaxTileCacheFileBytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadTileCache(f, path)
}

// ReadTileCache reads a TSET file from r (name names it in errors), at most
// MaxTileCacheFileBytes; input that does not start with the TSET magic is
// refused before the rest is read.
func ReadTileCache(r io.Reader, name string) (*TileCache, error) {
	return readChecked(r, name, "Detour tile-cache file", MaxTileCacheFileBytes, IsTileCache, func(head []byte) error {
		return fmt.Errorf("%w (%s)", ErrNotTileCache, describeCache(head))
	}, DecodeTileCache)
}

// describeCache is Describe for a file that should be a tile cache.
func describeCache(data []byte) string {
	if IsDetour(data) {
		if _, ok := magicOrder(data, setMagic); ok {
			return "it is a Detour navmesh set (MSET), not a tile cache; open it as a navmesh"
		}
		return "it is Detour navmesh tile data, not a tile cache"
	}
	if _, ok := magicOrder(data, layerMagic); ok {
		return "it is a single tile-cache layer (DTLR) without the TSET header that gives its cell size"
	}
	return Describe(data)
}

// DecodeTileCache reads a TSET file held in data (RecastDemo's
// Sample_TempObstacles save, recast-navigation-js's exportTileCache), in
// either byte order, decompressing every layer. Anything else is an error
// wrapping ErrNotTileCache saying what it looks like; a bad layer is an
// error naming its entry and the value. DecodeTileCache never panics.
func DecodeTileCache(data []byte) (*TileCache, error) {
	bo, ok := magicOrder(data, tsetMagic)
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrNotTileCache, describeCache(data))
	}
	tc := &TileCache{BigEndian: bo == binary.BigEndian}
	if len(data) < tsetHeaderSize {
		return nil, fmt.Errorf("TSET file of %d bytes, shorter than its %d-byte header", len(data), tsetHeaderSize)
	}
	d := dec{b: data, bo: bo, off: 4}
	version, n := d.i32(), d.i32()
	if version != tsetVersion {
		return nil, fmt.Errorf("TSET version %d, want %d", version, tsetVersion)
	}
	p := &tc.Params
	p.OrigM = d.vec()
	p.TileWidthM, p.TileHeightM = d.f32(), d.f32()
	p.MaxTiles, p.MaxPolys = d.i32(), d.i32()
	c := &tc.Cache
	c.OrigM = d.vec()
	c.CellM, c.RowM = d.f32(), d.f32()
	c.Width, c.Height = d.i32(), d.i32()
	c.WalkableHeightM, c.WalkableRadiusM, c.WalkableClimbM = d.f32(), d.f32(), d.f32()
	c.MaxSimplificationError = d.f32()
	c.MaxTiles, c.MaxObstacles = d.i32(), d.i32()
	if !(c.CellM > 0 && c.CellM < 1e6) || !(c.RowM > 0 && c.RowM < 1e6) {
		return nil, fmt.Errorf("TSET cell size %g m and height %g m, want both above 0 (and finite)", c.CellM, c.RowM)
	}
	maxN := (len(data) - tsetHeaderSize) / (tsetTileHeaderSize + layerHeaderSize)
	if n < 0 || int64(n) > int64(maxN) {
		return nil, fmt.Errorf("TSET tile count %d, want 0..%d for a file of %d bytes", n, maxN, len(data))
	}
	cells := 0
	for i := range int(n) {
		if d.off+tsetTileHeaderSize > len(data) {
			return nil, fmt.Errorf("TSET tile %d: header at offset %d past the end (%d bytes)", i, d.off, len(data))
		}
		ref, size := d.u32(), d.i32()
		if ref == 0 || size == 0 {
			break // RecastDemo's loadAll stops at an empty entry
		}
		if size < 0 || int64(size) > int64(len(data)-d.off) {
			return nil, fmt.Errorf("TSET tile %d: data size %d at offset %d, but %d bytes follow", i, size, d.off-tsetTileHeaderSize, len(data)-d.off)
		}
		l, err := decodeLayer(data[d.off:d.off+int(size)], bo)
		if err != nil {
			return nil, fmt.Errorf("TSET tile %d (ref %#x at offset %d): %w", i, ref, d.off-tsetTileHeaderSize, err)
		}
		if cells += int(l.Width) * int(l.Height); cells > MaxTileCacheCells {
			return nil, fmt.Errorf("TSET tile %d: the layers hold more than %d cells together (MaxTileCacheCells)", i, MaxTileCacheCells)
		}
		l.Ref, l.DataSize = ref, int(size)
		d.off += int(size)
		tc.Layers = append(tc.Layers, l)
	}
	return tc, nil
}

// decodeLayer reads one compressed tile: a dtTileCacheLayerHeader and the
// FastLZ block of its heights, areas and connections.
func decodeLayer(data []byte, bo binary.ByteOrder) (Layer, error) {
	var l Layer
	if len(data) < layerHeaderSize {
		return l, fmt.Errorf("%d bytes, shorter than a %d-byte layer header", len(data), layerHeaderSize)
	}
	d := dec{b: data, bo: bo}
	if magic := d.u32(); magic != layerMagic {
		return l, fmt.Errorf("layer magic %#08x, want %#08x (DTLR) in the file's byte order", magic, uint32(layerMagic))
	}
	if v := d.i32(); v != layerVersion {
		return l, fmt.Errorf("layer version %d, want %d", v, layerVersion)
	}
	l.TX, l.TY, l.TLayer = d.i32(), d.i32(), d.i32()
	l.BMin, l.BMax = d.vec(), d.vec()
	l.HMin, l.HMax = d.u16(), d.u16()
	l.Width, l.Height = d.u8(), d.u8()
	l.MinX, l.MaxX, l.MinY, l.MaxY = d.u8(), d.u8(), d.u8(), d.u8()
	if l.Width == 0 || l.Height == 0 {
		return l, fmt.Errorf("layer (%d, %d) %d: grid of %d x %d cells", l.TX, l.TY, l.TLayer, l.Width, l.Height)
	}
	grid := int(l.Width) * int(l.Height)
	raw, err := fastLZDecode(data[layerHeaderSize:], 3*grid)
	if err != nil {
		return l, fmt.Errorf("layer (%d, %d) %d of %d x %d cells: %w", l.TX, l.TY, l.TLayer, l.Width, l.Height, err)
	}
	l.Heights, l.Areas, l.Cons = raw[:grid:grid], raw[grid:2*grid:2*grid], raw[2*grid:]
	return l, nil
}
