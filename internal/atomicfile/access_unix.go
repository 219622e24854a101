//go:build unix

package atomicfile

import "golang.org/x/sys/unix"

// accessWrite checks that the caller may write the file at path
// (access(2) W_OK: root passes, a read-only file system does not).
func accessWrite(path string) error { return unix.Access(path, unix.W_OK) }

// accessDir checks that the caller may create a file in directory dir.
func accessDir(dir string) error { return unix.Access(dir, unix.W_OK|unix.X_OK) }
