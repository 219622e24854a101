//go:build !linux

package pipeline

import "time"

// threadCPUTime reports false: stages are timed with the wall clock.
func threadCPUTime() (time.Duration, bool) { return 0, false }
