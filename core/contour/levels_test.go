package contour_test

import (
	"reflect"
	"sync"
	"testing"

	"navviz/core/contour"
	"navviz/core/internal/spantest"
	"navviz/core/pipeline"
	"navviz/core/region"
	"navviz/core/voxel"
)

type partition func(*voxel.CompactHeightfield, int, int, int) (*region.Result, error)

// TestSoloLevels builds the contours of dungeon.obj and nav_test.obj as one
// tile each with the default settings and compares the counts with Recast's
// published figures (../shared/levels/README.md for dungeon: watershed 15,
// monotone 16 contours; DotRecast's RecastSoloMeshTest for nav_test:
// watershed 47, monotone 49). The published count is the number of loops
// with at least 3 simplified vertices (Recast keeps a joined hole as an
// empty contour in its list), so joined holes count; the other figures are
// ours, pinned.
func TestSoloLevels(t *testing.T) {
	s := pipeline.DefaultSettings()
	for _, tc := range []struct {
		level, name     string
		part            partition
		recast          int // Recast's contour count
		contours, holes int // ours
		verts, raws     int
	}{
		{"dungeon.obj", "watershed", region.Watershed, 15, 15, 0, 247, 2620},
		{"dungeon.obj", "monotone", region.Monotone, 16, 16, 0, 236, 3164},
		{"nav_test.obj", "watershed", region.Watershed, 47, 47, 0, 439, 6584},
		{"nav_test.obj", "monotone", region.Monotone, 49, 49, 0, 435, 8124},
	} {
		t.Run(tc.level+"/"+tc.name, func(t *testing.T) {
			chf := spantest.Solo(t, tc.level)
			regs, err := tc.part(chf, 0, s.RegionMinAreaCells(), s.RegionMergeAreaCells())
			if err != nil {
				t.Fatal(err)
			}
			set, err := contour.Build(chf, regs, s.EdgeMaxErrorCells, s.EdgeMaxLenCells(), contour.DefaultBuildFlags)
			if err != nil {
				t.Fatal(err)
			}
			kept, holes, verts, raws := 0, 0, 0, 0
			for i := range set.Loops {
				l := &set.Loops[i]
				raws += len(l.Raw)
				if len(l.Simplified) >= 3 {
					kept++
				}
				if l.IsHole() {
					holes++
				}
			}
			for _, c := range set.Contours {
				verts += len(c.Verts)
			}
			t.Logf("%s %s: region Count %d, %d loops (%d kept, %d holes), %d contours, %d simplified and %d raw vertices",
				tc.level, tc.name, regs.Count, len(set.Loops), kept, holes, len(set.Contours), verts, raws)
			if kept != tc.recast {
				t.Errorf("%d loops of 3 or more vertices, want Recast's %d", kept, tc.recast)
			}
			if len(set.Contours) != tc.contours || holes != tc.holes || verts != tc.verts || raws != tc.raws {
				t.Errorf("got %d contours, %d holes, %d vertices, %d raw vertices; pinned %d, %d, %d, %d",
					len(set.Contours), holes, verts, raws, tc.contours, tc.holes, tc.verts, tc.raws)
			}
			again, err := contour.Build(chf, regs, s.EdgeMaxErrorCells, s.EdgeMaxLenCells(), contour.DefaultBuildFlags)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(set, again) {
				t.Error("two builds differ")
			}
			recastScan(t, chf, regs, set)
		})
	}
}

// recastScan checks docs/contours.md §10.2: Recast's scan (one walk per span,
// from its first flagged direction) finds the same loops, each starting at
// its smallest key.
func recastScan(t *testing.T, chf *voxel.CompactHeightfield, regs *region.Result, set *contour.Set) {
	t.Helper()
	flags, err := contour.EdgeFlags(chf, regs, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i := range chf.Spans {
		if flags[i] == 0 {
			continue
		}
		d := 0
		for flags[i]&(1<<d) == 0 {
			d++
		}
		l, err := contour.TraceLoop(chf, regs, flags, i, d)
		if err != nil {
			t.Fatal(err)
		}
		if n >= len(set.Loops) || !reflect.DeepEqual(l.Raw, set.Loops[n].Raw) || !reflect.DeepEqual(l.Keys, set.Loops[n].Keys) {
			t.Fatalf("Recast's scan: loop %d differs", n)
		}
		n++
	}
	if n != len(set.Loops) {
		t.Fatalf("Recast's scan finds %d loops, Build %d", n, len(set.Loops))
	}
}

var cityRegs struct {
	once sync.Once
	regs []*region.Result
	err  error
}

// cityTiles returns every city tile with walkable spans (spantest.Tiles,
// default settings) and its watershed regions.
func cityTiles(t testing.TB) ([]*voxel.CompactHeightfield, []*region.Result) {
	t.Helper()
	tiles := spantest.Tiles(t, "city")
	cityRegs.once.Do(func() {
		s := pipeline.DefaultSettings()
		for _, chf := range tiles {
			regs, err := region.Watershed(chf, s.BorderCells(), s.RegionMinAreaCells(), s.RegionMergeAreaCells())
			if err != nil {
				cityRegs.err = err
				return
			}
			cityRegs.regs = append(cityRegs.regs, regs)
		}
	})
	if cityRegs.err != nil {
		t.Fatal(cityRegs.err)
	}
	return tiles, cityRegs.regs
}

// TestCityTiles builds every city tile and checks the tile-border contract:
// no contour vertex lies inside the border ring, and every simplified edge
// facing a border region lies on a side of the tile.
func TestCityTiles(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	tiles, regs := cityTiles(t)
	s := pipeline.DefaultSettings()
	contours, verts := 0, 0
	for i, chf := range tiles {
		set, err := contour.Build(chf, regs[i], s.EdgeMaxErrorCells, s.EdgeMaxLenCells(), contour.DefaultBuildFlags)
		if err != nil {
			t.Fatal(err)
		}
		recastScan(t, chf, regs[i], set)
		if m, err := region.Monotone(chf, s.BorderCells(), s.RegionMinAreaCells(), s.RegionMergeAreaCells()); err != nil {
			t.Fatal(err)
		} else if ms, err := contour.Build(chf, m, s.EdgeMaxErrorCells, s.EdgeMaxLenCells(), contour.DefaultBuildFlags); err != nil {
			t.Fatal(err)
		} else {
			recastScan(t, chf, m, ms)
		}
		b, w, h := int32(set.Border), int32(set.Width), int32(set.Height)
		for _, c := range set.Contours {
			contours++
			verts += len(c.Verts)
			for _, v := range c.Verts {
				if v.X < b || v.Z < b || v.X > w-b || v.Z > h-b {
					t.Fatalf("tile %d: vertex (%d, %d) in the border ring", i, v.X, v.Z)
				}
			}
		}
		// Loop by loop (a contour's hole bridges copy the flags of the
		// vertices they start from).
		for _, l := range set.Loops {
			for k, v := range l.Simplified {
				n := l.Simplified[(k+1)%len(l.Simplified)]
				if v.Flags&uint32(region.BorderFlag) != 0 {
					side := (v.X == n.X && (v.X == b || v.X == w-b)) || (v.Z == n.Z && (v.Z == b || v.Z == h-b))
					if !side {
						t.Errorf("tile %d region %d: border edge (%d,%d)-(%d,%d) off the tile's sides", i, l.Region, v.X, v.Z, n.X, n.Z)
					}
				}
			}
		}
		// One border region for the whole ring (as the layer partition
		// makes) gives the same loops as Recast's four border strips, but
		// for the neighbour id of border edges.
		one := &region.Result{IDs: append([]uint16(nil), regs[i].IDs...), Count: regs[i].Count}
		for k, id := range one.IDs {
			if id&region.BorderFlag != 0 {
				one.IDs[k] = region.BorderFlag | 1
			}
		}
		ring, err := contour.Build(chf, one, s.EdgeMaxErrorCells, s.EdgeMaxLenCells(), contour.DefaultBuildFlags)
		if err != nil {
			t.Fatal(err)
		}
		if len(ring.Loops) != len(set.Loops) || len(ring.Contours) != len(set.Contours) {
			t.Fatalf("tile %d: one ring region gives %d loops, four strips %d", i, len(ring.Loops), len(set.Loops))
		}
		norm := func(v contour.Vertex) contour.Vertex {
			if v.Flags&uint32(region.BorderFlag) != 0 {
				v.Flags = v.Flags&^contour.RegionMask | uint32(region.BorderFlag)
			}
			return v
		}
		for k := range set.Loops {
			a, b := set.Loops[k].Simplified, ring.Loops[k].Simplified
			same := len(a) == len(b)
			for j := 0; same && j < len(a); j++ {
				same = norm(a[j]) == norm(b[j])
			}
			if !same {
				t.Errorf("tile %d loop %d: one ring region %v, four strips %v", i, k, b, a)
			}
		}
	}
	t.Logf("city: %d tiles, %d contours, %d vertices", len(tiles), contours, verts)
}

// BenchmarkContoursCityTile builds the contours of one city tile (default
// settings, watershed regions), cycling through every walkable tile.
func BenchmarkContoursCityTile(b *testing.B) {
	tiles, regs := cityTiles(b)
	s := pipeline.DefaultSettings()
	spans := 0
	for _, c := range tiles {
		spans += len(c.Spans)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		k := i % len(tiles)
		if _, err := contour.Build(tiles[k], regs[k], s.EdgeMaxErrorCells, s.EdgeMaxLenCells(), contour.DefaultBuildFlags); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(spans)/float64(len(tiles)), "spans/tile")
}

// BenchmarkEdgeFlagsCityTile measures the first step alone.
func BenchmarkEdgeFlagsCityTile(b *testing.B) {
	tiles, regs := cityTiles(b)
	var buf []uint8
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		k := i % len(tiles)
		var err error
		if buf, err = contour.EdgeFlags(tiles[k], regs[k], buf); err != nil {
			b.Fatal(err)
		}
	}
}
