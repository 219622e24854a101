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
