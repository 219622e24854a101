//go:build unix

package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// writeString returns a write function that writes s.
func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

var errInjected = errors.New("injected failure")

// failAfter writes s and then fails, as an encoder that dies half way.
func failAfter(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		if _, err := io.WriteString(w, s); err != nil {
			return err
		}
		return errInjected
	}
}

// dirNames lists the entries of dir, sorted.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteRegular(t *testing.T) {
	type setup func(t *testing.T, dir string) (path string)
	plain := func(t *testing.T, dir string) string { return filepath.Join(dir, "out") }
	existing := func(t *testing.T, dir string) string {
		p := filepath.Join(dir, "out")
		if err := os.WriteFile(p, []byte("old contents"), 0o640); err != nil {
			t.Fatal(err)
		}
		return p
	}
	link := func(rel bool) setup {
		return func(t *testing.T, dir string) string {
			existing(t, dir)
			dest := filepath.Join(dir, "out")
			if rel {
				dest = "out"
			}
			l := filepath.Join(dir, "link")
			if err := os.Symlink(dest, l); err != nil {
				t.Fatal(err)
			}
			return l
		}
	}
	chain := func(t *testing.T, dir string) string {
		l := link(true)(t, dir)
		l2 := filepath.Join(dir, "link2")
		if err := os.Symlink(l, l2); err != nil {
			t.Fatal(err)
		}
		return l2
	}
	dangling := func(t *testing.T, dir string) string {
		l := filepath.Join(dir, "link")
		if err := os.Symlink("out", l); err != nil {
			t.Fatal(err)
		}
		return l
	}
	for _, tc := range []struct {
		name      string
		setup     setup
		write     func(io.Writer) error
		wantErr   error    // errors.Is match, or nil for success
		wantNames []string // the directory's entries afterwards
		want      string   // contents of dir/out afterwards, if it exists
		wantPerm  fs.FileMode
	}{
		{"create", plain, writeString("new"), nil, []string{"out"}, "new", 0},
		{"create fails", plain, failAfter("partial"), errInjected, nil, "", 0},
		{"replace", existing, writeString("new"), nil, []string{"out"}, "new", 0o640},
		{"replace fails", existing, failAfter("partial"), errInjected, []string{"out"}, "old contents", 0o640},
		{"replace empty", existing, writeString(""), nil, []string{"out"}, "", 0o640},
		{"absolute link", link(false), writeString("new"), nil, []string{"link", "out"}, "new", 0o640},
		{"relative link", link(true), writeString("new"), nil, []string{"link", "out"}, "new", 0o640},
		{"link fails", link(true), failAfter("partial"), errInjected, []string{"link", "out"}, "old contents", 0o640},
		{"link chain", chain, writeString("new"), nil, []string{"link", "link2", "out"}, "new", 0o640},
		{"dangling link", dangling, writeString("new"), nil, []string{"link", "out"}, "new", 0},
		{"dangling link fails", dangling, failAfter("partial"), errInjected, []string{"link"}, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := tc.setup(t, dir)
			err := Write(path, tc.write)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("Write: err %v, want %v", err, tc.wantErr)
			}
			names := dirNames(t, dir)
			if !slices.Equal(names, tc.wantNames) {
				t.Errorf("directory holds %q, want %q (no temporary file left)", names, tc.wantNames)
			}
			if slices.Contains(names, "out") {
				got, err := os.ReadFile(filepath.Join(dir, "out"))
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != tc.want {
					t.Errorf("out holds %q, want %q", got, tc.want)
				}
			}
			if path != filepath.Join(dir, "out") {
				fi, err := os.Lstat(path)
				if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
					t.Errorf("%s is no longer a symbolic link: %v %v", path, fi, err)
				}
			}
			if tc.wantPerm != 0 {
				fi, err := os.Stat(filepath.Join(dir, "out"))
				if err != nil {
					t.Fatal(err)
				}
				if fi.Mode().Perm() != tc.wantPerm {
					t.Errorf("mode %v, want %v", fi.Mode().Perm(), tc.wantPerm)
				}
			}
		})
	}
}

func TestWriteNewFileMode(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	p := filepath.Join(t.TempDir(), "out")
	if err := Write(p, writeString("x")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("new file mode %v, want 0644 (0666 less umask 022)", fi.Mode().Perm())
	}
}

func TestWritePanicRemovesTemp(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Errorf("recovered %v, want the write's panic", r)
			}
		}()
		Write(p, func(w io.Writer) error {
			io.WriteString(w, "partial")
			panic("boom")
		})
	}()
	if names := dirNames(t, dir); !slices.Equal(names, []string{"out"}) {
		t.Errorf("directory holds %q after a panic", names)
	}
	if got, _ := os.ReadFile(p); string(got) != "old" {
		t.Errorf("out holds %q after a panic", got)
	}
}

func TestWriteRefused(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, "keep"), []byte("k"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub", filepath.Join(dir, "dirlink")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop", filepath.Join(dir, "loop")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, want string
	}{
		{"directory", sub, "is a directory"},
		{"link to directory", filepath.Join(dir, "dirlink"), "is a directory"},
		{"missing directory", filepath.Join(dir, "no", "such", "out"), "no such file or directory"},
		{"link loop", filepath.Join(dir, "loop"), "symbolic links"},
		{"empty path", "", "empty path"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			called := false
			err := Write(tc.path, func(w io.Writer) error { called = true; return nil })
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Write(%q): err %v, want %q", tc.path, err, tc.want)
			}
			if tc.path != "" && !strings.Contains(err.Error(), tc.path) {
				t.Errorf("error %q does not name %s", err, tc.path)
			}
			if called {
				t.Error("write was called for a refused target")
			}
			if names := dirNames(t, sub); !slices.Equal(names, []string{"keep"}) {
				t.Errorf("directory holds %q, want [keep]", names)
			}
			if names := dirNames(t, dir); !slices.Equal(names, []string{"dirlink", "loop", "sub"}) {
				t.Errorf("parent holds %q", names)
			}
		})
	}
}

func TestWriteDevNull(t *testing.T) {
	for _, p := range []string{"/dev/null", "/dev/zero"} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := Write(p, writeString("discarded")); err != nil {
			t.Errorf("Write(%s): %v", p, err)
		}
		if err := Write(p, failAfter("x")); !errors.Is(err, errInjected) {
			t.Errorf("Write(%s) failing: err %v", p, err)
		}
		after, err := os.Stat(p)
		if err != nil || after.Mode() != fi.Mode() {
			t.Errorf("%s changed: %v -> %v (%v)", p, fi.Mode(), after, err)
		}
	}
	if names := dirNames(t, "/dev"); slices.ContainsFunc(names, func(n string) bool { return strings.Contains(n, ".tmp-") }) {
		t.Errorf("temporary file left in /dev")
	}
}

func TestWriteFifo(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(p)
		if err != nil {
			got <- "open: " + err.Error()
			return
		}
		defer f.Close()
		b, err := io.ReadAll(f)
		if err != nil {
			got <- "read: " + err.Error()
			return
		}
		got <- string(b)
	}()
	if err := Write(p, writeString("through the pipe")); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through the pipe" {
		t.Errorf("reader got %q", s)
	}
	fi, err := os.Lstat(p)
	if err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("%s is no longer a fifo: %v %v", p, fi, err)
	}
	if names := dirNames(t, dir); !slices.Equal(names, []string{"fifo"}) {
		t.Errorf("directory holds %q", names)
	}
}

// TestWriteProcFd writes to /proc/self/fd/N of a file opened for append,
// as "-o /dev/stdout >> file" does: the file is appended to, not replaced.
func TestWriteProcFd(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/self/fd is Linux only")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "redirected")
	if err := os.WriteFile(p, []byte("earlier output\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	before, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	fdPath := fmt.Sprintf("/proc/self/fd/%d", f.Fd())
	if err := Write(fdPath, writeString("more\n")); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "earlier output\nmore\n" {
		t.Errorf("file holds %q, want the earlier output and the appended line", got)
	}
	after, err := os.Stat(p)
	if err != nil || !os.SameFile(before, after) {
		t.Errorf("file was replaced, not written through")
	}
	if names := dirNames(t, dir); !slices.Equal(names, []string{"redirected"}) {
		t.Errorf("directory holds %q", names)
	}
}

// TestWriteReadOnlyTarget: a file the caller could not write in place is
// refused by Check and by Write, untouched and with no temporary file
// left, although the directory is writable: no write bit at all (refused
// for root too), or a write bit only for the group (the owner's class
// applies to the owner; root may write it, so it is replaced then).
func TestWriteReadOnlyTarget(t *testing.T) {
	root := os.Geteuid() == 0
	for _, tc := range []struct {
		name    string
		perm    fs.FileMode
		refused bool
		want    string
	}{
		{"0444", 0o444, true, "is read-only (mode -r--r--r--)"},
		{"0400", 0o400, true, "is read-only"},
		{"group write only", 0o464, !root, "is not writable by this user"},
		{"0644", 0o644, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "out")
			if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(p, tc.perm); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(dir, "link")
			if err := os.Symlink("out", link); err != nil {
				t.Fatal(err)
			}
			for _, path := range []string{p, link} {
				cerr := Check(path)
				called := false
				werr := Write(path, func(w io.Writer) error { called = true; return writeString("new")(w) })
				if !tc.refused {
					if cerr != nil || werr != nil {
						t.Fatalf("%s: Check %v, Write %v; want both to pass", path, cerr, werr)
					}
					continue
				}
				for _, err := range []error{cerr, werr} {
					if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
						t.Errorf("%s: err %v, want %q naming the path", path, err, tc.want)
					}
				}
				if called {
					t.Errorf("%s: write was called for a refused target", path)
				}
				if got, _ := os.ReadFile(p); string(got) != "old" {
					t.Errorf("%s: out holds %q", path, got)
				}
				if names := dirNames(t, dir); !slices.Equal(names, []string{"link", "out"}) {
					t.Errorf("%s: directory holds %q", path, names)
				}
			}
		})
	}
}

// TestCheck: Check passes what Write would write and refuses, naming the
// path, what it would refuse, without creating anything.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	locked := filepath.Join(dir, "locked")
	if err := os.Mkdir(locked, 0o555); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, want string // want "" for no error
	}{
		{"new file", filepath.Join(dir, "new"), ""},
		{"existing file", file, ""},
		{"dev null", os.DevNull, ""},
		{"empty", "", "empty path"},
		{"directory", sub, "is a directory"},
		{"missing directory", filepath.Join(dir, "no", "out"), "directory " + filepath.Join(dir, "no") + ": no such file or directory"},
		{"file as directory", filepath.Join(file, "out"), "not a directory"},
		{"unwritable directory", filepath.Join(locked, "out"), "cannot create a file in directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "unwritable directory" && os.Geteuid() == 0 {
				t.Skip("root may create files in a 0555 directory")
			}
			err := Check(tc.path)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Check(%s): %v", tc.path, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.path) {
				t.Errorf("Check(%q): err %v, want %q naming the path", tc.path, err, tc.want)
			}
		})
	}
	if names := dirNames(t, dir); !slices.Equal(names, []string{"file", "locked", "sub"}) {
		t.Errorf("Check created files: %q", names)
	}
}
