package session

import (
	"fmt"
	"slices"
	"time"

	"github.com/cespare/xxhash/v2"

	"navviz/core/level"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
	"navviz/core/voxel"
	"navviz/tilecache"
	"navviz/world"
)

// The session history (time travel, docs/guide.md "Time travel").
//
// History is an append-only log of values: every change that reached the
// caches is a Step — an edit as data (the values the undo commands hold,
// with the ids the cache gave), an Update with what its rebuilds did
// (UpdateRecord), a restore or saved snapshot with its bytes, a new cache
// (settings or agent sizes changed) — and the hash of every agent's mesh
// after it. Memory is bounded by keyframes: World snapshots taken every
// KeyEvery steps or once the recorded update time since the last one
// passes KeyCost, at every new cache and at every restore or saved
// snapshot (their bytes). Seek restores the nearest keyframe at or before
// a step into a World of that step's cache and replays the steps after it
// (the library is deterministic: the meshes are those the live session
// had, byte for byte; TestHistorySeek).
//
// A History is owned by the cache's owner (the worker); its steps are
// never changed once appended, and Truncate copies what it keeps, so a
// slice of them (View) may be read on the frame.

// StepKind says what a step did.
type StepKind uint8

// The step kinds.
const (
	StepNewCache StepKind = iota // a new cache (built, settings or agent sizes changed)
	StepAddObstacle
	StepRemoveObstacle
	StepReplaceObstacle // a move, turn or resize: remove + add (a new id)
	StepAddVolume
	StepRemoveVolume
	StepAddLink
	StepRemoveLink
	StepMoveLink
	StepUpdate
	StepRestore  // a snapshot restored
	StepSnapshot // a snapshot saved (the state does not change)
)

var stepKindNames = [...]string{"new cache", "add obstacle", "remove obstacle", "replace obstacle", "add volume",
	"remove volume", "add link", "remove link", "move link", "update", "restore", "snapshot"}

// String names the kind ("update", "add obstacle", ...).
func (k StepKind) String() string {
	if int(k) < len(stepKindNames) {
		return stepKindNames[k]
	}
	return fmt.Sprintf("StepKind(%d)", uint8(k))
}

// IsEdit reports whether the kind edits the obstacles, volumes or links.
func (k StepKind) IsEdit() bool { return k >= StepAddObstacle && k <= StepMoveLink }

// Edit is the data of an edit step: the shape and the id the caches gave
// it (an add, a replace's new shape, a link moved to Link), the id removed
// (a remove, the id a replace removed).
type Edit struct {
	Obstacle   voxel.Obstacle
	ObstacleID tilecache.ObstacleID
	Volume     voxel.ConvexVolume
	VolumeID   tilecache.VolumeID
	Link       navmesh.OffMeshLink
	LinkID     tilecache.OffMeshLinkID
	// RemovedObstacle is the id StepReplaceObstacle removed.
	RemovedObstacle tilecache.ObstacleID
}

// NewCacheRecord is what a StepNewCache built: a World of Level (Soup)
// with Settings (the first agent's cache's) and Agents. Carried says the
// edits in force went over into it (the agent list changed); Obstacles,
// Volumes and Links are then those it holds after the carry, with their
// new ids.
type NewCacheRecord struct {
	Level     string
	Settings  pipeline.NavSettings
	Agents    []world.Agent
	Carried   bool
	Obstacles []tilecache.Obstacle
	Volumes   []tilecache.Volume
	Links     []navmesh.OffMeshLink
	soup      *level.Soup // to build the World again (Seek into an older cache)
}

// SnapshotRecord is a restored or saved snapshot: what names it (a file
// path, or the caller's words) and its bytes (the state after the step).
type SnapshotRecord struct {
	What string
	Data []byte
	Hash uint64 // xxhash64 of Data
}

// Step is one entry of the History.
type Step struct {
	Kind StepKind
	// Edit holds an edit step's data (Kind.IsEdit).
	Edit Edit
	// NewCache, Snapshot (StepRestore, StepSnapshot) and Update hold the
	// data of the other kinds.
	NewCache *NewCacheRecord
	Snapshot *SnapshotRecord
	Update   *UpdateRecord
	// Era is the index of the StepNewCache step whose World this step
	// changed.
	Era int
	// MeshHash is the xxhash64 of every agent's mesh after the step
	// (navmesh.Mesh.MarshalBinary, in World order; the hash scenario
	// reports give). An edit changes no mesh (it queues tiles): it keeps
	// the previous step's.
	MeshHash []uint64
}

// Defaults of the keyframe spacing (History.KeyEvery, KeyCost).
const (
	DefaultKeyEvery = 32
	// DefaultKeyCostMS bounds the recorded update time, milliseconds,
	// between keyframes, so that Seek replays about that much at most.
	DefaultKeyCostMS = 40
)

// keyframe is a World snapshot of the state after step.
type keyframe struct {
	step int
	data []byte
}

// branch is the part of a History that Truncate dropped (RestoreDropped
// puts it back): the steps from at on and their keyframes.
type branch struct {
	at    int
	steps []Step
	keys  []keyframe
}

// History is the session's log of steps (see above). The zero value is
// an empty history with the default keyframe spacing.
type History struct {
	steps []Step
	keys  []keyframe
	// cursor is the step the live World is at (len-1: the head).
	cursor int
	// dropped is the branch the last Truncate dropped (nil: none).
	dropped *branch
	// KeyEvery and KeyCostMS space the keyframes (0: the defaults).
	KeyEvery, KeyCostMS int
	// sinceKey counts the steps and update milliseconds since the last
	// keyframe.
	sinceKey, costSinceKey int
	// keyBytes and stepBytes are Bytes, kept up to date.
	keyBytes, stepBytes int
	// lost says a seek failed half-way: the live World is in no step's
	// state, so the next seek restores a keyframe.
	lost bool
}

// Len returns the number of steps.
func (h *History) Len() int { return len(h.steps) }

// Cursor returns the step the live World is at (-1: no step).
func (h *History) Cursor() int {
	if len(h.steps) == 0 {
		return -1
	}
	return h.cursor
}

// AtHead reports whether the cursor is at the last step (or there is
// none): edits append there without dropping anything.
func (h *History) AtHead() bool { return len(h.steps) == 0 || h.cursor == len(h.steps)-1 }

// Step returns step i (nil out of range). It must not be changed.
func (h *History) Step(i int) *Step {
	if i < 0 || i >= len(h.steps) {
		return nil
	}
	return &h.steps[i]
}

// Steps returns the steps, oldest first: a slice the caller may keep and
// read on another goroutine (appends and Truncate never change its
// elements), not change.
func (h *History) Steps() []Step { return slices.Clip(h.steps) }

// Clear forgets every step, keyframe and dropped branch.
func (h *History) Clear() { *h = History{KeyEvery: h.KeyEvery, KeyCostMS: h.KeyCostMS} }

// keyEvery and keyCost return the keyframe spacing in force.
func (h *History) keyEvery() int { return cmpOr(h.KeyEvery, DefaultKeyEvery) }
func (h *History) keyCost() int  { return cmpOr(h.KeyCostMS, DefaultKeyCostMS) }

// cmpOr returns v, or def when v <= 0.
func cmpOr(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// Dropped returns the number of steps the last Truncate dropped that
// RestoreDropped can bring back (0: none).
func (h *History) Dropped() int {
	if h.dropped == nil {
		return 0
	}
	return len(h.dropped.steps)
}

// append adds st after the cursor, dropping the later steps first
// (Truncate: editing in the past branches) and reporting whether it did;
// w is the World after the step, for the mesh hashes and a keyframe
// when one is due (key forces one; data, when not nil, is the World's
// snapshot already at hand).
func (h *History) append(st Step, w *world.World, key bool, data []byte) (branched bool, err error) {
	if !h.AtHead() {
		h.Truncate(h.cursor + 1)
		branched = true
	}
	if st.Kind != StepNewCache && len(h.steps) > 0 {
		st.Era = h.steps[len(h.steps)-1].Era
	}
	if st.Kind == StepNewCache {
		st.Era = len(h.steps)
		key = true
	}
	if st.Kind.IsEdit() && len(h.steps) > 0 {
		st.MeshHash = h.steps[len(h.steps)-1].MeshHash
	} else {
		st.MeshHash = meshHashes(w)
	}
	h.steps = append(h.steps, st)
	h.cursor = len(h.steps) - 1
	h.stepBytes += st.bytes()
	h.sinceKey++
	if st.Update != nil {
		h.costSinceKey += int(st.Update.Wall.Milliseconds())
	}
	if key || data != nil || h.sinceKey >= h.keyEvery() || h.costSinceKey >= h.keyCost() {
		if data == nil {
			if data, err = w.Snapshot(); err != nil {
				return branched, fmt.Errorf("ui: history keyframe after step %d: %w", h.cursor, err)
			}
		}
		h.keys = append(h.keys, keyframe{step: h.cursor, data: data})
		h.keyBytes += len(data)
		h.sinceKey, h.costSinceKey = 0, 0
	}
	return branched, nil
}

// meshHashes returns the xxhash64 of every agent's mesh in w (World
// order; nil for no World).
func meshHashes(w *world.World) []uint64 {
	var out []uint64
	for _, ag := range w.Agents() {
		m, err := w.Mesh(ag.Name)
		if err != nil {
			out = append(out, 0)
			continue
		}
		data, err := m.MarshalBinary()
		if err != nil {
			out = append(out, 0)
			continue
		}
		out = append(out, xxhash.Sum64(data))
	}
	return out
}

// Truncate keeps the first n steps and drops the others (with their
// keyframes), which RestoreDropped can put back until the next Truncate.
// The cursor moves to the last step kept. Nothing changes when n is
// out of 1..Len()-1.
func (h *History) Truncate(n int) {
	if n <= 0 || n >= len(h.steps) {
		return
	}
	k := slices.IndexFunc(h.keys, func(kf keyframe) bool { return kf.step >= n })
	if k < 0 {
		k = len(h.keys)
	}
	h.dropped = &branch{at: n, steps: slices.Clone(h.steps[n:]), keys: slices.Clone(h.keys[k:])}
	// Copies: a View of the old slices may still be read.
	h.steps = slices.Clone(h.steps[:n])
	h.keys = slices.Clone(h.keys[:k])
	h.cursor = n - 1
	h.resetSinceKey()
}

// resetSinceKey recounts the steps and update time since the last
// keyframe, and the bytes held.
func (h *History) resetSinceKey() {
	h.keyBytes, h.stepBytes = 0, 0
	count := func(ss []Step, ks []keyframe) {
		for i := range ss {
			h.stepBytes += ss[i].bytes()
		}
		for _, kf := range ks {
			h.keyBytes += len(kf.data) // a snapshot step's bytes are its keyframe's
		}
	}
	count(h.steps, h.keys)
	if h.dropped != nil {
		count(h.dropped.steps, h.dropped.keys)
	}
	h.sinceKey, h.costSinceKey = 0, 0
	from := 0
	if len(h.keys) > 0 {
		from = h.keys[len(h.keys)-1].step + 1
	}
	for i := from; i < len(h.steps); i++ {
		h.sinceKey++
		if u := h.steps[i].Update; u != nil {
			h.costSinceKey += int(u.Wall.Milliseconds())
		}
	}
}

// RestoreDropped puts back the branch the last Truncate dropped (undoing
// a branch): the steps made since the branch point are dropped in turn
// (a second RestoreDropped brings them back) and the cursor moves to the
// last step. It reports false, changing nothing, when there is no
// dropped branch.
func (h *History) RestoreDropped() bool {
	d := h.dropped
	if d == nil || d.at > len(h.steps) {
		return false
	}
	k := slices.IndexFunc(h.keys, func(kf keyframe) bool { return kf.step >= d.at })
	if k < 0 {
		k = len(h.keys)
	}
	h.dropped = nil
	if d.at < len(h.steps) {
		h.dropped = &branch{at: d.at, steps: slices.Clone(h.steps[d.at:]), keys: slices.Clone(h.keys[k:])}
	}
	h.steps = append(slices.Clone(h.steps[:d.at]), d.steps...)
	h.keys = append(slices.Clone(h.keys[:k]), d.keys...)
	h.cursor = len(h.steps) - 1
	h.resetSinceKey()
	return true
}

// keyFor returns the last keyframe at or before step i (of i's era: every
// era starts with one).
func (h *History) keyFor(i int) (*keyframe, error) {
	k, _ := slices.BinarySearchFunc(h.keys, i+1, func(kf keyframe, t int) int { return kf.step - t })
	if k == 0 || h.keys[k-1].step < h.steps[i].Era {
		return nil, fmt.Errorf("ui: history: no keyframe for step %d (a bug)", i)
	}
	return &h.keys[k-1], nil
}

// ReplayCost returns how many steps Seek(i) replays after restoring its
// keyframe (-1: i is out of range).
func (h *History) ReplayCost(i int) int {
	if i < 0 || i >= len(h.steps) {
		return -1
	}
	kf, err := h.keyFor(i)
	if err != nil {
		return -1
	}
	return i - kf.step
}

// SeekInto puts w, a World of step i's era (built with its NewCache
// record's settings and agents: WorldFor), into the state after step i:
// it restores the keyframe at or before i and replays the steps after it.
// (The live session's seek forward replays from the live World's step
// instead, when that is after the keyframe.)
// The caller detaches w's traces first (a replayed Update would report
// its layers). The cursor moves to i. A replay that does not give what
// the step recorded (another id, another mesh hash) is an error naming
// the step; w is then in an unknown state and the cursor unchanged.
func (h *History) SeekInto(w *world.World, i int) error { return h.seekInto(w, i, false) }

// seekInto is SeekInto; live says w is in the state of the cursor's step
// (the live World), so that a seek forward replays from there.
func (h *History) seekInto(w *world.World, i int, live bool) error {
	if i < 0 || i >= len(h.steps) {
		return fmt.Errorf("ui: history: seek to step %d of %d", i, len(h.steps))
	}
	kf, err := h.keyFor(i)
	if err != nil {
		return err
	}
	from := kf.step
	if live && !h.lost && h.cursor < i && h.cursor >= kf.step && h.steps[h.cursor].Era == h.steps[i].Era {
		// Forward from the state w is in: no restore, and the cache
		// still knows its last builds (a restored one rebuilds every
		// layer that differs from the first build).
		from = h.cursor
	} else if err := w.Restore(kf.data); err != nil {
		return fmt.Errorf("ui: history: restore the keyframe of step %d: %w", kf.step, err)
	}
	h.lost = live
	t0 := time.Now()
	for j := from + 1; j <= i; j++ {
		if err := replayStep(w, &h.steps[j]); err != nil {
			return fmt.Errorf("ui: history: replay step %d (%s): %w", j, h.steps[j].Kind, err)
		}
	}
	if got := meshHashes(w); !slices.Equal(got, h.steps[i].MeshHash) {
		return fmt.Errorf("ui: history: step %d replayed gives the mesh hashes %x, the session had %x", i, got, h.steps[i].MeshHash)
	}
	h.cursor, h.lost = i, false
	if time.Since(t0) > time.Duration(h.keyCost())*time.Millisecond {
		// A replay costs more than the session's update times said (a
		// restored cache knows nothing of its last builds, so it builds
		// layers the session took as they were): leave a keyframe here.
		if data, err := w.Snapshot(); err == nil {
			h.insertKey(keyframe{step: i, data: data})
		}
	}
	return nil
}

// insertKey adds kf to the keyframes (in step order).
func (h *History) insertKey(kf keyframe) {
	k, found := slices.BinarySearchFunc(h.keys, kf.step, func(x keyframe, t int) int { return x.step - t })
	if found {
		return
	}
	h.keys = slices.Insert(h.keys, k, kf)
	h.resetSinceKey()
}

// replayStep applies st to w as the session did.
func replayStep(w *world.World, st *Step) error {
	e := &st.Edit
	sameID := func(what string, got, want uint32, err error) error {
		if err == nil && got != want {
			err = fmt.Errorf("the %s got id %d, the session's had %d", what, got, want)
		}
		return err
	}
	switch st.Kind {
	case StepAddObstacle:
		id, err := w.AddObstacle(e.Obstacle)
		return sameID("obstacle", uint32(id), uint32(e.ObstacleID), err)
	case StepRemoveObstacle:
		return w.RemoveObstacle(e.ObstacleID)
	case StepReplaceObstacle:
		if err := w.RemoveObstacle(e.RemovedObstacle); err != nil {
			return err
		}
		id, err := w.AddObstacle(e.Obstacle)
		return sameID("obstacle", uint32(id), uint32(e.ObstacleID), err)
	case StepAddVolume:
		id, err := w.AddVolume(e.Volume)
		return sameID("volume", uint32(id), uint32(e.VolumeID), err)
	case StepRemoveVolume:
		return w.RemoveVolume(e.VolumeID)
	case StepAddLink:
		id, err := w.AddOffMeshLink(e.Link)
		return sameID("off-mesh link", uint32(id), uint32(e.LinkID), err)
	case StepRemoveLink:
		return w.RemoveOffMeshLink(e.LinkID)
	case StepMoveLink:
		return w.MoveOffMeshLink(e.LinkID, e.Link)
	case StepUpdate:
		_, err := w.Update(st.Update.MaxTiles)
		if (err != nil) != (st.Update.Err != "") {
			return fmt.Errorf("the update's error is %v, the session's was %q", err, st.Update.Err)
		}
		return nil
	case StepRestore, StepSnapshot:
		if st.Kind == StepRestore {
			return w.Restore(st.Snapshot.Data)
		}
		return nil
	case StepNewCache:
		return fmt.Errorf("a new cache is a keyframe, never replayed (a bug)")
	}
	return fmt.Errorf("unknown step kind %d", st.Kind)
}

// WorldFor builds a World of step i's era again (its level, settings and
// agent sizes; the state is then the first build's: SeekInto sets it).
func (h *History) WorldFor(i int) (*world.World, error) {
	st := h.Step(i)
	if st == nil {
		return nil, fmt.Errorf("ui: history: no step %d", i)
	}
	nc := h.steps[st.Era].NewCache
	if nc.soup == nil {
		return nil, fmt.Errorf("ui: history: the cache of step %d has no level to build it again", st.Era)
	}
	w, err := world.Build(contextBackground(), nc.Settings, nc.soup, nc.Agents, tilecache.Options{})
	if err != nil {
		return nil, fmt.Errorf("ui: history: build the cache of step %d again: %w", st.Era, err)
	}
	return w, nil
}

// FindNext returns the first step after from (dir 1) or before it (dir
// -1) for which match is true, or -1: the seam of the timeline's find
// (next scratch build, next failed tile, next change of a mesh hash).
func (h *History) FindNext(from, dir int, match func(i int, st *Step) bool) int {
	if dir >= 0 {
		dir = 1
	} else {
		dir = -1
	}
	for i := from + dir; i >= 0 && i < len(h.steps); i += dir {
		if match(i, &h.steps[i]) {
			return i
		}
	}
	return -1
}

// Bytes estimates the memory the history holds: the keyframes' bytes
// (a restored or saved snapshot's are its step's keyframe) and the
// steps with their records, the dropped branch included.
func (h *History) Bytes() (keyframes, steps int) { return h.keyBytes, h.stepBytes }

// Keyframes returns the number of keyframes (the current branch's).
func (h *History) Keyframes() int { return len(h.keys) }
