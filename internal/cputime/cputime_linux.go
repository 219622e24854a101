//go:build linux

package cputime

import (
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Thread returns the CPU time the calling OS thread has used
// (CLOCK_THREAD_CPUTIME_ID) and true; the caller locks its goroutine to
// the thread (runtime.LockOSThread) for the reading to mean anything.
func Thread() (time.Duration, bool) { return clock(unix.CLOCK_THREAD_CPUTIME_ID) }

// Process returns the CPU time of the whole process (every thread:
// workers and the garbage collector too) and true.
func Process() (time.Duration, bool) { return clock(unix.CLOCK_PROCESS_CPUTIME_ID) }

func clock(id int32) (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(id, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

// PeakRSS returns the process's peak resident set size in bytes (getrusage
// ru_maxrss, kilobytes on Linux) and true.
func PeakRSS() (uint64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return uint64(ru.Maxrss) * 1024, true
}
