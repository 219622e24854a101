//go:build linux

package render

import (
	"time"

	"golang.org/x/sys/unix"
)

// processCPU returns the CPU time of the whole process (every thread) and
// true: benchmarks report it beside wall time, which a loaded machine
// stretches.
func processCPU() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
