package region

import "navviz/core/voxel"

// Monotone partitions the walkable spans of c into monotone regions by
// sweeping rows of constant z (Recast's rcBuildRegionsMonotone), then drops
// and merges small regions exactly as Watershed does (same arguments, same
// border regions, same rules). Monotone regions have no holes; it is the
// cheaper partition. The result's IDs are new memory; MaxDistance is 0.
// docs/regions.md gives every rule. c is not changed. Invalid arguments are
// reported with an error naming the value.
func Monotone(c *voxel.CompactHeightfield, borderCells, minAreaCells, mergeAreaCells int) (*Result, error) {
	s := getScratch()
	defer putScratch(s)
	var err error
	if s.nb, err = checkArgs("Monotone", c, s.nb, borderCells, minAreaCells, mergeAreaCells); err != nil {
		return nil, err
	}
	nb := s.nb
	w, h := c.Width, c.Height
	reg := zeroed(s.reg, len(c.Spans))
	s.reg = reg

	next := uint32(1)
	if borderCells > 0 {
		next = paintBorder(c, borderCells, reg, next)
	}

	// prev counts, per region of the row below, the spans of the current
	// row linked to it in -z through a run that took it as its neighbour.
	prev := s.prev[:0]
	touched := s.touched[:0]
	sweeps := s.sweeps[:0]
	for z := borderCells; z < h-borderCells; z++ {
		if len(prev) < int(next) {
			prev = append(prev, make([]int32, int(next)-len(prev))...)
		}
		// Runs get row-local ids 1..; sweeps[0] is unused.
		sweeps = append(sweeps[:0], sweepSpan{})
		for x := borderCells; x < w-borderCells; x++ {
			cell := c.Cells[x+z*w]
			for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
				area := c.Areas[i]
				if area == voxel.AreaNull {
					continue
				}
				// Continue the run of the -x neighbour (same area, not border).
				run := uint32(0)
				if a := nb[4*i]; a >= 0 && reg[a]&internalBorder == 0 && c.Areas[a] == area {
					run = reg[a]
				}
				if run == 0 {
					run = uint32(len(sweeps))
					sweeps = append(sweeps, sweepSpan{})
				}
				// The region below in -z.
				if b := nb[4*i+3]; b >= 0 {
					if nr := reg[b]; nr != 0 && nr&internalBorder == 0 && c.Areas[b] == area {
						sw := &sweeps[run]
						if sw.nei == 0 || sw.nei == nr {
							sw.nei = nr
							sw.ns++
							if prev[nr] == 0 {
								touched = append(touched, nr)
							}
							prev[nr]++
						} else {
							sw.nei = noNeighbour
						}
					}
				}
				reg[i] = run
			}
		}
		// A run continues the region below when it is the only run linked
		// to it; otherwise it starts a new region.
		for k := 1; k < len(sweeps); k++ {
			sw := &sweeps[k]
			if sw.nei != noNeighbour && sw.nei != 0 && prev[sw.nei] == sw.ns {
				sw.id = sw.nei
			} else {
				sw.id = next
				next++
			}
		}
		for _, nr := range touched {
			prev[nr] = 0
		}
		touched = touched[:0]
		for x := borderCells; x < w-borderCells; x++ {
			cell := c.Cells[x+z*w]
			for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
				if r := reg[i]; r > 0 && r < uint32(len(sweeps)) {
					reg[i] = sweeps[r].id
				}
			}
		}
	}
	s.prev, s.touched, s.sweeps = prev, touched, sweeps

	count, _ := mergeAndFilter(c, nb, reg, int(next)+1, minAreaCells, mergeAreaCells, s)
	return finishIDs("Monotone", reg, count)
}
