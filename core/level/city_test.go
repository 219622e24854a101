package level

import (
	"bytes"
	"math"
	"sort"
	"testing"

	"github.com/cespare/xxhash/v2"
)

// Golden xxhash64 of WriteOBJ(City(DefaultSeed)). Change it only when the
// city is meant to change, and say so in the commit.
const cityGoldenHash uint64 = 0xc90e5cf6ad8c5637

// Recast's defaults (DESIGN.md), metres.
const (
	agentHeight = 2.0
	agentClimb  = 0.9
)

var cosMaxSlope = math.Sqrt2 / 2 // cos 45°

// triNormal returns the unit normal of triangle i in Recast's convention,
// cross(v1-v0, v2-v0), in float64, and the doubled area.
func triNormal(s *Soup, i int) (n [3]float64, area2 float64) {
	t := s.Tris[i]
	a, b, c := s.Verts[t[0]], s.Verts[t[1]], s.Verts[t[2]]
	e0 := [3]float64{float64(b.X) - float64(a.X), float64(b.Y) - float64(a.Y), float64(b.Z) - float64(a.Z)}
	e1 := [3]float64{float64(c.X) - float64(a.X), float64(c.Y) - float64(a.Y), float64(c.Z) - float64(a.Z)}
	n = [3]float64{e0[1]*e1[2] - e0[2]*e1[1], e0[2]*e1[0] - e0[0]*e1[2], e0[0]*e1[1] - e0[1]*e1[0]}
	l := math.Sqrt(n[0]*n[0] + n[1]*n[1] + n[2]*n[2])
	if l > 0 {
		n = [3]float64{n[0] / l, n[1] / l, n[2] / l}
	}
	return n, l
}

// checkSoup fails t unless s validates, every area is walkable and no
// triangle is degenerate (zero area in the stored float32 coordinates).
func checkSoup(t *testing.T, s *Soup) {
	t.Helper()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	for i := range s.Tris {
		if s.Areas[i] != AreaWalkable {
			t.Fatalf("triangle %d has area %d, want %d", i, s.Areas[i], AreaWalkable)
		}
		if _, a2 := triNormal(s, i); !(a2 > 1e-9) {
			t.Fatalf("triangle %d %v is degenerate (doubled area %g)", i, s.Tris[i], a2)
		}
	}
}

// objHash returns xxhash64 of the OBJ bytes of s.
func objHash(t *testing.T, s *Soup) uint64 {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteOBJ(&buf, s); err != nil {
		t.Fatal(err)
	}
	return xxhash.Sum64(buf.Bytes())
}

// hit is where a vertical line meets a triangle.
type hit struct {
	y   float64 // height in metres
	ny  float64 // y of the triangle's unit normal: > 0 faces up
	tri int
}

// columns buckets triangles by the 1 m x/z cells their bounds overlap, to
// answer vertical ray queries.
type columns struct {
	s            *Soup
	x0, z0       float64
	nx, nz       int
	cells        [][]int32
	normY, area2 []float64
}

func newColumns(s *Soup) *columns {
	b := s.Bounds()
	c := &columns{s: s, x0: math.Floor(float64(b.Min.X)), z0: math.Floor(float64(b.Min.Z))}
	c.nx = int(math.Ceil(float64(b.Max.X)-c.x0)) + 1
	c.nz = int(math.Ceil(float64(b.Max.Z)-c.z0)) + 1
	c.cells = make([][]int32, c.nx*c.nz)
	for i, t := range s.Tris {
		n, a2 := triNormal(s, i)
		c.normY = append(c.normY, n[1])
		c.area2 = append(c.area2, a2)
		lo, hi := s.Verts[t[0]], s.Verts[t[0]]
		for _, k := range t[1:] {
			lo, hi = lo.Min(s.Verts[k]), hi.Max(s.Verts[k])
		}
		for ix := int(float64(lo.X) - c.x0); ix <= int(float64(hi.X)-c.x0); ix++ {
			for iz := int(float64(lo.Z) - c.z0); iz <= int(float64(hi.Z)-c.z0); iz++ {
				c.cells[iz*c.nx+ix] = append(c.cells[iz*c.nx+ix], int32(i))
			}
		}
	}
	return c
}

// at returns the non-vertical triangles the vertical line through (x, z)
// meets, highest first; hits at the same height facing the same way (a line
// through a shared edge) are reported once.
func (c *columns) at(x, z float64) []hit {
	ix, iz := int(math.Floor(x-c.x0)), int(math.Floor(z-c.z0))
	if ix < 0 || iz < 0 || ix >= c.nx || iz >= c.nz {
		return nil
	}
	var hs []hit
	for _, i := range c.cells[iz*c.nx+ix] {
		t := c.s.Tris[i]
		a, b, d := c.s.Verts[t[0]], c.s.Verts[t[1]], c.s.Verts[t[2]]
		ax, az := float64(a.X), float64(a.Z)
		bx, bz := float64(b.X)-ax, float64(b.Z)-az
		dx, dz := float64(d.X)-ax, float64(d.Z)-az
		px, pz := x-ax, z-az
		det := bx*dz - bz*dx
		if math.Abs(det) < 1e-12 {
			continue // vertical
		}
		u := (px*dz - pz*dx) / det
		v := (bx*pz - bz*px) / det
		const eps = 1e-9
		if u < -eps || v < -eps || u+v > 1+eps {
			continue
		}
		y := float64(a.Y) + u*(float64(b.Y)-float64(a.Y)) + v*(float64(d.Y)-float64(a.Y))
		hs = append(hs, hit{y: y, ny: c.normY[i], tri: int(i)})
	}
	sort.Slice(hs, func(i, j int) bool {
		if hs[i].y != hs[j].y {
			return hs[i].y > hs[j].y
		}
		return hs[i].tri < hs[j].tri
	})
	out := hs[:0]
	for _, h := range hs {
		if len(out) > 0 {
			p := out[len(out)-1]
			if math.Abs(p.y-h.y) < 1e-4 && (p.ny > 0) == (h.ny > 0) {
				continue
			}
		}
		out = append(out, h)
	}
	return out
}

func walkable(h hit) bool { return h.ny >= cosMaxSlope }

func TestCityDeterministic(t *testing.T) {
	h1 := objHash(t, City(DefaultSeed))
	h2 := objHash(t, City(DefaultSeed))
	if h1 != h2 {
		t.Fatalf("City(%d) twice: OBJ hashes %#016x and %#016x", DefaultSeed, h1, h2)
	}
	if h1 != cityGoldenHash {
		t.Errorf("City(%d) OBJ xxhash64 = %#016x, golden %#016x", DefaultSeed, h1, cityGoldenHash)
	}
	if h3 := objHash(t, City(DefaultSeed+1)); h3 == h1 {
		t.Errorf("City(%d) and City(%d) have the same OBJ bytes", DefaultSeed, DefaultSeed+1)
	}
}

var citySeeds = []uint64{DefaultSeed, 0, 2, 3, 7, 42, 1234567, math.MaxUint64}

func TestCityShape(t *testing.T) {
	for _, seed := range citySeeds {
		s := City(seed)
		checkSoup(t, s)
		if n := len(s.Tris); n < 20000 || n > 60000 {
			t.Errorf("seed %d: %d triangles, want 20k-60k", seed, n)
		}
		b := s.Bounds()
		if b.Min.X != 0 || b.Min.Z != 0 || b.Max.X != citySize || b.Max.Z != citySize || b.Min.Y != 0 {
			t.Errorf("seed %d: bounds %v, want x and z in [0, 200] and ground at y = 0", seed, b)
		}
		if b.Max.Y < 20 || b.Max.Y > 80 {
			t.Errorf("seed %d: tallest point %g m, want 20-80", seed, b.Max.Y)
		}
	}
}

// TestCityFacesUp checks the winding: looking down from the sky on a grid of
// points, the first surface met is always the top of a solid, so it must face
// up in Recast's convention (normal y > 0). Most of the city seen from above
// must be walkable (streets, sidewalks, roofs).
func TestCityFacesUp(t *testing.T) {
	s := City(DefaultSeed)
	c := newColumns(s)
	total, walk := 0, 0
	for x := 0.37; x < citySize; x += 0.83 {
		for z := 0.29; z < citySize; z += 0.79 {
			hs := c.at(x, z)
			if len(hs) == 0 {
				t.Fatalf("nothing under (%g, %g)", x, z)
			}
			top := hs[0]
			if top.ny <= 0 {
				t.Fatalf("first surface under (%g, %g) is triangle %d at y %g with normal y %g: wound clockwise",
					x, z, top.tri, top.y, top.ny)
			}
			total++
			if walkable(top) {
				walk++
			}
		}
	}
	if walk < total*9/10 {
		t.Errorf("only %d of %d sky-visible samples are walkable", walk, total)
	}
}

// TestCityBridge checks that the bridge really stands above a walkable street
// and can be walked onto, for several seeds.
func TestCityBridge(t *testing.T) {
	for _, seed := range citySeeds {
		s, info := buildCity(seed)
		c := newColumns(s)

		// The deck's walking surface: its up-facing triangles, all flat.
		deckTop := map[int]bool{}
		for i := info.deckLo; i < info.deckHi; i++ {
			if c.normY[i] > 0.999 {
				deckTop[i] = true
			}
		}
		if len(deckTop) == 0 {
			t.Fatalf("seed %d: no up-facing deck triangles", seed)
		}

		// Vertical rays through every deck triangle's centroid: below the
		// deck top comes its underside, then, after a gap taller than an
		// agent with nothing in between, a walkable floor — the street for
		// the points over the street.
		overStreet := 0
		for i := info.deckLo; i < info.deckHi; i++ {
			if !deckTop[i] {
				continue
			}
			tr := s.Tris[i]
			var x, z float64
			for _, k := range tr {
				x += float64(s.Verts[k].X) / 3
				z += float64(s.Verts[k].Z) / 3
			}
			hs := c.at(x, z)
			k := 0
			for k < len(hs) && hs[k].tri != i {
				k++
			}
			if k+2 >= len(hs) {
				t.Fatalf("seed %d: under deck point (%g, %g) only %v", seed, x, z, hs)
			}
			under, floor := hs[k+1], hs[k+2]
			if under.ny >= 0 || under.tri < info.deckLo || under.tri >= info.deckHi {
				t.Fatalf("seed %d: below deck top at (%g, %g) comes %+v, want the deck underside", seed, x, z, under)
			}
			if !walkable(floor) {
				t.Fatalf("seed %d: floor under deck at (%g, %g) is %+v, not walkable", seed, x, z, floor)
			}
			if gap := under.y - floor.y; gap <= agentHeight {
				t.Fatalf("seed %d: clearance under deck at (%g, %g) is %g m, want > %g", seed, x, z, gap, agentHeight)
			}
			if floor.y == 0 && x > info.street.x0 && x < info.street.x1 {
				overStreet++
			}
		}
		if overStreet < len(deckTop)/2 {
			t.Errorf("seed %d: only %d of %d deck points stand over the street", seed, overStreet, len(deckTop))
		}

		// Reachability: flood the walkable samples of a 0.25 m grid around
		// the bridge from the street under it, stepping between 4-neighbours
		// whose heights differ by at most the agent's climb, on surfaces no
		// steeper than 45° with agent height of free space above.
		if !reaches(c, info, func(h hit) bool { return deckTop[h.tri] }) {
			t.Errorf("seed %d: the deck cannot be reached from the street below it", seed)
		}
	}
}

// reaches floods from the street under the deck centre and reports whether a
// hit with goal(hit) is reached.
func reaches(c *columns, info cityInfo, goal func(hit) bool) bool {
	const cell = 0.25
	x0, x1 := info.street.x0-25, info.street.x1+25
	z0, z1 := info.deckZ-12, info.deckZ+12
	nx, nz := int((x1-x0)/cell), int((z1-z0)/cell)
	// floors[k]: standable surfaces in cell k.
	floors := make([][]hit, nx*nz)
	for ix := range nx {
		for iz := range nz {
			hs := c.at(x0+(float64(ix)+0.5)*cell, z0+(float64(iz)+0.5)*cell)
			for k, h := range hs {
				if walkable(h) && (k == 0 || hs[k-1].y-h.y > agentHeight) {
					floors[iz*nx+ix] = append(floors[iz*nx+ix], h)
				}
			}
		}
	}
	type node struct{ cell, floor int }
	seen := map[node]bool{}
	sx := int(((info.street.x0+info.street.x1)/2 - x0) / cell)
	sz := int((info.deckZ - z0) / cell)
	var queue []node
	for f, h := range floors[sz*nx+sx] {
		if h.y == 0 {
			m := node{sz*nx + sx, f}
			seen[m] = true
			queue = append(queue, m)
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		h := floors[n.cell][n.floor]
		if goal(h) {
			return true
		}
		ix, iz := n.cell%nx, n.cell/nx
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			jx, jz := ix+d[0], iz+d[1]
			if jx < 0 || jz < 0 || jx >= nx || jz >= nz {
				continue
			}
			k := jz*nx + jx
			for f, g := range floors[k] {
				m := node{k, f}
				if !seen[m] && math.Abs(g.y-h.y) <= agentClimb {
					seen[m] = true
					queue = append(queue, m)
				}
			}
		}
	}
	return false
}

// TestCityClimbs checks the ramps and stairs against the agent: every
// sloped up-facing triangle is walkable (< 45°) and no triangle is steeper
// than walkable yet up-facing except walls, i.e. the generator makes only
// flat floors, walkable slopes and vertical walls.
func TestCityClimbs(t *testing.T) {
	s := City(DefaultSeed)
	ramps := 0
	for i := range s.Tris {
		n, _ := triNormal(s, i)
		switch {
		case math.Abs(n[1]) > 0.9999 || math.Abs(n[1]) < 1e-6:
			// floor, ceiling or wall
		case n[1] >= cosMaxSlope:
			ramps++
		default:
			t.Fatalf("triangle %d has normal %v: neither flat, vertical nor walkable", i, n)
		}
	}
	if ramps == 0 {
		t.Error("no ramp triangles")
	}
}
