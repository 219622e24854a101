// Package level holds level geometry as the build sees it: triangle soups with
// a per-triangle area id, a Wavefront OBJ reader and writer, a glTF 2.0
// reader (docs/levels.md) and GLB writer, a chunky mesh that
// answers "which triangles overlap this x/z box" for a tile build, and the
// generated, seeded levels `city` and `terrain`.
//
// No method panics on a nil receiver: a nil *Soup fails Validate and has
// the empty box as Bounds, a nil *Chunky holds nothing (Query matches
// nothing, Len, Nodes and MaxLeafTris 0), and a nil *ParseError reads
// "<nil>" and wraps nothing.
package level

import (
	"fmt"

	"navviz/core/geom"
)

// Area ids carried by triangles (and later by spans): 0 is not walkable, 63 is
// the default walkable area, 1-62 are free for user areas.
const (
	AreaNull     uint8 = 0
	AreaWalkable uint8 = 63
)

// Soup is an indexed triangle soup in metres (y up). Tris index Verts; Areas
// holds one area id per triangle (AreaWalkable unless the source said otherwise).
type Soup struct {
	Verts []geom.Vec3
	Tris  [][3]int32
	Areas []uint8

	// Skipped says what the reader read but left out of the level, for
	// the level report: "skipped 2 line, 1 point primitives" (glTF); ""
	// when nothing was.
	Skipped string
}

// Bounds returns the box of all vertices (EmptyBox for an empty soup).
func (s *Soup) Bounds() geom.Box3 {
	b := geom.EmptyBox()
	if s == nil {
		return b
	}
	for _, v := range s.Verts {
		b = b.Extend(v)
	}
	return b
}

// Validate checks that every index is in range, every vertex finite and the
// area slice as long as the triangle slice. The error names the first bad value.
func (s *Soup) Validate() error {
	if s == nil {
		return fmt.Errorf("level: nil Soup")
	}
	if len(s.Areas) != len(s.Tris) {
		return fmt.Errorf("level: %d area ids for %d triangles", len(s.Areas), len(s.Tris))
	}
	for i, v := range s.Verts {
		if !v.Finite() {
			return fmt.Errorf("level: vertex %d is not finite: %v", i, v)
		}
	}
	n := int32(len(s.Verts))
	for i, t := range s.Tris {
		for _, k := range t {
			if k < 0 || k >= n {
				return fmt.Errorf("level: triangle %d has vertex index %d, want 0..%d", i, k, n-1)
			}
		}
	}
	return nil
}
