package session

import (
	"errors"
	"fmt"
	"slices"

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
type handle[ID comparable] struct{ Id ID }

// The handles of the three kinds of edits.
type (
	ObstacleHandle = handle[tilecache.ObstacleID]
	VolumeHandle   = handle[tilecache.VolumeID]
	offMeshHandle  = handle[tilecache.OffMeshLinkID]
)

// handleOf returns the handle of id in m (made on first need).
func handleOf[ID comparable](m map[ID]*handle[ID], id ID) *handle[ID] {
	if h, ok := m[id]; ok {
		return h
	}
	h := &handle[ID]{Id: id}
	m[id] = h
	return h
}

// cacheEditor applies commands to a cache and keeps the handles of the
// obstacles and volumes in force by id, so that a tool acting on id n
// finds the handle older commands hold.
type cacheEditor struct {
	c    cacheOps
	obs  map[tilecache.ObstacleID]*ObstacleHandle
	vols map[tilecache.VolumeID]*VolumeHandle
	// links follow the off-mesh links (offmesh.go).
	links map[tilecache.OffMeshLinkID]*offMeshHandle
	// log, when set, records every change that reached the cache (the
	// tools, undo and redo alike) in the session history, which feeds
	// "Save session as scenario" (history_core.go).
	log func(Step)
}

// NewCacheEditor returns an editor of c (nil: every operation fails).
func NewCacheEditor(c cacheOps) *cacheEditor {
	return &cacheEditor{c: c, obs: map[tilecache.ObstacleID]*ObstacleHandle{}, vols: map[tilecache.VolumeID]*VolumeHandle{},
		links: map[tilecache.OffMeshLinkID]*offMeshHandle{}}
}

// ErrNoCache is returned by the editor when there is no cache.
var ErrNoCache = errors.New("ui: no tile cache: build the cache first")

// Obstacle returns the handle of Obstacle id (made on first need).
func (e *cacheEditor) Obstacle(id tilecache.ObstacleID) *ObstacleHandle { return handleOf(e.obs, id) }

// Volume returns the handle of Volume id (made on first need).
func (e *cacheEditor) Volume(id tilecache.VolumeID) *VolumeHandle { return handleOf(e.vols, id) }

// AddObstacle adds o and points h at its new id.
func (e *cacheEditor) AddObstacle(h *ObstacleHandle, o voxel.Obstacle) error {
	if e.c == nil {
		return ErrNoCache
	}
	id, err := e.c.AddObstacle(o)
	if err != nil {
		return err
	}
	h.Id = id
	e.obs[id] = h
	e.record(Step{Kind: StepAddObstacle, Edit: Edit{Obstacle: o, ObstacleID: id}})
	return nil
}

// removeObstacle removes h's obstacle; h then holds id 0.
func (e *cacheEditor) removeObstacle(h *ObstacleHandle) error {
	if e.c == nil {
		return ErrNoCache
	}
	if h.Id == 0 {
		return fmt.Errorf("ui: the obstacle is not in the cache")
	}
	if err := e.c.RemoveObstacle(h.Id); err != nil {
		return err
	}
	e.record(Step{Kind: StepRemoveObstacle, Edit: Edit{ObstacleID: h.Id}})
	delete(e.obs, h.Id)
	h.Id = 0
	return nil
}

// addVolume adds v and points h at its new id.
func (e *cacheEditor) addVolume(h *VolumeHandle, v voxel.ConvexVolume) error {
	if e.c == nil {
		return ErrNoCache
	}
	id, err := e.c.AddVolume(v)
	if err != nil {
		return err
	}
	h.Id = id
	e.vols[id] = h
	e.record(Step{Kind: StepAddVolume, Edit: Edit{Volume: voxel.ConvexVolume{VertsXZ: slices.Clone(v.VertsXZ), MinYM: v.MinYM, MaxYM: v.MaxYM, Area: v.Area}, VolumeID: id}})
	return nil
}

// removeVolume removes h's volume; h then holds id 0.
func (e *cacheEditor) removeVolume(h *VolumeHandle) error {
	if e.c == nil {
		return ErrNoCache
	}
	if h.Id == 0 {
		return fmt.Errorf("ui: the volume is not in the cache")
	}
	if err := e.c.RemoveVolume(h.Id); err != nil {
		return err
	}
	e.record(Step{Kind: StepRemoveVolume, Edit: Edit{VolumeID: h.Id}})
	delete(e.vols, h.Id)
	h.Id = 0
	return nil
}

// record logs st (see log).
func (e *cacheEditor) record(st Step) {
	if e.log != nil {
		e.log(st)
	}
}

// ReplaceObstacle removes h's obstacle and adds to in its place (a new id),
// one step of the history. to is validated first; should the add still
// fail, from is added back (under another new id) and the error returned.
func (e *cacheEditor) ReplaceObstacle(h *ObstacleHandle, from, to voxel.Obstacle) error {
	if err := to.Validate(); err != nil {
		return fmt.Errorf("ui: %w", err)
	}
	log := e.log
	e.log = nil // the parts are logged as one step
	defer func() { e.log = log }()
	old := h.Id
	if err := e.removeObstacle(h); err != nil {
		return err
	}
	added := to
	err := e.AddObstacle(h, to)
	if err != nil {
		added = from
		if err2 := e.AddObstacle(h, from); err2 != nil {
			e.log = log
			e.record(Step{Kind: StepRemoveObstacle, Edit: Edit{ObstacleID: old}})
			return errors.Join(err, err2)
		}
	}
	e.log = log
	e.record(Step{Kind: StepReplaceObstacle, Edit: Edit{RemovedObstacle: old, ObstacleID: h.Id, Obstacle: added}})
	return err
}

// command is one undoable change of the cache.
type command interface {
	// do applies the change (again, for a redo).
	do(e *cacheEditor) error
	// undo reverts it.
	undo(e *cacheEditor) error
	// String names it for the status line, after it was done or undone:
	// the id it gives is the one its obstacle, volume or link has in the
	// cache now (the id the lists show), and there is none when the
	// thing is not in the cache, e.g. "add cylinder #3", "add cylinder"
	// after its undo, "move cylinder (now #4)".
	String() string
}

// nowID writes the id h holds for a command's name: "" when its thing is
// not in the cache, else prefix and the id (" #3", " (now #4)").
func nowID[ID ~uint32](prefix, mark string, h *handle[ID]) string {
	if h.Id == 0 {
		return ""
	}
	if prefix == "" {
		return fmt.Sprintf(" %s%d", mark, h.Id)
	}
	return fmt.Sprintf(" (%s %s%d)", prefix, mark, h.Id)
}

// AddObstacleCmd adds an obstacle; undo removes it.
type AddObstacleCmd struct {
	H *ObstacleHandle
	O voxel.Obstacle
}

func (c *AddObstacleCmd) do(e *cacheEditor) error   { return e.AddObstacle(c.H, c.O) }
func (c *AddObstacleCmd) undo(e *cacheEditor) error { return e.removeObstacle(c.H) }
func (c *AddObstacleCmd) String() string {
	return fmt.Sprintf("add %s", c.O.Shape) + nowID("", "#", c.H)
}

// RemoveObstacleCmd removes an obstacle; undo adds the same shape again
// (under a new id).
type RemoveObstacleCmd struct {
	H *ObstacleHandle
	o voxel.Obstacle
}

func (c *RemoveObstacleCmd) do(e *cacheEditor) error   { return e.removeObstacle(c.H) }
func (c *RemoveObstacleCmd) undo(e *cacheEditor) error { return e.AddObstacle(c.H, c.o) }
func (c *RemoveObstacleCmd) String() string {
	return fmt.Sprintf("remove %s", c.o.Shape) + nowID("now", "#", c.H)
}

// ReplaceObstacleCmd replaces an obstacle by another shape (a move, a
// turn, a resize: remove + add); undo puts the old shape back.
type ReplaceObstacleCmd struct {
	h        *ObstacleHandle
	from, to voxel.Obstacle
	// what is "move", "rotate" or "resize"; consecutive rotations of
	// one obstacle merge into one command.
	what string
}

func (c *ReplaceObstacleCmd) do(e *cacheEditor) error   { return e.ReplaceObstacle(c.h, c.from, c.to) }
func (c *ReplaceObstacleCmd) undo(e *cacheEditor) error { return e.ReplaceObstacle(c.h, c.to, c.from) }
func (c *ReplaceObstacleCmd) String() string {
	return fmt.Sprintf("%s %s", c.what, c.from.Shape) + nowID("now", "#", c.h)
}

// AddVolumeCmd adds a volume; undo removes it.
type AddVolumeCmd struct {
	H *VolumeHandle
	v voxel.ConvexVolume
}

func (c *AddVolumeCmd) do(e *cacheEditor) error   { return e.addVolume(c.H, c.v) }
func (c *AddVolumeCmd) undo(e *cacheEditor) error { return e.removeVolume(c.H) }
func (c *AddVolumeCmd) String() string {
	return fmt.Sprintf("add volume%s (area %d)", nowID("", "#", c.H), c.v.Area)
}

// RemoveVolumeCmd removes a volume; undo adds it again (under a new id,
// last in the order of volumes).
type RemoveVolumeCmd struct {
	h *VolumeHandle
	v voxel.ConvexVolume
}

func (c *RemoveVolumeCmd) do(e *cacheEditor) error   { return e.removeVolume(c.h) }
func (c *RemoveVolumeCmd) undo(e *cacheEditor) error { return e.addVolume(c.h, c.v) }
func (c *RemoveVolumeCmd) String() string {
	return fmt.Sprintf("remove volume (area %d)", c.v.Area) + nowID("now", "#", c.h)
}

// maxUndo is how many commands the stack keeps (the oldest are dropped).
const maxUndo = 500

// UndoStack is the command history: done holds the applied commands,
// oldest first; undone the undone ones, most recently undone last (what
// redo applies next). A new command clears undone.
type UndoStack struct {
	Done, undone []command
}

// Run applies cmd and pushes it. A rotation of the obstacle the previous
// command rotated merges into it (one Ctrl+Z undoes the whole turn). On
// error nothing is pushed.
func (s *UndoStack) Run(e *cacheEditor, cmd command) error {
	if err := cmd.do(e); err != nil {
		return err
	}
	s.undone = nil
	if r, ok := cmd.(*ReplaceObstacleCmd); ok && r.what == "rotate" && len(s.Done) > 0 {
		if top, ok := s.Done[len(s.Done)-1].(*ReplaceObstacleCmd); ok && top.what == "rotate" && top.h == r.h {
			top.to = r.to
			return nil
		}
	}
	s.Done = append(s.Done, cmd)
	if len(s.Done) > maxUndo {
		s.Done = append(s.Done[:0], s.Done[len(s.Done)-maxUndo:]...)
	}
	return nil
}

// Undo reverts the last applied command and returns its name as it is
// after the Undo, so that the ids it gives are the ones the lists show (ok
// false when there is none). On error the stack is unchanged and the name
// is as before.
func (s *UndoStack) Undo(e *cacheEditor) (name string, ok bool, err error) {
	if len(s.Done) == 0 {
		return "", false, nil
	}
	cmd := s.Done[len(s.Done)-1]
	if err := cmd.undo(e); err != nil {
		return cmd.String(), true, err
	}
	s.Done = s.Done[:len(s.Done)-1]
	s.undone = append(s.undone, cmd)
	return cmd.String(), true, nil
}

// Redo applies the last undone command again and returns its name as it
// is after the Redo (ok false when there is none). On error the stack is
// unchanged.
func (s *UndoStack) Redo(e *cacheEditor) (name string, ok bool, err error) {
	if len(s.undone) == 0 {
		return "", false, nil
	}
	cmd := s.undone[len(s.undone)-1]
	if err := cmd.do(e); err != nil {
		return cmd.String(), true, err
	}
	s.undone = s.undone[:len(s.undone)-1]
	s.Done = append(s.Done, cmd)
	return cmd.String(), true, nil
}

// CanUndo and canRedo report whether there is a command to undo or redo.
func (s *UndoStack) CanUndo() bool { return len(s.Done) > 0 }
func (s *UndoStack) CanRedo() bool { return len(s.undone) > 0 }

// Clear forgets every command.
func (s *UndoStack) Clear() { s.Done, s.undone = nil, nil }
