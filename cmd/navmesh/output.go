package main

import (
	"fmt"
	"io"

	"navviz/internal/atomicfile"
)

// writeOutput writes a command's output file with write: "-" is stdout,
// any other path goes through atomicfile.Write, so a regular file is
// replaced only once write succeeded (on failure it is left untouched and
// no temporary file stays), a device or fifo (/dev/null, /dev/stdout) is
// written through, and a directory is refused. write's own error comes back
// unchanged; an error of the file itself reads "write output: ...".
func writeOutput(path string, stdout io.Writer, write func(w io.Writer) error) error {
	if path == "-" {
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
