package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"navviz/internal/readlimit"
)

// The number files of the command line (the pairs and rays of navmesh
// path, the base points of navmesh bench) are lines of a fixed count of
// numbers; blank lines and lines starting with # are skipped. What a valid
// file can hold bounds what is read (docs/query.md §8):
const (
	// maxNumberLines is the most records (pairs, rays or points) a file
	// holds.
	maxNumberLines = 1 << 20
	// maxNumberLineBytes is the longest line, a comment too (its newline
	// not counted).
	maxNumberLineBytes = 4096
	// numberLineBytes is the room of a record: six float32 numbers in
	// their shortest form (at most 14 characters, "-1.1754944e-38"),
	// their blanks and the newline need 90 bytes.
	numberLineBytes = 128
	// maxNumberFileBytes is the size bound of a file, 128 MiB: the most
	// records at numberLineBytes each (comments and extra blanks share
	// that room).
	maxNumberFileBytes = maxNumberLines * numberLineBytes
)

// readNumberLines reads file (- for stdin) as lines of n finite numbers
// each (what names the file's kind in errors: "pairs file"), bounded by
// maxNumberFileBytes: record i is v[i*n : i*n+n]. Errors name the file
// and, for a bad line, the line.
func readNumberLines(file, what string, n int, stdin io.Reader) ([]float32, error) {
	r := io.Reader(&readlimit.Reader{R: stdin, Path: file, What: what, LimitBytes: maxNumberFileBytes})
	if file != "-" {
		f, err := readlimit.Open(file, what, maxNumberFileBytes)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	return parseNumberLines(r, file, n)
}

// parseNumberLines parses lines of n finite numbers from r (name names it
// in errors), at most maxNumberLines of them, no line longer than
// maxNumberLineBytes, as one slice (record i is v[i*n : i*n+n]: 4 bytes a
// number, a few MiB for the most pairs a file holds). A bad line is an
// error naming the file and the line.
func parseNumberLines(r io.Reader, name string, n int) ([]float32, error) {
	var out []float32
	err := readlimit.Records(r, name, "lines of numbers", maxNumberLineBytes, maxNumberLines, func(_ int, text string) error {
		var err error
		out, err = appendNumbers(out, text, n)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// appendNumbers appends the n finite numbers of a line to v (on an error
// v is returned as it was).
func appendNumbers(v []float32, text string, n int) ([]float32, error) {
	fields := strings.Fields(text)
	if len(fields) != n {
		return v, fmt.Errorf("%d numbers, want %d", len(fields), n)
	}
	start := len(v)
	for _, f := range fields {
		x, err := strconv.ParseFloat(f, 32)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return v[:start], fmt.Errorf("%q is not a finite number", f)
		}
		v = append(v, float32(x))
	}
	return v, nil
}
