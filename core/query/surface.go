package query

import (
	"container/heap"
	"fmt"
	"math"
	"math/rand/v2"

	"navviz/core/geom"
	"navviz/core/navmesh"
)

// Segment is a segment of a polygon's boundary, metres.
type Segment struct{ A, B geom.Vec3 }

// wallParts calls fn for every part of polygon i's boundary (tile t, ref
// its PolyRef) that no link to a polygon passing filter covers: the walls
// as the filter sees them. A tile-border link covers only its BMin..BMax
// part of the edge. Parts come edge by edge, along each edge.
func wallParts(m *navmesh.Mesh, t *navmesh.Tile, i int, ref navmesh.PolyRef, filter *Filter, fn func(a, b geom.Vec3)) error {
	links, err := m.Links(ref)
	if err != nil {
		return fmt.Errorf("query: polygon %#x: %w", uint64(ref), err)
	}
	vs := polyVerts(t, i)
	for e := range vs {
		va, vb := vs[e], vs[(e+1)%len(vs)]
		var cover [][2]float64
		for _, l := range links {
			if l.Side == navmesh.OffMeshSide || int(l.Edge) != e || !filter.passesRef(m, l.Ref) {
				continue
			}
			lo, hi := 0.0, 1.0
			if l.Side != navmesh.InternalSide {
				lo, hi = float64(l.BMin)/255, float64(l.BMax)/255
			}
			cover = append(cover, [2]float64{lo, hi})
		}
		// Walk [0, 1] and emit what no cover interval holds.
		pos := 0.0
		for pos < 1 {
			next := 1.0
			advanced := false
			for _, c := range cover {
				if c[0] <= pos && c[1] > pos {
					pos, advanced = c[1], true
				}
			}
			if advanced {
				continue
			}
			for _, c := range cover {
				if c[0] > pos && c[0] < next {
					next = c[0]
				}
			}
			fn(lerpPoint(va, vb, pos), lerpPoint(va, vb, next))
			pos = next
		}
	}
	return nil
}

// PolyWallSegments returns the walls of polygon ref as filter (nil:
// DefaultFilter) sees them: the parts of its boundary with no link to a
// polygon that passes the filter, edge by edge in the polygon's winding
// (Detour's getPolyWallSegments without the portal segments).
func PolyWallSegments(m *navmesh.Mesh, ref navmesh.PolyRef, filter *Filter) ([]Segment, error) {
	if m == nil {
		return nil, fmt.Errorf("query: PolyWallSegments: nil mesh")
	}
	filter, err := orDefault(filter)
	if err != nil {
		return nil, err
	}
	t, i, err := polyData(m, "PolyWallSegments", ref)
	if err != nil {
		return nil, err
	}
	var out []Segment
	err = wallParts(m, t, i, ref, filter, func(a, b geom.Vec3) { out = append(out, Segment{a, b}) })
	return out, err
}

// segDistXZ returns the XZ distance from p to segment a-b.
func segDistXZ(p, a, b geom.Vec3) float64 {
	_, d := closestOnSeg(p, a, b)
	return math.Sqrt(d)
}

// circleNode is a polygon reached by circleSearch.
type circleNode struct {
	ref, parent navmesh.PolyRef
	pos         geom.Vec3 // the portal midpoint it was reached by (centre for the start)
	cost        float64
	closed      bool
}

// circleSearch is Dijkstra's search over the polygons from startRef that
// filter passes, a neighbour being reached when reach accepts the portal
// (for a circle: its XZ distance to the centre is at most the radius, read
// at every step so that a caller may shrink it): cost is the distance
// between portal midpoints (from centre for the start) times the area
// cost of the polygon crossed (Detour's findPolysAroundCircle). visit is
// called for each polygon when it is closed, in order of cost (ties:
// lower PolyRef). It returns the nodes in that order.
func circleSearch(m *navmesh.Mesh, startRef navmesh.PolyRef, centre geom.Vec3, filter *Filter, reach func(a, b geom.Vec3) bool,
	visit func(t *navmesh.Tile, i int, n *circleNode) error) ([]circleNode, error) {
	if _, _, err := polyData(m, "circle search", startRef); err != nil {
		return nil, err
	}
	nodes := []circleNode{{ref: startRef, pos: centre}}
	index := map[navmesh.PolyRef]int{startRef: 0}
	open := &openHeap{{total: 0, ref: startRef, node: 0}}
	var seq uint64
	var order []circleNode
	for open.Len() > 0 {
		e := heap.Pop(open).(openEntry)
		cur := &nodes[e.node]
		if cur.closed || e.total != cur.cost {
			continue
		}
		cur.closed = true
		t, pi, err := polyData(m, "circle search", cur.ref)
		if err != nil {
			return nil, err
		}
		if err := visit(t, pi, cur); err != nil {
			return nil, err
		}
		order = append(order, *cur)
		links, err := m.Links(cur.ref)
		if err != nil {
			return nil, fmt.Errorf("query: polygon %#x: %w", uint64(cur.ref), err)
		}
		area, _ := m.PolyArea(cur.ref)
		c := filter.cost(area)
		curPos, curCost, curRef := cur.pos, cur.cost, cur.ref
		for k, l := range links {
			if l.Side == navmesh.OffMeshSide || l.Ref == cur.parent || firstLinkBefore(links, k) || !filter.passesRef(m, l.Ref) {
				continue
			}
			a, b := linkPortal(t, pi, l)
			if !reach(a, b) {
				continue
			}
			mid := midpoint(a, b)
			cost := curCost + float64(dist3(curPos, mid)*c)
			ni, seen := index[l.Ref]
			if seen {
				n := &nodes[ni]
				if n.closed || cost >= n.cost {
					continue
				}
				n.parent, n.pos, n.cost = curRef, mid, cost
			} else {
				ni = len(nodes)
				nodes = append(nodes, circleNode{ref: l.Ref, parent: curRef, pos: mid, cost: cost})
				index[l.Ref] = ni
			}
			seq++
			heap.Push(open, openEntry{total: cost, ref: l.Ref, seq: seq, node: ni})
		}
	}
	return order, nil
}

// checkCircle checks the common arguments of the circle queries.
func checkCircle(m *navmesh.Mesh, what string, centre geom.Vec3, radius float64, filter *Filter) (*Filter, error) {
	if m == nil {
		return nil, fmt.Errorf("query: %s: nil mesh", what)
	}
	if !finite3(centre) || !(radius >= 0) || math.IsInf(radius, 1) {
		return nil, fmt.Errorf("query: %s: centre %v, radius %v m, want finite and radius >= 0", what, centre, radius)
	}
	return orDefault(filter)
}

// PolysAroundCircle returns the polygons reachable from startRef through
// portals within radius (metres, XZ) of centre, with the polygon each was
// reached from (0 for startRef) and the cost of reaching it, in order of
// cost (Detour's findPolysAroundCircle; filter nil: DefaultFilter).
func PolysAroundCircle(m *navmesh.Mesh, startRef navmesh.PolyRef, centre geom.Vec3, radius float64, filter *Filter) (refs, parents []navmesh.PolyRef, costs []float64, err error) {
	filter, err = checkCircle(m, "PolysAroundCircle", centre, radius, filter)
	if err != nil {
		return nil, nil, nil, err
	}
	nodes, err := circleSearch(m, startRef, centre, filter, func(a, b geom.Vec3) bool { return segDistXZ(centre, a, b) <= radius },
		func(*navmesh.Tile, int, *circleNode) error { return nil })
	if err != nil {
		return nil, nil, nil, fmt.Errorf("query: PolysAroundCircle: %w", err)
	}
	refs, parents, costs = unzipNodes(nodes)
	return refs, parents, costs, nil
}

func unzipNodes(nodes []circleNode) (refs, parents []navmesh.PolyRef, costs []float64) {
	for _, n := range nodes {
		refs, parents, costs = append(refs, n.ref), append(parents, n.parent), append(costs, n.cost)
	}
	return refs, parents, costs
}

// PolysAroundShape is PolysAroundCircle for a convex polygon shape (XZ,
// corners in either winding, heights ignored): a neighbour is reached when
// the portal meets the shape, and costs start from the mean of the
// shape's corners (Detour's findPolysAroundShape).
func PolysAroundShape(m *navmesh.Mesh, startRef navmesh.PolyRef, shape []geom.Vec3, filter *Filter) (refs, parents []navmesh.PolyRef, costs []float64, err error) {
	if len(shape) < 3 {
		return nil, nil, nil, fmt.Errorf("query: PolysAroundShape: %d corners, want at least 3", len(shape))
	}
	for _, v := range shape {
		if !finite3(v) {
			return nil, nil, nil, fmt.Errorf("query: PolysAroundShape: corner %v is not finite", v)
		}
	}
	centre := meanPoint(shape)
	if filter, err = checkCircle(m, "PolysAroundShape", centre, 0, filter); err != nil {
		return nil, nil, nil, err
	}
	nodes, err := circleSearch(m, startRef, centre, filter, func(a, b geom.Vec3) bool {
		_, _, _, _, ok := clipSegment(a, b, shape, 0)
		return ok
	}, func(*navmesh.Tile, int, *circleNode) error { return nil })
	if err != nil {
		return nil, nil, nil, fmt.Errorf("query: PolysAroundShape: %w", err)
	}
	refs, parents, costs = unzipNodes(nodes)
	return refs, parents, costs, nil
}

// WallHit is the result of DistanceToWall.
type WallHit struct {
	// DistM is the XZ distance from the centre to the nearest wall,
	// metres; the search radius when no wall lies within it.
	DistM float64
	// Pos is the nearest wall point (zero when none was found).
	Pos geom.Vec3
	// Normal is the unit XZ normal from the wall point towards the centre
	// (zero when none was found, or the centre lies on the wall).
	Normal geom.Vec3
	// Found reports whether a wall lies within the radius.
	Found bool
}

// DistanceToWall returns the nearest wall (PolyWallSegments) of the
// polygons reachable from startRef within maxRadius (metres, XZ) of centre
// (Detour's findDistanceToWall; filter nil: DefaultFilter). The search
// shrinks to the nearest wall found so far.
func DistanceToWall(m *navmesh.Mesh, startRef navmesh.PolyRef, centre geom.Vec3, maxRadius float64, filter *Filter) (WallHit, error) {
	filter, err := checkCircle(m, "DistanceToWall", centre, maxRadius, filter)
	if err != nil {
		return WallHit{}, err
	}
	hit := WallHit{DistM: maxRadius}
	_, err = circleSearch(m, startRef, centre, filter, func(a, b geom.Vec3) bool { return segDistXZ(centre, a, b) <= hit.DistM },
		func(t *navmesh.Tile, i int, n *circleNode) error {
			return wallParts(m, t, i, n.ref, filter, func(a, b geom.Vec3) {
				q, d2 := closestOnSeg(centre, a, b)
				if d := math.Sqrt(d2); d < hit.DistM || d == hit.DistM && !hit.Found {
					hit = WallHit{DistM: d, Pos: q, Found: true}
				}
			})
		})
	if err != nil {
		return WallHit{}, fmt.Errorf("query: DistanceToWall: %w", err)
	}
	if hit.Found && hit.DistM > 0 {
		nx, nz := (float64(centre.X)-float64(hit.Pos.X))/hit.DistM, (float64(centre.Z)-float64(hit.Pos.Z))/hit.DistM
		hit.Normal = geom.Vec3{X: float32(nx), Z: float32(nz)}
	}
	return hit, nil
}

// MoveAlongSurface moves from start (on startRef) towards end, metres,
// staying on the mesh (Detour's moveAlongSurface): a breadth-first search
// over the polygons that filter passes (nil: DefaultFilter) whose portals
// lie within the circle through start and end; when end lies over a
// polygon reached, the result is end's x, z on that polygon's surface,
// else the wall point nearest to end of the polygons reached (at the
// surface height of its polygon there, ClosestPointOnPoly). visited is the chain of polygons from startRef to the
// polygon the result lies on.
func MoveAlongSurface(m *navmesh.Mesh, startRef navmesh.PolyRef, start, end geom.Vec3, filter *Filter) (geom.Vec3, []navmesh.PolyRef, error) {
	if m == nil {
		return geom.Vec3{}, nil, fmt.Errorf("query: MoveAlongSurface: nil mesh")
	}
	if !finite3(start) || !finite3(end) {
		return geom.Vec3{}, nil, fmt.Errorf("query: MoveAlongSurface: points %v, %v, want finite", start, end)
	}
	filter, err := orDefault(filter)
	if err != nil {
		return geom.Vec3{}, nil, err
	}
	if _, _, err := polyData(m, "MoveAlongSurface", startRef); err != nil {
		return geom.Vec3{}, nil, err
	}
	centre := midpoint(start, end)
	radius := float64(geom.Hypot(float64(end.X)-float64(start.X), float64(end.Z)-float64(start.Z))/2) + 1e-3
	parent := map[navmesh.PolyRef]navmesh.PolyRef{startRef: 0}
	queue := []navmesh.PolyRef{startRef}
	bestRef, bestPos, bestD := startRef, start, math.Inf(1)
	found := false
	for k := 0; k < len(queue) && !found; k++ {
		cur := queue[k]
		t, i, err := polyData(m, "MoveAlongSurface", cur)
		if err != nil {
			return geom.Vec3{}, nil, err
		}
		vs := polyVerts(t, i)
		if insideXZ(end, vs) {
			q, _ := closestOnPoly(t, i, end)
			bestRef, bestPos, found = cur, q, true
			break
		}
		if err := wallParts(m, t, i, cur, filter, func(a, b geom.Vec3) {
			if q, d := closestOnSeg(end, a, b); d < bestD {
				bestRef, bestPos, bestD = cur, q, d
			}
		}); err != nil {
			return geom.Vec3{}, nil, fmt.Errorf("query: MoveAlongSurface: %w", err)
		}
		links, err := m.Links(cur)
		if err != nil {
			return geom.Vec3{}, nil, fmt.Errorf("query: MoveAlongSurface: polygon %#x: %w", uint64(cur), err)
		}
		for _, l := range links {
			if _, seen := parent[l.Ref]; seen || l.Side == navmesh.OffMeshSide || !filter.passesRef(m, l.Ref) {
				continue
			}
			a, b := linkPortal(t, i, l)
			if segDistXZ(centre, a, b) > radius {
				continue
			}
			parent[l.Ref] = cur
			queue = append(queue, l.Ref)
		}
	}
	if !found {
		// The wall point, at the surface height there.
		t, i, _ := polyData(m, "MoveAlongSurface", bestRef)
		bestPos, _ = closestOnPoly(t, i, bestPos)
	}
	var visited []navmesh.PolyRef
	for r := bestRef; r != 0; r = parent[r] {
		visited = append([]navmesh.PolyRef{r}, visited...)
	}
	return bestPos, visited, nil
}

// triAreaXZ returns the XZ area of triangle abc, square metres, rounded
// so that it is never fused into a sum or difference.
func triAreaXZ(a, b, c geom.Vec3) float64 { return float64(math.Abs(cross2(a, b, c)) / 2) }

// polyAreaXZ returns the XZ area of polygon vs, square metres.
func polyAreaXZ(vs []geom.Vec3) float64 {
	a := 0.0
	for j := 2; j < len(vs); j++ {
		a += triAreaXZ(vs[0], vs[j-1], vs[j])
	}
	return a
}

// randomPointInPoly returns a point of polygon i drawn uniformly by XZ
// area from rng, on its surface.
func randomPointInPoly(t *navmesh.Tile, i int, rng *rand.Rand) geom.Vec3 {
	vs := polyVerts(t, i)
	total := polyAreaXZ(vs)
	u := rng.Float64() * total
	k := 2
	for ; k < len(vs)-1; k++ {
		a := triAreaXZ(vs[0], vs[k-1], vs[k])
		if u < a {
			break
		}
		u -= a
	}
	// r rounded: rand.Float64 is a product the compiler would fuse into 1-r.
	s, r := math.Sqrt(rng.Float64()), float64(rng.Float64())
	a, b, c := vs[0], vs[k-1], vs[k]
	wa, wb, wc := 1-s, float64(s*(1-r)), float64(s*r)
	x := float64(wa*float64(a.X)) + float64(wb*float64(b.X)) + float64(wc*float64(c.X))
	z := float64(wa*float64(a.Z)) + float64(wb*float64(b.Z)) + float64(wc*float64(c.Z))
	q, _ := closestOnPoly(t, i, geom.Vec3{X: float32(x), Y: a.Y, Z: float32(z)})
	return q
}

// pickByArea draws one of polys (tile, index, ref) with probability
// proportional to its XZ area.
func pickByArea(m *navmesh.Mesh, refs []navmesh.PolyRef, rng *rand.Rand) (navmesh.PolyRef, geom.Vec3, error) {
	total := 0.0
	areas := make([]float64, len(refs))
	for k, r := range refs {
		t, i, err := polyData(m, "random point", r)
		if err != nil {
			return 0, geom.Vec3{}, err
		}
		areas[k] = polyAreaXZ(polyVerts(t, i))
		total += areas[k]
	}
	if !(total > 0) {
		return 0, geom.Vec3{}, fmt.Errorf("query: random point: the %d polygons have no area", len(refs))
	}
	u := rng.Float64() * total
	k := 0
	for ; k < len(refs)-1 && u >= areas[k]; k++ {
		u -= areas[k]
	}
	t, i, _ := polyData(m, "random point", refs[k])
	return refs[k], randomPointInPoly(t, i, rng), nil
}

// RandomPoint returns a point of the mesh drawn uniformly by XZ area over
// the polygons that filter passes (nil: DefaultFilter), and its polygon
// (Detour's findRandomPoint). The draw depends only on the mesh and rng's
// state: the same seed gives the same point.
func RandomPoint(m *navmesh.Mesh, filter *Filter, rng *rand.Rand) (navmesh.PolyRef, geom.Vec3, error) {
	if m == nil || rng == nil {
		return 0, geom.Vec3{}, fmt.Errorf("query: RandomPoint: nil mesh or random source")
	}
	filter, err := orDefault(filter)
	if err != nil {
		return 0, geom.Vec3{}, err
	}
	var refs []navmesh.PolyRef
	for _, r := range allRefs(m) {
		if filter.passesRef(m, r) {
			refs = append(refs, r)
		}
	}
	if len(refs) == 0 {
		return 0, geom.Vec3{}, fmt.Errorf("query: RandomPoint: no polygon passes the filter")
	}
	return pickByArea(m, refs, rng)
}

// RandomPointAroundCircle returns a point drawn uniformly by XZ area over
// the polygons PolysAroundCircle reaches from startRef within radius of
// centre, and its polygon (Detour's findRandomPointAroundCircle: the
// point lies on a polygon touching the circle, not necessarily inside
// it). The same rng state gives the same point.
func RandomPointAroundCircle(m *navmesh.Mesh, startRef navmesh.PolyRef, centre geom.Vec3, radius float64, filter *Filter, rng *rand.Rand) (navmesh.PolyRef, geom.Vec3, error) {
	if rng == nil {
		return 0, geom.Vec3{}, fmt.Errorf("query: RandomPointAroundCircle: nil random source")
	}
	refs, _, _, err := PolysAroundCircle(m, startRef, centre, radius, filter)
	if err != nil {
		return 0, geom.Vec3{}, err
	}
	return pickByArea(m, refs, rng)
}

// allRefs lists the polygons of m, tiles in Mesh.Tiles order.
func allRefs(m *navmesh.Mesh) []navmesh.PolyRef {
	var refs []navmesh.PolyRef
	for _, tr := range m.Tiles() {
		t, err := m.Tile(tr)
		if err != nil {
			continue
		}
		for i := range t.Polys {
			refs = append(refs, tr.Poly(uint32(i)))
		}
	}
	return refs
}
