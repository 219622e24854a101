package main

import (
	"fmt"
	"io"
	"os"
	"slices"

	"navviz/core/level"
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

// fileArg is a file named on a command line: what named it, for errors
// ("-o", "--cpuprofile", "LEVEL"), and its path ("" when not given).
type fileArg struct{ name, path string }

// checkOutputs is run by every command that writes files, before it does
// any work, on its outputs (-o, --cpuprofile) and the files it reads. It
// refuses, as a usage error, an output that is one of the inputs (the same
// regular file, through symbolic or hard links too: writing it would
// destroy what is read) or that two outputs name the same file; and, as
// an error naming the flag, an output atomicfile.Write would refuse (a
// directory, a read-only file, a file the user could not write, a missing
// or unwritable directory: atomicfile.Check). An output naming the
// standard output is not checked.
func checkOutputs(outs, ins []fileArg) error {
	for i, o := range outs {
		if o.path == "" || isStdout(o.path) {
			continue
		}
		for _, in := range ins {
			if in.path != "" && in.path != "-" && sameFile(o.path, in.path) {
				return usagef("%s %s is the %s %s: refusing to overwrite an input", o.name, o.path, in.name, in.path)
			}
		}
		_, statErr := os.Stat(o.path)
		for _, p := range outs[:i] {
			// sameDir compares the cleaned absolute paths: two names of
			// a file not made yet.
			if p.path != "" && (sameFile(o.path, p.path) || (statErr != nil && sameDir(o.path, p.path))) {
				return usagef("%s %s and %s %s are the same file", p.name, p.path, o.name, o.path)
			}
		}
		if err := atomicfile.Check(o.path); err != nil {
			return fmt.Errorf("%s: %w", o.name, err)
		}
	}
	return nil
}

// sameFile reports whether a and b name the same existing regular file
// (symbolic links followed; hard links are the same file). Devices such
// as /dev/null are never the same file as anything.
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil || !fa.Mode().IsRegular() {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// levelFile returns the level argument name as a file the command reads:
// "" for a built-in level, which reads no file.
func levelFile(name string) string {
	if slices.Contains(level.BuiltinNames(), name) {
		return ""
	}
	return name
}
