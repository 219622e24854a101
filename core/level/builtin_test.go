package level

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"navviz/core/geom"
)

// TestRNG pins the splitmix64 stream (reference values of the published
// algorithm for seed 0), so a change to the generator is never silent.
func TestRNG(t *testing.T) {
	r := newRNG(0)
	want := []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f}
	for i, w := range want {
		if got := r.next(); got != w {
			t.Fatalf("output %d = %#016x, want %#016x", i, got, w)
		}
	}
	r = newRNG(5)
	for range 10000 {
		if f := r.float(); f < 0 || f >= 1 {
			t.Fatalf("float() = %g, want [0, 1)", f)
		}
		if n := r.intn(7); n < 0 || n >= 7 {
			t.Fatalf("intn(7) = %d", n)
		}
	}
	if r.intn(0) != 0 || r.intn(-3) != 0 {
		t.Fatal("intn(n <= 0) must be 0")
	}
}

func TestBuiltin(t *testing.T) {
	if got := BuiltinNames(); !reflect.DeepEqual(got, []string{"city", "terrain", "city4x4"}) {
		t.Fatalf("BuiltinNames() = %q", got)
	}
	for _, name := range BuiltinNames() {
		s, err := Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		g, err := Generate(name, DefaultSeed)
		if err != nil {
			t.Fatal(err)
		}
		l, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if objHash(t, s) != objHash(t, g) || objHash(t, s) != objHash(t, l) {
			t.Errorf("%s: Builtin, Generate(DefaultSeed) and Load differ", name)
		}
	}
	_, err := Builtin("citty")
	if err == nil || !strings.Contains(err.Error(), `"citty"`) || !strings.Contains(err.Error(), "city, terrain, city4x4") {
		t.Errorf("Builtin(citty) error = %v, want the name and the valid names", err)
	}
	if s, err := Generate("terrain", 77); err != nil || objHash(t, s) != objHash(t, Terrain(77)) {
		t.Errorf("Generate(terrain, 77) = %v, want Terrain(77)", err)
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hills.obj")
	want := Terrain(3)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteOBJ(f, want); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Verts) != len(want.Verts) || len(got.Tris) != len(want.Tris) {
		t.Fatalf("Load(%s): %d verts %d tris, want %d and %d", path, len(got.Verts), len(got.Tris), len(want.Verts), len(want.Tris))
	}
	if objHash(t, got) != objHash(t, want) {
		t.Errorf("Load(%s) does not round-trip WriteOBJ", path)
	}

	missing := filepath.Join(dir, "nope.obj")
	if _, err := Load(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("Load(%s) error = %v, want one naming the path", missing, err)
	}
}

// TestCity4x4: the 4 x 4 city is 16 translated copies of City, the first
// one at City's own coordinates.
func TestCity4x4(t *testing.T) {
	one, grid := City(5), City4x4(5)
	if len(grid.Verts) != 16*len(one.Verts) || len(grid.Tris) != 16*len(one.Tris) || len(grid.Areas) != 16*len(one.Areas) {
		t.Fatalf("City4x4: %d verts, %d tris, %d areas; want 16 x (%d, %d, %d)",
			len(grid.Verts), len(grid.Tris), len(grid.Areas), len(one.Verts), len(one.Tris), len(one.Areas))
	}
	for i, v := range one.Verts {
		if grid.Verts[i] != v {
			t.Fatalf("vertex %d = %v, want City's %v", i, grid.Verts[i], v)
		}
	}
	last := 15 * len(one.Verts)
	for i, v := range one.Verts {
		want := v.Add(geom.V3(600, 0, 600))
		if grid.Verts[last+i] != want {
			t.Fatalf("last copy vertex %d = %v, want %v", i, grid.Verts[last+i], want)
		}
	}
	for i, tr := range one.Tris {
		want := [3]int32{tr[0] + int32(last), tr[1] + int32(last), tr[2] + int32(last)}
		if got := grid.Tris[15*len(one.Tris)+i]; got != want {
			t.Fatalf("last copy triangle %d = %v, want %v", i, got, want)
		}
	}
	b := grid.Bounds()
	if b.Min.X != 0 || b.Min.Z != 0 || b.Max.X != 800 || b.Max.Z != 800 {
		t.Errorf("bounds %v, want x and z in [0, 800]", b)
	}
}
