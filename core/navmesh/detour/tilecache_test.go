package detour

import (
	"encoding/binary"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

// testLayer is a layer of w x h cells for a test file: a ramp of heights
// over part of the grid, the rest empty.
func testLayer(tx, ty, tlayer int32, w, h int) Layer {
	l := Layer{TX: tx, TY: ty, TLayer: tlayer, Width: uint8(w), Height: uint8(h),
		MaxX: uint8(w - 1), MaxY: uint8(h - 1), HMin: 5, HMax: 5 + 20}
	l.BMin.X, l.BMin.Y, l.BMin.Z = float32(tx)*float32(w)*0.3, 1+float32(tlayer)*4, float32(ty)*float32(h)*0.3
	l.BMax.X, l.BMax.Y, l.BMax.Z = l.BMin.X+float32(w)*0.3, l.BMin.Y+4, l.BMin.Z+float32(h)*0.3
	for y := range h {
		for x := range w {
			ht, area, con := uint8(LayerEmpty), uint8(0), uint8(0)
			if x > 2 && y < h-3 {
				ht, area, con = uint8(x/3), 63, 0x0f
			}
			l.Heights = append(l.Heights, ht)
			l.Areas = append(l.Areas, area)
			l.Cons = append(l.Cons, con)
		}
	}
	return l
}

// encodeTileCache writes tc as a TSET file in byte order bo, its layers
// compressed at FastLZ level (a test writer, as Sample_TempObstacles
// saves).
func encodeTileCache(tc *TileCache, bo binary.AppendByteOrder, level int) []byte {
	e := &enc{bo: bo}
	e.u32(tsetMagic)
	e.i32(tsetVersion)
	e.i32(int32(len(tc.Layers)))
	p, c := tc.Params, tc.Cache
	for _, v := range []float32{p.OrigM.X, p.OrigM.Y, p.OrigM.Z, p.TileWidthM, p.TileHeightM} {
		e.f32(v)
	}
	e.i32(p.MaxTiles)
	e.i32(p.MaxPolys)
	for _, v := range []float32{c.OrigM.X, c.OrigM.Y, c.OrigM.Z, c.CellM, c.RowM} {
		e.f32(v)
	}
	e.i32(c.Width)
	e.i32(c.Height)
	for _, v := range []float32{c.WalkableHeightM, c.WalkableRadiusM, c.WalkableClimbM, c.MaxSimplificationError} {
		e.f32(v)
	}
	e.i32(c.MaxTiles)
	e.i32(c.MaxObstacles)
	for i, l := range tc.Layers {
		t := &enc{bo: bo}
		t.u32(layerMagic)
		t.i32(layerVersion)
		t.i32(l.TX)
		t.i32(l.TY)
		t.i32(l.TLayer)
		for _, v := range []float32{l.BMin.X, l.BMin.Y, l.BMin.Z, l.BMax.X, l.BMax.Y, l.BMax.Z} {
			t.f32(v)
		}
		t.u16(l.HMin)
		t.u16(l.HMax)
		for _, v := range []uint8{l.Width, l.Height, l.MinX, l.MaxX, l.MinY, l.MaxY, 0, 0} {
			t.u8(v)
		}
		raw := append(append(append([]byte(nil), l.Heights...), l.Areas...), l.Cons...)
		t.b = append(t.b, fastLZEncode(raw, level)...)
		e.u32(uint32(i + 1))
		e.i32(int32(len(t.b)))
		e.b = append(e.b, t.b...)
	}
	return e.b
}

func testCache() *TileCache {
	tc := &TileCache{
		Params: Params{TileWidthM: 19.2, TileHeightM: 19.2, MaxTiles: 64, MaxPolys: 4096},
		Cache: CacheParams{CellM: 0.3, RowM: 0.2, Width: 64, Height: 64, WalkableHeightM: 2,
			WalkableRadiusM: 0.6, WalkableClimbM: 0.9, MaxSimplificationError: 1.3, MaxTiles: 128, MaxObstacles: 32},
	}
	tc.Layers = []Layer{testLayer(0, 0, 0, 64, 64), testLayer(0, 0, 1, 64, 64), testLayer(1, 0, 0, 20, 64), testLayer(1, 2, 0, 255, 255)}
	return tc
}

func TestDecodeTileCache(t *testing.T) {
	want := testCache()
	for _, c := range []struct {
		name  string
		bo    binary.AppendByteOrder
		level int
	}{{"little endian, level 1", binary.LittleEndian, 1}, {"big endian, level 2", binary.BigEndian, 2}} {
		t.Run(c.name, func(t *testing.T) {
			data := encodeTileCache(want, c.bo, c.level)
			got, err := DecodeTileCache(data)
			if err != nil {
				t.Fatal(err)
			}
			if got.BigEndian != (c.bo == binary.BigEndian) || got.Params != want.Params || got.Cache != want.Cache {
				t.Errorf("header: %+v %+v, want %+v %+v", got.Params, got.Cache, want.Params, want.Cache)
			}
			if len(got.Layers) != len(want.Layers) {
				t.Fatalf("%d layers, want %d", len(got.Layers), len(want.Layers))
			}
			for i, l := range got.Layers {
				w := want.Layers[i]
				w.Ref, w.DataSize = uint32(i+1), l.DataSize
				if string(l.Heights) != string(w.Heights) || string(l.Areas) != string(w.Areas) || string(l.Cons) != string(w.Cons) {
					t.Errorf("layer %d: grids differ", i)
				}
				l.Heights, l.Areas, l.Cons, w.Heights, w.Areas, w.Cons = nil, nil, nil, nil, nil, nil
				if !reflect.DeepEqual(l, w) {
					t.Errorf("layer %d: %+v, want %+v", i, l, w)
				}
			}
			l := got.Layers[1]
			if _, ok := l.CellTop(&got.Cache, 0, 0); ok {
				t.Error("cell (0, 0) has a top, want empty")
			}
			p, ok := l.CellTop(&got.Cache, 9, 1)
			if !ok || math.Abs(float64(p.Y-(l.BMin.Y+3*0.2))) > 1e-5 || math.Abs(float64(p.X-(l.BMin.X+9.5*0.3))) > 1e-5 {
				t.Errorf("cell (9, 1) top %v %v", p, ok)
			}
		})
	}
}

func TestDecodeTileCacheErrors(t *testing.T) {
	le := binary.LittleEndian
	good := encodeTileCache(testCache(), le, 1)
	mod := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	first := tsetHeaderSize + tsetTileHeaderSize // the first layer's header
	for _, c := range []struct {
		name string
		data []byte
		msg  string
		not  bool // wraps ErrNotTileCache
	}{
		{"empty", nil, "the file is empty", true},
		{"navmesh set", []byte("TESM\x01\x00\x00\x00"), "Detour navmesh set (MSET), not a tile cache", true},
		{"bare layer", []byte("RLTD\x01\x00\x00\x00"), "single tile-cache layer (DTLR)", true},
		{"OBJ", []byte("v 1 2 3\n"), "Wavefront OBJ", true},
		{"short header", good[:50], "shorter than its 92-byte header", false},
		{"version", mod(func(b []byte) []byte { le.PutUint32(b[4:], 4); return b }), "TSET version 4, want 1", false},
		{"tile count", mod(func(b []byte) []byte { le.PutUint32(b[8:], 1<<30); return b }), "TSET tile count 1073741824", false},
		{"cell size", mod(func(b []byte) []byte { le.PutUint32(b[52:], 0); return b }), "TSET cell size 0 m", false},
		{"data size", mod(func(b []byte) []byte { le.PutUint32(b[tsetHeaderSize+4:], 1<<30); return b }), "TSET tile 0: data size 1073741824", false},
		{"layer magic", mod(func(b []byte) []byte { copy(b[first:], "VAND"); return b }), "layer magic", false},
		{"layer version", mod(func(b []byte) []byte { le.PutUint32(b[first+4:], 2); return b }), "layer version 2, want 1", false},
		{"zero grid", mod(func(b []byte) []byte { b[first+48] = 0; return b }), "grid of 0 x 64 cells", false},
		{"grid size", mod(func(b []byte) []byte { b[first+48] = 63; return b }), "FastLZ data", false},
		{"truncated", good[:len(good)-10], "but", false},
	} {
		_, err := DecodeTileCache(c.data)
		if err == nil || !strings.Contains(err.Error(), c.msg) || errors.Is(err, ErrNotTileCache) != c.not {
			t.Errorf("%s: error %v, want one saying %q (ErrNotTileCache: %v)", c.name, err, c.msg, c.not)
		}
	}
	// An empty entry ends the file as in RecastDemo's loadAll.
	b := mod(func(b []byte) []byte { le.PutUint32(b[tsetHeaderSize:], 0); return b })
	if tc, err := DecodeTileCache(b); err != nil || len(tc.Layers) != 0 {
		t.Errorf("a zero first ref: %v, %v", tc, err)
	}
}

func TestReadTileCacheRefusesEarly(t *testing.T) {
	_, err := ReadTileCache(strings.NewReader("TESM"+strings.Repeat("\x00", 1000)), "x.bin")
	if !errors.Is(err, ErrNotTileCache) || !strings.Contains(err.Error(), "x.bin") {
		t.Errorf("error %v", err)
	}
}

// FuzzDecodeTileCache: DecodeTileCache never panics, and every layer it
// returns has grids of its size.
func FuzzDecodeTileCache(f *testing.F) {
	tc := testCache()
	tc.Layers = tc.Layers[:3]
	f.Add(encodeTileCache(tc, binary.LittleEndian, 1))
	f.Add(encodeTileCache(tc, binary.BigEndian, 2))
	tc.Layers = []Layer{testLayer(0, 0, 0, 4, 3)}
	f.Add(encodeTileCache(tc, binary.LittleEndian, 1))
	f.Add([]byte("TEST"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tc, err := DecodeTileCache(data)
		if err != nil {
			return
		}
		for i, l := range tc.Layers {
			n := int(l.Width) * int(l.Height)
			if len(l.Heights) != n || len(l.Areas) != n || len(l.Cons) != n {
				t.Fatalf("layer %d: grids of %d, %d, %d for %d cells", i, len(l.Heights), len(l.Areas), len(l.Cons), n)
			}
		}
	})
}

// TestReadDetourTileCache: the tile cache real Detour wrote of dungeon
// (testdata/README.md) reads with its 15 layers of 64 x 64 cells, each
// holding spans, within the cache's tiling.
func TestReadDetourTileCache(t *testing.T) {
	tc, err := ReadTileCacheFile("testdata/dungeon-tilecache.bin")
	if err != nil {
		t.Fatal(err)
	}
	if len(tc.Layers) != 15 || tc.BigEndian || tc.Cache.CellM != 0.3 || tc.Cache.Width != 64 {
		t.Fatalf("%d layers, big endian %v, cache %+v", len(tc.Layers), tc.BigEndian, tc.Cache)
	}
	for i, l := range tc.Layers {
		filled := 0
		for _, h := range l.Heights {
			if h != LayerEmpty {
				filled++
				if int(h) > int(l.HMax-l.HMin) {
					t.Errorf("layer %d: height %d above its range %d..%d", i, h, l.HMin, l.HMax)
				}
			}
		}
		if l.Width != 64 || l.Height != 64 || filled == 0 {
			t.Errorf("layer %d: %d x %d cells, %d with a span", i, l.Width, l.Height, filled)
		}
	}
	if tc.Layers[0].Ref == 0 || tc.Layers[0].DataSize == 0 {
		t.Errorf("layer 0: ref %#x, %d bytes", tc.Layers[0].Ref, tc.Layers[0].DataSize)
	}
}
