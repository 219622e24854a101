package main

import (
	"fmt"
	"io"

	"navviz/internal/atomicfile"
)

// isStdout reports whether the -o value path names the standard output:
// "-", /dev/stdout, /dev/fd/1 or /proc/self/fd/1. The commands then write
// to their stdout writer and print their report to stderr, so the report
// never lands inside the output.
func isStdout(path string) bool {
	switch path {
	case "-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1":
		return true
	}
	return false
}

// writeOutput writes a command's output file with write: the stdout
// writer when isStdout(path); any other path goes through atomicfile.Write,
// so a regular file is replaced only once write succeeded (on failure it
// is left untouched and no temporary file stays), a device or fifo
// (/dev/null, /dev/stderr) is written through, and a directory is refused.
// write's own error comes back unchanged; an error of the file itself reads
// "write output: ...".
func writeOutput(path string, stdout io.Writer, write func(w io.Writer) error) error {
	if isStdout(path) {
		return write(stdout)
	}
	var werr error
	err := atomicfile.Write(path, func(w io.Writer) error {
		werr = write(w)
		return werr
	})
	if err != nil && werr == nil {
		return fmt.Errorf("write output: %w", err)
	}
	return err
}
