// Package sized sizes reusable buffers: the one growth rule the build
// stages share for slices they keep between tiles.
package sized

// Resize returns b with length n (its contents are the caller's to set):
// b itself when its capacity allows; new memory exactly n long when b has
// none (a result the caller may keep holds no spare room); else, for
// reused memory that is too small, n plus a quarter, so that scratch
// reused for tiles of growing sizes is not reallocated for each.
func Resize[T any](b []T, n int) []T {
	switch {
	case cap(b) >= n:
		return b[:n]
	case cap(b) == 0:
		return make([]T, n)
	default:
		return make([]T, n, n+n/4)
	}
}
