package tilecache

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/cespare/xxhash/v2"

	"navviz/core/navmesh"
	"navviz/core/voxel"
)

// Snapshot format (docs/snapshot.md, "Tile cache snapshot").
const (
	// SnapshotMagic is the first four bytes of a snapshot.
	SnapshotMagic = "NVTC"
	// SnapshotVersion is the newest version written and read: version 2
	// adds the off-mesh links. A cache that never had an off-mesh link
	// (none in force, next link id 1) is written as version 1
	// (SnapshotVersionNoLinks), which has no link section.
	SnapshotVersion uint16 = 2
	// SnapshotVersionNoLinks is the version of a snapshot without the
	// off-mesh link section.
	SnapshotVersionNoLinks uint16 = 1
	// offMeshEntrySize is the size of a link in a snapshot: id, start,
	// end, radius, flags, area, direction.
	offMeshEntrySize = 4 + 28 + 4

	snapHeaderSize = 28 // magic, version, reserved, fingerprint, next ids, obstacle count
	checksumSize   = 8

	// SnapshotBaseBytes and SnapshotTileFactor make a cache's snapshot
	// size limit (Cache.MaxSnapshotBytes, docs/snapshot.md §6).
	SnapshotBaseBytes  = 8 << 20
	SnapshotTileFactor = 16
)

// MaxSnapshotBytes returns the largest snapshot the cache writes and
// reads: SnapshotBaseBytes plus SnapshotTileFactor times the size of the
// first build's tile data (docs/snapshot.md §6; 0 for a cache not made by
// Build). Snapshot refuses a state whose snapshot would be larger, so no
// valid snapshot is, and Restore refuses larger input before reading it;
// a host reads a snapshot file with this bound (internal/readlimit).
// The base holds about a quarter of a million obstacles; the tile data of a
// snapshot are those of tiles rebuilt with shapes, which on the test
// levels are about as large as the first build's.
func (c *Cache) MaxSnapshotBytes() int64 {
	if c.check() != nil {
		return 0
	}
	return SnapshotBaseBytes + SnapshotTileFactor*c.firstBytes
}

// Snapshot returns the cache's run-time state in the format of
// docs/snapshot.md: the fingerprint of its geometry and settings, the next
// obstacle and volume ids, the obstacles and volumes in force with their
// ids (in the order added), the off-mesh links with the next link id
// (version 2; a cache that never had a link writes version 1, without
// them), the queue, the mesh's dynamic state
// (navmesh.State: slot generations, tiles by content id, run-time polygon
// edits) and the data of every tile of the mesh that is not a first-build
// tile of its position, then an xxhash64 checksum of all of it. The same
// state always gives the same bytes. A state whose snapshot would be
// larger than MaxSnapshotBytes is an error. The cache is not changed.
func (c *Cache) Snapshot() ([]byte, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	b := make([]byte, 0, 4096)
	b = append(b, SnapshotMagic...)
	withLinks := len(c.links) > 0 || c.nextLink != 1
	if withLinks {
		b = le.AppendUint16(b, SnapshotVersion)
	} else {
		b = le.AppendUint16(b, SnapshotVersionNoLinks)
	}
	b = le.AppendUint16(b, 0)
	b = le.AppendUint64(b, c.fp)
	b = le.AppendUint32(b, uint32(c.nextObstacle))
	b = le.AppendUint32(b, uint32(c.nextVolume))
	b = le.AppendUint32(b, uint32(len(c.obstacles)))
	for i := range c.obstacles {
		e := &c.obstacles[i]
		b = le.AppendUint32(b, uint32(e.id))
		b = appendObstacle(b, &e.o)
	}
	b = le.AppendUint32(b, uint32(len(c.volumes)))
	for i := range c.volumes {
		e := &c.volumes[i]
		b = le.AppendUint32(b, uint32(e.id))
		b = appendVolume(b, &e.v)
	}
	if withLinks {
		b = le.AppendUint32(b, uint32(c.nextLink))
		b = le.AppendUint32(b, uint32(len(c.links)))
		for i := range c.links {
			b = appendLink(b, &c.links[i])
		}
	}
	b = le.AppendUint32(b, uint32(len(c.queue)))
	for _, ti := range c.queue {
		t := c.tiles[ti]
		b = le.AppendUint32(b, uint32(int32(t.tx)))
		b = le.AppendUint32(b, uint32(int32(t.tz)))
	}
	st := c.mesh.State()
	sb, err := st.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("tilecache: Snapshot: %w", err)
	}
	b = le.AppendUint32(b, uint32(len(sb)))
	b = append(b, sb...)
	var extra [][]byte
	for i := range st.Tiles {
		ts := &st.Tiles[i]
		if c.isFirstBuild(ts) {
			continue
		}
		ref, ok := c.mesh.TileAt(ts.X, ts.Z, ts.Layer)
		if !ok {
			return nil, fmt.Errorf("tilecache: Snapshot: no tile at (%d, %d) layer %d", ts.X, ts.Z, ts.Layer)
		}
		data, err := c.mesh.TileData(ref)
		if err != nil {
			return nil, fmt.Errorf("tilecache: Snapshot: %w", err)
		}
		extra = append(extra, data)
	}
	b = le.AppendUint32(b, uint32(len(extra)))
	for _, d := range extra {
		b = le.AppendUint32(b, uint32(len(d)))
		b = append(b, d...)
	}
	if limit := c.MaxSnapshotBytes(); int64(len(b)+checksumSize) > limit {
		return nil, fmt.Errorf("tilecache: Snapshot: the state takes %d bytes, over this cache's snapshot limit of %d (docs/snapshot.md §6)", len(b)+checksumSize, limit)
	}
	return le.AppendUint64(b, xxhash.Sum64(b)), nil
}

// isFirstBuild reports whether the state's tile is one of the first-build
// tiles of a cached tile position (same layer and content id).
func (c *Cache) isFirstBuild(ts *navmesh.TileState) bool {
	t := c.tileAt(int(ts.X), int(ts.Z))
	if t == nil {
		return false
	}
	for i := range t.first {
		if t.first[i].layer == ts.Layer && t.first[i].id == ts.ContentID {
			return true
		}
	}
	return false
}

// snapReader reads the fields of a snapshot; a read past the end sets err
// (the offset of the truncated field) and returns zeros.
type snapReader struct {
	data []byte
	off  int
	err  error
}

func (r *snapReader) take(n int, what string) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.data)-r.off {
		r.err = fmt.Errorf("tilecache: Restore: snapshot truncated at offset %d (%s: %d bytes, %d left)", r.off, what, n, len(r.data)-r.off)
		return nil
	}
	b := r.data[r.off : r.off+n]
	r.off += n
	return b
}

func (r *snapReader) u8(what string) uint8 {
	if b := r.take(1, what); b != nil {
		return b[0]
	}
	return 0
}

func (r *snapReader) u16(what string) uint16 {
	if b := r.take(2, what); b != nil {
		return binary.LittleEndian.Uint16(b)
	}
	return 0
}

func (r *snapReader) u32(what string) uint32 {
	if b := r.take(4, what); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *snapReader) u64(what string) uint64 {
	if b := r.take(8, what); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (r *snapReader) f32(what string) float32 { return math.Float32frombits(r.u32(what)) }

// count reads a u32 count of entries of at least minSize bytes each and
// checks that they can fit in what is left.
func (r *snapReader) count(what string, minSize int) int {
	off := r.off
	n := r.u32(what)
	if r.err == nil && uint64(n)*uint64(minSize) > uint64(len(r.data)-r.off) {
		r.err = fmt.Errorf("tilecache: Restore: %s = %d at offset %d, more than the %d bytes left hold", what, n, off, len(r.data)-r.off)
	}
	if r.err != nil {
		return 0
	}
	return int(n)
}

// restored is a decoded, validated snapshot.
type restored struct {
	nextObstacle ObstacleID
	nextVolume   VolumeID
	obstacles    []obstacleEntry
	volumes      []volumeEntry
	links        []navmesh.OffMeshLink
	nextLink     OffMeshLinkID
	queue        []int32
	state        navmesh.State
	data         map[uint64][]byte // content id -> data, for tiles not of the first build
}

// Restore replaces the cache's run-time state with the snapshot data (as
// Snapshot wrote it): obstacles, volumes, off-mesh links, next ids, queue
// and the mesh's dynamic state (every tile in its slot with its
// generation and run-time edits, so references taken when the snapshot
// was made are valid again).
// The last-built areas of every tile are forgotten, so the next rebuild of
// each queued tile runs in full. Ids restored this way may be handed out
// again by later adds, as they were after the snapshot.
//
// Everything is checked before anything changes: the size (at most
// MaxSnapshotBytes, before a byte is read), the checksum, magic,
// version, the fingerprint (the snapshot must come from a cache built from
// the same geometry and settings), every obstacle, volume and off-mesh
// link (Validate; a link may start in a tile that is not cached),
// ids ascending, at least 1 and below the next id, the queue (cached
// tiles, each once), the mesh state (format, tiles at cached positions,
// every tile's data known and matching its content id, position and
// edits). A corrupt, truncated or foreign snapshot is an error naming what
// is wrong, and the cache is left exactly as it was.
func (c *Cache) Restore(data []byte) error {
	p, err := c.prepareRestore(data)
	if err != nil {
		return err
	}
	return p.apply()
}

// decodeSnapshot parses and validates a snapshot without changing c.
func (c *Cache) decodeSnapshot(data []byte) (*restored, error) {
	if limit := c.MaxSnapshotBytes(); int64(len(data)) > limit {
		return nil, fmt.Errorf("tilecache: Restore: snapshot of %d bytes, over this cache's snapshot limit of %d (docs/snapshot.md §6)", len(data), limit)
	}
	if len(data) < snapHeaderSize+checksumSize {
		return nil, fmt.Errorf("tilecache: Restore: snapshot of %d bytes, want at least %d", len(data), snapHeaderSize+checksumSize)
	}
	body := data[:len(data)-checksumSize]
	// The error says only that the checksum did not match: its bytes are
	// the input's last 8, which for a file that is no snapshot may be
	// anything (a secret).
	if binary.LittleEndian.Uint64(data[len(body):]) != xxhash.Sum64(body) {
		return nil, fmt.Errorf("tilecache: Restore: the snapshot's checksum does not match its %d bytes (corrupt, truncated or not a snapshot)", len(data))
	}
	r := &snapReader{data: body}
	if m := string(r.take(4, "magic")); m != SnapshotMagic {
		return nil, fmt.Errorf("tilecache: Restore: magic %q, want %q", m, SnapshotMagic)
	}
	version := r.u16("version")
	if version != SnapshotVersion && version != SnapshotVersionNoLinks {
		return nil, fmt.Errorf("tilecache: Restore: snapshot version %d, want %d or %d", version, SnapshotVersionNoLinks, SnapshotVersion)
	}
	if v := r.u16("reserved"); v != 0 {
		return nil, fmt.Errorf("tilecache: Restore: reserved field %d at offset 6, want 0", v)
	}
	if fp := r.u64("fingerprint"); fp != c.fp {
		return nil, fmt.Errorf("tilecache: Restore: snapshot of geometry and settings with fingerprint %#016x, this cache's is %#016x", fp, c.fp)
	}
	rs := &restored{
		nextObstacle: ObstacleID(r.u32("next obstacle id")),
		nextVolume:   VolumeID(r.u32("next volume id")),
	}
	// below reports whether id may be handed out before next (0: every id
	// is used).
	below := func(id, next uint32) bool { return id >= 1 && (next == 0 || id < next) }

	n := r.count("obstacle count", 4+1+20)
	for i := 0; i < n && r.err == nil; i++ {
		off := r.off
		id := r.u32("obstacle id")
		shape := voxel.ObstacleShape(r.u8("obstacle shape"))
		k := obstacleFloatCount(shape)
		if r.err == nil && k == 0 {
			return nil, fmt.Errorf("tilecache: Restore: obstacle %d at offset %d has shape %d, want 1..3", i, off, shape)
		}
		f := make([]float32, k)
		for j := range f {
			f[j] = r.f32("obstacle number")
		}
		if r.err != nil {
			break
		}
		if !below(id, uint32(rs.nextObstacle)) {
			return nil, fmt.Errorf("tilecache: Restore: obstacle %d at offset %d has id %d, want 1..%d (below the next id)", i, off, id, uint32(rs.nextObstacle)-1)
		}
		if i > 0 && id <= uint32(rs.obstacles[i-1].id) {
			return nil, fmt.Errorf("tilecache: Restore: obstacle %d at offset %d has id %d, not above the previous id %d", i, off, id, rs.obstacles[i-1].id)
		}
		o := obstacleFromFloats(shape, f)
		if err := o.Validate(); err != nil {
			return nil, fmt.Errorf("tilecache: Restore: obstacle %d (id %d) at offset %d: %w", i, id, off, err)
		}
		rs.obstacles = append(rs.obstacles, c.obstacleEntry(ObstacleID(id), o))
	}

	n = r.count("volume count", 4+1+8+4+24)
	for i := 0; i < n && r.err == nil; i++ {
		off := r.off
		id := r.u32("volume id")
		var v voxel.ConvexVolume
		v.Area = r.u8("volume area")
		v.MinYM = r.f32("volume MinYM")
		v.MaxYM = r.f32("volume MaxYM")
		k := r.count("volume corner count", 8)
		if r.err == nil && k < 3 {
			return nil, fmt.Errorf("tilecache: Restore: volume %d at offset %d has %d corners, want at least 3", i, off, k)
		}
		v.VertsXZ = make([][2]float32, k)
		for j := range v.VertsXZ {
			v.VertsXZ[j][0] = r.f32("volume corner x")
			v.VertsXZ[j][1] = r.f32("volume corner z")
		}
		if r.err != nil {
			break
		}
		if !below(id, uint32(rs.nextVolume)) {
			return nil, fmt.Errorf("tilecache: Restore: volume %d at offset %d has id %d, want 1..%d (below the next id)", i, off, id, uint32(rs.nextVolume)-1)
		}
		if i > 0 && id <= uint32(rs.volumes[i-1].id) {
			return nil, fmt.Errorf("tilecache: Restore: volume %d at offset %d has id %d, not above the previous id %d", i, off, id, rs.volumes[i-1].id)
		}
		if err := v.Validate(); err != nil {
			return nil, fmt.Errorf("tilecache: Restore: volume %d (id %d) at offset %d: %w", i, id, off, err)
		}
		rs.volumes = append(rs.volumes, volumeEntryOf(VolumeID(id), v))
	}

	rs.nextLink = 1
	if version == SnapshotVersion && r.err == nil {
		if err := c.decodeLinks(r, rs, below); err != nil {
			return nil, err
		}
	}

	n = r.count("queue length", 8)
	seen := make(map[int32]bool, n)
	for i := 0; i < n && r.err == nil; i++ {
		off := r.off
		tx, tz := int32(r.u32("queued tile x")), int32(r.u32("queued tile z"))
		if r.err != nil {
			break
		}
		t := c.tileAt(int(tx), int(tz))
		if t == nil {
			return nil, fmt.Errorf("tilecache: Restore: queue entry %d at offset %d is tile (%d, %d), not a cached tile", i, off, tx, tz)
		}
		ti := tz*int32(c.grid.TilesX) + tx
		if seen[ti] {
			return nil, fmt.Errorf("tilecache: Restore: queue entry %d at offset %d repeats tile (%d, %d)", i, off, tx, tz)
		}
		seen[ti] = true
		rs.queue = append(rs.queue, ti)
	}

	off := r.off
	sl := r.count("mesh state length", 1)
	sb := r.take(sl, "mesh state")
	if r.err != nil {
		return nil, r.err
	}
	if err := rs.state.UnmarshalBinary(sb); err != nil {
		return nil, fmt.Errorf("tilecache: Restore: mesh state at offset %d: %w", off+4, err)
	}
	// The tiles the snapshot must carry: those not of the first build.
	var need []*navmesh.TileState
	for i := range rs.state.Tiles {
		ts := &rs.state.Tiles[i]
		if c.tileAt(int(ts.X), int(ts.Z)) == nil {
			return nil, fmt.Errorf("tilecache: Restore: mesh state tile %d at (%d, %d) layer %d is not at a cached tile", i, ts.X, ts.Z, ts.Layer)
		}
		if !c.isFirstBuild(ts) {
			need = append(need, ts)
		}
	}
	rs.data = make(map[uint64][]byte, len(need))
	for _, ti := range c.order {
		for _, l := range c.tiles[ti].first {
			rs.data[l.id] = l.data
		}
	}
	off = r.off
	n = r.count("tile data count", 4)
	if r.err == nil && n != len(need) {
		return nil, fmt.Errorf("tilecache: Restore: %d tile data entries at offset %d, the mesh state needs %d", n, off, len(need))
	}
	for i := 0; i < n && r.err == nil; i++ {
		off := r.off
		d := r.take(r.count("tile data length", 1), "tile data")
		if r.err != nil {
			break
		}
		ts := need[i]
		if id := navmesh.ContentID(d); id != ts.ContentID {
			return nil, fmt.Errorf("tilecache: Restore: tile data %d at offset %d has content id %#016x, the mesh state's tile at (%d, %d) layer %d has %#016x",
				i, off, id, ts.X, ts.Z, ts.Layer, ts.ContentID)
		}
		rs.data[ts.ContentID] = d
	}
	if r.err != nil {
		return nil, r.err
	}
	if r.off != len(body) {
		return nil, fmt.Errorf("tilecache: Restore: %d bytes after the last field at offset %d", len(body)-r.off, r.off)
	}
	// The mesh state's tiles decode and fit (RestoreState checks them
	// again, atomically, before it changes the mesh).
	return rs, nil
}
