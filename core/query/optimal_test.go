package query

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"

	"navviz/core/geom"
	"navviz/core/navmesh"
)

// randomGridTile draws the polygon mesh of tile (tx, 0): a g x g grid of
// squares of side 10/g cells, each missing, a quad, or split along one
// diagonal into two triangles, corners at random heights (0..0.8 m),
// polygons of random areas 1..3. Edges on the tile's x borders are
// portals (the tiles lie side by side along x).
func randomGridTile(t *rapid.T, tx int32, g int) []byte {
	side := 10 / g
	heights := rapid.SliceOfN(rapid.IntRange(0, 4), (g+1)*(g+1), (g+1)*(g+1)).Draw(t, "heights")
	var verts [][3]uint16
	for i := 0; i <= g; i++ {
		for j := 0; j <= g; j++ {
			verts = append(verts, [3]uint16{uint16(side * i), uint16(heights[i*(g+1)+j]), uint16(side * j)})
		}
	}
	vi := func(i, j int) uint16 { return uint16(i*(g+1) + j) }
	var polys [][]uint16
	for i := 0; i < g; i++ {
		for j := 0; j < g; j++ {
			v00, v01, v11, v10 := vi(i, j), vi(i, j+1), vi(i+1, j+1), vi(i+1, j)
			switch rapid.IntRange(0, 4).Draw(t, "cell") {
			case 0: // missing
			case 1, 2:
				polys = append(polys, []uint16{v00, v01, v11, v10})
			case 3:
				polys = append(polys, []uint16{v00, v01, v11}, []uint16{v00, v11, v10})
			case 4:
				polys = append(polys, []uint16{v00, v01, v10}, []uint16{v01, v11, v10})
			}
		}
	}
	if len(polys) == 0 {
		polys = append(polys, []uint16{vi(0, 0), vi(0, 1), vi(1, 1), vi(1, 0)})
	}
	var recs [][2][]uint16
	for pi, p := range polys {
		neis := make([]uint16, len(p))
		for e := range p {
			a, b := p[e], p[(e+1)%len(p)]
			neis[e] = null
			switch xa, xb := verts[a][0], verts[b][0]; {
			case xa == 0 && xb == 0:
				neis[e] = pNegX
			case xa == 10 && xb == 10:
				neis[e] = pPosX
			}
			for qi, q := range polys {
				for f := range q {
					if qi != pi && q[f] == b && q[(f+1)%len(q)] == a {
						neis[e] = uint16(qi)
					}
				}
			}
		}
		recs = append(recs, [2][]uint16{p, neis})
	}
	pm := handMesh(tx, 0, verts, recs)
	for i := range pm.Areas {
		pm.Areas[i] = uint8(rapid.IntRange(1, 3).Draw(t, "area"))
	}
	data, err := navmesh.BuildTileData(pm, nil, navmesh.TileParams{TileX: tx, WalkableHeightM: 2, WalkableClimbM: 0.9})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// randomGridMesh draws a mesh of one tile (a grid of 2..5 squares a side)
// or of two tiles side by side whose grids differ (5 and 2 squares a
// side), so that border edges meet several polygons and links cover parts
// of edges.
func randomGridMesh(t *rapid.T) *navmesh.Mesh {
	m := navmesh.NewMesh()
	tiles := [][]byte{randomGridTile(t, 0, rapid.SampledFrom([]int{2, 5}).Draw(t, "grid"))}
	if rapid.Bool().Draw(t, "two tiles") {
		tiles = append(tiles, randomGridTile(t, 1, 2))
	}
	for _, d := range tiles {
		if _, err := m.AddTile(d); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// refCost is an exhaustive search, written apart from FindPath: Dijkstra
// over (polygon, previous polygon) states with a linear scan for the
// cheapest open state, neighbours and portals from the mesh's links (the
// first link to each neighbour), each leg costing its length times the
// area cost of the polygon it crosses, the start polygon entered at start,
// the end reached from any state in the end polygon. +Inf when end cannot
// be reached.
func refCost(m *navmesh.Mesh, sp, ep navmesh.PolyRef, start, end geom.Vec3, f *Filter) float64 {
	type state struct{ p, from navmesh.PolyRef } // from 0: the start
	dist := map[state]float64{{sp, 0}: 0}
	pos := map[state]geom.Vec3{{sp, 0}: start}
	done := map[state]bool{}
	best := math.Inf(1)
	for {
		var cur state
		cd := math.Inf(1)
		for s, d := range dist {
			if !done[s] && (d < cd || d == cd && (s.p < cur.p || s.p == cur.p && s.from < cur.from)) {
				cur, cd = s, d
			}
		}
		if math.IsInf(cd, 1) || cd >= best {
			return best
		}
		done[cur] = true
		tr, pi, _ := m.DecodeRef(cur.p)
		tile, _ := m.Tile(tr)
		p := &tile.Polys[pi]
		c := f.AreaCost[p.Area]
		if cur.p == ep {
			best = min(best, cd+float64(dist3(pos[cur], end)*c))
		}
		links, _ := m.Links(cur.p)
		seen := map[navmesh.PolyRef]bool{}
		for _, l := range links {
			q := l.Ref
			if seen[q] || q == cur.from {
				continue
			}
			seen[q] = true
			if fl, _ := m.PolyFlags(q); !f.Passes(fl) && q != ep {
				continue
			}
			nv := int(p.VertCount)
			e := int(l.Edge)
			a, b := tile.Verts[p.Verts[e]], tile.Verts[p.Verts[(e+1)%nv]]
			if l.Side != navmesh.InternalSide {
				a, b = lerpPoint(a, b, float64(l.BMin)/255), lerpPoint(a, b, float64(l.BMax)/255)
			}
			mid := geom.Vec3d{X: (float64(a.X) + float64(b.X)) / 2, Y: (float64(a.Y) + float64(b.Y)) / 2, Z: (float64(a.Z) + float64(b.Z)) / 2}.F32()
			ns := state{q, cur.p}
			nd := cd + float64(dist3(pos[cur], mid)*c)
			if old, ok := dist[ns]; !ok || nd < old {
				dist[ns], pos[ns] = nd, mid
				done[ns] = false
			}
		}
	}
}

// TestFindPathOptimal: on random small meshes (one tile, or two whose
// border links cover parts of edges) with random area costs the
// corridor FindPath returns costs (CorridorCost) what an exhaustive search
// over the same cost model finds, to 1e-9; it is partial exactly when the
// search finds no route.
func TestFindPathOptimal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := randomGridMesh(t)
		polys := allPolys(m)
		n := len(polys)
		f := DefaultFilter()
		for a := 1; a <= 3; a++ {
			f.AreaCost[a] = rapid.SampledFrom([]float64{0.25, 1, 1, 3, 10}).Draw(t, "cost")
		}
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
		sp, ep := rapid.IntRange(0, n-1).Draw(t, "start"), rapid.IntRange(0, n-1).Draw(t, "end")
		start := pointOnPoly(t, m, polys[sp], rng)
		end := pointOnPoly(t, m, polys[ep], rng)
		want := refCost(m, polys[sp], polys[ep], start, end, f)
		corridor, err := FindPath(m, polys[sp], polys[ep], start, end, f)
		if math.IsInf(want, 1) {
			if !errors.Is(err, ErrPartial) {
				t.Fatalf("no route, FindPath gives %x, %v", corridor, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("route of cost %v exists, FindPath: %v", want, err)
		}
		got, err := CorridorCost(m, start, end, corridor, f)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-want) > 1e-9*max(1, want) {
			t.Fatalf("corridor %x costs %v, exhaustive search %v (costs %v)", corridor, got, want, f.AreaCost[1:4])
		}
		// Sliced in steps of one state: the same corridor.
		s, err := NewPathSearch(m, corridor[0], corridor[len(corridor)-1], start, end, f, PathLimits{})
		if err != nil {
			t.Fatal(err)
		}
		for steps := 0; ; steps++ {
			done, err := s.Step(1)
			if err != nil {
				t.Fatal(err)
			}
			if done {
				break
			}
			if steps > 1<<16 {
				t.Fatal("sliced search does not end")
			}
		}
		sliced, err := s.Result()
		if err != nil || len(sliced) != len(corridor) {
			t.Fatalf("sliced search %x %v, want %x", sliced, err, corridor)
		}
	})
}
