package assets

import "image/color"

// Fixed colours of the area palette (opaque, straight alpha).
var (
	// AreaNullColour is the colour of area id 0 (not walkable): dark grey.
	AreaNullColour = color.RGBA{64, 64, 70, 255}
	// AreaWalkableColour is the colour of area id 63, the default walkable
	// area: Recast's light blue.
	AreaWalkableColour = color.RGBA{0, 192, 255, 255}
	// RegionNoneColour is the colour of region id 0 (no region): black.
	RegionNoneColour = color.RGBA{0, 0, 0, 255}
)

// areaWalkable mirrors voxel.AreaWalkable (assets imports nothing of the
// build).
const areaWalkable = 63

// AreaColour returns the colour of area id area: AreaNullColour for 0,
// AreaWalkableColour for 63, and for 1..62 (user areas) and any other id
// Distinct(area + 7), so that area n and region n differ. It is a pure
// function of area.
func AreaColour(area uint8) color.RGBA {
	switch area {
	case 0:
		return AreaNullColour
	case areaWalkable:
		return AreaWalkableColour
	}
	return Distinct(uint32(area) + 7) // + 7: area 1 is not region 1's colour
}

// RegionColour returns the colour of region id id: RegionNoneColour for 0,
// otherwise Distinct(id). Neighbouring ids get clearly different hues.
func RegionColour(id uint32) color.RGBA {
	if id == 0 {
		return RegionNoneColour
	}
	return Distinct(id)
}

// Distinct returns a bright, opaque colour for i, computed in integers only
// (the same bits on every platform): the hue advances by the golden ratio
// of the colour wheel (about 222.5° of 360°) from one i to the next, so
// consecutive values differ strongly, and saturation and value step
// through three levels each, so that values whose hues come close again
// still differ in brightness.
func Distinct(i uint32) color.RGBA {
	const wheel = 1536 // six sextants of 256 steps
	// 949/1536 ≈ 0.6178, the golden ratio's fractional part.
	h := int((uint64(i) * 949) % wheel)
	sat := [3]int{255, 200, 150}[(i/3)%3]
	val := [3]int{255, 215, 175}[i%3]
	return hsv(h, sat, val)
}

// hsv converts hue h in [0, 1536) (256 steps per sextant), saturation and
// value in [0, 255] to an opaque RGBA colour, in integers.
func hsv(h, s, v int) color.RGBA {
	sector, f := h/256, h%256
	p := v * (255 - s) / 255
	q := v * (255 - s*f/255) / 255
	t := v * (255 - s*(255-f)/255) / 255
	var r, g, b int
	switch sector {
	case 0:
		r, g, b = v, t, p
	case 1:
		r, g, b = q, v, p
	case 2:
		r, g, b = p, v, t
	case 3:
		r, g, b = p, q, v
	case 4:
		r, g, b = t, p, v
	default:
		r, g, b = v, p, q
	}
	return color.RGBA{uint8(r), uint8(g), uint8(b), 255}
}

// The Okabe-Ito palette (Okabe and Ito, "Color Universal Design", 2002):
// eight colours that people with the common forms of colour blindness
// (protanopia, deuteranopia, tritanopia) still tell apart. The cache
// overlays that mark kinds of change (swaps) use them.
var (
	OkabeItoBlack         = color.RGBA{0, 0, 0, 255}
	OkabeItoOrange        = color.RGBA{230, 159, 0, 255}
	OkabeItoSkyBlue       = color.RGBA{86, 180, 233, 255}
	OkabeItoBluishGreen   = color.RGBA{0, 158, 115, 255}
	OkabeItoYellow        = color.RGBA{240, 228, 66, 255}
	OkabeItoBlue          = color.RGBA{0, 114, 178, 255}
	OkabeItoVermillion    = color.RGBA{213, 94, 0, 255}
	OkabeItoReddishPurple = color.RGBA{204, 121, 167, 255}
)

// Colours of the swap kinds, drawn as outlines over the live navmesh
// (whose walkable fill is AreaWalkableColour, a light blue): kept dark
// grey, replaced Okabe-Ito orange, added reddish purple, removed
// vermillion. They all stand out against the light blue (blue and green
// outlines do not), none is the yellow of the obstacles' grown footprints
// (which a replaced layer's outline follows), and they differ in
// lightness as well as hue.
var (
	SwapKeptColour     = color.RGBA{96, 96, 96, 255}
	SwapReplacedColour = OkabeItoOrange
	SwapAddedColour    = OkabeItoReddishPurple
	SwapRemovedColour  = OkabeItoVermillion
	// SwapLatestColour outlines the tiles of the latest update: white.
	SwapLatestColour = color.RGBA{255, 255, 255, 255}
)

// QueueRamp is the colour ramp of queue positions, front to back: one hue
// (Okabe-Ito yellow to a dark olive) falling in lightness, so that the
// order reads without telling hues apart (colour-blind safe) and every
// stop stands out against the walkable blue of the mesh (a ramp ending in
// a dark blue or purple, such as viridis, vanishes on it); navviz also
// writes each tile's order number on it.
var QueueRamp = [...]color.RGBA{OkabeItoYellow, {190, 180, 40, 255}, {130, 120, 10, 255}}

// Colours of the navmesh polygon drawing (as RecastDemo's debug draw):
// the fill is the area colour at PolyFillAlpha, so the level shows
// through; edges between two polygons of a tile are PolyInnerEdgeColour
// (dark, faint); edges without a neighbour (the walkable area's outline)
// are PolyBoundaryColour (dark, opaque, drawn wider); edges on a tile
// border (portals to the next tile) are PolyTileBorderColour.
var (
	PolyFillAlpha        = uint8(150)
	PolyInnerEdgeColour  = color.RGBA{0, 30, 48, 90}
	PolyBoundaryColour   = color.RGBA{0, 22, 36, 255}
	PolyTileBorderColour = color.RGBA{255, 255, 255, 170}
)
