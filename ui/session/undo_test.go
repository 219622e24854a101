package session

import (
	"fmt"
	"testing"

	"navviz/core/geom"
	"navviz/core/voxel"
	"navviz/tilecache"
)

// fakeCache is a cacheOps that records what is in force, numbering ids as
// the tile cache does (from 1, never reused); failAdd makes AddObstacle
// fail.
type fakeCache struct {
	obs     map[tilecache.ObstacleID]voxel.Obstacle
	vols    map[tilecache.VolumeID]voxel.ConvexVolume
	nextO   tilecache.ObstacleID
	nextV   tilecache.VolumeID
	failAdd bool
}

func newFakeCache() *fakeCache {
	return &fakeCache{obs: map[tilecache.ObstacleID]voxel.Obstacle{}, vols: map[tilecache.VolumeID]voxel.ConvexVolume{}, nextO: 1, nextV: 1}
}

func (f *fakeCache) AddObstacle(o voxel.Obstacle) (tilecache.ObstacleID, error) {
	if f.failAdd {
		return 0, fmt.Errorf("fake: add fails")
	}
	id := f.nextO
	f.nextO++
	f.obs[id] = o
	return id, nil
}

func (f *fakeCache) RemoveObstacle(id tilecache.ObstacleID) error {
	if _, ok := f.obs[id]; !ok {
		return fmt.Errorf("fake: no obstacle %d", id)
	}
	delete(f.obs, id)
	return nil
}

func (f *fakeCache) AddVolume(v voxel.ConvexVolume) (tilecache.VolumeID, error) {
	id := f.nextV
	f.nextV++
	f.vols[id] = v
	return id, nil
}

func (f *fakeCache) RemoveVolume(id tilecache.VolumeID) error {
	if _, ok := f.vols[id]; !ok {
		return fmt.Errorf("fake: no volume %d", id)
	}
	delete(f.vols, id)
	return nil
}

// TestUndoStack checks the command stack on a fake cache: handles follow
// obstacles through new ids, undo of a removal adds the same shape under
// a new id, rotations merge, failures push nothing, redo replays.
func TestUndoStack(t *testing.T) {
	f := newFakeCache()
	e := NewCacheEditor(f)
	var s UndoStack
	a := voxel.Cylinder(geom.V3(0, 0, 0), 1, 2)
	b := voxel.Cylinder(geom.V3(5, 0, 0), 1, 2)

	add := &AddObstacleCmd{H: &ObstacleHandle{}, O: a}
	if err := s.Run(e, add); err != nil || add.H.Id != 1 || len(f.obs) != 1 {
		t.Fatalf("add: err %v, id %d, %d obstacles", err, add.H.Id, len(f.obs))
	}
	// A move through the handle the editor finds by id.
	h := e.Obstacle(1)
	if h != add.H {
		t.Fatal("the editor did not return the add command's handle for id 1")
	}
	if err := s.Run(e, &ReplaceObstacleCmd{h: h, from: a, to: b, what: "move"}); err != nil {
		t.Fatal(err)
	}
	if h.Id != 2 || f.obs[2] != b || len(f.obs) != 1 {
		t.Fatalf("after the move: id %d, obstacles %v", h.Id, f.obs)
	}
	// Two rotations of one obstacle are one command.
	c1, c2 := Rotated(voxel.OrientedBox(geom.V3(0, 0, 0), geom.V3(1, 1, 1), 0), 15), Rotated(voxel.OrientedBox(geom.V3(0, 0, 0), geom.V3(1, 1, 1), 0), 30)
	ob := &AddObstacleCmd{H: &ObstacleHandle{}, O: voxel.OrientedBox(geom.V3(0, 0, 0), geom.V3(1, 1, 1), 0)}
	if err := s.Run(e, ob); err != nil {
		t.Fatal(err)
	}
	if err := s.Run(e, &ReplaceObstacleCmd{h: ob.H, from: ob.O, to: c1, what: "rotate"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Run(e, &ReplaceObstacleCmd{h: ob.H, from: c1, to: c2, what: "rotate"}); err != nil {
		t.Fatal(err)
	}
	if len(s.Done) != 4 || f.obs[ob.H.Id] != c2 {
		t.Fatalf("%d commands after two rotations (want 4), obstacle %v", len(s.Done), f.obs[ob.H.Id])
	}
	// Undo the turn in one step: back to yaw 0.
	if _, ok, err := s.Undo(e); !ok || err != nil || f.obs[ob.H.Id] != ob.O {
		t.Fatalf("undo rotate: ok %v err %v, obstacle %v", ok, err, f.obs[ob.H.Id])
	}
	// Remove the moved cylinder, then undo: the same shape, a new id.
	rm := &RemoveObstacleCmd{H: e.Obstacle(2), o: b}
	if err := s.Run(e, rm); err != nil || len(f.obs) != 1 {
		t.Fatalf("remove: %v, %d obstacles", err, len(f.obs))
	}
	if s.CanRedo() {
		t.Error("a new command left the redo list")
	}
	if _, _, err := s.Undo(e); err != nil {
		t.Fatal(err)
	}
	if rm.H.Id <= 5 || f.obs[rm.H.Id] != b {
		t.Fatalf("undo of the removal: id %d (ids are never reused), shape %v", rm.H.Id, f.obs[rm.H.Id])
	}
	// Undo everything: nothing left; the move's handle followed the id.
	for s.CanUndo() {
		if _, _, err := s.Undo(e); err != nil {
			t.Fatal(err)
		}
	}
	if len(f.obs) != 0 || add.H.Id != 0 {
		t.Fatalf("after undoing everything: %v, handle id %d", f.obs, add.H.Id)
	}
	if _, ok, _ := s.Undo(e); ok {
		t.Error("undo on an empty stack did something")
	}
	// Redo everything: the oriented box at yaw 0, the cylinder at b.
	for s.CanRedo() {
		if _, _, err := s.Redo(e); err != nil {
			t.Fatal(err)
		}
	}
	// The redo list held add, move, add box and the removal (the undone
	// rotation was dropped when the removal ran): the box alone is left.
	if len(f.obs) != 1 || f.obs[ob.H.Id] != ob.O {
		t.Errorf("after redo: %v, want the box at yaw 0 alone", f.obs)
	}
	// A failing command pushes nothing and changes nothing.
	n := len(s.Done)
	f.failAdd = true
	if err := s.Run(e, &AddObstacleCmd{H: &ObstacleHandle{}, O: a}); err == nil || len(s.Done) != n {
		t.Errorf("a failing add: err %v, %d commands (was %d)", err, len(s.Done), n)
	}
	// A failing replace reports the error and pushes nothing (here the
	// add back fails too, so the obstacle is gone and both errors are
	// joined).
	f.failAdd = true
	if err := s.Run(e, &ReplaceObstacleCmd{h: ob.H, from: ob.O, to: c1, what: "move"}); err == nil || len(f.obs) != 0 || len(s.Done) != n || ob.H.Id != 0 {
		t.Errorf("a failing replace: err %v, obstacles %v, %d commands (was %d)", err, f.obs, len(s.Done), n)
	}
	f.failAdd = false
	// An invalid target is refused before anything is removed.
	cnt := len(f.obs)
	if err := e.ReplaceObstacle(e.Obstacle(999), a, voxel.Cylinder(geom.V3(0, 0, 0), -1, 1)); err == nil || len(f.obs) != cnt {
		t.Errorf("invalid replace: err %v, %d obstacles (was %d)", err, len(f.obs), cnt)
	}

	// Volumes.
	vol := voxel.ConvexVolume{VertsXZ: [][2]float32{{0, 0}, {1, 0}, {1, 1}}, MaxYM: 1, Area: 3}
	av := &AddVolumeCmd{H: &VolumeHandle{}, v: vol}
	if err := s.Run(e, av); err != nil || av.H.Id != 1 {
		t.Fatal(err, av.H.Id)
	}
	if err := s.Run(e, &RemoveVolumeCmd{h: e.Volume(1), v: vol}); err != nil || len(f.vols) != 0 {
		t.Fatal(err, f.vols)
	}
	if _, _, err := s.Undo(e); err != nil || av.H.Id != 2 || len(f.vols) != 1 {
		t.Fatalf("undo volume removal: %v, id %d", err, av.H.Id)
	}
	s.Clear()
	if s.CanUndo() || s.CanRedo() {
		t.Error("clear left commands")
	}
	// No cache: every operation fails cleanly.
	if err := NewCacheEditor(nil).AddObstacle(&ObstacleHandle{}, a); err == nil {
		t.Error("an editor without a cache added an obstacle")
	}
}

// TestUndoNamesTheIDsShown checks that the name undo and redo report gives
// the id the obstacle or volume has in the cache after the step (the id the
// lists show), and none when it left the cache.
func TestUndoNamesTheIDsShown(t *testing.T) {
	f := newFakeCache()
	e := NewCacheEditor(f)
	var s UndoStack
	a := voxel.Obstacle{Shape: voxel.ShapeCylinder, CentreM: geom.Vec3{X: 1}, RadiusM: 1, HeightM: 2}
	b := a
	b.CentreM.X = 3
	add := &AddObstacleCmd{H: e.Obstacle(0), O: a}
	steps := []struct {
		name string
		run  func() (string, error)
		want string
	}{
		{"add", func() (string, error) { return add.String(), s.Run(e, add) }, ""},
		{"move", func() (string, error) {
			return "", s.Run(e, &ReplaceObstacleCmd{h: add.H, from: a, to: b, what: "move"})
		}, ""},
		{"undo move", func() (string, error) { n, _, err := s.Undo(e); return n, err }, "move cylinder (now #3)"},
		{"redo move", func() (string, error) { n, _, err := s.Redo(e); return n, err }, "move cylinder (now #4)"},
		{"undo move again", func() (string, error) { n, _, err := s.Undo(e); return n, err }, "move cylinder (now #5)"},
		{"undo add", func() (string, error) { n, _, err := s.Undo(e); return n, err }, "add cylinder"},
		{"redo add", func() (string, error) { n, _, err := s.Redo(e); return n, err }, "add cylinder #6"},
		{"remove", func() (string, error) { return "", s.Run(e, &RemoveObstacleCmd{H: add.H, o: a}) }, ""},
		{"undo remove", func() (string, error) { n, _, err := s.Undo(e); return n, err }, "remove cylinder (now #7)"},
		{"add volume", func() (string, error) {
			return "", s.Run(e, &AddVolumeCmd{H: e.Volume(0), v: voxel.ConvexVolume{Area: 3}})
		}, ""},
		{"undo add volume", func() (string, error) { n, _, err := s.Undo(e); return n, err }, "add volume (area 3)"},
		{"redo add volume", func() (string, error) { n, _, err := s.Redo(e); return n, err }, "add volume #2 (area 3)"},
	}
	for _, st := range steps {
		name, err := st.run()
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if st.want != "" && name != st.want {
			t.Errorf("%s: named %q, want %q", st.name, name, st.want)
		}
	}
	// The ids named are the ones in the cache.
	if _, ok := f.obs[7]; !ok || len(f.obs) != 1 {
		t.Errorf("cache holds %v, want obstacle #7 alone", f.obs)
	}
}
