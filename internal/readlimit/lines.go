package readlimit

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ScanError returns the error of a bufio.Scanner of lines that stopped on
// line (counted from 1) of the file name, with its buffer bounded to
// maxLineBytes plus the newline; nil when it stopped at the end. A line
// over maxLineBytes is an error naming the file and the line (the bare
// bufio.ErrTooLong names neither); a *TooLargeError comes back as it is,
// as it names the file; any other error is wrapped with name.
func ScanError(err error, name string, line, maxLineBytes int) error {
	var tl *TooLargeError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, bufio.ErrTooLong):
		return fmt.Errorf("%s:%d: line longer than %d bytes", name, line, maxLineBytes)
	case errors.As(err, &tl):
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

// Records calls record for each line of r (name names it in errors) that
// is neither blank nor a comment (first non-blank character '#'), with the
// line's number (from 1) and its text trimmed of blanks, stopping at the
// first error. A line over maxLineBytes (its newline not counted), more
// than maxRecords records (called records in the message: "links"), or a
// record's error is an error naming the file and the line ("name:7:
// ..."); r's errors come back as ScanError gives them (a record cut short
// by a read error reports the read error).
func Records(r io.Reader, name, records string, maxLineBytes, maxRecords int, record func(line int, text string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, min(4096, maxLineBytes+1)), maxLineBytes+1) // +1: the newline
	line, n := 1, 0
	for ; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		if n == maxRecords {
			return fmt.Errorf("%s:%d: more than %d %s", name, line, maxRecords, records)
		}
		if err := record(line, text); err != nil {
			if sc.Err() != nil {
				break // the line was cut by the reader's error: report that
			}
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
		n++
	}
	return ScanError(sc.Err(), name, line, maxLineBytes)
}
