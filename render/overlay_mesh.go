package render

import (
	"fmt"
	"image/color"
	"slices"

	"navviz/assets"
	"navviz/core/contour"
	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
	"navviz/core/region"
	"navviz/core/voxel"
)

// Overlay names of the mesh stages (step 5: regions, contours, polygons,
// detail, tiles), shared by navviz's View panel and `navmesh shot
// --overlays`.
const (
	// OverlayRegions: the open spans' floors coloured by region id
	// (assets.RegionColour), border-ring spans light grey, walkable spans
	// in no region black.
	OverlayRegions = "regions"
	// OverlayContoursRaw: every traced contour loop (outlines and holes)
	// as lines through its raw vertices, in its region's colour.
	OverlayContoursRaw = "contours-raw"
	// OverlayContours: the simplified contours as lines and vertex points
	// (tile-border vertices white).
	OverlayContours = "contours"
	// OverlayPolys: the navmesh polygons as RecastDemo draws them: a
	// translucent fill in their area colour, faint dark edges between the
	// polygons of a tile, dark wide boundary edges (walls), light tile
	// borders (portal edges).
	OverlayPolys = "polys"
	// OverlayDetail: the detail triangles, shaded alternately, with their
	// wireframe and the detail vertices that are not polygon corners.
	OverlayDetail = "detail"
	// OverlayTiles: the navmesh polygons coloured by tile position.
	OverlayTiles = "tiles"
	// OverlayLayers: the navmesh polygons coloured by layer number.
	OverlayLayers = "layers"
	// OverlayPortals: the portal edges on tile borders (white when linked,
	// red when not) and every link across a tile border as an arrow into
	// the neighbouring tile.
	OverlayPortals = "portals"
)

// MeshOverlayNames lists the mesh overlays in drawing order.
var MeshOverlayNames = []string{
	OverlayRegions, OverlayContoursRaw, OverlayContours, OverlayPolys,
	OverlayDetail, OverlayTiles, OverlayLayers, OverlayPortals,
}

// IsMeshOverlay reports whether name is one of MeshOverlayNames.
func IsMeshOverlay(name string) bool { return slices.Contains(MeshOverlayNames, name) }

// Heights of the mesh overlays above what they show, in cell heights
// (rows) of the build: fills just above the span floors (which the span
// overlays lift 0.1 row), lines above fills, portals and contours above
// the lines, so that each stays visible when several overlays are on.
const (
	meshFillLiftRows    = float32(0.25)
	meshLineLiftRows    = float32(0.5)
	portalLiftRows      = float32(1.0)
	contourRawLiftRows  = float32(0.5)
	contourSimpLiftRows = float32(1.0)
)

// Colours of the mesh overlays (straight alpha).
var (
	regionBorderColour = color.RGBA{172, 172, 182, 255} // border-ring spans
	contourRawShade    = float32(0.7)                   // raw contours: darker region colour
	contourSimpLight   = float32(0.45)                  // simplified: region colour towards white
	contourPointShade  = float32(0.5)                   // simplified vertices: darker
	contourBorderVert  = color.RGBA{255, 255, 255, 255}
	meshFillAlpha      = uint8(210) // detail overlay
	detailWireColour   = color.RGBA{10, 20, 30, 140}
	detailVertColour   = color.RGBA{255, 240, 120, 255}
	detailTriShade     = float32(0.82) // every other detail triangle
	portalLinkedColour = color.RGBA{255, 255, 255, 255}
	portalOpenColour   = color.RGBA{255, 45, 45, 255}
	linkPosColour      = color.RGBA{70, 235, 100, 255} // links towards +x, +z
	linkNegColour      = color.RGBA{60, 200, 255, 255} // links towards -x, -z
)

// Point sizes of the mesh overlays, pixels.
const (
	contourPointPx = 5
	detailPointPx  = 3
	portalTipPx    = 6
)

// linkArrowCells is the length of a link arrow across the tile border, in
// cells; linkHeadFrac the length of its head's strokes as a fraction of it.
const (
	linkArrowCells = 3
	linkHeadFrac   = 0.35
)

// ---------------------------------------------------------------------
// Regions and contours: grid units of a tile's build grid.

// ringFilter says, for a side of a tile given as (dx, dz) in -1..1 (not
// both 0), whether the part of the border ring on that side is drawn.
type ringFilter func(dx, dz int) bool

// appendRegionFloors appends a floor quad for every walkable open span of
// c (area not AreaNull) coloured by its region id ids[i]: RegionColour for
// a region, regionBorderColour for an id with region.BorderFlag, black
// (RegionColour(0)) for a walkable span in no region. The tile's own
// columns of frame f are always drawn; the eight parts of the border ring
// (sides and corners) where ring says so (nil: none), each part's floors
// merged and lifted as in appendFloors. A region table of the wrong length
// draws nothing. m's buffers are reused (nil: a fresh merger).
func appendRegionFloors(dst []Vertex, c *voxel.CompactHeightfield, ids []uint16, f cellFrame, ring ringFilter, m *rectMerger) []Vertex {
	if c == nil || len(ids) != len(c.Spans) || len(c.Areas) != len(c.Spans) || len(c.Cells) != c.Width*c.Height {
		return dst
	}
	colour := func(i int) (color.RGBA, bool) {
		if c.Areas[i] == voxel.AreaNull {
			return color.RGBA{}, false
		}
		id := ids[i]
		if id&region.BorderFlag != 0 {
			return regionBorderColour, true
		}
		return assets.RegionColour(uint32(id)), true
	}
	b := c.BorderCells
	if m == nil {
		m = new(rectMerger)
	}
	// Column ranges of the three bands along each axis: ring below, own
	// columns, ring above.
	xs := [3][2]int{{0, b}, {b, c.Width - b}, {c.Width - b, c.Width}}
	zs := [3][2]int{{0, b}, {b, c.Height - b}, {c.Height - b, c.Height}}
	for bz := 0; bz < 3; bz++ {
		for bx := 0; bx < 3; bx++ {
			if (bx != 1 || bz != 1) && (ring == nil || !ring(bx-1, bz-1)) {
				continue
			}
			g := f
			g.x0, g.x1, g.z0, g.z1 = xs[bx][0], xs[bx][1], zs[bz][0], zs[bz][1]
			if g.x0 >= g.x1 || g.z0 >= g.z1 {
				continue
			}
			dst = appendFloors(dst, c, &g, colour, m)
		}
	}
	return dst
}

// setFrame is the frame of a contour set standing alone: its own origin
// and cell sizes, every column.
func setFrame(s *contour.Set) cellFrame {
	return cellFrame{
		baseX: s.OriginX, baseZ: s.OriginZ, baseY: s.OriginY,
		cs: s.CellSizeM, ch: s.CellHeightM,
		x1: s.Width, z1: s.Height,
	}
}

// contourPos returns the world position of contour vertex v in frame f,
// lifted liftRows rows.
func contourPos(f *cellFrame, v contour.Vertex, liftRows float32) geom.Vec3 {
	return geom.V3(f.lineX(int(v.X)), f.rowY(float32(v.Y)+liftRows), f.lineZ(int(v.Z)))
}

// appendLoopLines appends the closed polyline through vs (one segment per
// vertex, the last back to the first) in colour col, lifted liftRows.
// Fewer than two vertices draw nothing.
func appendLoopLines(dst []Vertex, f *cellFrame, vs []contour.Vertex, liftRows float32, col color.RGBA) []Vertex {
	if len(vs) < 2 {
		return dst
	}
	prev := contourPos(f, vs[len(vs)-1], liftRows)
	for _, v := range vs {
		p := contourPos(f, v, liftRows)
		dst = append(dst, Vertex{prev, col}, Vertex{p, col})
		prev = p
	}
	return dst
}

// lighten moves c's colour channels the fraction f towards white.
func lighten(c color.RGBA, f float32) color.RGBA {
	l := func(v uint8) uint8 { return uint8(min(255, float32(v)+float32(f*float32(255-v))+0.5)) }
	return color.RGBA{l(c.R), l(c.G), l(c.B), c.A}
}

// contourRegionColour returns the colour of contour region id of a layer
// whose ids are offset by base in the tile's (pipeline.LayerBuild
// RegionBase): the regions overlay's colour of the tile-wide id.
func contourRegionColour(id uint16, base int) color.RGBA {
	if id == region.NoRegion || id&region.BorderFlag != 0 {
		return assets.RegionColour(uint32(id))
	}
	return assets.RegionColour(uint32(int(id) + max(base, 0)))
}

// appendRawContours adds to o the raw loop of every loop of s (outlines
// and holes, also loops too small to make a contour), in the region's
// colour (contourRegionColour with the layer's id offset base) darkened
// by contourRawShade, lifted contourRawLiftRows.
func appendRawContours(o *Overlay, s *contour.Set, base int, f *cellFrame) {
	if s == nil {
		return
	}
	for i := range s.Loops {
		l := &s.Loops[i]
		col := shade(contourRegionColour(l.Region, base), contourRawShade)
		o.Lines = appendLoopLines(o.Lines, f, l.Raw, contourRawLiftRows, col)
	}
}

// appendSimplifiedContours adds to o every contour of s as lines in its
// region's colour (as appendRawContours) lightened by contourSimpLight, so
// they show on the region floors, and a point per vertex (the region
// colour darkened; white for a tile-border vertex, contour.BorderVertex),
// lifted contourSimpLiftRows.
func appendSimplifiedContours(o *Overlay, s *contour.Set, base int, f *cellFrame) {
	if s == nil {
		return
	}
	for i := range s.Contours {
		c := &s.Contours[i]
		col := contourRegionColour(c.Region, base)
		o.Lines = appendLoopLines(o.Lines, f, c.Verts, contourSimpLiftRows, lighten(col, contourSimpLight))
		dark := shade(col, contourPointShade)
		for _, v := range c.Verts {
			pc := dark
			if v.Flags&contour.BorderVertex != 0 {
				pc = contourBorderVert
			}
			o.Points = append(o.Points, Vertex{contourPos(f, v, contourSimpLiftRows), pc})
		}
	}
}

// ---------------------------------------------------------------------
// Navmesh tiles: world positions as the mesh stores them.

// navTile is a tile of a navmesh with its reference.
type navTile struct {
	ref navmesh.TileRef
	t   *navmesh.Tile
}

// navTiles returns the tiles of m that keep selects (nil: all), in
// m.Tiles() order (TileZ, TileX, Layer).
func navTiles(m *navmesh.Mesh, keep TileFilter) []navTile {
	if m == nil {
		return nil
	}
	var out []navTile
	for _, ref := range m.Tiles() {
		t, err := m.Tile(ref)
		if err != nil || t == nil {
			continue
		}
		if keep != nil && !keep(int(t.Header.TileX), int(t.Header.TileZ)) {
			continue
		}
		out = append(out, navTile{ref, t})
	}
	return out
}

// up returns p lifted by liftRows cell heights of tile t.
func up(t *navmesh.Tile, p geom.Vec3, liftRows float32) geom.Vec3 {
	p.Y += float32(liftRows * t.Header.CellHeightM)
	return p
}

// polyVert returns corner j of polygon p of t (false when out of range).
func polyVert(t *navmesh.Tile, p *navmesh.Poly, j int) (geom.Vec3, bool) {
	if j < 0 || j >= int(p.VertCount) || j >= navmesh.MaxVertsPerPoly || int(p.Verts[j]) >= len(t.Verts) {
		return geom.Vec3{}, false
	}
	return t.Verts[p.Verts[j]], true
}

// onSegmentXZ reports whether p lies within tolM of the segment a-b in the
// x/z plane.
func onSegmentXZ(p, a, b geom.Vec3, tolM float64) bool {
	ax, az := float64(a.X), float64(a.Z)
	dx, dz := float64(b.X)-ax, float64(b.Z)-az
	px, pz := float64(p.X)-ax, float64(p.Z)-az
	l2 := float64(dx*dx) + float64(dz*dz)
	t := 0.0
	if l2 > 0 {
		t = min(1, max(0, (float64(px*dx)+float64(pz*dz))/l2))
	}
	ex, ez := px-float64(t*dx), pz-float64(t*dz)
	return float64(ex*ex)+float64(ez*ez) <= tolM*tolM
}

// edgeTolCells is the x/z distance, in cells, within which a detail edge
// counts as lying on a polygon edge (Recast's debug draw uses 0.01 world
// units).
const edgeTolCells = 0.05

// polyEdgePieces calls fn with the pieces of polygon i's edge j (corner j
// to corner j+1) as the detail mesh draws them: the detail triangles'
// boundary edges lying on it, so that the line follows the detail heights.
// When none is found the straight edge is the one piece.
func polyEdgePieces(t *navmesh.Tile, i, j int, fn func(a, b geom.Vec3)) {
	p := &t.Polys[i]
	n := int(p.VertCount)
	va, oka := polyVert(t, p, j)
	vb, okb := polyVert(t, p, (j+1)%max(n, 1))
	if !oka || !okb {
		return
	}
	tol := float64(edgeTolCells * t.Header.CellSizeM)
	found := false
	if i < len(t.DetailMeshes) && t.DetailMeshes[i].TriCount > 0 {
		t.PolyTris(i, func(_ int, a, b, c geom.Vec3, flags uint8) {
			vs := [3]geom.Vec3{a, b, c}
			for e := 0; e < 3; e++ {
				if flags>>(2*e)&1 == 0 {
					continue
				}
				p0, p1 := vs[e], vs[(e+1)%3]
				if onSegmentXZ(p0, va, vb, tol) && onSegmentXZ(p1, va, vb, tol) {
					fn(p0, p1)
					found = true
				}
			}
		})
	}
	if !found {
		fn(va, vb)
	}
}

// polyColour gives the fill colour of polygon i of tile nt.
type polyColour func(nt *navTile, i int) color.RGBA

// edgeStyle says how appendNavPolys draws the edges of the polygons.
type edgeStyle struct {
	tileBorder color.RGBA // portal edges on the tile border
	boundary   color.RGBA // edges without a neighbour, drawn wide
	inner      color.RGBA // edges between two polygons of the tile
}

// polyEdgeStyle is the edge style of "polys" and "cache-polys" (as
// RecastDemo's navmesh debug draw): faint dark inner edges, dark wide
// boundaries, light tile borders.
var polyEdgeStyle = edgeStyle{
	tileBorder: assets.PolyTileBorderColour,
	boundary:   assets.PolyBoundaryColour,
	inner:      assets.PolyInnerEdgeColour,
}

// boundaryWidthCells is the width of a wide edge (a polygon boundary, a
// swap or queue outline), in cells of its tile: a band of triangles on the
// inner side of the edge, with the edge's line along its outer side, so
// that it reads as a thick line when zoomed in and stays at least a line
// when zoomed out.
const boundaryWidthCells = 0.35

// polyCentreXZ returns the mean of the corners of polygon p of t.
func polyCentreXZ(t *navmesh.Tile, p *navmesh.Poly) (x, z float64) {
	n := 0
	for j := 0; j < int(p.VertCount) && j < navmesh.MaxVertsPerPoly; j++ {
		if v, ok := polyVert(t, p, j); ok {
			x += float64(v.X)
			z += float64(v.Z)
			n++
		}
	}
	if n > 0 {
		x, z = x/float64(n), z/float64(n)
	}
	return x, z
}

// appendWideEdge adds the segment a-b to o as a line in col and a band of
// width widthM on the side of the segment towards (cx, cz) in x/z, its
// triangles in col too. A segment shorter than a millimetre in x/z, or a
// width that is not positive, gets the line only.
func appendWideEdge(o *Overlay, a, b geom.Vec3, cx, cz float64, widthM float32, col color.RGBA) {
	o.Lines = append(o.Lines, Vertex{a, col}, Vertex{b, col})
	if !(widthM > 0) {
		return
	}
	dx, dz := float64(b.X)-float64(a.X), float64(b.Z)-float64(a.Z)
	l := geom.Hypot(dx, dz)
	if !(l > 1e-3) {
		return
	}
	nx, nz := -dz/l, dx/l
	// Halves rounded first: x/2 compiles to x*0.5, which would fuse with - c.
	mx := float64(float64(a.X+b.X)/2) - cx
	mz := float64(float64(a.Z+b.Z)/2) - cz
	if float64(nx*mx)+float64(nz*mz) > 0 { // points away from the centre
		nx, nz = -nx, -nz
	}
	ox, oz := float32(nx*float64(widthM)), float32(nz*float64(widthM))
	a2 := geom.V3(a.X+ox, a.Y, a.Z+oz)
	b2 := geom.V3(b.X+ox, b.Y, b.Z+oz)
	o.Tris = quad(o.Tris, a, b, b2, a2, col)
}

// appendNavPolys adds to o the polygons of the tiles ts: each polygon's
// detail triangles filled in fill's colour at assets.PolyFillAlpha (lifted
// meshFillLiftRows), then its edges (lifted meshLineLiftRows) following
// the detail heights, as style says: boundary edges (no neighbour) wide
// (appendWideEdge, boundaryWidthCells into the polygon), tile-border
// (portal) edges and inner edges as lines, each inner edge once (by the
// polygon of lower index). A colour of alpha 0 leaves those edges out.
func appendNavPolys(o *Overlay, ts []navTile, fill polyColour, style edgeStyle) {
	for ti := range ts {
		nt := &ts[ti]
		t := nt.t
		widthM := float32(boundaryWidthCells * t.Header.CellSizeM)
		for i := range t.Polys {
			col := fill(nt, i)
			col.A = assets.PolyFillAlpha
			t.PolyTris(i, func(_ int, a, b, c geom.Vec3, _ uint8) {
				o.Tris = append(o.Tris,
					Vertex{up(t, a, meshFillLiftRows), col},
					Vertex{up(t, b, meshFillLiftRows), col},
					Vertex{up(t, c, meshFillLiftRows), col})
			})
			p := &t.Polys[i]
			cx, cz := polyCentreXZ(t, p)
			for j := 0; j < int(p.VertCount) && j < navmesh.MaxVertsPerPoly; j++ {
				nei := p.Neis[j]
				var lc color.RGBA
				switch {
				case nei == navmesh.NullIndex:
					lc = style.boundary
				case nei&navmesh.ExtLink != 0:
					lc = style.tileBorder
				case int(nei) < i:
					continue
				default:
					lc = style.inner
				}
				if lc.A == 0 {
					continue
				}
				w := float32(0) // a line only
				if nei == navmesh.NullIndex {
					w = widthM
				}
				polyEdgePieces(t, i, j, func(a, b geom.Vec3) {
					appendWideEdge(o, up(t, a, meshLineLiftRows), up(t, b, meshLineLiftRows), cx, cz, w, lc)
				})
			}
		}
	}
}

// areaFill colours a polygon by its run-time area id (Mesh.PolyArea, the
// built area when the mesh does not answer).
func areaFill(m *navmesh.Mesh) polyColour {
	return func(nt *navTile, i int) color.RGBA {
		area := nt.t.Polys[i].Area
		if a, err := m.PolyArea(nt.ref.Poly(uint32(i))); err == nil {
			area = a
		}
		return assets.AreaColour(area)
	}
}

// TileColour returns the colour of tile position (tx, tz) in the tiles
// overlay: assets.Distinct of tx*3 + tz*7, a mix under which every tile
// differs clearly from its eight neighbours in hue or brightness.
func TileColour(tx, tz int) color.RGBA {
	return assets.Distinct(uint32(tx*tileColourX+tz*tileColourZ) + 1)
}

// Multipliers of TileColour (chosen so that the eight neighbours of a
// tile on a 64 x 64 grid all differ from it by at least 90 in the sum of
// the RGB channel differences; see TestTileColoursDiffer).
const (
	tileColourX = 3
	tileColourZ = 7
)

// LayerColour returns the colour of layer number layer in the layers
// overlay: assets.Distinct(layer + 1).
func LayerColour(layer uint8) color.RGBA { return assets.Distinct(uint32(layer) + 1) }

// PolysOverlay returns the overlay "polys": the polygons of the tiles of m
// that keep selects (nil: all), filled translucently with their area
// colour (assets.AreaColour of the run-time area) over their detail
// triangles, with faint dark inner edges, dark wide boundary edges and
// light tile-border (portal) edges (polyEdgeStyle). A nil mesh gives an
// empty overlay.
func PolysOverlay(m *navmesh.Mesh, keep TileFilter) *Overlay {
	o := surfaceOverlay(OverlayPolys)
	appendNavPolys(o, navTiles(m, keep), areaFill(m), polyEdgeStyle)
	return o
}

// TilesOverlay returns the overlay "tiles": the polygons of the selected
// tiles filled with their tile position's colour (TileColour), the layers
// of one position alike, with dark boundaries and tile borders and faint
// inner edges.
func TilesOverlay(m *navmesh.Mesh, keep TileFilter) *Overlay {
	o := surfaceOverlay(OverlayTiles)
	fill := func(nt *navTile, _ int) color.RGBA {
		return TileColour(int(nt.t.Header.TileX), int(nt.t.Header.TileZ))
	}
	appendNavPolys(o, navTiles(m, keep), fill, edgeStyle{tileBorder: assets.PolyBoundaryColour, boundary: assets.PolyBoundaryColour, inner: assets.PolyInnerEdgeColour})
	return o
}

// LayersOverlay returns the overlay "layers": the polygons of the selected
// tiles filled with their tile's layer colour (LayerColour), edges as in
// "polys".
func LayersOverlay(m *navmesh.Mesh, keep TileFilter) *Overlay {
	o := surfaceOverlay(OverlayLayers)
	fill := func(nt *navTile, _ int) color.RGBA { return LayerColour(nt.t.Header.Layer) }
	appendNavPolys(o, navTiles(m, keep), fill, polyEdgeStyle)
	return o
}

// DetailOverlay returns the overlay "detail": every detail triangle of the
// selected tiles' polygons filled with the polygon's area colour, every
// other triangle darker, its edges as a dark wireframe (each edge once)
// and, as points, the detail vertices that are not polygon corners (the
// height samples).
func DetailOverlay(m *navmesh.Mesh, keep TileFilter) *Overlay {
	o := surfaceOverlay(OverlayDetail)
	o.PointSizePx = detailPointPx
	fill := areaFill(m)
	for _, nt := range navTiles(m, keep) {
		t := nt.t
		for i := range t.Polys {
			base := fill(&nt, i)
			base.A = meshFillAlpha
			var d navmesh.DetailMesh
			if i < len(t.DetailMeshes) {
				d = t.DetailMeshes[i]
			}
			t.PolyTris(i, func(k int, a, b, c geom.Vec3, flags uint8) {
				col := base
				if k&1 != 0 {
					col = shade(base, detailTriShade)
				}
				vs := [3]geom.Vec3{up(t, a, meshFillLiftRows), up(t, b, meshFillLiftRows), up(t, c, meshFillLiftRows)}
				o.Tris = append(o.Tris, Vertex{vs[0], col}, Vertex{vs[1], col}, Vertex{vs[2], col})
				// Each inner edge is shared by two triangles that walk it in
				// opposite directions: draw it from the one where it goes
				// towards the larger point (x, then z), boundary edges
				// always.
				dy := float32((meshLineLiftRows - meshFillLiftRows) * t.Header.CellHeightM)
				for e := 0; e < 3; e++ {
					p, q := vs[e], vs[(e+1)%3]
					if flags>>(2*e)&1 == 0 && !lessXZ(p, q) {
						continue
					}
					p.Y += dy
					q.Y += dy
					o.Lines = append(o.Lines, Vertex{p, detailWireColour}, Vertex{q, detailWireColour})
				}
			})
			for k := 0; k < int(d.VertCount); k++ {
				if v, ok := t.PolyDetailVert(i, int(t.Polys[i].VertCount)+k); ok {
					o.Points = append(o.Points, Vertex{up(t, v, meshLineLiftRows), detailVertColour})
				}
			}
		}
	}
	return o
}

// lessXZ orders points by x, then z, then y.
func lessXZ(p, q geom.Vec3) bool {
	if p.X != q.X {
		return p.X < q.X
	}
	if p.Z != q.Z {
		return p.Z < q.Z
	}
	return p.Y < q.Y
}

// dirXZ returns the unit x/z vector of a border direction (navmesh.DirPosX
// ...), and false for any other value.
func dirXZ(dir uint8) (dx, dz float32, ok bool) {
	switch dir {
	case navmesh.DirPosX:
		return 1, 0, true
	case navmesh.DirPosZ:
		return 0, 1, true
	case navmesh.DirNegX:
		return -1, 0, true
	case navmesh.DirNegZ:
		return 0, -1, true
	}
	return 0, 0, false
}

// PortalsOverlay returns the overlay "portals": for every polygon edge of
// the selected tiles that lies on the tile border (a portal), the edge as
// a line, white when some link crosses it and red when none does; and for
// every link across a tile border an arrow from the middle of the part of
// the edge it uses (Link.BMin..BMax) into the neighbouring tile,
// linkArrowCells cells long, green towards +x/+z and blue towards -x/-z,
// so a reciprocal pair shows as a double arrow, its tip marked by a point
// of portalTipPx pixels (the same size on screen at any zoom, so the
// arrows stay visible when zoomed out). Everything is lifted
// portalLiftRows above the polygon edge.
func PortalsOverlay(m *navmesh.Mesh, keep TileFilter) *Overlay {
	o := surfaceOverlay(OverlayPortals)
	o.PointSizePx = portalTipPx
	for _, nt := range navTiles(m, keep) {
		t := nt.t
		for i := range t.Polys {
			p := &t.Polys[i]
			var links []navmesh.Link
			if ls, err := m.Links(nt.ref.Poly(uint32(i))); err == nil {
				links = ls
			}
			n := int(p.VertCount)
			for j := 0; j < n && j < navmesh.MaxVertsPerPoly; j++ {
				if p.Neis[j] == navmesh.NullIndex || p.Neis[j]&navmesh.ExtLink == 0 {
					continue
				}
				va, oka := polyVert(t, p, j)
				vb, okb := polyVert(t, p, (j+1)%n)
				if !oka || !okb {
					continue
				}
				linked := false
				for _, l := range links {
					if int(l.Edge) != j || l.Side == navmesh.InternalSide || l.Side == navmesh.OffMeshSide {
						continue
					}
					linked = true
					dx, dz, ok := dirXZ(l.Side)
					if !ok {
						continue
					}
					// The middle of the used part of the edge.
					f := (float32(l.BMin) + float32(l.BMax)) / (2 * 255)
					s := va.Add(vb.Sub(va).Scale(f))
					s = up(t, s, portalLiftRows)
					ln := float32(linkArrowCells) * t.Header.CellSizeM
					e := s
					e.X += float32(dx * ln)
					e.Z += float32(dz * ln)
					col := linkPosColour
					if l.Side == navmesh.DirNegX || l.Side == navmesh.DirNegZ {
						col = linkNegColour
					}
					h := float32(ln * linkHeadFrac)
					// Head: two strokes back from the tip, at ±45°.
					h1 := geom.V3(e.X-float32(dx*h)-float32(dz*h), e.Y, e.Z-float32(dz*h)+float32(dx*h))
					h2 := geom.V3(e.X-float32(dx*h)+float32(dz*h), e.Y, e.Z-float32(dz*h)-float32(dx*h))
					o.Lines = append(o.Lines, Vertex{s, col}, Vertex{e, col},
						Vertex{e, col}, Vertex{h1, col}, Vertex{e, col}, Vertex{h2, col})
					o.Points = append(o.Points, Vertex{e, col})
				}
				col := portalOpenColour
				if linked {
					col = portalLinkedColour
				}
				o.Lines = append(o.Lines, Vertex{up(t, va, portalLiftRows), col}, Vertex{up(t, vb, portalLiftRows), col})
			}
		}
	}
	return o
}

// NavMeshOverlay returns the navmesh overlay called name (polys, detail,
// tiles, layers or portals) of m for the tiles keep selects; any other
// name is an error.
func NavMeshOverlay(name string, m *navmesh.Mesh, keep TileFilter) (*Overlay, error) {
	switch name {
	case OverlayPolys:
		return PolysOverlay(m, keep), nil
	case OverlayDetail:
		return DetailOverlay(m, keep), nil
	case OverlayTiles:
		return TilesOverlay(m, keep), nil
	case OverlayLayers:
		return LayersOverlay(m, keep), nil
	case OverlayPortals:
		return PortalsOverlay(m, keep), nil
	}
	return nil, fmt.Errorf("render: %q is not a navmesh overlay, want one of %v", name, []string{OverlayPolys, OverlayDetail, OverlayTiles, OverlayLayers, OverlayPortals})
}

// RegionsOverlay returns the overlay "regions": the walkable open spans
// of the tiles of b that keep selects, coloured by region id (see
// appendRegionFloors: a colour per region, border-ring spans light grey,
// walkable spans in no region black). A tile's own columns are drawn, and
// the parts of its border ring that lie over tiles keep does not select
// (so the ring of the selected tiles shows at the edge of what is drawn;
// with every tile selected no ring is drawn). Tiles without regions are
// skipped.
func RegionsOverlay(b *pipeline.Build, keep TileFilter) *Overlay {
	return regionsOverlay(b, keep, keep)
}

// regionsOverlay draws the regions of the tiles of b that sel selects, with
// their border ring where it lies over a tile keep does not select (keep
// nil: no ring).
func regionsOverlay(b *pipeline.Build, sel, keep TileFilter) *Overlay {
	o := surfaceOverlay(OverlayRegions)
	var m rectMerger
	for i, t := range selectedTiles(b, sel) {
		regs := tileRegions(b, i)
		if t.Spans == nil || regs == nil {
			continue
		}
		var ring ringFilter
		if keep != nil {
			tx, tz := t.TX, t.TZ
			ring = func(dx, dz int) bool { return !keep(tx+dx, tz+dz) }
		}
		f := tileFrame(b, t, &t.Spans.Grid)
		o.Tris = appendRegionFloors(o.Tris, t.Spans, regs.IDs, f, ring, &m)
	}
	return o
}

// contoursOverlay draws the contour sets of the selected tiles of b, raw
// or simplified.
func contoursOverlay(name string, b *pipeline.Build, keep TileFilter, raw bool) *Overlay {
	o := surfaceOverlay(name)
	o.PointSizePx = contourPointPx
	for i, t := range selectedTiles(b, keep) {
		if t.Spans == nil {
			continue
		}
		f := tileFrame(b, t, &t.Spans.Grid)
		for _, lc := range tileContours(b, i) {
			cs := lc.set
			if cs == nil || cs.CellSizeM != f.cs || cs.CellHeightM != f.ch {
				continue
			}
			if raw {
				appendRawContours(o, cs, lc.regionBase, &f)
			} else {
				appendSimplifiedContours(o, cs, lc.regionBase, &f)
			}
		}
	}
	return o
}

// ContoursRawOverlay returns the overlay "contours-raw": every loop the
// contour stage traced in the selected tiles of b (outlines and holes, of
// every layer), as lines through its raw vertices (span corners) in its
// region's colour, lifted half a row.
func ContoursRawOverlay(b *pipeline.Build, keep TileFilter) *Overlay {
	return contoursOverlay(OverlayContoursRaw, b, keep, true)
}

// ContoursOverlay returns the overlay "contours": the simplified contours
// of the selected tiles of b (holes joined), as lines in their region's
// colour and a point per vertex (white where the vertex is a tile-border
// vertex the polygon stage removes), lifted a row.
func ContoursOverlay(b *pipeline.Build, keep TileFilter) *Overlay {
	return contoursOverlay(OverlayContours, b, keep, false)
}

// MeshOverlay returns the mesh overlay called name (one of
// MeshOverlayNames) for build b and the tiles keep selects: regions and
// contours from each tile's stages, the others from b's navmesh
// (BuildMesh). An unknown name is an error listing the valid ones.
func MeshOverlay(name string, b *pipeline.Build, keep TileFilter) (*Overlay, error) {
	switch name {
	case OverlayRegions:
		return RegionsOverlay(b, keep), nil
	case OverlayContoursRaw:
		return ContoursRawOverlay(b, keep), nil
	case OverlayContours:
		return ContoursOverlay(b, keep), nil
	case OverlayPolys, OverlayDetail, OverlayTiles, OverlayLayers, OverlayPortals:
		return NavMeshOverlay(name, BuildMesh(b), keep)
	}
	return nil, fmt.Errorf("render: unknown mesh overlay %q, want one of %v", name, MeshOverlayNames)
}
