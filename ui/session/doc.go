// Package session is the state of a navviz session, without Ebitengine,
// debugui or the file dialog (a test checks it depends on none of them):
// App, the level, scene and camera, the plain build and its overlays
// (build_state.go), the tile cache and the worker goroutine that owns it
// (cache_state.go, cache_worker.go), the undo history (undo.go), the Path
// and Agents tools' models, the session recorder and the one error report
// (report.go). Package ui draws it and feeds it input through its methods.
//
// Changes go through methods that mark what changed, a Gen per group
// (App.Gen for the scene, the cache's generations, Path.Gen,
// Selection.Gen), so that the window rebuilds and redraws only what
// depends on a change (../shared/STYLE.md, "ui/: the split"). The scene's
// generation, the error report, the status line, the level's name, the
// build and cache errors and the tool hooks are unexported behind them;
// the fields the panels and input edit in place (Settings, Camera, Soup,
// Scene, the agents' count and seed), the cache's core and the cache
// view's snapshot fields are still exported.
package session
