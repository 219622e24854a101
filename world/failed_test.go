package world

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"

	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/core/voxel"
	"navviz/tilecache"
)

// probe queues every cached tile of every agent (QueueTile) and updates,
// and returns the tiles that were not reported unchanged: none when every
// cache knows the areas its tiles were last built from, as it does after
// an update of them (a Restore forgets them, so each tile is then
// rebuilt).
func probe(t *testing.T, w *World) []string {
	t.Helper()
	for _, a := range w.Agents() {
		c, _ := w.Cache(a.Name)
		for _, p := range c.CachedTiles() {
			if err := c.QueueTile(p[0], p[1]); err != nil {
				t.Fatal(err)
			}
		}
	}
	res, err := w.UpdateAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i, r := range res.Agents {
		for _, u := range r.Tiles {
			if u.Rebuild != tilecache.RebuildUnchanged {
				out = append(out, fmt.Sprintf("agent %s tile (%d, %d) %v", testAgents[i].Name, u.TX, u.TZ, u.Rebuild))
			}
		}
	}
	return out
}

// settle makes w's current state the baseline of a failed call: the queue
// worked off and every tile's last build known (probe until nothing is
// rebuilt), and returns its snapshot.
func settle(t *testing.T, w *World) []byte {
	t.Helper()
	probe(t, w)
	if again := probe(t, w); len(again) > 0 {
		t.Fatalf("a second probe rebuilt %v", again)
	}
	snap, err := w.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// replacePart returns the World snapshot snap with agent i's tile cache
// snapshot passed through f (same length), the frame's checksum made
// again: a blob whose frame is valid and whose agent i part is not.
func replacePart(t *testing.T, snap []byte, i int, f func([]byte)) []byte {
	t.Helper()
	le := binary.LittleEndian
	b := bytes.Clone(snap[:len(snap)-8])
	off := len(SnapshotMagic) + 4
	for k := 0; ; k++ {
		off += 2 + int(le.Uint16(b[off:])) + 8
		n := int(le.Uint32(b[off:]))
		off += 4
		if k == i {
			f(b[off : off+n])
			return le.AppendUint64(b, xxhash.Sum64(b))
		}
		off += n
	}
}

type failCase struct {
	name, want string
	call       func() error
}

// runFailed runs each case on w, whose baseline snapshot is snap: each
// must fail with an error containing its want and leave every cache
// exactly as it was, its snapshot and what it knows of its last builds
// (probe).
func runFailed(t *testing.T, w *World, snap []byte, cases []failCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			after, err := w.Snapshot()
			if err != nil || !bytes.Equal(after, snap) {
				t.Fatalf("the failed call changed the World (err %v)", err)
			}
			if rebuilt := probe(t, w); len(rebuilt) > 0 {
				t.Fatalf("the failed call made the caches forget their last builds: %s rebuilt", strings.Join(rebuilt, ", "))
			}
		})
	}
}

// TestFailedCallsChangeNothing: every bad input is an error naming it, and
// every cache of the World stays exactly as it was: its snapshot, and the
// areas its tiles were last built from (re-queued tiles are unchanged).
// It covers obstacles, volumes, off-mesh links, snapshots, a World
// snapshot one agent's part of which is refused (the others were restored
// and rolled back before), and edits refused because a cache was edited
// alone (the first cache took the edit before).
func TestFailedCallsChangeNothing(t *testing.T) {
	w, _ := getWorld(t)
	defer getWorld(t)
	// A state whose tiles were last built with an obstacle and a link.
	if _, err := w.AddObstacle(voxel.Cylinder(groundPoint(t, w, 3).Sub(geom.V3(0, 0.5, 0)), 1, 2)); err != nil {
		t.Fatal(err)
	}
	good := navmesh.OffMeshLink{StartM: groundPoint(t, w, 2), EndM: groundPoint(t, w, 40), RadiusM: 0.5, Flags: 1}
	link, err := w.AddOffMeshLink(good)
	if err != nil {
		t.Fatal(err)
	}
	snap := settle(t, w)
	nan := float32(math.NaN())
	corrupt := bytes.Clone(snap)
	corrupt[len(corrupt)/2] ^= 0x40
	renamed := bytes.Replace(bytes.Clone(snap), []byte("large"), []byte("LARGE"), 1)
	lastPartBad := replacePart(t, snap, 1, func(b []byte) { b[len(b)/2] ^= 0x40 })
	badLink := func(f func(l *navmesh.OffMeshLink)) navmesh.OffMeshLink { l := good; f(&l); return l }
	runFailed(t, w, snap, []failCase{
		{"NaN obstacle", "NaN", func() error {
			_, err := w.AddObstacle(voxel.Cylinder(geom.V3(nan, 0, 0), 1, 1))
			return err
		}},
		{"bad volume", "volume", func() error { _, err := w.AddVolume(voxel.ConvexVolume{}); return err }},
		{"unknown obstacle", "id 99", func() error { return w.RemoveObstacle(99) }},
		{"unknown volume", "id 98", func() error { return w.RemoveVolume(98) }},
		{"NaN link", "NaN", func() error {
			_, err := w.AddOffMeshLink(badLink(func(l *navmesh.OffMeshLink) { l.EndM.Y = nan }))
			return err
		}},
		{"link start outside", "outside the tiles", func() error {
			_, err := w.AddOffMeshLink(badLink(func(l *navmesh.OffMeshLink) { l.StartM.X = -1e4 }))
			return err
		}},
		{"move unknown link", "id 97", func() error { return w.MoveOffMeshLink(97, good) }},
		{"move to a bad link", "radius", func() error {
			return w.MoveOffMeshLink(link, badLink(func(l *navmesh.OffMeshLink) { l.RadiusM = 0 }))
		}},
		{"remove unknown link", "id 96", func() error { return w.RemoveOffMeshLink(96) }},
		{"negative update", "-1", func() error { _, err := w.Update(-1); return err }},
		{"unknown agent", `"medium"`, func() error { _, err := w.Mesh("medium"); return err }},
		{"empty snapshot", "not a World snapshot", func() error { return w.Restore(nil) }},
		{"corrupt snapshot", "checksum", func() error { return w.Restore(corrupt) }},
		{"truncated snapshot", "checksum", func() error { return w.Restore(snap[:len(snap)-9]) }},
		{"other agents", "checksum", func() error { return w.Restore(renamed) }},
		{"last agent's part refused", `agent "large": tilecache: Restore`, func() error { return w.Restore(lastPartBad) }},
	})

	// The large agent's cache edited alone: it has an obstacle and a link
	// the small one has not, and lacks the shared link.
	large, _ := w.Cache(testAgents[1].Name)
	if _, err := large.AddObstacle(voxel.Cylinder(groundPoint(t, w, 7).Sub(geom.V3(0, 0.5, 0)), 1, 2)); err != nil {
		t.Fatal(err)
	}
	if _, err := large.AddOffMeshLink(good); err != nil {
		t.Fatal(err)
	}
	if err := large.RemoveOffMeshLink(link); err != nil {
		t.Fatal(err)
	}
	shared := w.Obstacles()[0].ID
	if err := large.RemoveObstacle(shared); err != nil {
		t.Fatal(err)
	}
	snap = settle(t, w)
	runFailed(t, w, snap, []failCase{
		{"add obstacle, ids differ", "edited alone", func() error {
			_, err := w.AddObstacle(voxel.Cylinder(groundPoint(t, w, 9), 1, 2))
			return err
		}},
		{"remove obstacle one cache lacks", "edited alone", func() error { return w.RemoveObstacle(shared) }},
		{"add link, ids differ", "edited alone", func() error { _, err := w.AddOffMeshLink(good); return err }},
		{"move link one cache lacks", "edited alone", func() error { return w.MoveOffMeshLink(link, good) }},
		{"remove link one cache lacks", "edited alone", func() error { return w.RemoveOffMeshLink(link) }},
	})
}
