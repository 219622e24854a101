package level_test

import (
	"bytes"
	"reflect"
	"testing"

	"navviz/core/level"
)

// FuzzReadGLTF checks that ReadGLTF never panics, that what it accepts
// passes Validate, and that an accepted soup survives WriteGLB/ReadGLTF
// bit for bit. Seeds: the quad (GLB and .gltf), the example level and a
// few broken starts; testdata/fuzz/FuzzReadGLTF holds what fuzzing found.
func FuzzReadGLTF(f *testing.F) {
	ex, _ := exampleLevel()
	f.Add(quadDoc().glb(f))
	f.Add(quadDoc().embedded(f))
	f.Add(ex.glb(f))
	f.Add(ex.embedded(f))
	for _, s := range []string{"", "glTF", "glTF\x02\x00\x00\x00\x0c\x00\x00\x00", "{}", `{"asset":{"version":"2.0"}}`,
		`{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"children":[0]}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := level.ReadGLTF(data, "fuzz.glb", nil)
		if err != nil {
			if s != nil {
				t.Fatalf("error %v with a soup", err)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("accepted soup fails Validate: %v", err)
		}
		var buf bytes.Buffer
		if err := level.WriteGLB(&buf, s); err != nil {
			t.Fatalf("WriteGLB: %v", err)
		}
		back, err := level.ReadGLTF(buf.Bytes(), "back.glb", nil)
		if err != nil {
			t.Fatalf("reading WriteGLB's output: %v", err)
		}
		if len(s.Tris) == 0 {
			s.Verts = nil // an empty level writes no vertex
		}
		s.Skipped = ""
		if !reflect.DeepEqual(back.Verts, s.Verts) && !(len(back.Verts) == 0 && len(s.Verts) == 0) || !reflect.DeepEqual(back.Tris, s.Tris) && !(len(back.Tris) == 0 && len(s.Tris) == 0) {
			t.Fatalf("round trip differs: %d/%d verts, %d/%d tris", len(back.Verts), len(s.Verts), len(back.Tris), len(s.Tris))
		}
	})
}
