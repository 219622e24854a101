package level

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadOBJ checks that ReadOBJ never panics, that what it accepts passes
// Validate, and that an accepted soup survives WriteOBJ/ReadOBJ bit for bit.
// Seeds: the cases below, testdata/cube.obj and testdata/fuzz/FuzzReadOBJ.
func FuzzReadOBJ(f *testing.F) {
	for _, seed := range []string{
		"",
		"v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n",
		"v 0 0 0\r\nv 1 0 0\r\nv 0 0 1\r\nv 1 0 1\r\nf 1/1/1 2/2/2 4/4/4 3/3/3\r\n",
		"v 0 0 0\nv 1 0 0\nv 0 0 1\nf -3 -2 -1\nf 1//1 2//1 3//1\n",
		"# c\ng a\no b\ns off\nusemtl m\nvt 0 0\nvn 0 1 0\nv 1e30 -1e-30 0.5 1\nf 1 1 1 \\\n 1\n",
		"v 0 0 0\nf 0 1 2\n",
		"v nan 0 0\n",
		"v 1e39 0 0\n",
		"f 1 2\n",
		"v 1 2\n",
		"v 0 0 0\nf 1 2 -9223372036854775808\n",
		"v 0 0 0\nf 1/x 1 1\n",
		"\\\n\\",
		"\xef\xbb\xbfv 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n",
		"\xef\xbb\xbf",
		"\xef\xbb\xbf\xef\xbb\xbfv 0 0 0\n",
		"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
		"\x1f\x8b\x08\x00\x00\x00\x00\x00",
		"v 0 0 0\n# \x00\n",
		"\xc3\x28 v 0 0 0\n",
		"# caf\xe9\nv 0 0 0\n",
		"\xff\xfev\x00 \x000\x00",
		`{"v": [0, 0, 0]}`,
		"solid x\n",
	} {
		f.Add([]byte(seed))
	}
	if data, err := os.ReadFile(filepath.Join("testdata", "cube.obj")); err == nil {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ReadOBJ(bytes.NewReader(data), "fuzz.obj")
		if err != nil {
			if s != nil {
				t.Fatalf("soup returned with error %v", err)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("accepted soup fails Validate: %v", err)
		}
		for _, v := range s.Verts {
			if math.IsInf(float64(v.X), 0) || math.IsInf(float64(v.Y), 0) || math.IsInf(float64(v.Z), 0) {
				t.Fatalf("infinite vertex %v", v)
			}
		}
		var buf bytes.Buffer
		if err := WriteOBJ(&buf, s); err != nil {
			t.Fatalf("WriteOBJ of an accepted soup: %v", err)
		}
		back, err := ReadOBJ(&buf, "again.obj")
		if err != nil {
			t.Fatalf("reading WriteOBJ's output: %v", err)
		}
		if len(s.Tris) == 0 {
			back.Tris, back.Areas = s.Tris, s.Areas // nil vs empty
		}
		if len(s.Verts) == 0 {
			back.Verts = s.Verts
		}
		if !sameSoup(s, back) {
			t.Fatal("write/read round trip changed the soup")
		}
		if _, err := NewChunky(s, 4); err != nil {
			t.Fatalf("NewChunky of an accepted soup: %v", err)
		}
	})
}
