//go:build !((linux && !android) || freebsd || netbsd || openbsd || dragonfly)

package displaycheck

// Problem returns "": Ebitengine does not use X11 on this system.
func Problem() string { return "" }
