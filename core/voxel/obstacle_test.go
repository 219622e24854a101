package voxel

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"navviz/core/geom"
)

func TestObstacleValidate(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	big := float32(1<<21 + 1024) // beyond ±2^21 (float32 spacing there is 0.25)
	edge := float32(1 << 21)
	v := geom.V3
	for _, tc := range []struct {
		name string
		o    Obstacle
		want string // the message names this value
	}{
		{"shape 0", Obstacle{}, "shape = 0"},
		{"shape 9", Obstacle{Shape: 9}, "shape = 9"},
		// Cylinder.
		{"cyl base x NaN", Cylinder(v(nan, 0, 0), 1, 1), "cylinder base x = NaN"},
		{"cyl base y +Inf", Cylinder(v(0, inf, 0), 1, 1), "cylinder base y = +Inf"},
		{"cyl base z -Inf", Cylinder(v(0, 0, -inf), 1, 1), "cylinder base z = -Inf"},
		{"cyl base x big", Cylinder(v(big, 0, 0), 1, 1), "cylinder base x = 2.098176e+06"},
		{"cyl base z -big", Cylinder(v(0, 0, -big), 1, 1), "cylinder base z = -2.098176e+06"},
		{"cyl radius NaN", Cylinder(v(0, 0, 0), nan, 1), "cylinder radius = NaN"},
		{"cyl radius 0", Cylinder(v(0, 0, 0), 0, 1), "cylinder radius = 0"},
		{"cyl radius -1", Cylinder(v(0, 0, 0), -1, 1), "cylinder radius = -1"},
		{"cyl radius Inf", Cylinder(v(0, 0, 0), inf, 1), "cylinder radius = +Inf"},
		{"cyl radius big", Cylinder(v(0, 0, 0), big, 1), "cylinder radius = 2.098176e+06"},
		{"cyl height NaN", Cylinder(v(0, 0, 0), 1, nan), "cylinder height = NaN"},
		{"cyl height -1", Cylinder(v(0, 0, 0), 1, -1), "cylinder height = -1"},
		{"cyl height Inf", Cylinder(v(0, 0, 0), 1, inf), "cylinder height = +Inf"},
		{"cyl extent x min", Cylinder(v(-edge, 0, 0), 1, 1), "cylinder extent x min (base x - radius) = -2.097153e+06"},
		{"cyl extent x max", Cylinder(v(edge, 0, 0), 1, 1), "cylinder extent x max (base x + radius) = 2.097153e+06"},
		{"cyl extent z min", Cylinder(v(0, 0, -edge+0.5), 1, 1), "cylinder extent z min (base z - radius)"},
		{"cyl extent z max", Cylinder(v(0, 0, edge-0.5), 1, 1), "cylinder extent z max (base z + radius)"},
		{"cyl extent y max", Cylinder(v(0, edge, 0), 1, 1), "cylinder extent y max (base y + height)"},
		// Box.
		{"box min x NaN", Box(v(nan, 0, 0), v(1, 1, 1)), "box min x = NaN"},
		{"box min y Inf", Box(v(0, -inf, 0), v(1, 1, 1)), "box min y = -Inf"},
		{"box min z big", Box(v(0, 0, -big), v(1, 1, 1)), "box min z = -2.098176e+06"},
		{"box max x NaN", Box(v(0, 0, 0), v(nan, 1, 1)), "box max x = NaN"},
		{"box max y big", Box(v(0, 0, 0), v(1, big, 1)), "box max y = 2.098176e+06"},
		{"box max z Inf", Box(v(0, 0, 0), v(1, 1, inf)), "box max z = +Inf"},
		{"box x inverted", Box(v(2, 0, 0), v(1, 1, 1)), "box min x = 2, want at most max x = 1"},
		{"box y inverted", Box(v(0, 2, 0), v(1, 1, 1)), "box min y = 2, want at most max y = 1"},
		{"box z inverted", Box(v(0, 0, 2), v(1, 1, 1)), "box min z = 2, want at most max z = 1"},
		// Oriented box.
		{"obox centre x NaN", OrientedBox(v(nan, 0, 0), v(1, 1, 1), 0), "oriented box centre x = NaN"},
		{"obox centre y big", OrientedBox(v(0, big, 0), v(1, 1, 1), 0), "oriented box centre y = 2.098176e+06"},
		{"obox centre z Inf", OrientedBox(v(0, 0, inf), v(1, 1, 1), 0), "oriented box centre z = +Inf"},
		{"obox hx 0", OrientedBox(v(0, 0, 0), v(0, 1, 1), 0), "oriented box half size x = 0"},
		{"obox hx -1", OrientedBox(v(0, 0, 0), v(-1, 1, 1), 0), "oriented box half size x = -1"},
		{"obox hx NaN", OrientedBox(v(0, 0, 0), v(nan, 1, 1), 0), "oriented box half size x = NaN"},
		{"obox hx big", OrientedBox(v(0, 0, 0), v(big, 1, 1), 0), "oriented box half size x = 2.098176e+06"},
		{"obox hy -1", OrientedBox(v(0, 0, 0), v(1, -1, 1), 0), "oriented box half size y = -1"},
		{"obox hy Inf", OrientedBox(v(0, 0, 0), v(1, inf, 1), 0), "oriented box half size y = +Inf"},
		{"obox hz 0", OrientedBox(v(0, 0, 0), v(1, 1, 0), 0), "oriented box half size z = 0"},
		{"obox hz NaN", OrientedBox(v(0, 0, 0), v(1, 1, nan), 0), "oriented box half size z = NaN"},
		{"obox yaw NaN", OrientedBox(v(0, 0, 0), v(1, 1, 1), nan), "oriented box yaw = NaN"},
		{"obox yaw Inf", OrientedBox(v(0, 0, 0), v(1, 1, 1), -inf), "oriented box yaw = -Inf"},
		{"obox yaw big", OrientedBox(v(0, 0, 0), v(1, 1, 1), big), "oriented box yaw = 2.098176e+06"},
		{"obox extent x min", OrientedBox(v(-edge, 0, 0), v(1, 1, 1), 0), "oriented box extent x min (centre x - rotated half size) = -2.097153e+06"},
		{"obox extent x max", OrientedBox(v(edge, 0, 0), v(1, 1, 1), 0), "oriented box extent x max"},
		{"obox extent z min", OrientedBox(v(0, 0, -edge), v(1, 1, 1), 0), "oriented box extent z min"},
		{"obox extent z max", OrientedBox(v(0, 0, edge), v(1, 1, 1), 0), "oriented box extent z max"},
		{"obox extent y min", OrientedBox(v(0, -edge, 0), v(1, 1, 1), 0), "oriented box extent y min (centre y - half size y)"},
		{"obox extent y max", OrientedBox(v(0, edge, 0), v(1, 1, 1), 0), "oriented box extent y max (centre y + half size y)"},
		// Turned by 90°, the long side lies along z: only z leaves the range.
		{"obox rotated extent", OrientedBox(v(0, 0, edge-5), v(10, 1, 1), math.Pi/2), "oriented box extent z max"},
	} {
		err := tc.o.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want it to name %q", tc.name, err, tc.want)
			continue
		}
		var oe *ObstacleError
		if !errors.As(err, &oe) {
			t.Errorf("%s: error %T is not an *ObstacleError", tc.name, err)
		}
		// MarkObstacle rejects it too and changes nothing.
		c := flatCompact(t, 4, 4, func(x, z int) bool { return true })
		before := append([]uint8(nil), c.Areas...)
		if _, err := MarkObstacle(c, &tc.o, 1); err == nil || !strings.HasPrefix(err.Error(), "voxel: obstacle ") {
			t.Errorf("%s: MarkObstacle err %v", tc.name, err)
		}
		if string(before) != string(c.Areas) {
			t.Errorf("%s: a rejected obstacle changed areas", tc.name)
		}
	}
	for _, o := range []Obstacle{
		Cylinder(v(0, 0, 0), 1, 0),
		Cylinder(v(edge-1, -edge, -edge+1), 1, edge),
		Box(v(1, 1, 1), v(1, 1, 1)),
		Box(v(-edge, -edge, -edge), v(edge, edge, edge)),
		OrientedBox(v(0, 0, 0), v(1, 0, 1), -123.5),
		OrientedBox(v(edge-10, 0, 0), v(5, 3, 1), 0),
	} {
		if err := o.Validate(); err != nil {
			t.Errorf("%+v: %v", o, err)
		}
	}
	c := flatCompact(t, 4, 4, func(x, z int) bool { return true })
	ok := Cylinder(v(1, 0, 1), 1, 20)
	if _, err := MarkObstacle(c, &ok, -1); err == nil {
		t.Errorf("radiusCells -1 accepted")
	}
	if _, err := MarkObstacle(c, &ok, MaxErodeRadiusCells+1); err == nil {
		t.Errorf("radiusCells %d accepted", MaxErodeRadiusCells+1)
	}
	if _, err := MarkObstacle(nil, &ok, 0); err == nil {
		t.Errorf("nil heightfield accepted")
	}
	if c.WalkableSpanCount() != 16 {
		t.Errorf("failed calls changed areas")
	}
}

func TestObstacleNormalized(t *testing.T) {
	o := Obstacle{Shape: ShapeCylinder, CentreM: geom.V3(1, 2, 3), RadiusM: 4, HeightM: 5,
		MinM: geom.V3(9, 9, 9), HalfM: geom.V3(7, 7, 7), YawRad: 3}
	if got, want := o.Normalized(), Cylinder(geom.V3(1, 2, 3), 4, 5); got != want {
		t.Errorf("Normalized = %+v, want %+v", got, want)
	}
	o.Shape = ShapeBox
	if got := o.Normalized(); got != Box(geom.V3(9, 9, 9), geom.Vec3{}) {
		t.Errorf("box Normalized = %+v", got)
	}
	o.Shape = ShapeOrientedBox
	if got := o.Normalized(); got != OrientedBox(geom.V3(1, 2, 3), geom.V3(7, 7, 7), 3) {
		t.Errorf("oriented box Normalized = %+v", got)
	}
	for s, want := range map[ObstacleShape]string{ShapeCylinder: "cylinder", ShapeBox: "box", ShapeOrientedBox: "oriented box", 0: "ObstacleShape(0)", 4: "ObstacleShape(4)"} {
		if s.String() != want {
			t.Errorf("%d.String() = %q", s, s.String())
		}
	}
}

// marks returns the area map of a 12 x 12 flat field (1 m cells, floor at
// row 10 = 10 m) after marking obs with growth radiusCells.
func marks(t *testing.T, radiusCells int, obs ...Obstacle) string {
	t.Helper()
	c := flatCompact(t, 12, 12, func(x, z int) bool { return true })
	for i := range obs {
		if _, err := MarkObstacle(c, &obs[i], radiusCells); err != nil {
			t.Fatal(err)
		}
	}
	return areaMap(c, 0)
}

func rows(r ...string) string { return strings.Join(r, "\n") + "\n" }

func TestMarkObstacleShapes(t *testing.T) {
	v := geom.V3
	// A cylinder at (6, 6) of radius 1.5: centres at distance <= 1.5 are
	// (5.5|6.5, 5.5|6.5) and the ring at dx, dz in {0.5, 1.5} with
	// 0.25+2.25 = 2.5 > 2.25, so only the 2 x 2 centre columns... plus
	// those at (±1.5, ±0.5)? 2.25 + 0.25 = 2.5 > 2.25: no.
	cyl := Cylinder(v(6, 10, 6), 1.5, 0)
	want := rows(
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWW##WWWWW",
		"WWWWW##WWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW")
	if got := marks(t, 0, cyl); got != want {
		t.Errorf("cylinder r 1.5, no growth:\n%swant\n%s", got, want)
	}
	// Growth 1 cell of 1 m: r + g = 2.5; dx, dz in {0.5, 1.5}: 0.25+2.25 =
	// 2.5 <= 6.25, 2.25+2.25 = 4.5 <= 6.25, and (2.5, 0.5): 6.5 > 6.25.
	want = rows(
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWW####WWWW",
		"WWWW####WWWW",
		"WWWW####WWWW",
		"WWWW####WWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW")
	if got := marks(t, 1, cyl); got != want {
		t.Errorf("cylinder r 1.5, growth 1:\n%swant\n%s", got, want)
	}
	// Boundary included: r + g = sqrt(0.5² + 2.5²)... choose r = 2 with
	// growth 0 so that (±2, 0) offsets from a centre at a cell centre.
	on := Cylinder(v(5.5, 10, 5.5), 2, 0)
	want = rows(
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWW#WWWWWW",
		"WWWW###WWWWW",
		"WWW#####WWWW",
		"WWWW###WWWWW",
		"WWWWW#WWWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW")
	if got := marks(t, 0, on); got != want {
		t.Errorf("cylinder boundary:\n%swant\n%s", got, want)
	}
	// A box and its growth: [2, 4] x [1, 2] grown by 1 -> [1, 5] x [0, 3]:
	// centres 1.5..4.5 in x, 0.5..2.5 in z.
	box := Box(v(2, 0, 1), v(4, 10, 2))
	want = rows(
		"W####WWWWWWW",
		"W####WWWWWWW",
		"W####WWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW")
	if got := marks(t, 1, box); got != want {
		t.Errorf("box grown by 1:\n%swant\n%s", got, want)
	}
	// Box edges on cell centres are included.
	if got := marks(t, 0, Box(v(0.5, 10, 0.5), v(1.5, 10, 0.5))); got[:13] != "##WWWWWWWWWW\n" || strings.Count(got, "#") != 2 {
		t.Errorf("box boundary:\n%s", got)
	}
	// The oriented box with yaw 0 marks what the box does; turned by 90° it
	// marks the box with x and z swapped (no centre lies near an edge).
	ob := OrientedBox(v(6, 10, 6), v(2.2, 1, 0.8), 0)
	if got, want := marks(t, 0, ob), marks(t, 0, Box(v(3.8, 9, 5.2), v(8.2, 11, 6.8))); got != want {
		t.Errorf("oriented box yaw 0:\n%swant\n%s", got, want)
	}
	ob.YawRad = math.Pi / 2
	if got, want := marks(t, 0, ob), marks(t, 0, Box(v(5.2, 9, 3.8), v(6.8, 11, 8.2))); got != want {
		t.Errorf("oriented box yaw 90°:\n%swant\n%s", got, want)
	}
	// Turned by 45° from +x towards +z: the long axis runs along (1, 1);
	// centres on the diagonal at u = ±0.71, ±2.12 are in (hx 3), those next
	// to it have |v| = 0.71 > hz 0.5.
	ob = OrientedBox(v(6, 10, 6), v(3, 1, 0.5), math.Pi/4)
	want = rows(
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWW#WWWWWWW",
		"WWWWW#WWWWWW",
		"WWWWWW#WWWWW",
		"WWWWWWW#WWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW",
		"WWWWWWWWWWWW")
	if got := marks(t, 0, ob); got != want {
		t.Errorf("oriented box yaw 45°:\n%swant\n%s", got, want)
	}
}

func TestMarkObstacleHeightRange(t *testing.T) {
	v := geom.V3
	// Floors at 10 m: ranges that end exactly at 10 include it.
	for _, tc := range []struct {
		o    Obstacle
		hits bool
	}{
		{Cylinder(v(6, 10, 6), 2, 0), true},
		{Cylinder(v(6, 8, 6), 2, 2), true},
		{Cylinder(v(6, 8, 6), 2, 1.99), false},
		{Cylinder(v(6, 10.01, 6), 2, 5), false},
		{Box(v(0, 10, 0), v(12, 10, 12)), true},
		{Box(v(0, 0, 0), v(12, 9.99, 12)), false},
		{OrientedBox(v(6, 9, 6), v(3, 1, 3), 0.3), true},
		{OrientedBox(v(6, 11, 6), v(3, 1, 3), 0.3), true},
		{OrientedBox(v(6, 11.5, 6), v(3, 1, 3), 0.3), false},
	} {
		got := strings.Contains(marks(t, 0, tc.o), "#")
		if got != tc.hits {
			t.Errorf("%+v: marked %v, want %v", tc.o, got, tc.hits)
		}
	}
}

func TestMarkObstacleIdempotentAndCount(t *testing.T) {
	v := geom.V3
	c := flatCompact(t, 12, 12, func(x, z int) bool { return x != 3 })
	a := Cylinder(v(4, 10, 4), 2, 1)
	b := Box(v(2, 9, 2), v(7, 11, 5))
	n1, err := MarkObstacle(c, &a, 1)
	if err != nil {
		t.Fatal(err)
	}
	first := areaMap(c, 0)
	n2, _ := MarkObstacle(c, &a, 1)
	if n2 != 0 || areaMap(c, 0) != first {
		t.Errorf("second marking changed %d spans", n2)
	}
	n3, _ := MarkObstacle(c, &b, 1)
	ab := areaMap(c, 0)
	d := flatCompact(t, 12, 12, func(x, z int) bool { return x != 3 })
	m1, _ := MarkObstacle(d, &b, 1)
	m2, _ := MarkObstacle(d, &a, 1)
	if areaMap(d, 0) != ab {
		t.Errorf("order matters:\n%s\n%s", ab, areaMap(d, 0))
	}
	if n1+n3 != m1+m2 || n1+n3 != 144-12-d.WalkableSpanCount() {
		t.Errorf("counts %d+%d, %d+%d, walkable left %d", n1, n3, m1, m2, d.WalkableSpanCount())
	}
}

// TestMarkObstacleReference compares MarkObstacle with a direct reading of
// the spec's table on random obstacles over a random grid with several floors
// per column, a non-unit grid and the border ring included.
func TestMarkObstacleReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	g := Grid{Width: 30, Height: 26, BorderCells: 4,
		OriginM:   geom.V3(-3.7, -2, 5.1),
		CellSizeM: 0.3, CellHeightM: 0.2}
	g.MaxM = geom.V3(g.OriginM.X+30*0.3, 40, g.OriginM.Z+26*0.3)
	hf := columnsOf(t, g, func(x, z int) []Span {
		var col []Span
		row := uint16(rng.IntN(5))
		for k := 0; k < 3; k++ {
			col = append(col, Span{MinRow: row, MaxRow: row + 1 + uint16(rng.IntN(3)), Area: uint8(rng.IntN(3)) * 31})
			row = col[k].MaxRow + 12 + uint16(rng.IntN(8))
		}
		return col
	})
	base, err := BuildCompactHeightfield(hf, 10, 4)
	if err != nil {
		t.Fatal(err)
	}
	f32 := func(lo, hi float64) float32 { return float32(lo + rng.Float64()*(hi-lo)) }
	for iter := 0; iter < 400; iter++ {
		var o Obstacle
		switch iter % 3 {
		case 0:
			o = Cylinder(geom.V3(f32(-5, 7), f32(-2, 6), f32(4, 14)), f32(0.01, 3), f32(0, 4))
		case 1:
			x0, z0, y0 := f32(-5, 7), f32(4, 14), f32(-2, 6)
			o = Box(geom.V3(x0, y0, z0), geom.V3(x0+f32(0, 3), y0+f32(0, 3), z0+f32(0, 3)))
		case 2:
			o = OrientedBox(geom.V3(f32(-5, 7), f32(-2, 6), f32(4, 14)), geom.V3(f32(0.01, 3), f32(0, 2), f32(0.01, 3)), f32(-7, 7))
		}
		radius := rng.IntN(11)
		c := base.Clone()
		if _, err := MarkObstacle(c, &o, radius); err != nil {
			t.Fatal(err)
		}
		gr := float64(radius) * 0.30000001192092896 // float64(float32(0.3))
		lo, hi := o.HeightRangeM()
		s, co := geom.SinCos(float64(o.YawRad))
		for z := 0; z < g.Height; z++ {
			for x := 0; x < g.Width; x++ {
				cx := float64(g.OriginM.X) + float64((float64(x)+0.5)*float64(g.CellSizeM))
				cz := float64(g.OriginM.Z) + float64((float64(z)+0.5)*float64(g.CellSizeM))
				var in bool
				switch o.Shape {
				case ShapeCylinder:
					dx, dz := cx-float64(o.CentreM.X), cz-float64(o.CentreM.Z)
					r := float64(o.RadiusM) + gr
					in = float64(dx*dx)+float64(dz*dz) <= r*r
				case ShapeBox:
					in = cx >= float64(o.MinM.X)-gr && cx <= float64(o.MaxM.X)+gr && cz >= float64(o.MinM.Z)-gr && cz <= float64(o.MaxM.Z)+gr
				case ShapeOrientedBox:
					dx, dz := cx-float64(o.CentreM.X), cz-float64(o.CentreM.Z)
					u := float64(dx*co) + float64(dz*s)
					w := float64(dz*co) - float64(dx*s)
					in = math.Abs(u) <= float64(o.HalfM.X)+gr && math.Abs(w) <= float64(o.HalfM.Z)+gr
				}
				cell := c.Cells[x+z*g.Width]
				for i := cell.Index; i < cell.Index+cell.Count; i++ {
					fy := float64(g.OriginM.Y) + float64(float64(c.Spans[i].Y)*float64(g.CellHeightM))
					want := base.Areas[i]
					if in && fy >= lo && fy <= hi {
						want = AreaNull
					}
					if c.Areas[i] != want {
						t.Fatalf("iter %d %+v radius %d: column (%d, %d) span %d area %d, want %d", iter, o, radius, x, z, i, c.Areas[i], want)
					}
				}
			}
		}
	}
}

func TestObstacleBoundsXZ(t *testing.T) {
	v := geom.V3
	o := Cylinder(v(1, 2, 3), 0.5, 1)
	if a, b, c, d := o.BoundsXZ(); a != 0.5 || b != 2.5 || c != 1.5 || d != 3.5 {
		t.Errorf("cylinder bounds %v %v %v %v", a, b, c, d)
	}
	o = Box(v(1, 2, 3), v(4, 5, 6))
	if a, b, c, d := o.BoundsXZ(); a != 1 || b != 3 || c != 4 || d != 6 {
		t.Errorf("box bounds %v %v %v %v", a, b, c, d)
	}
	o = OrientedBox(v(0, 0, 0), v(2, 1, 1), math.Pi/4)
	a, b, c, d := o.BoundsXZ()
	w := 3 * math.Sqrt2 / 2
	if math.Abs(a+w) > 1e-6 || math.Abs(b+w) > 1e-6 || math.Abs(c-w) > 1e-6 || math.Abs(d-w) > 1e-6 {
		t.Errorf("oriented box bounds %v %v %v %v, want ±%v", a, b, c, d, w)
	}
	// Every point of the grown footprint lies in the grown bounds, which
	// reach further than the bounds widened by g for a turned box.
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 2000; i++ {
		o := OrientedBox(v(0, 0, 0), v(float32(0.1+rng.Float64()*3), 1, float32(0.1+rng.Float64()*3)), float32(rng.Float64()*7))
		x, z := rng.Float64()*10-5, rng.Float64()*10-5
		if o.ContainsXZ(x, z, 0.6) {
			a, b, c, d := o.GrownBoundsXZ(0.6)
			if x < a-1e-12 || x > c+1e-12 || z < b-1e-12 || z > d+1e-12 {
				t.Fatalf("%+v contains (%v, %v) outside its bounds", o, x, z)
			}
		}
	}
}

// TestRowRange: the floor rows rowRange gives are exactly those whose
// RowHeightM lies in [ylo, yhi], also at the ends of the 16-bit rows and
// for ranges far outside them or empty.
func TestRowRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 11))
	for iter := range 2000 {
		g := Grid{OriginM: geom.V3(0, float32(rng.Float64()*200-100), 0), CellHeightM: float32(0.01 + rng.Float64())}
		ylo := float64(g.OriginM.Y) + (rng.Float64()*1.2-0.1)*70000*float64(g.CellHeightM)
		yhi := ylo + rng.Float64()*30 - 5
		switch iter % 4 {
		case 1: // exactly on row heights
			ylo, yhi = g.RowHeightM(rng.IntN(65536)), g.RowHeightM(rng.IntN(65536))
		case 2: // far outside
			ylo, yhi = -1e30, 1e30
		}
		rlo, rhi := rowRange(&g, ylo, yhi)
		check := func(r int) {
			h := g.RowHeightM(r)
			if want, got := h >= ylo && h <= yhi, r >= rlo && r <= rhi; want != got {
				t.Fatalf("iter %d: grid y %v ch %v, [%v, %v]: row %d (height %v) in range %v, want %v (range %d..%d)", iter, g.OriginM.Y, g.CellHeightM, ylo, yhi, r, h, got, want, rlo, rhi)
			}
		}
		for _, r := range []int{0, 1, 65534, 65535, rlo - 1, rlo, rlo + 1, rhi - 1, rhi, rhi + 1} {
			if r >= 0 && r <= 65535 {
				check(r)
			}
		}
		for range 20 {
			check(rng.IntN(65536))
		}
	}
}

// TestSpanRangeUnion: the union of span ranges, empty ones ignored.
func TestSpanRangeUnion(t *testing.T) {
	cases := []struct{ a, b, want SpanRange }{
		{SpanRange{}, SpanRange{}, SpanRange{}},
		{SpanRange{3, 7}, SpanRange{}, SpanRange{3, 7}},
		{SpanRange{}, SpanRange{3, 7}, SpanRange{3, 7}},
		{SpanRange{5, 5}, SpanRange{9, 12}, SpanRange{9, 12}},
		{SpanRange{3, 7}, SpanRange{9, 12}, SpanRange{3, 12}},
		{SpanRange{9, 12}, SpanRange{3, 7}, SpanRange{3, 12}},
		{SpanRange{2, 20}, SpanRange{3, 7}, SpanRange{2, 20}},
	}
	for _, c := range cases {
		if got := c.a.Union(c.b); got.Empty() != c.want.Empty() || !got.Empty() && got != c.want {
			t.Errorf("%+v.Union(%+v) = %+v, want %+v", c.a, c.b, got, c.want)
		}
	}
}
