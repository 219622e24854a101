package region

import (
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"

	"navviz/core/voxel"
)

// partitionFunc is the signature shared by Watershed and Monotone.
type partitionFunc func(*voxel.CompactHeightfield, int, int, int) (*Result, error)

// partIDHash is the xxhash64 of the ids as little-endian uint16s.
func partIDHash(ids []uint16) uint64 {
	b := make([]byte, 0, 2*len(ids))
	for _, id := range ids {
		b = binary.LittleEndian.AppendUint16(b, id)
	}
	return xxhash.Sum64(b)
}

// partCheckResult checks the invariants every partition result keeps: one
// id per span; NoRegion on non-walkable spans; border ids (flag with 1..4)
// exactly on the walkable spans of the border ring; every region 1..Count-1
// holds a span, all of one area; no other id.
func partCheckResult(t testing.TB, c *voxel.CompactHeightfield, border int, res *Result) {
	t.Helper()
	if len(res.IDs) != len(c.Spans) {
		t.Fatalf("%d ids for %d spans", len(res.IDs), len(c.Spans))
	}
	if res.Count < 1 || res.Count > MaxRegions+1 {
		t.Fatalf("Count %d", res.Count)
	}
	area := make([]int, res.Count)
	for i := range area {
		area[i] = -1
	}
	for z := 0; z < c.Height; z++ {
		for x := 0; x < c.Width; x++ {
			cell := c.Cells[x+z*c.Width]
			ring := border > 0 && (x < border || z < border || x >= c.Width-border || z >= c.Height-border)
			for i := int(cell.Index); i < int(cell.Index+cell.Count); i++ {
				id := res.IDs[i]
				switch {
				case c.Areas[i] == voxel.AreaNull:
					if id != NoRegion {
						t.Fatalf("non-walkable span %d at (%d, %d) has id %#x", i, x, z, id)
					}
				case ring:
					if id&BorderFlag == 0 || id&^BorderFlag < 1 || id&^BorderFlag > 4 {
						t.Fatalf("border span %d at (%d, %d) has id %#x", i, x, z, id)
					}
				case id&BorderFlag != 0 || int(id) >= res.Count:
					t.Fatalf("span %d at (%d, %d) has id %#x (Count %d)", i, x, z, id, res.Count)
				case id != NoRegion:
					if area[id] >= 0 && area[id] != int(c.Areas[i]) {
						t.Fatalf("region %d mixes areas %d and %d", id, area[id], c.Areas[i])
					}
					area[id] = int(c.Areas[i])
				}
			}
		}
	}
	for r := 1; r < res.Count; r++ {
		if area[r] < 0 {
			t.Fatalf("region %d of %d has no span", r, res.Count-1)
		}
	}
}

func TestPartitionsSynthetic(t *testing.T) {
	rooms := []string{
		"....................",
		".########....######.",
		".########....######.",
		".########....######.",
		".##################.",
		".########....######.",
		".########....######.",
		".########....######.",
		"....................",
	}
	island := []string{
		"............",
		".########...",
		".########.##",
		".########.##",
		".########...",
		"............",
	}
	notch := []string{
		"...........",
		".#########.",
		".#########.",
		".###.#####.",
		".###.#####.",
		".#########.",
		"...........",
	}
	ring := []string{
		"##########",
		"##########",
		"##########",
		"#####.####",
		"##########",
		"##########",
		"##########",
	}
	areas := []string{
		"##########",
		"##########",
		"###aaaa###",
		"###aaaa###",
		"##########",
	}
	for _, tc := range []struct {
		name          string
		f             partitionFunc
		plan          []string
		border        int
		minA, mergeA  int
		count         int
		want          string // partIDMap
		wantBorderIDs string // border ids by column of the lowest span (0 when not checked)
	}{
		{name: "watershed square", f: Watershed, plan: []string{"......", ".####.", ".####.", ".####.", "......"}, count: 2,
			want: "......\n.1111.\n.1111.\n.1111.\n......\n"},
		{name: "monotone square", f: Monotone, plan: []string{"......", ".####.", ".####.", ".####.", "......"}, count: 2,
			want: "......\n.1111.\n.1111.\n.1111.\n......\n"},
		// Two rooms joined by a corridor one cell wide: watershed floods each
		// room from its centre and the corridor is shared out between them.
		{name: "watershed two rooms", f: Watershed, plan: rooms, count: 3, want: "" +
			"....................\n" +
			".11111111....222222.\n" +
			".11111111....222222.\n" +
			".11111111....222222.\n" +
			".111111111122222222.\n" +
			".11111111....222222.\n" +
			".11111111....222222.\n" +
			".11111111....222222.\n" +
			"....................\n"},
		// Monotone: a run linked to a region below that other runs also
		// link to starts a new region.
		{name: "monotone two rooms", f: Monotone, plan: rooms, count: 6, want: "" +
			"....................\n" +
			".11111111....222222.\n" +
			".11111111....222222.\n" +
			".11111111....222222.\n" +
			".333333333333333333.\n" +
			".44444444....555555.\n" +
			".44444444....555555.\n" +
			".44444444....555555.\n" +
			"....................\n"},
		// Merging: regions of at most 20 spans go into their smallest
		// mergeable neighbour (the corridor row into region 2, then 5 too).
		{name: "monotone two rooms merged", f: Monotone, plan: rooms, mergeA: 20, count: 4, want: "" +
			"....................\n" +
			".11111111....222222.\n" +
			".11111111....222222.\n" +
			".11111111....222222.\n" +
			".222222222222222222.\n" +
			".33333333....222222.\n" +
			".33333333....222222.\n" +
			".33333333....222222.\n" +
			"....................\n"},
		{name: "monotone notch", f: Monotone, plan: notch, count: 5,
			want: "...........\n.111111111.\n.111111111.\n.222.33333.\n.222.33333.\n.444444444.\n...........\n"},
		{name: "monotone notch merged", f: Monotone, plan: notch, mergeA: 20, count: 3,
			want: "...........\n.111111111.\n.111111111.\n.111.22222.\n.111.22222.\n.222222222.\n...........\n"},
		{name: "watershed notch", f: Watershed, plan: notch, minA: 10, mergeA: 20, count: 2,
			want: "...........\n.111111111.\n.111111111.\n.111.11111.\n.111.11111.\n.111111111.\n...........\n"},
		// An island of 4 spans is kept with minArea 0 and dropped with 10.
		{name: "watershed island kept", f: Watershed, plan: island, count: 3,
			want: "............\n.11111111...\n.11111111.22\n.11111111.22\n.11111111...\n............\n"},
		{name: "watershed island dropped", f: Watershed, plan: island, minA: 10, count: 2,
			want: "............\n.11111111...\n.11111111...\n.11111111...\n.11111111...\n............\n"},
		{name: "monotone island dropped", f: Monotone, plan: island, minA: 10, mergeA: 20, count: 2,
			want: "............\n.11111111...\n.11111111...\n.11111111...\n.11111111...\n............\n"},
		// The border ring: four strips with BorderFlag; the z strips own the
		// corners.
		{name: "watershed border", f: Watershed, plan: ring, border: 2, count: 2,
			want:          "BBBBBBBBBB\nBBBBBBBBBB\nBB111111BB\nBB111.11BB\nBB111111BB\nBBBBBBBBBB\nBBBBBBBBBB\n",
			wantBorderIDs: "3333333333\n3333333333\n1100000022\n1100000022\n1100000022\n4444444444\n4444444444\n"},
		{name: "monotone border", f: Monotone, plan: ring, border: 2, mergeA: 20, count: 3,
			want:          "BBBBBBBBBB\nBBBBBBBBBB\nBB111111BB\nBB222.11BB\nBB222222BB\nBBBBBBBBBB\nBBBBBBBBBB\n",
			wantBorderIDs: "3333333333\n3333333333\n1100000022\n1100000022\n1100000022\n4444444444\n4444444444\n"},
		// An island of 4 spans touching the border ring is never dropped.
		{name: "watershed island at border", f: Watershed, border: 1, minA: 10, count: 3, plan: []string{
			"############",
			"#########..#",
			"#########.##",
			"#########.##",
			"############",
		}, want: "BBBBBBBBBBBB\nB11111111..B\nB11111111.2B\nB11111111.2B\nBBBBBBBBBBBB\n"},
		// Areas never mix: the area-1 block is its own region; enclosed by
		// region 1 it is measured alone and dropped below minArea.
		{name: "watershed areas", f: Watershed, plan: areas, count: 3,
			want: "1111111111\n1111111111\n1112222111\n1112222111\n1111111111\n"},
		{name: "watershed areas dropped", f: Watershed, plan: areas, minA: 10, count: 2,
			want: "1111111111\n1111111111\n111....111\n111....111\n1111111111\n"},
		{name: "monotone areas merged", f: Monotone, plan: areas, mergeA: 20, count: 4,
			want: "1111111111\n1111111111\n1112222333\n1112222333\n3333333333\n"},
		// Non-walkable spans ('o') get no region.
		{name: "watershed null spans", f: Watershed, plan: []string{"######", "######", "##o###", "######", "######"}, count: 2,
			want: "111111\n111111\n11.111\n111111\n111111\n"},
		// As in Recast, a distance field that is 0 everywhere (no span has
		// four links of its own area) floods nothing: no region at all.
		{name: "watershed flat distance", f: Watershed, plan: []string{"#####", "##o##", "#####"}, count: 1,
			want: ".....\n.....\n.....\n"},
		{name: "monotone flat distance", f: Monotone, plan: []string{"#####", "##o##", "#####"}, count: 5,
			want: "11111\n22.33\n44444\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := partPlanCHF(t, tc.border, tc.plan...)
			before := c.Hash()
			res, err := tc.f(c, tc.border, tc.minA, tc.mergeA)
			if err != nil {
				t.Fatal(err)
			}
			if c.Hash() != before {
				t.Fatal("the partition changed its input")
			}
			partCheckResult(t, c, tc.border, res)
			if got := partIDMap(c, res.IDs); got != tc.want || res.Count != tc.count {
				t.Errorf("Count %d, want %d; ids\n%s\nwant\n%s", res.Count, tc.count, got, tc.want)
			}
			if tc.wantBorderIDs != "" {
				var b strings.Builder
				for z := 0; z < c.Height; z++ {
					for x := 0; x < c.Width; x++ {
						cell := c.Cells[x+z*c.Width]
						id := uint16(0)
						if cell.Count > 0 && res.IDs[cell.Index]&BorderFlag != 0 {
							id = res.IDs[cell.Index] &^ BorderFlag
						}
						b.WriteByte(byte('0' + id))
					}
					b.WriteByte('\n')
				}
				if b.String() != tc.wantBorderIDs {
					t.Errorf("border ids\n%s\nwant\n%s", b.String(), tc.wantBorderIDs)
				}
			}
		})
	}
}

func TestPartitionsTwoFloors(t *testing.T) {
	// Two floors over the same 6 x 4 columns, not linked to each other: one
	// region each, overlapping in every column.
	plan := []string{"222222", "222222", "222222", "222222"}
	c := partPlanCHF(t, 0, plan...)
	for _, f := range []partitionFunc{Watershed, Monotone} {
		res, err := f(c, 0, 8, 20)
		if err != nil {
			t.Fatal(err)
		}
		partCheckResult(t, c, 0, res)
		if res.Count != 3 {
			t.Fatalf("Count %d, want 3", res.Count)
		}
		for _, cell := range c.Cells {
			lo, hi := res.IDs[cell.Index], res.IDs[cell.Index+1]
			if lo != 1 || hi != 2 {
				t.Fatalf("column ids %d, %d, want 1, 2", lo, hi)
			}
		}
	}
}

func TestPartitionErrors(t *testing.T) {
	c := partPlanCHF(t, 0, "####", "####", "####", "####")
	cells := c.Clone()
	cells.Cells[3].Index++
	short := c.Clone()
	short.Cells = short.Cells[:15]
	outLink := c.Clone()
	outLink.Spans[0].Con = outLink.Spans[0].Con&^0xff | 0 // -x from column 0
	farLink := c.Clone()
	farLink.Spans[5].Con = farLink.Spans[5].Con&^0xff00 | 3<<8
	grid := c.Clone()
	grid.Width = 0
	for _, tc := range []struct {
		c                   *voxel.CompactHeightfield
		border, minA, merge int
		want                string
	}{
		{nil, 0, 0, 0, "nil compact heightfield"},
		{grid, 0, 0, 0, "0 x 4 columns"},
		{short, 0, 0, 0, "15 cells for 4 x 4 columns"},
		{cells, 0, 0, 0, "cell (3, 0) starts at span 4, want 3"},
		{outLink, 0, 0, 0, "span 0 of column (0, 0) links out of the grid in direction 0"},
		{farLink, 0, 0, 0, "span 5 of column (1, 1) links in direction 1 to span 3 of a column of 1"},
		{c, -1, 0, 0, "borderCells -1"},
		{c, 2, 0, 0, "borderCells 2"},
		{c, 0, -1, 0, "minAreaCells -1"},
		{c, 0, 0, -5, "mergeAreaCells -5"},
	} {
		for name, f := range map[string]partitionFunc{"Watershed": Watershed, "Monotone": Monotone} {
			res, err := f(tc.c, tc.border, tc.minA, tc.merge)
			if err == nil || res != nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: error %v, want %q", name, err, tc.want)
			}
			if err != nil && strings.Contains(tc.want, "Cells") && !strings.Contains(err.Error(), name) {
				t.Errorf("%s: error %v does not name the function", name, err)
			}
		}
	}
}

// partRandomPlan returns a random plan of w x h columns: mostly walkable,
// with holes, non-walkable spans, a second area and two-floor columns.
func partRandomPlan(rng *rand.Rand, w, h int) []string {
	plan := make([]string, h)
	for z := range plan {
		b := make([]byte, w)
		for x := range b {
			switch p := rng.IntN(100); {
			case p < 8:
				b[x] = '.'
			case p < 12:
				b[x] = 'o'
			case p < 20:
				b[x] = 'b'
			case p < 30:
				b[x] = '2'
			default:
				b[x] = '#'
			}
		}
		plan[z] = string(b)
	}
	return plan
}

func TestPartitionsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	for k := range 200 {
		w, h := 3+rng.IntN(40), 3+rng.IntN(40)
		border := rng.IntN((min(w, h) + 1) / 2)
		c := partPlanCHF(t, border, partRandomPlan(rng, w, h)...)
		minA, mergeA := rng.IntN(30), rng.IntN(60)
		for _, f := range []partitionFunc{Watershed, Monotone} {
			a, err := f(c, border, minA, mergeA)
			if err != nil {
				t.Fatalf("case %d: %v", k, err)
			}
			partCheckResult(t, c, border, a)
			b, _ := f(c, border, minA, mergeA)
			if partIDHash(a.IDs) != partIDHash(b.IDs) || a.Count != b.Count {
				t.Fatalf("case %d: two runs differ", k)
			}
		}
	}
}

// FuzzPartitions runs both partitions on any heightfield voxel accepts
// (links need not be mutual there): no panic, and a valid result.
func FuzzPartitions(f *testing.F) {
	for _, plan := range [][]string{
		{"####", "#o##", "##2#"},
		{"22222", "2.b.2", "22222", "#####"},
	} {
		data, err := partPlanCHF(f, 1, plan...).MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, 1, 4, 10)
	}
	f.Fuzz(func(t *testing.T, data []byte, border, minA, mergeA int) {
		var c voxel.CompactHeightfield
		if c.UnmarshalBinary(data) != nil {
			return
		}
		for _, p := range []partitionFunc{Watershed, Monotone} {
			res, err := p(&c, border, minA, mergeA)
			if err != nil {
				continue
			}
			partCheckResult(t, &c, border, res)
		}
	})
}
