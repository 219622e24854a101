package ui

import (
	"testing"
	"time"
)

// TestPanelsIdle: the paced loop skips debugui's layout only when nothing
// is held and the signature is the one of its last two runs, and at least
// every panelsRefresh.
func TestPanelsIdle(t *testing.T) {
	still := uiSignature{in: uiInput{x: 10, y: 20}}
	g := &Game{paced: true, panelsSig: still, panelsSettled: true, panelsRan: time.Now()}
	if !g.panelsIdle(still) {
		t.Error("a still window lays the panels out every tick")
	}
	for name, sig := range map[string]uiSignature{
		"moved":  {in: uiInput{x: 11, y: 20}},
		"button": {in: uiInput{x: 10, y: 20, buttons: [3]bool{true}}},
		"key":    {in: uiInput{x: 10, y: 20, keys: "Backspace,"}},
		"wheel":  {in: uiInput{x: 10, y: 20, wheel: 1}},
		"state":  {in: uiInput{x: 10, y: 20}, st: uiState{gen: 1}},
	} {
		if g.panelsIdle(sig) {
			t.Errorf("%s: skipped", name)
		}
	}
	for name, h := range map[string]func(*Game){
		"unsettled": func(g *Game) { g.panelsSettled = false },
		"stale":     func(g *Game) { g.panelsRan = time.Now().Add(-panelsRefresh) },
		"unpaced":   func(g *Game) { g.paced = false },
	} {
		c := &Game{paced: true, panelsSig: still, panelsSettled: true, panelsRan: time.Now()}
		h(c)
		if c.panelsIdle(still) {
			t.Errorf("%s: skipped", name)
		}
	}
}

// TestPanelsIdleWhileDragging: during a camera drag the panels are laid
// out only every panelsRefresh, until a button changes or a key is held.
func TestPanelsIdleWhileDragging(t *testing.T) {
	held := uiInput{x: 10, y: 20, buttons: [3]bool{false, false, true}}
	g := &Game{paced: true, panelsSig: uiSignature{in: held}, panelsRan: time.Now()}
	g.ctl.mode = dragOrbit
	moved := held
	moved.x = 60
	if !g.panelsIdle(uiSignature{in: moved}) {
		t.Error("an orbit lays the panels out every tick")
	}
	released := moved
	released.buttons = [3]bool{}
	if g.panelsIdle(uiSignature{in: released}) {
		t.Error("the release was not laid out")
	}
	key := moved
	key.keys = "Shift,"
	if g.panelsIdle(uiSignature{in: key}) {
		t.Error("a key held during the drag was not laid out")
	}
	g.panelsRan = time.Now().Add(-panelsRefresh)
	if g.panelsIdle(uiSignature{in: moved}) {
		t.Error("the panels were not refreshed after panelsRefresh")
	}
}
