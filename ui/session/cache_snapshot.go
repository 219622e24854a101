package session

import (
	"fmt"
	"path/filepath"

	"navviz/internal/readlimit"
)

// Snapshots of the tile cache: saved to and restored from files
// (cacheCore.snapshot, World.Snapshot and Restore) as cache jobs.

// SnapshotExt is the file extension of snapshots written by navviz.
const SnapshotExt = ".nvtc"

// SaveSnapshot writes the cache's snapshot to path (cacheCore.snapshot:
// tilecache.Cache.Snapshot with one agent size, world.World.Snapshot with
// several); a path without an extension gets ".nvtc". Errors are shown
// and returned.
func (a *App) SaveSnapshot(path string) (string, error) {
	if !a.CacheView().Has {
		return "", a.Report(ErrNoCache)
	}
	if path == "" {
		return "", a.Report(fmt.Errorf("ui: save snapshot: no file name"))
	}
	if filepath.Ext(path) == "" {
		path += SnapshotExt
	}
	err := a.CacheDo(CacheJob{name: "save snapshot", Run: func(k *CacheCore) func(*App) error {
		data, err := k.World.Snapshot()
		if err != nil {
			return failWith(fmt.Errorf("ui: save snapshot: %w", err))
		}
		if err := WriteFileAtomic(path, data); err != nil {
			return failWith(fmt.Errorf("ui: save snapshot: %w", err))
		}
		if err := k.recordSnapshot(false, path, data); err != nil {
			return failWith(err)
		}
		status := fmt.Sprintf("snapshot saved to %s (%d bytes, %s, %d obstacles, %d volumes, %s)",
			path, len(data), Plural(len(k.World.Agents()), "agent size"), len(k.Cache.Obstacles()), len(k.Cache.Volumes()), k.queuedText())
		return okWith(status)
	}})
	if err != nil {
		return "", err
	}
	return path, nil
}

// RestoreSnapshot reads a snapshot from path and restores it into the
// caches (cacheCore.restore: a World snapshot into every agent's cache, a
// tile cache snapshot into a World of one agent size). A file that cannot be read, or a snapshot that
// is corrupt or was taken from other geometry or settings, is an error
// shown in the window, and the cache is untouched. On success the undo
// history is cleared (its commands name obstacles the restored state may
// not have), the selection and the swap log too. The file is read when
// the job runs, after the jobs sent before (a snapshot saved just before
// is there).
func (a *App) RestoreSnapshot(path string) error {
	return a.restoreSnapshot(path, func(limit int64) ([]byte, error) {
		data, err := readlimit.ReadFile(path, "snapshot", limit)
		if err != nil {
			return nil, fmt.Errorf("ui: restore snapshot: %w", err)
		}
		return data, nil
	})
}

// RestoreSnapshotData is RestoreSnapshot on bytes; what names them in
// messages.
func (a *App) RestoreSnapshotData(data []byte, what string) error {
	return a.restoreSnapshot(what, func(int64) ([]byte, error) { return data, nil })
}

// restoreSnapshot restores the snapshot read returns (on the core's
// owner; read is given the World's snapshot size limit, the bound of a
// file read); what names it in messages.
func (a *App) restoreSnapshot(what string, read func(limit int64) ([]byte, error)) error {
	return a.CacheDo(CacheJob{name: "restore snapshot", Run: func(k *CacheCore) func(*App) error {
		if k.World == nil {
			return failWith(ErrNoCache)
		}
		data, err := read(k.World.MaxSnapshotBytes())
		if err != nil {
			return failWith(err)
		}
		if err := k.World.Restore(data); err != nil {
			return failWith(fmt.Errorf("ui: restore snapshot %s (the cache is unchanged): %w", what, err))
		}
		k.History.Clear()
		k.useEdits(nil)
		if err := k.recordSnapshot(true, what, data); err != nil {
			return failWith(err)
		}
		k.Swaps.Reset()
		status := fmt.Sprintf("restored %s: %d obstacles, %d volumes, %s (undo history cleared)",
			what, len(k.Cache.Obstacles()), len(k.Cache.Volumes()), k.queuedText())
		return func(a *App) error {
			a.Selection.SetObstacle(0)
			if a.toolEvents != nil {
				a.toolEvents.CacheReplaced(true)
			}
			a.bumpAll()
			a.ReportOK(status)
			return nil
		}
	}})
}
