package ui

import (
	"strings"
	"time"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
)

// Draw only when something changed.
//
// The window is not cleared between frames
// (ebiten.SetScreenClearedEveryFrame(false), set by Run), and Draw returns
// at once unless a redraw reason was marked since the last frame it drew:
// the screen keeps the last frame. Update marks the reasons; a still window
// then costs one Update per tick (input read, panels laid out, jobs polled)
// and no drawing at all.

// redrawReason is why the window must be drawn again (a bit set).
type redrawReason uint16

const (
	// reasonTarget: Draw got another screen image (the first frame, a
	// resized window, a test's offscreen image).
	reasonTarget redrawReason = 1 << iota
	// reasonInput: the pointer moved, a button, key or the wheel changed,
	// or text was typed (the panels may show it: hover, focus, fields).
	reasonInput
	// reasonView: a new view of the scene was swapped in (jobs.go).
	reasonView
	// reasonState: what the panels and the message bar show changed: the
	// scene's generation, the status or error line, a job's progress.
	reasonState
	// reasonScreenshot: a screenshot is to be saved from this frame.
	reasonScreenshot
	// reasonPlayback: a scenario is playing (its runner draws its own
	// scene every step).
	reasonPlayback
	// reasonScripted: a scripted run (--frames) counts frames.
	reasonScripted
	// reasonAgents: the agents moved (agents.go).
	reasonAgents
)

// reasonNames names the reasons, for the Stats panel and tests.
var reasonNames = []string{"target", "input", "view", "state", "screenshot", "playback", "scripted", "agents"}

// String lists the reasons set in r, "none" when none is.
func (r redrawReason) String() string {
	var names []string
	for i, n := range reasonNames {
		if r&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, "+")
}

// settleFrames is how many frames are drawn after the last reason: debugui
// lays a change out in the Update after the input that caused it, so one
// more frame shows its result.
const settleFrames = 2

// uiSignature is what Update compares from tick to tick to find input and
// state changes that need a redraw.
type uiSignature struct {
	in uiInput
	st uiState
}

// uiInput is the input part of a uiSignature.
type uiInput struct {
	x, y     int
	buttons  [3]bool
	wheel    float64
	keys     string // keys held, in Ebitengine's order
	chars    string // text typed this tick
	captured debugui.InputCapturingState
}

// uiState is the state part of a uiSignature: what the panels and the
// message bar show.
type uiState struct {
	gen           uint64
	status, err   string
	progress      [3]int // running, done, total of the plain build
	cacheProgress [3]int // of the cache build
	cacheWork     [2]int // the cache's queue length and Update count
	cacheWaiting  int    // cache jobs waiting for the worker ("updating…")
	dialog        bool
	panelGen      int // Game.panelGen: a tab or tool chosen outside debugui
}

// redrawState holds the pending reasons and the last signature.
type redrawState struct {
	pending redrawReason
	settle  int // frames still to draw after the last reason
	last    uiSignature
	screen  *ebiten.Image // the screen image of the last drawn frame

	// Of the last drawn frame, for the Stats panel: why it was drawn and
	// how many frames were drawn and skipped.
	lastReason     redrawReason
	drawn, skipped int
	// taken is the reasons the frame being drawn was due for (0 for a
	// settling frame).
	taken redrawReason
}

// sceneReasons change only the 3D view: a frame due for them alone may
// leave the panels as they are on screen (Game.Draw).
const sceneReasons = reasonView | reasonAgents

// sceneOnly reports whether the frame being drawn is due for scene
// reasons alone.
func (r *redrawState) sceneOnly() bool { return r.taken != 0 && r.taken&^sceneReasons == 0 }

// mark records reason: the next Draw draws.
func (r *redrawState) mark(reason redrawReason) {
	r.pending |= reason
	r.settle = settleFrames
}

// observe compares sig with the previous tick's and marks the reasons of
// what changed.
func (r *redrawState) observe(sig uiSignature) {
	prev := r.last
	r.last = sig
	if sig.in != prev.in || sig.in.wheel != 0 || sig.in.chars != "" {
		r.mark(reasonInput)
	}
	if sig.st != prev.st {
		r.mark(reasonState)
	}
}

// due reports whether the frame on screen must be drawn, and takes the
// reasons: screen is the image Draw got.
func (r *redrawState) due(screen *ebiten.Image) bool {
	if screen != r.screen {
		r.screen = screen
		r.mark(reasonTarget)
	}
	if r.pending == 0 && r.settle == 0 {
		r.skipped++
		return false
	}
	if r.pending != 0 {
		r.lastReason = r.pending
	}
	r.taken = r.pending
	r.pending = 0
	r.settle = max(r.settle-1, 0)
	r.drawn++
	return true
}

// readSignature samples the input and the state a redraw depends on.
func (g *Game) readSignature(captured debugui.InputCapturingState) uiSignature {
	x, y := ebiten.CursorPosition()
	_, wy := ebiten.Wheel()
	var keys []ebiten.Key
	keys = inpututil.AppendPressedKeys(keys)
	var kb strings.Builder
	for _, k := range keys {
		kb.WriteString(k.String())
		kb.WriteByte(',')
	}
	chars := string(ebiten.AppendInputChars(nil))
	running, done, total := g.runner.Progress()
	sig := uiSignature{
		in: uiInput{
			x: x, y: y,
			buttons:  [3]bool{ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft), ebiten.IsMouseButtonPressed(ebiten.MouseButtonMiddle), ebiten.IsMouseButtonPressed(ebiten.MouseButtonRight)},
			wheel:    wy,
			keys:     kb.String(),
			chars:    chars,
			captured: captured,
		},
		st: uiState{
			gen:      g.App.Gen(),
			status:   g.App.Status(),
			err:      g.App.Err(),
			progress: [3]int{b2i(running), done, total},
			dialog:   g.dialogBusy,
			panelGen: g.panelGen,
		},
	}
	if v := g.App.CacheView(); v.Has {
		sig.st.cacheWork = [2]int{v.Pending, v.Updates}
	}
	_, sig.st.cacheWaiting = g.App.CacheBusy()
	if g.cache.runner != nil {
		running, done, total := g.cache.runner.Progress()
		sig.st.cacheProgress = [3]int{b2i(running), done, total}
	}
	return sig
}

// b2i is 1 for true.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// panelsIdle reports whether debugui may skip laying the panels out this
// tick: nothing is held, and the input and state a redraw depends on (sig)
// are those of the last two ticks it ran (it shows a change in the Update
// after the input that caused it: the second run settles it), the last
// less than panelsRefresh ago (so that what the signature does not cover
// is at most that late). Laying out every panel costs about 3 ms a tick,
// a fifth of a core for a still window at 60 ticks a second. Only the
// window's paced loop skips: tests that call Update and change the state
// directly see the panels of that state in the next frame.
//
// A camera drag (orbit, pan) that started in the view is the view's: the
// panels need not follow the pointer until the button is released.
func (g *Game) panelsIdle(sig uiSignature) bool {
	if !g.paced || time.Since(g.panelsRan) >= panelsRefresh {
		return false
	}
	in := sig.in
	typing := in.keys != "" || in.chars != "" || in.wheel != 0
	if g.ctl.dragging() && !typing && in.buttons == g.panelsSig.in.buttons {
		return true
	}
	return !typing && in.buttons == [3]bool{} && g.panelsSettled && sig == g.panelsSig
}

// panelsRefresh is the longest a frame for the scene alone leaves the
// panels as they were (Draw).
const panelsRefresh = 250 * time.Millisecond

// endUpdate ends every Update: it asks for the view of the new state (off
// the frame, jobs.go) and marks what must be redrawn (redraw.go).
func (g *Game) endUpdate(captured debugui.InputCapturingState) {
	if g.syncScene() {
		g.redraw.mark(reasonView)
		if g.bench != nil && g.bench.phase == benchOrbit {
			g.bench.projectMs = append(g.bench.projectMs, g.view.buildMs)
			g.bench.drawnTris = append(g.bench.drawnTris, float64(g.view.drawnTris))
		}
	}
	g.redraw.observe(g.readSignature(captured))
	if g.opts.Frames > 0 {
		g.redraw.mark(reasonScripted)
	}
	if g.shotPath != "" {
		g.redraw.mark(reasonScreenshot)
	}
}
