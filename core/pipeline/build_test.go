package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"navviz/core/level"
	"navviz/core/voxel"
)

// tileBytes serializes every tile of b (with its coordinates).
func tileBytes(t testing.TB, b *Build) []byte {
	t.Helper()
	var out []byte
	for _, tb := range b.Tiles {
		out = fmt.Appendf(out, "tile %d %d\n", tb.TX, tb.TZ)
		var err error
		if out, err = tb.Spans.AppendBinary(out); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func TestBuildLevelParallelEqualsSerial(t *testing.T) {
	s := DefaultSettings()
	s.TileSizeCells = 32 // more tiles than workers
	s.Volumes = []voxel.ConvexVolume{{VertsXZ: [][2]float32{{2, 30}, {10, 30}, {10, 38}}, MinYM: -1, MaxYM: 1, Area: 5}}
	src := chunkySource(t, testLevel())
	var want []byte
	var ref *Build
	for _, n := range []int{1, 2, 4, 0} {
		b, err := BuildLevel(context.Background(), &s, src, BuildOptions{Workers: n, KeepStages: n == 2})
		if err != nil {
			t.Fatalf("workers %d: %v", n, err)
		}
		got := tileBytes(t, b)
		if want == nil {
			want, ref = got, b
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("workers %d: tiles differ from the serial build", n)
		}
		if b.WalkableSpans != ref.WalkableSpans || b.SpanCount != ref.SpanCount || len(b.Tiles) != len(ref.Tiles) {
			t.Errorf("workers %d: counts %d/%d/%d, serial %d/%d/%d", n, len(b.Tiles), b.SpanCount, b.WalkableSpans,
				len(ref.Tiles), ref.SpanCount, ref.WalkableSpans)
		}
	}
	if len(ref.Tiles) == 0 || ref.BuiltTiles != ref.Grid.TileCount() {
		t.Fatalf("%d tiles of %d built", len(ref.Tiles), ref.BuiltTiles)
	}
	// Every tile equals BuildTileSpans' result; tiles left out have nothing walkable.
	var scratch Scratch
	for tz := 0; tz < ref.Grid.TilesZ; tz++ {
		for tx := 0; tx < ref.Grid.TilesX; tx++ {
			c, err := BuildTileSpans(&s, src, tx, tz, &scratch)
			if err != nil {
				t.Fatal(err)
			}
			tb := ref.Tile(tx, tz)
			if tb == nil {
				if c.WalkableSpanCount() != 0 {
					t.Errorf("tile (%d, %d) with %d walkable spans left out", tx, tz, c.WalkableSpanCount())
				}
				continue
			}
			if tb.TX != tx || tb.TZ != tz || c.Hash() != tb.Spans.Hash() {
				t.Errorf("tile (%d, %d) differs from BuildTileSpans", tx, tz)
			}
		}
	}
	// The volume marked something.
	found := false
	for _, tb := range ref.Tiles {
		for _, a := range tb.Spans.Areas {
			found = found || a == 5
		}
	}
	if !found {
		t.Error("no span has the volume's area 5")
	}
}

func TestBuildLevelStages(t *testing.T) {
	s := DefaultSettings()
	src := chunkySource(t, testLevel())
	b, err := BuildLevel(context.Background(), &s, src, BuildOptions{Workers: 2, KeepStages: true})
	if err != nil {
		t.Fatal(err)
	}
	eroded := 0
	for _, tb := range b.Tiles {
		st := tb.Stages
		if st == nil || st.Solid == nil {
			t.Fatalf("tile (%d, %d): no stages", tb.TX, tb.TZ)
		}
		n := len(tb.Spans.Areas)
		if len(st.PreErosionAreas) != n || len(st.ErodedAreas) != n {
			t.Fatalf("tile (%d, %d): %d/%d areas for %d spans", tb.TX, tb.TZ, len(st.PreErosionAreas), len(st.ErodedAreas), n)
		}
		// The kept solid heightfield compacts to the same spans.
		c, err := voxel.BuildCompactHeightfield(st.Solid, s.WalkableHeightCells(), s.WalkableClimbCells())
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(c.Areas, st.PreErosionAreas) || len(c.Spans) != len(tb.Spans.Spans) {
			t.Errorf("tile (%d, %d): kept solid heightfield does not give the pre-erosion spans", tb.TX, tb.TZ)
		}
		for i := range st.PreErosionAreas {
			if st.PreErosionAreas[i] != 0 && st.ErodedAreas[i] == 0 {
				eroded++
			}
			if st.PreErosionAreas[i] == 0 && st.ErodedAreas[i] != 0 {
				t.Fatalf("erosion made span %d walkable", i)
			}
		}
		// Stages and BuildTileSpansStages agree.
		c2, st2, err := BuildTileSpansStages(&s, src, tb.TX, tb.TZ, nil)
		if err != nil {
			t.Fatal(err)
		}
		if c2.Hash() != tb.Spans.Hash() || !bytes.Equal(st2.ErodedAreas, st.ErodedAreas) || st2.Solid.SpanCount() != st.Solid.SpanCount() {
			t.Errorf("tile (%d, %d): BuildTileSpansStages differs", tb.TX, tb.TZ)
		}
	}
	if eroded == 0 {
		t.Error("erosion removed nothing")
	}
	if b.StageTotals.Total() <= 0 {
		t.Error("no stage time measured")
	}
	// Without KeepStages there are none.
	b, err = BuildLevel(context.Background(), &s, src, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range b.Tiles {
		if tb.Stages != nil {
			t.Fatal("stages kept without KeepStages")
		}
	}
}

func TestBuildLevelProgress(t *testing.T) {
	s := DefaultSettings()
	s.TileSizeCells = 16
	src := chunkySource(t, testLevel())
	var calls []int
	total := -1
	var inCall atomic.Int32
	b, err := BuildLevel(context.Background(), &s, src, BuildOptions{Workers: 4, Progress: func(done, tot int) {
		if inCall.Add(1) != 1 {
			t.Error("Progress called concurrently")
		}
		calls = append(calls, done)
		total = tot
		inCall.Add(-1)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if total != b.Grid.TileCount() || len(calls) != total {
		t.Fatalf("%d calls, total %d, want %d", len(calls), total, b.Grid.TileCount())
	}
	for i, d := range calls {
		if d != i+1 {
			t.Fatalf("call %d reported %d done", i, d)
		}
	}
}

func TestBuildLevelCancel(t *testing.T) {
	soup, err := level.Builtin("city")
	if err != nil {
		t.Fatal(err)
	}
	s := DefaultSettings()
	src := chunkySource(t, soup)

	// Cancelled before it starts.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := BuildLevel(ctx, &s, src, BuildOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: err %v", err)
	}

	// Cancelled from the progress callback after a few tiles: returns
	// quickly, wrapping ctx.Err().
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	var t0 time.Time
	b, err := BuildLevel(ctx, &s, src, BuildOptions{Workers: 2, Progress: func(done, total int) {
		if done == 3 {
			cancel()
			t0 = time.Now()
		}
	}})
	if b != nil || !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "cancelled after") {
		t.Fatalf("got %v, %v; want a cancellation error", b, err)
	}
	if d := time.Since(t0); d > 2*time.Second {
		t.Errorf("cancellation took %v", d)
	}
}

func TestBuildLevelErrors(t *testing.T) {
	src := chunkySource(t, testLevel())
	bad := DefaultSettings()
	bad.CellSizeM = 0
	if _, err := BuildLevel(context.Background(), &bad, src, BuildOptions{}); err == nil || !strings.Contains(err.Error(), "CellSizeM") {
		t.Errorf("bad settings: %v", err)
	}
	s := DefaultSettings()
	if _, err := BuildLevel(context.Background(), &s, src, BuildOptions{Workers: -1}); err == nil {
		t.Error("negative workers accepted")
	}
	if _, err := BuildLevel(context.Background(), nil, src, BuildOptions{}); err == nil {
		t.Error("nil settings accepted")
	}
	if _, err := BuildLevel(context.Background(), &s, nil, BuildOptions{}); err == nil {
		t.Error("nil source accepted")
	}
	// The settings are copied: changing them afterwards changes nothing.
	s.Volumes = []voxel.ConvexVolume{{VertsXZ: [][2]float32{{0, 0}, {1, 0}, {0, 1}}, MaxYM: 1, Area: 3}}
	b, err := BuildLevel(context.Background(), &s, src, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s.Volumes[0].VertsXZ[0][0] = 99
	s.CellSizeM = 1
	if b.Settings.Volumes[0].VertsXZ[0][0] != 0 || b.Settings.CellSizeM != 0.3 {
		t.Error("Build.Settings shares memory with the caller's settings")
	}
	if b.Tile(-1, 0) != nil || b.Tile(0, 99) != nil || (*Build)(nil).Tile(0, 0) != nil {
		t.Error("Tile outside the grid returned a tile")
	}
}

func TestStageString(t *testing.T) {
	var names []string
	for st := Stage(0); st < NumStages; st++ {
		names = append(names, st.String())
	}
	if got := strings.Join(names, ","); got != "rasterize,filter,compact,erode,volumes,regions,contours,polys,detail,tile,link" {
		t.Errorf("stage names %s", got)
	}
	if Stage(99).String() != "Stage(99)" {
		t.Error(Stage(99).String())
	}
}
