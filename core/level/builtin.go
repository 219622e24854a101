package level

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
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
// one of BuiltinNames, and otherwise reads the level file at that path
// (see LoadFile: glTF or Wavefront OBJ, chosen by content). A file whose
// name collides with a built-in level can be loaded as ./name. Errors from
// reading the file are wrapped with the path (and, when there is no such
// file, the list of built-in names).
func Load(nameOrPath string) (*Soup, error) {
	for _, g := range generators {
		if g.name == nameOrPath {
			return g.gen(DefaultSeed), nil
		}
	}
	s, err := LoadFile(nameOrPath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("level: load %q: neither a built-in level (%s) nor a file: %w",
			nameOrPath, strings.Join(BuiltinNames(), ", "), err)
	}
	if err != nil {
		return nil, fmt.Errorf("level: load %q: %w", nameOrPath, err)
	}
	return s, nil
}

// LoadFile reads the level file at path, choosing the reader by its first
// bytes, whatever its name: a glTF 2.0 asset (the GLB magic "glTF" or a
// JSON object; LoadGLTF) or else Wavefront OBJ (LoadOBJ, which names what
// any other kind of file looks like).
func LoadFile(path string) (*Soup, error) {
	head := make([]byte, objSniffBytes)
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("level: load: %w", err)
	}
	n, _ := io.ReadFull(f, head) // a short or failed read is LoadOBJ's to report
	f.Close()
	if IsGLTF(head[:n]) {
		return LoadGLTF(path)
	}
	return LoadOBJ(path)
}
