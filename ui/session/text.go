package session

import (
	"fmt"
	"slices"
	"strings"

	"navviz/core/level"
	"navviz/scenario"
)

// Plural returns "1 tile", "2 tiles".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// DisplayName shortens a level path to its file name.
func DisplayName(lvl string) string {
	if i := strings.LastIndexAny(lvl, `/\`); i >= 0 {
		return lvl[i+1:]
	}
	return lvl
}

// IsBuiltin reports whether name is a built-in level name.
func IsBuiltin(name string) bool { return slices.Contains(level.BuiltinNames(), name) }

// SnapshotRefText words a snapshot slot or file.
func SnapshotRefText(r *scenario.SnapshotRef) string {
	if r.Slot != "" {
		return "slot " + r.Slot
	}
	return "file " + r.File
}
