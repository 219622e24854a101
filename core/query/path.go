package query

import (
	"container/heap"
	"errors"
	"fmt"

	"navviz/core/geom"
	"navviz/core/navmesh"
)

// heuristicScale scales the straight-line distance to the end in the A*
// estimate, metres per metre (Detour's H_SCALE: slightly below 1, so the
// estimate never overshoots a cost-1 path).
const heuristicScale = 0.999

// maxPathNodes bounds the polygons FindPath visits.
const maxPathNodes = 1 << 20

// ErrPartial marks a FindPath result that ends short of the end polygon
// because it cannot be reached: the corridor leads to the visited polygon
// nearest to the end point.
var ErrPartial = errors.New("query: end polygon unreachable, partial path")

// polyData returns the tile and polygon index of ref, with an error naming
// ref when it is stale or invalid.
func polyData(m *navmesh.Mesh, what string, ref navmesh.PolyRef) (*navmesh.Tile, int, error) {
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

func midpoint(a, b geom.Vec3) geom.Vec3 {
	return geom.Vec3d{
		X: (float64(a.X) + float64(b.X)) / 2,
		Y: (float64(a.Y) + float64(b.Y)) / 2,
		Z: (float64(a.Z) + float64(b.Z)) / 2,
	}.F32()
}

type node struct {
	ref    navmesh.PolyRef
	parent int // index in nodes, -1 for the start
	pos    geom.Vec3
	cost   float64 // from the start to pos
	total  float64 // cost + heuristic
	closed bool
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

// FindPath returns a corridor of polygons from startRef to endRef: A* over
// the polygons' links, each polygon entered at the midpoint of the portal
// it is entered by (Detour's findPath). Moving from a point to the next
// costs their distance (metres) times the area cost of the polygon moved
// across; the last step adds the distance to end across endRef. The
// estimate is heuristicScale times the distance to end. Polygons that
// filter rejects are not entered (start and end are always accepted); nil
// filter is DefaultFilter(). Open nodes are taken by lowest estimate, then
// lowest PolyRef, then first pushed, so the result is deterministic.
//
// When endRef cannot be reached, the corridor leads to the visited
// polygon nearest to end (ties: lower cost, then lower PolyRef) and the
// error wraps ErrPartial. Stale or invalid refs, non-finite points and
// bad filter costs are errors (with a nil corridor).
func FindPath(m *navmesh.Mesh, startRef, endRef navmesh.PolyRef, start, end geom.Vec3, filter *Filter) ([]navmesh.PolyRef, error) {
	if m == nil {
		return nil, fmt.Errorf("query: FindPath: nil mesh")
	}
	if filter == nil {
		filter = DefaultFilter()
	}
	if err := filter.validate(); err != nil {
		return nil, err
	}
	if !finite3(start) || !finite3(end) {
		return nil, fmt.Errorf("query: FindPath: points %v, %v, want finite", start, end)
	}
	if _, _, err := polyData(m, "FindPath start", startRef); err != nil {
		return nil, err
	}
	if _, _, err := polyData(m, "FindPath end", endRef); err != nil {
		return nil, err
	}
	if startRef == endRef {
		return []navmesh.PolyRef{startRef}, nil
	}
	nodes := []node{{ref: startRef, parent: -1, pos: start, total: dist3(start, end) * heuristicScale}}
	index := map[navmesh.PolyRef]int{startRef: 0}
	open := &openHeap{{total: nodes[0].total, ref: startRef, node: 0}}
	var seq uint64
	best := 0
	bestH := dist3(start, end)
	reached := -1
	for open.Len() > 0 && len(nodes) < maxPathNodes {
		e := heap.Pop(open).(openEntry)
		cur := &nodes[e.node]
		if cur.closed || e.total != cur.total {
			continue // a stale entry
		}
		cur.closed = true
		ci := e.node
		if cur.ref == endRef {
			reached = ci
			break
		}
		t, pi, err := polyData(m, "FindPath", cur.ref)
		if err != nil {
			return nil, err
		}
		links, err := m.Links(cur.ref)
		if err != nil {
			return nil, fmt.Errorf("query: FindPath: polygon %#x: %w", uint64(cur.ref), err)
		}
		area, _ := m.PolyArea(cur.ref)
		curCost, curPos, curParent := cur.cost, cur.pos, cur.parent
		for _, l := range links {
			nb := l.Ref
			if curParent >= 0 && nodes[curParent].ref == nb {
				continue
			}
			if nb != endRef {
				flags, err := m.PolyFlags(nb)
				if err != nil || !filter.Passes(flags) {
					continue
				}
			}
			a, b := linkPortal(t, pi, l)
			mid := midpoint(a, b)
			cost := curCost + float64(dist3(curPos, mid)*filter.AreaCost[area])
			h := float64(dist3(mid, end) * heuristicScale)
			if nb == endRef {
				endArea, _ := m.PolyArea(nb)
				cost += float64(dist3(mid, end) * filter.AreaCost[endArea])
				h = 0
			}
			total := cost + h
			ni, seen := index[nb]
			if seen {
				n := &nodes[ni]
				if total >= n.total {
					continue
				}
				n.parent, n.pos, n.cost, n.total, n.closed = ci, mid, cost, total, false
			} else {
				ni = len(nodes)
				nodes = append(nodes, node{ref: nb, parent: ci, pos: mid, cost: cost, total: total})
				index[nb] = ni
			}
			seq++
			heap.Push(open, openEntry{total: total, ref: nb, seq: seq, node: ni})
			dh := dist3(mid, end)
			bn := &nodes[best]
			if dh < bestH || dh == bestH && (cost < bn.cost || cost == bn.cost && nb < bn.ref) {
				best, bestH = ni, dh
			}
		}
	}
	last := reached
	if last < 0 {
		last = best
	}
	var path []navmesh.PolyRef
	for i := last; i >= 0; i = nodes[i].parent {
		path = append(path, nodes[i].ref)
		if len(path) > len(nodes) {
			return nil, fmt.Errorf("query: FindPath: corridor loops (internal error)")
		}
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	if reached < 0 {
		return path, fmt.Errorf("%w: from %#x, %#x not reached, corridor ends at %#x", ErrPartial, uint64(startRef), uint64(endRef), uint64(path[len(path)-1]))
	}
	return path, nil
}
