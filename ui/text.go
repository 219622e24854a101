package ui

import (
	"fmt"
	"strings"

	"navviz/core/level"
)

// plural returns "1 tile", "2 tiles".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// displayName shortens a level path to its file name.
func displayName(lvl string) string {
	if i := strings.LastIndexAny(lvl, `/\`); i >= 0 {
		return lvl[i+1:]
	}
	return lvl
}

// isBuiltin reports whether name is a built-in level name.
func isBuiltin(name string) bool {
	for _, n := range level.BuiltinNames() {
		if n == name {
			return true
		}
	}
	return false
}
