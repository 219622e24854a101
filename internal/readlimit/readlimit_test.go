package readlimit

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	sparse := filepath.Join(dir, "sparse")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(10 << 30); err != nil { // 10 GiB, no blocks
		t.Fatal(err)
	}
	f.Close()
	tests := []struct {
		name, path string
		limit      int64
		want       string // the data, or the error's text
		tooLarge   bool
	}{
		{"fits", small, 5, "hello", false},
		{"one byte over", small, 4, "small: test file is too large: 5 B, over the 4 B limit", true},
		{"sparse 10 GiB", sparse, 64 << 20, "sparse: test file is too large: 10 GiB, over the 64 MiB limit", true},
		{"directory", dir, 100, "is a directory, not a test file", false},
	}
	if runtime.GOOS == "linux" {
		tests = append(tests, struct {
			name, path string
			limit      int64
			want       string
			tooLarge   bool
		}{"dev zero", "/dev/zero", 1 << 20, "/dev/zero: test file is too large: it goes on past the 1 MiB limit", true})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			data, err := ReadFile(tc.path, "test file", tc.limit)
			if time.Since(start) > 5*time.Second {
				t.Errorf("took %v", time.Since(start))
			}
			var tl *TooLargeError
			if errors.As(err, &tl) != tc.tooLarge {
				t.Fatalf("err = %v, want a TooLargeError: %v", err, tc.tooLarge)
			}
			if err != nil {
				if !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err = %q, want it to contain %q", err, tc.want)
				}
				return
			}
			if string(data) != tc.want {
				t.Fatalf("data = %q, want %q", data, tc.want)
			}
		})
	}
}

func TestReaderStopsAtLimit(t *testing.T) {
	r := &Reader{R: strings.NewReader("abcdefgh"), Path: "p", What: "w", LimitBytes: 5}
	buf := make([]byte, 100)
	n, err := r.Read(buf)
	if n != 5 || string(buf[:n]) != "abcde" {
		t.Fatalf("read %q, want the 5 bytes up to the limit", buf[:n])
	}
	var tl *TooLargeError
	if !errors.As(err, &tl) {
		t.Fatalf("err = %v, want a TooLargeError", err)
	}
	if _, err := r.Read(buf); !errors.As(err, &tl) {
		t.Fatalf("second read: err = %v, want a TooLargeError", err)
	}
	exact := &Reader{R: strings.NewReader("abc"), LimitBytes: 3}
	got, err := readAll(exact)
	if err != nil || got != "abc" {
		t.Fatalf("a reader at exactly its limit: %q, %v", got, err)
	}
}

func readAll(r *Reader) (string, error) {
	var sb strings.Builder
	buf := make([]byte, 2)
	for {
		n, err := r.Read(buf)
		sb.Write(buf[:n])
		if err != nil {
			if errors.Is(err, io.EOF) {
				return sb.String(), nil
			}
			return sb.String(), err
		}
	}
}

func TestFormatBytes(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{{0, "0 B"}, {1023, "1023 B"}, {1024, "1 KiB"}, {1536, "1.5 KiB"}, {64 << 20, "64 MiB"}, {25769803776, "24 GiB"}} {
		if got := FormatBytes(tc.n); got != tc.want {
			t.Errorf("FormatBytes(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// TestReadAllChecked: input whose head check refuses is not read further;
// accepted input is read whole, within the limit.
func TestReadAllChecked(t *testing.T) {
	magic := func(head []byte) error {
		if !strings.HasPrefix(string(head), "MAGC") {
			return errors.New("no magic")
		}
		return nil
	}
	big := strings.Repeat("x", 1<<20)
	r := &countingReader{r: strings.NewReader(big)}
	if _, err := ReadAllChecked(r, "p", "w", 4<<20, 4, magic); err == nil || err.Error() != "no magic" {
		t.Fatalf("refused input: err %v", err)
	}
	if r.n > 64<<10 {
		t.Errorf("refused input: %d bytes read, want at most one buffer", r.n)
	}
	data, err := ReadAllChecked(strings.NewReader("MAGC"+big), "p", "w", 4<<20, 4, magic)
	if err != nil || len(data) != 4+len(big) {
		t.Fatalf("accepted input: %d bytes, %v", len(data), err)
	}
	var tl *TooLargeError
	if _, err := ReadAllChecked(strings.NewReader("MAGC"+big), "p", "w", 1000, 4, magic); !errors.As(err, &tl) {
		t.Errorf("over the limit: err %v, want a TooLargeError", err)
	}
	if _, err := ReadAllChecked(strings.NewReader("MA"), "p", "w", 1000, 4, magic); err == nil {
		t.Error("a short input passed the check")
	}
}
