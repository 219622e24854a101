package session

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/cespare/xxhash/v2"

	"navviz/core/level"
	"navviz/tilecache"
	"navviz/world"
)

// The session history in the cache's core: every change the core makes
// to the World goes through record (the editor's edits, Update, restore,
// a saved snapshot, a new cache), and the scenario recorder (Rec) is fed
// from the steps recorded, so that "Save session as scenario" writes the
// history's steps up to the cursor.

// contextBackground is the context of a World built again for a Seek.
func contextBackground() context.Context { return context.Background() }

// historyCore is the history's part of the CacheCore.
type historyCore struct {
	// Hist is the session's history.
	Hist History
	// NoCompare turns off the comparison of repaired contours with
	// from-scratch ones in the history's records (one contour build
	// fewer per repaired layer).
	NoCompare bool
	layers    layerLog
	times     []tilecache.UpdateTimes
	// head holds the editor and undo stack of the head while the cursor
	// is in the past; dropped those of the branch History.Truncate
	// dropped (RestoreDropped swaps them).
	head, dropped *editStash
	// worlds are the Worlds kept by era (History step index): the live
	// one's and the head's.
	worlds map[int]*world.World
}

// editStash is an editor with its undo stack.
type editStash struct {
	editor *cacheEditor
	undo   UndoStack
}

// tap sets the history's trace on every agent's cache (the shown one's
// passes the layers on to the inspector's trace, k.trace).
func (k *CacheCore) tap() {
	for i, ag := range k.World.Agents() {
		c, _ := k.World.Cache(ag.Name)
		t := &historyTap{rec: &k.layers, agent: i, compare: !k.NoCompare}
		if i == k.Agent {
			t.fwd = k.trace
		}
		c.SetTrace(t)
	}
}

// untap takes the traces off every agent's cache.
func (k *CacheCore) untap() {
	for _, ag := range k.World.Agents() {
		c, _ := k.World.Cache(ag.Name)
		c.SetTrace(nil)
	}
}

// record appends st to the history (key forces a keyframe; data is the
// World's snapshot when at hand) and feeds it to the scenario recorder.
// A step appended while the cursor is in the past drops the later steps
// (a branch): the head's editor and undo stack go with them.
func (k *CacheCore) record(st Step, key bool, data []byte) error {
	branched, err := k.Hist.append(st, k.World, key, data)
	if branched {
		k.dropped, k.head = k.head, nil
		k.deriveRec()
		k.dropWorlds()
	} else {
		k.Rec.feed(k.Hist.Step(k.Hist.Len() - 1))
	}
	return err
}

// recordEdit is the editor's log: an edit that reached the caches.
func (k *CacheCore) recordEdit(st Step) {
	// A keyframe failure leaves the step recorded (a later keyframe
	// covers it); it cannot happen for a World that took the edit.
	_ = k.record(st, false, nil)
}

// deriveRec makes the scenario recorder again from the steps up to the
// cursor.
func (k *CacheCore) deriveRec() {
	k.Rec.stop()
	for i := 0; i <= k.Hist.Cursor(); i++ {
		k.Rec.feed(k.Hist.Step(i))
	}
}

// recordNewCache records the World just installed (k.World, of level
// soup, built from scratch or with the edits carried).
func (k *CacheCore) recordNewCache(lvl string, soup *level.Soup, carried bool) {
	agents := k.World.Agents()
	first, _ := k.World.Cache(agents[0].Name)
	nc := &NewCacheRecord{Level: lvl, Settings: DetachSettings(first.Settings()), Agents: agents, Carried: carried, soup: soup}
	if carried {
		nc.Obstacles, nc.Volumes, nc.Links = k.World.Obstacles(), k.World.Volumes(), k.World.OffMeshLinks()
	}
	if n := k.Hist.Len(); n > 0 && k.Hist.Step(0).NewCache.soup != soup {
		k.Hist.Clear() // another level: another history
		k.head, k.dropped, k.worlds = nil, nil, nil
	}
	if k.worlds == nil {
		k.worlds = map[int]*world.World{}
	}
	_ = k.record(Step{Kind: StepNewCache, NewCache: nc}, true, nil)
	k.worlds[k.Hist.Cursor()] = k.World
	k.dropWorlds()
}

// recordSnapshot records a restored (restore) or saved snapshot data
// named what: its bytes are the keyframe of the state after it.
func (k *CacheCore) recordSnapshot(restore bool, what string, data []byte) error {
	kind := StepSnapshot
	if restore {
		kind = StepRestore
	}
	return k.record(Step{Kind: kind, Snapshot: &SnapshotRecord{What: what, Data: data, Hash: xxhash.Sum64(data)}}, true, data)
}

// update runs World.Update(n) with the layers traced and the parts timed
// and records the step.
func (k *CacheCore) update(n int) (world.UpdateResult, error) {
	agents := k.World.Agents()
	k.layers.begin(len(agents))
	k.times = make([]tilecache.UpdateTimes, len(agents))
	for i, ag := range agents {
		c, _ := k.World.Cache(ag.Name)
		c.SetUpdateTimes(&k.times[i])
	}
	t0 := time.Now()
	res, err := k.World.Update(n)
	wall := time.Since(t0)
	for _, ag := range agents {
		c, _ := k.World.Cache(ag.Name)
		c.SetUpdateTimes(nil)
	}
	u := updateRecordOf(n, &res, err, wall, &k.layers, k.times)
	k.layers.layers = nil
	if rerr := k.record(Step{Kind: StepUpdate, Update: u}, false, nil); rerr != nil && err == nil {
		err = rerr
	}
	return res, err
}

// dropWorlds forgets the Worlds of eras other than the live one's and
// the head's.
func (k *CacheCore) dropWorlds() {
	live, head := k.Hist.Step(k.Hist.Cursor()).Era, k.Hist.Step(k.Hist.Len()-1).Era
	for era, w := range k.worlds {
		if era != live && era != head && w != k.World {
			delete(k.worlds, era)
		}
	}
}

// seek puts the live World into the state after step i (a World of step
// i's era: the one kept, or built again), keeping the head's editor and
// undo stack aside while the cursor is in the past. On error the live
// World is put back at the step it was at.
func (k *CacheCore) seek(i int) error {
	h := &k.Hist
	if h.Step(i) == nil {
		return fmt.Errorf("ui: history: no step %d (the history has %d)", i, h.Len())
	}
	from := h.Cursor()
	if i == from {
		return nil
	}
	err := k.seekWorld(i)
	if err != nil {
		if err2 := k.seekWorld(from); err2 != nil {
			err = fmt.Errorf("%w; going back to step %d: %v", err, from, err2)
		}
		return err
	}
	if from == h.Len()-1 { // leaving the head
		k.head = &editStash{editor: k.Editor, undo: k.History}
	}
	if i == h.Len()-1 && k.head != nil { // back at the head
		k.useEdits(k.head)
		k.head = nil
	} else {
		k.useEdits(nil)
	}
	k.deriveRec()
	k.dropWorlds()
	return nil
}

// seekWorld replays step i into a World of its era and makes it the live
// one.
func (k *CacheCore) seekWorld(i int) error {
	era := k.Hist.Step(i).Era
	w := k.worlds[era]
	if w == nil {
		var err error
		if w, err = k.Hist.WorldFor(i); err != nil {
			return err
		}
		k.worlds[era] = w
	}
	live := w == k.World
	if !live {
		k.untap()
		show := ""
		if k.Agent < len(k.World.Agents()) {
			show = k.World.Agents()[k.Agent].Name
		}
		k.useWorld(w, show)
	}
	k.untap()
	err := k.Hist.seekInto(w, i, live)
	k.tap()
	k.Swaps.Reset()
	k.cacheSeq++ // another mesh: the overlays, the inspector, the crowd start over
	return err
}

// useWorld makes w the live World, showing the agent called show (the
// first when w has none of that name).
func (k *CacheCore) useWorld(w *world.World, show string) {
	agents := w.Agents()
	k.World = w
	k.Agent = max(slices.IndexFunc(agents, func(ag world.Agent) bool { return ag.Name == show }), 0)
	k.Cache, _ = w.Cache(agents[k.Agent].Name)
	k.tap()
}

// restoreDropped puts back the branch the last edit in the past dropped
// (History.RestoreDropped) and the live World at its last step, with its
// editor and undo stack. It reports false when there was none.
func (k *CacheCore) restoreDropped() (bool, error) {
	h := &k.Hist
	if h.Dropped() == 0 {
		return false, nil
	}
	here := &editStash{editor: k.Editor, undo: k.History}
	if !h.AtHead() && k.head != nil {
		here = k.head // the stack of the branch's head
	}
	h.RestoreDropped()
	if err := k.seekWorld(h.Len() - 1); err != nil {
		return true, err
	}
	back := k.dropped
	k.dropped, k.head = here, nil
	k.useEdits(back)
	k.deriveRec()
	k.dropWorlds()
	return true, nil
}

// useEdits makes s (nil: a new editor and an empty undo stack) the
// core's editor and undo stack, editing the live World (the state its
// handles name is the one it was stashed at).
func (k *CacheCore) useEdits(s *editStash) {
	if s == nil {
		s = &editStash{editor: NewCacheEditor(k.World)}
	}
	k.Editor, k.History = s.editor, s.undo
	k.Editor.c = k.World
	k.Editor.log = k.recordEdit
}
