package navmesh

import "navviz/core/geom"

// PolyTris calls fn for every triangle of polygon i of t, in metres: its detail
// triangles (local vertex indices, edge flags) when it has any, else the
// fan (0, j-1, j) of its corners with the fan's boundary flags. Triangles
// whose vertices do not resolve are skipped. k numbers the triangles of the
// polygon from 0; flags bit 2e is set when edge e of the triangle lies on
// the polygon boundary (as DetailTris stores it).
func (t *Tile) PolyTris(i int, fn func(k int, a, b, c geom.Vec3, flags uint8)) {
	if t == nil || fn == nil || i < 0 || i >= len(t.Polys) {
		return
	}
	p := &t.Polys[i]
	if i < len(t.DetailMeshes) && t.DetailMeshes[i].TriCount > 0 {
		d := t.DetailMeshes[i]
		for k := 0; k < int(d.TriCount); k++ {
			ti := int(d.TriBase) + k
			if ti >= len(t.DetailTris) {
				return
			}
			tri := t.DetailTris[ti]
			a, oka := t.PolyDetailVert(i, int(tri[0]))
			b, okb := t.PolyDetailVert(i, int(tri[1]))
			c, okc := t.PolyDetailVert(i, int(tri[2]))
			if oka && okb && okc {
				fn(k, a, b, c, tri[3])
			}
		}
		return
	}
	n := int(p.VertCount)
	for j := 2; j < n; j++ {
		a, oka := t.PolyDetailVert(i, 0)
		b, okb := t.PolyDetailVert(i, j-1)
		c, okc := t.PolyDetailVert(i, j)
		if !(oka && okb && okc) {
			continue
		}
		var flags uint8
		if j == 2 {
			flags |= 1 // edge 0-1 (a-b)
		}
		flags |= 1 << 2 // edge j-1..j (b-c)
		if j == n-1 {
			flags |= 1 << 4 // edge j..0 (c-a)
		}
		fn(j-2, a, b, c, flags)
	}
}
