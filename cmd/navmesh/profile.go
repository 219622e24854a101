package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
)

// profileFlag adds --cpuprofile to fs: the file a command writes its CPU
// profile to (runtime/pprof; "" for none). `make pgo` merges such profiles
// into default.pgo, the profile `go build` optimizes navmesh with.
func profileFlag(fs *flag.FlagSet) *string {
	return fs.String("cpuprofile", "", "write a CPU profile of the command to `file` (go tool pprof reads it; make pgo merges them into default.pgo)")
}

// withCPUProfile runs f with the CPU profiled into the file at path (none
// when path is ""). The profile is written even when f fails; an error of
// f comes first.
func withCPUProfile(path string, f func() error) (err error) {
	if path == "" {
		return f()
	}
	out, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(out); err != nil {
		out.Close()
		return fmt.Errorf("--cpuprofile %s: %w", path, err)
	}
	defer func() {
		pprof.StopCPUProfile()
		if cerr := out.Close(); cerr != nil {
			err = errors.Join(err, fmt.Errorf("--cpuprofile %s: %w", path, cerr))
		}
	}()
	return f()
}
