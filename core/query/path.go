package query

import (
	"container/heap"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"navviz/core/geom"
	"navviz/core/navmesh"
)

// heuristicScale scales the A* estimate: the straight-line distance to
// the end times the filter's smallest area cost times heuristicScale
// (Detour's H_SCALE: slightly below 1, so rounding never lets the
// estimate overshoot the cost of the rest of the path).
const heuristicScale = 0.999

// DefaultMaxNodes is the search-state limit of FindPath (PathLimits).
const DefaultMaxNodes = 1 << 20

// ErrPartial marks a FindPath result that ends short of the end polygon
// because it cannot be reached (or the node or corridor limit was hit):
// the corridor leads to the visited polygon nearest to the end point.
var ErrPartial = errors.New("query: end polygon unreachable, partial path")

// polyData returns the tile and polygon index of ref, with an error naming
// ref when it is stale or invalid or names an off-mesh link node.
func polyData(m *navmesh.Mesh, what string, ref navmesh.PolyRef) (*navmesh.Tile, int, error) {
	t, i, err := nodeData(m, what, ref)
	if err == nil && i >= len(t.Polys) {
		return nil, 0, fmt.Errorf("query: %s: %#x is an off-mesh link, not a polygon", what, uint64(ref))
	}
	return t, i, err
}

// nodeData is polyData that also accepts an off-mesh link node (its index
// is then len(t.Polys) or more).
func nodeData(m *navmesh.Mesh, what string, ref navmesh.PolyRef) (*navmesh.Tile, int, error) {
	tr, i, err := m.DecodeRef(ref)
	if err != nil {
		return nil, 0, fmt.Errorf("query: %s: polygon %#x: %w", what, uint64(ref), err)
	}
	t, err := m.Tile(tr)
	if err != nil {
		return nil, 0, fmt.Errorf("query: %s: polygon %#x: %w", what, uint64(ref), err)
	}
	return t, i, nil
}

// linkPortal returns the part of the edge that link l of polygon i of t
// uses, metres: the whole edge for a link inside the tile, the BMin..BMax
// fraction of it for a link across a tile border.
func linkPortal(t *navmesh.Tile, i int, l navmesh.Link) (geom.Vec3, geom.Vec3) {
	p := &t.Polys[i]
	nv := int(p.VertCount)
	e := int(l.Edge) % nv
	a, b := t.Verts[p.Verts[e]], t.Verts[p.Verts[(e+1)%nv]]
	if l.Side != navmesh.InternalSide && (l.BMin != 0 || l.BMax != 255) {
		lerp := func(f uint8) geom.Vec3 {
			s := float64(f) / 255
			return geom.Vec3d{
				X: geom.Lerp(float64(a.X), float64(b.X), s),
				Y: geom.Lerp(float64(a.Y), float64(b.Y), s),
				Z: geom.Lerp(float64(a.Z), float64(b.Z), s),
			}.F32()
		}
		a, b = lerp(l.BMin), lerp(l.BMax)
	}
	return a, b
}

// nodePortal is linkPortal for link l of node from (polygon i of t, or an
// off-mesh link node): the portal of a link to or from an off-mesh link
// is the point where they meet, the link's start or end.
func nodePortal(m *navmesh.Mesh, from navmesh.PolyRef, t *navmesh.Tile, i int, l navmesh.Link) (geom.Vec3, geom.Vec3) {
	if p, ok := m.LinkPoint(from, l); ok {
		return p, p
	}
	return linkPortal(t, i, l)
}

func midpoint(a, b geom.Vec3) geom.Vec3 {
	return geom.Vec3d{
		X: (float64(a.X) + float64(b.X)) / 2,
		Y: (float64(a.Y) + float64(b.Y)) / 2,
		Z: (float64(a.Z) + float64(b.Z)) / 2,
	}.F32()
}

// SearchRule chooses how FindPath keeps its search records
// (docs/query.md, "The cost model and FindPath"). The zero value is
// SearchOptimal.
type SearchRule uint8

const (
	// SearchOptimal keeps one record per (polygon, polygon it was entered
	// from): the corridor is of least cost for the cost model.
	SearchOptimal SearchRule = iota
	// SearchDetour is Detour's findPath rule: one record per (polygon,
	// tile side it was entered across), its entry point fixed when the
	// record is made, the end leg costed when the end polygon is entered.
	// Its corridors are Detour's, not always the cheapest.
	SearchDetour
)

// searchRuleNames are the names String and ParseSearchRule use.
var searchRuleNames = [...]string{SearchOptimal: "optimal", SearchDetour: "detour"}

// String returns the rule's name: optimal or detour.
func (r SearchRule) String() string {
	if int(r) < len(searchRuleNames) {
		return searchRuleNames[r]
	}
	return fmt.Sprintf("SearchRule(%d)", uint8(r))
}

// ParseSearchRule returns the rule named name (optimal or detour).
func ParseSearchRule(name string) (SearchRule, error) {
	for r, n := range searchRuleNames {
		if n == name {
			return SearchRule(r), nil
		}
	}
	return 0, fmt.Errorf("query: search rule %q, want optimal or detour", name)
}

// A search state: polygon ref entered at pos (the start point for the
// start state), reached from state parent. Its key is (ref, entry): entry
// is the polygon ref was entered from (SearchOptimal, 0 for the start
// state, goalEntry for the goal state) or detourEntry of the link it was
// entered by (SearchDetour).
type node struct {
	ref    navmesh.PolyRef
	entry  uint64
	parent int // index in nodes, -1 for the start
	pos    geom.Vec3
	cost   float64 // from the start to pos
	total  float64 // cost + estimate
	closed bool
}

// stateKey identifies a search state.
type stateKey struct {
	ref   navmesh.PolyRef
	entry uint64
}

// goalEntry marks SearchOptimal's goal state: the end point reached.
const goalEntry = ^uint64(0)

// detourEntry is the record a link leads into under SearchDetour, Detour's
// node state: 0 for a link inside the tile, the border direction / 2 for
// a link across a tile border. So a link across the +x border
// (navmesh.DirPosX, 0) shares the record of the links inside the tile, as
// in Detour.
func detourEntry(l navmesh.Link) uint64 {
	if l.Side == navmesh.InternalSide || l.Side == navmesh.OffMeshSide {
		return 0 // Detour's off-mesh links have side 0xff too
	}
	return uint64(l.Side >> 1)
}

type openEntry struct {
	total float64
	ref   navmesh.PolyRef
	seq   uint64
	node  int
}

type openHeap []openEntry

func (h openHeap) Len() int { return len(h) }
func (h openHeap) Less(i, j int) bool {
	if h[i].total != h[j].total {
		return h[i].total < h[j].total
	}
	if h[i].ref != h[j].ref {
		return h[i].ref < h[j].ref
	}
	return h[i].seq < h[j].seq
}
func (h openHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *openHeap) Push(x any)   { *h = append(*h, x.(openEntry)) }
func (h *openHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

// PathLimits bound a path search and choose its rule; 0 selects the
// default.
type PathLimits struct {
	// Rule is the search rule, default SearchOptimal.
	Rule SearchRule
	// MaxNodes bounds the search states (one per polygon and the polygon
	// it is entered from, or under SearchDetour the side it is entered
	// across), default DefaultMaxNodes. A search that needs more ends
	// partial.
	MaxNodes int
	// MaxPath bounds the corridor's polygons (default: no bound). A longer
	// corridor is cut to its first MaxPath polygons and is partial.
	MaxPath int
}

// FindPath returns the corridor of polygons from startRef to endRef that
// is cheapest for the cost model of docs/query.md ("Cost model"):
// a corridor enters each polygon at the midpoint of the portal between it
// and the previous polygon (the first link between them, in link order);
// the cost is the sum, over the legs start → portal midpoints → end, of
// the leg's length (metres) times the area cost of the polygon it crosses
// (filter.AreaCost; nil filter is DefaultFilter()). A corridor never
// steps straight back into the polygon it came from, and polygons that
// filter rejects are not entered (start and end are always accepted).
// The search is A* over (polygon, previous polygon) states with the
// estimate heuristicScale times the smallest area cost times the distance
// to end, which never overestimates, so the corridor is optimal; equal
// costs go to the lower PolyRef, then the state pushed first, so the
// result is deterministic.
//
// FindPathLimited with PathLimits.Rule SearchDetour gives Detour's
// corridor instead.
//
// When endRef cannot be reached, the corridor leads to the visited
// polygon nearest to end (ties: lower cost, then lower PolyRef) and the
// error wraps ErrPartial. Stale or invalid refs, non-finite points and
// bad filter costs are errors (with a nil corridor).
func FindPath(m *navmesh.Mesh, startRef, endRef navmesh.PolyRef, start, end geom.Vec3, filter *Filter) ([]navmesh.PolyRef, error) {
	return FindPathLimited(m, startRef, endRef, start, end, filter, PathLimits{})
}

// FindPathLimited is FindPath within limits.
func FindPathLimited(m *navmesh.Mesh, startRef, endRef navmesh.PolyRef, start, end geom.Vec3, filter *Filter, limits PathLimits) ([]navmesh.PolyRef, error) {
	s, err := NewPathSearch(m, startRef, endRef, start, end, filter, limits)
	if err != nil {
		return nil, err
	}
	if _, err := s.Step(0); err != nil {
		return nil, err
	}
	return s.Result()
}

// PathSearch is a FindPath search run in slices (Detour's sliced path
// finding): NewPathSearch starts it, Step advances it by a budget of
// expanded states, Result gives the corridor once Step reports done. The
// mesh may change between steps: a stale polygon met by Step or left in
// the corridor at Result is an error, never followed.
type PathSearch struct {
	m                *navmesh.Mesh
	filter           *Filter
	startRef, endRef navmesh.PolyRef
	start, end       geom.Vec3
	limits           PathLimits
	hScale           float64 // SearchOptimal's estimate per metre
	endCost          float64 // the end polygon's area cost
	nodes            []node
	index            map[stateKey]int
	open             openHeap
	seq              uint64
	best             int
	bestH            float64 // best's distance to end (SearchDetour: its estimate)
	reached          int
	outOfNodes       bool
	done             bool
	err              error
}

// NewPathSearch checks the arguments of a search (as FindPath) and
// returns it with only the start state open.
func NewPathSearch(m *navmesh.Mesh, startRef, endRef navmesh.PolyRef, start, end geom.Vec3, filter *Filter, limits PathLimits) (*PathSearch, error) {
	if m == nil {
		return nil, fmt.Errorf("query: FindPath: nil mesh")
	}
	filter, err := orDefault(filter)
	if err != nil {
		return nil, err
	}
	if !finite3(start) || !finite3(end) {
		return nil, fmt.Errorf("query: FindPath: points %v, %v, want finite", start, end)
	}
	if limits.MaxNodes < 0 || limits.MaxPath < 0 || limits.Rule > SearchDetour {
		return nil, fmt.Errorf("query: FindPath: limits %+v, want MaxNodes and MaxPath >= 0 and Rule optimal or detour", limits)
	}
	if limits.MaxNodes == 0 {
		limits.MaxNodes = DefaultMaxNodes
	}
	// Both ends must be polygons (an off-mesh link node is not: docs/query.md §3).
	if _, _, err := polyData(m, "FindPath start", startRef); err != nil {
		return nil, err
	}
	if _, _, err := polyData(m, "FindPath end", endRef); err != nil {
		return nil, err
	}
	endArea, err := m.PolyArea(endRef)
	if err != nil {
		return nil, fmt.Errorf("query: FindPath end: polygon %#x: %w", uint64(endRef), err)
	}
	s := &PathSearch{m: m, filter: filter, startRef: startRef, endRef: endRef, start: start, end: end,
		limits: limits, hScale: heuristicScale * filter.minCost(), endCost: filter.cost(endArea), reached: -1}
	h, total := dist3(start, end), 0.0
	if limits.Rule == SearchDetour {
		h = float64(detourDist(start, end) * float32(heuristicScale))
		total = h
	} else {
		total = h * s.hScale
	}
	s.nodes = []node{{ref: startRef, parent: -1, pos: start, total: total}}
	s.index = map[stateKey]int{{startRef, 0}: 0}
	s.open = openHeap{{total: total, ref: startRef, node: 0}}
	s.bestH = h
	return s, nil
}

// Step expands up to maxStates search states (all that remain when
// maxStates <= 0) and reports whether the search is over. After an error
// the search is over and Result returns that error.
func (s *PathSearch) Step(maxStates int) (bool, error) {
	if s == nil {
		return true, fmt.Errorf("query: PathSearch.Step on a nil search")
	}
	for n := 0; !s.done && (maxStates <= 0 || n < maxStates); n++ {
		if s.open.Len() == 0 {
			s.done = true
			break
		}
		e := heap.Pop(&s.open).(openEntry)
		cur := &s.nodes[e.node]
		if cur.closed || e.total != cur.total {
			continue // a stale entry
		}
		cur.closed = true
		if cur.entry == goalEntry || s.limits.Rule == SearchDetour && cur.ref == s.endRef {
			s.reached, s.done = e.node, true
			break
		}
		if err := s.expand(e.node); err != nil {
			s.err, s.done = err, true
		}
	}
	return s.done, s.err
}

// expand relaxes the successors of state ci: the goal when it lies in
// endRef (SearchOptimal), and every neighbour polygon (the first link to
// each) that passes the filter, except the one ci came from. A state
// keeps the entry point it was made with (under SearchOptimal the key
// fixes it; under SearchDetour it is the first visit's). Under
// SearchDetour a state in endRef costs the end leg too and has no
// estimate.
func (s *PathSearch) expand(ci int) error {
	cur := s.nodes[ci]
	back := navmesh.PolyRef(0) // the polygon ci came from
	if cur.parent >= 0 {
		back = s.nodes[cur.parent].ref
	}
	t, pi, err := nodeData(s.m, "FindPath", cur.ref)
	if err != nil {
		return err
	}
	links, err := s.m.Links(cur.ref)
	if err != nil {
		return fmt.Errorf("query: FindPath: polygon %#x: %w", uint64(cur.ref), err)
	}
	area, err := s.m.PolyArea(cur.ref)
	if err != nil {
		return fmt.Errorf("query: FindPath: polygon %#x: %w", uint64(cur.ref), err)
	}
	c := s.filter.cost(area)
	detour := s.limits.Rule == SearchDetour
	if cur.ref == s.endRef && !detour {
		cost := cur.cost + float64(dist3(cur.pos, s.end)*c)
		s.relax(ci, stateKey{s.endRef, goalEntry}, s.end, cost, cost)
	}
	for k, l := range links {
		nb := l.Ref
		if nb == back || firstLinkBefore(links, k) {
			continue
		}
		if nb != s.endRef && !s.filter.passesRef(s.m, nb) {
			continue
		}
		key := stateKey{nb, uint64(cur.ref)}
		if detour {
			key.entry = detourEntry(l)
		}
		var pos geom.Vec3
		if ni, seen := s.index[key]; seen {
			pos = s.nodes[ni].pos
		} else {
			a, b := nodePortal(s.m, cur.ref, t, pi, l)
			pos = midpoint(a, b)
		}
		if detour {
			cost, h := s.detourStep(&cur, pos, c, nb == s.endRef)
			if ni := s.relax(ci, key, pos, cost, float64(float32(cost)+float32(h))); ni >= 0 && h < s.bestH {
				s.best, s.bestH = ni, h // Detour's nearest: the first with the least estimate
			}
			continue
		}
		cost := cur.cost + float64(dist3(cur.pos, pos)*c)
		dh := dist3(pos, s.end)
		ni := s.relax(ci, key, pos, cost, cost+float64(dh*s.hScale))
		if ni < 0 {
			continue
		}
		bn := &s.nodes[s.best]
		if dh < s.bestH || dh == s.bestH && (cost < bn.cost || cost == bn.cost && nb < bn.ref) {
			s.best, s.bestH = ni, dh
		}
	}
	return nil
}

// detourStep returns, under SearchDetour, the cost of the state entered at
// pos from cur (whose polygon costs c per metre) and its estimate, in
// Detour's float32 arithmetic: the leg's length times c added to cur's
// cost; entering the end polygon adds the end leg (times the end
// polygon's cost) and has estimate 0, else the estimate is
// heuristicScale times the distance from pos to the end (not scaled by
// the smallest area cost, as Detour's).
func (s *PathSearch) detourStep(cur *node, pos geom.Vec3, c float64, atEnd bool) (cost, h float64) {
	cf := float32(cur.cost) + float32(detourDist(cur.pos, pos)*float32(c))
	if atEnd {
		return float64(cf + float32(detourDist(pos, s.end)*float32(s.endCost))), 0
	}
	return float64(cf), float64(detourDist(pos, s.end) * float32(heuristicScale))
}

// detourDist is Detour's dtVdist: the 3D distance in float32 arithmetic
// (squares summed x, y, z in order; float32 sqrt, correctly rounded).
func detourDist(a, b geom.Vec3) float32 {
	dx, dy, dz := a.X-b.X, a.Y-b.Y, a.Z-b.Z
	return float32(math.Sqrt(float64(float32(dx*dx) + float32(dy*dy) + float32(dz*dz))))
}

// firstLinkBefore reports whether a link before links[k] leads to the
// same polygon (only the first link between two polygons is a portal).
func firstLinkBefore(links []navmesh.Link, k int) bool {
	for _, l := range links[:k] {
		if l.Ref == links[k].Ref {
			return true
		}
	}
	return false
}

// relax offers state key at pos (for a new state) with cost and total
// (cost + estimate) from parent ci: it is created, or reopened when
// cheaper (SearchDetour: when its total is lower, as Detour), and pushed.
// It returns the state's index, -1 when it was not improved (or the node
// limit was hit).
func (s *PathSearch) relax(ci int, key stateKey, pos geom.Vec3, cost, total float64) int {
	ni, seen := s.index[key]
	if seen {
		n := &s.nodes[ni]
		if cost >= n.cost || s.limits.Rule == SearchDetour && total >= n.total {
			return -1
		}
		n.parent, n.cost, n.total, n.closed = ci, cost, total, false
	} else {
		if len(s.nodes) >= s.limits.MaxNodes {
			s.outOfNodes = true
			return -1
		}
		ni = len(s.nodes)
		s.nodes = append(s.nodes, node{ref: key.ref, entry: key.entry, parent: ci, pos: pos, cost: cost, total: total})
		s.index[key] = ni
	}
	s.seq++
	heap.Push(&s.open, openEntry{total: total, ref: key.ref, seq: s.seq, node: ni})
	return ni
}

// Result returns the corridor of a finished search, as FindPath does. A
// polygon of the corridor that went stale since it was visited is an
// error.
func (s *PathSearch) Result() ([]navmesh.PolyRef, error) {
	if s == nil {
		return nil, fmt.Errorf("query: PathSearch.Result of a nil search")
	}
	if s.err != nil {
		return nil, s.err
	}
	if !s.done || len(s.nodes) == 0 || s.m == nil {
		return nil, fmt.Errorf("query: PathSearch.Result of a search not started by NewPathSearch or not done")
	}
	last := s.best
	if s.reached >= 0 {
		last = s.reached
		if s.nodes[last].entry == goalEntry {
			last = s.nodes[last].parent
		}
	}
	var path []navmesh.PolyRef
	for i := last; i >= 0; i = s.nodes[i].parent {
		path = append(path, s.nodes[i].ref)
		if len(path) > len(s.nodes) {
			return nil, fmt.Errorf("query: FindPath: corridor loops (internal error)")
		}
	}
	slices.Reverse(path)
	for _, r := range path {
		if !s.m.IsValidRef(r) {
			return nil, fmt.Errorf("query: FindPath: corridor polygon %#x went stale during the search", uint64(r))
		}
	}
	var why []string
	if s.reached < 0 {
		why = append(why, fmt.Sprintf("%#x not reached", uint64(s.endRef)))
		if s.outOfNodes {
			why = append(why, fmt.Sprintf("node limit %d hit", s.limits.MaxNodes))
		}
	}
	if s.limits.MaxPath > 0 && len(path) > s.limits.MaxPath {
		why = append(why, fmt.Sprintf("corridor of %d polygons cut to MaxPath %d", len(path), s.limits.MaxPath))
		path = path[:s.limits.MaxPath]
	}
	if len(why) > 0 {
		return path, fmt.Errorf("%w: from %#x, %s, corridor ends at %#x", ErrPartial, uint64(s.startRef), strings.Join(why, ", "), uint64(path[len(path)-1]))
	}
	return path, nil
}

// CorridorCost returns the cost of corridor from start to end under the
// cost model FindPath minimises (docs/query.md): the legs start → portal
// midpoints → end, each leg's length times the area cost (filter, nil:
// DefaultFilter) of the polygon it crosses. Stale refs and neighbours
// without a link are errors.
func CorridorCost(m *navmesh.Mesh, start, end geom.Vec3, corridor []navmesh.PolyRef, filter *Filter) (float64, error) {
	if m == nil {
		return 0, fmt.Errorf("query: CorridorCost: nil mesh")
	}
	filter, err := orDefault(filter)
	if err != nil {
		return 0, err
	}
	if !finite3(start) || !finite3(end) || len(corridor) == 0 {
		return 0, fmt.Errorf("query: CorridorCost: points %v, %v and %d polygons, want finite points and a corridor", start, end, len(corridor))
	}
	pos, cost := start, 0.0
	for i, r := range corridor {
		area, err := m.PolyArea(r)
		if err != nil {
			return 0, fmt.Errorf("query: CorridorCost: polygon %d %#x: %w", i, uint64(r), err)
		}
		next := end
		if i+1 < len(corridor) {
			a, b, err := linkPortalOf(m, "CorridorCost", r, corridor[i+1])
			if err != nil {
				return 0, err
			}
			next = midpoint(a, b)
		}
		cost += float64(dist3(pos, next) * filter.cost(area))
		pos = next
	}
	return cost, nil
}
