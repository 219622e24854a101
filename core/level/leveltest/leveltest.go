// Package leveltest finds and loads the levels the tests of navviz build:
// the shared test levels (Wavefront OBJ files in ../shared/levels beside
// the repository, such as dungeon.obj and nav_test.obj) and the built-in
// generated ones. A test whose shared level is absent is skipped, or fails
// when RequireEnv is set (make test sets it: a run without the levels must
// not pass as if it had tested them).
//
// It sits beside core/level, as net/http/httptest sits beside net/http, so
// that the tests of core/..., tilecache and the commands can all use it; it
// imports only core/level, so the tests of every package but level can.
package leveltest

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"navviz/core/level"
)

// Dir returns the folder of the shared test levels: ../shared/levels
// beside the repository root, the first folder holding go.mod at or above
// the test's working directory.
func Dir(tb testing.TB) string {
	tb.Helper()
	wd, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(filepath.Dir(dir), "shared", "levels")
		}
		up := filepath.Dir(dir)
		if up == dir {
			tb.Fatalf("no go.mod at or above %s: cannot find the repository root", wd)
		}
		dir = up
	}
}

// Path returns the path of the shared test level name ("dungeon.obj"; a
// name without an extension gets .obj), skipping the test when the file is
// absent.
func Path(tb testing.TB, name string) string {
	tb.Helper()
	if filepath.Ext(name) == "" {
		name += ".obj"
	}
	path := filepath.Join(Dir(tb), name)
	if _, err := os.Stat(path); err != nil {
		Missing(tb, path, err)
	}
	return path
}

// RequireEnv names the environment variable that turns a missing shared
// level from a skip into a failure (make test sets it to 1).
const RequireEnv = "NAVVIZ_REQUIRE_LEVELS"

// Missing ends a test whose shared level (or folder) path is absent: it
// fails when RequireEnv is set and skips otherwise, saying how to get the
// levels either way.
func Missing(tb testing.TB, path string, err error) {
	tb.Helper()
	const how = "the shared test levels live in ../shared/levels beside the repository: check out or copy the shared folder there"
	if os.Getenv(RequireEnv) != "" {
		tb.Fatalf("test level %s not found (%v; %s=1 makes this a failure): %s", path, err, RequireEnv, how)
	}
	tb.Skipf("test level %s not found (%v): %s", path, err, how)
}

// Load reads the shared test level name (see Path), skipping the test when
// it is absent.
func Load(tb testing.TB, name string) *level.Soup {
	tb.Helper()
	s, err := level.LoadOBJ(Path(tb, name))
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// Soup returns the built-in level name (one of level.BuiltinNames: "city",
// "terrain", with level.DefaultSeed) or else the shared test level name
// (Load).
func Soup(tb testing.TB, name string) *level.Soup {
	tb.Helper()
	if !slices.Contains(level.BuiltinNames(), name) {
		return Load(tb, name)
	}
	s, err := level.Builtin(name)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}
