package navmesh

import (
	"fmt"
	"math"
	"slices"

	"navviz/core/geom"
	"navviz/core/voxel"
)

// Off-mesh links (docs/format.md, "Off-mesh links"): a jump, a ladder or a
// door joining two points of the level that the polygons do not join. A
// tile stores the links whose start it holds; each becomes a node of the
// mesh (a PolyRef whose polygon index follows the tile's polygons) linked
// to the polygon under each of its ends when the tiles holding them are
// in the mesh.

// OffMeshRecordSize is the size in bytes of an off-mesh link record.
const OffMeshRecordSize = 36

// MaxTileOffMesh is the largest number of off-mesh links a tile holds
// (their node indices follow the polygons, below 2^16).
const MaxTileOffMesh = 0x7fff

// OffMeshSide is Link.Side of a link between a polygon and an off-mesh
// link node; Link.Edge then names the end of the off-mesh link (0 start,
// 1 end).
const OffMeshSide = 0xfe

// OffMeshLink is an off-mesh link: from StartM to EndM, metres. An agent
// may take it from start to end, and back when Bidirectional is set.
type OffMeshLink struct {
	// StartM and EndM are the link's ends, metres.
	StartM, EndM geom.Vec3
	// RadiusM is how far (horizontally, metres) from each end a polygon
	// may lie and still take the link (> 0).
	RadiusM float32
	// Flags are the link's user flags (as a polygon's: query filters test
	// them).
	Flags uint16
	// Area is the link's area id, 0..MaxArea: crossing it costs its length
	// times the area's cost.
	Area uint8
	// Bidirectional lets agents take the link from end to start too.
	Bidirectional bool
	// UserID is the caller's id of the link (the tile cache's link id).
	UserID uint32
}

// Validate reports whether l can be stored: every coordinate finite and
// within ±2^21 m (voxel.MaxCoordM), the radius finite, > 0 and within
// 2^21 m, the area at most MaxArea. The error names the bad value.
func (l OffMeshLink) Validate() error {
	for _, c := range []struct {
		name string
		v    float32
	}{{"start x", l.StartM.X}, {"start y", l.StartM.Y}, {"start z", l.StartM.Z},
		{"end x", l.EndM.X}, {"end y", l.EndM.Y}, {"end z", l.EndM.Z}} {
		if !finite32(c.v) || math.Abs(float64(c.v)) > voxel.MaxCoordM {
			return fmt.Errorf("navmesh: off-mesh link %s = %v m, want a finite number within ±2^21", c.name, c.v)
		}
	}
	if !finite32(l.RadiusM) || !(l.RadiusM > 0) || float64(l.RadiusM) > voxel.MaxCoordM {
		return fmt.Errorf("navmesh: off-mesh link radius = %v m, want a finite number > 0 within 2^21", l.RadiusM)
	}
	if l.Area > MaxArea {
		return fmt.Errorf("navmesh: off-mesh link area = %d, want 0..%d", l.Area, MaxArea)
	}
	return nil
}

// point returns the link's start (end 0) or end (end 1).
func (l *OffMeshLink) point(end uint8) geom.Vec3 {
	if end == 0 {
		return l.StartM
	}
	return l.EndM
}

// Point returns the off-mesh link's start (end 0) or its end (any other
// value), metres.
func (l OffMeshLink) Point(end uint8) geom.Vec3 { return l.point(end) }

// landing returns the polygon of t under p for an off-mesh link end of
// radius r, metres: among the polygons whose closest point to p in the XZ
// plane lies within r of p and whose surface there lies within the tile's
// WalkableClimbM of p.y, the one with the smallest horizontal distance,
// then the smallest height difference, then the lowest index. All in
// double; false when there is none.
func (t *Tile) landing(p geom.Vec3, r float32) (int, bool) {
	if !t.reaches(p, r) {
		return 0, false
	}
	climb, rr := float64(t.Header.WalkableClimbM), float64(r)
	best, bestD, bestH := -1, 0.0, 0.0
	var vs [MaxVertsPerPoly]geom.Vec3
	for i := range t.Polys {
		poly := &t.Polys[i]
		n := int(poly.VertCount)
		for j := 0; j < n; j++ {
			vs[j] = t.Verts[poly.Verts[j]]
		}
		q, d2 := closestXZ(vs[:n], p)
		if d2 > float64(rr*rr) {
			continue
		}
		y, ok := t.surfaceY(i, q)
		if !ok {
			continue
		}
		dh := math.Abs(float64(y) - float64(p.Y))
		if dh > climb {
			continue
		}
		if best < 0 || d2 < bestD || d2 == bestD && dh < bestH {
			best, bestD, bestH = i, d2, dh
		}
	}
	return best, best >= 0
}

// keepOffMesh returns, in order, the links of links whose start t holds
// (a polygon of t lies under it: landing), checking each link (what names
// the list in errors) and the count.
func (t *Tile) keepOffMesh(links []OffMeshLink, what string) ([]OffMeshLink, error) {
	var keep []OffMeshLink
	for k := range links {
		c := &links[k]
		if err := c.Validate(); err != nil {
			return nil, fmt.Errorf("navmesh: %s[%d] (user id %d): %w", what, k, c.UserID, err)
		}
		if _, ok := t.landing(c.StartM, c.RadiusM); ok {
			keep = append(keep, *c)
		}
	}
	if len(keep) > MaxTileOffMesh {
		return nil, fmt.Errorf("navmesh: %s: %d off-mesh links start in the tile, at most %d fit", what, len(keep), MaxTileOffMesh)
	}
	return keep, nil
}

// WithOffMesh returns the tile b with, in place of its own off-mesh links,
// those of links whose start it holds, as BuildTile keeps
// TileParams.OffMeshLinks (so the data equals BuildTile's with those
// links): b itself when that changes nothing, else a new BuiltTile
// sharing b's polygons. An invalid link is an error naming it.
func (b *BuiltTile) WithOffMesh(links []OffMeshLink) (*BuiltTile, error) {
	if err := b.check("WithOffMesh"); err != nil {
		return nil, err
	}
	keep, err := b.t.keepOffMesh(links, "WithOffMesh: links")
	if err != nil {
		return nil, err
	}
	if slices.EqualFunc(keep, b.t.OffMesh, sameOffMeshBits) {
		return b, nil
	}
	nt := *b.t
	nt.OffMesh = keep
	data, err := nt.encode()
	if err != nil {
		return nil, err
	}
	// The new tile shares b's arrays, so it shares their memory's holders,
	// and b's polygons, so their portal edges.
	return &BuiltTile{data: data, t: &nt, id: ContentID(data), mem: b.mem, portals: b.portals}, nil
}

// sameOffMeshBits reports whether a and b encode to the same record.
func sameOffMeshBits(a, b OffMeshLink) bool {
	var ba, bb [OffMeshRecordSize]byte
	return string(appendOffMesh(ba[:0], &a)) == string(appendOffMesh(bb[:0], &b))
}

// crossXZ is the XZ cross product of b-a and c-a in double (products
// rounded before the difference).
func crossXZ(a, b, c geom.Vec3) float64 {
	abx, abz := float64(b.X)-float64(a.X), float64(b.Z)-float64(a.Z)
	acx, acz := float64(c.X)-float64(a.X), float64(c.Z)-float64(a.Z)
	return float64(abx*acz) - float64(abz*acx)
}

// closestXZ returns the point of convex polygon vs closest to p in the XZ
// plane (p itself when inside or on it) and the squared XZ distance.
func closestXZ(vs []geom.Vec3, p geom.Vec3) (geom.Vec3, float64) {
	pos, neg := false, false
	for j := range vs {
		c := crossXZ(vs[j], vs[(j+1)%len(vs)], p)
		pos = pos || c > 0
		neg = neg || c < 0
	}
	if !(pos && neg) {
		return p, 0
	}
	best, bestD := p, math.Inf(1)
	for j := range vs {
		a, b := vs[j], vs[(j+1)%len(vs)]
		dx, dz := float64(b.X)-float64(a.X), float64(b.Z)-float64(a.Z)
		px, pz := float64(p.X)-float64(a.X), float64(p.Z)-float64(a.Z)
		den := float64(dx*dx) + float64(dz*dz)
		s := 0.0
		if den > 0 {
			s = min(max((float64(px*dx)+float64(pz*dz))/den, 0), 1)
		}
		qx, qz := float64(a.X)+float64(s*dx), float64(a.Z)+float64(s*dz)
		ex, ez := float64(p.X)-qx, float64(p.Z)-qz
		if d := float64(ex*ex) + float64(ez*ez); d < bestD {
			bestD = d
			best = geom.Vec3{X: float32(qx), Y: p.Y, Z: float32(qz)}
		}
	}
	return best, bestD
}

// surfaceY returns the height of polygon i's detail surface at q's x, z:
// the detail triangle holding q (barycentric, double), else the detail
// triangle nearest to q by its corners' XZ distance.
func (t *Tile) surfaceY(i int, q geom.Vec3) (float32, bool) {
	d := t.DetailMeshes[i]
	fallback, fallbackD := float32(0), math.Inf(1)
	for k := int(d.TriBase); k < int(d.TriBase)+int(d.TriCount); k++ {
		tr := t.DetailTris[k]
		var c [3]geom.Vec3
		for j := range c {
			v, ok := t.PolyDetailVert(i, int(tr[j]))
			if !ok {
				return 0, false
			}
			c[j] = v
		}
		den := crossXZ(c[0], c[1], c[2])
		if den != 0 {
			u := crossXZ(c[1], c[2], q) / den
			v := crossXZ(c[2], c[0], q) / den
			w := crossXZ(c[0], c[1], q) / den
			const eps = -1e-6
			if u >= eps && v >= eps && w >= eps {
				return float32(float64(u*float64(c[0].Y)) + float64(v*float64(c[1].Y)) + float64(w*float64(c[2].Y))), true
			}
		}
		for _, v := range c {
			dx, dz := float64(v.X)-float64(q.X), float64(v.Z)-float64(q.Z)
			if dd := float64(dx*dx) + float64(dz*dz); dd < fallbackD {
				fallback, fallbackD = v.Y, dd
			}
		}
	}
	return fallback, !math.IsInf(fallbackD, 1)
}

// NodeCount returns the number of nodes of the tile: its polygons, then
// its off-mesh links (node len(Polys)+k is off-mesh link k).
func (t *Tile) NodeCount() int {
	if t == nil {
		return 0
	}
	return len(t.Polys) + len(t.OffMesh)
}

// nodeFlagsArea returns the flags and area node i has in the tile data
// (a polygon's, or an off-mesh link's); i must be below NodeCount.
func (t *Tile) nodeFlagsArea(i int) (uint16, uint8) {
	if k, ok := t.OffMeshIndex(i); ok {
		return t.OffMesh[k].Flags, t.OffMesh[k].Area
	}
	return t.Polys[i].Flags, t.Polys[i].Area
}

// OffMeshIndex returns k when node i of the tile is off-mesh link k,
// false when i is a polygon (or out of range).
func (t *Tile) OffMeshIndex(i int) (int, bool) {
	if t == nil {
		return 0, false
	}
	k := i - len(t.Polys)
	if k < 0 || k >= len(t.OffMesh) {
		return 0, false
	}
	return k, true
}

// OffMeshLinkOf returns the off-mesh link that ref names, false when ref is
// a polygon, stale or invalid.
func (m *Mesh) OffMeshLinkOf(ref PolyRef) (OffMeshLink, bool) {
	mt, p, err := m.polyOf(ref, "OffMeshLinkOf")
	if err != nil {
		return OffMeshLink{}, false
	}
	k, ok := mt.t.OffMeshIndex(p)
	if !ok {
		return OffMeshLink{}, false
	}
	return mt.t.OffMesh[k], true
}

// OffMeshCount returns the number of off-mesh links of the tiles held.
func (m *Mesh) OffMeshCount() int {
	if m == nil {
		return 0
	}
	return m.offMeshCount
}

// IsOffMesh reports whether ref names an off-mesh link node of a held tile.
func (m *Mesh) IsOffMesh(ref PolyRef) bool {
	_, ok := m.OffMeshLinkOf(ref)
	return ok
}

// LinkPoint returns the point where link l of node from meets the
// off-mesh link it joins (l.Side == OffMeshSide): the off-mesh link's
// start for l.Edge 0, its end for 1. false for any other link or a stale
// reference.
func (m *Mesh) LinkPoint(from PolyRef, l Link) (geom.Vec3, bool) {
	if l.Side != OffMeshSide {
		return geom.Vec3{}, false
	}
	c, ok := m.OffMeshLinkOf(from)
	if !ok {
		if c, ok = m.OffMeshLinkOf(l.Ref); !ok {
			return geom.Vec3{}, false
		}
	}
	return c.point(l.Edge), true
}

// reaches reports whether a link end at p of radius r may land on t: p
// lies within r of t's bounds horizontally and within t's WalkableClimbM
// of them vertically.
func (t *Tile) reaches(p geom.Vec3, r float32) bool {
	rr, climb := float64(r), float64(t.Header.WalkableClimbM)
	h := &t.Header
	return float64(p.X) >= float64(h.BMin.X)-rr && float64(p.X) <= float64(h.BMax.X)+rr &&
		float64(p.Z) >= float64(h.BMin.Z)-rr && float64(p.Z) <= float64(h.BMax.Z)+rr &&
		float64(p.Y) >= float64(h.BMin.Y)-climb && float64(p.Y) <= float64(h.BMax.Y)+climb
}

// landOffMesh links end e of off-mesh link k of slot a (node na) to the
// polygon of slot b under that end, if any: the node to the polygon
// always, the polygon to the node at the start, and at the end when the
// link is bidirectional.
func (m *Mesh) landOffMesh(a uint32, k int, e uint8, b uint32) {
	ta, tb := m.slots[a].tile, m.slots[b].tile
	c := &ta.t.OffMesh[k]
	p, ok := tb.t.landing(c.point(e), c.RadiusM)
	if !ok {
		return
	}
	na := len(ta.t.Polys) + k
	ga, gb := m.slots[a].gen, m.slots[b].gen
	ta.links[na] = append(ta.links[na], Link{Ref: packRef(gb, b, uint32(p)), Edge: e, Side: OffMeshSide, BMin: 0, BMax: 255})
	if e == 0 || c.Bidirectional {
		tb.links[p] = append(tb.links[p], Link{Ref: packRef(ga, a, uint32(na)), Edge: e, Side: OffMeshSide, BMin: 0, BMax: 255})
	}
}

// landAll links every end of every off-mesh link of slot a to the
// polygons of slot b under it, and reports whether any link was made.
func (m *Mesh) landAll(a, b uint32) bool {
	ta := m.slots[a].tile
	hit := false
	for k := range ta.t.OffMesh {
		na := len(ta.t.Polys) + k
		n := len(ta.links[na])
		m.landOffMesh(a, k, 0, b)
		m.landOffMesh(a, k, 1, b)
		hit = hit || len(ta.links[na]) != n
	}
	return hit
}

// connectOffMesh links the off-mesh links of slot s to the polygons of
// every held tile under their ends, and the off-mesh links of every other
// held tile to the polygons of s, adding the other touched slots to
// touched. Every tile is visited (the links are few; a tile does not know
// the tile grid, so an end may land in any tile whose bounds it reaches).
func (m *Mesh) connectOffMesh(s uint32, touched []uint32) []uint32 {
	if m.offMeshCount == 0 {
		return touched
	}
	for u := range m.slots {
		if m.slots[u].tile == nil {
			continue
		}
		hit := m.landAll(s, uint32(u))
		if uint32(u) != s {
			hit = m.landAll(uint32(u), s) || hit
			if hit {
				touched = append(touched, uint32(u))
			}
		}
	}
	return touched
}

// disconnectOffMesh drops every off-mesh link of another tile that points
// into slot s.
func (m *Mesh) disconnectOffMesh(s uint32) {
	if m.offMeshCount == 0 {
		return
	}
	for u := range m.slots {
		tu := m.slots[u].tile
		if tu == nil || uint32(u) == s {
			continue
		}
		for p, ls := range tu.links {
			kept := ls[:0]
			for _, l := range ls {
				if l.Side != OffMeshSide || l.Ref.Slot() != s {
					kept = append(kept, l)
				}
			}
			clear(ls[len(kept):])
			tu.links[p] = kept
		}
	}
}
