package level

import "navviz/core/geom"

// City layout constants, metres.
const (
	citySize      = 200.0 // extent in x and in z
	cityKerb      = 0.15  // sidewalk and block plinth top above the street
	citySidewalk  = 4.0   // sidewalk ring around every block
	cityStorey    = 3.5   // storey height of buildings
	cityCell      = 2.0   // tessellation of streets, sidewalks and roofs
	cityPanel     = 3.0   // width of a wall panel
	cityDeckTop   = 6.15  // walking surface of the bridge
	cityDeckSlab  = 0.5   // thickness of the bridge deck
	cityDeckOver  = 3.0   // how far the deck reaches over each sidewalk
	cityBridgeW   = 4.0   // width of the bridge deck, its stairs and its ramp
	cityStairN    = 24    // bridge stairs: steps of (6.15-0.15)/24 = 0.25 m
	cityStairRun  = 0.38  // bridge stairs: tread depth (slope 33.3°)
	cityRampRun   = 13.0  // bridge ramp: horizontal run for a 6 m rise (24.8°)
	cityPlazaRise = 3.0   // raised plaza above its plinth
	cityPlazaRamp = 6.5   // plaza ramp run for a 3 m rise (24.8°)
)

// cityInfo is what the generator knows about the level that tests want to
// check against the geometry.
type cityInfo struct {
	deckLo, deckHi int     // triangle index range [lo, hi) of the bridge deck slab
	street         rect    // the street the bridge crosses (x0..x1 across it)
	deckZ          float64 // z of the bridge centre line
}

// City returns the generated city for seed: about 43 000 triangles, all
// AreaWalkable (the build decides walkability by slope).
//
// Layout (metres, y up): the level covers x and z in [0, 200] with the street
// surface at y = 0, so the bounds start at the origin. Along each axis five
// streets, 10 to 14 m wide (the outer two run along the level's edges),
// alternate with four blocks of 30 to 40 m. Streets are walkable quads
// tessellated in 2 m cells. Every block is a plinth raised 0.15 m (the kerb
// step) whose outer 4 m form the sidewalk, with lamp posts along it. A block
// holds one of:
//   - towers: one to four buildings, closed boxes of 1 to 17 storeys of 3.5 m
//     with walls cut into 3 m × 3.5 m panels, some with a set-back upper tier,
//     stair houses or plant boxes on their flat (walkable but unreachable) roofs;
//   - a plaza: a platform raised 3 m, reached by two ramps (24.8°) and a
//     flight of 15 steps of 0.2 m, with trees in planters and benches on top;
//   - a park: trees in planters, benches and a pavilion (a roof on four
//     pillars, 3.2 m clear underneath).
//
// One footbridge crosses a street running along z, chosen by the seed among
// the three inner ones, at the middle of a block row: a deck 4 m wide whose
// top is 6.15 m above the street (5.65 m clear under its 0.5 m slab) and which
// reaches 3 m over each sidewalk, with railings. From the west it is reached by
// 24 steps of 0.25 m (treads 0.38 m), from the east by a 13 m ramp (24.8°);
// both run through a passage the two blocks keep free of buildings. The
// street under the deck is thus a second walkable floor below it. Parked cars
// (boxes) line the kerbs away from the bridge.
//
// Faces are wound counter-clockwise seen from outside, so floors have normals
// with y > 0 in Recast's convention cross(v1-v0, v2-v0). The same seed always
// gives the same vertices and triangles, bit for bit, on every platform.
func City(seed uint64) *Soup {
	s, _ := buildCity(seed)
	return s
}

type blockKind int

const (
	blockTowers blockKind = iota
	blockPlaza
	blockPark
	blockBridgeWest // west of the bridge street: holds the stairs
	blockBridgeEast // east of the bridge street: holds the ramp
)

type cityGen struct {
	b meshBuilder
	r *rng
}

func buildCity(seed uint64) (*Soup, cityInfo) {
	g := &cityGen{r: newRNG(seed)}
	xStreets, xBlocks := g.axis()
	zStreets, zBlocks := g.axis()

	// The bridge crosses the street xStreets[bs] in block row br.
	bs := 1 + g.r.intn(3)
	br := g.r.intn(4)
	deckZ := float64((zBlocks[br][0] + zBlocks[br][1]) / 2)

	var kinds [4][4]blockKind // [row][column]
	kinds[br][bs-1] = blockBridgeWest
	kinds[br][bs] = blockBridgeEast
	var free []int
	for k := range 16 {
		if kinds[k/4][k%4] == blockTowers {
			free = append(free, k)
		}
	}
	for i := len(free) - 1; i > 0; i-- { // Fisher-Yates
		j := g.r.intn(i + 1)
		free[i], free[j] = free[j], free[i]
	}
	kinds[free[0]/4][free[0]%4] = blockPlaza
	kinds[free[1]/4][free[1]%4] = blockPlaza
	kinds[free[2]/4][free[2]%4] = blockPark
	kinds[free[3]/4][free[3]%4] = blockPark

	var blocks []rect
	for row := range 4 {
		for col := range 4 {
			r := rect{xBlocks[col][0], zBlocks[row][0], xBlocks[col][1], zBlocks[row][1]}
			blocks = append(blocks, r)
			g.block(r, kinds[row][col], deckZ)
		}
	}
	g.b.floor(world, rect{0, 0, citySize, citySize}, 0, cityCell, blocks)

	street := rect{xStreets[bs][0], 0, xStreets[bs][1], citySize}
	info := cityInfo{street: street, deckZ: deckZ}
	info.deckLo, info.deckHi = g.bridge(street, deckZ)

	keepOut := rect{street.x0 - 1, deckZ - 8, street.x1 + 1, deckZ + 8}
	g.cars(xStreets, zBlocks, false, keepOut)
	g.cars(zStreets, xBlocks, true, keepOut)
	return g.b.soup(), info
}

// axis splits [0, citySize] into five streets and four blocks, returned as
// [start, end] pairs. Widths are multiples of 0.25 m, so sums are exact.
func (g *cityGen) axis() (streets [5][2]float64, blocks [4][2]float64) {
	var sw [5]float64
	rest := citySize
	for i := range sw {
		sw[i] = float64(10 + g.r.intn(5))
		rest -= sw[i]
	}
	base := float64(rest / 4)
	j1, j2 := float64(g.r.intn(5)-2), float64(g.r.intn(5)-2)
	bw := [4]float64{base + j1, base - j1, base + j2, base - j2}
	pos := 0.0
	for i := range 5 {
		streets[i] = [2]float64{pos, pos + sw[i]}
		pos += sw[i]
		if i < 4 {
			blocks[i] = [2]float64{pos, pos + bw[i]}
			pos += bw[i]
		}
	}
	streets[4][1] = citySize
	return streets, blocks
}

// block emits one block: its contents, the plinth with its kerbs (holes cut
// where closed boxes stand on it) and the lamp posts of its sidewalk.
func (g *cityGen) block(r rect, kind blockKind, deckZ float64) {
	in := r.inset(citySidewalk)
	var holes []rect
	lampsAvoid := rect{}
	switch kind {
	case blockTowers:
		holes = g.lots(in, 2)
	case blockPlaza:
		holes = g.plaza(in)
	case blockPark:
		g.park(in)
	case blockBridgeWest, blockBridgeEast:
		// A passage 8 m wide for the stairs or the ramp, buildings either side.
		holes = append(g.lots(rect{in.x0, in.z0, in.x1, deckZ - 5}, 1),
			g.lots(rect{in.x0, deckZ + 5, in.x1, in.z1}, 1)...)
		lampsAvoid = rect{r.x0 - 1, deckZ - 5, r.x1 + 1, deckZ + 5}
	}
	g.b.box(world, cuboid{r.x0, r.x1, 0, cityKerb, r.z0, r.z1}, cityCell, cityKerb, faceAll, holes)
	g.lamps(r, lampsAvoid)
}

// lamps puts lamp posts along the sidewalk of block r, 0.6 m from the kerb,
// about every 10 m, except inside avoid.
func (g *cityGen) lamps(r rect, avoid rect) {
	const off = 0.6
	place := func(x, z float64) {
		if avoid.contains(x, z) {
			return
		}
		g.b.box(world, cuboid{x - 0.08, x + 0.08, cityKerb, cityKerb + 5, z - 0.08, z + 0.08}, 1, 5, faceTop|faceSides, nil)
	}
	for _, x := range divide(r.x0+off, r.x1-off, 10) {
		place(x, r.z0+off)
		place(x, r.z1-off)
	}
	for _, z := range divide(r.z0+off, r.z1-off, 10) {
		if z == r.z0+off || z == r.z1-off {
			continue // corners already have one
		}
		place(r.x0+off, z)
		place(r.x1-off, z)
	}
}

// lots fills in with buildings: up to maxSplit across and along, 4 m apart.
// It returns their footprints.
func (g *cityGen) lots(in rect, maxSplit int) []rect {
	nx, nz := 1+g.r.intn(maxSplit), 1+g.r.intn(maxSplit)
	if in.w() < 20 {
		nx = 1
	}
	if in.d() < 20 {
		nz = 1
	}
	const gap = 4.0
	lw := (in.w() - float64(gap*float64(nx-1))) / float64(nx)
	ld := (in.d() - float64(gap*float64(nz-1))) / float64(nz)
	var out []rect
	for i := range nx {
		for k := range nz {
			x0 := in.x0 + float64(float64(i)*(lw+gap))
			z0 := in.z0 + float64(float64(k)*(ld+gap))
			lot := rect{x0, z0, x0 + lw, z0 + ld}
			out = append(out, g.building(lot))
		}
	}
	return out
}

// building emits a building on lot (set back 0 to 1.5 m on each side) and
// returns its footprint.
func (g *cityGen) building(lot rect) rect {
	set := func() float64 { return float64(0.5 * float64(g.r.intn(4))) }
	fp := rect{lot.x0 + set(), lot.z0 + set(), lot.x1 - set(), lot.z1 - set()}
	storeys := 1 + g.r.intn(4) + g.r.intn(4)*g.r.intn(4)
	if g.r.chance(0.12) {
		storeys = 12 + g.r.intn(6)
	}
	top := cityKerb + float64(cityStorey*float64(storeys))

	// Optional set-back tier on tall, wide buildings.
	var tier rect
	tierStoreys := 0
	if storeys >= 6 && fp.w() >= 14 && fp.d() >= 14 && g.r.chance(0.5) {
		tier = fp.inset(2 + float64(g.r.intn(3)))
		tierStoreys = 2 + g.r.intn(5)
	}
	roofItems := func(roof rect, h float64) []rect {
		// Stair house and plant box in two different quadrants of the roof.
		if roof.w() < 8 || roof.d() < 8 || !g.r.chance(0.7) {
			return nil
		}
		q := g.r.intn(4)
		var items []rect
		for k, size := range [][3]float64{{3, 3, 3}, {2, 1.5, 1.2}} {
			qq := (q + 2*k) % 4
			cx := lerp(roof.x0, roof.x1, 0.25+float64(0.5*float64(qq&1)))
			cz := lerp(roof.z0, roof.z1, 0.25+float64(0.5*float64(qq>>1)))
			it := centered(cx, cz, size[0], size[1])
			g.b.box(world, cuboid{it.x0, it.x1, h, h + size[2], it.z0, it.z1}, cityPanel, size[2], faceTop|faceSides, nil)
			items = append(items, it)
		}
		return items
	}
	var holes []rect
	if tierStoreys > 0 {
		holes = []rect{tier}
		tierTop := top + float64(cityStorey*float64(tierStoreys))
		g.b.box(world, cuboid{tier.x0, tier.x1, top, tierTop, tier.z0, tier.z1},
			cityPanel, cityStorey, faceTop|faceSides, roofItems(tier, tierTop))
	} else {
		holes = roofItems(fp, top)
	}
	g.b.box(world, cuboid{fp.x0, fp.x1, cityKerb, top, fp.z0, fp.z1}, cityPanel, cityStorey, faceAll, holes)
	return fp
}

// plaza emits a platform raised cityPlazaRise over the plinth, with ramps on
// its west and north sides and stairs on its east side, planted trees and
// benches on top. It returns the platform footprint.
func (g *cityGen) plaza(in rect) []rect {
	p := rect{in.x0 + 7, in.z0 + 7, in.x1 - 6, in.z1 - 2}
	top := cityKerb + cityPlazaRise
	// Trees in planters at the corners, benches between them.
	var holes []rect
	for k := range 4 {
		cx := lerp(p.x0, p.x1, 0.2+float64(0.6*float64(k&1)))
		cz := lerp(p.z0, p.z1, 0.2+float64(0.6*float64(k>>1)))
		holes = append(holes, g.tree(cx, cz, top))
	}
	g.bench(p.cx()-1, p.z0+2, top, false)
	g.bench(p.cx()-1, p.z1-2, top, false)
	g.b.box(world, cuboid{p.x0, p.x1, cityKerb, top, p.z0, p.z1}, cityCell, 1.5, faceAll, holes)

	const half = 1.75
	g.b.ramp(frame{p.x0 - cityPlazaRamp, cityKerb, p.cz(), 0}, cityPlazaRamp, cityPlazaRise, -half, half, 1)
	g.b.ramp(frame{p.cx(), cityKerb, p.z0 - cityPlazaRamp, 1}, cityPlazaRamp, cityPlazaRise, -half, half, 1)
	const steps, tread = 15, 0.35
	g.b.stairs(frame{p.x1 + float64(steps*tread), cityKerb, p.cz(), 2}, steps, tread, cityPlazaRise, -half, half, 2)
	return []rect{p}
}

// park emits a pavilion in the middle of in, trees on a jittered 7 m grid
// around it and benches facing it.
func (g *cityGen) park(in rect) {
	pav := centered(in.cx(), in.cz(), 8, 8)
	for _, x := range [2]float64{pav.x0 + 0.4, pav.x1 - 0.4} {
		for _, z := range [2]float64{pav.z0 + 0.4, pav.z1 - 0.4} {
			g.b.box(world, cuboid{x - 0.2, x + 0.2, cityKerb, 3.35, z - 0.2, z + 0.2}, 1, 3.2, faceSides, nil)
		}
	}
	g.b.box(world, cuboid{pav.x0 - 0.5, pav.x1 + 0.5, 3.35, 3.65, pav.z0 - 0.5, pav.z1 + 0.5}, cityCell, 0.3, faceAll, nil)
	g.bench(pav.cx()-0.9, pav.z0-3, cityKerb, false)
	g.bench(pav.cx()-0.9, pav.z1+2.5, cityKerb, false)
	g.bench(pav.x0-3, pav.cz()-0.9, cityKerb, true)
	g.bench(pav.x1+2.5, pav.cz()-0.9, cityKerb, true)

	keep := pav.inset(-4)
	for _, x := range divide(in.x0+2, in.x1-2, 7) {
		for _, z := range divide(in.z0+2, in.z1-2, 7) {
			x := x + float64(0.5*float64(g.r.intn(5)-2))
			z := z + float64(0.5*float64(g.r.intn(5)-2))
			if keep.contains(x, z) || g.r.chance(0.2) {
				continue
			}
			g.tree(x, z, cityKerb)
		}
	}
}

// tree emits a tree in a 1.6 m planter standing at height y and returns the
// planter footprint.
func (g *cityGen) tree(x, z, y float64) rect {
	p := centered(x, z, 1.6, 1.6)
	g.b.box(world, cuboid{p.x0, p.x1, y, y + 0.5, p.z0, p.z1}, 2, 1, faceTop|faceSides, nil)
	h := y + 3.2 + float64(0.5*float64(g.r.intn(4)))
	g.b.box(world, cuboid{x - 0.17, x + 0.17, y + 0.5, h, z - 0.17, z + 0.17}, 1, 4, faceSides, nil)
	g.b.box(world, cuboid{x - 1.5, x + 1.5, h, h + 2.5, z - 1.5, z + 1.5}, 3, 2.5, faceAll, nil)
	return p
}

// bench emits a 1.8 m bench whose corner is (x, z), standing at height y,
// long along x (or along z when alongZ).
func (g *cityGen) bench(x, z, y float64, alongZ bool) {
	f := frame{x, y, z, 0}
	if alongZ {
		f = frame{x + 0.5, y, z, 1} // a along +z, s along -x
	}
	g.b.box(f, cuboid{0, 1.8, 0.42, 0.5, 0, 0.5}, 2, 1, faceAll, nil)
	g.b.box(f, cuboid{0.1, 0.2, 0, 0.42, 0.05, 0.45}, 1, 1, faceSides, nil)
	g.b.box(f, cuboid{1.6, 1.7, 0, 0.42, 0.05, 0.45}, 1, 1, faceSides, nil)
}

// bridge emits the footbridge over street at z = deckZ: the deck slab with
// its railings, the stairs from the west and the ramp from the east. It
// returns the triangle range of the deck slab.
func (g *cityGen) bridge(street rect, deckZ float64) (lo, hi int) {
	const half = cityBridgeW / 2
	a0, a1 := street.x0-cityDeckOver, street.x1+cityDeckOver
	lo = len(g.b.tris)
	g.b.box(world, cuboid{a0, a1, cityDeckTop - cityDeckSlab, cityDeckTop, deckZ - half, deckZ + half}, 1, cityDeckSlab, faceAll, nil)
	hi = len(g.b.tris)
	for _, s := range [2]float64{-half, half - 0.2} {
		g.b.box(world, cuboid{a0, a1, cityDeckTop, cityDeckTop + 1, deckZ + s, deckZ + s + 0.2}, 2, 1, faceTop|faceSides, nil)
	}
	rise := cityDeckTop - cityKerb
	run := float64(cityStairRun * cityStairN)
	g.b.stairs(frame{a0 - run, cityKerb, deckZ, 0}, cityStairN, cityStairRun, rise, -half, half, 2)
	g.b.ramp(frame{a1 + cityRampRun, cityKerb, deckZ, 2}, cityRampRun, rise, -half, half, 1)
	return lo, hi
}

// cars parks cars along both kerbs of each street (given as [start, end]
// across it) beside each block span, with probability 0.35 per 6.5 m slot,
// outside keepOut. alongX says the streets run along x (their spans are in z).
func (g *cityGen) cars(streets [5][2]float64, spans [4][2]float64, alongX bool, keepOut rect) {
	for _, st := range streets {
		for _, sp := range spans {
			for _, side := range [2]float64{st[0] + 0.5, st[1] - 2.3} {
				for a := sp[0] + 3; a+4.4 <= sp[1]-3; a += 6.5 {
					if !g.r.chance(0.35) {
						continue
					}
					f := frame{side, 0, a, 1} // a along +z, s along -x
					foot := rect{side, a, side + 1.8, a + 4.4}
					if alongX {
						f = frame{a, 0, side, 0}
						foot = rect{a, side, a + 4.4, side + 1.8}
					}
					if foot.overlaps(keepOut) {
						continue
					}
					// In frame 1, s = -x: the car spans s in [-1.8, 0].
					s0, s1 := -1.8, 0.0
					if alongX {
						s0, s1 = 0, 1.8
					}
					g.b.box(f, cuboid{0, 4.4, 0, 0.9, s0, s1}, 2.2, 1, faceTop|faceSides, nil)
					g.b.box(f, cuboid{1.0, 3.4, 0.9, 1.45, s0 + 0.1, s1 - 0.1}, 2.4, 1, faceTop|faceSides, nil)
				}
			}
		}
	}
}

// cityGridSide is how many copies of the city City4x4 lays out along x and
// along z.
const cityGridSide = 4

// City4x4 returns City(seed) repeated 4 x 4 times side by side: an 800 m
// square of about 690 000 triangles whose first copy is City(seed) itself
// (same coordinates). It is the scale test of the tile cache: an update
// near the origin touches the same few tiles as on city, whatever else the
// level holds.
func City4x4(seed uint64) *Soup {
	one := City(seed)
	n := len(one.Verts)
	out := &Soup{
		Verts: make([]geom.Vec3, 0, n*cityGridSide*cityGridSide),
		Tris:  make([][3]int32, 0, len(one.Tris)*cityGridSide*cityGridSide),
		Areas: make([]uint8, 0, len(one.Areas)*cityGridSide*cityGridSide),
	}
	for gz := range cityGridSide {
		for gx := range cityGridSide {
			dx, dz := float32(gx*citySize), float32(gz*citySize)
			base := int32(len(out.Verts))
			for _, v := range one.Verts {
				out.Verts = append(out.Verts, geom.Vec3{X: v.X + dx, Y: v.Y, Z: v.Z + dz})
			}
			for _, t := range one.Tris {
				out.Tris = append(out.Tris, [3]int32{t[0] + base, t[1] + base, t[2] + base})
			}
			out.Areas = append(out.Areas, one.Areas...)
		}
	}
	return out
}
