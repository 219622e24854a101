package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"navviz/core/navmesh"
	"navviz/core/navmesh/detour"
	"navviz/internal/readlimit"
)

// The diff command: navmesh diff A B [--json].
//
// It compares two mesh files (navmesh build -o's format, docs/format.md §6,
// or Detour navmesh files, §11)
// tile layer by tile layer (navmesh.Diff) and prints the totals of each
// side and one line per tile layer that differs. Exit status: 0 identical,
// 1 different, 2 an error (a file that cannot be read or is no mesh file,
// a bad argument).

// diffJSON is the --json output.
type diffJSON struct {
	Identical bool         `json:"identical"`
	A         diffSideJSON `json:"a"`
	B         diffSideJSON `json:"b"`
	Tiles     []diffTile   `json:"tiles"`
}

type diffSideJSON struct {
	File         string  `json:"file"`
	Tiles        int     `json:"tiles"`
	Polys        int     `json:"polys"`
	WalkableArea float64 `json:"walkableArea"`
}

type diffTile struct {
	TX     int32   `json:"tx"`
	TZ     int32   `json:"tz"`
	Layer  uint8   `json:"layer"`
	Change string  `json:"change"`
	PolysA int     `json:"polysA"`
	PolysB int     `json:"polysB"`
	AreaA  float64 `json:"areaA"`
	AreaB  float64 `json:"areaB"`
}

// errDifferent ends a diff whose meshes differ (exit status 1, nothing
// more printed).
var errDifferent = exitStatus{code: 1}

func runDiff(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("diff", "A B [--json]", stdout)
	asJSON := fs.Bool("json", false, "print one JSON object instead of the text report")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usagef("want two mesh files A and B, have %d arguments", len(pos))
	}
	a, err := readMeshFile(pos[0])
	if err != nil {
		return exitStatus{code: 2, err: err}
	}
	b, err := readMeshFile(pos[1])
	if err != nil {
		return exitStatus{code: 2, err: err}
	}
	d, err := navmesh.Diff(a, b)
	if err != nil {
		return exitStatus{code: 2, err: err}
	}
	bw := &errWriter{w: stdout}
	if *asJSON {
		out := diffJSON{Identical: d.Identical(),
			A:     diffSideJSON{File: pos[0], Tiles: d.TilesA, Polys: d.PolysA, WalkableArea: d.AreaAM2},
			B:     diffSideJSON{File: pos[1], Tiles: d.TilesB, Polys: d.PolysB, WalkableArea: d.AreaBM2},
			Tiles: []diffTile{}}
		for _, t := range d.Tiles {
			out.Tiles = append(out.Tiles, diffTile{TX: t.Key.TileX, TZ: t.Key.TileZ, Layer: t.Key.Layer, Change: t.Change.String(),
				PolysA: t.PolysA, PolysB: t.PolysB, AreaA: t.AreaAM2, AreaB: t.AreaBM2})
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(&out); err != nil {
			return exitStatus{code: 2, err: err}
		}
	} else {
		bw.printf("A %s: %d tile layers, %d polygons, %.2f m² walkable\n", pos[0], d.TilesA, d.PolysA, d.AreaAM2)
		bw.printf("B %s: %d tile layers, %d polygons, %.2f m² walkable\n", pos[1], d.TilesB, d.PolysB, d.AreaBM2)
		for _, t := range d.Tiles {
			bw.printf("  tile %d,%d layer %d %s: %d -> %d polygons, %.2f -> %.2f m²\n",
				t.Key.TileX, t.Key.TileZ, t.Key.Layer, t.Change, t.PolysA, t.PolysB, t.AreaAM2, t.AreaBM2)
		}
		if d.Identical() {
			bw.printf("identical\n")
		} else {
			bw.printf("%d tile layers differ\n", len(d.Tiles))
		}
	}
	if bw.err != nil {
		return exitStatus{code: 2, err: bw.err}
	}
	if !d.Identical() {
		return errDifferent
	}
	return nil
}

// readMeshFile reads a mesh file: navmesh build -o's format (at most
// navmesh.MaxMeshFileBytes) or a Detour navmesh file (an MSET set or a
// wrapped tile: core/navmesh/detour), chosen by its first bytes, which also
// say what a file of another kind looks like before the rest is read.
func readMeshFile(path string) (*navmesh.Mesh, error) {
	f, err := readlimit.Open(path, "mesh file", navmesh.MaxMeshFileBytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	magic, err := br.Peek(len(navmesh.MeshMagic))
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if detour.IsDetour(magic) {
		df, err := detour.Read(br, path)
		if err != nil {
			return nil, err
		}
		return df.Mesh, nil
	}
	if string(magic) != navmesh.MeshMagic {
		return nil, fmt.Errorf("%s: neither a navviz mesh file (navmesh build -o, %q) nor a Detour navmesh file: it starts %q", path, navmesh.MeshMagic, magic)
	}
	data, err := io.ReadAll(br)
	if err != nil {
		return nil, err
	}
	m := navmesh.NewMesh()
	if err := m.UnmarshalBinary(data); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// exitStatus is an error that ends a command with its own exit status;
// err (if any) is printed as the command's error.
type exitStatus struct {
	code int
	err  error
}

func (e exitStatus) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e exitStatus) Unwrap() error { return e.err }

// statusOf returns the exit status err asks for, if it is an exitStatus.
func statusOf(err error) (exitStatus, bool) {
	var es exitStatus
	ok := errors.As(err, &es)
	return es, ok
}
