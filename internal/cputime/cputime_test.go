package cputime

import (
	"fmt"
	"os"
	"os/exec"
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

// TestPeakRSSOwn: a process started by a parent with a large resident set
// reports its own peak, not the parent's (getrusage's ru_maxrss keeps the
// parent's across the vfork and exec of os/exec, as under `go run`).
func TestPeakRSSOwn(t *testing.T) {
	if os.Getenv("CPUTIME_PEAK_CHILD") != "" {
		rss, _ := PeakRSS()
		fmt.Printf("peak %d\n", rss)
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("PeakRSS reads nothing here")
	}
	const parentBytes = 256 << 20
	big := make([]byte, parentBytes)
	for i := 0; i < len(big); i += 4096 {
		big[i] = 1
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestPeakRSSOwn$")
	cmd.Env = append(os.Environ(), "CPUTIME_PEAK_CHILD=1")
	out, err := cmd.Output()
	runtime.KeepAlive(big)
	if err != nil {
		t.Fatalf("child: %v (%s)", err, out)
	}
	var rss uint64
	if _, err := fmt.Sscanf(string(out), "peak %d", &rss); err != nil {
		t.Fatalf("child said %q: %v", out, err)
	}
	if rss == 0 || rss > parentBytes/2 {
		t.Errorf("the child's peak RSS is %d MiB, want its own (a few MiB), not the parent's %d MiB", rss>>20, parentBytes>>20)
	}
}
