package tilecache

import (
	"flag"
	"math"
	"os"
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"navviz/core/geom"
	"navviz/core/pipeline"
	"navviz/core/voxel"
)

// defaultRapidChecks is the number of histories TestRandomHistories checks
// per configuration unless -rapid.checks (or RAPID_CHECKS) asks for another
// number: enough for CI in a few seconds; run with -rapid.checks=500 to go
// further.
const defaultRapidChecks = 30

// withRapidChecks sets rapid's check count to n for the duration of a test
// unless the command line or the environment chose one, and returns the
// function that puts it back.
func withRapidChecks(n int) func() {
	set := os.Getenv("RAPID_CHECKS") != ""
	flag.Visit(func(f *flag.Flag) {
		if f.Name == "rapid.checks" {
			set = true
		}
	})
	f := flag.Lookup("rapid.checks")
	if set || f == nil {
		return func() {}
	}
	old := f.Value.String()
	_ = f.Value.Set(strconv.Itoa(n))
	return func() { _ = f.Value.Set(old) }
}

// TestRandomHistories is the property test of build3d-runtime.md's
// "Rebuilding": random histories of adding and removing obstacles of every
// shape and area volumes, with updates of random budgets in between; once
// the queue is empty, the mesh equals (tile for tile, byte for byte) a
// fresh build of the same level with the final obstacles and volumes baked
// into the settings. Positions are drawn near the polygons of the level so
// that shapes cut real walkable area; removing everything at the end gives
// back the first build's tiles.
func TestRandomHistories(t *testing.T) {
	defer withRapidChecks(defaultRapidChecks)()
	for _, k := range []config{
		{"city", pipeline.Layers, true},
		{"city", pipeline.Watershed, false},
		{"dungeon", pipeline.Watershed, false},
		{"dungeon", pipeline.Layers, true},
	} {
		t.Run(k.String(), func(t *testing.T) {
			f := getFixture(t, k)
			pts := walkablePoints(t, f.cache.Mesh())
			original := plainOf(t, f)
			grid := f.cache.Grid()
			rapid.Check(t, func(rt *rapid.T) {
				c := f.reset(t)
				point := func(label string) geom.Vec3 {
					p := pts[rapid.IntRange(0, len(pts)-1).Draw(rt, label)]
					dx := rapid.Float32Range(-2, 2).Draw(rt, label+" dx")
					dz := rapid.Float32Range(-2, 2).Draw(rt, label+" dz")
					return geom.V3(p.X+dx, p.Y, p.Z+dz)
				}
				size := func(label string, lo float32) float32 { return rapid.Float32Range(lo, 4).Draw(rt, label) }
				// touched collects the x/z boxes of every shape of the
				// history: only tiles near them can differ from the first
				// build (the others are checked against it).
				var touched [][4]float64
				steps := rapid.IntRange(1, 8).Draw(rt, "steps")
				for i := 0; i < steps; i++ {
					switch op := rapid.IntRange(0, 6).Draw(rt, "op"); op {
					case 0, 1, 2:
						var o voxel.Obstacle
						p := point("at")
						switch op {
						case 0:
							o = voxel.Cylinder(geom.V3(p.X, p.Y-size("below", 0), p.Z), size("r", 0.05), size("h", 0))
						case 1:
							lo := geom.V3(p.X-size("-x", 0), p.Y-size("-y", 0), p.Z-size("-z", 0))
							o = voxel.Box(lo, geom.V3(p.X+size("+x", 0), p.Y+size("+y", 0), p.Z+size("+z", 0)))
						case 2:
							yaw := rapid.Float32Range(-7, 7).Draw(rt, "yaw")
							o = voxel.OrientedBox(p, geom.V3(size("hx", 0.05), size("hy", 0), size("hz", 0.05)), yaw)
						}
						if _, err := c.AddObstacle(o); err != nil {
							rt.Fatalf("AddObstacle(%+v): %v", o, err)
						}
						a, b, cc, d := o.GrownBoundsXZ(c.ObstacleGrowthM())
						touched = append(touched, [4]float64{a, b, cc, d})
					case 3:
						p := point("volume")
						n := rapid.IntRange(3, 6).Draw(rt, "corners")
						r := size("radius", 0.5)
						a0 := rapid.Float64Range(0, 2*math.Pi).Draw(rt, "turn")
						var vol voxel.ConvexVolume
						for j := 0; j < n; j++ {
							s, co := math.Sincos(a0 + 2*math.Pi*float64(j)/float64(n))
							vol.VertsXZ = append(vol.VertsXZ, [2]float32{p.X + r*float32(co), p.Z + r*float32(s)})
						}
						vol.MinYM, vol.MaxYM = p.Y-size("vy-", 0), p.Y+size("vy+", 0)
						vol.Area = uint8(rapid.IntRange(0, int(voxel.MaxArea)).Draw(rt, "area"))
						if vol.Validate() != nil {
							continue // a degenerate polygon (float32 rounding)
						}
						if _, err := c.AddVolume(vol); err != nil {
							rt.Fatalf("AddVolume: %v", err)
						}
						m := volumeEntryOf(0, vol)
						touched = append(touched, [4]float64{m.minX, m.minZ, m.maxX, m.maxZ})
					case 4:
						if obs := c.Obstacles(); len(obs) > 0 {
							id := obs[rapid.IntRange(0, len(obs)-1).Draw(rt, "remove obstacle")].ID
							if err := c.RemoveObstacle(id); err != nil {
								rt.Fatal(err)
							}
						}
					case 5:
						if vols := c.Volumes(); len(vols) > 0 {
							id := vols[rapid.IntRange(0, len(vols)-1).Draw(rt, "remove volume")].ID
							if err := c.RemoveVolume(id); err != nil {
								rt.Fatal(err)
							}
						}
					case 6:
						if _, err := c.Update(rapid.IntRange(0, 4).Draw(rt, "budget")); err != nil {
							rt.Fatal(err)
						}
					}
				}
				budget := rapid.IntRange(1, 5).Draw(rt, "final budget")
				for c.QueueLen() > 0 {
					if _, err := c.Update(budget); err != nil {
						rt.Fatal(err)
					}
				}
				// The tiles near a shape are built fresh; the others are
				// the first build's.
				var near, far [][2]int
				for tz := 0; tz < grid.TilesZ; tz++ {
					for tx := 0; tx < grid.TilesX; tx++ {
						bg, _ := grid.BuildGrid(tx, tz)
						hit := false
						for _, b := range touched {
							const m = 1 // metres of slack
							if float64(bg.MaxM.X)+m >= b[0] && float64(bg.OriginM.X)-m <= b[2] && float64(bg.MaxM.Z)+m >= b[1] && float64(bg.OriginM.Z)-m <= b[3] {
								hit = true
							}
						}
						if hit {
							near = append(near, [2]int{tx, tz})
						} else {
							far = append(far, [2]int{tx, tz})
						}
					}
				}
				obs, vols := cacheShapes(c)
				s := withShapes(k.settings(), obs, vols)
				got := meshTiles(t, c.Mesh())
				if err := sameTiles(tilesAt(got, near), freshTiles(t, &s, f.src, near)); err != nil {
					rt.Fatalf("near the shapes (%d obstacles, %d volumes): %v", len(obs), len(vols), err)
				}
				if err := sameTiles(tilesAt(got, far), tilesAt(original, far)); err != nil {
					rt.Fatalf("away from the shapes: %v", err)
				}
				// Removing everything gives back the first build's tiles.
				if rapid.Bool().Draw(rt, "remove all") {
					for _, o := range c.Obstacles() {
						_ = c.RemoveObstacle(o.ID)
					}
					for _, v := range c.Volumes() {
						_ = c.RemoveVolume(v.ID)
					}
					if _, err := c.UpdateAll(); err != nil {
						rt.Fatal(err)
					}
					if err := sameTiles(meshTiles(t, c.Mesh()), original); err != nil {
						rt.Fatalf("after removing everything: %v", err)
					}
				}
			})
		})
	}
}
