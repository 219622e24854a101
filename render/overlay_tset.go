package render

import (
	"image/color"

	"navviz/assets"
	"navviz/core/geom"
	"navviz/core/navmesh/detour"
)

// The overlays of a Detour tile-cache file (detour.TileCache, a TSET file):
// its layers' cells drawn at their heights, coloured by layer or by area,
// the portal edges between layers and each layer's box. The file holds no
// regions (Detour finds them when it builds a tile) and no obstacles.
const (
	// OverlayTSetLayers draws every cell with a span as a square at its
	// height, coloured by the layer's index in its tile (LayerColour).
	OverlayTSetLayers = "tset-layers"
	// OverlayTSetAreas draws the same squares coloured by area id
	// (assets.AreaColour).
	OverlayTSetAreas = "tset-areas"
	// OverlayTSetPortals draws the cell edges the connections mark as a
	// portal (walkable, into another layer) in white.
	OverlayTSetPortals = "tset-portals"
	// OverlayTSetBounds draws each layer's box (BMin, BMax) as lines.
	OverlayTSetBounds = "tset-bounds"
)

// TSetOverlayNames are the tile-cache file's overlays, in drawing order.
var TSetOverlayNames = []string{OverlayTSetLayers, OverlayTSetAreas, OverlayTSetPortals, OverlayTSetBounds}

// tsetLiftRows lifts the squares a little above the cell height (in
// RowM units), so that they do not fight with a mesh drawn at it.
const tsetLiftRows = 0.1

// TSetOverlays returns the overlays of tc (TSetOverlayNames), all
// visible except the areas (a second colouring of the same squares). A nil
// cache gives empty overlays.
func TSetOverlays(tc *detour.TileCache) []*Overlay {
	layers, areas := surfaceOverlay(OverlayTSetLayers), surfaceOverlay(OverlayTSetAreas)
	areas.Visible = false
	portals := &Overlay{Name: OverlayTSetPortals, Visible: true}
	bounds := &Overlay{Name: OverlayTSetBounds, Visible: true}
	out := []*Overlay{layers, areas, portals, bounds}
	if tc == nil {
		return out
	}
	c := &tc.Cache
	var m rectMerger
	for i := range tc.Layers {
		l := &tc.Layers[i]
		w, h := int(l.Width), int(l.Height)
		// byLayer and byArea group the cells by height and colour;
		// the merged rectangles are the squares.
		for pass, o := range []*Overlay{layers, areas} {
			m.reset(w, h)
			for y := range h {
				for x := range w {
					k := x + y*w
					if l.Heights[k] == detour.LayerEmpty {
						continue
					}
					col := LayerColour(uint8(l.TLayer))
					if pass == 1 {
						col = assets.AreaColour(l.Areas[k])
					}
					m.add(x, y, makePlaneKey(uint32(l.Heights[k]), col))
				}
			}
			m.merge(func(key planeKey, x0, z0, x1, z1 int) {
				yM := cellY(l, c, float32(key.row())+tsetLiftRows)
				a, b := cellCorner(l, c, x0, z0, yM), cellCorner(l, c, x1, z0, yM)
				cc, d := cellCorner(l, c, x1, z1, yM), cellCorner(l, c, x0, z1, yM)
				o.Tris = quad(o.Tris, a, d, cc, b, key.colour())
			})
		}
		appendTSetPortals(portals, l, c)
		appendBoxLines(bounds, geom.Box3{Min: l.BMin, Max: l.BMax}, LayerColour(uint8(l.TLayer)))
	}
	return out
}

// appendTSetPortals adds the portal edges of layer l: for each cell and
// direction whose portal bit (4 + d) is set, the cell's edge on that side.
func appendTSetPortals(o *Overlay, l *detour.Layer, c *detour.CacheParams) {
	w, h := int(l.Width), int(l.Height)
	white := color.RGBA{255, 255, 255, 255}
	for y := range h {
		for x := range w {
			k := x + y*w
			if l.Heights[k] == detour.LayerEmpty || l.Cons[k]>>4 == 0 {
				continue
			}
			yM := cellY(l, c, float32(l.Heights[k])+2*tsetLiftRows)
			for d := range 4 {
				if l.Cons[k]&(1<<(4+d)) == 0 {
					continue
				}
				// The edge of cell (x, y) towards direction d (0 -x, 1 +z,
				// 2 +x, 3 -z), as corner offsets.
				e := [4][4]int{{0, 0, 0, 1}, {0, 1, 1, 1}, {1, 0, 1, 1}, {0, 0, 1, 0}}[d]
				a, b := cellCorner(l, c, x+e[0], y+e[1], yM), cellCorner(l, c, x+e[2], y+e[3], yM)
				o.Lines = append(o.Lines, Vertex{a, white}, Vertex{b, white})
			}
		}
	}
}

// cellY returns the world height of rows above l's BMin.Y.
func cellY(l *detour.Layer, c *detour.CacheParams, rows float32) float32 {
	return float32(float64(l.BMin.Y) + float64(c.RowM*rows))
}

// cellCorner returns the world position of grid corner (x, z) of l at
// height yM.
func cellCorner(l *detour.Layer, c *detour.CacheParams, x, z int, yM float32) geom.Vec3 {
	return geom.V3(float32(float64(l.BMin.X)+float64(c.CellM*float32(x))), yM,
		float32(float64(l.BMin.Z)+float64(c.CellM*float32(z))))
}

// appendBoxLines adds the twelve edges of b.
func appendBoxLines(o *Overlay, b geom.Box3, col color.RGBA) {
	var p [8]geom.Vec3
	for i := range p {
		p[i] = b.Min
		if i&1 != 0 {
			p[i].X = b.Max.X
		}
		if i&2 != 0 {
			p[i].Y = b.Max.Y
		}
		if i&4 != 0 {
			p[i].Z = b.Max.Z
		}
	}
	for i := range p {
		for _, bit := range []int{1, 2, 4} {
			if j := i | bit; j != i {
				o.Lines = append(o.Lines, Vertex{p[i], col}, Vertex{p[j], col})
			}
		}
	}
}
