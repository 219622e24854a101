package level_test

import (
	"bytes"
	"context"
	"reflect"
	"testing"

	"navviz/core/level"
	"navviz/core/pipeline"
)

// TestGLTFBuildsLikeOBJ is issue 31's acceptance check: the example GLB
// (nested matrix and TRS nodes, a mirror, an instanced mesh, indexed and
// non-indexed, strip, fan and quantized primitives) builds exactly like
// the OBJ of the same level with the transforms applied by hand: the same
// soup, the same counts (polygons, vertices, tiles, walkable area) and the
// same tile bytes.
func TestGLTFBuildsLikeOBJ(t *testing.T) {
	b, want := exampleLevel()
	fromGLB, err := level.ReadGLTF(b.glb(t), "example.glb", nil)
	if err != nil {
		t.Fatal(err)
	}
	var obj bytes.Buffer
	if err := level.WriteOBJ(&obj, want); err != nil {
		t.Fatal(err)
	}
	fromOBJ, err := level.ReadOBJ(&obj, "example.obj")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fromGLB.Verts, fromOBJ.Verts) || !reflect.DeepEqual(fromGLB.Tris, fromOBJ.Tris) {
		t.Fatalf("the GLB's soup differs from the OBJ's")
	}
	build := func(s *level.Soup) *pipeline.Build {
		chunky, err := level.NewChunky(s, 256)
		if err != nil {
			t.Fatal(err)
		}
		src, err := pipeline.NewSoupSource(s, chunky)
		if err != nil {
			t.Fatal(err)
		}
		set := pipeline.DefaultSettings()
		bl, err := pipeline.BuildLevel(context.Background(), &set, src, pipeline.BuildOptions{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		return bl
	}
	g, o := build(fromGLB), build(fromOBJ)
	if g.MeshCounts != o.MeshCounts || g.BuiltTiles != o.BuiltTiles {
		t.Errorf("GLB builds %+v (%d tiles), OBJ %+v (%d tiles)", g.MeshCounts, g.BuiltTiles, o.MeshCounts, o.BuiltTiles)
	}
	if g.Polys == 0 || g.WalkableAreaM2 < 100 {
		t.Errorf("the example builds %d polygons, %.1f m²: not a level", g.Polys, g.WalkableAreaM2)
	}
	ids := func(bl *pipeline.Build) (out []uint64) {
		for _, tb := range bl.Tiles {
			for _, l := range tb.Layers {
				out = append(out, l.ContentID)
			}
		}
		return out
	}
	if !reflect.DeepEqual(ids(g), ids(o)) {
		t.Errorf("tile contents differ: %x vs %x", ids(g), ids(o))
	}
	t.Logf("example: %d verts, %d tris; %d polys, %d poly verts, %d tiles, %.1f m²",
		len(fromGLB.Verts), len(fromGLB.Tris), g.Polys, g.Verts, g.BuiltTiles, g.WalkableAreaM2)
}
