package contour

import (
	"fmt"
	"slices"
)

// Diff describes the first difference between two contour sets, or returns
// "" when they are equal: the same grid and parameters, the same loops (raw
// vertices, keys, simplified vertices, region, area) in the same order and
// the same contours (vertices, raw vertices, region, area, loops). Empty
// and nil slices are equal. The tile cache's tests and the inspector use it
// to compare a repaired layer with a from-scratch build.
func (s *Set) Diff(o *Set) string {
	switch {
	case s == nil && o == nil:
		return ""
	case s == nil || o == nil:
		return fmt.Sprintf("one set is nil (%v, %v)", s == nil, o == nil)
	}
	if s.OriginX != o.OriginX || s.OriginY != o.OriginY || s.OriginZ != o.OriginZ || s.CellSizeM != o.CellSizeM ||
		s.CellHeightM != o.CellHeightM || s.Width != o.Width || s.Height != o.Height || s.Border != o.Border {
		return "grids differ"
	}
	if s.MaxErrorCells != o.MaxErrorCells || s.MaxEdgeLenCells != o.MaxEdgeLenCells || s.Flags != o.Flags {
		return "simplification parameters differ"
	}
	if len(s.Loops) != len(o.Loops) {
		return fmt.Sprintf("%d loops, %d loops", len(s.Loops), len(o.Loops))
	}
	for i := range s.Loops {
		a, b := &s.Loops[i], &o.Loops[i]
		switch {
		case a.Region != b.Region || a.Area != b.Area:
			return fmt.Sprintf("loop %d: region %d area %d, region %d area %d", i, a.Region, a.Area, b.Region, b.Area)
		case !slices.Equal(a.Keys, b.Keys):
			return fmt.Sprintf("loop %d (region %d): keys differ (%d and %d, first %v and %v)", i, a.Region, len(a.Keys), len(b.Keys), first(a.Keys), first(b.Keys))
		case !slices.Equal(a.Raw, b.Raw):
			return fmt.Sprintf("loop %d (region %d, key %d): raw vertices differ", i, a.Region, a.Keys[0])
		case !slices.Equal(a.Simplified, b.Simplified):
			return fmt.Sprintf("loop %d (region %d, key %d): simplified vertices differ", i, a.Region, a.Keys[0])
		}
	}
	if len(s.Contours) != len(o.Contours) {
		return fmt.Sprintf("%d contours, %d contours", len(s.Contours), len(o.Contours))
	}
	for i := range s.Contours {
		a, b := &s.Contours[i], &o.Contours[i]
		switch {
		case a.Region != b.Region || a.Area != b.Area:
			return fmt.Sprintf("contour %d: region %d area %d, region %d area %d", i, a.Region, a.Area, b.Region, b.Area)
		case !slices.Equal(a.Loops, b.Loops):
			return fmt.Sprintf("contour %d (region %d): loops %v, %v", i, a.Region, a.Loops, b.Loops)
		case !slices.Equal(a.Verts, b.Verts):
			return fmt.Sprintf("contour %d (region %d): vertices differ", i, a.Region)
		case !slices.Equal(a.RawVerts, b.RawVerts):
			return fmt.Sprintf("contour %d (region %d): raw vertices differ", i, a.Region)
		}
	}
	return ""
}

// first returns the first key of a loop, or -1.
func first(keys []int32) int32 {
	if len(keys) == 0 {
		return -1
	}
	return keys[0]
}
