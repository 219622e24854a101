// Package gate runs displaycheck.Problem in its init function and, when
// there is no display, prints "navviz: no display: ..." and exits with
// status 1. cmd/navviz imports it for that side effect; it imports only
// syscall and navviz/internal/displaycheck (itself syscall only), so it
// is initialised before os and hence before Ebitengine (see the
// displaycheck package doc). It is a package of its own so that the tests
// of displaycheck do not run the check.
package gate

import (
	"syscall"

	"navviz/internal/displaycheck"
)

func init() {
	if msg := displaycheck.Problem(); msg != "" {
		syscall.Write(2, []byte("navviz: no display: "+msg+"\n"))
		syscall.Exit(1)
	}
}
