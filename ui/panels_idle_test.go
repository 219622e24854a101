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
