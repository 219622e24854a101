package readlimit

import (
	"bufio"
	"errors"
	"fmt"
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
