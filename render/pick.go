package render

import (
	"fmt"
	"image/color"
	"math"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/navmesh"
)

// PolyHit is where a picking ray meets a navmesh polygon.
type PolyHit struct {
	// Ref is the polygon hit.
	Ref navmesh.PolyRef
	// T is the ray parameter of the hit (distance along a unit direction).
	T float64
	// Pos is the point hit, metres.
	Pos geom.Vec3
}

// pickTileSlackM widens a tile's box for the ray test, metres, so that a
// ray grazing its top or bottom face still reaches its triangles.
const pickTileSlackM = 1e-3

// PickPoly returns the first polygon of m that the ray o + t*d meets with
// 0 < t <= maxT (maxT <= 0 or NaN: no limit): the ray is tested against
// each polygon's triangles as the mesh draws them (its detail triangles,
// or the fan of its corners when it has none), from both sides. Tiles are
// visited in m.Tiles() order, polygons and triangles in index order, and
// only a strictly nearer hit replaces an earlier one, so ties go to the
// first. It returns false when nothing is hit, m is nil or the ray is not
// finite. It only reads m.
func PickPoly(m *navmesh.Mesh, o, d [3]float64, maxT float64) (PolyHit, bool) {
	if m == nil {
		return PolyHit{}, false
	}
	for k := 0; k < 3; k++ {
		if !finite(o[k]) || !finite(d[k]) {
			return PolyHit{}, false
		}
	}
	if d[0] == 0 && d[1] == 0 && d[2] == 0 {
		return PolyHit{}, false
	}
	best := math.Inf(1)
	if maxT > 0 && !math.IsInf(maxT, 1) {
		best = maxT * (1 + 1e-12)
	}
	var hit PolyHit
	found := false
	for _, nt := range navTiles(m, nil) {
		t := nt.t
		lo, hi := t.Header.BMin, t.Header.BMax
		lo = lo.Sub(geom.V3(pickTileSlackM, pickTileSlackM, pickTileSlackM))
		hi = hi.Add(geom.V3(pickTileSlackM, pickTileSlackM, pickTileSlackM))
		if enter, ok := raySlab(o, d, lo, hi); !ok || enter >= best {
			continue
		}
		for i := range t.Polys {
			t.PolyTris(i, func(_ int, a, b, c geom.Vec3, _ uint8) {
				if h, ok := RayTriangle(o, d, a, b, c); ok && h < best {
					best = h
					hit = PolyHit{Ref: nt.ref.Poly(uint32(i)), T: h}
					found = true
				}
			})
		}
	}
	if !found {
		return PolyHit{}, false
	}
	hit.Pos = geom.V3(float32(o[0]+float64(hit.T*d[0])), float32(o[1]+float64(hit.T*d[1])), float32(o[2]+float64(hit.T*d[2])))
	return hit, true
}

// PickLevel returns the ray parameter of the nearest triangle of s that the
// ray o + t*d crosses (RayTriangle), and false when none is or s is nil.
// Triangles with a vertex index out of range are skipped.
func PickLevel(s *level.Soup, o, d [3]float64) (float64, bool) {
	if s == nil {
		return 0, false
	}
	best := math.Inf(1)
	nv := int32(len(s.Verts))
	for _, t := range s.Tris {
		if t[0] < 0 || t[1] < 0 || t[2] < 0 || t[0] >= nv || t[1] >= nv || t[2] >= nv {
			continue
		}
		if h, ok := RayTriangle(o, d, s.Verts[t[0]], s.Verts[t[1]], s.Verts[t[2]]); ok && h < best {
			best = h
		}
	}
	return best, !math.IsInf(best, 1)
}

// raySlab returns the ray parameter where o + t*d enters the box [lo, hi]
// (0 when o is inside), and false when the ray misses it or it lies
// behind the origin.
func raySlab(o, d [3]float64, lo, hi geom.Vec3) (float64, bool) {
	l, h := vec64(lo), vec64(hi)
	t0, t1 := 0.0, math.Inf(1)
	for k := 0; k < 3; k++ {
		if d[k] == 0 {
			if o[k] < l[k] || o[k] > h[k] {
				return 0, false
			}
			continue
		}
		a, b := (l[k]-o[k])/d[k], (h[k]-o[k])/d[k]
		if a > b {
			a, b = b, a
		}
		t0, t1 = max(t0, a), min(t1, b)
		if t0 > t1 {
			return 0, false
		}
	}
	return t0, true
}

// RayTriangle returns the ray parameter t > 0 where o + t*d crosses
// triangle abc (Möller–Trumbore in float64, both faces, edges included;
// products rounded before sums, so the result is the same on every
// platform). Hits at t <= 1e-9 (the ray's origin on the triangle) do not
// count.
func RayTriangle(o, d [3]float64, a, b, c geom.Vec3) (float64, bool) {
	sub := func(p, q [3]float64) [3]float64 { return [3]float64{p[0] - q[0], p[1] - q[1], p[2] - q[2]} }
	cross := func(p, q [3]float64) [3]float64 {
		return [3]float64{
			float64(p[1]*q[2]) - float64(p[2]*q[1]),
			float64(p[2]*q[0]) - float64(p[0]*q[2]),
			float64(p[0]*q[1]) - float64(p[1]*q[0]),
		}
	}
	pa := vec64(a)
	e1, e2 := sub(vec64(b), pa), sub(vec64(c), pa)
	pv := cross(d, e2)
	det := dot3(e1, pv)
	if math.Abs(det) < 1e-12 {
		return 0, false
	}
	inv := 1 / det
	tv := sub(o, pa)
	u := float64(dot3(tv, pv) * inv)
	if u < 0 || u > 1 {
		return 0, false
	}
	qv := cross(tv, e1)
	w := float64(dot3(d, qv) * inv)
	if w < 0 || u+w > 1 {
		return 0, false
	}
	t := dot3(e2, qv) * inv
	return t, t > 1e-9 && finite(t)
}

// EdgeKind says what lies across a polygon edge.
type EdgeKind uint8

const (
	// EdgeWall: no neighbour.
	EdgeWall EdgeKind = iota
	// EdgeInternal: a polygon of the same tile (PolyEdge.Neighbour).
	EdgeInternal
	// EdgePortal: the tile border (PolyEdge.Dir), linked or not.
	EdgePortal
)

// PolyEdge is an edge of a polygon: corner Edge to corner Edge+1.
type PolyEdge struct {
	Kind EdgeKind
	// Neighbour is the polygon index across an internal edge.
	Neighbour int
	// Dir is the border direction of a portal edge (navmesh.DirPosX ...).
	Dir uint8
}

// PolyInfo describes a polygon of a navmesh for the Inspector.
type PolyInfo struct {
	// Ref is the polygon's reference; Generation, Slot and Index its
	// fields.
	Ref                     navmesh.PolyRef
	Generation, Slot, Index uint32
	// TileX, TileZ and Layer locate its tile.
	TileX, TileZ int32
	Layer        uint8
	// Area and Flags are the run-time values (Mesh.PolyArea/PolyFlags),
	// BuiltArea and BuiltFlags those of the tile data.
	Area, BuiltArea   uint8
	Flags, BuiltFlags uint16
	// Verts are the corners, metres; Edges what lies across each edge.
	Verts []geom.Vec3
	Edges []PolyEdge
	// Links are the polygon's links in link order.
	Links []navmesh.Link
	// LinkTiles holds, per link, the tile x, z and layer of its target
	// (-1, -1, 0 when the target does not resolve).
	LinkTiles [][3]int32
	// DetailVerts and DetailTris count the polygon's detail vertices
	// beyond its corners and its detail triangles.
	DetailVerts, DetailTris int
	// CentreM is the mean of the corners.
	CentreM geom.Vec3
}

// DescribePoly returns what the Inspector shows of polygon ref of m; a
// stale or invalid reference is an error.
func DescribePoly(m *navmesh.Mesh, ref navmesh.PolyRef) (PolyInfo, error) {
	if m == nil {
		return PolyInfo{}, fmt.Errorf("render: describe polygon %#x: no navmesh", uint64(ref))
	}
	tref, pi, err := m.DecodeRef(ref)
	if err != nil {
		return PolyInfo{}, err
	}
	t, err := m.Tile(tref)
	if err != nil {
		return PolyInfo{}, err
	}
	if pi >= len(t.Polys) {
		return PolyInfo{}, fmt.Errorf("render: describe polygon %#x: an off-mesh link, not a polygon", uint64(ref))
	}
	p := &t.Polys[pi]
	info := PolyInfo{
		Ref: ref, Generation: ref.Generation(), Slot: ref.Slot(), Index: ref.Poly(),
		TileX: t.Header.TileX, TileZ: t.Header.TileZ, Layer: t.Header.Layer,
		BuiltArea: p.Area, BuiltFlags: p.Flags,
	}
	if info.Area, err = m.PolyArea(ref); err != nil {
		return PolyInfo{}, err
	}
	if info.Flags, err = m.PolyFlags(ref); err != nil {
		return PolyInfo{}, err
	}
	var sum [3]float64
	for j := 0; j < int(p.VertCount); j++ {
		v, ok := polyVert(t, p, j)
		if !ok {
			continue
		}
		info.Verts = append(info.Verts, v)
		sum[0] += float64(v.X)
		sum[1] += float64(v.Y)
		sum[2] += float64(v.Z)
		e := PolyEdge{Kind: EdgeWall}
		switch nei := p.Neis[j]; {
		case nei == navmesh.NullIndex:
		case nei&navmesh.ExtLink != 0:
			e = PolyEdge{Kind: EdgePortal, Dir: uint8(nei &^ navmesh.ExtLink)}
		default:
			e = PolyEdge{Kind: EdgeInternal, Neighbour: int(nei)}
		}
		info.Edges = append(info.Edges, e)
	}
	if n := float64(len(info.Verts)); n > 0 {
		info.CentreM = geom.V3(float32(sum[0]/n), float32(sum[1]/n), float32(sum[2]/n))
	}
	links, err := m.Links(ref)
	if err != nil {
		return PolyInfo{}, err
	}
	info.Links = append([]navmesh.Link(nil), links...)
	for _, l := range links {
		loc := [3]int32{-1, -1, 0}
		if lt, _, err := m.DecodeRef(l.Ref); err == nil {
			if tt, err := m.Tile(lt); err == nil {
				loc = [3]int32{tt.Header.TileX, tt.Header.TileZ, int32(tt.Header.Layer)}
			}
		}
		info.LinkTiles = append(info.LinkTiles, loc)
	}
	if pi < len(t.DetailMeshes) {
		info.DetailVerts = int(t.DetailMeshes[pi].VertCount)
		info.DetailTris = int(t.DetailMeshes[pi].TriCount)
	}
	return info, nil
}

// DirName returns the short name of a border direction: "+x", "+z", "-x",
// "-z", or "dir N".
func DirName(dir uint8) string {
	switch dir {
	case navmesh.DirPosX:
		return "+x"
	case navmesh.DirPosZ:
		return "+z"
	case navmesh.DirNegX:
		return "-x"
	case navmesh.DirNegZ:
		return "-z"
	}
	return fmt.Sprintf("dir %d", dir)
}

// Lines returns the Inspector's text for the polygon, one line per entry:
// reference, tile, area and flags, corners, edges and links (none for a
// nil PolyInfo).
func (p *PolyInfo) Lines() []string {
	if p == nil {
		return nil
	}
	out := []string{
		fmt.Sprintf("Ref %#016x", uint64(p.Ref)),
		fmt.Sprintf("  generation %d, slot %d, polygon %d", p.Generation, p.Slot, p.Index),
		fmt.Sprintf("Tile (%d, %d), layer %d", p.TileX, p.TileZ, p.Layer),
	}
	area := fmt.Sprintf("Area %d", p.Area)
	if p.Area != p.BuiltArea {
		area += fmt.Sprintf(" (built %d)", p.BuiltArea)
	}
	flags := fmt.Sprintf("flags %#04x", p.Flags)
	if p.Flags != p.BuiltFlags {
		flags += fmt.Sprintf(" (built %#04x)", p.BuiltFlags)
	}
	out = append(out, area+", "+flags,
		fmt.Sprintf("%d vertices; detail: %d more vertices, %d triangles", len(p.Verts), p.DetailVerts, p.DetailTris),
		fmt.Sprintf("Centre (%.2f, %.2f, %.2f) m", p.CentreM.X, p.CentreM.Y, p.CentreM.Z))
	for j, e := range p.Edges {
		var s string
		switch e.Kind {
		case EdgeWall:
			s = "wall"
		case EdgeInternal:
			s = fmt.Sprintf("polygon %d", e.Neighbour)
		case EdgePortal:
			n := 0
			for _, l := range p.Links {
				if int(l.Edge) == j && l.Side != navmesh.InternalSide && l.Side != navmesh.OffMeshSide {
					n++
				}
			}
			s = fmt.Sprintf("portal %s, %d links", DirName(e.Dir), n)
		}
		out = append(out, fmt.Sprintf("Edge %d: %s", j, s))
	}
	out = append(out, fmt.Sprintf("Links: %d", len(p.Links)))
	for k, l := range p.Links {
		where := "inside the tile"
		if l.Side != navmesh.InternalSide {
			loc := p.LinkTiles[k]
			where = fmt.Sprintf("%s to tile (%d, %d) layer %d, part %d..%d", DirName(l.Side), loc[0], loc[1], loc[2], l.BMin, l.BMax)
		}
		out = append(out, fmt.Sprintf("  edge %d -> %#x (polygon %d), %s", l.Edge, uint64(l.Ref), l.Ref.Poly(), where))
	}
	return out
}

// OverlayPicked is the name of PickedOverlay.
const OverlayPicked = "picked"

// Colours of the picked overlay.
var (
	pickedFill      = color.RGBA{255, 255, 255, 110}
	pickedOutline   = color.RGBA{255, 255, 255, 255}
	pickedNeighbour = color.RGBA{255, 60, 220, 255}
)

// PickedOverlay returns the overlay "picked": polygon ref of m filled in
// translucent white over its detail triangles and outlined in white, and
// the polygons it links to outlined in magenta. A nil mesh or a stale
// reference gives an empty overlay.
func PickedOverlay(m *navmesh.Mesh, ref navmesh.PolyRef) *Overlay {
	o := surfaceOverlay(OverlayPicked)
	if m == nil || ref == 0 {
		return o
	}
	outline := func(r navmesh.PolyRef, col color.RGBA, fill bool) {
		tref, pi, err := m.DecodeRef(r)
		if err != nil {
			return
		}
		t, err := m.Tile(tref)
		if err != nil || pi >= len(t.Polys) { // an off-mesh link node has no outline
			return
		}
		if fill {
			t.PolyTris(pi, func(_ int, a, b, c geom.Vec3, _ uint8) {
				o.Tris = append(o.Tris, Vertex{up(t, a, portalLiftRows), pickedFill},
					Vertex{up(t, b, portalLiftRows), pickedFill}, Vertex{up(t, c, portalLiftRows), pickedFill})
			})
		}
		for j := 0; j < int(t.Polys[pi].VertCount); j++ {
			polyEdgePieces(t, pi, j, func(a, b geom.Vec3) {
				o.Lines = append(o.Lines, Vertex{up(t, a, portalLiftRows), col}, Vertex{up(t, b, portalLiftRows), col})
			})
		}
	}
	if !m.IsValidRef(ref) {
		return o
	}
	links, _ := m.Links(ref)
	for _, l := range links {
		outline(l.Ref, pickedNeighbour, false)
	}
	outline(ref, pickedOutline, true)
	return o
}
