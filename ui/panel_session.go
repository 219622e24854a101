package ui

import (
	"github.com/ebitengine/debugui"

	"navviz/scenario"
	"navviz/ui/session"
)

// sessionControls is the Cache panel's "Save session as scenario…"
// control: the save dialog, or (builds without a dialog) the Snapshot
// panel's path field and a button.
func (g *Game) sessionControls(ctx *debugui.Context) {
	if hasFileDialog {
		ctx.Button(g.dialogLabel("Save session as scenario…")).On(g.startSessionDialog)
	} else {
		ctx.Button("Save session as scenario (path above)").On(func() {
			g.App.Report(session.ErrOf(g.App.SaveSession(g.cache.pathField, g.w, g.h)))
		})
	}
	ctx.Text("A scenario file of the edits since the cache build, the camera, overlays, tile and path (navmesh scenario, navviz --scenario).")
}

// startSessionDialog opens the save dialog; the session is saved when it
// answers (pollCacheDialog).
func (g *Game) startSessionDialog() {
	g.startCacheDialog(func() (string, error) {
		return saveFileDialog("Save session as scenario", "session"+scenario.FileExt, "navviz scenarios (*.scenario.json)", "json")
	}, func(a *session.App, p string) { a.Report(session.ErrOf(a.SaveSession(p, g.w, g.h))) })
}
