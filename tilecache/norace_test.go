//go:build !race

package tilecache

// raceEnabled: built with -race (see race_test.go).
const raceEnabled = false
