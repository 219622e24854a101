package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/pprof"

	"navviz/internal/atomicfile"
)

// profileFlag adds --cpuprofile to fs: the file a command writes its CPU
// profile to (runtime/pprof; "" for none). `make pgo` merges such profiles
// into default.pgo, the profile `go build` optimizes navmesh with. The
// command checks it with its other outputs (checkOutputs) before it runs.
func profileFlag(fs *flag.FlagSet) *string {
	return fs.String("cpuprofile", "", "write a CPU profile of the command to `file` (go tool pprof reads it; make pgo merges them into default.pgo)")
}

// withCPUProfile runs f with the CPU profiled (none when path is ""). The
// profile is gathered in memory and written to path through
// atomicfile.Write once f has returned, also when f failed: nothing is
// truncated before, and a failed write (a full disk, /dev/full) is an
// error naming the flag. An error of f comes first.
func withCPUProfile(path string, f func() error) error {
	if path == "" {
		return f()
	}
	var buf bytes.Buffer
	if err := pprof.StartCPUProfile(&buf); err != nil {
		return fmt.Errorf("--cpuprofile %s: %w", path, err)
	}
	err := f()
	pprof.StopCPUProfile()
	if werr := atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(buf.Bytes())
		return err
	}); werr != nil {
		err = errors.Join(err, fmt.Errorf("--cpuprofile %s: %w", path, werr))
	}
	return err
}
