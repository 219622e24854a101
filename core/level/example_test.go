package level_test

import (
	"fmt"

	"navviz/core/level"
)

// Builtin returns a generated level by name; the same name always gives the
// same triangles.
func ExampleBuiltin() {
	for _, name := range level.BuiltinNames() {
		s, err := level.Builtin(name)
		if err != nil {
			fmt.Println(err)
			return
		}
		size := s.Bounds().Size()
		fmt.Printf("%s: %d triangles, %g m x %g m\n", name, len(s.Tris), size.X, size.Z)
	}
	_, err := level.Builtin("castle")
	fmt.Println(err)
	// Output:
	// city: 43132 triangles, 200 m x 200 m
	// terrain: 20000 triangles, 150 m x 150 m
	// city4x4: 690112 triangles, 800 m x 800 m
	// level: unknown built-in level "castle" (have city, terrain, city4x4)
}

// City takes a seed: each seed lays out different streets, blocks and
// bridge position within the same 200 m square.
func ExampleCity() {
	for _, seed := range []uint64{level.DefaultSeed, 2} {
		s := level.City(seed)
		b := s.Bounds()
		fmt.Printf("seed %d: %d triangles, x %g..%g, z %g..%g, tallest %g m\n",
			seed, len(s.Tris), b.Min.X, b.Max.X, b.Min.Z, b.Max.Z, b.Max.Y)
	}
	// Output:
	// seed 1: 43132 triangles, x 0..200, z 0..200, tallest 62.65 m
	// seed 2: 42112 triangles, x 0..200, z 0..200, tallest 62.65 m
}

// Load accepts a built-in name or a path to a Wavefront OBJ file.
func ExampleLoad() {
	s, err := level.Load("terrain")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(s.Tris), "triangles")
	// Output:
	// 20000 triangles
}
