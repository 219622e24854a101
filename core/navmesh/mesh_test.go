package navmesh

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"navviz/core/contour"
	"navviz/core/polymesh"
)

// linkDesc describes a link by tile positions and polygon indices, so that
// meshes built in different orders (different slots) can be compared.
type linkDesc struct {
	fromX, fromZ int32
	fromLayer    uint8
	fromPoly     int
	edge, side   uint8
	toX, toZ     int32
	toLayer      uint8
	toPoly       int
	bmin, bmax   uint8
}

func describeLinks(t testing.TB, m *Mesh) []linkDesc {
	t.Helper()
	var out []linkDesc
	for _, tr := range m.Tiles() {
		tile, _ := m.Tile(tr)
		for i := range tile.Polys {
			links, err := m.Links(tr.Poly(uint32(i)))
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range links {
				to, p, err := m.DecodeRef(l.Ref)
				if err != nil {
					t.Fatal(err)
				}
				tt, _ := m.Tile(to)
				out = append(out, linkDesc{tile.Header.TileX, tile.Header.TileZ, tile.Header.Layer, i, l.Edge, l.Side,
					tt.Header.TileX, tt.Header.TileZ, tt.Header.Layer, p, l.BMin, l.BMax})
			}
		}
	}
	return out
}

func TestAddReplaceRemove(t *testing.T) {
	m := NewMesh()
	a := mustBuild(t, twoColumns(0, 0, 10), nil, params(0, 0, 0))
	b := mustBuild(t, twoRows(1, 0, 12), nil, params(1, 0, 0))
	ra := mustAdd(t, m, a)
	rb := mustAdd(t, m, b)
	if ra.Slot() != 0 || rb.Slot() != 1 || ra.Generation() != 1 || rb.Generation() != 1 {
		t.Fatalf("refs %#x %#x, want slots 0, 1 at generation 1", uint64(ra), uint64(rb))
	}
	if _, err := m.AddTile(a); err == nil || !strings.Contains(err.Error(), "already holds") {
		t.Errorf("second add at the same position: %v", err)
	}
	if got, ok := m.TileAt(1, 0, 0); !ok || got != rb {
		t.Errorf("TileAt(1, 0, 0) = %#x, %v", uint64(got), ok)
	}
	if _, ok := m.TileAt(1, 0, 1); ok {
		t.Errorf("TileAt(1, 0, 1) found a tile")
	}
	if id, _ := m.TileContentID(rb); id != ContentID(b) {
		t.Errorf("content id %#x, want %#x", id, ContentID(b))
	}
	if d, _ := m.TileData(rb); !bytes.Equal(d, b) {
		t.Errorf("TileData differs")
	}

	// Replace: same slot, next generation, old refs stale.
	old := rb.Poly(1)
	b2 := mustBuild(t, twoRows(1, 0, 11), nil, params(1, 0, 0))
	rb2, err := m.ReplaceTile(b2)
	if err != nil {
		t.Fatal(err)
	}
	if rb2.Slot() != rb.Slot() || rb2.Generation() != 2 {
		t.Errorf("replaced ref %#x, want slot %d generation 2", uint64(rb2), rb.Slot())
	}
	if _, _, err := m.DecodeRef(old); err == nil || !strings.Contains(err.Error(), "stale") {
		t.Errorf("old ref after replace: %v", err)
	}
	if _, _, err := m.DecodeRef(rb2.Poly(1)); err != nil {
		t.Errorf("new ref: %v", err)
	}
	if _, err := m.ReplaceTile(mustBuild(t, twoRows(5, 5, 1), nil, params(5, 5, 0))); err == nil {
		t.Errorf("replace at an empty position accepted")
	}

	// Remove: slot empty, generation bumped, reused by the next add.
	if err := m.RemoveTile(0, 0, 0); err != nil {
		t.Fatal(err)
	}
	if err := m.RemoveTile(0, 0, 0); err == nil {
		t.Errorf("second remove accepted")
	}
	if m.IsValidRef(ra.Poly(0)) {
		t.Errorf("ref into a removed tile is valid")
	}
	if m.TileCount() != 1 || len(m.Tiles()) != 1 {
		t.Errorf("%d tiles after remove", m.TileCount())
	}
	c := mustBuild(t, twoColumns(0, 1, 10), nil, params(0, 1, 0))
	rc := mustAdd(t, m, c)
	if rc.Slot() != 0 || rc.Generation() != 2 {
		t.Errorf("re-used slot ref %#x, want slot 0 generation 2", uint64(rc))
	}
	if m.IsValidRef(ra.Poly(0)) {
		t.Errorf("ref into the removed tile became valid when its slot was reused")
	}
	rd := mustAdd(t, m, a)
	if rd.Slot() != 2 {
		t.Errorf("new tile in slot %d, want 2", rd.Slot())
	}
}

func TestDecodeRefErrors(t *testing.T) {
	m := NewMesh()
	r := mustAdd(t, m, mustBuild(t, twoColumns(0, 0, 1), nil, params(0, 0, 0)))
	for _, tc := range []struct {
		ref    PolyRef
		substr string
	}{
		{0, "generation 0"},
		{r.Poly(2), "polygon 2"},
		{packRef(1, 5, 0), "slot 5"},
		{packRef(2, 0, 0), "stale"},
	} {
		if _, _, err := m.DecodeRef(tc.ref); err == nil || !strings.Contains(err.Error(), tc.substr) {
			t.Errorf("DecodeRef(%#x) = %v, want an error containing %q", uint64(tc.ref), err, tc.substr)
		}
	}
	if _, err := m.Tile(TileRef(packRef(2, 0, 0))); err == nil {
		t.Errorf("Tile of a stale ref accepted")
	}
	ref := packRef(0xabcdef, 0x123456, 0x7fff)
	if ref.Generation() != 0xabcdef || ref.Slot() != 0x123456 || ref.Poly() != 0x7fff || ref.Tile() != TileRef(packRef(0xabcdef, 0x123456, 0)) {
		t.Errorf("ref fields %x %x %x", ref.Generation(), ref.Slot(), ref.Poly())
	}
	if uint64(ref) != 0xabcdef<<40|0x123456<<16|0x7fff {
		t.Errorf("ref bits %#x", uint64(ref))
	}
}

func TestGenerationWraps(t *testing.T) {
	if nextGen(MaxGeneration) != 1 || nextGen(1) != 2 {
		t.Errorf("nextGen wraps to %d", nextGen(MaxGeneration))
	}
}

// TestCheckLinksReports: CheckLinks counts the links of a good mesh and
// names a link whose reverse is missing or whose reference names no
// polygon.
func TestCheckLinksReports(t *testing.T) {
	m := NewMesh()
	ra := mustAdd(t, m, mustBuild(t, twoColumns(0, 0, 10), nil, params(0, 0, 0)))
	rb := mustAdd(t, m, mustBuild(t, twoRows(1, 0, 12), nil, params(1, 0, 0)))
	border, internal, err := m.CheckLinks()
	if err != nil || border != 4 || internal != 4 {
		t.Fatalf("good mesh: %d border and %d internal links, %v; want 4, 4, nil", border, internal, err)
	}
	// Drop B.0's link back to A.1: A.1's link to B.0 has no reverse.
	mb := m.slots[rb.Slot()].tile
	saved := mb.links[0]
	mb.links[0] = slices.DeleteFunc(slices.Clone(saved), func(l Link) bool { return l.Ref == ra.Poly(1) })
	if _, _, err := m.CheckLinks(); err == nil || !strings.Contains(err.Error(), "no reverse") {
		t.Errorf("missing reverse: %v", err)
	}
	// A link to a polygon beyond B's two.
	mb.links[0] = append(slices.Clone(saved), Link{Ref: rb.Poly(7), Side: InternalSide, BMax: 255})
	if _, _, err := m.CheckLinks(); err == nil || !strings.Contains(err.Error(), "names polygon 7") {
		t.Errorf("bad reference: %v", err)
	}
	mb.links[0] = saved
	if _, _, err := m.CheckLinks(); err != nil {
		t.Errorf("restored: %v", err)
	}
}

func TestLinksAcrossBorders(t *testing.T) {
	m := NewMesh()
	// A at (0, 0) 2 m high; B at (1, 0) 2.4 m (within the 0.9 m climb);
	// B's layer 1 at (1, 0) 8 m (out of reach); C at (0, 1) 2 m.
	ra := mustAdd(t, m, mustBuild(t, twoColumns(0, 0, 10), nil, params(0, 0, 0)))
	rb := mustAdd(t, m, mustBuild(t, twoRows(1, 0, 12), nil, params(1, 0, 0)))
	rh := mustAdd(t, m, mustBuild(t, twoRows(1, 0, 40), nil, params(1, 0, 1)))
	rc := mustAdd(t, m, mustBuild(t, twoColumns(0, 1, 10), nil, params(0, 1, 0)))

	links, _ := m.Links(ra.Poly(1))
	// Polygon 1 of A: edge 0 internal to polygon 0; edge 1 (z = 10) to
	// C's polygon 1; edge 2 (x = 10, from z 3 m down to 0) to B's polygons
	// 1 (z 1.2..3 m: fraction 0..0.6) and 0 (z 0..1.2 m: 0.6..1).
	want := []Link{
		{ra.Poly(0), 0, InternalSide, 0, 255},
		{rc.Poly(1), 1, DirPosZ, 0, 255},
		{rb.Poly(0), 2, DirPosX, 153, 255},
		{rb.Poly(1), 2, DirPosX, 0, 153},
	}
	if fmt.Sprint(links) != fmt.Sprint(want) {
		t.Errorf("links of A.1:\n got %v\nwant %v", links, want)
	}
	links, _ = m.Links(rb.Poly(0))
	want = []Link{{ra.Poly(1), 0, DirNegX, 0, 255}, {rb.Poly(1), 1, InternalSide, 0, 255}}
	if fmt.Sprint(links) != fmt.Sprint(want) {
		t.Errorf("links of B.0:\n got %v\nwant %v", links, want)
	}
	for i := uint32(0); i < 2; i++ {
		links, _ := m.Links(rh.Poly(i))
		for _, l := range links {
			if l.Side != InternalSide {
				t.Errorf("high layer polygon %d linked across the border: %v", i, l)
			}
		}
	}
	if n := checkReciprocal(t, m); n != 2*(2+2) {
		t.Errorf("%d external links, want 8", n)
	}

	// Removing B drops every link into it; the others stay.
	if err := m.RemoveTile(1, 0, 0); err != nil {
		t.Fatal(err)
	}
	links, _ = m.Links(ra.Poly(1))
	if fmt.Sprint(links) != fmt.Sprint([]Link{{ra.Poly(0), 0, InternalSide, 0, 255}, {rc.Poly(1), 1, DirPosZ, 0, 255}}) {
		t.Errorf("links of A.1 after removing B: %v", links)
	}
	checkReciprocal(t, m)

	// Adding B at a matching height on layer 2 links it again.
	rb3 := mustAdd(t, m, mustBuild(t, twoRows(1, 0, 8), nil, params(1, 0, 2)))
	links, _ = m.Links(ra.Poly(1))
	if len(links) != 4 || links[2].Ref.Tile() != rb3 || links[3].Ref.Tile() != rb3 {
		t.Errorf("links of A.1 after re-adding B: %v", links)
	}
	checkReciprocal(t, m)

	// Replacing A re-links it with new refs; the neighbours point at them.
	ra2, err := m.ReplaceTile(mustBuild(t, twoColumns(0, 0, 9), nil, params(0, 0, 0)))
	if err != nil {
		t.Fatal(err)
	}
	links, _ = m.Links(rc.Poly(1))
	found := false
	for _, l := range links {
		if l.Ref == ra2.Poly(1) {
			found = true
		}
		if l.Ref.Tile() == ra {
			t.Errorf("C still links to the replaced A: %v", l)
		}
	}
	if !found {
		t.Errorf("C does not link to the new A: %v", links)
	}
	checkReciprocal(t, m)
}

// The links are a function of the set of tiles: adding them in any order
// gives the same links (compared by positions and polygon indices).
func TestLinksIndependentOfOrder(t *testing.T) {
	var datas [][]byte
	for z := int32(0); z < 3; z++ {
		for x := int32(0); x < 3; x++ {
			if (x+z)%2 == 0 {
				datas = append(datas, mustBuild(t, twoColumns(x, z, uint16(10+x)), nil, params(x, z, 0)))
			} else {
				datas = append(datas, mustBuild(t, twoRows(x, z, uint16(10+z)), nil, params(x, z, 0)))
				datas = append(datas, mustBuild(t, twoRows(x, z, 13), centreDetail(twoRows(x, z, 13), 0.1), params(x, z, 1)))
			}
		}
	}
	var first []linkDesc
	for k, perm := range [][]int{identity(len(datas)), reversed(len(datas)), shuffled(len(datas), 7)} {
		m := NewMesh()
		for _, i := range perm {
			mustAdd(t, m, datas[i])
		}
		checkReciprocal(t, m)
		got := describeLinks(t, m)
		if k == 0 {
			first = got
			continue
		}
		if fmt.Sprint(got) != fmt.Sprint(first) {
			t.Errorf("order %d gives different links", k)
		}
		// Decoding the serialization rebuilds the same links.
		if fmt.Sprint(describeLinks(t, relinked(t, m))) != fmt.Sprint(first) {
			t.Errorf("decoded mesh %d gives different links", k)
		}
	}
	if len(first) == 0 {
		t.Fatal("no links")
	}
}

// TestLinksAfterReplaceAndRemove replaces, removes and adds tiles of a 3 x 3
// grid (two layers at some positions, two versions of each tile) in a
// fixed pseudo-random order and checks after every step that the links are
// those of the same tiles linked from scratch (the mesh decoded from its
// serialization): what disconnect drops and connect makes leaves nothing
// stale and misses nothing.
func TestLinksAfterReplaceAndRemove(t *testing.T) {
	type pos struct {
		x, z  int32
		layer uint8
	}
	var all []pos
	versions := map[pos][3][]byte{}
	for z := int32(0); z < 3; z++ {
		for x := int32(0); x < 3; x++ {
			p := pos{x, z, 0}
			all = append(all, p)
			versions[p] = [3][]byte{
				mustBuild(t, twoColumns(x, z, uint16(10+x)), nil, params(x, z, 0)),
				mustBuild(t, twoRows(x, z, uint16(10+z)), nil, params(x, z, 0)),
				mustBuild(t, nineQuads(x, z, 10), nil, params(x, z, 0)),
			}
			if (x+z)%2 == 1 {
				p1 := pos{x, z, 1}
				all = append(all, p1)
				versions[p1] = [3][]byte{
					mustBuild(t, twoRows(x, z, 13), nil, params(x, z, 1)),
					mustBuild(t, twoColumns(x, z, 13), centreDetail(twoColumns(x, z, 13), 0.1), params(x, z, 1)),
					mustBuild(t, nineQuads(x, z, 13), nil, params(x, z, 1)),
				}
			}
		}
	}
	bySource := func(ds []linkDesc) string {
		slices.SortStableFunc(ds, func(a, b linkDesc) int {
			return cmp.Or(cmp.Compare(a.fromX, b.fromX), cmp.Compare(a.fromZ, b.fromZ),
				cmp.Compare(a.fromLayer, b.fromLayer), cmp.Compare(a.fromPoly, b.fromPoly))
		})
		return fmt.Sprint(ds)
	}
	m := NewMesh()
	held := map[pos]int{} // the version held at a position
	for _, p := range all {
		mustAdd(t, m, versions[p][0])
		held[p] = 0
	}
	seed := uint32(11)
	for step := range 200 {
		seed = seed*1664525 + 1013904223
		p := all[int(seed>>8)%len(all)]
		v, ok := held[p]
		switch {
		case !ok:
			mustAdd(t, m, versions[p][0])
			held[p] = 0
		case seed>>28 < 4:
			if err := m.RemoveTile(p.x, p.z, p.layer); err != nil {
				t.Fatal(err)
			}
			delete(held, p)
		default:
			next := (v + 1 + int(seed>>20)%2) % 3
			if _, err := m.ReplaceTile(versions[p][next]); err != nil {
				t.Fatal(err)
			}
			held[p] = next
		}
		checkReciprocal(t, m)
		if got, want := bySource(describeLinks(t, m)), bySource(describeLinks(t, relinked(t, m))); got != want {
			t.Fatalf("step %d (%v): links\n%s\nwant (linked from scratch)\n%s", step, p, got, want)
		}
	}
}

// relinked returns m decoded from its serialization: the same tiles,
// linked from scratch.
func relinked(t *testing.T, m *Mesh) *Mesh {
	t.Helper()
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var fresh Mesh
	if err := fresh.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	return &fresh
}

func identity(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}

func reversed(n int) []int {
	p := identity(n)
	sort.Sort(sort.Reverse(sort.IntSlice(p)))
	return p
}

func shuffled(n int, seed uint32) []int {
	p := identity(n)
	for i := n - 1; i > 0; i-- {
		seed = seed*1664525 + 1013904223
		j := int(seed>>8) % (i + 1)
		p[i], p[j] = p[j], p[i]
	}
	return p
}

func TestPolyEdits(t *testing.T) {
	m := NewMesh()
	ra := mustAdd(t, m, mustBuild(t, twoColumns(0, 0, 10), nil, params(0, 0, 0)))
	rb := mustAdd(t, m, mustBuild(t, twoRows(1, 0, 10), nil, params(1, 0, 0)))
	if f, _ := m.PolyFlags(ra.Poly(0)); f != 1 {
		t.Errorf("built flags %d, want 1", f)
	}
	if err := m.SetPolyFlags(ra.Poly(0), 0x55); err != nil {
		t.Fatal(err)
	}
	if err := m.SetPolyArea(rb.Poly(1), 7); err != nil {
		t.Fatal(err)
	}
	if err := m.SetPolyArea(rb.Poly(1), 64); err == nil {
		t.Errorf("area 64 accepted")
	}
	if err := m.SetPolyFlags(ra.Poly(3), 1); err == nil {
		t.Errorf("edit of polygon 3 of a 2-polygon tile accepted")
	}
	// Kept while the tiles are kept, whatever happens next door.
	if err := m.RemoveTile(1, 0, 0); err != nil {
		t.Fatal(err)
	}
	mustAdd(t, m, mustBuild(t, twoRows(1, 0, 10), nil, params(1, 0, 0)))
	if f, _ := m.PolyFlags(ra.Poly(0)); f != 0x55 {
		t.Errorf("flags after a neighbour changed: %#x, want 0x55", f)
	}
	st := m.State()
	if len(st.Tiles) != 2 || len(st.Tiles[0].Edits) != 1 || st.Tiles[0].Edits[0] != (PolyEdit{0, 0x55, 63}) || len(st.Tiles[1].Edits) != 0 {
		t.Errorf("state edits %+v", st.Tiles)
	}
	// The removed tile's edit is gone with it.
	rb2, _ := m.TileAt(1, 0, 0)
	if a, _ := m.PolyArea(rb2.Poly(1)); a != 63 {
		t.Errorf("area of the re-added tile %d, want 63", a)
	}
	// Lost when the tile is replaced.
	ra2, err := m.ReplaceTile(mustBuild(t, twoColumns(0, 0, 10), nil, params(0, 0, 0)))
	if err != nil {
		t.Fatal(err)
	}
	if f, _ := m.PolyFlags(ra2.Poly(0)); f != 1 {
		t.Errorf("flags after replace %#x, want the tile's 1", f)
	}
	if _, err := m.PolyFlags(ra.Poly(0)); err == nil {
		t.Errorf("flags through a stale ref")
	}
}

func TestMeshSerialization(t *testing.T) {
	build := func() *Mesh {
		m := NewMesh()
		for x := int32(0); x < 3; x++ {
			mustAdd(t, m, mustBuild(t, twoColumns(x, 0, 10), nil, params(x, 0, 0)))
		}
		mustAdd(t, m, mustBuild(t, twoRows(1, -1, 10), centreDetail(twoRows(1, -1, 10), 0.1), params(1, -1, 0)))
		if err := m.RemoveTile(1, 0, 0); err != nil {
			t.Fatal(err)
		}
		r, _ := m.TileAt(2, 0, 0)
		if err := m.SetPolyFlags(r.Poly(1), 9); err != nil {
			t.Fatal(err)
		}
		return m
	}
	m1, m2 := build(), build()
	b1, err := m1.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := m2.MarshalBinary()
	if !bytes.Equal(b1, b2) {
		t.Fatal("two identical histories serialize differently")
	}
	var m3 Mesh
	if err := m3.UnmarshalBinary(b1); err != nil {
		t.Fatal(err)
	}
	b3, _ := m3.MarshalBinary()
	if !bytes.Equal(b1, b3) {
		t.Error("decode/encode changes the bytes")
	}
	// The decoded mesh behaves like the original: same refs, free slot 1.
	r, ok := m3.TileAt(2, 0, 0)
	if r0, _ := m1.TileAt(2, 0, 0); !ok || r != r0 {
		t.Errorf("TileAt after decode %#x, want %#x", uint64(r), uint64(r0))
	}
	if f, _ := m3.PolyFlags(r.Poly(1)); f != 9 {
		t.Errorf("edit lost in serialization")
	}
	n1 := mustAdd(t, m1, mustBuild(t, twoColumns(5, 5, 1), nil, params(5, 5, 0)))
	n3 := mustAdd(t, &m3, mustBuild(t, twoColumns(5, 5, 1), nil, params(5, 5, 0)))
	if n1 != n3 || n1.Slot() != 1 || n1.Generation() != 2 {
		t.Errorf("add after decode %#x, original %#x", uint64(n3), uint64(n1))
	}

	// Corrupt serializations are rejected and leave the mesh unchanged.
	for i := 0; i < len(b1); i += 7 {
		for _, x := range []byte{1, 0x80} {
			bad := append([]byte(nil), b1...)
			bad[i] ^= x
			before, _ := m3.MarshalBinary()
			if err := m3.UnmarshalBinary(bad); err == nil {
				again, _ := m3.MarshalBinary()
				if !bytes.Equal(again, bad) {
					t.Fatalf("byte %d ^ %#x accepted but re-encodes differently", i, x)
				}
				if err := m3.UnmarshalBinary(before); err != nil {
					t.Fatal(err)
				}
				continue
			}
			after, _ := m3.MarshalBinary()
			if !bytes.Equal(before, after) {
				t.Fatalf("failed decode changed the mesh")
			}
		}
	}
	for n := 0; n < len(b1); n += 5 {
		if err := m3.UnmarshalBinary(b1[:n]); err == nil {
			t.Fatalf("truncation to %d bytes accepted", n)
		}
	}
}

func TestStateRoundTripAndRestore(t *testing.T) {
	a := mustBuild(t, twoColumns(0, 0, 10), nil, params(0, 0, 0))
	b := mustBuild(t, twoRows(1, 0, 10), nil, params(1, 0, 0))
	b2 := mustBuild(t, twoRows(1, 0, 11), nil, params(1, 0, 0))
	c := mustBuild(t, twoColumns(0, 1, 10), nil, params(0, 1, 0))
	m := NewMesh()
	ra := mustAdd(t, m, a)
	mustAdd(t, m, b)
	if err := m.SetPolyArea(ra.Poly(1), 3); err != nil {
		t.Fatal(err)
	}
	snap := m.State()
	sb, err := snap.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var st State
	if err := st.UnmarshalBinary(sb); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(st) != fmt.Sprint(*snap) {
		t.Errorf("state round trip: %+v, want %+v", st, *snap)
	}
	want, _ := m.MarshalBinary()

	// Change the mesh: replace B, add C, drop the edit.
	if _, err := m.ReplaceTile(b2); err != nil {
		t.Fatal(err)
	}
	mustAdd(t, m, c)
	if err := m.SetPolyArea(ra.Poly(1), 63); err != nil {
		t.Fatal(err)
	}
	// Without the old B's data the restore fails and changes nothing.
	before, _ := m.MarshalBinary()
	if err := m.RestoreState(&st, nil); err == nil || !strings.Contains(err.Error(), "no data") {
		t.Errorf("restore without data: %v", err)
	}
	if after, _ := m.MarshalBinary(); !bytes.Equal(before, after) {
		t.Errorf("failed restore changed the mesh")
	}
	// Data with the wrong content id is refused.
	if err := m.RestoreState(&st, func(uint64) []byte { return b2 }); err == nil {
		t.Errorf("restore with wrong data accepted")
	}
	lookup := func(id uint64) []byte {
		if id == ContentID(b) {
			return b
		}
		return nil
	}
	if err := m.RestoreState(&st, lookup); err != nil {
		t.Fatal(err)
	}
	got, _ := m.MarshalBinary()
	if !bytes.Equal(got, want) {
		t.Errorf("restored mesh differs from the snapshot's")
	}
	if !m.IsValidRef(ra.Poly(1)) {
		t.Errorf("ref from before the snapshot is not valid after restore")
	}
	if ar, _ := m.PolyArea(ra.Poly(1)); ar != 3 {
		t.Errorf("restored area %d, want 3", ar)
	}
	checkReciprocal(t, m)

	// Corrupt state bytes are rejected.
	for i := 0; i < len(sb); i++ {
		bad := append([]byte(nil), sb...)
		bad[i] ^= 0x80
		var s2 State
		if err := s2.UnmarshalBinary(bad); err == nil {
			again, _ := s2.MarshalBinary()
			if !bytes.Equal(again, bad) {
				t.Fatalf("state byte %d accepted but re-encodes differently", i)
			}
		}
	}
	for n := 0; n < len(sb); n++ {
		var s2 State
		if err := s2.UnmarshalBinary(sb[:n]); err == nil {
			t.Fatalf("state truncated to %d bytes accepted", n)
		}
	}
}

// Two tiles built by polymesh from contour sets with a border, on the level
// grid, stitch across their shared border.
func TestPolymeshTilesStitch(t *testing.T) {
	m := NewMesh()
	for tx := int32(0); tx < 2; tx++ {
		set := &contour.Set{
			CellSizeM: testCS, CellHeightM: testCH,
			Width: 20, Height: 20, Border: 5, MaxErrorCells: 1.3,
			Contours: []contour.Contour{{Region: 1, Area: 63, Verts: []contour.Vertex{
				{X: 5, Y: 3, Z: 5}, {X: 5, Y: 3, Z: 15}, {X: 15, Y: 3, Z: 15}, {X: 15, Y: 3, Z: 5}}}},
		}
		cm := testMap(tx, 0)
		pm, err := polymesh.BuildMapped(set, 6, &cm)
		if err != nil {
			t.Fatal(err)
		}
		d, err := polymesh.BuildDetail(pm, nil, nil, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		mustAdd(t, m, mustBuild(t, pm, d, params(tx, 0, 0)))
	}
	if n := checkReciprocal(t, m); n != 2 {
		t.Errorf("%d external links, want 2", n)
	}
}

// A call that fails leaves the mesh as it was.
func TestFailedCallsChangeNothing(t *testing.T) {
	m := NewMesh()
	a := mustBuild(t, twoColumns(0, 0, 10), nil, params(0, 0, 0))
	mustAdd(t, m, a)
	mustAdd(t, m, mustBuild(t, twoRows(1, 0, 10), nil, params(1, 0, 0)))
	before, _ := m.MarshalBinary()
	links := fmt.Sprint(describeLinks(t, m))
	bad := append([]byte(nil), a...)
	bad[len(bad)-1] ^= 0xff
	if _, err := m.AddTile(bad); err == nil {
		t.Errorf("corrupt add accepted")
	}
	if _, err := m.AddTile(a); err == nil {
		t.Errorf("add at an occupied position accepted")
	}
	if _, err := m.ReplaceTile(bad); err == nil {
		t.Errorf("corrupt replace accepted")
	}
	if err := m.RemoveTile(7, 7, 0); err == nil {
		t.Errorf("remove of a missing tile accepted")
	}
	r, _ := m.TileAt(0, 0, 0)
	if err := m.SetPolyArea(r.Poly(0), 200); err == nil {
		t.Errorf("area 200 accepted")
	}
	if err := m.UnmarshalBinary(before[:len(before)-1]); err == nil {
		t.Errorf("truncated mesh accepted")
	}
	if err := m.RestoreState(&State{Generations: []uint32{0}}, nil); err == nil {
		t.Errorf("state with generation 0 accepted")
	}
	after, _ := m.MarshalBinary()
	if !bytes.Equal(before, after) || fmt.Sprint(describeLinks(t, m)) != links {
		t.Errorf("failed calls changed the mesh")
	}
	// The mesh keeps its own copy of the data it was given.
	a[40] ^= 0xff
	if r, _ := m.TileAt(0, 0, 0); r == 0 {
		t.Fatal("tile lost")
	}
	if now, _ := m.MarshalBinary(); !bytes.Equal(before, now) {
		t.Errorf("changing the caller's data changed the mesh")
	}
}

// BenchmarkBuildTileData builds tiles of 25 and 256 polygons.
func BenchmarkBuildTileData(b *testing.B) {
	for _, n := range []int{5, 16} {
		b.Run(fmt.Sprintf("polys=%d", n*n), func(b *testing.B) {
			m := gridMesh(n, true)
			p := params(0, 0, 0)
			for b.Loop() {
				if _, err := BuildTileData(m, nil, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReplaceTile replaces a tile among four neighbours: decode,
// unlink, link.
func BenchmarkReplaceTile(b *testing.B) {
	for _, n := range []int{5, 16} {
		b.Run(fmt.Sprintf("polys=%d", n*n), func(b *testing.B) {
			m := NewMesh()
			data := mustBuild(b, gridMesh(n, true), nil, params(0, 0, 0))
			mustAdd(b, m, data)
			for _, d := range borderDirs {
				x, z, _ := neighbourPos(0, 0, d)
				mustAdd(b, m, withPosition(data, x, z))
			}
			for b.Loop() {
				if _, err := m.ReplaceTile(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestBuiltTiles: AddBuilt and ReplaceBuilt give the mesh AddTile and
// ReplaceTile give for the same data (same bytes, refs and links), Built
// hands a mesh's tile back, and nil or zero BuiltTiles are errors that
// change nothing.
func TestBuiltTiles(t *testing.T) {
	build := func(m *polymesh.Mesh, p TileParams) *BuiltTile {
		t.Helper()
		b, err := BuildTile(m, nil, p)
		if err != nil {
			t.Fatal(err)
		}
		if data := mustBuild(t, m, nil, p); string(b.Data()) != string(data) || b.ContentID() != ContentID(data) {
			t.Fatalf("BuildTile and BuildTileData differ")
		}
		return b
	}
	a := build(twoColumns(0, 0, 10), params(0, 0, 0))
	b := build(twoRows(1, 0, 12), params(1, 0, 0))
	b2 := build(twoColumns(1, 0, 12), params(1, 0, 0))

	byData, byBuilt := NewMesh(), NewMesh()
	for _, d := range []*BuiltTile{a, b} {
		r1, err1 := byData.AddTile(d.Data())
		r2, err2 := byBuilt.AddBuilt(d)
		if err1 != nil || err2 != nil || r1 != r2 {
			t.Fatalf("add: %#x %v, %#x %v", uint64(r1), err1, uint64(r2), err2)
		}
	}
	r1, err1 := byData.ReplaceTile(b2.Data())
	r2, err2 := byBuilt.ReplaceBuilt(b2)
	if err1 != nil || err2 != nil || r1 != r2 {
		t.Fatalf("replace: %#x %v, %#x %v", uint64(r1), err1, uint64(r2), err2)
	}
	m1, err1 := byData.MarshalBinary()
	m2, err2 := byBuilt.MarshalBinary()
	if err1 != nil || err2 != nil || string(m1) != string(m2) {
		t.Fatalf("meshes differ (%v, %v)", err1, err2)
	}
	if checkReciprocal(t, byBuilt) != checkReciprocal(t, byData) {
		t.Errorf("border links differ")
	}
	back, err := byBuilt.Built(r2)
	if err != nil || back.ContentID() != b2.ContentID() || string(back.Data()) != string(b2.Data()) {
		t.Fatalf("Built: %v", err)
	}
	// Away and back again, the second time with the BuiltTile Built gave.
	for _, d := range []*BuiltTile{b, back} {
		if _, err := byData.ReplaceTile(d.Data()); err != nil {
			t.Fatal(err)
		}
		if _, err := byBuilt.ReplaceBuilt(d); err != nil {
			t.Fatal(err)
		}
	}
	m1, _ = byData.MarshalBinary()
	m2, _ = byBuilt.MarshalBinary()
	if string(m1) != string(m2) {
		t.Errorf("a tile put back with its BuiltTile gives other bytes")
	}
	for _, bad := range []*BuiltTile{nil, {}} {
		if _, err := byBuilt.AddBuilt(bad); err == nil {
			t.Errorf("AddBuilt(%v) succeeded", bad)
		}
		if _, err := byBuilt.ReplaceBuilt(bad); err == nil {
			t.Errorf("ReplaceBuilt(%v) succeeded", bad)
		}
	}
	if _, err := byBuilt.AddBuilt(a); err == nil || !strings.Contains(err.Error(), "already holds") {
		t.Errorf("AddBuilt at a taken position: %v", err)
	}
	if m4, _ := byBuilt.MarshalBinary(); string(m4) != string(m2) {
		t.Errorf("failed calls changed the mesh")
	}
	if _, err := byBuilt.Built(0); err == nil {
		t.Errorf("Built(0) succeeded")
	}
}

// TestTileCheckMatchesDecode: Tile.check (what BuildTile runs instead of
// decoding its data) accepts a built tile and rejects each corruption with
// the error DecodeTile gives for the same tile's data.
func TestTileCheckMatchesDecode(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(tl *Tile)
	}{
		{"valid", func(*Tile) {}},
		{"walkable radius", func(tl *Tile) { tl.Header.WalkableRadiusM = float32(math.NaN()) }},
		{"cell size", func(tl *Tile) { tl.Header.CellSizeM = 0 }},
		{"vertex", func(tl *Tile) { tl.Verts[1].X = float32(math.Inf(1)) }},
		{"vertex count", func(tl *Tile) { tl.Polys[0].VertCount = 2 }},
		{"vertex index", func(tl *Tile) { tl.Polys[1].Verts[0] = uint16(len(tl.Verts)) }},
		{"area", func(tl *Tile) { tl.Polys[0].Area = MaxArea + 1 }},
		{"neighbour itself", func(tl *Tile) { tl.Polys[0].Neis[2] = 0 }},
		{"neighbour not back", func(tl *Tile) {
			tl.Polys[1].Neis[0], tl.Polys[1].Neis[1], tl.Polys[1].Neis[2], tl.Polys[1].Neis[3] = NullIndex, NullIndex, NullIndex, NullIndex
		}},
		{"portal off its border", func(tl *Tile) { tl.Polys[0].Neis[0], tl.Polys[0].Neis[1] = tl.Polys[0].Neis[1], tl.Polys[0].Neis[0] }},
		{"detail mesh", func(tl *Tile) { tl.DetailMeshes[1].TriBase++ }},
		{"detail triangle", func(tl *Tile) { tl.DetailTris[0][3] = 0xff }},
		{"origin", func(tl *Tile) { tl.Header.OriginY += 1 }},
		{"bounds", func(tl *Tile) { tl.Header.BMax.X += 1 }},
		{"BV leaf", func(tl *Tile) { tl.BVTree[len(tl.BVTree)-1].BMax[0]++ }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := BuildTile(twoColumns(0, 0, 10), nil, params(0, 0, 0))
			if err != nil {
				t.Fatal(err)
			}
			tl, err := DecodeTile(b.Data()) // a copy to change
			if err != nil {
				t.Fatal(err)
			}
			tc.change(tl)
			got := tl.check()
			data, err := tl.encode()
			if err != nil {
				t.Fatal(err)
			}
			_, want := DecodeTile(data)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("check: %v\nDecodeTile: %v", got, want)
			}
			if (want == nil) != (tc.name == "valid") {
				t.Errorf("DecodeTile: %v", want)
			}
		})
	}
}

// TestReplaceReusesState: a replaced or removed tile's run-time state
// (flags, areas, links) is reused by the next tile added or replaced
// (Mesh.recycle); after every step of a history of replaces (to tiles of
// other sizes, with and without detail), removes and adds, the links,
// flags and areas equal those of a fresh mesh holding the same tiles.
func TestReplaceReusesState(t *testing.T) {
	// Two variants per position of a 3 x 3 grid: different polygon counts
	// and portal edges.
	variant := func(x, z int32, v int) []byte {
		if v == 0 {
			return mustBuild(t, twoColumns(x, z, 10), nil, params(x, z, 0))
		}
		return mustBuild(t, twoRows(x, z, 10), centreDetail(twoRows(x, z, 10), 0.1), params(x, z, 0))
	}
	cur := map[[2]int32]int{} // position -> variant held; absent: none
	m := NewMesh()
	for z := int32(0); z < 3; z++ {
		for x := int32(0); x < 3; x++ {
			mustAdd(t, m, variant(x, z, 0))
			cur[[2]int32{x, z}] = 0
		}
	}
	steps := []struct {
		name string
		x, z int32
		op   string // replace, remove, add
	}{
		{"replace centre", 1, 1, "replace"},
		{"replace centre back", 1, 1, "replace"},
		{"replace corner", 0, 0, "replace"},
		{"remove edge", 1, 0, "remove"},
		{"replace next to the hole", 1, 1, "replace"},
		{"add into the hole", 1, 0, "add"},
		{"replace the added", 1, 0, "replace"},
		{"remove corner", 2, 2, "remove"},
		{"remove centre", 1, 1, "remove"},
		{"add centre", 1, 1, "add"},
		{"add corner", 2, 2, "add"},
		{"replace centre again", 1, 1, "replace"},
	}
	for _, st := range steps {
		key := [2]int32{st.x, st.z}
		switch st.op {
		case "replace":
			cur[key] = 1 - cur[key]
			if _, err := m.ReplaceTile(variant(st.x, st.z, cur[key])); err != nil {
				t.Fatalf("%s: %v", st.name, err)
			}
		case "remove":
			if err := m.RemoveTile(st.x, st.z, 0); err != nil {
				t.Fatalf("%s: %v", st.name, err)
			}
			delete(cur, key)
		case "add":
			cur[key] = 1
			mustAdd(t, m, variant(st.x, st.z, 1))
		}
		fresh := NewMesh()
		for z := int32(0); z < 3; z++ {
			for x := int32(0); x < 3; x++ {
				if v, ok := cur[[2]int32{x, z}]; ok {
					mustAdd(t, fresh, variant(x, z, v))
				}
			}
		}
		checkReciprocal(t, m)
		if got, want := fmt.Sprint(describeLinks(t, m)), fmt.Sprint(describeLinks(t, fresh)); got != want {
			t.Fatalf("%s: links\n%s\nwant\n%s", st.name, got, want)
		}
		for _, ref := range m.Tiles() {
			tl, _ := m.Tile(ref)
			for i := range tl.Polys {
				f, _ := m.PolyFlags(ref.Poly(uint32(i)))
				a, _ := m.PolyArea(ref.Poly(uint32(i)))
				if f != tl.Polys[i].Flags || a != tl.Polys[i].Area {
					t.Fatalf("%s: tile (%d, %d) polygon %d flags %d area %d, want %d %d", st.name,
						tl.Header.TileX, tl.Header.TileZ, i, f, a, tl.Polys[i].Flags, tl.Polys[i].Area)
				}
			}
		}
	}
	if m.spare == nil {
		t.Error("no spare run-time state after replaces and removes")
	}
}
