package session

import (
	"io"

	"navviz/internal/atomicfile"
)

// WriteFileAtomic writes data to path through atomicfile.Write (an
// existing file is replaced only once everything was written).
func WriteFileAtomic(path string, data []byte) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
