package polymesh

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"navviz/core/contour"
	"navviz/core/geom"
)

// cv is a hand-made contour vertex (grid cells, border included).
type cv struct {
	x, y, z int32
	flags   uint32
}

// handContour describes one contour of a hand-made set.
type handContour struct {
	region uint16
	area   uint8
	verts  []cv
}

// handSet builds a contour set of a w x h grid (border included) with the
// given border and contours.
func handSet(w, h, border int, cs ...handContour) *contour.Set {
	set := &contour.Set{
		OriginX: 10, OriginY: 2, OriginZ: -20,
		CellSizeM: 0.3, CellHeightM: 0.2,
		Width: w, Height: h, Border: border,
		MaxErrorCells: 1.3,
	}
	for _, c := range cs {
		var vs []contour.Vertex
		for _, v := range c.verts {
			vs = append(vs, contour.Vertex{X: v.x, Y: v.y, Z: v.z, Flags: v.flags})
		}
		set.Contours = append(set.Contours, contour.Contour{Verts: vs, Region: c.region, Area: c.area})
	}
	return set
}

// rect returns the outline of [x0,x1] x [z0,z1] at height y in contour order
// (convex corners turn with area2 < 0: up z first, then along +x).
func rect(x0, z0, x1, z1, y int32) []cv {
	return []cv{{x0, y, z0, 0}, {x0, y, z1, 0}, {x1, y, z1, 0}, {x1, y, z0, 0}}
}

// polyArea2 returns twice the area of polygon i in cells (positive).
func polyArea2(m *Mesh, i int) int64 {
	p := m.Poly(i)
	n := countPolyVerts(p)
	var a int64
	for j := 0; j < n; j++ {
		v0, v1 := m.Verts[p[j]], m.Verts[p[(j+1)%n]]
		a += int64(v0[0])*int64(v1[2]) - int64(v1[0])*int64(v0[2])
	}
	if a < 0 {
		a = -a
	}
	return a
}

// checkConvex fails unless every corner of every polygon of m is strictly
// convex both in cells and (exact predicate) in the stored float32
// positions. It returns the number of corners checked.
func checkConvex(t testing.TB, m *Mesh) int {
	t.Helper()
	n := 0
	for i := 0; i < m.PolyCount(); i++ {
		p := m.Poly(i)
		nv := countPolyVerts(p)
		for j := 0; j < nv; j++ {
			a, b, c := m.Verts[p[(j+nv-1)%nv]], m.Verts[p[j]], m.Verts[p[(j+1)%nv]]
			pa, pb, pc := m.VertM(int(p[(j+nv-1)%nv])), m.VertM(int(p[j])), m.VertM(int(p[(j+1)%nv]))
			ic := m.Map.OrientCells(int(a[0]), int(a[2]), int(b[0]), int(b[2]), int(c[0]), int(c[2]))
			fc := geom.OrientXZ(pa, pb, pc)
			if ic >= 0 || fc >= 0 {
				t.Errorf("polygon %d corner %d (%v %v %v): cell turn %d, float32 turn %d, want both -1", i, j, a, b, c, ic, fc)
			}
			n++
		}
	}
	return n
}

// checkAdjacency fails unless every neighbour slot is consistent: a
// polygon neighbour shares the edge and points back.
func checkAdjacency(t testing.TB, m *Mesh) {
	t.Helper()
	for i := 0; i < m.PolyCount(); i++ {
		p, nb := m.Poly(i), m.Neighbours(i)
		nv := countPolyVerts(p)
		for j := 0; j < nv; j++ {
			k := nb[j]
			if k == NullIndex || k&PortalFlag != 0 {
				continue
			}
			q, qn := m.Poly(int(k)), m.Neighbours(int(k))
			found := false
			for s := 0; s < countPolyVerts(q); s++ {
				if q[s] == p[(j+1)%nv] && q[(s+1)%countPolyVerts(q)] == p[j] {
					found = qn[s] == uint16(i)
				}
			}
			if !found {
				t.Errorf("polygon %d edge %d: neighbour %d does not share the edge back", i, j, k)
			}
		}
	}
}

func TestBuildShapes(t *testing.T) {
	lshape := []cv{{0, 3, 0, 0}, {0, 3, 10, 0}, {5, 3, 10, 0}, {5, 3, 5, 0}, {10, 3, 5, 0}, {10, 3, 0, 0}}
	for _, tc := range []struct {
		name      string
		set       *contour.Set
		nvp       int
		verts     int
		polys     int
		maxVerts  int // largest polygon
		area2     int64
		multiRegs bool
	}{
		{"square", handSet(12, 12, 0, handContour{1, 63, rect(0, 0, 10, 10, 4)}), 6, 4, 1, 4, 200, false},
		{"square nvp3", handSet(12, 12, 0, handContour{1, 63, rect(0, 0, 10, 10, 4)}), 3, 4, 2, 3, 200, false},
		{"L nvp6", handSet(12, 12, 0, handContour{1, 63, lshape}), 6, 6, 2, 4, 150, false},
		{"L nvp4", handSet(12, 12, 0, handContour{1, 63, lshape}), 4, 6, 2, 4, 150, false},
		{"L nvp3", handSet(12, 12, 0, handContour{1, 63, lshape}), 3, 6, 4, 3, 150, false},
		{"collinear edge vertex", handSet(12, 12, 0, handContour{2, 5, []cv{{0, 0, 0, 0}, {0, 0, 5, 0}, {0, 0, 10, 0}, {10, 0, 10, 0}, {10, 0, 0, 0}}}), 6, 5, 2, 4, 200, false},
		{"degenerate contour skipped", handSet(12, 12, 0, handContour{1, 63, []cv{{0, 0, 0, 0}, {0, 0, 5, 0}}}), 6, 0, 0, 0, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Build(tc.set, tc.nvp)
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Verts) != tc.verts || m.PolyCount() != tc.polys {
				t.Fatalf("%d verts, %d polys, want %d and %d", len(m.Verts), m.PolyCount(), tc.verts, tc.polys)
			}
			var area int64
			mx := 0
			for i := 0; i < m.PolyCount(); i++ {
				area += polyArea2(m, i)
				mx = max(mx, m.PolyVertCount(i))
				if m.Regs[i] != tc.set.Contours[0].Region || m.Areas[i] != tc.set.Contours[0].Area {
					t.Errorf("polygon %d region %d area %d, want %d and %d", i, m.Regs[i], m.Areas[i], tc.set.Contours[0].Region, tc.set.Contours[0].Area)
				}
			}
			if area != tc.area2 || mx != tc.maxVerts {
				t.Errorf("doubled area %d, largest polygon %d verts; want %d and %d", area, mx, tc.area2, tc.maxVerts)
			}
			if len(m.Flags) != m.PolyCount() || len(m.BadContours) != 0 {
				t.Errorf("flags %d for %d polys, bad contours %v", len(m.Flags), m.PolyCount(), m.BadContours)
			}
			checkConvex(t, m)
			checkAdjacency(t, m)
		})
	}
}

func TestBuildWelding(t *testing.T) {
	// Two regions side by side share the edge x = 5. On the left the shared
	// vertices are at rows 4 and 4; on the right at rows 6 (within 2: welded)
	// and 7 (3 rows apart: a separate vertex).
	left := handContour{1, 63, []cv{{0, 4, 0, 0}, {0, 4, 10, 0}, {5, 4, 10, 0}, {5, 4, 0, 0}}}
	right := handContour{2, 63, []cv{{5, 6, 0, 0}, {5, 7, 10, 0}, {10, 5, 10, 0}, {10, 5, 0, 0}}}
	m, err := Build(handSet(12, 12, 0, left, right), 6)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Verts) != 7 || m.PolyCount() != 2 {
		t.Fatalf("%d verts, %d polys, want 7 and 2", len(m.Verts), m.PolyCount())
	}
	// (5, z=0) is shared: welded, keeping the first contour's row.
	shared := 0
	for _, v := range m.Verts {
		if v[0] == 5 {
			shared++
		}
	}
	if shared != 3 {
		t.Errorf("%d vertices at x = 5, want 3 (one welded, two apart)", shared)
	}
	// Not adjacent: the second shared vertex was not welded.
	for i := 0; i < 2; i++ {
		for _, n := range m.Neighbours(i)[:4] {
			if n != NullIndex {
				t.Errorf("polygon %d has neighbour %d, want none (edge not shared)", i, n)
			}
		}
	}
	// Now weld both: the polygons become neighbours across x = 5.
	right.verts[1].y = 6
	m, err = Build(handSet(12, 12, 0, left, right), 6)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Verts) != 6 {
		t.Fatalf("%d verts, want 6", len(m.Verts))
	}
	links := 0
	for i := 0; i < 2; i++ {
		for _, n := range m.Neighbours(i) {
			if n == uint16(1-i) {
				links++
			}
		}
	}
	if links != 2 {
		t.Errorf("%d neighbour links, want 2 (one each way)", links)
	}
	checkAdjacency(t, m)
}

func TestBuildPortalsAndBorderVertices(t *testing.T) {
	// A 10 x 10 tile with a 5-cell border: the build grid is 20 x 20. One
	// region covers the tile; a BorderVertex on the x = 0 side (grid x = 5)
	// between its corners is removed.
	bv := contour.BorderVertex
	full := handContour{3, 63, []cv{{5, 1, 5, 0}, {5, 1, 10, bv}, {5, 1, 15, 0}, {15, 1, 15, 0}, {15, 1, 5, 0}}}
	m, err := Build(handSet(20, 20, 5, full), 6)
	if err != nil {
		t.Fatal(err)
	}
	if m.WidthCells != 10 || m.HeightCells != 10 || m.BorderCells != 5 {
		t.Fatalf("extent %d x %d border %d, want 10 x 10 border 5", m.WidthCells, m.HeightCells, m.BorderCells)
	}
	if len(m.Verts) != 4 || m.PolyCount() != 1 || m.PolyVertCount(0) != 4 {
		t.Fatalf("%d verts, %d polys (first with %d verts), want 4, 1, 4", len(m.Verts), m.PolyCount(), m.PolyVertCount(0))
	}
	sides := map[uint16]bool{}
	p, nb := m.Poly(0), m.Neighbours(0)
	for j := 0; j < 4; j++ {
		if nb[j]&PortalFlag == 0 || nb[j] == NullIndex {
			t.Fatalf("edge %d neighbour %#x, want a portal", j, nb[j])
		}
		side := nb[j] &^ PortalFlag
		a, b := m.Verts[p[j]], m.Verts[p[(j+1)%4]]
		want := map[uint16]bool{
			0: a[0] == 0 && b[0] == 0, 1: a[2] == 10 && b[2] == 10,
			2: a[0] == 10 && b[0] == 10, 3: a[2] == 0 && b[2] == 0,
		}[side]
		if !want {
			t.Errorf("edge %d (%v-%v) marked side %d", j, a, b, side)
		}
		sides[side] = true
	}
	if len(sides) != 4 {
		t.Errorf("sides %v, want all four", sides)
	}
	wantOrigin := geom.Vec3{X: 10 + float32(5*float32(0.3)), Y: 2, Z: -20 + float32(5*float32(0.3))}
	if m.OriginM != wantOrigin {
		t.Errorf("origin %v, want %v", m.OriginM, wantOrigin)
	}

	// Without a border nothing is a portal.
	m, err = Build(handSet(10, 10, 0, handContour{3, 63, rect(0, 0, 10, 10, 1)}), 6)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range m.Neighbours(0) {
		if n != NullIndex {
			t.Errorf("neighbour %#x without a border, want none", n)
		}
	}

	// Two regions meet at a border vertex on side z = 0: removing it merges
	// pieces of both regions into polygons marked MultipleRegions.
	a := handContour{1, 63, []cv{{5, 1, 5, 0}, {5, 1, 15, 0}, {10, 1, 15, 0}, {10, 1, 5, bv}}}
	b := handContour{2, 63, []cv{{10, 1, 5, bv}, {10, 1, 15, 0}, {15, 1, 15, 0}, {15, 1, 5, 0}}}
	m, err = Build(handSet(20, 20, 5, a, b), 6)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range m.Verts {
		if v[0] == 5 && v[2] == 0 {
			t.Errorf("border vertex (5, 0) kept")
		}
	}
	var area int64
	multi := 0
	for i := 0; i < m.PolyCount(); i++ {
		area += polyArea2(m, i)
		if m.Regs[i] == MultipleRegions {
			multi++
		}
	}
	if area != 200 || multi == 0 {
		t.Errorf("doubled area %d with %d MultipleRegions polygons, want 200 and at least one", area, multi)
	}
	checkConvex(t, m)
	checkAdjacency(t, m)
}

func TestBuildErrors(t *testing.T) {
	ok := handSet(12, 12, 0, handContour{1, 63, rect(0, 0, 10, 10, 4)})
	for _, tc := range []struct {
		name string
		set  *contour.Set
		nvp  int
		want string
	}{
		{"nil", nil, 6, "nil contour set"},
		{"nvp low", ok, 2, "nvp 2"},
		{"nvp high", ok, 7, "nvp 7"},
		{"cell size", func() *contour.Set { s := *ok; s.CellSizeM = 0; return &s }(), 6, "CellSizeM 0"},
		{"border", handSet(10, 10, 5, handContour{1, 63, rect(5, 5, 5, 5, 0)}), 6, "border 5"},
		{"outside", handSet(12, 12, 0, handContour{1, 63, rect(0, 0, 13, 10, 4)}), 6, "(13, 4, 10)"},
		{"in border", handSet(20, 20, 5, handContour{1, 63, rect(4, 5, 10, 10, 4)}), 6, "(4, 4, 5)"},
		{"area", handSet(12, 12, 0, handContour{1, 64, rect(0, 0, 10, 10, 4)}), 6, "area 64"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Build(tc.set, tc.nvp)
			if err == nil || m != nil {
				t.Fatalf("got %v, %v; want an error", m, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not name %q", err, tc.want)
			}
		})
	}
	bad := DefaultMap(ok)
	bad.WidthCells = 11
	if _, err := BuildMapped(ok, 6, &bad); err == nil || !strings.Contains(err.Error(), "11") {
		t.Errorf("mismatched map: error %v, want one naming 11", err)
	}
}

func TestDetailWithoutSampling(t *testing.T) {
	lshape := []cv{{0, 3, 0, 0}, {0, 3, 10, 0}, {5, 3, 10, 0}, {5, 3, 5, 0}, {10, 3, 5, 0}, {10, 3, 0, 0}}
	set := handSet(12, 12, 0, handContour{1, 63, lshape}, handContour{2, 7, rect(10, 0, 12, 5, 6)})
	m, err := Build(set, 6)
	if err != nil {
		t.Fatal(err)
	}
	for _, sd := range []float32{0, 0.1, float32(0.9) * m.CellSizeM} {
		d, err := BuildDetail(m, nil, nil, sd, 0.2)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Meshes) != m.PolyCount() {
			t.Fatalf("%d detail meshes for %d polygons", len(d.Meshes), m.PolyCount())
		}
		for i, dm := range d.Meshes {
			p := m.Poly(i)
			nv := countPolyVerts(p)
			if int(dm[1]) != nv || int(dm[3]) != nv-2 {
				t.Fatalf("polygon %d: %d verts %d tris, want %d and %d", i, dm[1], dm[3], nv, nv-2)
			}
			for j := 0; j < nv; j++ {
				if got, want := d.Verts[int(dm[0])+j], m.VertM(int(p[j])); got != want {
					t.Errorf("polygon %d vertex %d at %v, want %v", i, j, got, want)
				}
			}
			for k := 0; k < nv-2; k++ {
				tri := d.Tris[int(dm[2])+k]
				want := [4]uint8{0, uint8(k + 1), uint8(k + 2), 1 << 2}
				if k == 0 {
					want[3] |= 1
				}
				if k == nv-3 {
					want[3] |= 1 << 4
				}
				if tri != want {
					t.Errorf("polygon %d triangle %d = %v, want %v", i, k, tri, want)
				}
			}
		}
	}
	if !Sampling(0.28, 0.3) || Sampling(0.27, 0.3) || Sampling(float32(0.9)*0.3, 0.3) {
		t.Errorf("Sampling threshold is not 0.9 cells")
	}
}

func TestDetailErrors(t *testing.T) {
	m, err := Build(handSet(12, 12, 0, handContour{1, 63, rect(0, 0, 10, 10, 4)}), 6)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := BuildDetail(nil, nil, nil, 0, 0); err == nil {
		t.Error("nil mesh accepted")
	}
	if _, err := BuildDetail(m, nil, nil, 1.8, 0.2); err == nil || !strings.Contains(err.Error(), "nil") {
		t.Errorf("sampling without a heightfield: %v", err)
	}
	if _, err := BuildDetail(m, nil, nil, -1, 0.2); err == nil || !strings.Contains(err.Error(), "-1") {
		t.Errorf("negative sample distance: %v", err)
	}
	broken := *m
	broken.Polys = append([]uint16(nil), m.Polys...)
	broken.Polys[1] = 99
	if _, err := BuildDetail(&broken, nil, nil, 0, 0.2); err == nil || !strings.Contains(err.Error(), "99") {
		t.Errorf("bad vertex index: %v", err)
	}
}

func TestBuildDeterministic(t *testing.T) {
	set := handSet(40, 40, 0,
		handContour{1, 63, []cv{{0, 0, 0, 0}, {0, 0, 20, 0}, {7, 1, 25, 0}, {13, 2, 21, 0}, {17, 2, 30, 0}, {30, 3, 30, 0}, {22, 1, 11, 0}, {30, 0, 3, 0}, {11, 0, 6, 0}}},
		handContour{2, 63, []cv{{30, 0, 3, 0}, {22, 1, 11, 0}, {30, 3, 30, 0}, {38, 3, 30, 0}, {38, 0, 0, 0}}})
	a, err := Build(set, 6)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(set, 6)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two builds differ")
	}
	checkConvex(t, a)
	checkAdjacency(t, a)
}

// TestSegmentsMeet compares the fast segment test with Recast's rules
// written out (intersectProp: no three points collinear and strict sides;
// intersect: that, or an end on the other segment) on every segment pair of
// a small lattice sample, collinear and touching cases included.
func TestSegmentsMeet(t *testing.T) {
	coll := func(ax, az, bx, bz, cx, cz int) bool { return area2(ax, az, bx, bz, cx, cz) == 0 }
	prop := func(ax, az, bx, bz, cx, cz, dx, dz int) bool {
		if coll(ax, az, bx, bz, cx, cz) || coll(ax, az, bx, bz, dx, dz) || coll(cx, cz, dx, dz, ax, az) || coll(cx, cz, dx, dz, bx, bz) {
			return false
		}
		return left(ax, az, bx, bz, cx, cz) != left(ax, az, bx, bz, dx, dz) && left(cx, cz, dx, dz, ax, az) != left(cx, cz, dx, dz, bx, bz)
	}
	between := func(ax, az, bx, bz, cx, cz int) bool {
		if !coll(ax, az, bx, bz, cx, cz) {
			return false
		}
		if ax != bx {
			return (ax <= cx && cx <= bx) || (ax >= cx && cx >= bx)
		}
		return (az <= cz && cz <= bz) || (az >= cz && cz >= bz)
	}
	n := 0
	for k := 0; k < 200000; k++ {
		// A deterministic spread of points on a 5 x 5 lattice.
		h := uint64(k)*0x9e3779b97f4a7c15 + 12345
		var c [8]int
		for i := range c {
			h ^= h >> 29
			h *= 0xbf58476d1ce4e5b9
			c[i] = int(h>>60) % 5
		}
		ax, az, bx, bz, cx, cz, dx, dz := c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]
		wantP := prop(ax, az, bx, bz, cx, cz, dx, dz)
		want := wantP || between(ax, az, bx, bz, cx, cz) || between(ax, az, bx, bz, dx, dz) ||
			between(cx, cz, dx, dz, ax, az) || between(cx, cz, dx, dz, bx, bz)
		if got := intersectProp(ax, az, bx, bz, cx, cz, dx, dz); got != wantP {
			t.Fatalf("intersectProp%v = %v, want %v", c, got, wantP)
		}
		if got := intersect(ax, az, bx, bz, cx, cz, dx, dz); got != want {
			t.Fatalf("intersect%v = %v, want %v", c, got, want)
		}
		if want {
			n++
		}
	}
	if n < 1000 {
		t.Errorf("only %d meeting pairs sampled", n)
	}
}

// TestBuildRandomContours feeds Build random contours (self-crossing,
// wrongly turning, repeated and collinear vertices, random border flags,
// several regions and areas) on a bordered grid: it must never panic, every
// polygon it returns has at least 3 vertices and consistent neighbours, and
// the detail mesh without sampling matches the polygons, and the plain
// rules (build with plain set) give the same mesh.
func TestBuildRandomContours(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 3))
	bad := 0
	defer func() { t.Logf("%d sets with a failed triangulation", bad) }()
	for it := 0; it < 3000; it++ {
		w := 8 + r.IntN(40)
		border := r.IntN(4)
		var cs []handContour
		for c := 0; c < 1+r.IntN(4); c++ {
			n := r.IntN(14)
			var vs []cv
			for k := 0; k < n; k++ {
				v := cv{int32(border + r.IntN(w-2*border+1)), int32(r.IntN(6)), int32(border + r.IntN(w-2*border+1)), 0}
				if r.IntN(5) == 0 {
					v.flags = contour.BorderVertex
				}
				if k > 0 && r.IntN(8) == 0 {
					v = vs[r.IntN(k)]
				}
				vs = append(vs, v)
			}
			cs = append(cs, handContour{uint16(1 + r.IntN(3)), uint8(r.IntN(64)), vs})
		}
		set := handSet(w, w, border, cs...)
		nvp := MinVertsPerPoly + r.IntN(MaxVertsPerPoly-MinVertsPerPoly+1)
		m, err := Build(set, nvp)
		if err != nil {
			t.Fatalf("iteration %d: %v", it, err)
		}
		// The plain rules give the same mesh.
		pm, err := build(set, nvp, nil, true)
		if err != nil {
			t.Fatalf("iteration %d: plain: %v", it, err)
		}
		pm.exactCalls = m.exactCalls
		if !reflect.DeepEqual(m, pm) {
			t.Fatalf("iteration %d: the shortcuts give %d polygons %v, the plain rules %d %v", it, m.PolyCount(), m.Polys, pm.PolyCount(), pm.Polys)
		}
		for i := 0; i < m.PolyCount(); i++ {
			p := m.Poly(i)
			nv := countPolyVerts(p)
			if nv < 3 {
				t.Fatalf("iteration %d: polygon %d has %d vertices", it, i, nv)
			}
		}
		checkAdjacency(t, m)
		if len(m.BadContours) != 0 {
			bad++
		}
		d, err := BuildDetail(m, nil, nil, 0, 0)
		if err != nil {
			t.Fatalf("iteration %d: detail: %v", it, err)
		}
		if len(d.Meshes) != m.PolyCount() {
			t.Fatalf("iteration %d: %d detail meshes for %d polygons", it, len(d.Meshes), m.PolyCount())
		}
	}
}

// TestBuildConcurrent builds the same sets on several goroutines at once
// (the builders' scratch memory is pooled) and compares with serial builds.
func TestBuildConcurrent(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	var sets []*contour.Set
	for i := 0; i < 64; i++ {
		x0, z0 := int32(r.IntN(10)), int32(r.IntN(10))
		sets = append(sets, handSet(40, 40, 0,
			handContour{1, 63, []cv{{x0, 0, z0, 0}, {x0, 0, z0 + 20, 0}, {x0 + 7, 1, z0 + 25, 0}, {x0 + 13, 2, z0 + 21, 0}, {x0 + 17, 2, z0 + 28, 0}, {x0 + 28, 3, z0 + 28, 0}, {x0 + 22, 1, z0 + 11, 0}, {x0 + 28, 0, z0 + 3, 0}, {x0 + 11, 0, z0 + 6, 0}}}))
	}
	want := make([]*Mesh, len(sets))
	for i, s := range sets {
		m, err := Build(s, 6)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = m
	}
	got := make([]*Mesh, len(sets))
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := g; i < len(sets); i += 4 {
				got[i], _ = Build(sets[i], 6)
			}
		}(g)
	}
	wg.Wait()
	for i := range sets {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("set %d: concurrent build differs from the serial one", i)
		}
	}
}

// TestBuildRandomStars triangulates and merges random star-shaped contours
// (simple, turning the contour way, with collinear and nearly collinear
// vertices from rounding to cells) on a bordered grid, every other one with
// a coordinate map 1500 km from the origin where float32 rounding moves
// positions by up to 0.2 cells: every polygon must be strictly convex in
// cells and in stored positions, and the polygons must cover the contour's
// area exactly, less any sliver triangle dropped.
func TestBuildRandomStars(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 9))
	star := func(cx, cz, rad float64, n int) []cv {
		angles := make([]float64, n)
		for k := range angles {
			angles[k] = r.Float64() * 2 * math.Pi
		}
		slices.Sort(angles)
		var vs []cv
		for _, a := range angles {
			rr := rad * (0.3 + 0.7*r.Float64())
			// Clockwise in (x, z) is the contour way (area2 < 0 at convex corners).
			v := cv{int32(math.Round(cx + rr*math.Cos(-a))), 0, int32(math.Round(cz + rr*math.Sin(-a))), 0}
			if len(vs) > 0 && vs[len(vs)-1].x == v.x && vs[len(vs)-1].z == v.z {
				continue
			}
			vs = append(vs, v)
		}
		return vs
	}
	checked, bad, exact, slivers := 0, 0, 0, 0
	for it := 0; it < 2000; it++ {
		vs := star(30, 30, 5+r.Float64()*20, 3+r.IntN(30))
		if len(vs) < 3 {
			continue
		}
		set := handSet(70, 70, 5, handContour{1, 63, vs})
		cm := DefaultMap(set)
		if it%2 == 1 { // far from the origin: float32 positions 0.4 cells apart
			cm.BaseM.X, cm.BaseM.Z = 1_500_000, -1_100_000
		}
		m, err := BuildMapped(set, MinVertsPerPoly+r.IntN(MaxVertsPerPoly-MinVertsPerPoly+1), &cm)
		if err != nil {
			t.Fatal(err)
		}
		exact += m.ExactOrientCalls()
		if len(m.BadContours) != 0 || signedArea2(vs) <= 0 || !simple(vs) {
			bad++ // rounding made it cross itself or turn the other way
			continue
		}
		checkConvex(t, m)
		checkAdjacency(t, m)
		var area int64
		for i := 0; i < m.PolyCount(); i++ {
			area += polyArea2(m, i)
		}
		slivers += m.SliverTriangles
		if want := signedArea2(vs); area != want && (m.SliverTriangles == 0 || area > want) {
			t.Errorf("iteration %d: polygons cover %d, contour %d (doubled areas), %d slivers dropped", it, area, want, m.SliverTriangles)
		}
		if t.Failed() {
			t.Fatalf("iteration %d: contour %v", it, vs)
		}
		checked++
	}
	t.Logf("%d stars checked, %d skipped, %d exact orientation calls, %d sliver triangles dropped", checked, bad, exact, slivers)
}

// signedArea2 is the doubled signed area of a contour, positive when it
// turns the contour way (convex corners with area2 < 0).
func signedArea2(vs []cv) int64 {
	var a int64
	for i := range vs {
		j := (i + 1) % len(vs)
		a += int64(vs[i].z)*int64(vs[j].x) - int64(vs[j].z)*int64(vs[i].x)
	}
	return a
}

// simple reports whether a contour is a simple polygon: no two edges that
// are not neighbours meet, and no vertex turns straight back.
func simple(vs []cv) bool {
	n := len(vs)
	for i := 0; i < n; i++ {
		a, b, c := vs[i], vs[(i+1)%n], vs[(i+2)%n]
		if area2(int(a.x), int(a.z), int(b.x), int(b.z), int(c.x), int(c.z)) == 0 &&
			(b.x-a.x)*(c.x-b.x)+(b.z-a.z)*(c.z-b.z) < 0 {
			return false
		}
		for j := i + 2; j < n; j++ {
			if i == 0 && j == n-1 {
				continue
			}
			d, e := vs[j], vs[(j+1)%n]
			if intersect(int(a.x), int(a.z), int(b.x), int(b.z), int(d.x), int(d.z), int(e.x), int(e.z)) {
				return false
			}
		}
	}
	return true
}

// TestRecycle: meshes built in the memory of recycled ones equal meshes
// built fresh, a second Recycle of one mesh is ignored (the next builds do
// not share memory), and nil is ignored.
func TestRecycle(t *testing.T) {
	cityTileSet(t)
	var sets []*contour.Set
	for _, part := range cityTile.all[:8] {
		sets = append(sets, part.cset)
	}
	want := make([]*Mesh, len(sets))
	for i, cs := range sets {
		m, err := Build(cs, tNVP)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = m // never recycled
	}
	Recycle(nil)
	for round := range 3 {
		var got []*Mesh
		for i, cs := range sets {
			m, err := Build(cs, tNVP)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(m, want[i]) {
				t.Fatalf("round %d set %d: a mesh built in recycled memory differs", round, i)
			}
			got = append(got, m)
		}
		for i, m := range got {
			Recycle(m)
			if i == 0 {
				Recycle(m) // ignored
			}
		}
	}
	a, _ := Build(sets[0], tNVP)
	b, _ := Build(sets[1], tNVP)
	if a == b || (len(a.Verts) > 0 && len(b.Verts) > 0 && &a.Verts[0] == &b.Verts[0]) {
		t.Fatalf("two builds share memory")
	}
}

// TestTriangulateShortcutsRandom compares the ear clipping with its
// shortcut (edges whose box misses the diagonal's are not tested) with the
// plain rules (every edge tested) on random polygons: star shapes with
// jitter (mostly simple, up to 90 vertices) and random points on small
// grids (crossing, repeated and collinear vertices), some moved far from
// the origin, some stretched wider than the boxes' range (boxMax). The
// triangles, the outcome and the slivers dropped must be the same.
func TestTriangulateShortcutsRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 8))
	cm := CoordMap{CellSizeM: 0.3, CellHeightM: 0.2, WidthCells: 65535, HeightCells: 65535}
	o := newOrienter(&cm)
	failed, tris := 0, 0
	for it := 0; it < 4000; it++ {
		var xs, zs []int
		n := 3 + r.IntN(88)
		if it%2 == 0 {
			for k := range n {
				a := -2 * math.Pi * float64(k) / float64(n) // the turn of contours
				rad := 20 + r.Float64()*75
				xs = append(xs, 100+int(math.Round(rad*math.Cos(a))))
				zs = append(zs, 100+int(math.Round(rad*math.Sin(a))))
			}
		} else {
			g := 3 + r.IntN(30)
			for range n {
				xs = append(xs, r.IntN(g))
				zs = append(zs, r.IntN(g))
			}
		}
		switch it % 6 {
		case 1, 2: // far from the origin
			dx, dz := r.IntN(65535-slices.Max(xs)), r.IntN(65535-slices.Max(zs))
			for k := range n {
				xs[k], zs[k] = xs[k]+dx, zs[k]+dz
			}
		case 3: // wider than boxMax
			f := 65535 / max(slices.Max(xs), slices.Max(zs), 1)
			for k := range n {
				xs[k], zs[k] = xs[k]*f, zs[k]*f
			}
		}
		out := triangulateBoth(&o, xs, zs)
		if !reflect.DeepEqual(out[0], out[1]) {
			t.Fatalf("iteration %d (%d vertices %v %v): shortcuts give %v, plain rules %v", it, n, xs, zs, out[0], out[1])
		}
		if !out[0].ok {
			failed++
		}
		tris += len(out[0].tris) / 3
	}
	t.Logf("%d triangles, %d triangulations stopped part way", tris, failed)
}

// TestEdgeBoxOverlaps compares edgeBox.overlaps with the four comparisons
// it stands for, on random boxes over the whole lane range 0..boxMax and
// on boxes that touch.
func TestEdgeBoxOverlaps(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 9))
	span := func(lim int) (int, int) {
		a, b := r.IntN(lim+1), r.IntN(lim+1)
		return min(a, b), max(a, b)
	}
	for it := range 200000 {
		lim := boxMax
		if it%2 == 0 {
			lim = 6 // small boxes: many touch
		}
		ex0, ex1 := span(lim)
		ez0, ez1 := span(lim)
		qx0, qx1 := span(lim)
		qz0, qz1 := span(lim)
		want := qx0 <= ex1 && ex0 <= qx1 && qz0 <= ez1 && ez0 <= qz1
		if got := boxOf(ex0, ex1, ez0, ez1).overlaps(boxQuery(qx0, qx1, qz0, qz1)); got != want {
			t.Fatalf("box [%d, %d] x [%d, %d] and query [%d, %d] x [%d, %d]: overlaps %v, want %v", ex0, ex1, ez0, ez1, qx0, qx1, qz0, qz1, got, want)
		}
	}
}

// TestMergeLargeStars compares the merge's kept pairs with evaluating
// every pair in every round (and the shortcuts with the plain rules) on
// star polygons of up to 300 vertices: contours with hundreds of pairs,
// which grow the merge's table of first pairs and its pair list far
// beyond what the level tiles need.
func TestMergeLargeStars(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 41))
	for it := 0; it < 40; it++ {
		n := 40 + r.IntN(261)
		var vs []cv
		for k := range n {
			a := -2 * math.Pi * float64(k) / float64(n) // the turn of contours
			rad := 20 + r.Float64()*75
			vs = append(vs, cv{int32(100 + math.Round(rad*math.Cos(a))), int32(r.IntN(4)), int32(100 + math.Round(rad*math.Sin(a))), 0})
		}
		set := handSet(200, 200, 0, handContour{1, 63, vs})
		nvp := MinVertsPerPoly + it%(MaxVertsPerPoly-MinVertsPerPoly+1)
		fast, plain := buildFastAndPlain(t, set, nvp)
		if !reflect.DeepEqual(fast, plain) {
			t.Fatalf("iteration %d (%d vertices, nvp %d): kept pairs give %d polygons, every pair %d, or they differ", it, n, nvp, fast.PolyCount(), plain.PolyCount())
		}
		if fast.PolyCount() < 2 {
			t.Fatalf("iteration %d: %d polygons from %d vertices", it, fast.PolyCount(), n)
		}
	}
}

// buildFastAndPlain builds set with the shortcuts and with the plain rules
// (every merge pair every round, every edge of the ear tests), their exact
// predicate counts cleared so that the meshes compare.
func buildFastAndPlain(t *testing.T, set *contour.Set, nvp int) (fast, plain *Mesh) {
	t.Helper()
	fast, err := build(set, nvp, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	plain, err = build(set, nvp, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	fast.exactCalls, plain.exactCalls = 0, 0
	return fast, plain
}
