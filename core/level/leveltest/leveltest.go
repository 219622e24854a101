// Package leveltest finds and loads the levels the tests of navviz build:
// the shared test levels (Wavefront OBJ files in ../shared/levels beside
// the repository, such as dungeon.obj and nav_test.obj) and the built-in
// generated ones. A test whose shared level is absent is skipped, or fails
// when RequireEnv is set (make test sets it), so that a run without the
// levels cannot pass.
//
// It sits beside core/level, as net/http/httptest sits beside net/http, so
// that the tests of core/..., tilecache and the commands can all use it; it
// imports only core/level, so the tests of every package but level can.
package leveltest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"navviz/core/level"
)

// RequireEnv, when set to anything but "" (make test sets
// NAVVIZ_REQUIRE_LEVELS=1), turns a missing shared level from a skip into
// a failure.
const RequireEnv = "NAVVIZ_REQUIRE_LEVELS"

// Missing reports a missing shared level (what, e.g. "test level
// ../shared/levels/dungeon.obj", and the error that found it missing):
// the test fails when RequireEnv is set, else it is skipped. The message
// says how to get the levels.
func Missing(tb testing.TB, what string, err error) {
	tb.Helper()
	msg := fmt.Sprintf("%s not found (%v): the shared test levels live in ../shared/levels beside the repository; "+
		"check out the project's shared folder next to the navviz checkout (../shared/levels/dungeon.obj, nav_test.obj, bridge.obj)", what, err)
	if os.Getenv(RequireEnv) != "" {
		tb.Fatalf("%s; %s is set (make test sets it), so a missing level fails instead of skipping", msg, RequireEnv)
	}
	tb.Skip(msg)
}

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
// name without an extension gets .obj); when the file is absent the test
// is skipped, or fails under RequireEnv (Missing).
func Path(tb testing.TB, name string) string {
	tb.Helper()
	if filepath.Ext(name) == "" {
		name += ".obj"
	}
	path := filepath.Join(Dir(tb), name)
	if _, err := os.Stat(path); err != nil {
		Missing(tb, "test level "+path, err)
	}
	return path
}

// Load reads the shared test level name (see Path: skipped or failed when
// it is absent).
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
