//go:build unix

package main

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// flatOBJ is a 12 m square floor: a level that builds in a few
// milliseconds.
const flatOBJ = "v 0 0 0\nv 12 0 0\nv 12 0 12\nv 0 0 12\nf 1 3 2\nf 1 4 3\n"

// dirEntries lists dir's entry names, sorted.
func dirEntries(t *testing.T, dir string) []string {
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

// TestOutputNeverDestroys runs every command that writes -o against each
// kind of target: a new file, an existing file (replaced on success,
// byte-identical on failure), a symbolic link (its target replaced), a
// directory (refused) and /dev/null (written through). Each run checks
// the directory holds no temporary file afterwards.
func TestOutputNeverDestroys(t *testing.T) {
	src := t.TempDir()
	floor := filepath.Join(src, "floor.obj")
	bad := filepath.Join(src, "bad.obj")
	if err := os.WriteFile(floor, []byte(flatOBJ), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("v 0 0 0\nf 1 2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := []byte("previous contents, must survive a failure")

	type target int
	const (
		newFile target = iota
		existing
		symlink
		directory
		devNull
	)
	for _, tc := range []struct {
		name    string
		args    []string // the command line without -o
		target  target
		code    int
		wantErr string // in stderr when code != 0
	}{
		{"build new", []string{"build", floor}, newFile, 0, ""},
		{"build replaces", []string{"build", floor}, existing, 0, ""},
		{"build bad level", []string{"build", bad}, existing, 1, "face index 2 out of range"},
		{"build through link", []string{"build", floor}, symlink, 0, ""},
		{"build directory", []string{"build", floor}, directory, 1, "is a directory"},
		{"build /dev/null", []string{"build", floor}, devNull, 0, ""},
		{"export replaces", []string{"export-level", "terrain"}, existing, 0, ""},
		{"export bad seed", []string{"export-level", "terrain", "--seed", "-1"}, existing, 2, "seed"},
		{"export through link", []string{"export-level", "terrain"}, symlink, 0, ""},
		{"export directory", []string{"export-level", "terrain"}, directory, 1, "is a directory"},
		{"export /dev/null", []string{"export-level", "terrain"}, devNull, 0, ""},
		{"shot replaces", []string{"shot", "--level", floor, "--size", "16x16"}, existing, 0, ""},
		{"shot bad level", []string{"shot", "--level", bad, "--size", "16x16"}, existing, 1, "face index 2 out of range"},
		{"shot directory", []string{"shot", "--level", floor, "--size", "16x16"}, directory, 1, "is a directory"},
		{"shot /dev/null", []string{"shot", "--level", floor, "--size", "16x16"}, devNull, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out")
			var wantNames []string
			switch tc.target {
			case newFile:
				wantNames = []string{"out"}
			case existing:
				wantNames = []string{"out"}
			case symlink:
				out = filepath.Join(dir, "link")
				if err := os.Symlink("out", out); err != nil {
					t.Fatal(err)
				}
				wantNames = []string{"link", "out"}
			case directory:
				if err := os.Mkdir(out, 0o755); err != nil {
					t.Fatal(err)
				}
				wantNames = []string{"out"}
			case devNull:
				out = os.DevNull
			}
			if tc.target == existing || tc.target == symlink {
				if err := os.WriteFile(filepath.Join(dir, "out"), old, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			code, _, stderr := runCmd(t, append(tc.args, "-o", out)...)
			if code != tc.code || (code != 0 && !strings.Contains(stderr, tc.wantErr)) {
				t.Fatalf("code %d, stderr %q; want %d and %q", code, stderr, tc.code, tc.wantErr)
			}
			if strings.Contains(stderr, "panic") {
				t.Errorf("stderr %q", stderr)
			}
			if names := dirEntries(t, dir); !slices.Equal(names, wantNames) {
				t.Errorf("directory holds %q, want %q", names, wantNames)
			}
			switch tc.target {
			case directory:
				if fi, err := os.Stat(out); err != nil || !fi.IsDir() {
					t.Errorf("directory target changed: %v %v", fi, err)
				}
				if names := dirEntries(t, out); len(names) != 0 {
					t.Errorf("directory target holds %q", names)
				}
				return
			case devNull:
				if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
					t.Errorf("%s is no longer a character device: %v %v", os.DevNull, fi, err)
				}
				return
			case symlink:
				if fi, err := os.Lstat(out); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
					t.Errorf("link replaced by a file: %v %v", fi, err)
				}
			}
			got, err := os.ReadFile(filepath.Join(dir, "out"))
			if err != nil {
				t.Fatal(err)
			}
			if code != 0 {
				if !bytes.Equal(got, old) {
					t.Errorf("failed run changed the existing target: %q", got)
				}
				return
			}
			if bytes.Equal(got, old) || len(got) == 0 {
				t.Errorf("successful run left %d bytes, old contents: %v", len(got), bytes.Equal(got, old))
			}
			if tc.target == existing {
				if fi, err := os.Stat(filepath.Join(dir, "out")); err != nil || fi.Mode().Perm() != 0o600 {
					t.Errorf("replaced file lost its mode 0600: %v %v", fi, err)
				}
			}
		})
	}
}

// TestWriteOutputFailure injects a failure half way through the write: the
// existing target stays byte-identical and no temporary file is left, and
// the write's own error comes back unchanged.
func TestWriteOutputFailure(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "mesh.bin")
	old := []byte("the mesh of yesterday")
	if err := os.WriteFile(out, old, 0o644); err != nil {
		t.Fatal(err)
	}
	injected := errors.New("encoder died")
	for _, path := range []string{out, "-"} {
		var stdout bytes.Buffer
		err := writeOutput(path, &stdout, func(w io.Writer) error {
			if _, err := w.Write(bytes.Repeat([]byte("x"), 100_000)); err != nil {
				return err
			}
			return injected
		})
		if !errors.Is(err, injected) || strings.Contains(err.Error(), "write output") {
			t.Errorf("%s: err %v, want the write's own error", path, err)
		}
	}
	if got, err := os.ReadFile(out); err != nil || !bytes.Equal(got, old) {
		t.Errorf("target changed: %q %v", got, err)
	}
	if names := dirEntries(t, dir); !slices.Equal(names, []string{"mesh.bin"}) {
		t.Errorf("directory holds %q", names)
	}
}

// TestOutputFifo writes export-level to a named pipe read by a goroutine:
// the data goes through and the fifo stays a fifo.
func TestOutputFifo(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- []byte("open: " + err.Error())
			return
		}
		defer f.Close()
		b, err := io.ReadAll(f)
		if err != nil {
			b = []byte("read: " + err.Error())
		}
		got <- b
	}()
	code, _, stderr := runCmd(t, "export-level", "terrain", "-o", fifo)
	if code != 0 {
		t.Fatalf("code %d, stderr %q", code, stderr)
	}
	_, want, _ := runCmd(t, "export-level", "terrain", "-o", "-")
	if b := <-got; string(b) != want {
		t.Errorf("fifo reader got %d bytes (%.40q), want the %d bytes of -o -", len(b), b, len(want))
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("%s is no longer a fifo: %v %v", fifo, fi, err)
	}
	if names := dirEntries(t, dir); !slices.Equal(names, []string{"pipe"}) {
		t.Errorf("directory holds %q", names)
	}
}

// TestOutputStdoutNames: -o /dev/stdout (and its other names) is -o -: the
// output alone on stdout, the report on stderr.
func TestOutputStdoutNames(t *testing.T) {
	_, want, _ := runCmd(t, "export-level", "terrain", "-o", "-")
	if len(want) == 0 {
		t.Fatal("-o - wrote nothing")
	}
	for _, name := range []string{"-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"} {
		code, stdout, stderr := runCmd(t, "export-level", "terrain", "-o", name)
		if code != 0 || stdout != want || !strings.Contains(stderr, "wrote "+name) {
			t.Errorf("-o %s: code %d, %d bytes on stdout (want the %d of -o -), stderr %q", name, code, len(stdout), len(want), stderr)
		}
	}
}
