//go:build linux && cgo

package ui

/*
#include <malloc.h>
*/
import "C"

// keepCHeap tells the C allocator (glibc) to keep freed memory instead of
// returning it to the system at once. Mesa's software rasterizer (llvmpipe,
// what CI machines and remote desktops draw with) allocates and frees
// buffers of several MiB in its own threads every frame; with glibc's
// defaults each frame gave those pages back (madvise, mprotect) and
// faulted them in again, a fifth of the process's CPU time per frame on
// city (navviz --bench-frames: cpu_ms_per_view 108-111 -> 81-89).
func keepCHeap() {
	C.mallopt(C.M_MMAP_THRESHOLD, 256<<20) // larger blocks come from the heap, not mmap
	C.mallopt(C.M_TRIM_THRESHOLD, 1<<30)   // keep up to 1 GiB of free heap top
	C.mallopt(C.M_TOP_PAD, 64<<20)         // grow a heap by 64 MiB at a time
}
