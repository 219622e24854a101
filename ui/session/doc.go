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
// generation, the error report, the status line, the level, scene and
// aspect, the edited settings (Settings, SetSettings, SetVolumes), the
// build, the selected tile and scope, the picked polygon, the agents'
// spawn settings, the build and cache errors and the tool hooks are
// unexported behind them; the overlays of what the user does start
// unticked until they have something to show (ArmedOverlays). Still
// exported: Camera (a value the window moves in place; the redraw compares
// it by value), the sub-models that keep their own fields behind setters
// and Gens (Auto, Selection, Path, Agents), and the cache's core and
// overlay bookkeeping that package ui's tests reach into (CacheCore,
// CacheVis, ViewStale, Insp).
package session
