//go:build !linux

package region_test

// threadCPU returns 0: the system gives no thread CPU time here.
func threadCPU() int64 { return 0 }
