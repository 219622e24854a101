//go:build !linux

package main

import "time"

// threadCPU is not available on this system: 0, false (navmesh bench then
// reports wall time only).
func threadCPU() (time.Duration, bool) { return 0, false }

// processCPU is not available on this system: 0, false.
func processCPU() (time.Duration, bool) { return 0, false }

// peakRSS is not available on this system: 0, false.
func peakRSS() (uint64, bool) { return 0, false }
