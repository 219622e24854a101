package world

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/cespare/xxhash/v2"

	"navviz/tilecache"
)

// SnapshotMagic starts every World snapshot; SnapshotVersion is the format
// version this package writes and reads (docs/world.md).
const (
	SnapshotMagic   = "NVWD"
	SnapshotVersion = 1
)

// Snapshot returns the run-time state of every agent's cache in one
// checksummed blob: magic, version (uint16), agent count (uint16), then per
// agent its name (uint16 length, bytes), the cache's settings fingerprint
// (uint64) and its tilecache snapshot (uint32 length, bytes), then an
// xxhash64 of all that; integers little-endian. A World of one agent size
// writes its tile cache's own snapshot instead (docs/snapshot.md), the
// file a single cache, navviz and scenarios read.
func (w *World) Snapshot() ([]byte, error) {
	if err := w.check(); err != nil {
		return nil, err
	}
	if len(w.caches) == 1 {
		snap, err := w.caches[0].Snapshot()
		if err != nil {
			return nil, fmt.Errorf("world: Snapshot: %w", err)
		}
		return snap, nil
	}
	le := binary.LittleEndian
	b := append([]byte(nil), SnapshotMagic...)
	b = le.AppendUint16(b, SnapshotVersion)
	b = le.AppendUint16(b, uint16(len(w.caches)))
	for i, c := range w.caches {
		snap, err := c.Snapshot()
		if err != nil {
			return nil, fmt.Errorf("world: Snapshot: agent %q: %w", w.agents[i].Name, err)
		}
		b = le.AppendUint16(b, uint16(len(w.agents[i].Name)))
		b = append(b, w.agents[i].Name...)
		b = le.AppendUint64(b, c.Fingerprint())
		b = le.AppendUint32(b, uint32(len(snap)))
		b = append(b, snap...)
	}
	return le.AppendUint64(b, xxhash.Sum64(b)), nil
}

// MaxSnapshotBytes returns the largest snapshot the World writes and
// reads: with one agent size its cache's (tilecache.Cache.
// MaxSnapshotBytes), else the frame around every agent's cache snapshot,
// each at most its cache's limit (docs/world.md). Restore refuses larger
// input before reading it; a host reads a snapshot file with this bound.
// 0 for a World not made by Build.
func (w *World) MaxSnapshotBytes() int64 {
	if w.check() != nil {
		return 0
	}
	if len(w.caches) == 1 {
		return w.caches[0].MaxSnapshotBytes()
	}
	n := int64(len(SnapshotMagic) + 2 + 2 + 8) // header, checksum
	for i, c := range w.caches {
		n += int64(2+len(w.agents[i].Name)+8+4) + c.MaxSnapshotBytes()
	}
	return n
}

// splitSnapshot checks data's frame against w (magic, version, checksum,
// the same agents in the same order with the same settings fingerprints)
// and returns each agent's cache snapshot.
func (w *World) splitSnapshot(data []byte) ([][]byte, error) {
	le := binary.LittleEndian
	const head = len(SnapshotMagic) + 2 + 2
	if len(data) < head+8 || string(data[:len(SnapshotMagic)]) != SnapshotMagic {
		return nil, fmt.Errorf("not a World snapshot (%d bytes, want the magic %q and at least %d bytes)", len(data), SnapshotMagic, head+8)
	}
	body := data[:len(data)-8]
	// Only whether it matched: the checksum is the input's last 8 bytes.
	if le.Uint64(data[len(data)-8:]) != xxhash.Sum64(body) {
		return nil, fmt.Errorf("the checksum does not match the %d bytes: the snapshot is corrupt or truncated", len(data))
	}
	if v := le.Uint16(data[4:]); v != SnapshotVersion {
		return nil, fmt.Errorf("version %d, this build reads version %d", v, SnapshotVersion)
	}
	if n := int(le.Uint16(data[6:])); n != len(w.caches) {
		return nil, fmt.Errorf("%d agents, the World has %d", n, len(w.caches))
	}
	rest := body[head:]
	take := func(n int, what string) ([]byte, error) {
		if n > len(rest) {
			return nil, fmt.Errorf("%s: %d bytes, only %d left", what, n, len(rest))
		}
		out := rest[:n]
		rest = rest[n:]
		return out, nil
	}
	out := make([][]byte, len(w.caches))
	for i, a := range w.agents {
		at := fmt.Sprintf("agent %d", i)
		lb, err := take(2, at+" name length")
		if err != nil {
			return nil, err
		}
		name, err := take(int(le.Uint16(lb)), at+" name")
		if err != nil {
			return nil, err
		}
		if string(name) != a.Name {
			return nil, fmt.Errorf("%s is %q, the World's is %q", at, name, a.Name)
		}
		fb, err := take(8, at+" fingerprint")
		if err != nil {
			return nil, err
		}
		if fp, want := le.Uint64(fb), w.caches[i].Fingerprint(); fp != want {
			return nil, fmt.Errorf("agent %q: settings fingerprint %#x, the World's cache has %#x (other level or settings)", a.Name, fp, want)
		}
		sb, err := take(4, at+" snapshot length")
		if err != nil {
			return nil, err
		}
		if out[i], err = take(int(le.Uint32(sb)), at+" snapshot"); err != nil {
			return nil, err
		}
	}
	if len(rest) != 0 {
		return nil, fmt.Errorf("%d bytes after the last agent", len(rest))
	}
	return out, nil
}

// Restore restores a Snapshot of a World of the same level, settings and
// agents. It checks the whole blob and every agent's part before any
// cache changes (tilecache.RestoreAll), so a failed Restore changes
// nothing, not even what each cache knows of its last builds. A World of one agent size
// also restores a tile cache snapshot.
func (w *World) Restore(data []byte) error {
	if err := w.check(); err != nil {
		return err
	}
	if limit := w.MaxSnapshotBytes(); int64(len(data)) > limit {
		return fmt.Errorf("world: Restore: snapshot of %d bytes, over the World's snapshot limit of %d (docs/world.md)", len(data), limit)
	}
	single := !bytes.HasPrefix(data, []byte(SnapshotMagic))
	if single && len(w.caches) == 1 {
		if err := w.caches[0].Restore(data); err != nil {
			return fmt.Errorf("world: Restore: %w", err)
		}
		return nil
	}
	parts, err := w.splitSnapshot(data)
	if err != nil {
		if single {
			names := make([]string, len(w.agents))
			for i, a := range w.agents {
				names[i] = a.Name
			}
			return fmt.Errorf("world: Restore: %w; a tile cache snapshot holds one agent size, the World has %d (%s)", err, len(w.agents), strings.Join(names, ", "))
		}
		return fmt.Errorf("world: Restore: %w", err)
	}
	// Every part is checked (and every mesh state prepared) before any
	// cache changes: a refused part leaves every cache as it was, its
	// last-built areas too.
	if i, err := tilecache.RestoreAll(w.caches, parts); err != nil {
		if i >= 0 {
			return fmt.Errorf("world: Restore: agent %q: %w", w.agents[i].Name, err)
		}
		return fmt.Errorf("world: Restore: %w", err)
	}
	return nil
}
