// Package readlimit reads files with a size bound, so that no input (a
// scenario, a snapshot, an OBJ level, /dev/zero, a 10 GB sparse file) can
// make the process grow past what that kind of file can validly hold.
//
// A regular file's size is checked before a byte is read; a file whose size
// is not known in advance (a pipe, a character device such as /dev/zero)
// is read up to one byte past the bound and refused there. Either way the
// error is a *TooLargeError naming the file, its size (when known) and the
// limit.
package readlimit

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// TooLargeError is the error for a file over its limit.
type TooLargeError struct {
	Path       string // the file's name as given
	What       string // what kind of file it was read as ("scenario file")
	SizeBytes  int64  // its size, or -1 when it was read past the limit without a known size
	LimitBytes int64  // the limit
}

func (e *TooLargeError) Error() string {
	if e.SizeBytes < 0 {
		return fmt.Sprintf("%s: %s is too large: it goes on past the %s limit", e.Path, e.What, FormatBytes(e.LimitBytes))
	}
	return fmt.Sprintf("%s: %s is too large: %s, over the %s limit", e.Path, e.What, FormatBytes(e.SizeBytes), FormatBytes(e.LimitBytes))
}

// FormatBytes writes n as a short size with a binary unit ("512 B",
// "64 MiB", "23.9 GiB").
func FormatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	v, i := float64(n)/unit, 0
	for v >= unit && i < len(units)-1 {
		v /= unit
		i++
	}
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d %s", int64(v), units[i])
	}
	return fmt.Sprintf("%.1f %s", v, units[i])
}

// ReadFile reads the whole file at path (what names its kind in errors),
// refusing it with a *TooLargeError when it holds more than limitBytes. A
// directory is an error too. Other errors are os errors, which name path.
func ReadFile(path, what string, limitBytes int64) ([]byte, error) {
	f, err := Open(path, what, limitBytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var buf []byte
	if st, err := f.f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > 0 {
		buf = make([]byte, 0, st.Size()+1) // +1: the read that sees EOF
	}
	for {
		if len(buf) == cap(buf) {
			// Doubling: a file of unknown size (a pipe, /dev/zero) costs
			// at most about twice what it holds in allocations, where
			// append's growth by a quarter cost five times.
			buf = slices.Grow(buf, max(cap(buf), 512))
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// File is an open file whose reads fail with a *TooLargeError once more than
// its limit has been read.
type File struct {
	f    *os.File
	r    Reader
	path string
}

// Open opens the file at path for reading with the bound limitBytes (what
// names its kind in errors). A regular file larger than the limit, or a
// directory, is refused here, before anything is read.
func Open(path, what string, limitBytes int64) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if st.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s: is a directory, not a %s", path, what)
	}
	if st.Mode().IsRegular() && st.Size() > limitBytes {
		f.Close()
		return nil, &TooLargeError{Path: path, What: what, SizeBytes: st.Size(), LimitBytes: limitBytes}
	}
	return &File{f: f, r: Reader{R: f, Path: path, What: what, LimitBytes: limitBytes}, path: path}, nil
}

// Read reads from the file; see Reader.
func (f *File) Read(p []byte) (int, error) { return f.r.Read(p) }

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }

// Reader reads from R and fails with a *TooLargeError once R has given more
// than LimitBytes bytes (the bytes up to the limit are returned first).
type Reader struct {
	R          io.Reader
	Path, What string // for the error
	LimitBytes int64
	n          int64 // bytes read so far
}

// Read reads from r.R; see Reader.
func (r *Reader) Read(p []byte) (int, error) {
	if r.n > r.LimitBytes {
		return 0, &TooLargeError{Path: r.Path, What: r.What, SizeBytes: -1, LimitBytes: r.LimitBytes}
	}
	// Ask for at most one byte past the limit: that byte proves the file
	// too large without reading any further.
	if rest := r.LimitBytes + 1 - r.n; int64(len(p)) > rest {
		p = p[:rest]
	}
	n, err := r.R.Read(p)
	r.n += int64(n)
	if r.n > r.LimitBytes {
		return n - int(r.n-r.LimitBytes), &TooLargeError{Path: r.Path, What: r.What, SizeBytes: -1, LimitBytes: r.LimitBytes}
	}
	return n, err
}

// ReadAllChecked reads r whole, at most limitBytes (path and what name it
// in errors), once check has accepted its first headBytes bytes (fewer
// when the input is shorter): input that check refuses, such as /dev/zero
// given for a file with a magic number, costs no more than those bytes.
// check's error is returned as it is.
func ReadAllChecked(r io.Reader, path, what string, limitBytes int64, headBytes int, check func(head []byte) error) ([]byte, error) {
	br := bufio.NewReaderSize(&Reader{R: r, Path: path, What: what, LimitBytes: limitBytes}, max(headBytes, 64<<10))
	head, err := br.Peek(headBytes)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if err := check(head); err != nil {
		return nil, err
	}
	return io.ReadAll(br)
}
