// Command navmesh is the headless command line of navviz: it exports the
// generated levels and renders pictures of them with the software
// rasterizer, without a display (it imports no Ebitengine).
//
// Usage:
//
//	navmesh <command> [arguments]
//
// Commands:
//
//	bench         time the tile cache's obstacle cycle on a level
//	build         build a level's navmesh and print its counts and stage times
//	diff          compare two mesh files tile layer by tile layer
//	export-level  write a generated level (city, terrain, city4x4) as a Wavefront OBJ file
//	hashmatrix    print the hash matrix of the tile-cache scenarios
//	inspect       report what the layer repair did for added obstacles
//	path          answer path and ray queries on a level's navmesh
//	scenario      play a scenario file headless: shots, report, golden compare
//	shot          render a level to a PNG image, headless
//
// Run "navmesh <command> -h" for the arguments of a command. Exit status: 0
// on success, 1 on a failure, 2 on a usage error (bad command, flag or flag
// value).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

// commands lists the subcommands in the order the usage text shows them.
var commands = []command{
	{"bench", "time the tile cache's obstacle cycle on a level", runBench},
	{"build", "build a level's navmesh and print its counts and stage times", runBuild},
	{"diff", "compare two mesh files tile layer by tile layer (exit 0 identical, 1 different, 2 error)", runDiff},
	{"export-level", "write a generated level (city, terrain, city4x4) as a Wavefront OBJ file", runExportLevel},
	{"hashmatrix", "print the hash matrix of the tile-cache scenarios", runHashMatrix},
	{"inspect", "report what the layer repair did for added obstacles", runInspect},
	{"path", "answer path and ray queries on a level's navmesh", runPath},
	{"scenario", "play a scenario file headless: shots, report, golden compare", runScenario},
	{"shot", "render a level to a PNG image, headless", runShot},
}

// usageError marks an error caused by the command line itself (exit code 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// errHelp is returned when -h was asked for and the help has been printed.
var errHelp = errors.New("help requested")

func usage(w io.Writer) {
	fmt.Fprintln(w, "navmesh: the headless command line of navviz")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage:")
	fmt.Fprintln(w, "  navmesh <command> [arguments]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-13s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, `Run "navmesh <command> -h" for the arguments of a command.`)
}

// run executes the command line args (without the program name) and returns
// the exit code: 0 success, 1 failure, 2 usage error.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		usage(stdout)
		return 0
	}
	for _, c := range commands {
		if c.name != args[0] {
			continue
		}
		err := c.run(args[1:], stdout, stderr)
		var ue usageError
		es, hasStatus := statusOf(err)
		switch {
		case err == nil, errors.Is(err, errHelp):
			return 0
		case hasStatus:
			if es.err != nil {
				fmt.Fprintf(stderr, "navmesh %s: %v\n", c.name, es.err)
			}
			return es.code
		case errors.As(err, &ue):
			fmt.Fprintf(stderr, "navmesh %s: %v\n", c.name, err)
			fmt.Fprintf(stderr, `Run "navmesh %s -h" for usage.`+"\n", c.name)
			return 2
		default:
			fmt.Fprintf(stderr, "navmesh %s: %v\n", c.name, err)
			return 1
		}
	}
	fmt.Fprintf(stderr, "navmesh: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}

// newFlagSet returns a flag set that reports nothing itself: parse errors
// come back from parseArgs as usage errors.
func newFlagSet(name, synopsis string, stdout io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprintf(stdout, "Usage: navmesh %s %s\n\nFlags:\n", name, synopsis)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	return fs
}

// levelArg names the LEVEL argument in usage errors.
const levelArg = "LEVEL (a built-in level name or a .obj file)"

// parseOneArg parses args with fs and returns its one positional
// argument, what (say "LEVEL (a built-in level name or a .obj file)")
// naming it in the usage error when it is missing.
func parseOneArg(fs *flag.FlagSet, args []string, what string) (string, error) {
	pos, err := parseArgs(fs, args)
	switch {
	case err != nil:
		return "", err
	case len(pos) == 0:
		return "", usagef("missing %s", what)
	case len(pos) > 1:
		return "", usagef("unexpected argument %q", pos[1])
	}
	return pos[0], nil
}

// parseArgs parses flags that may come before, between or after positional
// arguments (the std flag package stops at the first positional one) and
// returns the positional arguments in order. Everything after "--" is
// positional. -h prints the usage once and returns errHelp; a bad flag
// prints none (the error says to run -h).
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	// The flag package calls Usage itself on -h and on every parse error:
	// silence it while parsing.
	usage := fs.Usage
	fs.Usage = func() {}
	defer func() { fs.Usage = usage }()
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				usage()
				return nil, errHelp
			}
			return nil, usageError{err}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// splitList splits a comma-separated flag value, dropping empty items and
// surrounding spaces.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
