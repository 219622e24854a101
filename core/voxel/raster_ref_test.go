package voxel

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/internal/cputime"
)

// The straightforward form of docs/spans.md §8, as the rasterizer was
// first written: every cut makes both polygons with all three coordinates.
// TestRasterizeMatchesReference checks the specialised cuts against it.

type refVert = [3]float32

type refPoly struct {
	n int
	v [maxClipVerts]refVert
}

func (b *refPoly) push(p refVert) {
	if b.n < maxClipVerts {
		b.v[b.n] = p
		b.n++
	}
}

func (b *refPoly) extent(axis int) (lo, hi float32) {
	lo, hi = b.v[0][axis], b.v[0][axis]
	for i := 1; i < b.n; i++ {
		if c := b.v[i][axis]; c < lo {
			lo = c
		} else if c > hi {
			hi = c
		}
	}
	return lo, hi
}

func refDivide(in *refPoly, axis int, c float32, lo, hi *refPoly) {
	lo.n, hi.n = 0, 0
	n := in.n
	if n == 0 {
		return
	}
	j := n - 1
	dj := c - in.v[j][axis]
	for i := 0; i < n; j, i = i, i+1 {
		di := c - in.v[i][axis]
		if (di >= 0) != (dj >= 0) {
			t := dj / (dj - di)
			pj, pi := in.v[j], in.v[i]
			p := refVert{
				pj[0] + float32((pi[0]-pj[0])*t),
				pj[1] + float32((pi[1]-pj[1])*t),
				pj[2] + float32((pi[2]-pj[2])*t),
			}
			lo.push(p)
			hi.push(p)
			if di > 0 {
				lo.push(pi)
			} else if di < 0 {
				hi.push(pi)
			}
		} else {
			if di >= 0 {
				lo.push(in.v[i])
			}
			if di <= 0 {
				hi.push(in.v[i])
			}
		}
		dj = di
	}
}

func refTriangle(r *raster, v0, v1, v2 geom.Vec3, area uint8) {
	tmin := v0.Min(v1).Min(v2)
	tmax := v0.Max(v1).Max(v2)
	if tmin.X > r.bmax.X || tmax.X < r.bmin.X ||
		tmin.Y > r.bmax.Y || tmax.Y < r.bmin.Y ||
		tmin.Z > r.bmax.Z || tmax.Z < r.bmin.Z {
		return
	}
	h := r.h
	w, ht := h.Width, h.Height
	z0 := clampInt(truncSat((tmin.Z-r.bmin.Z)*r.ics), -1, ht-1)
	z1 := clampInt(truncSat((tmax.Z-r.bmin.Z)*r.ics), 0, ht-1)
	var bufs [4]refPoly
	in, row, col, rest := &bufs[0], &bufs[1], &bufs[2], &bufs[3]
	in.n = 3
	in.v[0] = refVert{v0.X, v0.Y, v0.Z}
	in.v[1] = refVert{v1.X, v1.Y, v1.Z}
	in.v[2] = refVert{v2.X, v2.Y, v2.Z}
	for z := z0; z <= z1; z++ {
		refDivide(in, 2, r.cut(r.bmin.Z, z), row, rest)
		in, rest = rest, in
		if row.n < 3 || z < 0 {
			continue
		}
		minX, maxX := row.extent(0)
		x0 := truncSat((minX - r.bmin.X) * r.ics)
		x1 := truncSat((maxX - r.bmin.X) * r.ics)
		if x1 < 0 || x0 >= w {
			continue
		}
		x0 = clampInt(x0, -1, w-1)
		x1 = clampInt(x1, 0, w-1)
		cur, spare := row, rest
		for x := x0; x <= x1; x++ {
			refDivide(cur, 0, r.cut(r.bmin.X, x), col, spare)
			cur, spare = spare, cur
			if col.n < 3 || x < 0 {
				continue
			}
			ymin, ymax := col.extent(1)
			ymin -= r.bmin.Y
			ymax -= r.bmin.Y
			if ymax < 0 || ymin > r.by {
				continue
			}
			ymin = max(ymin, 0)
			ymax = min(ymax, r.by)
			smin := rowFloor(ymin*r.ich, MaxSpanRow)
			smax := min(max(rowCeil(ymax*r.ich, MaxSpanRow), smin+1), MaxSpanRow)
			if smin < smax {
				h.addSpan(x+z*w, uint16(smin), uint16(smax), area, r.mergeThr)
			}
		}
	}
}

// TestRasterizeMatchesReference rasterizes random triangles, many with
// vertices on cell lines, on row lines or shared with the previous
// triangle, through the rasterizer and the reference, and compares every
// column.
func TestRasterizeMatchesReference(t *testing.T) {
	// Near the origin flat triangles take flatRow's symbolic path; 30 km
	// out (beyond 2^16 cells) its computed one.
	for _, ox := range []float32{-1.5, 30000.3} {
		g := Grid{Width: 23, Height: 19, BorderCells: 2, OriginM: geom.V3(ox, -0.4, 2.1), MaxM: geom.V3(ox+23*0.3, 5, 2.1+19*0.3),
			CellSizeM: 0.3, CellHeightM: 0.2}
		rasterizeMatchesReference(t, g)
	}
}

func rasterizeMatchesReference(t *testing.T, g Grid) {
	rng := rand.New(rand.NewPCG(11, 12))
	coord := func(o, cs float32, cells int) float32 {
		switch rng.IntN(3) {
		case 0: // on a cut line, as rasterization computes it
			return (o + float32(float32(rng.IntN(cells+5)-3)*cs)) + cs
		case 1: // near one
			return (o + float32(float32(rng.IntN(cells+5)-3)*cs)) + cs + float32(rng.IntN(3)-1)*1e-6
		}
		return o + (rng.Float32()*float32(cells+4)-2)*cs
	}
	for round := 0; round < 400; round++ {
		ha, err := NewHeightfield(g)
		if err != nil {
			t.Fatal(err)
		}
		hb, _ := NewHeightfield(g)
		ra, rb := newRaster(ha, 2), newRaster(hb, 2)
		var prev [3]geom.Vec3
		for k := 0; k < 30; k++ {
			var v [3]geom.Vec3
			for i := range v {
				if k > 0 && rng.IntN(4) == 0 {
					v[i] = prev[rng.IntN(3)]
					continue
				}
				v[i] = geom.V3(coord(g.OriginM.X, g.CellSizeM, g.Width), coord(g.OriginM.Y, g.CellHeightM, 28), coord(g.OriginM.Z, g.CellSizeM, g.Height))
			}
			if rng.IntN(3) == 0 { // flat
				v[1].Y, v[2].Y = v[0].Y, v[0].Y
			}
			area := uint8(rng.IntN(64))
			ra.triangle(v[0], v[1], v[2], area)
			refTriangle(rb, v[0], v[1], v[2], area)
			prev = v
		}
		for z := 0; z < g.Height; z++ {
			for x := 0; x < g.Width; x++ {
				if got, want := columnString(ha, x, z), columnString(hb, x, z); got != want {
					t.Fatalf("round %d column (%d, %d): %s, reference %s", round, x, z, got, want)
				}
			}
		}
	}
}

// BenchmarkRasterizeCity rasterizes the city's tiles (Recast's demo tile
// grids, each tile's triangles from the chunky mesh) round-robin; the time
// per op is one tile.
func BenchmarkRasterizeCity(b *testing.B) {
	soup, err := level.Builtin("city")
	if err != nil {
		b.Fatal(err)
	}
	ch, err := level.NewChunky(soup, 256)
	if err != nil {
		b.Fatal(err)
	}
	bounds := soup.Bounds()
	type tile struct {
		g    Grid
		tris []int32
	}
	var tiles []tile
	for tz := 0; tz < 11; tz++ {
		for tx := 0; tx < 11; tx++ {
			g := recastGrid(bounds, tx, tz)
			tris := ch.Query(g.OriginM.X, g.OriginM.Z, g.MaxM.X, g.MaxM.Z, nil)
			slices.Sort(tris)
			tiles = append(tiles, tile{g, tris})
		}
	}
	var h Heightfield
	b.ReportAllocs()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, _ := cputime.Thread()
	n := 0
	for i := 0; b.Loop(); i++ {
		t := &tiles[i%len(tiles)]
		if err := h.Reset(t.g); err != nil {
			b.Fatal(err)
		}
		if err := h.RasterizeSoup(soup, t.tris, 45, 4); err != nil {
			b.Fatal(err)
		}
		n++
	}
	t1, _ := cputime.Thread()
	b.ReportMetric(float64(t1-t0)/float64(n), "cpu-ns/op")
}

// TestFilterSpansEqualsFilters runs FilterSpans and the three filters in
// turn on heightfields of random triangles (with walls, ledges, low
// ceilings and stacked floors) and compares every column.
func TestFilterSpansEqualsFilters(t *testing.T) {
	g := Grid{Width: 17, Height: 15, BorderCells: 1, OriginM: geom.V3(0, 0, 0), MaxM: geom.V3(17*0.3, 6, 15*0.3),
		CellSizeM: 0.3, CellHeightM: 0.2}
	rng := rand.New(rand.NewPCG(5, 6))
	for round := 0; round < 300; round++ {
		a, err := NewHeightfield(g)
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 40; k++ {
			var v [3]geom.Vec3
			for i := range v {
				v[i] = geom.V3(rng.Float32()*5.1, float32(rng.IntN(30))*0.2*rng.Float32(), rng.Float32()*4.5)
			}
			if rng.IntN(2) == 0 {
				v[1].Y, v[2].Y = v[0].Y, v[0].Y
			}
			if err := a.RasterizeTriangle(v[0], v[1], v[2], uint8(rng.IntN(3))*31, 2); err != nil {
				t.Fatal(err)
			}
		}
		b, err := cloneTestHeightfield(a)
		if err != nil {
			t.Fatal(err)
		}
		height, climb := 1+rng.IntN(12), rng.IntN(5)
		if err := a.FilterSpans(height, climb); err != nil {
			t.Fatal(err)
		}
		if err := b.FilterLowHangingWalkableObstacles(climb); err != nil {
			t.Fatal(err)
		}
		if err := b.FilterLedgeSpans(height, climb); err != nil {
			t.Fatal(err)
		}
		if err := b.FilterWalkableLowHeightSpans(height); err != nil {
			t.Fatal(err)
		}
		for z := 0; z < g.Height; z++ {
			for x := 0; x < g.Width; x++ {
				if got, want := columnString(a, x, z), columnString(b, x, z); got != want {
					t.Fatalf("round %d (height %d, climb %d) column (%d, %d): %s, filters in turn %s", round, height, climb, x, z, got, want)
				}
			}
		}
		// Compaction uses FilterSpans' count of walkable spans, until a
		// span changes.
		if round%2 == 1 {
			x, z := rng.IntN(g.Width), rng.IntN(g.Height)
			for _, h := range []*Heightfield{a, b} {
				if err := h.AddSpan(x, z, 27, 29, 63, climb); err != nil {
					t.Fatal(err)
				}
			}
		}
		ca, err := BuildCompactHeightfield(a, height, climb)
		if err != nil {
			t.Fatal(err)
		}
		cb, err := BuildCompactHeightfield(b, height, climb)
		if err != nil {
			t.Fatal(err)
		}
		if compactDump(ca) != compactDump(cb) {
			t.Fatalf("round %d: compact heightfields differ", round)
		}
	}
	if err := (*Heightfield)(nil).FilterSpans(1, 0); err == nil {
		t.Error("FilterSpans on nil: no error")
	}
	h, _ := NewHeightfield(g)
	if h.FilterSpans(0, 0) == nil || h.FilterSpans(1, -1) == nil {
		t.Error("FilterSpans with bad heights: no error")
	}
}

// cloneTestHeightfield returns a copy of h.
func cloneTestHeightfield(h *Heightfield) (*Heightfield, error) {
	cols := make([][]Span, h.Width*h.Height)
	for z := 0; z < h.Height; z++ {
		for x := 0; x < h.Width; x++ {
			cols[x+z*h.Width] = h.AppendColumn(nil, x, z)
		}
	}
	return NewHeightfieldFromColumns(h.Grid, cols)
}

// TestSpanGraph builds compact heightfields of random scenes with and
// without the graph: the same heightfield, the graph is SpanGraph's and
// follows the links, and erosion with it equals erosion without.
func TestSpanGraph(t *testing.T) {
	g := Grid{Width: 13, Height: 11, BorderCells: 1, OriginM: geom.V3(0, 0, 0), MaxM: geom.V3(13*0.3, 6, 11*0.3),
		CellSizeM: 0.3, CellHeightM: 0.2}
	rng := rand.New(rand.NewPCG(7, 8))
	var graph []int32
	reuse := &CompactHeightfield{}
	for round := 0; round < 200; round++ {
		h, err := NewHeightfield(g)
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 30; k++ {
			var v [3]geom.Vec3
			for i := range v {
				v[i] = geom.V3(rng.Float32()*3.9, float32(rng.IntN(30))*0.2*rng.Float32(), rng.Float32()*3.3)
			}
			if err := h.RasterizeTriangle(v[0], v[1], v[2], 63, 2); err != nil {
				t.Fatal(err)
			}
		}
		height, climb := 1+rng.IntN(6), rng.IntN(4)
		a, err := BuildCompactHeightfield(h, height, climb)
		if err != nil {
			t.Fatal(err)
		}
		var b *CompactHeightfield
		if b, graph, err = BuildCompactHeightfieldGraph(h, height, climb, graph); err != nil {
			t.Fatal(err)
		}
		if compactDump(a) != compactDump(b) {
			t.Fatalf("round %d: the heightfields differ", round)
		}
		// Built into the memory of the previous round's heightfield (other
		// sizes, stale contents): the same heightfield and graph, new Areas.
		var reuseGraph []int32
		prevAreas := reuse.Areas
		if _, reuseGraph, err = BuildCompactHeightfieldInto(reuse, h, height, climb, nil); err != nil {
			t.Fatal(err)
		}
		if compactDump(a) != compactDump(reuse) || !slices.Equal(reuseGraph, graph) {
			t.Fatalf("round %d: the heightfield built into reused memory differs", round)
		}
		if _, _, err := BuildCompactHeightfieldInto(nil, h, height, climb, nil); err == nil {
			t.Fatalf("round %d: BuildCompactHeightfieldInto into nil: no error", round)
		}
		if len(prevAreas) > 0 && len(reuse.Areas) > 0 && &prevAreas[0] == &reuse.Areas[0] {
			t.Fatalf("round %d: BuildCompactHeightfieldInto reused the Areas", round)
		}
		// The links by the rule of BuildCompactHeightfield, as written.
		for ci, cell := range a.Cells {
			x, z := ci%g.Width, ci/g.Width
			for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
				s := a.Spans[i]
				for d := range 4 {
					want := NotConnected
					nx, nz := x+DirOffsetX[d], z+DirOffsetZ[d]
					if nx >= 0 && nz >= 0 && nx < g.Width && nz < g.Height {
						nc := a.Cells[nx+nz*g.Width]
						for k := 0; k < int(nc.Count); k++ {
							ns := a.Spans[int(nc.Index)+k]
							gap := min(int(s.Y)+int(s.H), int(ns.Y)+int(ns.H)) - max(int(s.Y), int(ns.Y))
							if dy := int(ns.Y) - int(s.Y); gap >= height && dy <= climb && -dy <= climb {
								if k <= MaxLinkLayer {
									want = k
								}
								break
							}
						}
					}
					if got := s.Link(d); got != want {
						t.Fatalf("round %d span %d direction %d: link %d, the rule says %d", round, i, d, got, want)
					}
				}
			}
		}
		if !slices.Equal(graph, b.SpanGraph(nil)) {
			t.Fatalf("round %d: graph differs from SpanGraph", round)
		}
		for ci, cell := range b.Cells {
			for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
				for d := range 4 {
					if want := b.Neighbour(ci%g.Width, ci/g.Width, i, d); int(graph[4*i+d]) != want {
						t.Fatalf("round %d span %d direction %d: graph %d, Neighbour %d", round, i, d, graph[4*i+d], want)
					}
				}
			}
		}
		r := rng.IntN(4)
		if _, err := a.ErodeWalkableArea(r, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := b.ErodeWalkableAreaGraph(r, graph, nil); err != nil {
			t.Fatal(err)
		}
		if compactDump(a) != compactDump(b) {
			t.Fatalf("round %d: erosion with the graph differs", round)
		}
	}
	h, _ := NewHeightfield(g)
	if err := h.AddSpan(3, 3, 0, 5, 63, 1); err != nil {
		t.Fatal(err)
	}
	c, _ := BuildCompactHeightfield(h, 2, 1)
	if _, err := c.ErodeWalkableAreaGraph(1, []int32{0}, nil); err == nil {
		t.Error("ErodeWalkableAreaGraph with a graph of the wrong size: no error")
	}
	if _, err := c.ErodeWalkableAreaGraph(1, []int32{-1, 1, -1, -1}, nil); err == nil {
		t.Error("ErodeWalkableAreaGraph with a link past the spans: no error")
	}
}

// refErosionDistances is docs/spans.md §10 as written: the start values in
// one pass, then the two passes over the columns (x, z), spans bottom up,
// through Neighbour.
func refErosionDistances(c *CompactHeightfield) []uint8 {
	dist := make([]uint8, len(c.Spans))
	w, h := c.Width, c.Height
	for z := 0; z < h; z++ {
		for x := 0; x < w; x++ {
			cell := c.Cells[x+z*w]
			for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
				dist[i] = 0xff
				if c.Areas[i] == AreaNull {
					dist[i] = 0
				}
				for d := range 4 {
					if j := c.Neighbour(x, z, i, d); j < 0 || c.Areas[j] == AreaNull {
						dist[i] = 0
					}
				}
			}
		}
	}
	// relax lowers span i of column (x, z) through direction d and then d2.
	relax := func(x, z, i, d, d2 int) {
		a := c.Neighbour(x, z, i, d)
		if a < 0 {
			return
		}
		dist[i] = uint8(min(int(dist[i]), int(dist[a])+2, 0xff))
		ax, az := x+DirOffsetX[d], z+DirOffsetZ[d]
		if b := c.Neighbour(ax, az, a, d2); b >= 0 {
			dist[i] = uint8(min(int(dist[i]), int(dist[b])+3, 0xff))
		}
	}
	for z := 0; z < h; z++ {
		for x := 0; x < w; x++ {
			cell := c.Cells[x+z*w]
			for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
				relax(x, z, i, 0, 3)
				relax(x, z, i, 3, 2)
			}
		}
	}
	for z := h - 1; z >= 0; z-- {
		for x := w - 1; x >= 0; x-- {
			cell := c.Cells[x+z*w]
			for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
				relax(x, z, i, 2, 1)
				relax(x, z, i, 1, 0)
			}
		}
	}
	return dist
}

// TestErosionMatchesReference compares ErosionDistances and the erosion
// with the graph (into a reused buffer) with refErosionDistances on random
// scenes, stacked floors included.
func TestErosionMatchesReference(t *testing.T) {
	g := Grid{Width: 17, Height: 14, BorderCells: 1, OriginM: geom.V3(0, 0, 0), MaxM: geom.V3(17*0.3, 6, 14*0.3),
		CellSizeM: 0.3, CellHeightM: 0.2}
	rng := rand.New(rand.NewPCG(11, 12))
	var graph []int32
	var buf []uint8
	for round := 0; round < 300; round++ {
		h, err := NewHeightfield(g)
		if err != nil {
			t.Fatal(err)
		}
		// Large flat quads at a few heights (interior spans far from any
		// boundary) and random triangles.
		for k := 0; k < 3; k++ {
			y := float32(rng.IntN(20)) * 0.2
			x0, z0 := rng.Float32()*2, rng.Float32()*2
			x1, z1 := x0+1+rng.Float32()*3, z0+1+rng.Float32()*2.5
			for _, tri := range [2][3]geom.Vec3{
				{geom.V3(x0, y, z0), geom.V3(x0, y, z1), geom.V3(x1, y, z0)},
				{geom.V3(x1, y, z0), geom.V3(x0, y, z1), geom.V3(x1, y, z1)},
			} {
				if err := h.RasterizeTriangle(tri[0], tri[1], tri[2], 63, 2); err != nil {
					t.Fatal(err)
				}
			}
		}
		for k := 0; k < 10; k++ {
			var v [3]geom.Vec3
			for i := range v {
				v[i] = geom.V3(rng.Float32()*5, float32(rng.IntN(30))*0.2*rng.Float32(), rng.Float32()*4.2)
			}
			if err := h.RasterizeTriangle(v[0], v[1], v[2], uint8(rng.IntN(2))*63, 2); err != nil {
				t.Fatal(err)
			}
		}
		c, err := BuildCompactHeightfield(h, 1+rng.IntN(4), rng.IntN(3))
		if err != nil {
			t.Fatal(err)
		}
		want := refErosionDistances(c)
		if got := c.ErosionDistances(nil); !slices.Equal(got, want) {
			t.Fatalf("round %d: ErosionDistances\n%v\nwant\n%v", round, got, want)
		}
		r := 1 + rng.IntN(3)
		wantAreas := slices.Clone(c.Areas)
		for i, d := range want {
			if int(d) < 2*r {
				wantAreas[i] = AreaNull
			}
		}
		// A reused buffer holding another round's distances must not matter.
		graph = c.SpanGraph(graph)
		if buf, err = c.ErodeWalkableAreaGraph(r, graph, buf); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(buf, want) || !slices.Equal(c.Areas, wantAreas) {
			t.Fatalf("round %d: erosion by %d with the graph differs from the reference", round, r)
		}
	}
}
