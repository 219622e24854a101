package ui

import (
	"errors"

	"github.com/ebitengine/debugui"

	"navviz/scenario"
)

// sessionUI is the Game's part of "Save session as scenario…": the
// dialog's answer channel.
type sessionUI struct {
	answers chan dialogResult
	dialog  bool // the save dialog is open
}

// sessionControls is the Cache panel's "Save session as scenario…"
// control: the save dialog, or (builds without a dialog) the Snapshot
// panel's path field and a button.
func (g *Game) sessionControls(ctx *debugui.Context) {
	if hasFileDialog {
		label := "Save session as scenario…"
		if g.dialogBusy {
			label = "(dialog open)"
		}
		ctx.Button(label).On(g.startSessionDialog)
	} else {
		ctx.Button("Save session as scenario (path above)").On(func() {
			_, _ = g.App.SaveSession(g.cache.pathField, g.w, g.h) // errors are shown
		})
	}
	ctx.Text("Writes the edits since the cache was built (obstacles, volumes, updates, snapshots and restores), then the camera, overlays, selected tile, path and a shot, as a scenario file for navmesh scenario or navviz --scenario.")
}

// startSessionDialog opens the save dialog off the game loop; the answer
// arrives in a later Update (pollSessionDialog).
func (g *Game) startSessionDialog() {
	if g.dialogBusy || g.session.dialog {
		return
	}
	if g.session.answers == nil {
		g.session.answers = make(chan dialogResult, 1)
	}
	g.dialogBusy, g.session.dialog = true, true
	ch := g.session.answers
	go func() {
		p, err := saveFileDialog("Save session as scenario", "session"+scenario.FileExt, "navviz scenarios (*.scenario.json)", "json")
		ch <- dialogResult{path: p, err: err}
	}()
}

// pollSessionDialog saves the session once the dialog answered.
func (g *Game) pollSessionDialog() {
	if g.session.answers == nil {
		return
	}
	select {
	case r := <-g.session.answers:
		g.dialogBusy, g.session.dialog = false, false
		switch {
		case errors.Is(r.err, errDialogCancelled):
		case r.err != nil:
			_ = g.App.cacheFail(r.err)
		default:
			_, _ = g.App.SaveSession(r.path, g.w, g.h) // errors are shown
		}
	default:
	}
}
