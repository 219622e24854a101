package query

import (
	"fmt"
	"math"

	"navviz/core/navmesh"
)

// Filter decides which polygons a query may cross and what crossing them
// costs (Detour's dtQueryFilter, with Detour's rule).
type Filter struct {
	// IncludeFlags: a polygon passes when its run-time flags share a bit
	// with IncludeFlags (0 passes no polygon, as in Detour)...
	IncludeFlags uint16
	// ExcludeFlags: ...and share none with ExcludeFlags.
	ExcludeFlags uint16
	// AreaCost is the cost per metre of travel across a polygon of each
	// area id (finite, > 0), FindPath's cost model (docs/query.md).
	AreaCost [navmesh.MaxArea + 1]float64
}

// DefaultFilter returns a filter that passes every polygon with at least
// one flag set (IncludeFlags 0xffff, ExcludeFlags 0) and costs 1 per metre
// in every area. The default build gives every walkable polygon
// pipeline.DefaultAreaFlags (NavSettings.AreaFlags), so it passes every
// polygon of a default build.
func DefaultFilter() *Filter {
	f := &Filter{IncludeFlags: 0xffff}
	for i := range f.AreaCost {
		f.AreaCost[i] = 1
	}
	return f
}

// Passes reports whether a polygon with the given flags may be crossed:
// flags&IncludeFlags != 0 and flags&ExcludeFlags == 0 (Detour's
// passFilter; a zero Filter passes nothing). A nil Filter is
// DefaultFilter's.
func (f *Filter) Passes(flags uint16) bool {
	if f == nil {
		return flags != 0
	}
	return flags&f.IncludeFlags != 0 && flags&f.ExcludeFlags == 0
}

// passesRef reports whether polygon ref exists and passes f.
func (f *Filter) passesRef(m *navmesh.Mesh, ref navmesh.PolyRef) bool {
	flags, err := m.PolyFlags(ref)
	return err == nil && f.Passes(flags)
}

// cost returns the cost per metre of area (1 for a nil filter or an area
// beyond the table).
func (f *Filter) cost(area uint8) float64 {
	if f == nil || int(area) >= len(f.AreaCost) {
		return 1
	}
	return f.AreaCost[area]
}

// minCost returns the smallest area cost, the A* estimate's scale.
func (f *Filter) minCost() float64 {
	c := math.Inf(1)
	for _, v := range f.AreaCost {
		c = min(c, v)
	}
	return c
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

// orDefault returns f, or DefaultFilter() for nil, after checking its costs.
func orDefault(f *Filter) (*Filter, error) {
	if f == nil {
		return DefaultFilter(), nil
	}
	if err := f.validate(); err != nil {
		return nil, err
	}
	return f, nil
}
