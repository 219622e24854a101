package detour

import (
	"testing"
)

// FuzzDecode: Decode never panics, and a file it reads gives a mesh whose
// links check and which Encode writes again.
func FuzzDecode(f *testing.F) {
	m := handMesh(&testing.T{}, 2)
	for _, ref64 := range []bool{false, true} {
		data, err := Encode(m, handOptions(ref64))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(data[setHeaderSize+tileHdr32Size:])
	}
	f.Add([]byte("TESM"))
	f.Add([]byte("PAMM\x07\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Decode(data)
		if err != nil {
			return
		}
		if _, _, err := file.Mesh.CheckLinks(); err != nil {
			t.Fatalf("links of a decoded file: %v", err)
		}
		if file.Mesh.TileCount() == 0 {
			return
		}
		if _, err := Encode(file.Mesh, handOptions(file.PolyRef64)); err != nil {
			t.Logf("re-encode: %v", err) // a mesh Detour cannot hold (too many refs) is an error, not a panic
		}
	})
}
