package level

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/qmuntal/gltf"
)

// WriteGLB writes s as a binary glTF 2.0 file: one node holding one mesh
// of one indexed TRIANGLES primitive, float32 positions (with the min and
// max glTF asks for) and uint32 indices in the BIN chunk. ReadGLTF gives
// s back bit for bit, unused vertices aside (it keeps only the vertices
// triangles use). Area ids are not stored. The bytes depend only on s. s
// must pass Validate; an empty soup gives a scene with no node.
func WriteGLB(w io.Writer, s *Soup) error {
	if s == nil {
		return errors.New("level: write GLB: nil soup")
	}
	if err := s.Validate(); err != nil {
		return fmt.Errorf("level: write GLB: %w", err)
	}
	doc := gltf.NewDocument()
	doc.Asset.Generator = "navviz"
	doc.Scenes[0].Name = ""
	if len(s.Tris) > 0 {
		posBytes, idxBytes := 12*len(s.Verts), 12*len(s.Tris)
		data := make([]byte, posBytes+idxBytes)
		lo := [3]float32{math.MaxFloat32, math.MaxFloat32, math.MaxFloat32}
		hi := [3]float32{-math.MaxFloat32, -math.MaxFloat32, -math.MaxFloat32}
		for i, v := range s.Verts {
			for c, x := range [3]float32{v.X, v.Y, v.Z} {
				binary.LittleEndian.PutUint32(data[12*i+4*c:], math.Float32bits(x))
				lo[c], hi[c] = min(lo[c], x), max(hi[c], x)
			}
		}
		for i, t := range s.Tris {
			for c, k := range t {
				binary.LittleEndian.PutUint32(data[posBytes+12*i+4*c:], uint32(k))
			}
		}
		doc.Buffers = []*gltf.Buffer{{ByteLength: len(data), Data: data}}
		doc.BufferViews = []*gltf.BufferView{
			{Buffer: 0, ByteLength: posBytes, Target: gltf.TargetArrayBuffer},
			{Buffer: 0, ByteOffset: posBytes, ByteLength: idxBytes, Target: gltf.TargetElementArrayBuffer},
		}
		doc.Accessors = []*gltf.Accessor{
			{BufferView: gltf.Index(0), ComponentType: gltf.ComponentFloat, Count: len(s.Verts), Type: gltf.AccessorVec3,
				Min: []float64{float64(lo[0]), float64(lo[1]), float64(lo[2])},
				Max: []float64{float64(hi[0]), float64(hi[1]), float64(hi[2])}},
			{BufferView: gltf.Index(1), ComponentType: gltf.ComponentUint, Count: 3 * len(s.Tris), Type: gltf.AccessorScalar},
		}
		doc.Meshes = []*gltf.Mesh{{Primitives: []*gltf.Primitive{{
			Attributes: gltf.PrimitiveAttributes{gltf.POSITION: 0}, Indices: gltf.Index(1), Mode: gltf.PrimitiveTriangles,
		}}}}
		doc.Nodes = []*gltf.Node{{Mesh: gltf.Index(0)}}
		doc.Scenes[0].Nodes = []int{0}
	}
	if err := gltf.NewEncoder(w).Encode(doc); err != nil {
		return fmt.Errorf("level: write GLB: %w", err)
	}
	return nil
}
