package tilecache

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cespare/xxhash/v2"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
	"navviz/core/voxel"
)

// busy puts the fixture's cache in a state with every kind of run-time
// state: obstacles of the three shapes and volumes (some removed, so the
// ids have gaps), a half-done queue, replaced tiles and run-time polygon
// edits.
func busy(t testing.TB, f *fixture) *Cache {
	t.Helper()
	c := f.reset(t)
	for _, o := range abc(t, f) {
		if _, err := c.AddObstacle(o); err != nil {
			t.Fatal(err)
		}
	}
	pts := walkablePoints(t, c.Mesh())
	q := pts[len(pts)/4]
	if _, err := c.AddVolume(square(q.X, q.Z, 2, q.Y-1, q.Y+1, 11)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AddVolume(square(q.X+1, q.Z, 2, q.Y-1, q.Y+1, 0)); err != nil {
		t.Fatal(err)
	}
	if err := c.RemoveObstacle(2); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Update(max(1, c.QueueLen()/2)); err != nil {
		t.Fatal(err)
	}
	r := pts[len(pts)*6/7]
	if _, err := c.AddObstacle(voxel.Cylinder(geom.V3(r.X, r.Y-1, r.Z), 0.8, 3)); err != nil {
		t.Fatal(err)
	}
	m := c.Mesh()
	for i, ref := range m.Tiles() {
		if i%5 == 0 {
			if err := m.SetPolyArea(ref.Poly(0), 17); err != nil {
				t.Fatal(err)
			}
		}
	}
	if c.QueueLen() == 0 {
		t.Fatal("busy: the queue is empty")
	}
	return c
}

// TestSnapshotRoundTrip: a snapshot restores the whole run-time state:
// the same snapshot bytes and mesh bytes afterwards, references taken
// before valid again, and the rest of the work gives what it would have
// given without the detour.
func TestSnapshotRoundTrip(t *testing.T) {
	for _, k := range []config{{"city", pipeline.Layers, true}, {"dungeon", pipeline.Watershed, false}} {
		t.Run(k.String(), func(t *testing.T) {
			f := getFixture(t, k)
			c := busy(t, f)
			snap := snapBytes(t, c)
			if again := snapBytes(t, c); !bytes.Equal(snap, again) {
				t.Fatal("two snapshots of one state differ")
			}
			mesh := meshBytes(t, c.Mesh())
			refs := c.Mesh().Tiles()
			queue := c.Queue()

			// Finish the work: the reference result.
			if _, err := c.UpdateAll(); err != nil {
				t.Fatal(err)
			}
			want := meshBytes(t, c.Mesh())
			wantTiles := meshTiles(t, c.Mesh())

			// More changes, then back to the snapshot.
			if _, err := c.AddObstacle(voxel.Box(geom.V3(-1e3, -1e3, -1e3), geom.V3(1e3, 1e3, 1e3))); err != nil {
				t.Fatal(err)
			}
			if _, err := c.UpdateAll(); err != nil {
				t.Fatal(err)
			}
			if err := c.Restore(snap); err != nil {
				t.Fatal(err)
			}
			if got := snapBytes(t, c); !bytes.Equal(got, snap) {
				t.Errorf("snapshot after restore differs")
			}
			if got := meshBytes(t, c.Mesh()); !bytes.Equal(got, mesh) {
				t.Errorf("mesh after restore differs")
			}
			for _, ref := range refs {
				if !c.Mesh().IsValidRef(ref.Poly(0)) {
					t.Errorf("reference %#x invalid after restore", ref)
				}
			}
			if !slices.Equal(c.Queue(), queue) {
				t.Errorf("queue %v, want %v", c.Queue(), queue)
			}
			// The restore forgot the last-built areas: the queued tiles
			// are not "unchanged".
			r, err := c.UpdateAll()
			if err != nil {
				t.Fatal(err)
			}
			for _, u := range r.Tiles {
				if u.Rebuild == RebuildUnchanged {
					t.Errorf("tile (%d, %d) rebuilt as unchanged right after a restore", u.TX, u.TZ)
				}
			}
			if err := sameTiles(meshTiles(t, c.Mesh()), wantTiles); err != nil {
				t.Errorf("finishing after the restore: %v", err)
			}
			if got := meshBytes(t, c.Mesh()); !bytes.Equal(got, want) {
				t.Errorf("finishing after the restore gives other mesh bytes")
			}
		})
	}
}

// reseal replaces the checksum of a snapshot body b (without checksum).
func reseal(b []byte) []byte {
	return binary.LittleEndian.AppendUint64(append([]byte(nil), b...), xxhash.Sum64(b))
}

// TestRestoreRejects: truncated, bit-flipped, foreign and crafted bad
// snapshots are errors and leave the cache exactly as it was (its snapshot
// and mesh bytes compared before and after).
func TestRestoreRejects(t *testing.T) {
	f := getFixture(t, config{"dungeon", pipeline.Watershed, false})
	c := busy(t, f)
	snap := snapBytes(t, c)
	// A different state to restore into, so a wrong success would show.
	if _, err := c.UpdateAll(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AddObstacle(voxel.Cylinder(geom.V3(1, 1, 1), 1, 1)); err != nil {
		t.Fatal(err)
	}
	beforeSnap, beforeMesh := snapBytes(t, c), meshBytes(t, c.Mesh())
	unchanged := func(what string) {
		t.Helper()
		if !bytes.Equal(beforeSnap, snapBytes(t, c)) || !bytes.Equal(beforeMesh, meshBytes(t, c.Mesh())) {
			t.Fatalf("%s: a failed restore changed the cache", what)
		}
	}
	reject := func(what string, data []byte, want string) {
		t.Helper()
		err := c.Restore(data)
		if err == nil {
			t.Fatalf("%s: accepted", what)
		}
		if want != "" && !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %q, want it to mention %q", what, err, want)
		}
		unchanged(what)
	}
	for n := 0; n < len(snap); n++ {
		reject("truncated", snap[:n], "")
	}
	for i := 0; i < len(snap); i++ {
		for bit := 0; bit < 8; bit++ {
			d := append([]byte(nil), snap...)
			d[i] ^= 1 << bit
			reject("bit flip", d, "")
		}
	}
	reject("trailing byte", append(append([]byte(nil), snap...), 0), "checksum")

	// Foreign snapshots: another level, other settings.
	other := getFixture(t, config{"dungeon", pipeline.Monotone, false})
	reject("other settings", snapBytes(t, other.reset(t)), "fingerprint")
	city := getFixture(t, config{"city", pipeline.Watershed, false})
	reject("other level", snapBytes(t, city.reset(t)), "fingerprint")

	// Crafted snapshots with a valid checksum: each breaks one rule.
	body := snap[:len(snap)-checksumSize]
	le := binary.LittleEndian
	mod := func(f func(b []byte) []byte) []byte { return reseal(f(append([]byte(nil), body...))) }
	reject("magic", mod(func(b []byte) []byte { b[0] = 'X'; return b }), "magic")
	reject("version", mod(func(b []byte) []byte { le.PutUint16(b[4:], SnapshotVersion+1); return b }), "version")
	reject("reserved", mod(func(b []byte) []byte { le.PutUint16(b[6:], 1); return b }), "reserved")
	reject("trailing field", mod(func(b []byte) []byte { return append(b, 0) }), "after the last field")

	// Re-encode from parts to break the inner rules.
	type parts struct {
		nextO, nextV uint32
		obs          [][]byte // id, shape, floats
		vols         [][]byte
		queue        [][2]int32
		state        []byte
		data         [][]byte
	}
	var p parts
	{
		r := &snapReader{data: body, off: 16}
		p.nextO, p.nextV = r.u32(""), r.u32("")
		for i := r.count("", 1); i > 0; i-- {
			s0 := r.off
			r.u32("")
			k := obstacleFloatCount(voxel.ObstacleShape(r.u8("")))
			r.take(4*k, "")
			p.obs = append(p.obs, body[s0:r.off])
		}
		for i := r.count("", 1); i > 0; i-- {
			s0 := r.off
			r.u32("")
			r.u8("")
			r.take(8, "")
			r.take(8*r.count("", 1), "")
			p.vols = append(p.vols, body[s0:r.off])
		}
		for i := r.count("", 1); i > 0; i-- {
			p.queue = append(p.queue, [2]int32{int32(r.u32("")), int32(r.u32(""))})
		}
		p.state = r.take(r.count("", 1), "")
		for i := r.count("", 1); i > 0; i-- {
			p.data = append(p.data, r.take(r.count("", 1), ""))
		}
		if r.err != nil || r.off != len(body) {
			t.Fatalf("re-reading the snapshot: %v at %d of %d", r.err, r.off, len(body))
		}
	}
	encode := func(p parts) []byte {
		b := append([]byte(nil), body[:16]...)
		b = le.AppendUint32(b, p.nextO)
		b = le.AppendUint32(b, p.nextV)
		b = le.AppendUint32(b, uint32(len(p.obs)))
		for _, o := range p.obs {
			b = append(b, o...)
		}
		b = le.AppendUint32(b, uint32(len(p.vols)))
		for _, v := range p.vols {
			b = append(b, v...)
		}
		b = le.AppendUint32(b, uint32(len(p.queue)))
		for _, q := range p.queue {
			b = le.AppendUint32(le.AppendUint32(b, uint32(q[0])), uint32(q[1]))
		}
		b = le.AppendUint32(b, uint32(len(p.state)))
		b = append(b, p.state...)
		b = le.AppendUint32(b, uint32(len(p.data)))
		for _, d := range p.data {
			b = le.AppendUint32(b, uint32(len(d)))
			b = append(b, d...)
		}
		return reseal(b)
	}
	if got := encode(p); !bytes.Equal(got, snap) {
		t.Fatal("re-encoding the parts does not give the snapshot")
	}
	if len(p.obs) < 2 || len(p.vols) < 2 || len(p.queue) < 2 || len(p.data) < 1 {
		t.Fatalf("busy state too small: %d obstacles, %d volumes, %d queued, %d tile data", len(p.obs), len(p.vols), len(p.queue), len(p.data))
	}
	with := func(f func(q *parts)) []byte {
		q := p
		q.obs = append([][]byte(nil), p.obs...)
		q.vols = append([][]byte(nil), p.vols...)
		q.queue = append([][2]int32(nil), p.queue...)
		q.data = append([][]byte(nil), p.data...)
		f(&q)
		return encode(q)
	}
	setF32 := func(rec []byte, off int, v float32) []byte {
		r := append([]byte(nil), rec...)
		le.PutUint32(r[off:], math.Float32bits(v))
		return r
	}
	reject("obstacle NaN", with(func(q *parts) { q.obs[0] = setF32(q.obs[0], 5, float32(math.NaN())) }), "obstacle 0")
	reject("obstacle shape", with(func(q *parts) { q.obs[0] = append([]byte(nil), q.obs[0]...); q.obs[0][4] = 9 }), "shape 9")
	reject("obstacle ids out of order", with(func(q *parts) { q.obs[0], q.obs[1] = q.obs[1], q.obs[0] }), "not above the previous id")
	reject("obstacle id 0", with(func(q *parts) { q.obs[0] = append([]byte(nil), q.obs[0]...); le.PutUint32(q.obs[0], 0) }), "id 0")
	reject("obstacle id at next", with(func(q *parts) { q.nextO = 2 }), "below the next id")
	reject("volume id at next", with(func(q *parts) { q.nextV = 1 }), "below the next id")
	reject("volume area", with(func(q *parts) { q.vols[0] = append([]byte(nil), q.vols[0]...); q.vols[0][4] = 64 }), "volume 0")
	reject("volume y range", with(func(q *parts) { q.vols[1] = setF32(q.vols[1], 5, 1e6) }), "volume 1")
	reject("volume corners", with(func(q *parts) {
		v := append([]byte(nil), q.vols[0]...)
		le.PutUint32(v[13:], 2)
		q.vols[0] = v[:len(v)-8*(int(le.Uint32(q.vols[0][13:]))-2)]
	}), "2 corners")
	reject("queue duplicate", with(func(q *parts) { q.queue = append(q.queue, q.queue[0]) }), "repeats")
	reject("queue foreign tile", with(func(q *parts) { q.queue[0] = [2]int32{1000, 0} }), "not a cached tile")
	reject("queue negative tile", with(func(q *parts) { q.queue[0] = [2]int32{-1, 0} }), "not a cached tile")
	reject("missing tile data", with(func(q *parts) { q.data = q.data[1:] }), "needs")
	reject("wrong tile data", with(func(q *parts) {
		d := append([]byte(nil), q.data[0]...)
		d[len(d)-1] ^= 1
		q.data[0] = d
	}), "content id")
	reject("state garbage", with(func(q *parts) { q.state = []byte("NVDS") }), "mesh state")
	// A mesh state naming a tile data nobody has: take the state of a
	// mesh with one tile's content changed.
	{
		var st navmesh.State
		if err := st.UnmarshalBinary(p.state); err != nil {
			t.Fatal(err)
		}
		st.Tiles[0].ContentID ^= 1
		sb, err := st.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		reject("unknown content", with(func(q *parts) { q.state = sb; q.data = nil }), "")
		st.Tiles[0].ContentID ^= 1
		st.Tiles[len(st.Tiles)-1].X += 100 // still in (z, x, layer) order
		if sb, err = st.MarshalBinary(); err != nil {
			t.Fatal(err)
		}
		reject("state tile off the cache", with(func(q *parts) { q.state = sb }), "not at a cached tile")
	}
	// Huge counts must not allocate: every count is bounded by the bytes
	// left.
	for _, off := range []int{24} {
		d := append([]byte(nil), body...)
		le.PutUint32(d[off:], math.MaxUint32)
		reject("huge count", reseal(d), "more than")
	}
	// And the real one still restores.
	if err := c.Restore(snap); err != nil {
		t.Fatalf("the good snapshot: %v", err)
	}
	if !bytes.Equal(snapBytes(t, c), snap) {
		t.Errorf("restored state differs")
	}
}

// fuzzCache is a small cache for FuzzRestore: a floor with a few boxes, 2 x
// 2 tiles, and the snapshots that seed the corpus.
var fuzzCache struct {
	once  sync.Once
	c     *Cache
	seeds [][]byte
	err   error
}

func fuzzFixture(tb testing.TB) *Cache {
	fc := &fuzzCache
	fc.once.Do(func() {
		var soup level.Soup
		quad := func(x0, z0, x1, z1, y float32) {
			n := int32(len(soup.Verts))
			soup.Verts = append(soup.Verts, geom.V3(x0, y, z0), geom.V3(x0, y, z1), geom.V3(x1, y, z1), geom.V3(x1, y, z0))
			soup.Tris = append(soup.Tris, [3]int32{n, n + 1, n + 2}, [3]int32{n, n + 2, n + 3})
			soup.Areas = append(soup.Areas, voxel.AreaWalkable, voxel.AreaWalkable)
		}
		quad(0, 0, 20, 20, 0)
		quad(4, 4, 8, 8, 1.2)
		quad(12, 3, 15, 9, 3)
		s := pipeline.DefaultSettings()
		s.TileSizeCells = 40
		c, err := BuildSoup(context.Background(), &s, &soup, Options{Workers: 1})
		if err != nil {
			fc.err = err
			return
		}
		snap := func() {
			b, err := c.Snapshot()
			if err != nil {
				fc.err = err
			}
			fc.seeds = append(fc.seeds, b)
		}
		snap()
		c.AddObstacle(voxel.Cylinder(geom.V3(10, -1, 10), 1, 3))
		c.AddObstacle(voxel.OrientedBox(geom.V3(5, 0, 15), geom.V3(2, 1, 0.5), 0.4))
		c.AddVolume(square(14, 14, 2, -1, 1, 5))
		snap()
		c.Update(2)
		c.AddObstacle(voxel.Box(geom.V3(1, -1, 1), geom.V3(3, 1, 3)))
		c.RemoveObstacle(1)
		snap()
		c.UpdateAll()
		snap()
		// Off-mesh links (snapshot version 2): queued, then in the mesh,
		// then one of them removed.
		c.AddOffMeshLink(navmesh.OffMeshLink{StartM: geom.V3(2, 0, 2), EndM: geom.V3(6, 1.2, 6), RadiusM: 0.5, Area: 3, Bidirectional: true})
		c.AddOffMeshLink(navmesh.OffMeshLink{StartM: geom.V3(6, 1.2, 5), EndM: geom.V3(13.5, 3, 5), RadiusM: 0.5, Flags: 2})
		snap()
		c.UpdateAll()
		snap()
		c.RemoveOffMeshLink(1)
		c.UpdateAll()
		snap()
		fc.c = c
	})
	if fc.err != nil {
		tb.Fatal(fc.err)
	}
	return fc.c
}

// FuzzRestore: Restore never panics on any input; when it accepts the
// input, the cache's snapshot is that input again (the format has one
// encoding per state); when it rejects it, the cache is unchanged. Each
// input is tried as it is and with its last 8 bytes replaced by the
// checksum of the rest, so that the fuzzer also reaches the checks behind
// the checksum.
func FuzzRestore(f *testing.F) {
	c := fuzzFixture(f)
	for _, s := range fuzzCache.seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		try := func(d []byte) {
			before, err := c.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			mesh := meshBytes(t, c.Mesh())
			if err := c.Restore(d); err != nil {
				if !bytes.Equal(before, snapBytes(t, c)) || !bytes.Equal(mesh, meshBytes(t, c.Mesh())) {
					t.Fatalf("failed restore (%v) changed the cache", err)
				}
				return
			}
			if got := snapBytes(t, c); !bytes.Equal(got, d) {
				t.Fatalf("accepted a snapshot that is not the canonical encoding of its state")
			}
			// The restored state works.
			if _, err := c.UpdateAll(); err != nil {
				t.Fatalf("UpdateAll after restore: %v", err)
			}
		}
		try(data)
		if len(data) >= checksumSize {
			try(reseal(data[:len(data)-checksumSize]))
		}
	})
}
