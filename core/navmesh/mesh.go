package navmesh

import (
	"errors"
	"fmt"
	"sort"
)

// Reference layout (docs/format.md, "References"): a PolyRef packs, from the
// low bits, the polygon index (16 bits), the slot (24 bits) and the slot's
// generation (24 bits). Generation 0 never occurs, so 0 is never a valid
// reference.
const (
	PolyBits       = 16
	SlotBits       = 24
	GenerationBits = 24
	// MaxSlots is the number of tile slots a Mesh can have.
	MaxSlots = 1 << SlotBits
	// MaxGeneration is the largest generation; the next one after it is 1.
	MaxGeneration = 1<<GenerationBits - 1
)

// PolyRef names a polygon of a tile held by a Mesh: generation, slot and
// polygon index (see PolyBits). It goes stale when its tile is replaced or
// removed.
type PolyRef uint64

// TileRef names a tile held by a Mesh: a PolyRef with polygon index 0.
type TileRef uint64

func packRef(gen, slot, poly uint32) PolyRef {
	return PolyRef(uint64(gen)<<(PolyBits+SlotBits) | uint64(slot)<<PolyBits | uint64(poly))
}

// Generation returns the generation field of r.
func (r PolyRef) Generation() uint32 { return uint32(r >> (PolyBits + SlotBits)) }

// Slot returns the slot field of r.
func (r PolyRef) Slot() uint32 { return uint32(r>>PolyBits) & (MaxSlots - 1) }

// Poly returns the polygon index field of r.
func (r PolyRef) Poly() uint32 { return uint32(r) & (1<<PolyBits - 1) }

// Tile returns the reference of r's tile (r with polygon index 0).
func (r PolyRef) Tile() TileRef { return TileRef(r &^ (1<<PolyBits - 1)) }

// Generation returns the generation field of r.
func (r TileRef) Generation() uint32 { return PolyRef(r).Generation() }

// Slot returns the slot field of r.
func (r TileRef) Slot() uint32 { return PolyRef(r).Slot() }

// Poly returns the reference of polygon i of the tile r names (no check).
func (r TileRef) Poly(i uint32) PolyRef {
	return PolyRef(r) | PolyRef(i&(1<<PolyBits-1))
}

// Link joins an edge of a polygon to a neighbouring polygon: inside the tile
// across a shared edge, or across the tile border to a polygon of a
// neighbouring tile position (any layer).
type Link struct {
	// Ref is the neighbouring polygon.
	Ref PolyRef
	// Edge is the edge of this polygon (vertex Edge to vertex Edge+1).
	Edge uint8
	// Side is 0xff for a link inside the tile, else the direction
	// (DirPosX, DirPosZ, DirNegX, DirNegZ) of the border it crosses.
	Side uint8
	// BMin and BMax bound the part of the edge the link uses, as a fraction
	// of the edge from vertex Edge (0) to vertex Edge+1 (255). A link inside
	// the tile uses the whole edge: 0, 255.
	BMin, BMax uint8
}

// InternalSide is Link.Side of a link inside one tile.
const InternalSide = 0xff

// Mesh is a navigation mesh: tiles in slots, at most one tile per position
// (TileX, TileZ, Layer). The zero Mesh is empty and ready to use.
type Mesh struct {
	slots []slot
	// free holds the empty slots in descending order (the lowest is
	// reused first).
	free []uint32
	// cols maps a tile position (x, z) to the slots of its tiles in
	// ascending layer order. It is used for lookup only, never iterated.
	cols  map[[2]int32][]uint32
	count int
	// linked lists the polygons connectPair gave links during a connect.
	linked []slotPoly
	// offMeshCount is the number of off-mesh links of the held tiles.
	offMeshCount int
	// spare is the run-time state of a tile the mesh let go of, whose
	// memory the next tile added or replaced takes (takeMeshTile).
	spare *meshTile
}

type slot struct {
	gen  uint32 // 1..MaxGeneration
	tile *meshTile
}

// meshTile is a tile held by a mesh with its run-time state.
type meshTile struct {
	data  []byte   // owned copy of the tile data
	id    uint64   // ContentID(data)
	t     *Tile    // decoded, read-only
	flags []uint16 // per node: the polygons, then the off-mesh links
	areas []uint8
	links [][]Link // per node, in link order
	// backing is the array the nodes' links start in (a node with more
	// links than its share grows a slice of its own).
	backing []Link
	// mem is the memory of a tile BuildTile made (nil for decoded data):
	// while a mesh holds the tile, mem.holders counts it.
	mem *tileMem
	// portals are the tile's portal edges (BuiltTile.portals), shared.
	portals *[4][]portalEdge
}

// portalEdges returns the portal edges of mt's tile facing border dir.
func (mt *meshTile) portalEdges(dir uint8) []portalEdge {
	return mt.portals[dir/2]
}

// decoded returns the BuiltTile of data, its decoded form t and its
// content id (ContentID(data)): its portal edges made, no memory of
// BuildTile's.
func decoded(data []byte, t *Tile, id uint64) *BuiltTile {
	b := &BuiltTile{data: data, t: t, id: id, portals: new([4][]portalEdge)}
	portalEdges(b.portals, t)
	return b
}

// newMeshTile returns a mesh tile for data, its decoded form t and its
// content id (ContentID(data)), to be tile ref.
func newMeshTile(data []byte, t *Tile, id uint64, ref TileRef) *meshTile {
	return fillMeshTile(new(meshTile), decoded(data, t, id), ref)
}

// takeMeshTile is newMeshTile of b, to be the tile of slot s at its
// generation, in the memory of the mesh's spare tile (the run-time state
// of a tile replaced or removed, recycle) when there is one: a replaced
// tile's memory serves its successor, so replacing tiles allocates
// nothing once the buffers are large enough.
func (m *Mesh) takeMeshTile(b *BuiltTile, s uint32) *meshTile {
	mt := m.spare
	m.spare = nil
	if mt == nil {
		mt = new(meshTile)
	}
	return fillMeshTile(mt, b, m.tileRef(s))
}

// fillMeshTile makes mt the mesh tile of b (sharing its data, tile,
// memory and portal edges) that is to be tile ref, with its internal
// links, reusing mt's buffers where they are large enough.
func fillMeshTile(mt *meshTile, b *BuiltTile, ref TileRef) *meshTile {
	t := b.t
	n := t.NodeCount()
	edges := 2 * len(t.OffMesh) // an off-mesh link lands at both ends, most often
	for i := range t.Polys {
		edges += int(t.Polys[i].VertCount)
	}
	// One backing array with room for a link per edge; a polygon with more
	// links (several across one portal edge) grows its own slice.
	*mt = meshTile{data: b.data, id: b.id, t: t, mem: b.mem, portals: b.portals,
		flags:   resized(mt.flags, n),
		areas:   resized(mt.areas, n),
		links:   resized(mt.links, n),
		backing: resized(mt.backing, edges)}
	base := 0
	for i := range t.Polys {
		p := &t.Polys[i]
		mt.flags[i] = p.Flags
		mt.areas[i] = p.Area
		vc := int(p.VertCount)
		mt.links[i] = appendInternalLinks(mt.backing[base:base:base+vc], p, ref)
		base += vc
	}
	for k, c := range t.OffMesh {
		i := len(t.Polys) + k
		mt.flags[i], mt.areas[i] = c.Flags, c.Area
		mt.links[i] = mt.backing[base : base : base+2]
		base += 2
	}
	return mt
}

// resized returns s with length n: s itself when its capacity allows, else
// a new slice (the contents are the caller's to set).
func resized[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// recycle keeps the run-time state of mt, a tile the mesh no longer holds,
// as the spare that the next takeMeshTile fills (the larger of it and the
// current spare). Nothing outside the mesh holds it: Links documents its
// slices as valid until the mesh next changes.
func (m *Mesh) recycle(mt *meshTile) {
	if m.spare != nil && cap(m.spare.backing) >= cap(mt.backing) {
		return
	}
	clear(mt.links) // let go of links grown apart from the backing
	*mt = meshTile{flags: mt.flags, areas: mt.areas, links: mt.links, backing: mt.backing}
	m.spare = mt
}

// NewMesh returns an empty mesh.
func NewMesh() *Mesh { return &Mesh{} }

func nextGen(g uint32) uint32 {
	if g >= MaxGeneration {
		return 1
	}
	return g + 1
}

// errNilMesh is the error of the methods that change or encode a nil
// *Mesh.
var errNilMesh = errors.New("navmesh: nil Mesh")

// TileCount returns the number of tiles held.
func (m *Mesh) TileCount() int {
	if m == nil {
		return 0
	}
	return m.count
}

// SlotCount returns the number of slots, empty ones included.
func (m *Mesh) SlotCount() int {
	if m == nil {
		return 0
	}
	return len(m.slots)
}

func (m *Mesh) lookup(x, z int32, layer uint8) (uint32, bool) {
	if m == nil {
		return 0, false
	}
	for _, s := range m.cols[[2]int32{x, z}] {
		if m.slots[s].tile.t.Header.Layer == layer {
			return s, true
		}
	}
	return 0, false
}

func (m *Mesh) tileRef(s uint32) TileRef {
	return TileRef(packRef(m.slots[s].gen, s, 0))
}

// AddTile decodes data (DecodeTile), puts the tile in the lowest empty slot
// (a new slot has generation 1; a reused one keeps the generation its last
// removal gave it) and links it with its neighbours. It fails, changing
// nothing, when the data is corrupt or a tile already sits at the tile's
// position (TileX, TileZ, Layer). The mesh keeps its own copy of data.
func (m *Mesh) AddTile(data []byte) (TileRef, error) {
	if m == nil {
		return 0, errNilMesh
	}
	t, err := DecodeTile(data)
	if err != nil {
		return 0, err
	}
	data = append([]byte(nil), data...)
	return m.addTile(decoded(data, t, ContentID(data)), "AddTile")
}

// AddBuilt is AddTile for a tile BuildTile made: no decoding and no copy
// (the mesh shares b's data and decoded tile, which nobody changes).
func (m *Mesh) AddBuilt(b *BuiltTile) (TileRef, error) {
	if m == nil {
		return 0, errNilMesh
	}
	if err := b.check("AddBuilt"); err != nil {
		return 0, err
	}
	return m.addTile(b, "AddBuilt")
}

func (m *Mesh) addTile(b *BuiltTile, fn string) (TileRef, error) {
	h := &b.t.Header
	if s, ok := m.lookup(h.TileX, h.TileZ, h.Layer); ok {
		return 0, fmt.Errorf("navmesh: %s: position (%d, %d) layer %d already holds tile %#x", fn, h.TileX, h.TileZ, h.Layer, uint64(m.tileRef(s)))
	}
	if len(m.free) == 0 && len(m.slots) >= MaxSlots {
		return 0, fmt.Errorf("navmesh: %s: all %d slots are in use", fn, MaxSlots)
	}
	var s uint32
	if n := len(m.free); n > 0 {
		s = m.free[n-1]
		m.free = m.free[:n-1]
	} else {
		s = uint32(len(m.slots))
		m.slots = append(m.slots, slot{gen: 1})
	}
	m.place(s, m.takeMeshTile(b, s))
	return m.tileRef(s), nil
}

// place puts mt in empty slot s, indexes it and links it.
func (m *Mesh) place(s uint32, mt *meshTile) {
	m.hold(s, mt)
	if m.cols == nil {
		m.cols = make(map[[2]int32][]uint32)
	}
	h := &mt.t.Header
	key := [2]int32{h.TileX, h.TileZ}
	col := m.cols[key]
	i := sort.Search(len(col), func(i int) bool { return m.slots[col[i]].tile.t.Header.Layer > h.Layer })
	col = append(col, 0)
	copy(col[i+1:], col[i:])
	col[i] = s
	m.cols[key] = col
	m.connect(s)
}

// unplace unlinks the tile of slot s, drops it from the index and empties
// the slot (its generation is left to the caller).
func (m *Mesh) unplace(s uint32) {
	m.disconnect(s)
	h := &m.slots[s].tile.t.Header
	key := [2]int32{h.TileX, h.TileZ}
	col := m.cols[key]
	for i, c := range col {
		if c == s {
			col = append(col[:i], col[i+1:]...)
			break
		}
	}
	m.cols[key] = col // kept when empty: a tile added there again reuses it
	m.release(s)
}

// hold puts mt in empty slot s and counts it (not indexed, not linked).
func (m *Mesh) hold(s uint32, mt *meshTile) {
	m.slots[s].tile = mt
	if mt.mem != nil {
		mt.mem.holders.Add(1)
	}
	m.count++
	m.offMeshCount += len(mt.t.OffMesh)
}

// release empties slot s (its tile unlinked, its index entry left to the
// caller) and stops counting its tile.
func (m *Mesh) release(s uint32) {
	mt := m.slots[s].tile
	m.offMeshCount -= len(mt.t.OffMesh)
	if mt.mem != nil {
		mt.mem.holders.Add(-1)
	}
	m.slots[s].tile = nil
	m.count--
}

// ReplaceTile decodes data and swaps it for the tile at the same position:
// same slot, next generation (references into the old tile go stale), links
// rebuilt, run-time edits of the old tile dropped. It fails, changing
// nothing, when the data is corrupt or no tile sits at its position.
func (m *Mesh) ReplaceTile(data []byte) (TileRef, error) {
	if m == nil {
		return 0, errNilMesh
	}
	t, err := DecodeTile(data)
	if err != nil {
		return 0, err
	}
	data = append([]byte(nil), data...)
	return m.replaceTile(decoded(data, t, ContentID(data)), "ReplaceTile")
}

// ReplaceBuilt is ReplaceTile for a tile BuildTile made: no decoding and
// no copy (the mesh shares b's data and decoded tile).
func (m *Mesh) ReplaceBuilt(b *BuiltTile) (TileRef, error) {
	if m == nil {
		return 0, errNilMesh
	}
	if err := b.check("ReplaceBuilt"); err != nil {
		return 0, err
	}
	return m.replaceTile(b, "ReplaceBuilt")
}

func (m *Mesh) replaceTile(b *BuiltTile, fn string) (TileRef, error) {
	h := &b.t.Header
	s, ok := m.lookup(h.TileX, h.TileZ, h.Layer)
	if !ok {
		return 0, fmt.Errorf("navmesh: %s: no tile at position (%d, %d) layer %d", fn, h.TileX, h.TileZ, h.Layer)
	}
	// The new tile takes the old one's slot at the same position and
	// layer, so the slot's index entry (cols) stays as it is.
	old := m.slots[s].tile
	m.disconnect(s)
	m.release(s)
	m.slots[s].gen = nextGen(m.slots[s].gen)
	m.hold(s, m.takeMeshTile(b, s))
	m.connect(s)
	m.recycle(old)
	return m.tileRef(s), nil
}

// RemoveTile removes the tile at (x, z, layer): its links and its
// neighbours' links to it go, its slot becomes empty with the next
// generation (references into it go stale). No tile there is an error.
func (m *Mesh) RemoveTile(x, z int32, layer uint8) error {
	if m == nil {
		return errNilMesh
	}
	s, ok := m.lookup(x, z, layer)
	if !ok {
		return fmt.Errorf("navmesh: RemoveTile: no tile at position (%d, %d) layer %d", x, z, layer)
	}
	old := m.slots[s].tile
	m.unplace(s)
	m.recycle(old)
	m.slots[s].gen = nextGen(m.slots[s].gen)
	i := sort.Search(len(m.free), func(i int) bool { return m.free[i] < s })
	m.free = append(m.free, 0)
	copy(m.free[i+1:], m.free[i:])
	m.free[i] = s
	return nil
}

// TileAt returns the tile at (x, z, layer), false when there is none.
func (m *Mesh) TileAt(x, z int32, layer uint8) (TileRef, bool) {
	s, ok := m.lookup(x, z, layer)
	if !ok {
		return 0, false
	}
	return m.tileRef(s), true
}

// TilesAt returns the tiles at tile position (x, z), lowest layer first.
func (m *Mesh) TilesAt(x, z int32) []TileRef {
	if m == nil {
		return nil
	}
	return m.AppendTilesAt(make([]TileRef, 0, len(m.cols[[2]int32{x, z}])), x, z)
}

// AppendTilesAt appends the tiles at tile position (x, z), lowest layer
// first, to dst and returns it (TilesAt without a new slice).
func (m *Mesh) AppendTilesAt(dst []TileRef, x, z int32) []TileRef {
	if m == nil {
		return dst
	}
	for _, s := range m.cols[[2]int32{x, z}] {
		dst = append(dst, m.tileRef(s))
	}
	return dst
}

// Tiles returns every tile, ordered by TileZ, then TileX, then Layer.
func (m *Mesh) Tiles() []TileRef {
	order := m.ordered()
	refs := make([]TileRef, len(order))
	for i, s := range order {
		refs[i] = m.tileRef(s)
	}
	return refs
}

// ordered returns the occupied slots by (TileZ, TileX, Layer).
func (m *Mesh) ordered() []uint32 {
	if m == nil {
		return nil
	}
	order := make([]uint32, 0, m.count)
	for s := range m.slots {
		if m.slots[s].tile != nil {
			order = append(order, uint32(s))
		}
	}
	sort.Slice(order, func(a, b int) bool {
		return posLess(&m.slots[order[a]].tile.t.Header, &m.slots[order[b]].tile.t.Header)
	})
	return order
}

func posLess(a, b *Header) bool {
	if a.TileZ != b.TileZ {
		return a.TileZ < b.TileZ
	}
	if a.TileX != b.TileX {
		return a.TileX < b.TileX
	}
	return a.Layer < b.Layer
}

// tileOf validates a tile reference.
func (m *Mesh) tileOf(ref TileRef, what string) (uint32, *meshTile, error) {
	if m == nil {
		return 0, nil, fmt.Errorf("navmesh: %s: %w", what, errNilMesh)
	}
	r := PolyRef(ref)
	g, s := r.Generation(), r.Slot()
	if g == 0 {
		return 0, nil, fmt.Errorf("navmesh: %s: reference %#x has generation 0 (never valid)", what, uint64(r))
	}
	if int(s) >= len(m.slots) {
		return 0, nil, fmt.Errorf("navmesh: %s: reference %#x names slot %d of %d", what, uint64(r), s, len(m.slots))
	}
	sl := &m.slots[s]
	if sl.tile == nil {
		return 0, nil, fmt.Errorf("navmesh: %s: reference %#x is stale: slot %d is empty", what, uint64(r), s)
	}
	if sl.gen != g {
		return 0, nil, fmt.Errorf("navmesh: %s: reference %#x is stale: generation %d, slot %d is at %d", what, uint64(r), g, s, sl.gen)
	}
	return s, sl.tile, nil
}

func (m *Mesh) polyOf(ref PolyRef, what string) (*meshTile, int, error) {
	_, mt, err := m.tileOf(ref.Tile(), what)
	if err != nil {
		return nil, 0, err
	}
	p := int(ref.Poly())
	if p >= mt.t.NodeCount() {
		return nil, 0, fmt.Errorf("navmesh: %s: reference %#x names polygon %d of a tile with %d polygons and %d off-mesh links",
			what, uint64(ref), p, len(mt.t.Polys), len(mt.t.OffMesh))
	}
	return mt, p, nil
}

// DecodeRef checks ref and returns its tile and polygon index. A stale
// reference (its tile replaced or removed), an unknown slot or a polygon
// index beyond the tile's is an error.
func (m *Mesh) DecodeRef(ref PolyRef) (TileRef, int, error) {
	_, p, err := m.polyOf(ref, "DecodeRef")
	if err != nil {
		return 0, 0, err
	}
	return ref.Tile(), p, nil
}

// IsValidRef reports whether DecodeRef accepts ref.
func (m *Mesh) IsValidRef(ref PolyRef) bool {
	_, _, err := m.polyOf(ref, "IsValidRef")
	return err == nil
}

// Tile returns the decoded tile ref names (shared: read-only).
func (m *Mesh) Tile(ref TileRef) (*Tile, error) {
	_, mt, err := m.tileOf(ref, "Tile")
	if err != nil {
		return nil, err
	}
	return mt.t, nil
}

// TileData returns a copy of the data of the tile ref names.
func (m *Mesh) TileData(ref TileRef) ([]byte, error) {
	_, mt, err := m.tileOf(ref, "TileData")
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), mt.data...), nil
}

// Built returns the tile ref names as a BuiltTile sharing the mesh's data
// and decoded tile (read-only), to put back later with AddBuilt or
// ReplaceBuilt without decoding.
func (m *Mesh) Built(ref TileRef) (*BuiltTile, error) {
	_, mt, err := m.tileOf(ref, "Built")
	if err != nil {
		return nil, err
	}
	return &BuiltTile{data: mt.data, t: mt.t, id: mt.id, mem: mt.mem, portals: mt.portals}, nil
}

// TileContentID returns the content id (ContentID of its data) of the tile
// ref names.
func (m *Mesh) TileContentID(ref TileRef) (uint64, error) {
	_, mt, err := m.tileOf(ref, "TileContentID")
	if err != nil {
		return 0, err
	}
	return mt.id, nil
}

// Links returns the links of polygon ref in link order (docs/format.md,
// "Links"). The slice is the mesh's own: read-only, valid until the mesh
// next changes.
func (m *Mesh) Links(ref PolyRef) ([]Link, error) {
	mt, p, err := m.polyOf(ref, "Links")
	if err != nil {
		return nil, err
	}
	return mt.links[p], nil
}

// PolyFlags returns the run-time flags of polygon ref.
func (m *Mesh) PolyFlags(ref PolyRef) (uint16, error) {
	mt, p, err := m.polyOf(ref, "PolyFlags")
	if err != nil {
		return 0, err
	}
	return mt.flags[p], nil
}

// SetPolyFlags sets the run-time flags of polygon ref. The edit stays while
// the tile is kept and is lost when the tile is replaced or removed.
func (m *Mesh) SetPolyFlags(ref PolyRef, flags uint16) error {
	mt, p, err := m.polyOf(ref, "SetPolyFlags")
	if err != nil {
		return err
	}
	mt.flags[p] = flags
	return nil
}

// PolyArea returns the run-time area id of polygon ref.
func (m *Mesh) PolyArea(ref PolyRef) (uint8, error) {
	mt, p, err := m.polyOf(ref, "PolyArea")
	if err != nil {
		return 0, err
	}
	return mt.areas[p], nil
}

// SetPolyArea sets the run-time area id (0..MaxArea) of polygon ref. The
// edit stays while the tile is kept and is lost when the tile is replaced
// or removed.
func (m *Mesh) SetPolyArea(ref PolyRef, area uint8) error {
	if area > MaxArea {
		return fmt.Errorf("navmesh: SetPolyArea: area %d, want 0..%d", area, MaxArea)
	}
	mt, p, err := m.polyOf(ref, "SetPolyArea")
	if err != nil {
		return err
	}
	mt.areas[p] = area
	return nil
}
