package navmesh

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"navviz/core/geom"
)

// Hand-made tiles are 3 m square (twoColumns: polygon 0 covers local x
// 0..1.5 m, polygon 1 x 1.5..3 m) at height rows*0.2 m.

// linkAt returns an off-mesh link from start to end, radius 0.4 m.
func linkAt(start, end geom.Vec3, bidir bool, id uint32) OffMeshLink {
	return OffMeshLink{StartM: start, EndM: end, RadiusM: 0.4, Flags: 5, Area: 9, Bidirectional: bidir, UserID: id}
}

// withLinks returns params p with the off-mesh links ls.
func withLinks(p TileParams, ls ...OffMeshLink) TileParams {
	p.OffMeshLinks = ls
	return p
}

func TestOffMeshLinkValidate(t *testing.T) {
	ok := linkAt(geom.V3(1, 2, 1), geom.V3(5, 2, 1), true, 1)
	big := float32(1<<21 + 1024)
	for _, c := range []struct {
		name string
		edit func(l *OffMeshLink)
		want string // "" valid
	}{
		{"valid", func(*OffMeshLink) {}, ""},
		{"edge of range", func(l *OffMeshLink) { l.EndM.X = 1 << 21 }, ""},
		{"nan start", func(l *OffMeshLink) { l.StartM.Y = float32(math.NaN()) }, "start y = NaN"},
		{"inf end", func(l *OffMeshLink) { l.EndM.Z = float32(math.Inf(-1)) }, "end z = -Inf"},
		{"far", func(l *OffMeshLink) { l.StartM.X = -big }, "start x = -2.098176e+06"},
		{"zero radius", func(l *OffMeshLink) { l.RadiusM = 0 }, "radius = 0 m"},
		{"negative radius", func(l *OffMeshLink) { l.RadiusM = -1 }, "radius = -1 m"},
		{"nan radius", func(l *OffMeshLink) { l.RadiusM = float32(math.NaN()) }, "radius = NaN m"},
		{"area", func(l *OffMeshLink) { l.Area = 64 }, "area = 64"},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := ok
			c.edit(&l)
			err := l.Validate()
			if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
				t.Fatalf("Validate() = %v, want %q", err, c.want)
			}
		})
	}
}

// TestOffMeshTileData: a tile keeps the links whose start one of its
// polygons lies under, writes them as version 2 and decodes them back to
// the same bytes; a tile without links is version 1.
func TestOffMeshTileData(t *testing.T) {
	cols := twoColumns(0, 0, 10) // y = 2 m
	onPoly0 := linkAt(geom.V3(0.7, 2.1, 1.5), geom.V3(10, 2, 1), true, 1)
	edge := linkAt(geom.V3(3.3, 2, 1.5), geom.V3(10, 2, 1), false, 2) // 0.3 m beyond x = 3: within the radius
	far := linkAt(geom.V3(3.5, 2, 1.5), geom.V3(10, 2, 1), true, 3)   // 0.5 m beyond
	high := linkAt(geom.V3(1, 3.5, 1.5), geom.V3(10, 2, 1), true, 4)  // 1.5 m above, climb 0.9
	data := mustBuild(t, cols, nil, withLinks(params(0, 0, 0), onPoly0, edge, far, high))
	if v := binary.LittleEndian.Uint16(data[4:]); v != TileVersion {
		t.Fatalf("version %d, want %d", v, TileVersion)
	}
	tile, err := DecodeTile(data)
	if err != nil {
		t.Fatal(err)
	}
	if want := []OffMeshLink{onPoly0, edge}; !slices.Equal(tile.OffMesh, want) {
		t.Fatalf("kept links %+v, want %+v", tile.OffMesh, want)
	}
	again, err := tile.MarshalBinary()
	if err != nil || string(again) != string(data) {
		t.Fatalf("re-encoded differently (%v)", err)
	}
	plain := mustBuild(t, cols, nil, params(0, 0, 0))
	if v := binary.LittleEndian.Uint16(plain[4:]); v != TileVersionNoOffMesh {
		t.Fatalf("tile without links: version %d, want %d", v, TileVersionNoOffMesh)
	}
	b, err := BuildTile(cols, nil, params(0, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	wb, err := b.WithOffMesh([]OffMeshLink{onPoly0, edge, far, high})
	if err != nil || string(wb.Data()) != string(data) {
		t.Fatalf("WithOffMesh gives other data than BuildTile (%v)", err)
	}
	if back, err := wb.WithOffMesh(nil); err != nil || string(back.Data()) != string(plain) {
		t.Fatalf("WithOffMesh(nil) does not give the tile without links back (%v)", err)
	}
	if same, _ := wb.WithOffMesh([]OffMeshLink{onPoly0, edge}); same != wb {
		t.Fatal("WithOffMesh with the same links made a new tile")
	}
	if _, err := b.WithOffMesh([]OffMeshLink{{RadiusM: -1}}); err == nil {
		t.Fatal("WithOffMesh accepted an invalid link")
	}
}

// TestOffMeshDecodeRejects: every off-mesh field a decoder checks.
func TestOffMeshDecodeRejects(t *testing.T) {
	cols := twoColumns(0, 0, 10)
	data := mustBuild(t, cols, nil, withLinks(params(0, 0, 0), linkAt(geom.V3(0.7, 2, 1.5), geom.V3(10, 2, 1), true, 1)))
	rec := len(data) - OffMeshRecordSize
	put32 := func(off int, v uint32) func([]byte) []byte {
		return func(b []byte) []byte { binary.LittleEndian.PutUint32(b[off:], v); return b }
	}
	for _, c := range []struct {
		name string
		edit func([]byte) []byte
		want string
	}{
		{"count 0", put32(84, 0), "off-mesh link count 0"},
		{"count too large", put32(84, MaxTileOffMesh+1), "off-mesh link count 32768"},
		{"count beyond data", put32(84, 2), "need"},
		{"direction", func(b []byte) []byte { b[rec+31] = 2; return b }, "direction byte 0x02"},
		{"radius 0", put32(rec+24, 0), "radius = 0"},
		{"nan start", put32(rec+4, 0x7fc00000), "start y = NaN"},
		{"area", func(b []byte) []byte { b[rec+30] = 64; return b }, "area = 64"},
		{"version 3", func(b []byte) []byte { binary.LittleEndian.PutUint16(b[4:], 3); return b }, "version 3"},
		{"v1 with links", func(b []byte) []byte { binary.LittleEndian.PutUint16(b[4:], 1); return b }, "need"},
		{"trailing", func(b []byte) []byte { return append(b, 0) }, "need"},
		{"short v2 header", func(b []byte) []byte { return b[:86] }, "version-2 header"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecodeTile(c.edit(slices.Clone(data)))
			if !errors.Is(err, ErrCorruptTile) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("DecodeTile: %v, want ErrCorruptTile with %q", err, c.want)
			}
		})
	}
}

// linkKey names a link by the position and index of the node it leads to
// (references differ with the order tiles are added in).
type linkKey struct {
	x, z       int32
	node       uint32
	edge, side uint8
}

// nodeLinks returns the links of node i of the tile at (x, z) layer 0.
func nodeLinks(t *testing.T, m *Mesh, x, z int32, i uint32) []linkKey {
	t.Helper()
	tr, ok := m.TileAt(x, z, 0)
	if !ok {
		t.Fatalf("no tile at (%d, %d)", x, z)
	}
	ls, err := m.Links(tr.Poly(i))
	if err != nil {
		t.Fatal(err)
	}
	var out []linkKey
	for _, l := range ls {
		lt, _, err := m.DecodeRef(l.Ref)
		if err != nil {
			t.Fatal(err)
		}
		h := &m.slots[lt.Slot()].tile.t.Header
		out = append(out, linkKey{h.TileX, h.TileZ, l.Ref.Poly(), l.Edge, l.Side})
	}
	return out
}

// offMeshOnly keeps the off-mesh links of ks.
func offMeshOnly(ks []linkKey) []linkKey {
	return slices.DeleteFunc(slices.Clone(ks), func(k linkKey) bool { return k.side != OffMeshSide })
}

// TestOffMeshConnect: links land on the polygon under each end, in the
// tile of the start, in a tile far away and in both tiles at a border,
// one-way links only from their start; the links do not depend on the
// order the tiles come in, and go when a tile leaves.
func TestOffMeshConnect(t *testing.T) {
	// Tiles (0,0), (1,0) side by side, (3,0) apart; all twoColumns at 2 m.
	// Node 2 of tile (0,0) is link 0: (0.7, 1.5) on its polygon 0 to
	// (11, 1.5) on polygon 1 of (3,0), both ways. Node 3 is link 1: to
	// the border x = 3 between (0,0) and (1,0), one way.
	far := linkAt(geom.V3(0.7, 2, 1.5), geom.V3(11, 2, 1.5), true, 1)
	border := linkAt(geom.V3(0.8, 2, 1), geom.V3(3, 2, 1), false, 2)
	tiles := map[[2]int32][]byte{
		{0, 0}: mustBuild(t, twoColumns(0, 0, 10), nil, withLinks(params(0, 0, 0), far, border)),
		{1, 0}: mustBuild(t, twoColumns(1, 0, 10), nil, params(1, 0, 0)),
		{3, 0}: mustBuild(t, twoColumns(3, 0, 10), nil, params(3, 0, 0)),
	}
	wantNode := map[uint32][]linkKey{
		2: {{0, 0, 0, 0, OffMeshSide}, {3, 0, 1, 1, OffMeshSide}},
		3: {{0, 0, 0, 0, OffMeshSide}, {1, 0, 0, 1, OffMeshSide}, {0, 0, 1, 1, OffMeshSide}},
	}
	wantPoly := map[[3]int32][]linkKey{ // the off-mesh links of (x, z, polygon)
		{0, 0, 0}: {{0, 0, 2, 0, OffMeshSide}, {0, 0, 3, 0, OffMeshSide}},
		{0, 0, 1}: nil, // the border end of a one-way link: no way back
		{1, 0, 0}: nil,
		{3, 0, 1}: {{0, 0, 2, 1, OffMeshSide}},
	}
	for _, order := range [][][2]int32{{{0, 0}, {1, 0}, {3, 0}}, {{3, 0}, {1, 0}, {0, 0}}, {{1, 0}, {0, 0}, {3, 0}}} {
		t.Run(fmt.Sprint(order), func(t *testing.T) {
			m := NewMesh()
			for _, p := range order {
				mustAdd(t, m, tiles[p])
			}
			checkReciprocal(t, m)
			for node, want := range wantNode {
				if got := nodeLinks(t, m, 0, 0, node); !slices.Equal(got, want) {
					t.Errorf("node %d links %v, want %v", node, got, want)
				}
			}
			for p, want := range wantPoly {
				if got := offMeshOnly(nodeLinks(t, m, p[0], p[1], uint32(p[2]))); !slices.Equal(got, want) {
					t.Errorf("tile (%d, %d) polygon %d off-mesh links %v, want %v", p[0], p[1], p[2], got, want)
				}
			}
			tr, _ := m.TileAt(0, 0, 0)
			if c, ok := m.OffMeshLinkOf(tr.Poly(2)); !ok || c != far {
				t.Errorf("OffMeshLinkOf(node 2) = %+v, %v, want %+v", c, ok, far)
			}
			if m.IsOffMesh(tr.Poly(1)) {
				t.Error("polygon 1 is taken for an off-mesh link")
			}
		})
	}
}

// TestOffMeshRemove: a tile that leaves takes the links into it along;
// the links come back when it returns, and follow a replaced tile.
func TestOffMeshRemove(t *testing.T) {
	far := linkAt(geom.V3(0.7, 2, 1.5), geom.V3(11, 2, 1.5), true, 1)
	start := mustBuild(t, twoColumns(0, 0, 10), nil, withLinks(params(0, 0, 0), far))
	end := mustBuild(t, twoColumns(3, 0, 10), nil, params(3, 0, 0))
	m := NewMesh()
	mustAdd(t, m, start)
	mustAdd(t, m, end)
	full := []linkKey{{0, 0, 0, 0, OffMeshSide}, {3, 0, 1, 1, OffMeshSide}}
	steps := []struct {
		name     string
		do       func() error
		node     []linkKey // links of node 2 of (0, 0), nil: tile gone
		endPoly1 []linkKey // off-mesh links of polygon 1 of (3, 0), nil: none
		endHeld  bool
	}{
		{"remove end", func() error { return m.RemoveTile(3, 0, 0) }, full[:1], nil, false},
		{"add end", func() error { _, err := m.AddTile(end); return err }, full, []linkKey{{0, 0, 2, 1, OffMeshSide}}, true},
		{"replace start", func() error { _, err := m.ReplaceTile(start); return err }, full, []linkKey{{0, 0, 2, 1, OffMeshSide}}, true},
		{"replace end", func() error { _, err := m.ReplaceTile(end); return err }, full, []linkKey{{0, 0, 2, 1, OffMeshSide}}, true},
		{"remove start", func() error { return m.RemoveTile(0, 0, 0) }, nil, nil, true},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		checkReciprocal(t, m)
		if s.node != nil {
			if got := nodeLinks(t, m, 0, 0, 2); !slices.Equal(got, s.node) {
				t.Errorf("%s: node links %v, want %v", s.name, got, s.node)
			}
		}
		if s.endHeld {
			if got := offMeshOnly(nodeLinks(t, m, 3, 0, 1)); !slices.Equal(got, s.endPoly1) {
				t.Errorf("%s: end polygon links %v, want %v", s.name, got, s.endPoly1)
			}
		}
	}
}

// TestOffMeshSerialize: a mesh with off-mesh links and a run-time edit of
// a link node encodes, decodes and restores with the same links.
func TestOffMeshSerialize(t *testing.T) {
	far := linkAt(geom.V3(0.7, 2, 1.5), geom.V3(11, 2, 1.5), true, 1)
	start := mustBuild(t, twoColumns(0, 0, 10), nil, withLinks(params(0, 0, 0), far))
	end := mustBuild(t, twoColumns(3, 0, 10), nil, params(3, 0, 0))
	m := NewMesh()
	s := mustAdd(t, m, start)
	mustAdd(t, m, end)
	if err := m.SetPolyFlags(s.Poly(2), 0x40); err != nil {
		t.Fatal(err)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var m2 Mesh
	if err := m2.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	checkReciprocal(t, &m2)
	if got, want := nodeLinks(t, &m2, 0, 0, 2), nodeLinks(t, m, 0, 0, 2); !slices.Equal(got, want) {
		t.Fatalf("decoded node links %v, want %v", got, want)
	}
	if f, err := m2.PolyFlags(s.Poly(2)); err != nil || f != 0x40 {
		t.Fatalf("decoded node flags %#x, %v, want 0x40", f, err)
	}
	st := m.State()
	m3 := NewMesh()
	data := map[uint64][]byte{ContentID(start): start, ContentID(end): end}
	if err := m3.RestoreState(st, func(id uint64) []byte { return data[id] }); err != nil {
		t.Fatal(err)
	}
	checkReciprocal(t, m3)
	if f, err := m3.PolyFlags(s.Poly(2)); err != nil || f != 0x40 {
		t.Fatalf("restored node flags %#x, %v, want 0x40", f, err)
	}
}
