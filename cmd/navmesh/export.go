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
//	navmesh export-level city|terrain [--seed N] -o FILE.obj
//
// It writes the generated level (seed level.DefaultSeed, the built-in one,
// unless --seed says otherwise) as a Wavefront OBJ file ("-o -" writes to stdout) and reports the
// counts on stderr when writing to stdout, on stdout otherwise.
func runExportLevel(args []string, stdout, stderr io.Writer) (err error) {
	fs := newFlagSet("export-level", "city|terrain [--seed N] -o FILE.obj", stdout)
	out := fs.String("o", "", "output OBJ `file` (- for stdout); required")
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
		// WriteOBJ buffers and flushes itself.
		if err := level.WriteOBJ(w, s); err != nil {
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
