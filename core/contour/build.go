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
	t := tracer{chf: chf, ids: regs.IDs, flags: ef, w: chf.Width, h: chf.Height}
	var loops []Loop
	var idx []int32
	var l Loop // scratch walk buffers, copied out per loop
	for z := 0; z < t.h; z++ {
		for x := 0; x < t.w; x++ {
			cell := chf.Cells[x+z*t.w]
			for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
				for d := 0; d < 4 && ef[i] != 0; d++ {
					if ef[i]&(1<<d) == 0 {
						continue
					}
					if err := t.walk(x, z, i, d, &l); err != nil {
						return nil, err
					}
					RotateLoop(&l)
					out := Loop{
						Raw:    append([]Vertex(nil), l.Raw...),
						Keys:   append([]int32(nil), l.Keys...),
						Region: l.Region,
						Area:   l.Area,
					}
					out.Simplified = simplify(out.Raw, out.Keys, maxErrorCells, maxEdgeLenCells, flags, &idx, nil)
					loops = append(loops, out)
				}
			}
		}
	}
	set := &Set{
		Loops:           loops,
		OriginX:         chf.OriginM.X,
		OriginY:         chf.OriginM.Y,
		OriginZ:         chf.OriginM.Z,
		CellSizeM:       chf.CellSizeM,
		CellHeightM:     chf.CellHeightM,
		Width:           chf.Width,
		Height:          chf.Height,
		Border:          chf.BorderCells,
		MaxErrorCells:   maxErrorCells,
		MaxEdgeLenCells: maxEdgeLenCells,
		Flags:           flags,
	}
	set.Contours = JoinLoops(set.Loops)
	return set, nil
}

// EdgeOwners returns, for every edge key of a heightfield of spanCount
// spans, the index in s.Loops of the loop that holds the edge, or -1 (the
// "which loop owns which edge" a repair keeps). dst is reused when large
// enough. Keys outside the range are ignored.
func (s *Set) EdgeOwners(spanCount int, dst []int32) []int32 {
	n := 4 * max(spanCount, 0)
	if cap(dst) < n {
		dst = make([]int32, n)
	}
	dst = dst[:n]
	for i := range dst {
		dst[i] = -1
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
