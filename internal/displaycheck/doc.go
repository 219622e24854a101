// Package displaycheck tells whether navviz has an X11 display, so that
// navviz can stop with one readable line when there is none, before
// Ebitengine's own package initialisation panics
// (github.com/hajimehoshi/ebiten/v2/internal/ui opens the display in an
// init function and panics when that fails).
//
// cmd/navviz imports the subpackage gate for its side effect: gate's init
// function calls Problem and exits. That init must run before Ebitengine's,
// and the Go specification (Go 1.21 on) makes it so: packages are
// initialised one at a time, each time the first package in import-path
// order whose imports are all initialised. This package imports only
// syscall, gate only syscall and this package, and os imports syscall;
// "navviz/..." sorts before "os", so both are initialised as soon as
// syscall is, before os, and thus before every package that needs os,
// Ebitengine's among them. They must keep to those imports
// (TestImportsOnlySyscall checks).
//
// On Linux and the BSDs (where Ebitengine uses X11 through GLFW) Problem
// reports a missing display when DISPLAY is unset or empty, or names a
// local display (":N", "unix:N") whose server socket (/tmp/.X11-unix/XN,
// or its abstract namesake on Linux) does not accept a connection; a remote
// display ("host:N", as ssh -X sets) is left to Ebitengine. Setting
// NAVVIZ_NO_DISPLAY_CHECK=1 turns the check off. On other systems it
// reports nothing.
package displaycheck
