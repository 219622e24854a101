package render

import (
	"image/color"
	"math"
	"slices"

	"navviz/assets"
	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
	"navviz/core/voxel"
	"navviz/tilecache"
)

// Overlay names of the tile cache (tilecache.Cache), shared by navviz's
// View panel and, later, `navmesh shot --overlays`.
const (
	// OverlayCachePolys: the polygons of the cache's live navmesh (every
	// tile), coloured by run-time area like "polys"; it changes with every
	// swap.
	OverlayCachePolys = "cache-polys"
	// OverlayCacheLayers: the polygons of the cache's live navmesh coloured
	// by the tile layer they belong to (LayerColour), edges as "polys":
	// the layers of the cache's layered build (the plain build's "layers"
	// has one layer per tile under the watershed and monotone partitions).
	OverlayCacheLayers = "cache-layers"
	// OverlayObstacles: the cache's obstacles as translucent solids over
	// their height range, with the footprint grown by the agent radius
	// (what MarkObstacle tests, tilecache.Cache.ObstacleGrowthM) outlined at
	// the bottom and the top of the range.
	OverlayObstacles = "obstacles"
	// OverlayVolumesRT: the cache's run-time area volumes as translucent
	// prisms in their area colour (the build-time ones are "volumes").
	OverlayVolumesRT = "volumes-rt"
	// OverlayQueue: the queued tiles outlined on their lowest floor and
	// the outlines of their walkable areas, coloured by queue position
	// (QueueColour: the front, next to rebuild, yellow; the back dark
	// olive).
	OverlayQueue = "queue"
	// OverlaySwaps: the outlines of the walkable areas of the tiles
	// rebuilt since the last edit, coloured by what their swap did
	// (SwapColour: kept dark grey, replaced orange, added reddish purple,
	// removed vermillion: the old box), and the tiles of the latest Update
	// outlined in white on their lowest floor.
	OverlaySwaps = "swaps"
	// OverlayToolPreview: what a navviz tool is about to do: the obstacle
	// being placed or dragged, the corners of a volume being drawn.
	OverlayToolPreview = "tool-preview"
)

// CacheOverlayNames lists the cache overlays in drawing order.
var CacheOverlayNames = []string{
	OverlayCachePolys, OverlayCacheLayers, OverlayVolumesRT, OverlayObstacles, OverlayOffMesh, OverlayQueue, OverlaySwaps, OverlayToolPreview,
}

// IsCacheOverlay reports whether name is one of CacheOverlayNames.
func IsCacheOverlay(name string) bool { return slices.Contains(CacheOverlayNames, name) }

// Colours of the cache overlays (straight alpha).
var (
	obstacleFill     = color.RGBA{255, 120, 40, 110}
	obstacleEdge     = color.RGBA{255, 160, 70, 255}
	obstacleGrown    = color.RGBA{255, 235, 90, 255}
	obstacleSelFill  = color.RGBA{70, 215, 255, 120}
	obstacleSelEdge  = color.RGBA{160, 240, 255, 255}
	obstacleSelGrown = color.RGBA{255, 255, 255, 255}
	previewEdge      = color.RGBA{255, 255, 255, 255}
	previewFill      = color.RGBA{255, 255, 255, 50}
	previewGrown     = color.RGBA{200, 200, 200, 255}
	previewPolyOK    = color.RGBA{90, 255, 120, 255}
	previewPolyBad   = color.RGBA{255, 70, 60, 255}
	previewPolyClose = color.RGBA{90, 255, 120, 130}
)

// Segments of a drawn cylinder; every cylSideEvery-th corner gets a
// vertical edge line.
const (
	cylSegments  = 40
	cylSideEvery = 10
)

// Heights of the cache overlays' outlines above the mesh, in cell heights
// of each tile (see meshLineLiftRows): over the live polygons' edges, the
// swaps over the queue.
const (
	queueLineLiftRows = float32(0.7)
	swapLineLiftRows  = float32(0.9)
)

// queueInsetFrac and rebuiltInsetFrac shrink a tile's outline by that
// fraction of the tile size on each side, so that neighbouring outlines
// stay apart and a rebuilt outline sits inside a queue outline, a swap's
// frame inside that.
const (
	queueInsetFrac   = 0.04
	rebuiltInsetFrac = 0.08
	swapInsetFrac    = 0.12
)

// ObstacleLoopXZ returns the outline of obstacle o's footprint grown by
// growM metres as a closed convex loop of (x, z) points, metres: a
// cylinder as a polygon of cylSegments corners on the circle of radius
// r+g, a box as its rectangle moved out by g, an oriented box as its
// rectangle with half sizes hx+g, hz+g turned by the yaw (geom.SinCos, as
// the marking test). These are the exact boundaries of the footprint test
// of build3d-runtime.md (the circle sampled). An invalid shape gives nil.
func ObstacleLoopXZ(o *voxel.Obstacle, growM float64) [][2]float64 {
	if o.Validate() != nil || !(growM >= 0) || math.IsInf(growM, 0) {
		return nil
	}
	c := o.CentreM.F64()
	switch o.Shape {
	case voxel.ShapeCylinder:
		r := float64(o.RadiusM) + growM
		out := make([][2]float64, cylSegments)
		for i := range out {
			s, co := geom.SinCos(2 * math.Pi * float64(i) / cylSegments)
			out[i] = [2]float64{c.X + float64(r*co), c.Z + float64(r*s)}
		}
		return out
	case voxel.ShapeBox:
		x0, z0 := float64(o.MinM.X)-growM, float64(o.MinM.Z)-growM
		x1, z1 := float64(o.MaxM.X)+growM, float64(o.MaxM.Z)+growM
		return [][2]float64{{x0, z0}, {x1, z0}, {x1, z1}, {x0, z1}}
	case voxel.ShapeOrientedBox:
		s, co := geom.SinCos(float64(o.YawRad))
		hx, hz := float64(o.HalfM.X)+growM, float64(o.HalfM.Z)+growM
		// Local x axis (co, s), local z axis (-s, co) in world x/z: the
		// inverse of u = dx·c + dz·s, v = dz·c − dx·s.
		at := func(u, v float64) [2]float64 {
			return [2]float64{c.X + float64(u*co) - float64(v*s), c.Z + float64(u*s) + float64(v*co)}
		}
		return [][2]float64{at(-hx, -hz), at(hx, -hz), at(hx, hz), at(-hx, hz)}
	}
	return nil
}

// appendPrism adds to o the prism over the closed convex loop from y lo
// to hi: side faces and caps filled with fill (when fill.A > 0), the rims
// at lo and hi and every every-th vertical edge as lines in line.
func appendPrism(o *Overlay, loop [][2]float64, lo, hi float32, fill, line color.RGBA, every int) {
	n := len(loop)
	if n < 3 {
		return
	}
	at := func(i int, y float32) geom.Vec3 {
		p := loop[i%n]
		return geom.V3(float32(p[0]), y, float32(p[1]))
	}
	if fill.A > 0 {
		for i := 1; i+1 < n; i++ {
			o.Tris = append(o.Tris, Vertex{at(0, hi), fill}, Vertex{at(i, hi), fill}, Vertex{at(i+1, hi), fill})
			if hi > lo {
				o.Tris = append(o.Tris, Vertex{at(0, lo), fill}, Vertex{at(i+1, lo), fill}, Vertex{at(i, lo), fill})
			}
		}
		if hi > lo {
			for i := 0; i < n; i++ {
				o.Tris = quad(o.Tris, at(i, lo), at(i+1, lo), at(i+1, hi), at(i, hi), fill)
			}
		}
	}
	for i := 0; i < n; i++ {
		o.Lines = append(o.Lines, Vertex{at(i, hi), line}, Vertex{at(i+1, hi), line})
		if hi > lo {
			o.Lines = append(o.Lines, Vertex{at(i, lo), line}, Vertex{at(i+1, lo), line})
			if every > 0 && i%every == 0 {
				o.Lines = append(o.Lines, Vertex{at(i, lo), line}, Vertex{at(i, hi), line})
			}
		}
	}
}

// appendObstacle adds obstacle ob to o: its shape as a translucent solid
// over its height range and its footprint grown by growM outlined (rims at
// the bottom and top of the range, and vertical edges).
func appendObstacle(o *Overlay, ob *voxel.Obstacle, growM float64, fill, edge, grown color.RGBA) {
	shape := ObstacleLoopXZ(ob, 0)
	if shape == nil {
		return
	}
	lo64, hi64 := ob.HeightRangeM()
	lo, hi := float32(lo64), float32(hi64)
	every := 1
	if ob.Shape == voxel.ShapeCylinder {
		every = cylSideEvery
	}
	appendPrism(o, shape, lo, hi, fill, edge, every)
	if growM > 0 {
		appendPrism(o, ObstacleLoopXZ(ob, growM), lo, hi, color.RGBA{}, grown, every)
	}
}

// ObstaclesOverlay returns the overlay "obstacles": every obstacle of obs
// as a translucent orange solid over its height range with its footprint
// grown by growM metres (tilecache.Cache.ObstacleGrowthM) outlined in
// yellow at the bottom and the top of the range; obstacle selected (an
// index of obs, -1 for none) is drawn in cyan with a white grown outline.
// Invalid obstacles are skipped.
func ObstaclesOverlay(obs []voxel.Obstacle, growM float64, selected int) *Overlay {
	o := &Overlay{Name: OverlayObstacles, Visible: true}
	for i := range obs {
		if i == selected {
			continue
		}
		appendObstacle(o, &obs[i], growM, obstacleFill, obstacleEdge, obstacleGrown)
	}
	if selected >= 0 && selected < len(obs) {
		appendObstacle(o, &obs[selected], growM, obstacleSelFill, obstacleSelEdge, obstacleSelGrown)
	}
	return o
}

// RuntimeVolumesOverlay returns the overlay "volumes-rt": the run-time
// area volumes drawn as VolumesOverlay draws the build-time ones (prisms in
// the area colour, clamped to the level's height plus 1 m when levelBounds
// is not empty).
func RuntimeVolumesOverlay(vols []voxel.ConvexVolume, levelBounds geom.Box3) *Overlay {
	o := VolumesOverlay(vols, levelBounds)
	o.Name = OverlayVolumesRT
	return o
}

// CachePolysOverlay returns the overlay "cache-polys": the polygons of
// every tile of m drawn as PolysOverlay draws them (the cache's live
// mesh). A nil mesh gives an empty overlay.
func CachePolysOverlay(m *navmesh.Mesh) *Overlay {
	o := PolysOverlay(m, nil)
	o.Name = OverlayCachePolys
	return o
}

// CacheLayersOverlay returns the overlay "cache-layers": the polygons of
// every tile of m coloured by layer as LayersOverlay draws them (the
// cache's live mesh). A nil mesh gives an empty overlay.
func CacheLayersOverlay(m *navmesh.Mesh) *Overlay {
	o := LayersOverlay(m, nil)
	o.Name = OverlayCacheLayers
	return o
}

// QueueColour returns the colour of queue position pos (0 = the front) of
// a queue of n tiles: interpolated along assets.QueueRamp, from yellow at
// the front to dark olive at the back.
func QueueColour(pos, n int) color.RGBA {
	t := 0.0
	if n > 1 {
		t = float64(min(max(pos, 0), n-1)) / float64(n-1)
	}
	stops := assets.QueueRamp
	f := float64(t * float64(len(stops)-1))
	i := min(int(f), len(stops)-2)
	u := f - float64(i)
	a, b := stops[i], stops[i+1]
	l := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + float64((float64(y)-float64(x))*u))) }
	return color.RGBA{l(a.R, b.R), l(a.G, b.G), l(a.B, b.B), 255}
}

// SwapColour returns the colour of a swap kind in the swaps overlay, from
// the colour-blind-safe assets palette: kept dark grey, replaced orange,
// added reddish purple, removed vermillion (other values white).
func SwapColour(k tilecache.SwapKind) color.RGBA {
	switch k {
	case tilecache.SwapKept:
		return assets.SwapKeptColour
	case tilecache.SwapReplaced:
		return assets.SwapReplacedColour
	case tilecache.SwapAdded:
		return assets.SwapAddedColour
	case tilecache.SwapRemoved:
		return assets.SwapRemovedColour
	}
	return color.RGBA{255, 255, 255, 255}
}

// RebuiltColour is the outline colour of the tiles of the latest Update in
// the swaps overlay (assets.SwapLatestColour).
func RebuiltColour() color.RGBA { return assets.SwapLatestColour }

// positionBox returns the box of tile position (tx, tz): x and z of its own
// cells (TileBoxM) shrunk by inset of the tile size on each side, y the
// union of the boxes of m's tiles there (the level's range when there is
// none). ok is false outside the grid.
func positionBox(g *pipeline.TileGrid, m *navmesh.Mesh, tx, tz int, inset float64) (geom.Box3, bool) {
	if g == nil {
		return geom.Box3{}, false
	}
	b, err := g.TileBoxM(tx, tz)
	if err != nil {
		return geom.Box3{}, false
	}
	y := geom.EmptyBox()
	for _, t := range positionTiles(m, tx, tz) {
		y = y.Union(geom.Box3{Min: t.Header.BMin, Max: t.Header.BMax})
	}
	if !y.Empty() {
		b.Min.Y, b.Max.Y = y.Min.Y, y.Max.Y
	}
	return insetXZ(b, float32(inset*float64(g.TileSizeM()))), true
}

// positionTiles returns the tiles of m at (tx, tz), lowest layer first
// (none for a nil mesh).
func positionTiles(m *navmesh.Mesh, tx, tz int) []*navmesh.Tile {
	if m == nil {
		return nil
	}
	var out []*navmesh.Tile
	for _, ref := range m.TilesAt(int32(tx), int32(tz)) {
		if t, err := m.Tile(ref); err == nil {
			out = append(out, t)
		}
	}
	return out
}

// insetXZ shrinks b by d on each side in x and z (no further than its
// centre).
func insetXZ(b geom.Box3, d float32) geom.Box3 {
	dx := min(d, (b.Max.X-b.Min.X)/2)
	dz := min(d, (b.Max.Z-b.Min.Z)/2)
	b.Min.X, b.Max.X = b.Min.X+dx, b.Max.X-dx
	b.Min.Z, b.Max.Z = b.Min.Z+dz, b.Max.Z-dz
	return b
}

// appendBoxEdges adds the 12 edges of b to o in col.
func appendBoxEdges(o *Overlay, b geom.Box3, col color.RGBA) {
	c := func(i int) geom.Vec3 {
		p := b.Min
		if i&1 != 0 {
			p.X = b.Max.X
		}
		if i&2 != 0 {
			p.Z = b.Max.Z
		}
		if i&4 != 0 {
			p.Y = b.Max.Y
		}
		return p
	}
	for _, e := range [12][2]int{{0, 1}, {1, 3}, {3, 2}, {2, 0}, {4, 5}, {5, 7}, {7, 6}, {6, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}} {
		o.Lines = append(o.Lines, Vertex{c(e[0]), col}, Vertex{c(e[1]), col})
	}
}

// TileMarkFrame returns where the cache overlays mark tile position (tx,
// tz) of grid: the rectangle of its own cells shrunk by inset of the tile
// size on each side, at the height of its lowest floor (the bottom of the
// lowest layer's tile in m, else the level's bottom) lifted by a cell
// height; ok is false outside the grid. navviz puts the queue numbers at
// its centre.
func TileMarkFrame(grid *pipeline.TileGrid, m *navmesh.Mesh, tx, tz int, inset float64) (rect geom.Box3, ok bool) {
	b, ok := positionBox(grid, m, tx, tz, inset)
	if !ok {
		return geom.Box3{}, false
	}
	y := grid.BoundsM.Min.Y
	if ts := positionTiles(m, tx, tz); len(ts) > 0 {
		y = ts[0].Header.BMin.Y
	}
	y += grid.CellHeightM
	b.Min.Y, b.Max.Y = y, y
	return b, true
}

// appendRect adds the outline of b's x/z rectangle at height b.Min.Y as
// wide edges (appendWideEdge) widthM wide on the inside.
func appendRect(o *Overlay, b geom.Box3, col color.RGBA, widthM float32) {
	y := b.Min.Y
	c := [4]geom.Vec3{geom.V3(b.Min.X, y, b.Min.Z), geom.V3(b.Max.X, y, b.Min.Z), geom.V3(b.Max.X, y, b.Max.Z), geom.V3(b.Min.X, y, b.Max.Z)}
	cx := (float64(b.Min.X) + float64(b.Max.X)) / 2
	cz := (float64(b.Min.Z) + float64(b.Max.Z)) / 2
	for i := range c {
		appendWideEdge(o, c[i], c[(i+1)%4], cx, cz, widthM, col)
	}
}

// rectWidthCells is the width of the queue's and the latest update's tile
// outlines (a frame inside the tile), outlineWidthCells that of the
// outlines of the walkable areas of queued and swapped tiles, cells: wider
// than the mesh's own boundaries so that they show over them.
const (
	rectWidthCells    = 2
	outlineWidthCells = 1
)

// rectWidthM is the width of the tile outlines of grid, metres.
func rectWidthM(grid *pipeline.TileGrid) float32 {
	return float32(rectWidthCells * grid.CellSizeM)
}

// appendTileOutline adds the boundary edges of the polygons of tile t (the
// outline of the tile's walkable area: edges without a neighbour) as wide
// edges (appendWideEdge, outlineWidthCells into the polygon) in col,
// lifted lift cell heights, following the detail heights. Nothing is
// filled, so the live navmesh's colours show unchanged under it.
func appendTileOutline(o *Overlay, t *navmesh.Tile, col color.RGBA, lift float32) {
	widthM := float32(outlineWidthCells * t.Header.CellSizeM)
	for pi := range t.Polys {
		p := &t.Polys[pi]
		cx, cz := polyCentreXZ(t, p)
		for j := 0; j < int(p.VertCount) && j < navmesh.MaxVertsPerPoly; j++ {
			if p.Neis[j] != navmesh.NullIndex {
				continue
			}
			polyEdgePieces(t, pi, j, func(a, b geom.Vec3) {
				appendWideEdge(o, up(t, a, lift), up(t, b, lift), cx, cz, widthM, col)
			})
		}
	}
}

// QueueOverlay returns the overlay "queue": each queued tile (tx, tz) of
// queue, front first, in QueueColour of its position: the rectangle of its
// own cells (inset 4 % of the tile size) outlined at its lowest floor
// (TileMarkFrame), and the outline of the walkable area of every layer the
// mesh m holds there (appendTileOutline; no fill, so the live polygons'
// colours stay as they are). Tiles outside grid are skipped.
func QueueOverlay(grid *pipeline.TileGrid, m *navmesh.Mesh, queue [][2]int) *Overlay {
	o := surfaceOverlay(OverlayQueue)
	for i, p := range queue {
		r, ok := TileMarkFrame(grid, m, p[0], p[1], queueInsetFrac)
		if !ok {
			continue
		}
		col := QueueColour(i, len(queue))
		appendRect(o, r, col, rectWidthM(grid))
		for _, t := range positionTiles(m, p[0], p[1]) {
			appendTileOutline(o, t, col, queueLineLiftRows)
		}
	}
	return o
}

// TileLayer names one layer of a tile position.
type TileLayer struct {
	TX, TZ int
	Layer  uint8
}

// SwapView is what SwapsOverlay draws.
type SwapView struct {
	// Tiles are rebuilt tiles, oldest first; where a position appears more
	// than once the last entry is drawn.
	Tiles []tilecache.TileUpdate
	// Latest are the positions rebuilt by the latest Update, outlined.
	Latest [][2]int
	// OldBoxes holds, for layers that may be removed, the box of their
	// tile before the swap (a removed tile is gone from the mesh); a
	// removed layer without one is drawn over the position's box.
	OldBoxes map[TileLayer]geom.Box3
}

// SwapsOverlay returns the overlay "swaps" for the live mesh m of grid:
// for the last entry of each position of v.Tiles, the outline of the
// walkable area of every kept, replaced or added layer in SwapColour
// (appendTileOutline: wide edges, no fill, so they never mix with the
// live polygons' colours) and a frame inside the position (inset 12 % of
// the tile size) at the layer's bottom, and every removed layer as the outline of its
// old box crossed from corner to corner in SwapColour(SwapRemoved); then each position of v.Latest
// outlined in white at its lowest floor (TileMarkFrame, inset 8 % of the
// tile size). A swap whose tile is no longer in m draws nothing.
func SwapsOverlay(grid *pipeline.TileGrid, m *navmesh.Mesh, v SwapView) *Overlay {
	o := surfaceOverlay(OverlaySwaps)
	last := map[[2]int]int{}
	for i := range v.Tiles {
		last[[2]int{v.Tiles[i].TX, v.Tiles[i].TZ}] = i
	}
	for i := range v.Tiles {
		u := &v.Tiles[i]
		if last[[2]int{u.TX, u.TZ}] != i {
			continue
		}
		for _, s := range u.Swaps {
			col := SwapColour(s.Kind)
			if s.Kind == tilecache.SwapRemoved {
				b, ok := v.OldBoxes[TileLayer{u.TX, u.TZ, s.Layer}]
				if !ok {
					if b, ok = positionBox(grid, m, u.TX, u.TZ, queueInsetFrac); !ok {
						continue
					}
				}
				appendBoxEdges(o, b, col)
				y := b.Max.Y
				o.Lines = append(o.Lines,
					Vertex{geom.V3(b.Min.X, y, b.Min.Z), col}, Vertex{geom.V3(b.Max.X, y, b.Max.Z), col},
					Vertex{geom.V3(b.Max.X, y, b.Min.Z), col}, Vertex{geom.V3(b.Min.X, y, b.Max.Z), col})
				continue
			}
			if m == nil {
				continue
			}
			t, err := m.Tile(s.Ref)
			if err != nil {
				continue
			}
			appendTileOutline(o, t, col, swapLineLiftRows)
			if r, ok := positionBox(grid, m, u.TX, u.TZ, swapInsetFrac); ok {
				r.Min.Y = t.Header.BMin.Y + grid.CellHeightM
				appendRect(o, r, col, rectWidthM(grid))
			}
		}
	}
	for _, p := range v.Latest {
		if r, ok := TileMarkFrame(grid, m, p[0], p[1], rebuiltInsetFrac); ok {
			appendRect(o, r, assets.SwapLatestColour, rectWidthM(grid))
		}
	}
	return o
}

// Preview geometry: the volume corners are drawn previewLiftM above the
// clicked ground, its edges as flat ribbons previewRibbonM wide and its
// corners as squares previewCornerM across.
const (
	previewLiftM     = 0.1
	previewRibbonM   = 0.15
	previewCornerM   = 0.5
	previewFillAlpha = uint8(70)
)

// appendRibbon adds a flat ribbon of width w from a to b (horizontal
// offset perpendicular to it in x/z).
func appendRibbon(o *Overlay, a, b geom.Vec3, w float32, col color.RGBA) {
	dx, dz := b.X-a.X, b.Z-a.Z
	l := float32(geom.Hypot(float64(dx), float64(dz)))
	if !(l > 1e-6) {
		return
	}
	nx, nz := float32(-dz/l*w/2), float32(dx/l*w/2)
	o.Tris = quad(o.Tris, geom.V3(a.X+nx, a.Y, a.Z+nz), geom.V3(b.X+nx, b.Y, b.Z+nz),
		geom.V3(b.X-nx, b.Y, b.Z-nz), geom.V3(a.X-nx, a.Y, a.Z-nz), col)
}

// PreviewOverlay returns the overlay "tool-preview": ghost (when not nil)
// as white edges over a faint fill with its footprint grown by growM
// outlined in grey; and the corners of a volume being drawn (poly, metres)
// as squares joined in order by ribbons over a faint fill, the closing
// edge fainter, green when ok (the polygon so far is convex) and red
// otherwise. The corners also get points (seen through walls in the GUI).
func PreviewOverlay(ghost *voxel.Obstacle, growM float64, poly []geom.Vec3, ok bool) *Overlay {
	o := &Overlay{Name: OverlayToolPreview, Visible: true, PointSizePx: 7}
	if ghost != nil {
		appendObstacle(o, ghost, growM, previewFill, previewEdge, previewGrown)
	}
	col := previewPolyOK
	if !ok {
		col = previewPolyBad
	}
	at := func(p geom.Vec3) geom.Vec3 { p.Y += previewLiftM; return p }
	if len(poly) >= 3 {
		fill := col
		fill.A = previewFillAlpha
		for i := 1; i+1 < len(poly); i++ {
			o.Tris = append(o.Tris, Vertex{at(poly[0]), fill}, Vertex{at(poly[i]), fill}, Vertex{at(poly[i+1]), fill})
		}
	}
	for i, p := range poly {
		o.Points = append(o.Points, Vertex{at(p), col})
		c := at(p)
		h := float32(previewCornerM / 2)
		o.Tris = quad(o.Tris, geom.V3(c.X-h, c.Y, c.Z-h), geom.V3(c.X+h, c.Y, c.Z-h), geom.V3(c.X+h, c.Y, c.Z+h), geom.V3(c.X-h, c.Y, c.Z+h), col)
		if i > 0 {
			appendRibbon(o, at(poly[i-1]), c, previewRibbonM, col)
		}
	}
	if len(poly) >= 3 {
		c := previewPolyClose
		if !ok {
			c = col
		}
		appendRibbon(o, at(poly[len(poly)-1]), at(poly[0]), previewRibbonM, c)
	}
	return o
}
