//go:build race

package tilecache

// raceEnabled: built with -race, whose sync.Pool drops items at random
// (so allocation counts mean nothing).
const raceEnabled = true
