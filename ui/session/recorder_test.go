package session

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"navviz/core/geom"
	"navviz/core/pipeline"
	"navviz/core/voxel"
	"navviz/scenario"
)

// TestSessionRecorder: what the recorder writes for sequences of cache
// events: names by id, merged updates, snapshots as slots named after
// the file, a restore of a session snapshot by slot (its names come
// back), a foreign snapshot by file (its shapes have no names: removing
// one makes the session unsavable), nothing before start.
func TestSessionRecorder(t *testing.T) {
	cyl := voxel.Cylinder(geom.V3(1, 2, 3), 0.5, 2)
	vol := voxel.ConvexVolume{VertsXZ: [][2]float32{{0, 0}, {2, 0}, {0, 2}}, MinYM: 0, MaxYM: 3, Area: 5}
	snapA, snapB := []byte("state A"), []byte("state B")
	for _, tc := range []struct {
		name   string
		events func(r *SessionRecorder)
		want   []string
		Broken string
	}{
		{"off until started", func(r *SessionRecorder) {
			r.ObstacleAdded(1, cyl)
			r.Updated(3)
		}, nil, ""},
		{"edits and merged updates", func(r *SessionRecorder) {
			r.Start("terrain", pipeline.DefaultSettings())
			r.ObstacleAdded(1, cyl)
			r.Updated(1)
			r.Updated(2)
			r.VolumeAdded(1, vol)
			r.ObstacleRemoved(1)
			r.ObstacleAdded(2, cyl)
			r.Updated(4)
			r.VolumeRemoved(1)
		}, []string{"obstacle obstacle-1", "update 3", "volume volume-1", "remove_obstacle obstacle-1", "obstacle obstacle-2", "update 4", "remove_volume volume-1"}, ""},
		{"restore of a session snapshot", func(r *SessionRecorder) {
			r.Start("terrain", pipeline.DefaultSettings())
			r.ObstacleAdded(1, cyl)
			r.SnapshotTaken("/tmp/x/my state.nvtc", snapA)
			r.ObstacleRemoved(1)
			r.SnapshotTaken("/tmp/y/my state.nvtc", snapB)
			r.Restored("/tmp/x/my state.nvtc", snapA)
			r.ObstacleRemoved(1) // named again by the restore
			r.Restored("/elsewhere/copy.nvtc", snapB)
		}, []string{"obstacle obstacle-1", "snapshot slot my_state.nvtc", "remove_obstacle obstacle-1", "snapshot slot my_state.nvtc-2",
			"restore slot my_state.nvtc", "remove_obstacle obstacle-1", "restore slot my_state.nvtc-2"}, ""},
		{"foreign snapshot", func(r *SessionRecorder) {
			r.Start("terrain", pipeline.DefaultSettings())
			r.Restored("/data/old.nvtc", []byte("foreign"))
			r.ObstacleRemoved(7)
		}, []string{"restore file /data/old.nvtc"}, "obstacle #7"},
		{"restart forgets", func(r *SessionRecorder) {
			r.Start("terrain", pipeline.DefaultSettings())
			r.ObstacleAdded(1, cyl)
			r.Start("city", pipeline.DefaultSettings())
			r.VolumeAdded(3, vol)
		}, []string{"volume volume-3"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r SessionRecorder
			tc.events(&r)
			var got []string
			for i := range r.Steps {
				got = append(got, stepText(&r.Steps[i]))
			}
			if strings.Join(got, "; ") != strings.Join(tc.want, "; ") {
				t.Errorf("steps:\n got %q\nwant %q", got, tc.want)
			}
			if (tc.Broken == "") != (r.Broken == "") || !strings.Contains(r.Broken, tc.Broken) {
				t.Errorf("broken %q, want %q", r.Broken, tc.Broken)
			}
		})
	}
}

// TestSaveSessionRefused: a session that cannot be reproduced is refused
// with a reason and writes nothing: no level, build-time volumes.
func TestSaveSessionRefused(t *testing.T) {
	dir := t.TempDir()
	a := NewApp()
	if _, err := a.SaveSession(filepath.Join(dir, "a"), 320, 200); err == nil || !strings.Contains(err.Error(), "no level") {
		t.Errorf("no level: %v", err)
	}
	if err := a.Load("terrain"); err != nil {
		t.Fatal(err)
	}
	a.SetVolumes([]voxel.ConvexVolume{{VertsXZ: [][2]float32{{0, 0}, {4, 0}, {0, 4}}, MinYM: -1, MaxYM: 9, Area: 3}})
	if _, err := a.SaveSession(filepath.Join(dir, "b"), 320, 200); err == nil || !strings.Contains(a.err, "build-time volumes") {
		t.Errorf("build-time volume: %v (Err %q)", err, a.err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("refused saves wrote %d files", len(ents))
	}
	// Without a cache the view alone is saved, with "cache": false.
	a.SetVolumes(nil)
	file, err := a.SaveSession(filepath.Join(dir, "view"), 320, 200)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	if sc.CacheBuilt() || sc.Level.Builtin != "terrain" || sc.Steps[len(sc.Steps)-1].Shot == nil {
		t.Errorf("view-only scenario: cache %v, level %+v", sc.CacheBuilt(), sc.Level)
	}
}

// stepText words a recorded step for the table below.
func stepText(st *scenario.Step) string {
	switch {
	case st.Obstacle != nil:
		return "obstacle " + st.Obstacle.Name
	case st.RemoveObstacle != "":
		return "remove_obstacle " + st.RemoveObstacle
	case st.Volume != nil:
		return "volume " + st.Volume.Name
	case st.RemoveVolume != "":
		return "remove_volume " + st.RemoveVolume
	case st.Update != nil:
		return fmt.Sprintf("update %d", st.Update.Tiles)
	case st.Snapshot != nil:
		return "snapshot " + SnapshotRefText(st.Snapshot)
	case st.Restore != nil:
		return "restore " + SnapshotRefText(st.Restore)
	}
	return st.Kind()
}
