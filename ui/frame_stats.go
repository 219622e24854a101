package ui

import (
	"os"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"
)

// frameStats measures what the Stats panel reports besides Ebitengine's
// FPS: the time between two redraws (Draw returns early when nothing
// changed, redraw.go) and the time a redraw took (both smoothed), and the process memory, sampled once a second (reading it
// every frame would cost more than it tells).
type frameStats struct {
	last      time.Time // start of the previous Draw
	frameMs   float64   // smoothed time between two Draws
	drawMs    float64   // smoothed duration of Draw
	sampledAt time.Time
	rssBytes  uint64 // resident set size (0: unknown on this system)
	heapBytes uint64 // live Go heap after the last GC
}

// smoothing is the weight of a new sample in the running averages.
const smoothing = 0.1

// frameStart notes the start of a Draw at now.
func (s *frameStats) frameStart(now time.Time) {
	if !s.last.IsZero() {
		s.frameMs = smooth(s.frameMs, msSince(s.last, now))
	}
	s.last = now
	if now.Sub(s.sampledAt) >= time.Second {
		s.sampledAt = now
		s.rssBytes = residentBytes()
		s.heapBytes = liveHeapBytes()
	}
}

// frameEnd notes the end of the Draw begun at start.
func (s *frameStats) frameEnd(start, now time.Time) {
	s.drawMs = smooth(s.drawMs, msSince(start, now))
}

func smooth(avg, sample float64) float64 {
	if avg == 0 {
		return sample
	}
	return avg + smoothing*(sample-avg)
}

// liveHeapBytes is the Go heap live after the last collection.
func liveHeapBytes() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// residentBytes is the process's resident set size from /proc/self/statm
// (Linux), or 0 where that file does not exist.
func residentBytes() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * uint64(os.Getpagesize())
}
