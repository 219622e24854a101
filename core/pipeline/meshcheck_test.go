package pipeline

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"navviz/core/navmesh"
)

// Checks on a built navmesh, shared by the acceptance tests: overlapping
// polygons and the walkable area read back from the tile data (reciprocal
// links: navmesh.Mesh.CheckLinks).

// xz is a point of the x/z plane, metres.
type xz struct{ x, z float64 }

// meshPoly is a polygon of a mesh for the overlap test: its x/z outline
// (counter-clockwise), its bounding box and where it came from.
type meshPoly struct {
	tile     *navmesh.Tile
	tx, tz   int32
	layer    uint8
	i        int
	pts      []xz
	min, max xz
}

func cross(o, a, b xz) float64 { return (a.x-o.x)*(b.z-o.z) - (a.z-o.z)*(b.x-o.x) }

// polyArea returns the signed area of pts (positive counter-clockwise in
// x/z, x right, z up).
func polyArea(pts []xz) float64 {
	a := 0.0
	for i := range pts {
		j := (i + 1) % len(pts)
		a += pts[i].x*pts[j].z - pts[j].x*pts[i].z
	}
	return a / 2
}

// clip returns the part of the convex polygon subject inside the convex
// counter-clockwise polygon clipper (Sutherland-Hodgman).
func clip(subject, clipper []xz) []xz {
	out := slices.Clone(subject)
	for i := range clipper {
		a, b := clipper[i], clipper[(i+1)%len(clipper)]
		in := out
		out = nil
		for j := range in {
			p, q := in[j], in[(j+1)%len(in)]
			cp, cq := cross(a, b, p), cross(a, b, q)
			if cp >= 0 {
				out = append(out, p)
			}
			if (cp >= 0) != (cq >= 0) {
				s := cp / (cp - cq)
				out = append(out, xz{p.x + s*(q.x-p.x), p.z + s*(q.z-p.z)})
			}
		}
		if len(out) < 3 {
			return nil
		}
	}
	return out
}

// heightAt returns the height of polygon i of tile at x/z point p from its
// detail triangles: the triangle p is most inside of (largest smallest
// barycentric coordinate), interpolated.
func heightAt(tile *navmesh.Tile, i int, p xz) float64 {
	d := tile.DetailMeshes[i]
	best, bestH := math.Inf(-1), 0.0
	for k := range int(d.TriCount) {
		tri := tile.DetailTris[int(d.TriBase)+k]
		var v [3][3]float64
		for j := range 3 {
			q, ok := tile.PolyDetailVert(i, int(tri[j]))
			if !ok {
				return math.NaN()
			}
			v[j] = [3]float64{float64(q.X), float64(q.Y), float64(q.Z)}
		}
		a, b, c := xz{v[0][0], v[0][2]}, xz{v[1][0], v[1][2]}, xz{v[2][0], v[2][2]}
		den := cross(a, b, c)
		if den == 0 {
			continue
		}
		u := cross(p, b, c) / den
		w := cross(a, p, c) / den
		t := 1 - u - w
		if m := min(u, w, t); m > best {
			best, bestH = m, u*v[0][1]+w*v[1][1]+t*v[2][1]
		}
	}
	return bestH
}

// meshPolys lists every polygon of m with a counter-clockwise x/z outline.
func meshPolys(t testing.TB, m *navmesh.Mesh) []meshPoly {
	t.Helper()
	var polys []meshPoly
	for _, ref := range m.Tiles() {
		tile, err := m.Tile(ref)
		if err != nil {
			t.Fatal(err)
		}
		for i := range tile.Polys {
			p := &tile.Polys[i]
			mp := meshPoly{tile: tile, tx: tile.Header.TileX, tz: tile.Header.TileZ, layer: tile.Header.Layer, i: i,
				min: xz{math.Inf(1), math.Inf(1)}, max: xz{math.Inf(-1), math.Inf(-1)}}
			for k := range int(p.VertCount) {
				v := tile.Verts[p.Verts[k]]
				q := xz{float64(v.X), float64(v.Z)}
				mp.pts = append(mp.pts, q)
				mp.min = xz{min(mp.min.x, q.x), min(mp.min.z, q.z)}
				mp.max = xz{max(mp.max.x, q.x), max(mp.max.z, q.z)}
			}
			if polyArea(mp.pts) < 0 {
				slices.Reverse(mp.pts)
			}
			polys = append(polys, mp)
		}
	}
	return polys
}

// overlapMinAreaM2 is the smallest x/z intersection of two polygons that
// counts as an overlap: polygons sharing an edge or a corner intersect in
// nothing, or in a sliver of rounding noise far below it.
const overlapMinAreaM2 = 1e-4

// overlap is a pair of polygons that overlap on one floor.
type overlap struct {
	desc string
	// seam is set when the two polygons are on different layers of one
	// tile position (layer-first tiles, whose layers see each other as
	// walls and are simplified on their own).
	seam bool
	// widthM is the smallest width of the x/z intersection, metres.
	widthM float64
}

// findOverlaps returns every pair of polygons of m that overlap on one
// floor: their x/z outlines intersect in more than overlapMinAreaM2 and, at
// the centroid of the intersection and at its vertices (pulled 1 % towards
// the centroid), the vertical distance between the two polygons' detail
// surfaces is below floorGapM somewhere. Polygons whose surfaces are
// floorGapM (the agent height) apart or more are on different floors (a
// bridge over a street) and may overlap in x/z; stacked counts them.
func findOverlaps(t testing.TB, m *navmesh.Mesh, floorGapM float64) (overlaps []overlap, stacked int) {
	t.Helper()
	polys := meshPolys(t, m)
	order := make([]int, len(polys))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmpFloat(polys[a].min.x, polys[b].min.x) })
	for oi, ai := range order {
		a := &polys[ai]
		for _, bi := range order[oi+1:] {
			b := &polys[bi]
			if b.min.x >= a.max.x {
				break
			}
			if b.min.z >= a.max.z || a.min.z >= b.max.z {
				continue
			}
			in := clip(a.pts, b.pts)
			if in == nil || polyArea(in) <= overlapMinAreaM2 {
				continue
			}
			var c xz
			for _, p := range in {
				c.x += p.x / float64(len(in))
				c.z += p.z / float64(len(in))
			}
			gap := math.Inf(1)
			for _, p := range append(in, c) {
				q := xz{p.x + 0.01*(c.x-p.x), p.z + 0.01*(c.z-p.z)}
				gap = min(gap, math.Abs(heightAt(a.tile, a.i, q)-heightAt(b.tile, b.i, q)))
			}
			if gap >= floorGapM {
				stacked++
				continue
			}
			o := overlap{
				seam:   a.tx == b.tx && a.tz == b.tz && a.layer != b.layer,
				widthM: minWidth(in),
			}
			o.desc = fmt.Sprintf("tile (%d, %d) layer %d poly %d and tile (%d, %d) layer %d poly %d overlap by %.4f m² (%.3f m wide), %.3f m apart",
				a.tx, a.tz, a.layer, a.i, b.tx, b.tz, b.layer, b.i, polyArea(in), o.widthM, gap)
			overlaps = append(overlaps, o)
		}
	}
	return overlaps, stacked
}

// minWidth returns the smallest width of the convex counter-clockwise
// polygon pts: over its edges, the largest distance of a vertex from the
// edge's line, the smallest such.
func minWidth(pts []xz) float64 {
	w := math.Inf(1)
	for i := range pts {
		a, b := pts[i], pts[(i+1)%len(pts)]
		l := math.Hypot(b.x-a.x, b.z-a.z)
		if l == 0 {
			continue
		}
		d := 0.0
		for _, p := range pts {
			d = max(d, cross(a, b, p)/l)
		}
		w = min(w, d)
	}
	return w
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// meshAreaM2 returns the x/z area of every polygon of m, read from the tile
// data.
func meshAreaM2(t testing.TB, m *navmesh.Mesh) float64 {
	total := 0.0
	for _, p := range meshPolys(t, m) {
		total += polyArea(p.pts)
	}
	return total
}

// unlinkedPortalEdges counts the portal edges of m (polygon edges on a tile
// border, Neis ExtLink|dir) that no link uses: walkable area whose
// continuation in the neighbouring tile is missing, or a level's outer
// border. It also returns the number of portal edges.
func unlinkedPortalEdges(t testing.TB, m *navmesh.Mesh) (unlinked, portals int) {
	t.Helper()
	for _, ref := range m.Tiles() {
		tile, err := m.Tile(ref)
		if err != nil {
			t.Fatal(err)
		}
		for i := range tile.Polys {
			p := &tile.Polys[i]
			links, err := m.Links(ref.Poly(uint32(i)))
			if err != nil {
				t.Fatal(err)
			}
			for j := range int(p.VertCount) {
				if n := p.Neis[j]; n == navmesh.NullIndex || n&navmesh.ExtLink == 0 {
					continue
				}
				portals++
				if !slices.ContainsFunc(links, func(l navmesh.Link) bool { return int(l.Edge) == j && l.Side != navmesh.InternalSide }) {
					unlinked++
				}
			}
		}
	}
	return unlinked, portals
}
