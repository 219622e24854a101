package render

import (
	"fmt"
	"image/color"
	"iter"
	"math"
	"slices"

	"navviz/assets"
	"navviz/core/geom"
	"navviz/core/pipeline"
	"navviz/core/voxel"
)

// Overlay names of the span stages (steps 1-3), shared by navviz's View
// panel and `navmesh shot --overlays`.
const (
	// OverlaySolid: the solid spans after the filters, drawn as boxes.
	OverlaySolid = "solid"
	// OverlayWalkable: the same boxes, top faces green where the span is
	// walkable after the filters and red where it is not.
	OverlayWalkable = "walkable"
	// OverlayCompact: the open spans' floors coloured by area id.
	OverlayCompact = "compact"
	// OverlayEroded: the floors erosion removed (orange) and those that
	// stayed walkable (dimmed area colour).
	OverlayEroded = "eroded"
	// OverlayVolumes: the build-time ConvexVolumes as translucent prisms.
	OverlayVolumes = "volumes"
)

// SpanOverlayNames lists the span overlays in drawing order.
var SpanOverlayNames = []string{OverlaySolid, OverlayWalkable, OverlayCompact, OverlayEroded, OverlayVolumes}

// Colours of the span overlays (straight alpha).
var (
	solidBase       = color.RGBA{214, 190, 150, 255} // sand
	walkableTop     = color.RGBA{70, 200, 95, 255}   // green
	unwalkableTop   = color.RGBA{215, 65, 55, 255}   // red
	erodedColour    = color.RGBA{255, 140, 20, 255}  // orange
	volumeFillAlpha = uint8(72)
)

// Face shading of boxes: the brightness of each face direction, so that
// neighbouring faces of different orientation differ.
const (
	shadeTop    = float32(1.0)
	shadeBottom = float32(0.45)
	// Sides in direction order −x, +z, +x, −z (voxel.DirOffsetX/Z).
	shadeNegX = float32(0.72)
	shadePosZ = float32(0.82)
	shadePosX = float32(0.9)
	shadeNegZ = float32(0.62)
	// erodedRemainShade dims the floors erosion kept.
	erodedRemainShade = float32(0.55)
	// floorLiftRows lifts floor quads above the span top, in rows.
	floorLiftRows = float32(0.1)
)

var sideShade = [4]float32{shadeNegX, shadePosZ, shadePosX, shadeNegZ}

// TileFilter selects the tiles an overlay draws; nil selects every tile.
type TileFilter func(tx, tz int) bool

// shade scales c's colour channels by f (0..1), keeping alpha.
func shade(c color.RGBA, f float32) color.RGBA {
	s := func(v uint8) uint8 { return uint8(max(0, min(255, float32(float32(v)*f)+0.5))) }
	return color.RGBA{s(c.R), s(c.G), s(c.B), c.A}
}

// cellFrame places a heightfield's columns and rows in the world: column
// (x, z) covers global cell lines gx0+x .. gx0+x+1 (and the same for z) of
// a grid whose line k lies at baseX + k*cellSizeM; row r lies at
// baseY + r*cellHeightM. Products are rounded before the sums (no fused
// multiply-add), so output is the same on every platform, and tiles built
// on one TileGrid share their edges bit for bit.
type cellFrame struct {
	baseX, baseZ, baseY float32
	cs, ch              float32
	gx0, gz0            int
	x0, x1, z0, z1      int // the columns drawn: [x0, x1) x [z0, z1)
}

func (f *cellFrame) lineX(k int) float32 { return f.baseX + float32(float32(f.gx0+k)*f.cs) }
func (f *cellFrame) lineZ(k int) float32 { return f.baseZ + float32(float32(f.gz0+k)*f.cs) }
func (f *cellFrame) rowY(r float32) float32 {
	return f.baseY + float32(r*f.ch)
}

// gridFrame is the frame of a standalone heightfield: its own origin, every
// column except the border ring.
func gridFrame(g *voxel.Grid) cellFrame {
	b := g.BorderCells
	return cellFrame{
		baseX: g.OriginM.X, baseZ: g.OriginM.Z, baseY: g.OriginM.Y,
		cs: g.CellSizeM, ch: g.CellHeightM,
		x0: b, x1: g.Width - b, z0: b, z1: g.Height - b,
	}
}

// tileFrame is the frame of tile t of build b: global cell lines of b.Grid,
// the tile's own columns only (not its border ring).
func tileFrame(b *pipeline.Build, t *pipeline.TileBuild, g *voxel.Grid) cellFrame {
	f := gridFrame(g)
	f.baseX, f.baseZ = b.Grid.BoundsM.Min.X, b.Grid.BoundsM.Min.Z
	f.gx0, f.gz0 = b.Grid.BuildGridCellOffset(t.TX, t.TZ)
	return f
}

// quad appends the two triangles of the quad a-b-c-d (in order around its
// rim) in colour col.
func quad(dst []Vertex, a, b, c, d geom.Vec3, col color.RGBA) []Vertex {
	return append(dst, Vertex{a, col}, Vertex{b, col}, Vertex{c, col},
		Vertex{a, col}, Vertex{c, col}, Vertex{d, col})
}

// boxColour gives the colour of a box face: the span's area id, and face
// -1 for the top, -2 for the bottom, or the side direction 0..3.
type boxColour func(area uint8, face int) color.RGBA

// appendBoxes appends, as triangles, the visible faces of the solid spans
// of h in the columns of frame f: the top face of every span (a column's
// spans have gaps, so tops are always open), its bottom face unless the
// span starts at row 0 (the bottom of the grid, only visible from below the
// level), and for each of the four sides the parts of the span's row range
// that the neighbour column's spans do not cover (a column outside the grid
// covers nothing). Faces are merged (see merge.go): the tops of one row and
// colour into rectangles, the bottoms likewise, and equal side pieces of
// consecutive columns along a grid line into one face; every face is a quad
// (two triangles). The faces cover exactly the unit faces of the spans, each
// once. Columns are visited in order z, x, spans bottom up, so the output
// is deterministic: side faces in the order they finish, then the tops,
// then the bottoms. ms holds the mergers' buffers, reused from call to call
// (nil: fresh ones).
func appendBoxes(dst []Vertex, h *voxel.Heightfield, f *cellFrame, colour boxColour, ms *boxMergers) []Vertex {
	w, hh := f.x1-f.x0, f.z1-f.z0
	if w <= 0 || hh <= 0 {
		return dst
	}
	if ms == nil {
		ms = new(boxMergers)
	}
	tops, bottoms, sides := &ms.tops, &ms.bottoms, &ms.sides
	clear(ms.known[:])
	faces := func(area uint8) *[6]color.RGBA { // colours by face+2: bottom, top, sides
		t := &ms.colours[area]
		if !ms.known[area] {
			for face := -2; face < 4; face++ {
				t[face+2] = colour(area, face)
			}
			ms.known[area] = true
		}
		return t
	}
	tops.reset(w, hh)
	bottoms.reset(w, hh)
	// Sides: -x and +x faces run along z, one slot per column x; +z and
	// -z faces run along x, one slot, flushed at the end of each row z.
	z := f.z0
	for d := range sides {
		slots := 1
		if d == 0 || d == 2 {
			slots = w
		}
		sides[d].reset(slots)
		sides[d].emit = func(slot int, r sideRun) {
			ya, yb := f.rowY(float32(r.lo)), f.rowY(float32(r.hi))
			var p, q geom.Vec3 // the face's bottom edge, along the side
			switch d {
			case 0:
				x := f.lineX(f.x0 + slot)
				p, q = geom.V3(x, ya, f.lineZ(r.first)), geom.V3(x, ya, f.lineZ(r.last+1))
			case 1:
				zb := f.lineZ(z + 1)
				p, q = geom.V3(f.lineX(r.first), ya, zb), geom.V3(f.lineX(r.last+1), ya, zb)
			case 2:
				x := f.lineX(f.x0 + slot + 1)
				p, q = geom.V3(x, ya, f.lineZ(r.last+1)), geom.V3(x, ya, f.lineZ(r.first))
			default:
				za := f.lineZ(z)
				p, q = geom.V3(f.lineX(r.last+1), ya, za), geom.V3(f.lineX(r.first), ya, za)
			}
			pt, qt := p, q
			pt.Y, qt.Y = yb, yb
			dst = quad(dst, p, q, qt, pt, r.col)
		}
	}
	var col, nb []voxel.Span
	for ; z < f.z1; z++ {
		for x := f.x0; x < f.x1; x++ {
			col = h.AppendColumn(col[:0], x, z)
			if len(col) == 0 {
				continue
			}
			for _, s := range col {
				fc := faces(s.Area)
				tops.add(x-f.x0, z-f.z0, makePlaneKey(uint32(s.MaxRow), fc[1]))
				if s.MinRow > 0 {
					bottoms.add(x-f.x0, z-f.z0, makePlaneKey(uint32(s.MinRow), fc[0]))
				}
			}
			for d := 0; d < 4; d++ {
				slot, at := 0, x
				if d == 0 || d == 2 {
					slot, at = x-f.x0, z
				}
				m := &sides[d]
				nb = h.AppendColumn(nb[:0], x+voxel.DirOffsetX[d], z+voxel.DirOffsetZ[d])
				for _, s := range col {
					c := faces(s.Area)[d+2]
					forUncovered(int(s.MinRow), int(s.MaxRow), nb, func(lo, hi int) { m.add(slot, at, lo, hi, c) })
				}
				m.endCell(slot, at)
			}
		}
		sides[1].flush(0)
		sides[3].flush(0)
	}
	for slot := 0; slot < w; slot++ {
		sides[0].flush(slot)
		sides[2].flush(slot)
	}
	dst = mergedQuads(dst, tops, f, 0, true)
	return mergedQuads(dst, bottoms, f, 0, false)
}

// mergedQuads merges the squares of m (rectMerger.merge, whose grid is
// the columns of frame f) and appends each rectangle as a quad at its
// group's row plus liftRows in its group's colour, wound to face up
// (a span top, a floor) or down (a span bottom).
func mergedQuads(dst []Vertex, m *rectMerger, f *cellFrame, liftRows float32, facingUp bool) []Vertex {
	m.merge(func(k planeKey, x0, z0, x1, z1 int) {
		y := f.rowY(float32(k.row()) + liftRows)
		xa, xb := f.lineX(f.x0+x0), f.lineX(f.x0+x1)
		za, zb := f.lineZ(f.z0+z0), f.lineZ(f.z0+z1)
		if facingUp {
			dst = quad(dst, geom.V3(xa, y, za), geom.V3(xa, y, zb), geom.V3(xb, y, zb), geom.V3(xb, y, za), k.colour())
		} else {
			dst = quad(dst, geom.V3(xa, y, za), geom.V3(xb, y, za), geom.V3(xb, y, zb), geom.V3(xa, y, zb), k.colour())
		}
	})
	return dst
}

// boxMergers are the mergers of appendBoxes: span tops, span bottoms and
// the sides in each direction.
type boxMergers struct {
	tops, bottoms rectMerger
	sides         [4]sideMerger
	// colours caches the face colours of each area id (index face+2 of
	// boxColour's face) where known says so.
	colours [256][6]color.RGBA
	known   [256]bool
}

// forUncovered calls emit for each maximal interval of rows [lo, hi) not
// covered by the spans of nb (sorted, with gaps), bottom up.
func forUncovered(lo, hi int, nb []voxel.Span, emit func(lo, hi int)) {
	cur := lo
	for _, n := range nb {
		a, b := int(n.MinRow), int(n.MaxRow)
		if b <= cur {
			continue
		}
		if a >= hi {
			break
		}
		if a > cur {
			emit(cur, a)
		}
		cur = max(cur, b)
		if cur >= hi {
			return
		}
	}
	if cur < hi {
		emit(cur, hi)
	}
}

// faceShade returns the shading factor of box face face (see boxColour).
func faceShade(face int) float32 {
	switch face {
	case -1:
		return shadeTop
	case -2:
		return shadeBottom
	}
	return sideShade[face&3]
}

func solidColour(_ uint8, face int) color.RGBA { return shade(solidBase, faceShade(face)) }

func walkableColour(area uint8, face int) color.RGBA {
	c := walkableTop
	if area == voxel.AreaNull {
		c = unwalkableTop
	}
	return shade(c, faceShade(face))
}

// floorColour gives the colour of open span i of a compact heightfield, and
// whether to draw it.
type floorColour func(i int) (color.RGBA, bool)

// appendFloors appends the floors of the open spans of c in the columns of
// frame f that floorColour accepts, at the span's floor height (lifted a
// tenth of a row so it does not fight with the surface below): the floors
// of one height and colour merged into rectangles (see rectMerger), each a
// quad. The quads cover exactly the accepted spans' floor cells, each once,
// in a deterministic order. m's buffers are reused from call to call (nil:
// a fresh merger).
func appendFloors(dst []Vertex, c *voxel.CompactHeightfield, f *cellFrame, colour floorColour, m *rectMerger) []Vertex {
	w, h := f.x1-f.x0, f.z1-f.z0
	if w <= 0 || h <= 0 {
		return dst
	}
	if m == nil {
		m = new(rectMerger)
	}
	m.reset(w, h)
	for z := f.z0; z < f.z1; z++ {
		for x := f.x0; x < f.x1; x++ {
			cell := c.Cells[x+z*c.Width]
			for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
				if col, ok := colour(i); ok {
					m.add(x-f.x0, z-f.z0, makePlaneKey(uint32(c.Spans[i].Y), col))
				}
			}
		}
	}
	return mergedQuads(dst, m, f, floorLiftRows, true)
}

// surfaceOverlay returns an empty, visible overlay named name whose faces
// lie on or just above the level's surfaces (the span, mesh and cache
// overlays).
func surfaceOverlay(name string) *Overlay {
	return &Overlay{Name: name, Visible: true}
}

// selectedTiles yields the index and the tile of every tile of b that keep
// selects, in b.Tiles order (none when b is nil).
func selectedTiles(b *pipeline.Build, keep TileFilter) iter.Seq2[int, *pipeline.TileBuild] {
	return func(yield func(int, *pipeline.TileBuild) bool) {
		if b == nil {
			return
		}
		for i := range b.Tiles {
			t := &b.Tiles[i]
			if (keep == nil || keep(t.TX, t.TZ)) && !yield(i, t) {
				return
			}
		}
	}
}

// boxesOverlay draws the solid heightfields kept in b's stages.
func boxesOverlay(name string, b *pipeline.Build, keep TileFilter, colour boxColour) *Overlay {
	o := surfaceOverlay(name)
	var ms boxMergers
	for _, t := range selectedTiles(b, keep) {
		if t.Stages == nil || t.Stages.Solid == nil {
			continue
		}
		f := tileFrame(b, t, &t.Stages.Solid.Grid)
		o.Tris = appendBoxes(o.Tris, t.Stages.Solid, &f, colour, &ms)
	}
	return o
}

// SolidOverlay returns the overlay "solid": the solid spans of the tiles of
// b that keep selects (each tile's own columns, not its border ring), after
// the filters, as sand-coloured boxes with only their visible faces (see
// appendBoxes), shaded by face direction. It needs b built with
// BuildOptions.KeepStages (otherwise it is empty). Tiles without a walkable
// span are not in b and not drawn.
func SolidOverlay(b *pipeline.Build, keep TileFilter) *Overlay {
	return boxesOverlay(OverlaySolid, b, keep, solidColour)
}

// WalkableOverlay returns the overlay "walkable": the boxes of SolidOverlay
// coloured green where the span is walkable after the filters (area id not
// 0) and red where it is not, shaded by face direction.
func WalkableOverlay(b *pipeline.Build, keep TileFilter) *Overlay {
	return boxesOverlay(OverlayWalkable, b, keep, walkableColour)
}

// CompactOverlay returns the overlay "compact": the floor of every open
// span of the selected tiles' compact heightfields (steps 1-3 done),
// coloured by its final area id (assets.AreaColour: dark grey for 0, blue
// for 63, distinct colours for user areas), floors of one height and colour
// merged into rectangles (appendFloors). It does not need the kept stages.
func CompactOverlay(b *pipeline.Build, keep TileFilter) *Overlay {
	o := surfaceOverlay(OverlayCompact)
	var m rectMerger
	for _, t := range selectedTiles(b, keep) {
		if t.Spans == nil {
			continue
		}
		c := t.Spans
		f := tileFrame(b, t, &c.Grid)
		o.Tris = appendFloors(o.Tris, c, &f, func(i int) (color.RGBA, bool) {
			return assets.AreaColour(c.Areas[i]), true
		}, &m)
	}
	return o
}

// ErodedOverlay returns the overlay "eroded": the floors of the open spans
// that were walkable before erosion, orange where erosion made them
// unwalkable and in their area colour dimmed where they stayed walkable
// (before the build-time volumes). It needs b built with
// BuildOptions.KeepStages (otherwise it is empty).
func ErodedOverlay(b *pipeline.Build, keep TileFilter) *Overlay {
	o := surfaceOverlay(OverlayEroded)
	var m rectMerger
	for _, t := range selectedTiles(b, keep) {
		st := t.Stages
		if t.Spans == nil || st == nil || len(st.PreErosionAreas) != len(t.Spans.Spans) || len(st.ErodedAreas) != len(t.Spans.Spans) {
			continue
		}
		f := tileFrame(b, t, &t.Spans.Grid)
		o.Tris = appendFloors(o.Tris, t.Spans, &f, func(i int) (color.RGBA, bool) {
			switch {
			case st.PreErosionAreas[i] == voxel.AreaNull:
				return color.RGBA{}, false
			case st.ErodedAreas[i] == voxel.AreaNull:
				return erodedColour, true
			}
			return shade(assets.AreaColour(st.ErodedAreas[i]), erodedRemainShade), true
		}, &m)
	}
	return o
}

// VolumesOverlay returns the overlay "volumes": each ConvexVolume as a
// prism over its polygon from MinYM to MaxYM, filled with its area colour
// at alpha 72 (translucent: faces as triangles, the polygon fanned from its
// first corner) and outlined in the opaque area colour (lines along the top
// and bottom rims and the vertical edges). When levelBounds is not empty
// the y range is clamped to the level's height plus 1 m either way, so that
// a volume reaching to ±infinity-like heights stays in view. Volumes with
// fewer than 3 corners or a non-finite number are skipped.
func VolumesOverlay(vols []voxel.ConvexVolume, levelBounds geom.Box3) *Overlay {
	o := surfaceOverlay(OverlayVolumes)
	for _, v := range vols {
		if !drawableVolume(&v) {
			continue
		}
		y0, y1 := v.MinYM, v.MaxYM
		if !levelBounds.Empty() {
			lo, hi := levelBounds.Min.Y-1, levelBounds.Max.Y+1
			y0, y1 = min(max(y0, lo), hi), min(max(y1, lo), hi)
		}
		line := assets.AreaColour(v.Area)
		fill := line
		fill.A = volumeFillAlpha
		n := len(v.VertsXZ)
		at := func(i int, y float32) geom.Vec3 {
			p := v.VertsXZ[i%n]
			return geom.V3(p[0], y, p[1])
		}
		for i := 1; i+1 < n; i++ {
			o.Tris = append(o.Tris, Vertex{at(0, y1), fill}, Vertex{at(i, y1), fill}, Vertex{at(i+1, y1), fill})
			o.Tris = append(o.Tris, Vertex{at(0, y0), fill}, Vertex{at(i+1, y0), fill}, Vertex{at(i, y0), fill})
		}
		for i := 0; i < n; i++ {
			if y1 > y0 {
				o.Tris = quad(o.Tris, at(i, y0), at(i+1, y0), at(i+1, y1), at(i, y1), fill)
			}
			o.Lines = append(o.Lines,
				Vertex{at(i, y0), line}, Vertex{at(i+1, y0), line},
				Vertex{at(i, y1), line}, Vertex{at(i+1, y1), line},
				Vertex{at(i, y0), line}, Vertex{at(i, y1), line})
		}
	}
	return o
}

// drawableVolume reports whether v has at least 3 corners and finite
// numbers (convexity is not required to draw it).
func drawableVolume(v *voxel.ConvexVolume) bool {
	fin := func(f float32) bool { return !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0) }
	if len(v.VertsXZ) < 3 || !fin(v.MinYM) || !fin(v.MaxYM) || v.MinYM > v.MaxYM {
		return false
	}
	for _, p := range v.VertsXZ {
		if !fin(p[0]) || !fin(p[1]) {
			return false
		}
	}
	return true
}

// SpanOverlay returns the span overlay called name (one of
// SpanOverlayNames) for build b and the tiles keep selects; "volumes" draws
// b's settings' volumes clamped to its level. An unknown name is an error
// listing the valid ones.
func SpanOverlay(name string, b *pipeline.Build, keep TileFilter) (*Overlay, error) {
	switch name {
	case OverlaySolid:
		return SolidOverlay(b, keep), nil
	case OverlayWalkable:
		return WalkableOverlay(b, keep), nil
	case OverlayCompact:
		return CompactOverlay(b, keep), nil
	case OverlayEroded:
		return ErodedOverlay(b, keep), nil
	case OverlayVolumes:
		if b == nil {
			return VolumesOverlay(nil, geom.EmptyBox()), nil
		}
		return VolumesOverlay(b.Settings.Volumes, b.Grid.BoundsM), nil
	}
	return nil, fmt.Errorf("render: unknown span overlay %q, want one of %v", name, SpanOverlayNames)
}

// IsSpanOverlay reports whether name is one of SpanOverlayNames.
func IsSpanOverlay(name string) bool { return slices.Contains(SpanOverlayNames, name) }

// SelectionOverlay returns the overlay "selection": the outline of each box
// in boxes (12 edges, yellow) — navviz draws the selected tiles with it.
// Empty boxes are skipped.
func SelectionOverlay(boxes []geom.Box3) *Overlay {
	o := &Overlay{Name: OverlaySelection, Visible: true}
	col := color.RGBA{255, 225, 40, 255}
	for _, b := range boxes {
		if !b.Empty() {
			appendBoxEdges(o, b, col)
		}
	}
	return o
}

// OverlaySelection is the name of SelectionOverlay.
const OverlaySelection = "selection"
