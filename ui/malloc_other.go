//go:build !linux || !cgo

package ui

// keepCHeap does nothing where the C allocator is not glibc's (see
// malloc_linux.go).
func keepCHeap() {}
