package navmesh

import (
	"encoding/binary"
	"fmt"
)

// Mesh serialization and dynamic-state snapshot (docs/format.md, "Mesh
// serialization" and "Dynamic state").
const (
	// MeshMagic is the first four bytes of a serialized Mesh.
	MeshMagic = "NVMS"
	// StateMagic is the first four bytes of a serialized State.
	StateMagic = "NVDS"
	// MeshVersion and StateVersion are the versions written and read.
	MeshVersion  uint16 = 1
	StateVersion uint16 = 1
	// MaxMeshFileBytes is the largest mesh file the readers of serialized
	// meshes (navmesh diff) accept: a bound set well above any level this
	// project builds (the 200 m city is 0.2 MiB, the 800 m city4x4 under
	// 4 MiB) so that a file that is no mesh, such as /dev/zero, is refused
	// before it costs memory.
	MaxMeshFileBytes = 256 << 20
)

const (
	serialHeaderSize = 16 // magic, version, reserved, slot count, tile count
	editSize         = 5  // poly u16, flags u16, area u8
	meshEntryMin     = 12 // slot, data length, edit count
	stateEntrySize   = 25 // slot, x, z, layer, content id, edit count
)

// PolyEdit is the run-time state of a polygon whose flags or area differ
// from its tile data.
type PolyEdit struct {
	Poly  uint16
	Flags uint16
	Area  uint8
}

// TileState is the dynamic state of one tile of a mesh.
type TileState struct {
	Slot      uint32
	X, Z      int32
	Layer     uint8
	ContentID uint64
	// Edits lists the polygons whose run-time flags or area differ from
	// the tile data, by ascending polygon index.
	Edits []PolyEdit
}

// State is a mesh's dynamic state: the generation of every slot and, for
// every tile (by TileZ, TileX, Layer), its slot, position, content id and
// run-time edits. It names tiles by content id and does not hold their data.
type State struct {
	Generations []uint32 // per slot, 1..MaxGeneration
	Tiles       []TileState
}

// edits returns the run-time edits of mt in ascending polygon order.
func (mt *meshTile) edits() []PolyEdit {
	var es []PolyEdit
	for i := range mt.flags {
		flags, area := mt.t.nodeFlagsArea(i)
		if mt.flags[i] != flags || mt.areas[i] != area {
			es = append(es, PolyEdit{Poly: uint16(i), Flags: mt.flags[i], Area: mt.areas[i]})
		}
	}
	return es
}

func appendSerialHeader(b []byte, magic string, version uint16, slots, tiles int) []byte {
	le := binary.LittleEndian
	b = append(b, magic...)
	b = le.AppendUint16(b, version)
	b = le.AppendUint16(b, 0)
	b = le.AppendUint32(b, uint32(slots))
	return le.AppendUint32(b, uint32(tiles))
}

func appendEdits(b []byte, es []PolyEdit) []byte {
	le := binary.LittleEndian
	b = le.AppendUint32(b, uint32(len(es)))
	for _, e := range es {
		b = le.AppendUint16(b, e.Poly)
		b = le.AppendUint16(b, e.Flags)
		b = append(b, e.Area)
	}
	return b
}

// MarshalBinary serializes the whole mesh: every slot's generation, then
// every tile by (TileZ, TileX, Layer) with its slot, its tile data and its
// run-time edits. Links are not stored (they follow from the tiles). Equal
// meshes give equal bytes; the cache hashes them.
func (m *Mesh) MarshalBinary() ([]byte, error) {
	if m == nil {
		return nil, fmt.Errorf("navmesh: MarshalBinary: %w", errNilMesh)
	}
	order := m.ordered()
	b := appendSerialHeader(nil, MeshMagic, MeshVersion, len(m.slots), len(order))
	le := binary.LittleEndian
	for _, sl := range m.slots {
		b = le.AppendUint32(b, sl.gen)
	}
	for _, s := range order {
		mt := m.slots[s].tile
		b = le.AppendUint32(b, s)
		b = le.AppendUint32(b, uint32(len(mt.data)))
		b = append(b, mt.data...)
		b = appendEdits(b, mt.edits())
	}
	return b, nil
}

// UnmarshalBinary replaces m with the mesh data describes (as written by
// MarshalBinary), links rebuilt. Data that breaks the format, or that
// MarshalBinary would not write (tiles out of order, an edit equal to the
// tile data, ...), is an error and leaves m unchanged.
func (m *Mesh) UnmarshalBinary(data []byte) error {
	if m == nil {
		return fmt.Errorf("navmesh: UnmarshalBinary: %w", errNilMesh)
	}
	r := &reader{data: data}
	nslots, ntiles, err := readSerialHeader(r, MeshMagic, MeshVersion, meshEntryMin)
	if err != nil {
		return err
	}
	gens, err := readGenerations(r, MeshMagic, nslots)
	if err != nil {
		return err
	}
	nm := &Mesh{slots: make([]slot, nslots)}
	for i, g := range gens {
		nm.slots[i].gen = g
	}
	var prev *Header
	for i := 0; i < ntiles; i++ {
		off := r.off
		if len(data)-r.off < meshEntryMin {
			return serialErr(MeshMagic, off, "tile entry %d truncated", i)
		}
		s := r.u32()
		n := r.u32()
		if s >= uint32(nslots) {
			return serialErr(MeshMagic, off, "tile entry %d slot %d, beyond the %d slots", i, s, nslots)
		}
		if nm.slots[s].tile != nil {
			return serialErr(MeshMagic, off, "tile entry %d puts a second tile in slot %d", i, s)
		}
		if uint64(n) > uint64(len(data)-r.off) {
			return serialErr(MeshMagic, off+4, "tile entry %d data length %d, only %d bytes left", i, n, len(data)-r.off)
		}
		tdata := append([]byte(nil), r.bytes(int(n))...)
		t, err := DecodeTile(tdata)
		if err != nil {
			return fmt.Errorf("navmesh: mesh data: tile entry %d at offset %d: %w", i, off+8, err)
		}
		if prev != nil && !posLess(prev, &t.Header) {
			return serialErr(MeshMagic, off, "tile entry %d at (%d, %d) layer %d does not follow (%d, %d) layer %d in (z, x, layer) order",
				i, t.Header.TileX, t.Header.TileZ, t.Header.Layer, prev.TileX, prev.TileZ, prev.Layer)
		}
		prev = &t.Header
		mt := newMeshTile(tdata, t, ContentID(tdata), TileRef(packRef(gens[s], s, 0)))
		eoff := r.off
		es, err := readEdits(r, MeshMagic, t.NodeCount())
		if err != nil {
			return err
		}
		for k, e := range es {
			if flags, area := t.nodeFlagsArea(int(e.Poly)); e.Flags == flags && e.Area == area {
				return serialErr(MeshMagic, eoff+4+editSize*k, "tile entry %d edit %d of polygon %d equals the tile data", i, k, e.Poly)
			}
			mt.flags[e.Poly], mt.areas[e.Poly] = e.Flags, e.Area
		}
		nm.slots[s].tile = mt
	}
	if r.off != len(data) {
		return serialErr(MeshMagic, r.off, "%d bytes left after the last tile", len(data)-r.off)
	}
	nm.index()
	*m = *nm
	return nil
}

// index fills count, cols and free from the slots and rebuilds every link.
func (m *Mesh) index() {
	m.count = 0
	m.offMeshCount = 0
	m.cols = make(map[[2]int32][]uint32)
	m.free = nil
	for _, s := range m.ordered() {
		h := &m.slots[s].tile.t.Header
		key := [2]int32{h.TileX, h.TileZ}
		m.cols[key] = append(m.cols[key], s) // ordered: ascending layer
		m.count++
		m.offMeshCount += len(m.slots[s].tile.t.OffMesh)
	}
	for s := len(m.slots) - 1; s >= 0; s-- {
		if m.slots[s].tile == nil {
			m.free = append(m.free, uint32(s))
		}
	}
	m.relinkAll()
}

func serialErr(magic string, off int, format string, args ...any) error {
	what := "mesh"
	if magic == StateMagic {
		what = "state"
	}
	return fmt.Errorf("navmesh: corrupt %s data: offset %d: %s", what, off, fmt.Sprintf(format, args...))
}

// readSerialHeader reads the common header; entryMin bounds the bytes of
// one tile entry, so that counts are checked against the data's length
// before anything is allocated.
func readSerialHeader(r *reader, magic string, version uint16, entryMin int) (nslots, ntiles int, err error) {
	if len(r.data) < serialHeaderSize {
		return 0, 0, serialErr(magic, 0, "%d bytes, shorter than the %d-byte header", len(r.data), serialHeaderSize)
	}
	if mg := string(r.bytes(4)); mg != magic {
		return 0, 0, serialErr(magic, 0, "magic %q, want %q", mg, magic)
	}
	if v := r.u16(); v != version {
		return 0, 0, serialErr(magic, 4, "version %d, want %d", v, version)
	}
	if v := r.u16(); v != 0 {
		return 0, 0, serialErr(magic, 6, "reserved field %d, want 0", v)
	}
	ns, nt := r.u32(), r.u32()
	if ns > MaxSlots {
		return 0, 0, serialErr(magic, 8, "slot count %d, at most %d", ns, MaxSlots)
	}
	if nt > ns {
		return 0, 0, serialErr(magic, 12, "tile count %d, more than the %d slots", nt, ns)
	}
	left := uint64(len(r.data) - r.off)
	if uint64(ns)*4+uint64(nt)*uint64(entryMin) > left {
		return 0, 0, serialErr(magic, 8, "%d slots and %d tiles need more than the %d bytes left", ns, nt, left)
	}
	return int(ns), int(nt), nil
}

func readGenerations(r *reader, magic string, n int) ([]uint32, error) {
	gens := make([]uint32, n)
	for i := range gens {
		off := r.off
		g := r.u32()
		if g < 1 || g > MaxGeneration {
			return nil, serialErr(magic, off, "slot %d generation %d, want 1..%d", i, g, MaxGeneration)
		}
		gens[i] = g
	}
	return gens, nil
}

// readEdits reads an edit list of a tile of np polygons: ascending polygon
// indices below np, areas at most MaxArea.
func readEdits(r *reader, magic string, np int) ([]PolyEdit, error) {
	off := r.off
	if len(r.data)-r.off < 4 {
		return nil, serialErr(magic, off, "edit count truncated")
	}
	n := r.u32()
	if uint64(n) > uint64(np) || uint64(n)*editSize > uint64(len(r.data)-r.off) {
		return nil, serialErr(magic, off, "edit count %d for a tile of %d polygons with %d bytes left", n, np, len(r.data)-r.off)
	}
	es := make([]PolyEdit, n)
	for k := range es {
		eoff := r.off
		e := PolyEdit{Poly: r.u16(), Flags: r.u16(), Area: r.u8()}
		if int(e.Poly) >= np {
			return nil, serialErr(magic, eoff, "edit %d names polygon %d of a tile with %d", k, e.Poly, np)
		}
		if k > 0 && e.Poly <= es[k-1].Poly {
			return nil, serialErr(magic, eoff, "edit %d polygon %d does not follow polygon %d", k, e.Poly, es[k-1].Poly)
		}
		if e.Area > MaxArea {
			return nil, serialErr(magic, eoff+4, "edit %d area %d, want 0..%d", k, e.Area, MaxArea)
		}
		es[k] = e
	}
	return es, nil
}

// State returns the mesh's dynamic state.
func (m *Mesh) State() *State {
	st := &State{Generations: make([]uint32, m.SlotCount()), Tiles: []TileState{}}
	for i := range st.Generations {
		st.Generations[i] = m.slots[i].gen
	}
	for _, s := range m.ordered() {
		mt := m.slots[s].tile
		h := &mt.t.Header
		st.Tiles = append(st.Tiles, TileState{Slot: s, X: h.TileX, Z: h.TileZ, Layer: h.Layer, ContentID: mt.id, Edits: mt.edits()})
	}
	return st
}

// check validates a State: generations in range, slots in range and used
// once, tiles in (z, x, layer) order, edits ascending with areas in range.
func (st *State) check() error {
	if len(st.Generations) > MaxSlots {
		return fmt.Errorf("navmesh: state has %d slots, at most %d", len(st.Generations), MaxSlots)
	}
	for i, g := range st.Generations {
		if g < 1 || g > MaxGeneration {
			return fmt.Errorf("navmesh: state slot %d generation %d, want 1..%d", i, g, MaxGeneration)
		}
	}
	used := make(map[uint32]bool, len(st.Tiles))
	for i := range st.Tiles {
		ts := &st.Tiles[i]
		if int(ts.Slot) >= len(st.Generations) {
			return fmt.Errorf("navmesh: state tile %d slot %d, beyond the %d slots", i, ts.Slot, len(st.Generations))
		}
		if used[ts.Slot] {
			return fmt.Errorf("navmesh: state tile %d puts a second tile in slot %d", i, ts.Slot)
		}
		used[ts.Slot] = true
		if i > 0 {
			p := &st.Tiles[i-1]
			if !posLess(&Header{TileX: p.X, TileZ: p.Z, Layer: p.Layer}, &Header{TileX: ts.X, TileZ: ts.Z, Layer: ts.Layer}) {
				return fmt.Errorf("navmesh: state tile %d at (%d, %d) layer %d does not follow (%d, %d) layer %d in (z, x, layer) order",
					i, ts.X, ts.Z, ts.Layer, p.X, p.Z, p.Layer)
			}
		}
		for k, e := range ts.Edits {
			if k > 0 && e.Poly <= ts.Edits[k-1].Poly {
				return fmt.Errorf("navmesh: state tile %d edit %d polygon %d does not follow polygon %d", i, k, e.Poly, ts.Edits[k-1].Poly)
			}
			if e.Area > MaxArea {
				return fmt.Errorf("navmesh: state tile %d edit %d area %d, want 0..%d", i, k, e.Area, MaxArea)
			}
		}
	}
	return nil
}

// MarshalBinary encodes st (docs/format.md, "Dynamic state"). An invalid
// State is an error.
func (st *State) MarshalBinary() ([]byte, error) {
	if st == nil {
		return nil, fmt.Errorf("navmesh: MarshalBinary of a nil State")
	}
	if err := st.check(); err != nil {
		return nil, err
	}
	b := appendSerialHeader(nil, StateMagic, StateVersion, len(st.Generations), len(st.Tiles))
	le := binary.LittleEndian
	for _, g := range st.Generations {
		b = le.AppendUint32(b, g)
	}
	for _, ts := range st.Tiles {
		b = le.AppendUint32(b, ts.Slot)
		b = le.AppendUint32(b, uint32(ts.X))
		b = le.AppendUint32(b, uint32(ts.Z))
		b = append(b, ts.Layer)
		b = le.AppendUint64(b, ts.ContentID)
		b = appendEdits(b, ts.Edits)
	}
	return b, nil
}

// UnmarshalBinary decodes data written by State.MarshalBinary into st. On
// error st is unchanged.
func (st *State) UnmarshalBinary(data []byte) error {
	if st == nil {
		return fmt.Errorf("navmesh: UnmarshalBinary into a nil State")
	}
	r := &reader{data: data}
	nslots, ntiles, err := readSerialHeader(r, StateMagic, StateVersion, stateEntrySize)
	if err != nil {
		return err
	}
	gens, err := readGenerations(r, StateMagic, nslots)
	if err != nil {
		return err
	}
	ns := State{Generations: gens, Tiles: make([]TileState, ntiles)}
	for i := range ns.Tiles {
		off := r.off
		if len(data)-r.off < stateEntrySize-4 {
			return serialErr(StateMagic, off, "tile entry %d truncated", i)
		}
		ts := TileState{Slot: r.u32(), X: int32(r.u32()), Z: int32(r.u32()), Layer: r.u8(), ContentID: r.u64()}
		// A tile's node count is not known here: bound edits by the
		// largest tile.
		es, err := readEdits(r, StateMagic, MaxTilePolys+MaxTileOffMesh)
		if err != nil {
			return err
		}
		ts.Edits = es
		ns.Tiles[i] = ts
	}
	if r.off != len(data) {
		return serialErr(StateMagic, r.off, "%d bytes left after the last tile", len(data)-r.off)
	}
	if err := ns.check(); err != nil {
		return fmt.Errorf("navmesh: corrupt state data: %w", err)
	}
	*st = ns
	return nil
}

// RestoreState makes m hold exactly the tiles st lists, in st's slots with
// st's generations (so references handed out when st was taken are valid
// again) and with st's run-time edits; links are rebuilt. The data of each
// tile is the tile m holds at its position when its content id matches,
// else lookup(contentID) (lookup may be nil); data whose content id,
// position or polygon count does not match is an error. On error m is
// unchanged. It is PrepareState then ApplyState.
func (m *Mesh) RestoreState(st *State, lookup func(contentID uint64) []byte) error {
	p, err := m.PrepareState(st, lookup)
	if err != nil {
		return err
	}
	return m.ApplyState(p)
}

// PreparedState is a State checked and made into the mesh it gives
// (PrepareState), waiting to be put into its mesh (ApplyState).
type PreparedState struct {
	m, nm *Mesh
}

// PrepareState does all of RestoreState(st, lookup) that can fail, without
// changing m: every check, every tile decoded, the links made. Its errors
// are RestoreState's. ApplyState then puts the result into m and cannot
// fail, so that a caller restoring several meshes changes all or none.
// The prepared state shares m's tiles: apply it before m next changes.
func (m *Mesh) PrepareState(st *State, lookup func(contentID uint64) []byte) (*PreparedState, error) {
	nm, err := m.prepareState(st, lookup)
	if err != nil {
		return nil, err
	}
	return &PreparedState{m: m, nm: nm}, nil
}

// ApplyState makes m the mesh p holds (see PrepareState). A nil p, one
// prepared by another mesh or one applied already is an error and changes
// nothing.
func (m *Mesh) ApplyState(p *PreparedState) error {
	switch {
	case m == nil:
		return fmt.Errorf("navmesh: ApplyState: %w", errNilMesh)
	case p == nil || p.nm == nil:
		return fmt.Errorf("navmesh: ApplyState: nil or applied prepared state")
	case p.m != m:
		return fmt.Errorf("navmesh: ApplyState: the state was prepared by another mesh")
	}
	*m = *p.nm
	p.nm = nil
	return nil
}

func (m *Mesh) prepareState(st *State, lookup func(contentID uint64) []byte) (*Mesh, error) {
	if m == nil {
		return nil, fmt.Errorf("navmesh: RestoreState: %w", errNilMesh)
	}
	if st == nil {
		return nil, fmt.Errorf("navmesh: RestoreState: nil state")
	}
	if err := st.check(); err != nil {
		return nil, fmt.Errorf("navmesh: RestoreState: %w", err)
	}
	nm := &Mesh{slots: make([]slot, len(st.Generations))}
	for i, g := range st.Generations {
		nm.slots[i].gen = g
	}
	for i := range st.Tiles {
		ts := &st.Tiles[i]
		var data []byte
		var t *Tile
		id := ts.ContentID
		if s, ok := m.lookup(ts.X, ts.Z, ts.Layer); ok && m.slots[s].tile.id == ts.ContentID {
			data, t = m.slots[s].tile.data, m.slots[s].tile.t
		} else {
			if lookup != nil {
				data = lookup(ts.ContentID)
			}
			if data == nil {
				return nil, fmt.Errorf("navmesh: RestoreState: tile %d at (%d, %d) layer %d: no data with content id %#016x", i, ts.X, ts.Z, ts.Layer, ts.ContentID)
			}
			if id := ContentID(data); id != ts.ContentID {
				return nil, fmt.Errorf("navmesh: RestoreState: tile %d: data for content id %#016x has content id %#016x", i, ts.ContentID, id)
			}
			data = append([]byte(nil), data...)
			var err error
			if t, err = DecodeTile(data); err != nil {
				return nil, fmt.Errorf("navmesh: RestoreState: tile %d: %w", i, err)
			}
			if t.Header.TileX != ts.X || t.Header.TileZ != ts.Z || t.Header.Layer != ts.Layer {
				return nil, fmt.Errorf("navmesh: RestoreState: tile %d: data of content id %#016x is at (%d, %d) layer %d, want (%d, %d) layer %d",
					i, ts.ContentID, t.Header.TileX, t.Header.TileZ, t.Header.Layer, ts.X, ts.Z, ts.Layer)
			}
		}
		mt := newMeshTile(data, t, id, TileRef(packRef(st.Generations[ts.Slot], ts.Slot, 0)))
		for k, e := range ts.Edits {
			if int(e.Poly) >= t.NodeCount() {
				return nil, fmt.Errorf("navmesh: RestoreState: tile %d edit %d names node %d of a tile with %d polygons and %d off-mesh links",
					i, k, e.Poly, len(t.Polys), len(t.OffMesh))
			}
			mt.flags[e.Poly], mt.areas[e.Poly] = e.Flags, e.Area
		}
		nm.slots[ts.Slot].tile = mt
	}
	nm.index()
	return nm, nil
}
