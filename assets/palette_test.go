package assets

import (
	"image/color"
	"testing"
)

func dist(a, b color.RGBA) int {
	d := func(x, y uint8) int {
		if x > y {
			return int(x - y)
		}
		return int(y - x)
	}
	return d(a.R, b.R) + d(a.G, b.G) + d(a.B, b.B)
}

func TestAreaColours(t *testing.T) {
	if AreaColour(0) != AreaNullColour || AreaColour(63) != AreaWalkableColour {
		t.Error("fixed area colours")
	}
	for a := 0; a < 256; a++ {
		c := AreaColour(uint8(a))
		if c.A != 255 {
			t.Fatalf("area %d: alpha %d", a, c.A)
		}
		if c != AreaColour(uint8(a)) {
			t.Fatalf("area %d: not deterministic", a)
		}
	}
	// User areas differ from each other and from the fixed colours.
	for a := 1; a <= 62; a++ {
		ca := AreaColour(uint8(a))
		for _, f := range []color.RGBA{AreaNullColour, AreaWalkableColour} {
			if dist(ca, f) < 24 {
				t.Errorf("area %d %v too close to fixed colour %v", a, ca, f)
			}
		}
		for b := a + 1; b <= 62; b++ {
			if cb := AreaColour(uint8(b)); dist(ca, cb) < 12 {
				t.Errorf("areas %d and %d: %v and %v", a, b, ca, cb)
			}
		}
	}
}

func TestRegionColours(t *testing.T) {
	if RegionColour(0) != RegionNoneColour {
		t.Error("region 0")
	}
	// Consecutive regions (neighbours are often consecutive) differ strongly.
	for i := uint32(1); i < 5000; i++ {
		if d := dist(RegionColour(i), RegionColour(i+1)); d < 120 {
			t.Errorf("regions %d and %d: %v and %v (distance %d)", i, i+1, RegionColour(i), RegionColour(i+1), d)
		}
	}
	// Pinned values: the palette is part of the golden pictures.
	if got := Distinct(1); got != (color.RGBA{0x00, 0x3e, 0xd7, 0xff}) {
		t.Errorf("Distinct(1) = %#v", got)
	}
}
