package level

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"navviz/core/geom"
)

// bruteQuery is the reference: every triangle whose x/z box overlaps the
// query box, in index order.
func bruteQuery(s *Soup, minX, minZ, maxX, maxZ float32) []int32 {
	var out []int32
	for i, t := range s.Tris {
		a, b, c := s.Verts[t[0]], s.Verts[t[1]], s.Verts[t[2]]
		if min(a.X, b.X, c.X) <= maxX && minX <= max(a.X, b.X, c.X) &&
			min(a.Z, b.Z, c.Z) <= maxZ && minZ <= max(a.Z, b.Z, c.Z) {
			out = append(out, int32(i))
		}
	}
	return out
}

// checkChunky compares Query with brute force on random boxes, boxes whose
// edges sit exactly on vertex coordinates (touching counts), point boxes,
// a box around everything and empty boxes.
func checkChunky(t *testing.T, s *Soup, leaf int, rng *rand.Rand, n int) {
	t.Helper()
	c, err := NewChunky(s, leaf)
	if err != nil {
		t.Fatal(err)
	}
	if c.Len() != len(s.Tris) {
		t.Fatalf("Len = %d, want %d", c.Len(), len(s.Tris))
	}
	if c.MaxLeafTris() > leaf {
		t.Fatalf("MaxLeafTris = %d > %d", c.MaxLeafTris(), leaf)
	}
	b := s.Bounds()
	span := max(b.Max.X-b.Min.X, b.Max.Z-b.Min.Z, 1)
	vert := func() geom.Vec3 { return s.Verts[rng.IntN(len(s.Verts))] }
	var dst []int32
	var hits int
	for i := range n {
		var minX, minZ, maxX, maxZ float32
		switch i % 5 {
		case 0, 1: // random box, tile-sized or smaller
			w, d := rng.Float32()*span/4, rng.Float32()*span/4
			minX = b.Min.X - span/8 + rng.Float32()*(span*1.25)
			minZ = b.Min.Z - span/8 + rng.Float32()*(span*1.25)
			maxX, maxZ = minX+w, minZ+d
		case 2: // edges on vertex coordinates
			p, q := vert(), vert()
			minX, maxX = min(p.X, q.X), max(p.X, q.X)
			minZ, maxZ = min(p.Z, q.Z), max(p.Z, q.Z)
		case 3: // a point (a vertex): every triangle touching it
			p := vert()
			minX, maxX, minZ, maxZ = p.X, p.X, p.Z, p.Z
		case 4: // a box ending exactly where a vertex starts
			p := vert()
			minX, maxX = p.X-rng.Float32()*span/10, p.X
			minZ, maxZ = p.Z, p.Z+rng.Float32()*span/10
		}
		dst = c.Query(minX, minZ, maxX, maxZ, dst[:0])
		want := bruteQuery(s, minX, minZ, maxX, maxZ)
		if len(dst) != len(want) || (len(want) > 0 && !reflect.DeepEqual(dst, want)) {
			t.Fatalf("Query(%v, %v, %v, %v): %d triangles, brute force %d", minX, minZ, maxX, maxZ, len(dst), len(want))
		}
		hits += len(want)
	}
	if hits == 0 {
		t.Fatal("no query hit anything: weak test")
	}
	all := c.Query(b.Min.X, b.Min.Z, b.Max.X, b.Max.Z, nil)
	if len(all) != len(s.Tris) {
		t.Fatalf("box around everything: %d of %d triangles", len(all), len(s.Tris))
	}
	for i, k := range all {
		if k != int32(i) {
			t.Fatalf("box around everything: entry %d is %d", i, k)
		}
	}
	if got := c.Query(1, 1, 0, 0, nil); len(got) != 0 {
		t.Fatalf("empty box: %d triangles", len(got))
	}
	nan := float32(math.NaN())
	if got := c.Query(nan, b.Min.Z, b.Max.X, b.Max.Z, nil); len(got) != 0 {
		t.Fatalf("NaN box: %d triangles", len(got))
	}
	// Query appends after existing entries and sorts only its own part.
	pre := []int32{99, 7}
	got := c.Query(b.Min.X, b.Min.Z, b.Max.X, b.Max.Z, pre)
	if got[0] != 99 || got[1] != 7 || len(got) != 2+len(s.Tris) {
		t.Fatalf("Query did not append after dst's entries")
	}
}

func TestChunkyRandomSoup(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	s := &Soup{}
	// Triangles on an integer-ish grid so that many boxes touch exactly.
	for range 3000 {
		x, z := float32(rng.IntN(200)), float32(rng.IntN(200))
		for range 3 {
			s.Verts = append(s.Verts, geom.V3(x+float32(rng.IntN(5)), rng.Float32(), z+float32(rng.IntN(5))))
		}
		n := int32(len(s.Verts))
		s.Tris = append(s.Tris, [3]int32{n - 3, n - 2, n - 1})
		s.Areas = append(s.Areas, AreaWalkable)
	}
	for _, leaf := range []int{1, 2, 7, 256, 5000} {
		checkChunky(t, s, leaf, rng, 1000)
	}
}

func TestChunkyDungeon(t *testing.T) {
	s, err := LoadOBJ(sharedLevel(t, "dungeon"))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(23, 24))
	for _, leaf := range []int{1, 64, 256} {
		checkChunky(t, s, leaf, rng, 1000)
	}
}

func TestChunkyDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	s := randomSoup(rng, 500, 2000)
	// Many triangles with identical boxes, so that the index tiebreak matters.
	for range 300 {
		s.Tris = append(s.Tris, [3]int32{0, 1, 2})
		s.Areas = append(s.Areas, AreaWalkable)
	}
	a, err := NewChunky(s, 16)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewChunky(s, 16)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two builds of the same soup differ")
	}
	checkChunky(t, s, 16, rng, 500)
}

func TestChunkyEmptyAndErrors(t *testing.T) {
	c, err := NewChunky(&Soup{}, 256)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Query(-1e30, -1e30, 1e30, 1e30, nil); len(got) != 0 || c.Len() != 0 || c.Nodes() != 0 {
		t.Fatalf("empty soup: %v", got)
	}
	tests := []struct {
		name string
		s    *Soup
		leaf int
		want string
	}{
		{"nil soup", nil, 256, "nil soup"},
		{"leaf zero", &Soup{}, 0, "trisPerChunk 0"},
		{"leaf negative", &Soup{}, -5, "trisPerChunk -5"},
		{"bad index", &Soup{Verts: []geom.Vec3{{}}, Tris: [][3]int32{{0, 0, 3}}, Areas: []uint8{AreaWalkable}}, 256, "vertex index 3"},
		{"areas mismatch", &Soup{Verts: []geom.Vec3{{}}, Tris: [][3]int32{{0, 0, 0}}}, 256, "0 area ids for 1 triangles"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := NewChunky(tc.s, tc.leaf)
			if err == nil || c != nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, %v; want an error containing %q", c, err, tc.want)
			}
		})
	}
}

// BenchmarkChunkyQuery asks for the triangles of every 19.2 m tile (64 cells
// of 0.3 m) of dungeon plus a 1.5 m border (5 cells), as a tile build does;
// one op is one tile query.
func BenchmarkChunkyQuery(b *testing.B) {
	s, err := LoadOBJ(sharedLevel(b, "dungeon"))
	if err != nil {
		b.Fatal(err)
	}
	c, err := NewChunky(s, 256)
	if err != nil {
		b.Fatal(err)
	}
	const tile, border = 19.2, 1.5
	bb := s.Bounds()
	type box struct{ minX, minZ, maxX, maxZ float32 }
	var tiles []box
	for z := bb.Min.Z; z < bb.Max.Z; z += tile {
		for x := bb.Min.X; x < bb.Max.X; x += tile {
			tiles = append(tiles, box{x - border, z - border, x + tile + border, z + tile + border})
		}
	}
	var dst []int32
	var total, n int
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		t := tiles[i%len(tiles)]
		dst = c.Query(t.minX, t.minZ, t.maxX, t.maxZ, dst[:0])
		total += len(dst)
		n++
	}
	b.ReportMetric(float64(total)/float64(n), "tris/op")
}

func BenchmarkNewChunkyDungeon(b *testing.B) {
	s, err := LoadOBJ(sharedLevel(b, "dungeon"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewChunky(s, 256); err != nil {
			b.Fatal(err)
		}
	}
}

// TestChunkyRadixPasses covers the sizes where the result sort takes one,
// two and three 8-bit passes (the last one, an odd count, ends in scratch).
func TestChunkyRadixPasses(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	for _, n := range []int{200, 256, 257, 5000, 70000} {
		s := &Soup{}
		for range n {
			x, z := rng.Float32()*20, rng.Float32()*20
			k := int32(len(s.Verts))
			s.Verts = append(s.Verts, geom.V3(x, 0, z), geom.V3(x+rng.Float32()*3, 0, z), geom.V3(x, 0, z+rng.Float32()*3))
			s.Tris = append(s.Tris, [3]int32{k, k + 1, k + 2})
			s.Areas = append(s.Areas, AreaWalkable)
		}
		checkChunky(t, s, 32, rng, 30)
	}
}
