//go:build (linux && !android) || freebsd || netbsd || openbsd || dragonfly

package displaycheck

import "syscall"

// Problem returns why there is no usable X11 display for Ebitengine, or
// "" when there seems to be one (or the check is off); see the package
// doc.
func Problem() string { return problem(syscall.Getenv, reachable) }

// reachable reports whether a connection to the X server socket of local
// display number n succeeds, at the file system path or (Linux) at the
// abstract address of the same name.
func reachable(n string) bool {
	path := "/tmp/.X11-unix/X" + n
	for _, name := range []string{path, "@" + path} {
		fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
		if err != nil {
			return true // cannot probe: leave it to Ebitengine
		}
		err = syscall.Connect(fd, &syscall.SockaddrUnix{Name: name})
		syscall.Close(fd)
		if err == nil {
			return true
		}
	}
	return false
}
