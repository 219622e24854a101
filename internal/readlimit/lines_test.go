package readlimit

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestScanError scans lines bounded to 8 bytes: a longer line names the
// file and the line, a size error is returned unwrapped, a read error is
// wrapped with the name.
func TestScanError(t *testing.T) {
	readErr := errors.New("disk on fire")
	for _, tc := range []struct {
		name string
		r    io.Reader
		want string // "" for nil
	}{
		{"fits", strings.NewReader("12345678\nabc\n"), ""},
		{"long", strings.NewReader("ok\n123456789\n"), "f:2: line longer than 8 bytes"},
		{"too large", &Reader{R: strings.NewReader("a\nb\nc\n"), Path: "f", What: "list file", LimitBytes: 3}, "f: list file is too large: it goes on past the 3 B limit"},
		{"read error", io.MultiReader(strings.NewReader("a\n"), errReader{readErr}), "f: disk on fire"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := bufio.NewScanner(tc.r)
			sc.Buffer(nil, 8+1)
			line := 1
			for ; sc.Scan(); line++ {
			}
			got := ""
			if err := ScanError(sc.Err(), "f", line, 8); err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("err %q, want %q", got, tc.want)
			}
		})
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }
