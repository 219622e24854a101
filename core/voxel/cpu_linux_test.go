//go:build linux

package voxel

import "golang.org/x/sys/unix"

// threadCPU returns the calling thread's CPU time in ns (0 where the
// system cannot tell): benchmarks lock their thread and report it, which
// other load on a shared machine disturbs less than wall time.
func threadCPU() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return ts.Nano()
}
