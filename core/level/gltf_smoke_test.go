package level_test

import (
	"bytes"
	"reflect"
	"testing"

	"navviz/core/level"
)

func TestGLTFSmoke(t *testing.T) {
	b, want := exampleLevel()
	for name, data := range map[string][]byte{"glb": b.glb(t), "gltf": b.embedded(t)} {
		got, err := level.ReadGLTF(data, "example."+name, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %d verts %d tris %q, want %d %d %q", name, len(got.Verts), len(got.Tris), got.Skipped, len(want.Verts), len(want.Tris), want.Skipped)
			for i := range min(len(got.Verts), len(want.Verts)) {
				if got.Verts[i] != want.Verts[i] {
					t.Errorf("vert %d %v want %v", i, got.Verts[i], want.Verts[i])
					break
				}
			}
			for i := range min(len(got.Tris), len(want.Tris)) {
				if got.Tris[i] != want.Tris[i] {
					t.Errorf("tri %d %v want %v", i, got.Tris[i], want.Tris[i])
					break
				}
			}
		}
	}
	var buf bytes.Buffer
	if err := level.WriteGLB(&buf, want); err != nil {
		t.Fatal(err)
	}
	got, err := level.ReadGLTF(buf.Bytes(), "rt.glb", nil)
	if err != nil {
		t.Fatal(err)
	}
	want.Skipped = ""
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip differs")
	}
}
