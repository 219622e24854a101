// Package session is the part of a navviz session that does not depend on
// Ebitengine, debugui or the file dialog: what the window edits and shows,
// kept in unexported fields and changed only through setters that mark
// what changed (a Gen per group), so that the window rebuilds and redraws
// only what depends on a change.
//
// It grows piece by piece out of package ui's App (../shared/STYLE.md,
// "ui/: the split"). The first piece is the Path tool's model (Path).
package session
