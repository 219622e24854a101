package contour

import (
	"navviz/core/region"
	"navviz/core/voxel"
)

// Build traces and simplifies the contours of every region of chf
// partitioned by regs (Recast's rcBuildContours; docs/contours.md).
// maxErrorCells is the largest distance of a simplified wall or area edge
// from the raw one, in cells; maxEdgeLenCells the longest edge the flags'
// TessWallEdges / TessAreaEdges allow, in cells (0: no limit); flags is
// usually DefaultBuildFlags.
//
// Regions with region.BorderFlag (the tile border) and spans without a
// region are not traced; their edges are the tile border and walls of the traced
// regions. The steps are the exported building blocks: EdgeFlags; then, for
// every span in index order and every direction 0..3 whose edge is still
// flagged, TraceLoop from that edge, RotateLoop (no change: the first edge
// of a loop met in this order is its smallest key) and SimplifyLoop; finally
// JoinLoops.
//
// The input is validated (sizes, column table, links, parameters); on error
// nothing is returned.
func Build(chf *voxel.CompactHeightfield, regs *region.Result, maxErrorCells float32, maxEdgeLenCells int, flags BuildFlags) (*Set, error) {
	if err := checkSimplifyParams(maxErrorCells, maxEdgeLenCells, flags); err != nil {
		return nil, err
	}
	ef, err := EdgeFlags(chf, regs, nil)
	if err != nil {
		return nil, err
	}
	t := tracer{g: &spanGraph{chf: chf}, ids: regs.IDs, areas: chf.Areas, flags: ef}
	loops, err := t.traceAll(maxErrorCells, maxEdgeLenCells, flags)
	if err != nil {
		return nil, err
	}
	return newSet(&chf.Grid, loops, maxErrorCells, maxEdgeLenCells, flags), nil
}

// newSet returns the contour set of the loops traced on grid g (in
// edge-key order): the grid's geometry, the parameters, and the contours
// JoinLoops makes.
func newSet(g *voxel.Grid, loops []Loop, maxErrorCells float32, maxEdgeLenCells int, flags BuildFlags) *Set {
	set := &Set{
		Loops:           loops,
		OriginX:         g.OriginM.X,
		OriginY:         g.OriginM.Y,
		OriginZ:         g.OriginM.Z,
		CellSizeM:       g.CellSizeM,
		CellHeightM:     g.CellHeightM,
		Width:           g.Width,
		Height:          g.Height,
		Border:          g.BorderCells,
		MaxErrorCells:   maxErrorCells,
		MaxEdgeLenCells: maxEdgeLenCells,
		Flags:           flags,
	}
	set.Contours = JoinLoops(set.Loops)
	return set
}

// EdgeOwners returns, for every edge key of a heightfield of spanCount
// spans, the index in s.Loops of the loop that holds the edge, or -1 (the
// "which loop owns which edge" a repair keeps). dst is reused when large
// enough. Keys outside the range are ignored. A nil Set owns no edge.
func (s *Set) EdgeOwners(spanCount int, dst []int32) []int32 {
	n := 4 * max(spanCount, 0)
	if cap(dst) < n {
		dst = make([]int32, n)
	}
	dst = dst[:n]
	for i := range dst {
		dst[i] = -1
	}
	if s == nil {
		return dst
	}
	for li := range s.Loops {
		for _, k := range s.Loops[li].Keys {
			if k >= 0 && int(k) < n {
				dst[k] = int32(li)
			}
		}
	}
	return dst
}
