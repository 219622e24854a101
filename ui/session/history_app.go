package session

import (
	"fmt"
	"time"
)

// The session history as the window sees it: the timeline reads
// HistoryView (in the cache view: the steps are immutable, so the frame
// may read them while the worker appends), and moves the cursor with
// SeekHistory, StepHistory and RestoreDroppedBranch, cache jobs like the
// others. The live World follows the cursor: the view, the overlays, the
// path and the inspector show the state at the cursor. An edit (or an
// Update, auto update's too) while the cursor is in the past branches:
// the later steps are dropped, and RestoreDroppedBranch brings them back
// (docs/guide.md "Time travel").

// HistoryView is the history in a cache view.
type HistoryView struct {
	// Steps are the steps, oldest first (read them, never change them).
	Steps []Step
	// Cursor is the step the live World is at (-1: none).
	Cursor int
	// Dropped is the number of steps an edit in the past dropped that
	// RestoreDroppedBranch brings back (0: none).
	Dropped int
	// Keyframes is the number of keyframes, KeyframeBytes and StepBytes
	// the memory the history holds (History.Bytes).
	Keyframes, KeyframeBytes, StepBytes int
}

// InPast reports whether the cursor is before the last step.
func (v HistoryView) InPast() bool { return v.Cursor >= 0 && v.Cursor < len(v.Steps)-1 }

// At returns the step at the cursor (nil: none).
func (v *HistoryView) At() *Step {
	if v.Cursor < 0 || v.Cursor >= len(v.Steps) {
		return nil
	}
	return &v.Steps[v.Cursor]
}

// historyView returns the core's history for a view.
func (k *CacheCore) historyView() HistoryView {
	kb, sb := k.Hist.Bytes()
	return HistoryView{Steps: k.Hist.Steps(), Cursor: k.Hist.Cursor(), Dropped: k.Hist.Dropped(),
		Keyframes: k.Hist.Keyframes(), KeyframeBytes: kb, StepBytes: sb}
}

// Timeline returns the session history of the latest view.
func (a *App) Timeline() HistoryView { return a.CacheView().History }

// SeekHistory moves the cursor to step i: the live World is put into the
// state after step i (a keyframe restored and the steps after it
// replayed). Out of range, or without a cache, it is an error, shown and
// returned (with a worker: shown when it arrives).
func (a *App) SeekHistory(i int) error {
	return a.CacheDo(CacheJob{name: fmt.Sprintf("go to step %d", i), Run: func(k *CacheCore) func(*App) error {
		if k.World == nil {
			return failWith(ErrNoCache)
		}
		t0 := time.Now()
		if err := k.seek(i); err != nil {
			return failWith(err)
		}
		status := fmt.Sprintf("step %d of %d: %s (%d ms)", i, k.Hist.Len()-1, StepText(k.Hist.Step(i)), time.Since(t0).Milliseconds())
		if !k.Hist.AtHead() {
			status += "; an edit here drops the later steps (Restore branch brings them back)"
		}
		return seekDone(status)
	}})
}

// StepHistory moves the cursor by delta steps (the timeline's , and .),
// stopping at the first and the last step.
func (a *App) StepHistory(delta int) error {
	v := a.Timeline()
	if len(v.Steps) == 0 {
		return a.Report(ErrNoCache)
	}
	return a.SeekHistory(min(max(v.Cursor+delta, 0), len(v.Steps)-1))
}

// HistoryEnd moves the cursor to the last step (End).
func (a *App) HistoryEnd() error { return a.SeekHistory(max(len(a.Timeline().Steps)-1, 0)) }

// RestoreDroppedBranch puts back the steps the last edit in the past
// dropped (the undo of a branch); the steps made since go aside in their
// place, so a second call swaps back. The cursor goes to the last step.
func (a *App) RestoreDroppedBranch() error {
	return a.CacheDo(CacheJob{name: "restore branch", Run: func(k *CacheCore) func(*App) error {
		ok, err := k.restoreDropped()
		switch {
		case err != nil:
			return failWith(err)
		case !ok:
			return okWith("no dropped branch to restore")
		}
		return seekDone(fmt.Sprintf("branch restored: %d steps, at step %d", k.Hist.Len(), k.Hist.Len()-1))
	}})
}

// seekDone is the continuation of a move of the cursor: the live World
// changed as a restore changes it.
func seekDone(status string) func(a *App) error {
	return func(a *App) error {
		a.Selection.Clear()
		if a.toolEvents != nil {
			a.toolEvents.CacheReplaced(true)
		}
		a.bumpAll()
		a.ReportOK(status)
		return nil
	}
}

// StepText describes a step in a few words ("update 4 tiles: 6 layers, 2
// from scratch", "add cylinder #3").
func StepText(st *Step) string {
	if st == nil {
		return ""
	}
	e := &st.Edit
	switch st.Kind {
	case StepNewCache:
		return fmt.Sprintf("new cache of %s (%s)", DisplayName(st.NewCache.Level), Plural(len(st.NewCache.Agents), "agent size"))
	case StepAddObstacle:
		return fmt.Sprintf("add %s #%d", e.Obstacle.Shape, e.ObstacleID)
	case StepRemoveObstacle:
		return fmt.Sprintf("remove obstacle #%d", e.ObstacleID)
	case StepReplaceObstacle:
		return fmt.Sprintf("replace obstacle #%d by %s #%d", e.RemovedObstacle, e.Obstacle.Shape, e.ObstacleID)
	case StepAddVolume:
		return fmt.Sprintf("add volume #%d (area %d)", e.VolumeID, e.Volume.Area)
	case StepRemoveVolume:
		return fmt.Sprintf("remove volume #%d", e.VolumeID)
	case StepAddLink:
		return fmt.Sprintf("add link L%d", e.LinkID)
	case StepRemoveLink:
		return fmt.Sprintf("remove link L%d", e.LinkID)
	case StepMoveLink:
		return fmt.Sprintf("move link L%d", e.LinkID)
	case StepRestore:
		return "restore " + st.Snapshot.What
	case StepSnapshot:
		return "snapshot " + st.Snapshot.What
	case StepUpdate:
		u := st.Update
		tiles := 0
		for i := range u.Agents {
			tiles += len(u.Agents[i].Tiles)
		}
		layers := u.Layers()
		scratch := 0
		for i := range layers {
			if layers[i].Scratch() {
				scratch++
			}
		}
		s := fmt.Sprintf("update %s: %s, %d from scratch", Plural(tiles, "tile"), Plural(len(layers), "layer"), scratch)
		if n := u.Failed(); n > 0 {
			s += fmt.Sprintf(", %d failed", n)
		}
		return s
	}
	return st.Kind.String()
}

// MarkClass is what the timeline colours a step's mark by.
type MarkClass uint8

// The mark classes.
const (
	MarkEdit     MarkClass = iota // an edit, a snapshot, a new cache
	MarkRepaired                  // an update whose layers were all repaired (or none built)
	MarkScratch                   // an update that built a layer from scratch
	MarkFailed                    // an update in which a tile failed
)

// Mark returns the class of st's mark.
func Mark(st *Step) MarkClass {
	if st == nil || st.Update == nil {
		return MarkEdit
	}
	if st.Update.Failed() > 0 {
		return MarkFailed
	}
	for _, l := range st.Update.Layers() {
		if l.Scratch() {
			return MarkScratch
		}
	}
	return MarkRepaired
}
