//go:build linux

package cputime

import (
	"os"
	"strconv"
	"strings"
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

// PeakRSS returns the process's peak resident set size in bytes and true:
// VmHWM of /proc/self/status, the high-water mark of the process's own
// memory. getrusage's ru_maxrss (kilobytes on Linux) is the fallback where
// /proc cannot be read; it is not the process's own figure when its parent
// started it by vfork (os/exec does, so `go run` does): the exec keeps the
// parent's peak in it.
func PeakRSS() (uint64, bool) {
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		if kb, ok := statusKB(string(b), "VmHWM:"); ok {
			return kb * 1024, true
		}
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return uint64(ru.Maxrss) * 1024, true
}

// statusKB returns the value of field key ("VmHWM:") of a
// /proc/PID/status text, "VmHWM:   2436 kB", in kilobytes.
func statusKB(status, key string) (uint64, bool) {
	for _, line := range strings.Split(status, "\n") {
		if rest, ok := strings.CutPrefix(line, key); ok {
			v, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return v, err == nil
		}
	}
	return 0, false
}
