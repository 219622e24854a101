package query

import (
	"fmt"
	"math"

	"navviz/core/navmesh"
)

// Filter decides which polygons a path may cross and what crossing them
// costs (Detour's dtQueryFilter).
type Filter struct {
	// IncludeFlags: a polygon passes when IncludeFlags is 0 or its
	// run-time flags share a bit with IncludeFlags...
	IncludeFlags uint16
	// ExcludeFlags: ...and share none with ExcludeFlags.
	ExcludeFlags uint16
	// AreaCost is the cost per metre of travel across a polygon of each
	// area id (finite, > 0).
	AreaCost [navmesh.MaxArea + 1]float64
}

// DefaultFilter returns a filter that passes every polygon (the plain
// build leaves every flag 0) and costs 1 per metre in every area.
func DefaultFilter() *Filter {
	f := &Filter{}
	for i := range f.AreaCost {
		f.AreaCost[i] = 1
	}
	return f
}

// Passes reports whether a polygon with the given flags may be crossed. A
// nil Filter is DefaultFilter's: every polygon passes.
func (f *Filter) Passes(flags uint16) bool {
	if f == nil {
		return true
	}
	return (f.IncludeFlags == 0 || flags&f.IncludeFlags != 0) && flags&f.ExcludeFlags == 0
}

// validate checks the area costs.
func (f *Filter) validate() error {
	for i, c := range f.AreaCost {
		if !(c > 0) || math.IsInf(c, 1) {
			return fmt.Errorf("query: filter AreaCost[%d] = %v, want finite > 0", i, c)
		}
	}
	return nil
}
