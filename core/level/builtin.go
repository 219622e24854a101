package level

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// DefaultSeed is the seed of the built-in levels that Builtin and Load return.
const DefaultSeed uint64 = 1

// generators lists the built-in levels in the order BuiltinNames reports.
var generators = []struct {
	name string
	gen  func(seed uint64) *Soup
}{
	{"city", City},
	{"terrain", Terrain},
	{"city4x4", City4x4},
}

// BuiltinNames returns the names of the generated levels: "city",
// "terrain", "city4x4".
func BuiltinNames() []string {
	names := make([]string, len(generators))
	for i, g := range generators {
		names[i] = g.name
	}
	return names
}

// Builtin returns the generated level name built with DefaultSeed.
func Builtin(name string) (*Soup, error) { return Generate(name, DefaultSeed) }

// Generate returns the generated level name built with seed. An unknown name
// is an error that lists the valid ones.
func Generate(name string, seed uint64) (*Soup, error) {
	for _, g := range generators {
		if g.name == name {
			return g.gen(seed), nil
		}
	}
	return nil, fmt.Errorf("level: unknown built-in level %q (have %s)", name, strings.Join(BuiltinNames(), ", "))
}

// Load returns the built-in level nameOrPath (with DefaultSeed) when it is
// one of BuiltinNames, and otherwise reads the Wavefront OBJ file at that
// path. A file whose name collides with a built-in level can be loaded as
// ./name. Errors from reading the file are wrapped with the path (and, when
// there is no such file, the list of built-in names).
func Load(nameOrPath string) (*Soup, error) {
	for _, g := range generators {
		if g.name == nameOrPath {
			return g.gen(DefaultSeed), nil
		}
	}
	s, err := LoadOBJ(nameOrPath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("level: load %q: neither a built-in level (%s) nor a file: %w",
			nameOrPath, strings.Join(BuiltinNames(), ", "), err)
	}
	if err != nil {
		return nil, fmt.Errorf("level: load %q: %w", nameOrPath, err)
	}
	return s, nil
}
