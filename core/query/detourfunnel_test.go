package query

import (
	"testing"

	"navviz/core/geom"
	"navviz/core/navmesh"
)

// detourFunnel is the funnel of Detour's findStraightPath, written from its
// rules for the comparison of issue 28 (our own code): on our polygons'
// portals, tile-border portals interpolated as Detour does (detourPortal),
// in float32 arithmetic, every product rounded: the side tests are
// dtTriArea2D's sign (area <= 0 tightens the right side, >= 0 the left),
// two points are one when dtVequal says so (3D squared distance below
// (1/16384 m)²), a first portal within 1 mm of the start (2D) is skipped,
// and a vertex equal to the last one (dtVequal) is not appended again.
// It returns start, the corners and end.
func detourFunnel(t testing.TB, m *navmesh.Mesh, start, end geom.Vec3, corridor []navmesh.PolyRef) []geom.Vec3 {
	t.Helper()
	ps := make([]portal, 0, len(corridor))
	for i := 0; i+1 < len(corridor); i++ {
		p, err := portalOf(m, "test", corridor[i], corridor[i+1])
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, detourPortal(t, m, corridor[i], corridor[i+1], p))
	}
	ps = append(ps, portal{end, end})
	out := []geom.Vec3{start}
	add := func(v geom.Vec3) {
		if !vequal32(out[len(out)-1], v) {
			out = append(out, v)
		}
	}
	apex, left, right := start, start, start
	apexI, leftI, rightI := 0, 0, 0
	for i := 0; i < len(ps); i++ {
		l, r := ps[i].left, ps[i].right
		if i == 0 && i+1 < len(ps) && distPtSegSq2D32(apex, l, r) < float32(0.001*0.001) {
			continue
		}
		if triArea2D32(apex, right, r) <= 0 {
			if vequal32(apex, right) || triArea2D32(apex, left, r) > 0 {
				right, rightI = r, i
			} else {
				apex, apexI = left, leftI
				add(apex)
				left, right, leftI, rightI = apex, apex, apexI, apexI
				i = apexI
				continue
			}
		}
		if triArea2D32(apex, left, l) >= 0 {
			if vequal32(apex, left) || triArea2D32(apex, right, l) < 0 {
				left, leftI = l, i
			} else {
				apex, apexI = right, rightI
				add(apex)
				left, right, leftI, rightI = apex, apex, apexI, apexI
				i = apexI
				continue
			}
		}
	}
	add(end)
	return out
}

// triArea2D32 is Detour's dtTriArea2D in float32: the XZ cross product of
// c-a and b-a, each product rounded.
func triArea2D32(a, b, c geom.Vec3) float32 {
	abx, abz := b.X-a.X, b.Z-a.Z
	acx, acz := c.X-a.X, c.Z-a.Z
	return float32(acx*abz) - float32(abx*acz)
}

// vequal32 is Detour's dtVequal: the 3D squared distance in float32 below
// (1/16384)².
func vequal32(a, b geom.Vec3) bool {
	dx, dy, dz := b.X-a.X, b.Y-a.Y, b.Z-a.Z
	d := float32(dx*dx) + float32(dy*dy)
	d = d + float32(dz*dz)
	return d < float32(1.0/16384)*float32(1.0/16384)
}

// distPtSegSq2D32 is Detour's dtDistancePtSegSqr2D in float32.
func distPtSegSq2D32(p, a, b geom.Vec3) float32 {
	pqx, pqz := b.X-a.X, b.Z-a.Z
	dx, dz := p.X-a.X, p.Z-a.Z
	d := float32(pqx*pqx) + float32(pqz*pqz)
	t := float32(pqx*dx) + float32(pqz*dz)
	if d > 0 {
		t /= d
	}
	t = min(max(t, 0), 1)
	dx = a.X + float32(t*pqx) - p.X
	dz = a.Z + float32(t*pqz) - p.Z
	return float32(dx*dx) + float32(dz*dz)
}

// detourPortal returns portal p (from to to) with its ends interpolated
// as Detour's getPortalPoints does for a tile-border link that uses part
// of the edge: v0 + (v1 - v0) × (bmin / 255) in float32, each operation
// rounded.
func detourPortal(t testing.TB, m *navmesh.Mesh, from, to navmesh.PolyRef, p portal) portal {
	tile, i, err := polyData(m, "test", from)
	if err != nil {
		t.Fatal(err)
	}
	links, _ := m.Links(from)
	for _, l := range links {
		if l.Ref != to {
			continue
		}
		if l.Side == navmesh.InternalSide || l.Side == navmesh.OffMeshSide || l.BMin == 0 && l.BMax == 255 {
			return p
		}
		poly := &tile.Polys[i]
		nv := int(poly.VertCount)
		e := int(l.Edge) % nv
		a, b := tile.Verts[poly.Verts[e]], tile.Verts[poly.Verts[(e+1)%nv]]
		lerp := func(f uint8) geom.Vec3 {
			s := float32(f) * float32(1.0/255)
			return geom.Vec3{X: a.X + float32((b.X-a.X)*s), Y: a.Y + float32((b.Y-a.Y)*s), Z: a.Z + float32((b.Z-a.Z)*s)}
		}
		l0, r0 := lerp(l.BMin), lerp(l.BMax)
		if cross2(centroid(tile, i), r0, l0) < 0 {
			l0, r0 = r0, l0
		}
		return portal{left: l0, right: r0}
	}
	return p
}
