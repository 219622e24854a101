package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"navviz/core/level"
)

// runExportLevel implements
//
//	navmesh export-level city|terrain [--seed N] [--format obj|glb] -o FILE
//
// It writes the generated level (seed level.DefaultSeed, the built-in one,
// unless --seed says otherwise) as a Wavefront OBJ file, or with --format
// glb as binary glTF ("-o -" writes to stdout), and reports the
// counts on stderr when writing to stdout, on stdout otherwise.
func runExportLevel(args []string, stdout, stderr io.Writer) (err error) {
	fs := newFlagSet("export-level", "city|terrain [--seed N] [--format obj|glb] -o FILE", stdout)
	out := fs.String("o", "", "output `file` (- for stdout); required")
	format := fs.String("format", "obj", "output `format`: obj (Wavefront OBJ) or glb (binary glTF 2.0)")
	seed := fs.Uint64("seed", level.DefaultSeed, "generator `seed`")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	names := level.BuiltinNames()
	if len(pos) != 1 {
		return usagef("want exactly one level name (%s), got %d arguments", strings.Join(names, ", "), len(pos))
	}
	name := pos[0]
	if !slices.Contains(names, name) {
		return usagef("unknown level %q: want one of %s", name, strings.Join(names, ", "))
	}
	write := level.WriteOBJ // buffers and flushes itself
	switch *format {
	case "obj":
	case "glb":
		write = level.WriteGLB
	default:
		return usagef("unknown --format %q: want obj or glb", *format)
	}
	if *out == "" {
		return usagef("missing -o FILE.obj")
	}
	if err := checkOutputs([]fileArg{{"-o", *out}}, nil); err != nil {
		return err
	}
	s, err := level.Generate(name, *seed)
	if err != nil {
		return fmt.Errorf("generate %s: %w", name, err)
	}

	if err := writeOutput(*out, stdout, func(w io.Writer) error {
		if err := write(w, s); err != nil {
			return fmt.Errorf("write %s: %w", *out, err)
		}
		return nil
	}); err != nil {
		return err
	}
	report := stdout
	if isStdout(*out) {
		report = stderr
	}
	fmt.Fprintf(report, "wrote %s: level %s, %d vertices, %d triangles\n", *out, name, len(s.Verts), len(s.Tris))
	return nil
}
