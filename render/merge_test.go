package render

import (
	"bytes"
	"encoding/binary"
	"image/color"
	"math"
	"slices"
	"testing"

	"navviz/assets"
	"navviz/core/pipeline"
	"navviz/core/region"
	"navviz/core/voxel"
)

// unitFace is one unit square of a span overlay's surface: a cell's floor
// or top (dir -1), bottom (dir -2), or the side towards direction dir
// (0..3) of column (x, z) at row row; y is the height of a horizontal face
// (0 for sides).
type unitFace struct {
	dir, x, z, row int
	y              float32
	col            color.RGBA
}

// frameIndex inverts a cellFrame: grid line and row of a coordinate.
type frameIndex struct {
	xs, zs, ys map[float32]int
}

func indexFrame(f *cellFrame, maxRow int) frameIndex {
	ix := frameIndex{xs: map[float32]int{}, zs: map[float32]int{}, ys: map[float32]int{}}
	for k := f.x0 - 1; k <= f.x1+1; k++ {
		ix.xs[f.lineX(k)] = k
	}
	for k := f.z0 - 1; k <= f.z1+1; k++ {
		ix.zs[f.lineZ(k)] = k
	}
	for r := 0; r <= maxRow; r++ {
		ix.ys[f.rowY(float32(r))] = r
	}
	return ix
}

// unitFaces splits the axis-aligned quads tris (6 vertices each, one
// colour) into unit faces and counts each. A quad that is not on the
// frame's grid fails the test.
func unitFaces(t *testing.T, tris []Vertex, f *cellFrame, maxRow int) map[unitFace]int {
	t.Helper()
	ix := indexFrame(f, maxRow)
	out := map[unitFace]int{}
	if len(tris)%6 != 0 {
		t.Fatalf("%d vertices, not whole quads", len(tris))
	}
	for q := 0; q < len(tris); q += 6 {
		vs := tris[q : q+6]
		lo, hi := vs[0].Pos, vs[0].Pos
		for _, v := range vs {
			lo.X, lo.Y, lo.Z = min(lo.X, v.Pos.X), min(lo.Y, v.Pos.Y), min(lo.Z, v.Pos.Z)
			hi.X, hi.Y, hi.Z = max(hi.X, v.Pos.X), max(hi.Y, v.Pos.Y), max(hi.Z, v.Pos.Z)
			if v.Col != vs[0].Col {
				t.Fatalf("quad %d has two colours", q/6)
			}
		}
		col := vs[0].Col
		// The normal's sign from the first triangle's winding.
		a, b, c := vs[0].Pos, vs[1].Pos, vs[2].Pos
		nx := float64(b.Y-a.Y)*float64(c.Z-a.Z) - float64(b.Z-a.Z)*float64(c.Y-a.Y)
		ny := float64(b.Z-a.Z)*float64(c.X-a.X) - float64(b.X-a.X)*float64(c.Z-a.Z)
		nz := float64(b.X-a.X)*float64(c.Y-a.Y) - float64(b.Y-a.Y)*float64(c.X-a.X)
		look := func(m map[float32]int, v float32, what string) int {
			k, ok := m[v]
			if !ok {
				t.Fatalf("quad %d: %s %v off the grid", q/6, what, v)
			}
			return k
		}
		switch {
		case lo.Y == hi.Y: // top, floor or bottom
			dir := -1
			if ny < 0 {
				dir = -2
			}
			x0, x1 := look(ix.xs, lo.X, "x"), look(ix.xs, hi.X, "x")
			z0, z1 := look(ix.zs, lo.Z, "z"), look(ix.zs, hi.Z, "z")
			for z := z0; z < z1; z++ {
				for x := x0; x < x1; x++ {
					out[unitFace{dir: dir, x: x, z: z, y: lo.Y, col: col}]++
				}
			}
		case lo.X == hi.X: // a -x or +x side
			line := look(ix.xs, lo.X, "x")
			dir, x := 0, line
			if nx > 0 {
				dir, x = 2, line-1
			}
			z0, z1 := look(ix.zs, lo.Z, "z"), look(ix.zs, hi.Z, "z")
			r0, r1 := look(ix.ys, lo.Y, "y"), look(ix.ys, hi.Y, "y")
			for z := z0; z < z1; z++ {
				for r := r0; r < r1; r++ {
					out[unitFace{dir: dir, x: x, z: z, row: r, col: col}]++
				}
			}
		case lo.Z == hi.Z: // a +z or -z side
			line := look(ix.zs, lo.Z, "z")
			dir, z := 3, line
			if nz > 0 {
				dir, z = 1, line-1
			}
			x0, x1 := look(ix.xs, lo.X, "x"), look(ix.xs, hi.X, "x")
			r0, r1 := look(ix.ys, lo.Y, "y"), look(ix.ys, hi.Y, "y")
			for x := x0; x < x1; x++ {
				for r := r0; r < r1; r++ {
					out[unitFace{dir: dir, x: x, z: z, row: r, col: col}]++
				}
			}
		default:
			t.Fatalf("quad %d is not axis-aligned: %v .. %v", q/6, lo, hi)
		}
	}
	return out
}

// wantBoxFaces lists the unit faces of the solid spans of h in frame f, one
// cell and one row at a time: tops, bottoms above row 0, and side rows no
// span of the neighbour column covers.
func wantBoxFaces(h *voxel.Heightfield, f *cellFrame, colour boxColour) map[unitFace]int {
	out := map[unitFace]int{}
	for z := f.z0; z < f.z1; z++ {
		for x := f.x0; x < f.x1; x++ {
			col := h.AppendColumn(nil, x, z)
			for _, s := range col {
				out[unitFace{dir: -1, x: x, z: z, y: f.rowY(float32(s.MaxRow)), col: colour(s.Area, -1)}]++
				if s.MinRow > 0 {
					out[unitFace{dir: -2, x: x, z: z, y: f.rowY(float32(s.MinRow)), col: colour(s.Area, -2)}]++
				}
				for d := 0; d < 4; d++ {
					nb := h.AppendColumn(nil, x+voxel.DirOffsetX[d], z+voxel.DirOffsetZ[d])
					for r := int(s.MinRow); r < int(s.MaxRow); r++ {
						covered := false
						for _, n := range nb {
							covered = covered || (r >= int(n.MinRow) && r < int(n.MaxRow))
						}
						if !covered {
							out[unitFace{dir: d, x: x, z: z, row: r, col: colour(s.Area, d)}]++
						}
					}
				}
			}
		}
	}
	return out
}

// wantFloorFaces lists the floor cells of the open spans of c in frame f
// that colour accepts, one cell at a time.
func wantFloorFaces(c *voxel.CompactHeightfield, f *cellFrame, colour floorColour) map[unitFace]int {
	out := map[unitFace]int{}
	for z := f.z0; z < f.z1; z++ {
		for x := f.x0; x < f.x1; x++ {
			cell := c.Cells[x+z*c.Width]
			for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
				if col, ok := colour(i); ok {
					out[unitFace{dir: -1, x: x, z: z, y: f.rowY(float32(c.Spans[i].Y) + floorLiftRows), col: col}]++
				}
			}
		}
	}
	return out
}

// checkSameFaces reports the unit faces whose counts differ between got
// and want (the first few, in a fixed order).
func checkSameFaces(t *testing.T, what string, got, want map[unitFace]int) {
	t.Helper()
	if len(want) == 0 {
		t.Fatalf("%s: no faces to compare", what)
	}
	var diff []unitFace
	for k, n := range want {
		if got[k] != n {
			diff = append(diff, k)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			diff = append(diff, k)
		}
	}
	slices.SortFunc(diff, func(a, b unitFace) int { return slices.Compare(a.key(), b.key()) })
	for i, k := range diff {
		if i == 5 {
			break
		}
		t.Errorf("%s: face %+v drawn %d times, want %d", what, k, got[k], want[k])
	}
	if len(diff) > 0 {
		t.Errorf("%s: %d of %d unit faces differ", what, len(diff), len(want))
	}
}

// key orders unit faces.
func (u unitFace) key() []int64 {
	return []int64{int64(u.dir), int64(u.z), int64(u.x), int64(u.row), int64(math.Float32bits(u.y)),
		int64(u.col.R)<<24 | int64(u.col.G)<<16 | int64(u.col.B)<<8 | int64(u.col.A)}
}

// testTiles returns a few tiles of b: the first, the last and the one with
// the most open spans.
func testTiles(b *pipeline.Build) []*pipeline.TileBuild {
	busiest, most := 0, -1
	for i := range b.Tiles {
		if c := b.Tiles[i].Spans; c != nil && len(c.Spans) > most {
			busiest, most = i, len(c.Spans)
		}
	}
	return []*pipeline.TileBuild{&b.Tiles[0], &b.Tiles[busiest], &b.Tiles[len(b.Tiles)-1]}
}

// TestMergedFacesCoverCells checks on city that the merged span overlays
// cover exactly the unit faces the spans have (each once, in its colour):
// boxes of solid and walkable; floors in area colours (compact), in region
// colours leaving out unwalkable spans (as eroded leaves out spans), and
// of the regions overlay with the whole border ring.
func TestMergedFacesCoverCells(t *testing.T) {
	b := cityStagesBuild(t, pipeline.DefaultSettings().Partition)
	// One set of mergers for every tile, as the overlays use them.
	var (
		ms boxMergers
		m  rectMerger
	)
	for _, tb := range testTiles(b) {
		if tb.Stages == nil || tb.Stages.Solid == nil || tb.Spans == nil || tb.Regions == nil {
			t.Fatalf("tile (%d, %d) without stages", tb.TX, tb.TZ)
		}
		h := tb.Stages.Solid
		f := tileFrame(b, tb, &h.Grid)
		for _, bc := range []struct {
			name   string
			colour boxColour
		}{{OverlaySolid, solidColour}, {OverlayWalkable, walkableColour}} {
			got := unitFaces(t, appendBoxes(nil, h, &f, bc.colour, &ms), &f, voxel.MaxSpanRow)
			checkSameFaces(t, bc.name, got, wantBoxFaces(h, &f, bc.colour))
		}
		c := tb.Spans
		cf := tileFrame(b, tb, &c.Grid)
		ids := tb.Regions.IDs
		for _, fc := range []struct {
			name   string
			colour floorColour
		}{
			{OverlayCompact, func(i int) (color.RGBA, bool) { return assets.AreaColour(c.Areas[i]), true }},
			{"walkable floors", func(i int) (color.RGBA, bool) {
				return assets.RegionColour(uint32(ids[i])), c.Areas[i] != voxel.AreaNull
			}},
		} {
			got := unitFaces(t, appendFloors(nil, c, &cf, fc.colour, &m), &cf, 0)
			checkSameFaces(t, fc.name, got, wantFloorFaces(c, &cf, fc.colour))
		}
		// Regions with the whole ring: every column of the grid.
		whole := cf
		whole.x0, whole.x1, whole.z0, whole.z1 = 0, c.Width, 0, c.Height
		ring := appendRegionFloors(nil, c, ids, cf, func(int, int) bool { return true }, &m)
		checkSameFaces(t, "regions with ring", unitFaces(t, ring, &whole, 0), wantFloorFaces(c, &whole, func(i int) (color.RGBA, bool) {
			if c.Areas[i] == voxel.AreaNull {
				return color.RGBA{}, false
			}
			if ids[i]&region.BorderFlag != 0 {
				return regionBorderColour, true
			}
			return assets.RegionColour(uint32(ids[i])), true
		}))
	}
}

// overlayBytes serializes o's geometry: every vertex's position bits and
// colour, triangles, then lines, then points.
func overlayBytes(o *Overlay) []byte {
	var out []byte
	for _, vs := range [][]Vertex{o.Tris, o.Lines, o.Points} {
		out = binary.LittleEndian.AppendUint32(out, uint32(len(vs)))
		for _, v := range vs {
			for _, c := range []float32{v.Pos.X, v.Pos.Y, v.Pos.Z} {
				out = binary.LittleEndian.AppendUint32(out, math.Float32bits(c))
			}
			out = append(out, v.Col.R, v.Col.G, v.Col.B, v.Col.A)
		}
	}
	return out
}

// TestOverlayBytesDeterministic builds every span and mesh overlay of city
// twice, on every tile, and wants the same bytes.
func TestOverlayBytesDeterministic(t *testing.T) {
	b := cityStagesBuild(t, pipeline.DefaultSettings().Partition)
	for _, name := range append(slices.Clone(SpanOverlayNames), MeshOverlayNames...) {
		one, two := overlayBytes(buildOverlay(t, name, b)), overlayBytes(buildOverlay(t, name, b))
		if !bytes.Equal(one, two) {
			t.Errorf("%s: %d bytes, then %d different ones", name, len(one), len(two))
		}
		if name != OverlayVolumes && len(one) <= 12 {
			t.Errorf("%s: empty on city", name)
		}
	}
}

// TestOverlayPiecesJoin checks that every per-tile overlay of city, for
// all tiles and for a 3 x 3 block, is the concatenation of its tiles'
// pieces in b.Tiles order.
func TestOverlayPiecesJoin(t *testing.T) {
	b := cityStagesBuild(t, pipeline.DefaultSettings().Partition)
	mid := b.Tiles[len(b.Tiles)/2]
	block := func(x, z int) bool { return max(x-mid.TX, mid.TX-x) <= 1 && max(z-mid.TZ, mid.TZ-z) <= 1 }
	for _, name := range append(slices.Clone(SpanOverlayNames), MeshOverlayNames...) {
		if !IsPerTileOverlay(name) {
			if _, err := OverlayPiece(name, b, mid.TX, mid.TZ, nil); err == nil {
				t.Errorf("%s: a piece of an overlay that is not per tile", name)
			}
			continue
		}
		for _, keep := range []TileFilter{nil, block} {
			whole, err := StageOverlay(name, b, keep)
			if err != nil {
				t.Fatal(err)
			}
			var pieces []*Overlay
			for _, tb := range b.Tiles {
				if keep != nil && !keep(tb.TX, tb.TZ) {
					continue
				}
				p, err := OverlayPiece(name, b, tb.TX, tb.TZ, keep)
				if err != nil {
					t.Fatal(err)
				}
				pieces = append(pieces, p)
			}
			joined := JoinOverlayPieces(name, pieces)
			if !bytes.Equal(overlayBytes(joined), overlayBytes(whole)) || joined.PointSizePx != whole.PointSizePx ||
				joined.Name != whole.Name {
				t.Errorf("%s (filter %v): %d pieces join to %d/%d/%d vertices, the overlay has %d/%d/%d", name, keep != nil,
					len(pieces), len(joined.Tris), len(joined.Lines), len(joined.Points), len(whole.Tris), len(whole.Lines), len(whole.Points))
			}
		}
	}
	if _, err := StageOverlay("nope", b, nil); err == nil {
		t.Error("unknown name accepted")
	}
}

// TestRectMerger merges small patterns of two groups and wants the listed
// rectangles, in order; each pattern is also merged on a grid too large to
// pack (sortSquares' other path), shifted, and must give the same
// rectangles shifted.
func TestRectMerger(t *testing.T) {
	ka, kb := makePlaneKey(3, color.RGBA{1, 2, 3, 255}), makePlaneKey(1, color.RGBA{9, 9, 9, 255})
	type rect struct {
		key            planeKey
		x0, z0, x1, z1 int
	}
	for _, tc := range []struct {
		name string
		rows []string // 'a', 'b' or '.' per cell, row z = index
		want []rect
	}{
		{"full", []string{"aaa", "aaa"}, []rect{{ka, 0, 0, 3, 2}}},
		{"L", []string{"aa.", "a..", "a.."}, []rect{{ka, 0, 0, 2, 1}, {ka, 0, 1, 1, 3}}},
		{"two groups", []string{"ab", "ab"}, []rect{{kb, 1, 0, 2, 2}, {ka, 0, 0, 1, 2}}},
		{"hole", []string{"aaa", "a.a", "aaa"}, []rect{{ka, 0, 0, 3, 1}, {ka, 0, 1, 1, 3}, {ka, 2, 1, 3, 3}, {ka, 1, 2, 2, 3}}},
		{"checker", []string{"ab", "ba"}, []rect{{kb, 1, 0, 2, 1}, {kb, 0, 1, 1, 2}, {ka, 0, 0, 1, 1}, {ka, 1, 1, 2, 2}}},
		{"empty", []string{"..", ".."}, nil},
	} {
		for _, big := range []bool{false, true} {
			w, h, off := len(tc.rows[0]), len(tc.rows), 0
			if big {
				w, h, off = 300, 300, 7 // 90000 cells: not packable
			}
			var m rectMerger
			m.reset(w, h)
			for z, row := range tc.rows {
				for x, c := range row {
					switch c {
					case 'a':
						m.add(x+off, z+off, ka)
						m.add(x+off, z+off, ka) // twice: covered once
					case 'b':
						m.add(x+off, z+off, kb)
					}
				}
			}
			var got []rect
			m.merge(func(k planeKey, x0, z0, x1, z1 int) {
				got = append(got, rect{k, x0 - off, z0 - off, x1 - off, z1 - off})
			})
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s (big %v): %v, want %v", tc.name, big, got, tc.want)
			}
			if len(m.squares) != 0 || slices.Contains(m.mark, true) {
				t.Errorf("%s (big %v): merger not left empty", tc.name, big)
			}
		}
	}
}
