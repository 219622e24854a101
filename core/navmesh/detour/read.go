package detour

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/internal/readlimit"
)

// MaxFileBytes bounds the files Read and ReadFile take: 2 GiB. A Detour
// tile's size is a C int (below 2 GiB), and a navviz mesh holds every
// tile decoded beside its data (more memory than the file), so a larger
// file could not be held within pipeline's default 4 GiB build budget.
const MaxFileBytes = 2 << 30

// describeBytes is how much of a file Read looks at before reading the
// rest: the magic numbers IsDetour checks, and enough for Describe to say
// what another file looks like.
const describeBytes = 512

// ErrNotDetour is wrapped by the error for input that is no Detour file
// (the message says what it looks like).
var ErrNotDetour = errors.New("not a Detour navmesh file")

// Kind is the kind of file a mesh was read from.
type Kind uint8

const (
	// KindSet is an MSET file (RecastDemo's Save, recast-navigation-js's
	// exportNavMesh).
	KindSet Kind = iota
	// KindTile is bare DNAV tile data (dtCreateNavMeshData's output).
	KindTile
	// KindMMTile is TrinityCore's .mmtile: a 20-byte MmapTileHeader and
	// one DNAV tile.
	KindMMTile
)

func (k Kind) String() string {
	switch k {
	case KindSet:
		return "Detour navmesh set (MSET)"
	case KindTile:
		return "Detour tile (DNAV)"
	case KindMMTile:
		return "TrinityCore mmtile (MMAP header and a DNAV tile)"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Params is dtNavMeshParams.
type Params struct {
	OrigM                   geom.Vec3
	TileWidthM, TileHeightM float32
	MaxTiles, MaxPolys      int32
}

// TileHeader is a tile's dtMeshHeader as the file holds it, with the
// reference and size its container gave it.
type TileHeader struct {
	// Ref is the tile reference of the MSET entry (0 for a bare tile).
	Ref uint64
	// DataSize is the tile data's size, bytes.
	DataSize int
	// Version is the DNAV version (7).
	Version int32
	// X, Y, Layer are the tile's grid position (Detour's y is navviz's z).
	X, Y, Layer int32
	UserID      uint32
	// PolyCount counts the off-mesh connections' polygons too.
	PolyCount, VertCount, MaxLinkCount               int32
	DetailMeshCount, DetailVertCount, DetailTriCount int32
	BVNodeCount, OffMeshConCount, OffMeshBase        int32
	WalkableHeightM, WalkableRadiusM, WalkableClimbM float32
	BMin, BMax                                       geom.Vec3
	BVQuantFactor                                    float32
}

// File is a Detour file read into navviz: the mesh of its tiles and what
// the file said about them.
type File struct {
	Kind Kind
	// BigEndian is set when the file's values are big endian (it was
	// written on a big-endian machine; Detour itself reads only its own
	// byte order).
	BigEndian bool
	// PolyRef64 is set when the file is for a Detour built with
	// DT_POLYREF64 (64-bit tile references, 16-byte links).
	PolyRef64 bool
	// Params are the MSET file's dtNavMeshParams (zero for a tile).
	Params Params
	// MMapVersion and UsesLiquids are an .mmtile's header values.
	MMapVersion uint32
	UsesLiquids bool
	// Headers are the tiles' headers in file order.
	Headers []TileHeader
	// Mesh holds the tiles, converted (docs/format.md §11.5).
	Mesh *navmesh.Mesh
}

// ReadFile reads the Detour file at path (at most MaxFileBytes); see Read.
func ReadFile(path string) (*File, error) {
	f, err := readlimit.Open(path, "Detour navmesh file", MaxFileBytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// Read reads a Detour file from r (name names it in errors), at most
// MaxFileBytes. Its first bytes are checked before the rest is read: input
// that does not start as a Detour file (IsDetour) is refused at once, so
// that /dev/zero or a large file of another kind costs no memory.
func Read(r io.Reader, name string) (*File, error) {
	return readChecked(r, name, "Detour navmesh file", MaxFileBytes, IsDetour, func(head []byte) error {
		return fmt.Errorf("%w (%s)", ErrNotDetour, Describe(head))
	}, Decode)
}

// readChecked reads a file of kind what from r (name names it in errors),
// at most limit bytes, refusing it with refuse's error (prefixed with
// name) when accept does not take its first bytes, before the rest is
// read; then decodes it.
func readChecked[T any](r io.Reader, name, what string, limit int64, accept func([]byte) bool, refuse func(head []byte) error, decode func([]byte) (T, error)) (T, error) {
	var zero T
	data, err := readlimit.ReadAllChecked(r, name, what, limit, describeBytes, func(head []byte) error {
		if !accept(head) {
			return fmt.Errorf("%s: %w", name, refuse(head))
		}
		return nil
	})
	if err != nil {
		return zero, err
	}
	v, err := decode(data)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", name, err)
	}
	return v, nil
}

// magicOrder returns the byte order in which the first four bytes of b
// read as magic, and whether they do.
func magicOrder(b []byte, magic uint32) (binary.ByteOrder, bool) {
	if len(b) < 4 {
		return nil, false
	}
	switch {
	case binary.LittleEndian.Uint32(b) == magic:
		return binary.LittleEndian, true
	case binary.BigEndian.Uint32(b) == magic:
		return binary.BigEndian, true
	}
	return nil, false
}

// Decode reads a Detour file held in data: an MSET file, a bare DNAV tile
// or a TrinityCore .mmtile, in either byte order, with 32- or 64-bit
// references. Anything else is an error wrapping ErrNotDetour that says
// what the data looks like; a Detour file navviz cannot hold is an error
// naming the tile and the value. Decode never panics.
func Decode(data []byte) (*File, error) {
	if bo, ok := magicOrder(data, setMagic); ok {
		return decodeSet(data, bo)
	}
	if bo, ok := magicOrder(data, tileMagic); ok {
		f := &File{Kind: KindTile, BigEndian: bo == binary.BigEndian}
		return f, f.addTiles([][]byte{data}, []uint64{0}, bo, 0)
	}
	if bo, ok := magicOrder(data, mmapMagic); ok {
		return decodeMMTile(data, bo)
	}
	return nil, fmt.Errorf("%w: %s", ErrNotDetour, Describe(data))
}

// decodeSet reads an MSET file.
func decodeSet(data []byte, bo binary.ByteOrder) (*File, error) {
	f := &File{Kind: KindSet, BigEndian: bo == binary.BigEndian}
	if len(data) < setHeaderSize {
		return nil, fmt.Errorf("MSET file of %d bytes, shorter than its %d-byte header", len(data), setHeaderSize)
	}
	d := dec{b: data, bo: bo, off: 4}
	version, n := d.i32(), d.i32()
	if version != setVersion {
		return nil, fmt.Errorf("MSET version %d, want %d", version, setVersion)
	}
	p := &f.Params
	p.OrigM = d.vec()
	p.TileWidthM, p.TileHeightM = d.f32(), d.f32()
	p.MaxTiles, p.MaxPolys = d.i32(), d.i32()
	// A tile entry is at least a tile header and a DNAV header.
	if n < 0 || int64(n) > int64(len(data)-setHeaderSize)/(tileHdr32Size+headerSize) {
		return nil, fmt.Errorf("MSET tile count %d, want 0..%d for a file of %d bytes", n, (len(data)-setHeaderSize)/(tileHdr32Size+headerSize), len(data))
	}
	// The tile reference's width: where the first tile's DNAV magic is.
	hdr := tileHdr32Size
	if n > 0 {
		hdr = 0
		for _, h := range [...]int{tileHdr32Size, tileHdr64Size, tileHdr64Pack} {
			if o := setHeaderSize + h; o+4 <= len(data) && bo.Uint32(data[o:]) == tileMagic {
				hdr = h
				break
			}
		}
		if hdr == 0 {
			return nil, fmt.Errorf("MSET tile 0: no DNAV tile data after a 32- or 64-bit tile reference at offset %d", setHeaderSize)
		}
	}
	f.PolyRef64 = hdr != tileHdr32Size
	var tiles [][]byte
	var refs []uint64
	d.off = setHeaderSize
	for i := range int(n) {
		if d.off+hdr > len(data) {
			return nil, fmt.Errorf("MSET tile %d: header at offset %d past the end (%d bytes)", i, d.off, len(data))
		}
		var ref uint64
		if f.PolyRef64 {
			ref = d.u64()
		} else {
			ref = uint64(d.u32())
		}
		size := d.i32()
		d.off += hdr - 4 - refWidth(f.PolyRef64)
		if ref == 0 || size == 0 {
			break // RecastDemo's loadAll stops at an empty entry
		}
		if size < 0 || int64(size) > int64(len(data)-d.off) {
			return nil, fmt.Errorf("MSET tile %d: data size %d at offset %d, but %d bytes follow", i, size, d.off-hdr+refWidth(f.PolyRef64), len(data)-d.off)
		}
		tiles = append(tiles, data[d.off:d.off+int(size)])
		refs = append(refs, ref)
		d.off += int(size)
	}
	linkSize := link32Size
	if f.PolyRef64 {
		linkSize = link64Size
	}
	return f, f.addTiles(tiles, refs, bo, linkSize)
}

func refWidth(ref64 bool) int {
	if ref64 {
		return 8
	}
	return 4
}

// decodeMMTile reads a TrinityCore .mmtile.
func decodeMMTile(data []byte, bo binary.ByteOrder) (*File, error) {
	f := &File{Kind: KindMMTile, BigEndian: bo == binary.BigEndian}
	if len(data) < mmtileHdrSize {
		return nil, fmt.Errorf("TrinityCore mmtile of %d bytes, shorter than its %d-byte header", len(data), mmtileHdrSize)
	}
	d := dec{b: data, bo: bo, off: 4}
	dtVersion := d.u32()
	f.MMapVersion = d.u32()
	size := d.u32()
	f.UsesLiquids = data[16] != 0
	if dtVersion != tileVersion {
		return nil, fmt.Errorf("TrinityCore mmtile (mmap version %d) for Detour tile version %d, want %d", f.MMapVersion, dtVersion, tileVersion)
	}
	if uint64(size) != uint64(len(data)-mmtileHdrSize) {
		return nil, fmt.Errorf("TrinityCore mmtile header says %d bytes of tile data, the file holds %d", size, len(data)-mmtileHdrSize)
	}
	return f, f.addTiles([][]byte{data[mmtileHdrSize:]}, []uint64{0}, bo, 0)
}

// addTiles converts the DNAV tiles (linkSize 0: found from each tile's
// size) and puts them in a new mesh.
func (f *File) addTiles(tiles [][]byte, refs []uint64, bo binary.ByteOrder, linkSize int) error {
	m := navmesh.NewMesh()
	for i, data := range tiles {
		h, t, ref64, err := decodeTile(data, bo, linkSize)
		if err != nil {
			return fmt.Errorf("tile %d: %w", i, err)
		}
		f.PolyRef64 = f.PolyRef64 || ref64
		h.Ref, h.DataSize = refs[i], len(data)
		tileData, err := navmesh.FinishTile(t)
		if err != nil {
			return fmt.Errorf("tile %d (%d, %d) layer %d: %w", i, h.X, h.Y, h.Layer, err)
		}
		if _, err := m.AddTile(tileData); err != nil {
			return fmt.Errorf("tile %d (%d, %d) layer %d: %w", i, h.X, h.Y, h.Layer, err)
		}
		f.Headers = append(f.Headers, h)
	}
	f.Mesh = m
	return nil
}

// Describe says what data looks like, for the error of a file that is no
// Detour file: a navviz, tile-cache or other known format by its magic,
// text, or the first bytes.
func Describe(data []byte) string {
	if len(data) == 0 {
		return "the file is empty"
	}
	for _, k := range []struct {
		magic uint32
		what  string
	}{
		{tsetMagic, "a Detour tile-cache set (TSET, recast-navigation-js exportTileCache), not a navmesh set"},
		{layerMagic, "a Detour tile-cache layer (DTLR), not navmesh tile data"},
		{stateMagic, "a Detour tile state (DNMS, storeTileState), not navmesh tile data"},
	} {
		if _, ok := magicOrder(data, k.magic); ok {
			return "it is " + k.what
		}
	}
	for _, k := range []struct{ prefix, what string }{
		{"NVMS", "a navviz mesh (navmesh build -o without --format detour)"},
		{"NVTL", "navviz tile data"},
		{"NVDS", "a navviz dynamic-state snapshot"},
		{"glTF", "a binary glTF level (GLB)"},
		{"\x89PNG", "a PNG image"},
		{"PK\x03\x04", "a zip archive"},
		{"\x1f\x8b", "a gzip stream (decompress it first)"},
	} {
		if bytes.HasPrefix(data, []byte(k.prefix)) {
			return "it is " + k.what
		}
	}
	head := data[:min(len(data), 64)]
	text := true
	for _, c := range head {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' {
			text = false
		}
	}
	if text {
		t := bytes.TrimSpace(head)
		switch {
		case bytes.HasPrefix(t, []byte("{")):
			return "it is JSON text (a glTF level or a scenario?), starting " + quoteHead(t)
		case bytes.HasPrefix(t, []byte("v ")) || bytes.HasPrefix(t, []byte("#")) || bytes.HasPrefix(t, []byte("o ")) || bytes.HasPrefix(t, []byte("mtllib")):
			return "it is text like a Wavefront OBJ level (give it as the level), starting " + quoteHead(t)
		}
		return "it is text, starting " + quoteHead(t)
	}
	return fmt.Sprintf("its first bytes are % x (Detour files start with \"TESM\" (MSET), \"VAND\" (DNAV) or \"PAMM\" (mmtile), or those reversed)", data[:min(len(data), 8)])
}

func quoteHead(t []byte) string {
	if i := bytes.IndexAny(t, "\r\n"); i >= 0 {
		t = t[:i]
	}
	return fmt.Sprintf("%q", t[:min(len(t), 40)])
}

// dec reads fixed-size values in one byte order; the caller checks the
// length first.
type dec struct {
	b   []byte
	bo  binary.ByteOrder
	off int
}

func (d *dec) u8() uint8 {
	v := d.b[d.off]
	d.off++
	return v
}

func (d *dec) u16() uint16 {
	v := d.bo.Uint16(d.b[d.off:])
	d.off += 2
	return v
}

func (d *dec) u32() uint32 {
	v := d.bo.Uint32(d.b[d.off:])
	d.off += 4
	return v
}

func (d *dec) u64() uint64 {
	v := d.bo.Uint64(d.b[d.off:])
	d.off += 8
	return v
}

func (d *dec) i32() int32   { return int32(d.u32()) }
func (d *dec) f32() float32 { return math.Float32frombits(d.u32()) }
func (d *dec) vec() geom.Vec3 {
	x, y, z := d.f32(), d.f32(), d.f32()
	return geom.V3(x, y, z)
}

// IsDetour reports whether data (a file's first bytes, at least four)
// starts as a file Decode reads: an MSET, DNAV or MMAP magic in either
// byte order.
func IsDetour(data []byte) bool {
	for _, m := range [...]uint32{setMagic, tileMagic, mmapMagic} {
		if _, ok := magicOrder(data, m); ok {
			return true
		}
	}
	return false
}

// IsDetourFile reports whether the file at path starts as IsDetour wants
// (false when it cannot be read: the caller's own open names the error).
func IsDetourFile(path string) bool { return IsDetour(fileHead(path)) }

// fileHead returns the first four bytes of the file at path (none when it
// cannot be read), for the Is*File probes.
func fileHead(path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var head [4]byte
	if _, err := io.ReadFull(f, head[:]); err != nil {
		return nil
	}
	return head[:]
}
