package cputime

import (
	"runtime"
	"testing"
)

// TestClocksAdvance checks that on Linux the clocks read and the thread's
// CPU time grows with work done on the thread.
func TestClocksAdvance(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, ok := Thread()
	p0, okP := Process()
	rss, okR := PeakRSS()
	if runtime.GOOS != "linux" {
		if ok || okP || okR {
			t.Fatalf("clocks read on %s: %v %v %v", runtime.GOOS, ok, okP, okR)
		}
		return
	}
	if !ok || !okP || !okR || rss == 0 {
		t.Fatalf("Thread %v %v, Process %v %v, PeakRSS %d %v", t0, ok, p0, okP, rss, okR)
	}
	x := uint64(1)
	for i := range 20_000_000 {
		x = x*6364136223846793005 + uint64(i)
	}
	t1, _ := Thread()
	p1, _ := Process()
	if t1 <= t0 || p1 < p0 || x == 0 {
		t.Errorf("thread CPU %v -> %v, process %v -> %v", t0, t1, p0, p1)
	}
}
