//go:build !unix

package atomicfile

// accessWrite is not checked on this system (the mode bits still are).
func accessWrite(path string) error { return nil }

// accessDir is not checked on this system.
func accessDir(dir string) error { return nil }
