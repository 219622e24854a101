//go:build linux

package cputime

import "testing"

func TestStatusKB(t *testing.T) {
	status := "Name:\tx\nVmPeak:\t  10 kB\nVmHWM:\t    2436 kB\nVmRSS:\t 2000 kB\n"
	if v, ok := statusKB(status, "VmHWM:"); !ok || v != 2436 {
		t.Errorf("VmHWM %d %v, want 2436", v, ok)
	}
	if _, ok := statusKB("VmHWM:\tlots kB\n", "VmHWM:"); ok {
		t.Error("a bad value read")
	}
	if _, ok := statusKB("Name:\tx\n", "VmHWM:"); ok {
		t.Error("a missing field read")
	}
}
