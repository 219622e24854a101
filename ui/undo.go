package ui

import (
	"errors"
	"fmt"

	"navviz/core/voxel"
	"navviz/tilecache"
)

// Undo of the cache tools.
//
// Every change the tools make to the tile cache is a command on a stack
// (Ctrl+Z undoes the last one, Ctrl+Y or Ctrl+Shift+Z redoes it). The
// cache never reuses an id, so a command cannot name an obstacle by id: a
// move is RemoveObstacle + AddObstacle and gives the obstacle a new id, and
// undoing a removal adds the same shape again, under a new id too.
// Commands therefore hold a handle that follows one obstacle (or volume)
// through its ids: every add writes the new id into the handle. The
// stack is cleared when the cache is rebuilt or restored from a snapshot
// (its commands would name obstacles the cache no longer has).

// cacheOps is the part of tilecache.Cache the commands use (a fake in
// tests).
type cacheOps interface {
	AddObstacle(voxel.Obstacle) (tilecache.ObstacleID, error)
	RemoveObstacle(tilecache.ObstacleID) error
	AddVolume(voxel.ConvexVolume) (tilecache.VolumeID, error)
	RemoveVolume(tilecache.VolumeID) error
}

// handle follows one obstacle, volume or off-mesh link of the cache
// through remove and add (undo adds a removed one back under a new id): id
// is its current id, 0 while it is not in the cache.
type handle[ID comparable] struct{ id ID }

// The handles of the three kinds of edits.
type (
	obstacleHandle = handle[tilecache.ObstacleID]
	volumeHandle   = handle[tilecache.VolumeID]
	offMeshHandle  = handle[tilecache.OffMeshLinkID]
)

// handleOf returns the handle of id in m (made on first need).
func handleOf[ID comparable](m map[ID]*handle[ID], id ID) *handle[ID] {
	if h, ok := m[id]; ok {
		return h
	}
	h := &handle[ID]{id: id}
	m[id] = h
	return h
}

// cacheEditor applies commands to a cache and keeps the handles of the
// obstacles and volumes in force by id, so that a tool acting on id n
// finds the handle older commands hold.
type cacheEditor struct {
	c    cacheOps
	obs  map[tilecache.ObstacleID]*obstacleHandle
	vols map[tilecache.VolumeID]*volumeHandle
	// links follow the off-mesh links (offmesh.go).
	links map[tilecache.OffMeshLinkID]*offMeshHandle
	// rec, when set, records every change that reached the cache (the
	// tools, undo and redo alike) for "Save session as scenario"
	// (recorder.go).
	rec *sessionRecorder
}

// newCacheEditor returns an editor of c (nil: every operation fails).
func newCacheEditor(c cacheOps) *cacheEditor {
	return &cacheEditor{c: c, obs: map[tilecache.ObstacleID]*obstacleHandle{}, vols: map[tilecache.VolumeID]*volumeHandle{},
		links: map[tilecache.OffMeshLinkID]*offMeshHandle{}}
}

// errNoCache is returned by the editor when there is no cache.
var errNoCache = errors.New("ui: no tile cache: build the cache first")

// obstacle returns the handle of obstacle id (made on first need).
func (e *cacheEditor) obstacle(id tilecache.ObstacleID) *obstacleHandle { return handleOf(e.obs, id) }

// volume returns the handle of volume id (made on first need).
func (e *cacheEditor) volume(id tilecache.VolumeID) *volumeHandle { return handleOf(e.vols, id) }

// addObstacle adds o and points h at its new id.
func (e *cacheEditor) addObstacle(h *obstacleHandle, o voxel.Obstacle) error {
	if e.c == nil {
		return errNoCache
	}
	id, err := e.c.AddObstacle(o)
	if err != nil {
		return err
	}
	h.id = id
	e.obs[id] = h
	if e.rec != nil {
		e.rec.obstacleAdded(id, o)
	}
	return nil
}

// removeObstacle removes h's obstacle; h then holds id 0.
func (e *cacheEditor) removeObstacle(h *obstacleHandle) error {
	if e.c == nil {
		return errNoCache
	}
	if h.id == 0 {
		return fmt.Errorf("ui: the obstacle is not in the cache")
	}
	if err := e.c.RemoveObstacle(h.id); err != nil {
		return err
	}
	if e.rec != nil {
		e.rec.obstacleRemoved(h.id)
	}
	delete(e.obs, h.id)
	h.id = 0
	return nil
}

// addVolume adds v and points h at its new id.
func (e *cacheEditor) addVolume(h *volumeHandle, v voxel.ConvexVolume) error {
	if e.c == nil {
		return errNoCache
	}
	id, err := e.c.AddVolume(v)
	if err != nil {
		return err
	}
	h.id = id
	e.vols[id] = h
	if e.rec != nil {
		e.rec.volumeAdded(id, v)
	}
	return nil
}

// removeVolume removes h's volume; h then holds id 0.
func (e *cacheEditor) removeVolume(h *volumeHandle) error {
	if e.c == nil {
		return errNoCache
	}
	if h.id == 0 {
		return fmt.Errorf("ui: the volume is not in the cache")
	}
	if err := e.c.RemoveVolume(h.id); err != nil {
		return err
	}
	if e.rec != nil {
		e.rec.volumeRemoved(h.id)
	}
	delete(e.vols, h.id)
	h.id = 0
	return nil
}

// replaceObstacle removes h's obstacle and adds to in its place (a new id).
// to is validated first; should the add still fail, from is added back
// (under another new id) and the error returned.
func (e *cacheEditor) replaceObstacle(h *obstacleHandle, from, to voxel.Obstacle) error {
	if err := to.Validate(); err != nil {
		return fmt.Errorf("ui: %w", err)
	}
	if err := e.removeObstacle(h); err != nil {
		return err
	}
	if err := e.addObstacle(h, to); err != nil {
		if err2 := e.addObstacle(h, from); err2 != nil {
			return errors.Join(err, err2)
		}
		return err
	}
	return nil
}

// command is one undoable change of the cache.
type command interface {
	// do applies the change (again, for a redo).
	do(e *cacheEditor) error
	// undo reverts it.
	undo(e *cacheEditor) error
	// String names it for the status line, e.g. "add cylinder #3".
	String() string
}

// addObstacleCmd adds an obstacle; undo removes it.
type addObstacleCmd struct {
	h *obstacleHandle
	o voxel.Obstacle
}

func (c *addObstacleCmd) do(e *cacheEditor) error   { return e.addObstacle(c.h, c.o) }
func (c *addObstacleCmd) undo(e *cacheEditor) error { return e.removeObstacle(c.h) }
func (c *addObstacleCmd) String() string            { return fmt.Sprintf("add %s #%d", c.o.Shape, c.h.id) }

// removeObstacleCmd removes an obstacle; undo adds the same shape again
// (under a new id).
type removeObstacleCmd struct {
	h *obstacleHandle
	o voxel.Obstacle
}

func (c *removeObstacleCmd) do(e *cacheEditor) error   { return e.removeObstacle(c.h) }
func (c *removeObstacleCmd) undo(e *cacheEditor) error { return e.addObstacle(c.h, c.o) }
func (c *removeObstacleCmd) String() string            { return fmt.Sprintf("remove %s", c.o.Shape) }

// replaceObstacleCmd replaces an obstacle by another shape (a move, a
// turn, a resize: remove + add); undo puts the old shape back.
type replaceObstacleCmd struct {
	h        *obstacleHandle
	from, to voxel.Obstacle
	// what is "move", "rotate" or "resize"; consecutive rotations of
	// one obstacle merge into one command.
	what string
}

func (c *replaceObstacleCmd) do(e *cacheEditor) error   { return e.replaceObstacle(c.h, c.from, c.to) }
func (c *replaceObstacleCmd) undo(e *cacheEditor) error { return e.replaceObstacle(c.h, c.to, c.from) }
func (c *replaceObstacleCmd) String() string {
	return fmt.Sprintf("%s %s (now #%d)", c.what, c.from.Shape, c.h.id)
}

// addVolumeCmd adds a volume; undo removes it.
type addVolumeCmd struct {
	h *volumeHandle
	v voxel.ConvexVolume
}

func (c *addVolumeCmd) do(e *cacheEditor) error   { return e.addVolume(c.h, c.v) }
func (c *addVolumeCmd) undo(e *cacheEditor) error { return e.removeVolume(c.h) }
func (c *addVolumeCmd) String() string {
	return fmt.Sprintf("add volume #%d (area %d)", c.h.id, c.v.Area)
}

// removeVolumeCmd removes a volume; undo adds it again (under a new id,
// last in the order of volumes).
type removeVolumeCmd struct {
	h *volumeHandle
	v voxel.ConvexVolume
}

func (c *removeVolumeCmd) do(e *cacheEditor) error   { return e.removeVolume(c.h) }
func (c *removeVolumeCmd) undo(e *cacheEditor) error { return e.addVolume(c.h, c.v) }
func (c *removeVolumeCmd) String() string {
	return fmt.Sprintf("remove volume (area %d)", c.v.Area)
}

// maxUndo is how many commands the stack keeps (the oldest are dropped).
const maxUndo = 500

// undoStack is the command history: done holds the applied commands,
// oldest first; undone the undone ones, most recently undone last (what
// redo applies next). A new command clears undone.
type undoStack struct {
	done, undone []command
}

// run applies cmd and pushes it. A rotation of the obstacle the previous
// command rotated merges into it (one Ctrl+Z undoes the whole turn). On
// error nothing is pushed.
func (s *undoStack) run(e *cacheEditor, cmd command) error {
	if err := cmd.do(e); err != nil {
		return err
	}
	s.undone = nil
	if r, ok := cmd.(*replaceObstacleCmd); ok && r.what == "rotate" && len(s.done) > 0 {
		if top, ok := s.done[len(s.done)-1].(*replaceObstacleCmd); ok && top.what == "rotate" && top.h == r.h {
			top.to = r.to
			return nil
		}
	}
	s.done = append(s.done, cmd)
	if len(s.done) > maxUndo {
		s.done = append(s.done[:0], s.done[len(s.done)-maxUndo:]...)
	}
	return nil
}

// undo reverts the last applied command and returns its name as it was
// before the undo (ok false when there is none). On error the stack is
// unchanged.
func (s *undoStack) undo(e *cacheEditor) (name string, ok bool, err error) {
	if len(s.done) == 0 {
		return "", false, nil
	}
	cmd := s.done[len(s.done)-1]
	name = cmd.String()
	if err := cmd.undo(e); err != nil {
		return name, true, err
	}
	s.done = s.done[:len(s.done)-1]
	s.undone = append(s.undone, cmd)
	return name, true, nil
}

// redo applies the last undone command again and returns its name as it
// is after the redo (ok false when there is none). On error the stack is
// unchanged.
func (s *undoStack) redo(e *cacheEditor) (name string, ok bool, err error) {
	if len(s.undone) == 0 {
		return "", false, nil
	}
	cmd := s.undone[len(s.undone)-1]
	if err := cmd.do(e); err != nil {
		return cmd.String(), true, err
	}
	s.undone = s.undone[:len(s.undone)-1]
	s.done = append(s.done, cmd)
	return cmd.String(), true, nil
}

// canUndo and canRedo report whether there is a command to undo or redo.
func (s *undoStack) canUndo() bool { return len(s.done) > 0 }
func (s *undoStack) canRedo() bool { return len(s.undone) > 0 }

// clear forgets every command.
func (s *undoStack) clear() { s.done, s.undone = nil, nil }
