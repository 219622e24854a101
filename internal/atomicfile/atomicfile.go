// Package atomicfile writes output files so that a failure never destroys
// what was there: a regular file is written to a temporary file beside it,
// synced and renamed over it only once everything was written.
//
// The rules, by what the path names (symbolic links followed):
//
//   - nothing: the file is created, through a temporary file, with mode
//     0666 less the umask;
//   - a regular file: it is replaced through a temporary file in its own
//     directory (a symbolic link is resolved, so its target is replaced and
//     the link stays), keeping its permission bits (not its owner; another
//     hard link to it keeps the old contents); on any error it is
//     byte-identical to before and the temporary file is removed. A file
//     the caller could not write in place is refused, untouched, although
//     the rename would only need the directory: one without write
//     permission for the caller (access(2) W_OK), or with no write bit at
//     all (a read-only file, refused for root too);
//   - a character device (/dev/null, a terminal) or a named pipe (fifo):
//     written through in append mode, never created, removed or replaced;
//   - anything reached through /dev/ or /proc/ (/dev/stdout, /dev/fd/N,
//     /proc/self/fd/N), even when it resolves to a regular file such as a
//     redirected standard output: written through in append mode, as the
//     shell's redirection decides what happens to the file;
//   - a directory, a block device, a socket: refused with an error, the
//     entry untouched.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// maxLinks is how many symbolic links Write follows before giving up.
const maxLinks = 40

// Write writes the file at path with write; see the package doc for what
// happens per kind of path. write gets the open file (unbuffered: wrap it
// in a bufio.Writer and flush for many small writes) and its error is
// returned unchanged, so a caller can inject any failure; every other error
// names path. When write panics the temporary file is removed and the
// panic goes on.
func Write(path string, write func(w io.Writer) error) error {
	if path == "" {
		return errors.New("atomicfile: empty path")
	}
	t, err := resolve(path)
	if err != nil {
		return err
	}
	if t.through {
		return writeThrough(path, write)
	}
	return replace(t.path, t.perm, t.exists, write)
}

// target is what resolve found at a path.
type target struct {
	path    string      // the final path, symbolic links resolved
	perm    fs.FileMode // the permission bits of the existing file
	exists  bool        // a regular file is there
	through bool        // write through the path instead of replacing
}

// resolve decides how the file at path is written.
func resolve(path string) (target, error) {
	fi, statErr := os.Stat(path)
	switch {
	case statErr == nil:
		mode := fi.Mode()
		switch {
		case mode.IsDir():
			return target{}, fmt.Errorf("atomicfile: %s is a directory", path)
		case mode&fs.ModeNamedPipe != 0, mode&fs.ModeCharDevice != 0:
			return target{through: true}, nil
		case !mode.IsRegular():
			return target{}, fmt.Errorf("atomicfile: %s is not a regular file, a character device or a fifo (mode %s)", path, mode)
		}
	case !errors.Is(statErr, fs.ErrNotExist):
		return target{}, fmt.Errorf("atomicfile: %w", statErr)
	}
	final, special, err := followLinks(path)
	if err != nil {
		return target{}, err
	}
	if special {
		if statErr != nil {
			return target{}, fmt.Errorf("atomicfile: %w", statErr)
		}
		return target{through: true}, nil
	}
	if statErr != nil {
		return target{path: final}, nil
	}
	if err := writable(path, fi.Mode()); err != nil {
		return target{}, err
	}
	return target{path: final, perm: fi.Mode().Perm(), exists: true}, nil
}

// writable refuses the existing file at path (mode its mode) when the
// caller could not write it in place: no write bit at all (root could, but
// a read-only file says not to), or no write permission for the caller.
func writable(path string, mode fs.FileMode) error {
	if mode.Perm()&0o222 == 0 {
		return fmt.Errorf("atomicfile: %s is read-only (mode %s): refusing to replace it", path, mode.Perm())
	}
	if err := accessWrite(path); err != nil {
		return fmt.Errorf("atomicfile: %s is not writable by this user (mode %s): %w", path, mode.Perm(), err)
	}
	return nil
}

// Check reports, before anything is computed, what Write(path, ...) would
// refuse up front: a kind of path it does not write (a directory, a
// socket), an existing file or device the caller could not write in place
// (see the package doc), or a missing or unwritable directory for the
// temporary file of a regular file. It writes nothing. Write can still
// fail later (a full disk) and reports that then.
func Check(path string) error {
	if path == "" {
		return errors.New("atomicfile: empty path")
	}
	t, err := resolve(path)
	if err != nil {
		return err
	}
	if t.through {
		if fi, err := os.Stat(path); err == nil && fi.Mode()&(fs.ModeCharDevice|fs.ModeNamedPipe) != 0 {
			if err := accessWrite(path); err != nil {
				return fmt.Errorf("atomicfile: %s is not writable by this user: %w", path, err)
			}
		}
		return nil
	}
	dir := filepath.Dir(t.path)
	fi, err := os.Stat(dir)
	var pe *fs.PathError
	switch {
	case errors.As(err, &pe):
		return fmt.Errorf("atomicfile: %s: directory %s: %w", path, dir, pe.Err)
	case err != nil:
		return fmt.Errorf("atomicfile: %s: %w", path, err)
	case !fi.IsDir():
		return fmt.Errorf("atomicfile: %s: %s is not a directory", path, dir)
	}
	if err := accessDir(dir); err != nil {
		return fmt.Errorf("atomicfile: %s: cannot create a file in directory %s: %w", path, dir, err)
	}
	return nil
}

// followLinks resolves the symbolic links of path's last element (a link
// to a missing file gives the missing file's path) and reports whether
// path or any link on the way is under /dev/ or /proc/.
func followLinks(path string) (final string, special bool, err error) {
	p := path
	for i := 0; ; i++ {
		special = special || isSpecial(p)
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) || (err == nil && fi.Mode()&fs.ModeSymlink == 0) {
			return p, special, nil
		}
		if err != nil {
			return "", false, fmt.Errorf("atomicfile: %w", err)
		}
		if i == maxLinks {
			return "", false, fmt.Errorf("atomicfile: %s: more than %d symbolic links", path, maxLinks)
		}
		dest, err := os.Readlink(p)
		if err != nil {
			return "", false, fmt.Errorf("atomicfile: %w", err)
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(p), dest)
		}
		p = dest
	}
}

// isSpecial reports whether p is under /dev/ or /proc/.
func isSpecial(p string) bool {
	abs, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	return strings.HasPrefix(abs, "/dev/") || strings.HasPrefix(abs, "/proc/")
}

// writeThrough writes to an existing non-regular file (or a stream behind
// /dev or /proc) without creating, truncating or removing it.
func writeThrough(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("atomicfile: %w", err)
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("atomicfile: %w", err)
	}
	return nil
}

// replace writes path through a temporary file in its directory. perm is
// the existing file's permission bits when exists.
func replace(path string, perm fs.FileMode, exists bool, write func(io.Writer) error) error {
	f, err := createTemp(path)
	if err != nil {
		return err
	}
	tmp := f.Name()
	closed, done := false, false
	defer func() {
		// Also runs while a panic in write unwinds.
		if !done {
			if !closed {
				f.Close()
			}
			os.Remove(tmp)
		}
	}()
	if err := write(f); err != nil {
		return err
	}
	if exists {
		if err := f.Chmod(perm); err != nil {
			return fmt.Errorf("atomicfile: %w", err)
		}
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("atomicfile: sync %s: %w", tmp, err)
	}
	closed = true
	if err := f.Close(); err != nil {
		return fmt.Errorf("atomicfile: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("atomicfile: %w", err)
	}
	done = true
	syncDir(filepath.Dir(path))
	return nil
}

// createTemp creates a new hidden file beside path with mode 0666 less the
// umask (os.CreateTemp would give 0600).
func createTemp(path string) (*os.File, error) {
	dir, base := filepath.Split(path)
	for range 100 {
		name := filepath.Join(dir, "."+base+".tmp-"+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err // the temporary name means nothing to the user
			}
			return nil, fmt.Errorf("atomicfile: %s: create a temporary file in %s: %w", path, filepath.Dir(name), err)
		}
		return f, nil
	}
	return nil, fmt.Errorf("atomicfile: create temporary file for %s: 100 names taken", path)
}

// syncDir flushes a directory entry change to disk where the system allows
// it; the file itself is already synced, so a failure here (some file
// systems refuse to sync a directory) is not reported.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
