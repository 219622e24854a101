//go:build !linux

package cputime

import "time"

// Thread is not available on this system: 0, false.
func Thread() (time.Duration, bool) { return 0, false }

// Process is not available on this system: 0, false.
func Process() (time.Duration, bool) { return 0, false }

// PeakRSS is not available on this system: 0, false.
func PeakRSS() (uint64, bool) { return 0, false }
