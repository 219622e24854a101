package contour

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"navviz/core/geom"
	"navviz/core/region"
	"navviz/core/voxel"
)

// scene builds a compact heightfield and region ids from rows of characters
// (row index z, column x): '.' no span; 'a'..'z' region 1..26; 'A'..'Z'
// region 1..26 with region.BorderFlag; '0' a walkable span in no region.
// heights (optional, same shape) gives each span's floor as a digit above
// row 10; areas (optional) maps a character to its area id (default
// voxel.AreaWalkable).
type scene struct {
	rows    []string
	heights []string
	areas   map[byte]uint8
	border  int
}

func (sc scene) build(t testing.TB) (*voxel.CompactHeightfield, *region.Result) {
	t.Helper()
	h, w := len(sc.rows), len(sc.rows[0])
	g := voxel.Grid{
		Width: w, Height: h, BorderCells: sc.border,
		MaxM:      geom.Vec3{X: float32(w), Y: 100, Z: float32(h)},
		CellSizeM: 1, CellHeightM: 1,
	}
	cols := make([][]voxel.Span, w*h)
	var want []uint16
	for z, row := range sc.rows {
		if len(row) != w {
			t.Fatalf("row %d has %d columns, want %d", z, len(row), w)
		}
		for x := 0; x < w; x++ {
			c := row[x]
			if c == '.' {
				continue
			}
			floor := 10
			if sc.heights != nil {
				floor += int(sc.heights[z][x] - '0')
			}
			area := voxel.AreaWalkable
			if a, ok := sc.areas[c]; ok {
				area = a
			}
			cols[x+z*w] = []voxel.Span{{MinRow: 0, MaxRow: uint16(floor), Area: area}}
			var id uint16
			switch {
			case c >= 'a' && c <= 'z':
				id = uint16(c-'a') + 1
			case c >= 'A' && c <= 'Z':
				id = (uint16(c-'A') + 1) | region.BorderFlag
			}
			want = append(want, id)
		}
	}
	hf, err := voxel.NewHeightfieldFromColumns(g, cols)
	if err != nil {
		t.Fatal(err)
	}
	chf, err := voxel.BuildCompactHeightfield(hf, 2, 4)
	if err != nil {
		t.Fatal(err)
	}
	if len(chf.Spans) != len(want) {
		t.Fatalf("%d spans, want %d", len(chf.Spans), len(want))
	}
	return chf, &region.Result{IDs: want, Count: 27}
}

func xz(v []Vertex) string {
	var b strings.Builder
	for i, p := range v {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%d,%d", p.X, p.Z)
	}
	return b.String()
}

func mustBuild(t testing.TB, chf *voxel.CompactHeightfield, regs *region.Result, maxErr float32, maxLen int, flags BuildFlags) *Set {
	t.Helper()
	s, err := Build(chf, regs, maxErr, maxLen, flags)
	if err != nil {
		t.Fatal(err)
	}
	checkSet(t, chf, regs, s)
	return s
}

// checkSet checks invariants every set must meet: every flagged edge is in
// exactly one loop, loops start at their smallest key and are in key order,
// each loop is reproduced by a trace from any of its edges, and contour
// outlines are counter-clockwise.
func checkSet(t testing.TB, chf *voxel.CompactHeightfield, regs *region.Result, s *Set) {
	t.Helper()
	flags, err := EdgeFlags(chf, regs, nil)
	if err != nil {
		t.Fatal(err)
	}
	owner := make([]int, 4*len(chf.Spans))
	for i := range owner {
		owner[i] = -1
	}
	for li, l := range s.Loops {
		if len(l.Raw) != len(l.Keys) || len(l.Raw) == 0 {
			t.Fatalf("loop %d: %d raw, %d keys", li, len(l.Raw), len(l.Keys))
		}
		if l.Keys[0] != l.MinKey() {
			t.Errorf("loop %d starts at key %d, min %d", li, l.Keys[0], l.MinKey())
		}
		if li > 0 && s.Loops[li-1].Keys[0] >= l.Keys[0] {
			t.Errorf("loops %d and %d out of key order", li-1, li)
		}
		for _, k := range l.Keys {
			if flags[k/4]&(1<<(k&3)) == 0 {
				t.Errorf("loop %d has edge %d which is not a boundary", li, k)
			}
			if owner[k] >= 0 {
				t.Errorf("edge %d in loops %d and %d", k, owner[k], li)
			}
			owner[k] = li
		}
	}
	for i, f := range flags {
		for d := 0; d < 4; d++ {
			if f&(1<<d) != 0 && owner[i*4+d] < 0 {
				t.Errorf("boundary edge %d of span %d in no loop", d, i)
			}
		}
	}
	for k, o := range s.EdgeOwners(len(chf.Spans), nil) {
		if int(o) != owner[k] {
			t.Fatalf("EdgeOwners: edge %d in loop %d, want %d", k, o, owner[k])
		}
	}
	// Any edge reproduces its loop (the repair's premise).
	for li, l := range s.Loops {
		for _, k := range []int{0, len(l.Keys) / 2, len(l.Keys) - 1} {
			fl, _ := EdgeFlags(chf, regs, nil)
			got, err := TraceLoop(chf, regs, fl, int(l.Keys[k]/4), int(l.Keys[k]&3))
			if err != nil {
				t.Fatal(err)
			}
			RotateLoop(&got)
			if err := SimplifyLoop(&got, s.MaxErrorCells, s.MaxEdgeLenCells, s.Flags); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Raw, l.Raw) || !slices.Equal(got.Keys, l.Keys) {
				t.Fatalf("loop %d traced from its vertex %d differs", li, k)
			}
			if !slices.Equal(got.Simplified, l.Simplified) {
				t.Fatalf("loop %d simplified from its vertex %d differs", li, k)
			}
		}
	}
	for ci, c := range s.Contours {
		if len(c.Verts) < 3 {
			t.Errorf("contour %d has %d vertices", ci, len(c.Verts))
		}
		if a := signedArea2(c.Verts); a < 0 && len(c.Loops) > 0 && !s.Loops[c.Loops[0]].IsHole() {
			t.Errorf("contour %d (region %d) has area2 %d", ci, c.Region, a)
		}
	}
}

// hasXZ reports whether v holds a vertex at (x, z) and returns it.
func hasXZ(v []Vertex, x, z int32) (Vertex, bool) {
	for _, p := range v {
		if p.X == x && p.Z == z {
			return p, true
		}
	}
	return Vertex{}, false
}

func TestSquare(t *testing.T) {
	chf, regs := scene{rows: []string{
		"........",
		"..aaaa..",
		"..aaaa..",
		"..aaaa..",
		"..aaaa..",
		"........",
	}}.build(t)
	s := mustBuild(t, chf, regs, 1.3, 12, DefaultBuildFlags)
	if len(s.Contours) != 1 || len(s.Loops) != 1 {
		t.Fatalf("%d contours, %d loops, want 1 and 1", len(s.Contours), len(s.Loops))
	}
	c := s.Contours[0]
	// The walk starts at the -x edge of the first span (2, 1) and emits the
	// corner at its end; the simplification starts at the lowest vertex.
	if got, want := xz(c.RawVerts), "2,2 2,3 2,4 2,5 3,5 4,5 5,5 6,5 6,4 6,3 6,2 6,1 5,1 4,1 3,1 2,1"; got != want {
		t.Errorf("raw %s, want %s", got, want)
	}
	if got, want := xz(c.Verts), "2,1 2,5 6,5 6,1"; got != want {
		t.Errorf("simplified %s, want %s", got, want)
	}
	if l := s.Loops[0]; l.Keys[0] != int32(0*4+0) || l.Keys[len(l.Keys)-1] != 3 {
		t.Errorf("keys %v, want to start at 0 (span 0, -x) and end at 3 (span 0, -z)", l.Keys)
	}
	for _, v := range append(slices.Clone(c.Verts), c.RawVerts...) {
		if v.Flags != 0 || v.Y != 10 {
			t.Errorf("vertex %+v, want flags 0 and height 10", v)
		}
	}
	if c.Region != 1 || c.Area != voxel.AreaWalkable || signedArea2(c.Verts) != 2*16 {
		t.Errorf("region %d area %d area2 %d", c.Region, c.Area, signedArea2(c.Verts))
	}
}

func TestHole(t *testing.T) {
	rows := []string{
		".........",
		".aaaaaaa.",
		".aaaaaaa.",
		".aa...aa.",
		".aa...aa.",
		".aa...aa.",
		".aaaaaaa.",
		".aaaaaaa.",
		".........",
	}
	for _, tc := range []struct {
		name     string
		fill     byte // what fills the hole
		contours int
		loops    int
	}{
		{"wall", '.', 1, 2},
		{"other area", 'b', 2, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := slices.Clone(rows)
			for z := 3; z <= 5; z++ {
				r[z] = ".aa" + strings.Repeat(string(tc.fill), 3) + "aa."
			}
			chf, regs := scene{rows: r, areas: map[byte]uint8{'b': 5}}.build(t)
			s := mustBuild(t, chf, regs, 1.3, 12, DefaultBuildFlags)
			if len(s.Contours) != tc.contours || len(s.Loops) != tc.loops {
				t.Fatalf("%d contours, %d loops, want %d and %d", len(s.Contours), len(s.Loops), tc.contours, tc.loops)
			}
			c := s.Contours[0]
			if c.Region != 1 || len(c.Loops) != 2 {
				t.Fatalf("contour 0: region %d loops %v, want region 1 with outline and hole", c.Region, c.Loops)
			}
			hole := s.Loops[c.Loops[1]]
			if !hole.IsHole() || s.Loops[c.Loops[0]].IsHole() {
				t.Errorf("outline/hole winding wrong: %d / %d", s.Loops[c.Loops[0]].SignedArea2(), hole.SignedArea2())
			}
			// Outline 4 + 1 repeated, hole 4 + 1 repeated.
			if len(c.Verts) != 10 {
				t.Errorf("merged contour %s, want 10 vertices", xz(c.Verts))
			}
			// The bridge runs from the hole's lowest vertex (3, 3) to the
			// nearest outline vertex in its cone, (1, 1).
			if got, want := xz(c.Verts), "1,1 1,8 8,8 8,1 1,1 3,3 6,3 6,6 3,6 3,3"; got != want {
				t.Errorf("merged %s, want %s", got, want)
			}
			if got := signedArea2(c.Verts); got != 2*(49-9) {
				t.Errorf("merged area2 %d, want %d", got, 2*(49-9))
			}
			if tc.fill == 'b' {
				for _, v := range hole.Simplified {
					if v.Flags != 2|AreaBorder {
						t.Errorf("hole vertex %+v, want neighbour 2 with AreaBorder", v)
					}
				}
			}
		})
	}
}

func TestSharedEdge(t *testing.T) {
	chf, regs := scene{rows: []string{
		"..........",
		".aaaabbbb.",
		".aaaabbbb.",
		".aaaabbbb.",
		"..........",
	}, heights: []string{
		"0000000000",
		"0000022220",
		"0000022220",
		"0000022220",
		"0000000000",
	}}.build(t)
	s := mustBuild(t, chf, regs, 1.3, 12, DefaultBuildFlags)
	if len(s.Contours) != 2 {
		t.Fatalf("%d contours, want 2", len(s.Contours))
	}
	a, b := s.Contours[0], s.Contours[1]
	if a.Region != 1 || b.Region != 2 {
		t.Fatalf("regions %d, %d", a.Region, b.Region)
	}
	if got, want := xz(a.Verts), "5,4 5,1 1,1 1,4"; got != want {
		t.Errorf("a: %s, want %s", got, want)
	}
	if got, want := xz(b.Verts), "5,4 9,4 9,1 5,1"; got != want {
		t.Errorf("b: %s, want %s", got, want)
	}
	// Both ends of the shared edge x = 5 are in both contours with the same
	// height (the corner takes the highest floor around it: b's, 12).
	for _, z := range []int32{1, 4} {
		va, oka := hasXZ(a.Verts, 5, z)
		vb, okb := hasXZ(b.Verts, 5, z)
		if !oka || !okb || va.Y != vb.Y || va.Y != 12 {
			t.Errorf("shared vertex (5, %d): a %+v %v, b %+v %v, want both at height 12", z, va, oka, vb, okb)
		}
	}
	// The vertex starting the shared edge names the other region.
	nb := func(c Contour) map[string]uint32 {
		m := map[string]uint32{}
		for i, v := range c.Verts {
			w := c.Verts[(i+1)%len(c.Verts)]
			m[xz([]Vertex{v, w})] = v.Flags
		}
		return m
	}
	if f := nb(a)["5,4 5,1"]; f != 2 {
		t.Errorf("a's edge (5,4)-(5,1) flags %#x, want neighbour 2", f)
	}
	if f := nb(b)["5,1 5,4"]; f != 1 {
		t.Errorf("b's edge (5,1)-(5,4) flags %#x, want neighbour 1", f)
	}
	for k, f := range nb(a) {
		if k != "5,4 5,1" && f != 0 {
			t.Errorf("a's wall edge %s has flags %#x", k, f)
		}
	}
}

func TestBorderRing(t *testing.T) {
	ring := []string{
		"AAAAAAAAAA",
		"AAAAAAAAAA",
		"AAbbbbbbAA",
		"AAbbbbbbAA",
		"AAbbbbbbAA",
		"AAbbbbbbAA",
		"AAbbbbbbAA",
		"AAbbbbbbAA",
		"AAAAAAAAAA",
		"AAAAAAAAAA",
	}
	// Recast paints four border regions: left, right, then bottom and top
	// over the corners.
	strips := []string{
		"CCCCCCCCCC",
		"CCCCCCCCCC",
		"AAbbbbbbBB",
		"AAbbbbbbBB",
		"AAbbbbbbBB",
		"AAbbbbbbBB",
		"AAbbbbbbBB",
		"AAbbbbbbBB",
		"DDDDDDDDDD",
		"DDDDDDDDDD",
	}
	// A region in the tile's corner with a diagonal wall inside.
	corner := []string{
		"AAAAAAAAAA",
		"AAAAAAAAAA",
		"AAbbbbbbAA",
		"AAbbbbb.AA",
		"AAbbbb..AA",
		"AAbbb...AA",
		"AAbb....AA",
		"AAb.....AA",
		"AAAAAAAAAA",
		"AAAAAAAAAA",
	}
	for _, tc := range []struct {
		name string
		rows []string
		want string
	}{
		// Mandatory vertices come in raw order: the first is the end of the
		// first side (the -x side, walked towards +z).
		{"one ring region", ring, "2,8 8,8 8,2 2,2"},
		{"four strips", strips, "2,8 8,8 8,2 2,2"},
		{"corner", corner, "2,8 3,8 8,3 8,2 2,2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			chf, regs := scene{rows: tc.rows, border: 2}.build(t)
			s := mustBuild(t, chf, regs, 1.3, 12, DefaultBuildFlags)
			if len(s.Contours) != 1 || s.Border != 2 || s.Width != 10 {
				t.Fatalf("%d contours, border %d, width %d", len(s.Contours), s.Border, s.Width)
			}
			c := s.Contours[0]
			if got := xz(c.Verts); got != tc.want {
				t.Errorf("contour %s, want %s", got, tc.want)
			}
			// Raw vertices strictly inside a side of the tile are border
			// vertices; the tile's corners and the wall's are not.
			for _, v := range c.RawVerts {
				onX := v.X == 2 || v.X == 8
				onZ := v.Z == 2 || v.Z == 8
				want := onX != onZ && (tc.name != "corner" || v.X == 2 || v.Z == 2) &&
					!(tc.name == "corner" && (v.X == 2 && v.Z == 8 || v.X == 8 && v.Z == 2))
				if got := v.Flags&BorderVertex != 0; got != want {
					t.Errorf("raw vertex (%d, %d) flags %#x, border vertex %v, want %v", v.X, v.Z, v.Flags, got, want)
				}
			}
			for _, v := range c.Verts {
				if v.Flags&BorderVertex != 0 {
					t.Errorf("simplified vertex (%d, %d) is a border vertex", v.X, v.Z)
				}
			}
			// Every edge on the tile's side faces a border region.
			for i, v := range c.Verts {
				w := c.Verts[(i+1)%len(c.Verts)]
				onSide := (v.X == w.X && (v.X == 2 || v.X == 8)) || (v.Z == w.Z && (v.Z == 2 || v.Z == 8))
				if got := v.Flags&borderFlag != 0; got != onSide {
					t.Errorf("edge (%d,%d)-(%d,%d) flags %#x, on the tile side %v", v.X, v.Z, w.X, w.Z, v.Flags, onSide)
				}
			}
		})
	}
}

// segLens returns the squared lengths of a closed polygon's edges.
func segLens(v []Vertex) []int64 {
	var out []int64
	for i, p := range v {
		q := v[(i+1)%len(v)]
		dx, dz := int64(q.X-p.X), int64(q.Z-p.Z)
		out = append(out, dx*dx+dz*dz)
	}
	return out
}

func TestMaxEdgeLen(t *testing.T) {
	wide := scene{rows: []string{
		"................................",
		".aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.",
		".aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.",
		".aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.",
		"................................",
	}}
	// Region b (area 5) under a along a 30-cell area edge.
	areas := scene{rows: []string{
		"................................",
		".aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.",
		".aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.",
		".bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.",
		"................................",
	}, areas: map[byte]uint8{'b': 5}}
	for _, tc := range []struct {
		name   string
		sc     scene
		maxLen int
		flags  BuildFlags
		want   string
	}{
		{"no limit", wide, 0, DefaultBuildFlags, "1,1 1,4 31,4 31,1"},
		{"no tessellation flag", wide, 8, 0, "1,1 1,4 31,4 31,1"},
		// 30 cells: split at the middle raw vertex, rounded by x order, so
		// both long walls split at the same x.
		{"8 cells", wide, 8, DefaultBuildFlags, "1,1 1,4 8,4 16,4 23,4 31,4 31,1 23,1 16,1 8,1"},
		{"30 cells", wide, 30, DefaultBuildFlags, "1,1 1,4 31,4 31,1"},
		{"29 cells", wide, 29, DefaultBuildFlags, "1,1 1,4 16,4 31,4 31,1 16,1"},
		// The area edge is only split with TessAreaEdges.
		{"area edge, wall flag", areas, 8, TessWallEdges, "1,3 31,3 31,1 23,1 16,1 8,1 1,1"},
		{"area edge, both flags", areas, 8, TessWallEdges | TessAreaEdges, "1,3 8,3 16,3 23,3 31,3 31,1 23,1 16,1 8,1 1,1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			chf, regs := tc.sc.build(t)
			s := mustBuild(t, chf, regs, 1.3, tc.maxLen, tc.flags)
			c := s.Contours[0]
			if got := xz(c.Verts); got != tc.want {
				t.Errorf("contour %s, want %s", got, tc.want)
			}
			if tc.maxLen > 0 && tc.flags&TessWallEdges != 0 {
				for i, l := range segLens(c.Verts) {
					if l > int64(tc.maxLen*tc.maxLen) && c.Verts[i].Flags == 0 {
						t.Errorf("wall edge %d has squared length %d > %d", i, l, tc.maxLen*tc.maxLen)
					}
				}
			}
		})
	}
}

func TestMaxError(t *testing.T) {
	// A triangle whose hypotenuse is a staircase of 1-cell steps, and a
	// bump of 2 x 1 cells on its +z wall.
	var rows []string
	for z := 0; z < 16; z++ {
		var b strings.Builder
		for x := 0; x < 16; x++ {
			in := x >= 1 && z >= 1 && z <= 14 && x <= z
			if z == 14 && x >= 6 && x <= 7 {
				in = true
			}
			if in {
				b.WriteByte('a')
			} else {
				b.WriteByte('.')
			}
		}
		rows = append(rows, b.String())
	}
	rows = append(rows, strings.Repeat(".", 16))
	for z := 15; z <= 15; z++ {
		rows[z] = "......aa........"
	}
	chf, regs := scene{rows: rows}.build(t)
	prev := 1 << 30
	for _, tc := range []struct {
		maxErr float32
		verts  int
	}{
		// 0: every corner off a straight run; 0.5 drops the two staircase
		// corners that are 0.447 from their segment; 0.8 keeps only the
		// bump's far corner; a 2-vertex loop (100) makes no contour.
		{0, 34}, {0.5, 32}, {0.8, 5}, {1.3, 3}, {2.5, 3}, {100, 2},
	} {
		t.Run(fmt.Sprint(tc.maxErr), func(t *testing.T) {
			s := mustBuild(t, chf, regs, tc.maxErr, 0, DefaultBuildFlags)
			l := s.Loops[0]
			t.Logf("max error %v: %s", tc.maxErr, xz(l.Simplified))
			if len(l.Simplified) != tc.verts {
				t.Errorf("%d vertices, want %d", len(l.Simplified), tc.verts)
			}
			if (len(s.Contours) == 1) != (tc.verts >= 3) {
				t.Errorf("%d contours for %d simplified vertices", len(s.Contours), tc.verts)
			}
			if len(l.Simplified) > prev {
				t.Errorf("more vertices than with a smaller error")
			}
			prev = len(l.Simplified)
			// Every raw vertex lies within the error of the simplified
			// segment that covers it (all edges here are walls).
			raw := l.Raw
			pos := make([]int, 0, len(l.Simplified))
			for _, v := range l.Simplified {
				i := slices.IndexFunc(raw, func(r Vertex) bool { return r.X == v.X && r.Z == v.Z })
				pos = append(pos, i)
			}
			for k := range pos {
				a, b := raw[pos[k]], raw[pos[(k+1)%len(pos)]]
				for i := (pos[k] + 1) % len(raw); i != pos[(k+1)%len(pos)]; i = (i + 1) % len(raw) {
					d := distPtSegSq(raw[i].X, raw[i].Z, a.X, a.Z, b.X, b.Z)
					if d > tc.maxErr*tc.maxErr {
						t.Errorf("raw (%d, %d) is %v from segment (%d,%d)-(%d,%d)", raw[i].X, raw[i].Z, math.Sqrt(float64(d)), a.X, a.Z, b.X, b.Z)
					}
				}
			}
		})
	}
}

// randomScene returns a scene of Voronoi regions (some of them walls, some
// of another area) with random floor heights, with a border ring of border
// regions when border > 0.
func randomScene(seed uint64, w, h, border int) scene {
	rng := rand.New(rand.NewPCG(seed, 7))
	type site struct{ x, z, id int }
	sites := make([]site, 3+rng.IntN(12))
	for i := range sites {
		sites[i] = site{rng.IntN(w), rng.IntN(h), rng.IntN(8)} // id 0: wall
	}
	rows := make([]string, h)
	heights := make([]string, h)
	for z := 0; z < h; z++ {
		var b, hb strings.Builder
		for x := 0; x < w; x++ {
			best, bd := 0, 1<<30
			for i, s := range sites {
				d := (s.x-x)*(s.x-x) + (s.z-z)*(s.z-z)
				if d < bd {
					best, bd = i, d
				}
			}
			c := byte('.')
			if id := sites[best].id; id > 0 && rng.IntN(20) > 0 {
				c = byte('a' + id - 1)
				if x < border || z < border || x >= w-border || z >= h-border {
					c = byte('A' + (x*4/w + 4*(z*2/h))) // several border regions
				}
			}
			b.WriteByte(c)
			hb.WriteByte(byte('0' + (x/3+z/4)%4))
		}
		rows[z] = b.String()
		heights[z] = hb.String()
	}
	return scene{rows: rows, heights: heights, areas: map[byte]uint8{'c': 3, 'f': 4}, border: border}
}

func TestRandomScenes(t *testing.T) {
	for seed := uint64(1); seed <= 60; seed++ {
		border := int(seed % 3)
		sc := randomScene(seed, 24+int(seed%7), 20+int(seed%5), border)
		chf, regs := sc.build(t)
		flags := []BuildFlags{0, TessWallEdges, TessWallEdges | TessAreaEdges}[seed%3]
		maxErr := []float32{0, 1.3, 2.5}[seed%3]
		a := mustBuild(t, chf, regs, maxErr, 6, flags)
		b := mustBuild(t, chf, regs, maxErr, 6, flags)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("seed %d: two builds differ", seed)
		}
		// Holes joined: every contour is counter-clockwise or a lone hole.
		for _, c := range a.Contours {
			if signedArea2(c.Verts) < 0 && !a.Loops[c.Loops[0]].IsHole() {
				t.Errorf("seed %d: contour of region %d is not counter-clockwise", seed, c.Region)
			}
		}
	}
}

// TestBuildParts rebuilds the set from the exported steps in a different
// order (loops traced from the last edge of each span backwards) and checks
// JoinLoops gives the same set.
func TestBuildParts(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		sc := randomScene(seed, 30, 26, 2)
		chf, regs := sc.build(t)
		want := mustBuild(t, chf, regs, 1.3, 12, DefaultBuildFlags)
		flags, err := EdgeFlags(chf, regs, nil)
		if err != nil {
			t.Fatal(err)
		}
		var loops []Loop
		for i := len(chf.Spans) - 1; i >= 0; i-- {
			for d := 3; d >= 0; d-- {
				if flags[i]&(1<<d) == 0 {
					continue
				}
				l, err := TraceLoop(chf, regs, flags, i, d)
				if err != nil {
					t.Fatal(err)
				}
				RotateLoop(&l)
				if err := SimplifyLoop(&l, 1.3, 12, DefaultBuildFlags); err != nil {
					t.Fatal(err)
				}
				loops = append(loops, l)
			}
		}
		got := JoinLoops(loops)
		if !reflect.DeepEqual(loops, want.Loops) {
			t.Fatalf("seed %d: loops differ", seed)
		}
		if !reflect.DeepEqual(got, want.Contours) {
			t.Fatalf("seed %d: contours differ", seed)
		}
	}
}

func TestErrors(t *testing.T) {
	good := func() (*voxel.CompactHeightfield, *region.Result) {
		return scene{rows: []string{
			"......",
			".aabb.",
			".aabb.",
			"......",
		}}.build(t)
	}
	for _, tc := range []struct {
		name   string
		change func(c *voxel.CompactHeightfield, r *region.Result) (*voxel.CompactHeightfield, *region.Result)
		maxErr float32
		maxLen int
		flags  BuildFlags
		want   string
	}{
		{name: "nil heightfield", change: func(c *voxel.CompactHeightfield, r *region.Result) (*voxel.CompactHeightfield, *region.Result) {
			return nil, r
		}, want: "heightfield is nil"},
		{name: "nil regions", change: func(c *voxel.CompactHeightfield, r *region.Result) (*voxel.CompactHeightfield, *region.Result) {
			return c, nil
		}, want: "region result is nil"},
		{name: "short ids", change: func(c *voxel.CompactHeightfield, r *region.Result) (*voxel.CompactHeightfield, *region.Result) {
			r.IDs = r.IDs[:3]
			return c, r
		}, want: "3 region ids for 8 spans"},
		{name: "short areas", change: func(c *voxel.CompactHeightfield, r *region.Result) (*voxel.CompactHeightfield, *region.Result) {
			c.Areas = c.Areas[:7]
			return c, r
		}, want: "7 areas for 8 spans"},
		{name: "cells", change: func(c *voxel.CompactHeightfield, r *region.Result) (*voxel.CompactHeightfield, *region.Result) {
			c.Cells = c.Cells[:5]
			return c, r
		}, want: "5 cells for a 6 x 4 grid"},
		{name: "column index", change: func(c *voxel.CompactHeightfield, r *region.Result) (*voxel.CompactHeightfield, *region.Result) {
			c.Cells[8].Index++
			return c, r
		}, want: "column (2, 1) starts at span 2, want 1"},
		{name: "column count", change: func(c *voxel.CompactHeightfield, r *region.Result) (*voxel.CompactHeightfield, *region.Result) {
			c.Cells[len(c.Cells)-1].Count = 3
			return c, r
		}, want: "columns hold 11 spans"},
		{name: "link outside", change: func(c *voxel.CompactHeightfield, r *region.Result) (*voxel.CompactHeightfield, *region.Result) {
			c.Cells[0].Count, c.Cells[1].Index = 1, 1
			for i := 2; i < len(c.Cells); i++ {
				c.Cells[i].Index++
			}
			c.Spans = append([]voxel.CompactSpan{{Con: 0xffffff00}}, c.Spans...)
			c.Areas = append([]uint8{1}, c.Areas...)
			r.IDs = append([]uint16{1}, r.IDs...)
			return c, r
		}, want: "links in direction 0 outside the grid"},
		{name: "link past column", change: func(c *voxel.CompactHeightfield, r *region.Result) (*voxel.CompactHeightfield, *region.Result) {
			c.Spans[0].Con = c.Spans[0].Con&^0xff00 | 0x0500
			return c, r
		}, want: "to span 5 of a column of 1"},
		{name: "NaN error", maxErr: float32(math.NaN()), want: "max error NaN"},
		{name: "negative error", maxErr: -1, want: "max error -1"},
		{name: "infinite error", maxErr: float32(math.Inf(1)), want: "max error +Inf"},
		{name: "negative length", maxLen: -2, want: "max edge length -2"},
		{name: "huge length", maxLen: MaxEdgeLenCells + 1, want: "max edge length"},
		{name: "flags", flags: 0x84, want: "unknown build flags 0x84"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, r := good()
			if tc.change != nil {
				c, r = tc.change(c, r)
			}
			s, err := Build(c, r, tc.maxErr, tc.maxLen, tc.flags)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Build: %v (set %v), want an error with %q", err, s != nil, tc.want)
			}
		})
	}
}

func TestTraceLoopErrors(t *testing.T) {
	chf, regs := scene{rows: []string{
		"......",
		".aabb.",
		".aabb.",
		"......",
	}}.build(t)
	flags, err := EdgeFlags(chf, regs, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		flags     []uint8
		span, dir int
		want      string
	}{
		{"span", flags, 8, 0, "span 8 out of range"},
		{"negative span", flags, -1, 0, "span -1 out of range"},
		{"direction", flags, 0, 4, "direction 4 out of range"},
		{"short flags", flags[:3], 0, 0, "3 flags"},
		// Span 0 is (1, 1): its +x edge faces its own region.
		{"not a boundary", flags, 0, 2, "not a flagged boundary edge"},
		{"inconsistent flags", []uint8{1, 0, 0, 0, 0, 0, 0, 0}, 0, 0, "not flagged but has no neighbour"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := slices.Clone(tc.flags)
			_, err := TraceLoop(chf, regs, f, tc.span, tc.dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("TraceLoop: %v, want an error with %q", err, tc.want)
			}
		})
	}
	if err := SimplifyLoop(&Loop{Raw: make([]Vertex, 3)}, 1, 0, 0); err == nil {
		t.Error("SimplifyLoop accepted a loop without keys")
	}
}

// TestLoneSpan checks that a one-span region is not traced (as Recast) and
// that two pieces of one region touching at a corner only are two loops (and
// two contours: a region may have several outlines).
func TestLoneSpan(t *testing.T) {
	chf, regs := scene{rows: []string{
		".......",
		".a.bb..",
		"...bb..",
		".....cc",
		"..cc.cc",
		"..cc...",
	}}.build(t)
	s := mustBuild(t, chf, regs, 0, 0, DefaultBuildFlags)
	var got []uint16
	for _, l := range s.Loops {
		got = append(got, l.Region)
	}
	if want := []uint16{2, 3, 3}; !slices.Equal(got, want) {
		t.Errorf("loops of regions %v, want %v", got, want)
	}
	if len(s.Contours) != 3 || len(s.Loops[1].Raw) != 8 || len(s.Loops[2].Raw) != 8 {
		t.Errorf("%d contours, want 3 with 8 raw vertices for each piece of region 3", len(s.Contours))
	}
}

// FuzzBuild builds contours of small heightfields with arbitrary links,
// region ids, areas and edge flags: Build, TraceLoop and the other steps may
// fail but never panic.
func FuzzBuild(f *testing.F) {
	f.Add([]byte{3, 3, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Add([]byte("\x05\x04aaaabbbbccccddddeeeeffffgggghhhh"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		w, h := int(data[0]%6)+1, int(data[1]%6)+1
		data = data[2:]
		next := func() byte {
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return b
		}
		c := &voxel.CompactHeightfield{Grid: voxel.Grid{Width: w, Height: h, CellSizeM: 1, CellHeightM: 1}}
		c.Cells = make([]voxel.CompactCell, w*h)
		var ids []uint16
		for i := range c.Cells {
			n := uint32(next() % 3)
			c.Cells[i] = voxel.CompactCell{Index: uint32(len(c.Spans)), Count: n}
			for k := uint32(0); k < n; k++ {
				con := uint32(next()) | uint32(next())<<8 | uint32(next())<<16 | uint32(next())<<24
				c.Spans = append(c.Spans, voxel.CompactSpan{Y: uint16(next()), H: 10, Con: con})
				c.Areas = append(c.Areas, next()%4)
				id := uint16(next() % 5)
				if id == 4 {
					id = region.BorderFlag | 1
				}
				ids = append(ids, id)
			}
		}
		regs := &region.Result{IDs: ids, Count: 4}
		mode := next()
		_, _ = Build(c, regs, float32(mode%3), int(mode%5), BuildFlags(mode%4))
		flags := make([]uint8, len(c.Spans))
		for i := range flags {
			flags[i] = next() & 0xf
		}
		for i := range flags {
			for d := 0; d < 4; d++ {
				if flags[i]&(1<<d) != 0 {
					l, err := TraceLoop(c, regs, flags, i, d)
					if err == nil {
						RotateLoop(&l)
						_ = SimplifyLoop(&l, 1, 3, DefaultBuildFlags)
						_ = JoinLoops([]Loop{l, l})
					}
				}
			}
		}
	})
}
