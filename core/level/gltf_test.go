package level_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"

	"navviz/core/geom"
	"navviz/core/level"
)

// quadDoc is a 2 m square at y = 0 (two triangles, indexed UNSIGNED_SHORT)
// under one node.
func quadDoc() *gltfBuilder {
	b := newGLTFBuilder()
	pos := b.positions([][3]float32{{0, 0, 0}, {0, 0, 2}, {2, 0, 0}, {2, 0, 2}})
	m := b.mesh(prim(gltf.PrimitiveTriangles, pos, b.indices(gltf.ComponentUshort, []int{0, 1, 2, 2, 1, 3})))
	b.finish(b.node(gltf.Node{Mesh: gltf.Index(m)}))
	return b
}

var quadWant = &level.Soup{
	Verts: []geom.Vec3{{X: 0, Y: 0, Z: 0}, {X: 0, Y: 0, Z: 2}, {X: 2, Y: 0, Z: 0}, {X: 2, Y: 0, Z: 2}},
	Tris:  [][3]int32{{0, 1, 2}, {2, 1, 3}},
	Areas: []uint8{level.AreaWalkable, level.AreaWalkable},
}

// TestReadGLTFExample reads the example level as GLB and as .gltf with a
// data-URI buffer: nested matrix and TRS nodes, a mirror, a mesh used
// twice, indexed (8, 16, 32 bit) and non-indexed, strip, fan, quantized
// positions and a skipped line primitive all give the soup computed by
// hand; WriteGLB then gives it back bit for bit.
func TestReadGLTFExample(t *testing.T) {
	b, want := exampleLevel()
	for name, data := range map[string][]byte{"glb": b.glb(t), "gltf": b.embedded(t)} {
		got, err := level.ReadGLTF(data, "example."+name, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %d verts %d tris %q, want %d %d %q", name, len(got.Verts), len(got.Tris), got.Skipped, len(want.Verts), len(want.Tris), want.Skipped)
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
	w := *want
	w.Skipped = ""
	if !reflect.DeepEqual(got, &w) {
		t.Errorf("WriteGLB/ReadGLTF round trip differs")
	}
}

// TestReadGLTFFeatures checks the features one at a time.
func TestReadGLTFFeatures(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build func() *gltfBuilder
		verts []geom.Vec3
		tris  [][3]int32
		skip  string
	}{
		{"normalized byte", func() *gltfBuilder {
			b := newGLTFBuilder()
			pos := b.accessor(gltf.ComponentByte, gltf.AccessorVec3, 3, true, []byte{0x80, 0, 0, 0, 127, 0x81, 0, 0, 127, 0, 0, 0})
			b.finish(b.node(gltf.Node{Mesh: gltf.Index(b.mesh(prim(gltf.PrimitiveTriangles, pos, -1))), Scale: [3]float64{2, 2, 2}}))
			return b
		}, []geom.Vec3{{X: -2, Y: 0, Z: 0}, {X: 0, Y: 2, Z: -2}, {X: 0, Y: 0, Z: 2}}, [][3]int32{{0, 1, 2}}, ""},
		{"normalized unsigned short", func() *gltfBuilder {
			b := newGLTFBuilder()
			le := func(v ...uint16) (out []byte) {
				for _, x := range v {
					out = binary.LittleEndian.AppendUint16(out, x)
				}
				return out
			}
			pos := b.accessor(gltf.ComponentUshort, gltf.AccessorVec3, 3, true, le(0, 0, 0, 65535, 0, 0, 0, 0, 65535))
			b.doc.BufferViews[0].ByteStride = 6
			b.finish(b.node(gltf.Node{Mesh: gltf.Index(b.mesh(prim(gltf.PrimitiveTriangles, pos, -1)))}))
			return b
		}, []geom.Vec3{{X: 0, Y: 0, Z: 0}, {X: 1, Y: 0, Z: 0}, {X: 0, Y: 0, Z: 1}}, [][3]int32{{0, 1, 2}}, ""},
		{"sparse positions", func() *gltfBuilder {
			b := quadDoc()
			b.doc.Accessors[0].Sparse = &gltf.Sparse{Count: 1,
				Indices: gltf.SparseIndices{BufferView: b.view([]byte{3}, 0), ComponentType: gltf.ComponentUbyte},
				Values:  gltf.SparseValues{BufferView: b.view([]byte{0, 0, 0x80, 0x40, 0, 0, 0x80, 0x3f, 0, 0, 0x80, 0x40}, 0)}}
			b.finish(0)
			return b
		}, []geom.Vec3{{X: 0, Y: 0, Z: 0}, {X: 0, Y: 0, Z: 2}, {X: 2, Y: 0, Z: 0}, {X: 4, Y: 1, Z: 4}}, quadWant.Tris, ""},
		{"unused vertices dropped", func() *gltfBuilder {
			b := newGLTFBuilder()
			pos := b.positions([][3]float32{{9, 9, 9}, {0, 0, 0}, {0, 0, 1}, {1, 0, 0}})
			m := b.mesh(prim(gltf.PrimitiveTriangles, pos, b.indices(gltf.ComponentUbyte, []int{3, 1, 2})))
			b.finish(b.node(gltf.Node{Mesh: gltf.Index(m)}))
			return b
		}, []geom.Vec3{{X: 0, Y: 0, Z: 0}, {X: 0, Y: 0, Z: 1}, {X: 1, Y: 0, Z: 0}}, [][3]int32{{2, 0, 1}}, ""},
		{"points, lines and no position skipped", func() *gltfBuilder {
			b := quadDoc()
			m := b.doc.Meshes[0]
			m.Primitives = append(m.Primitives, prim(gltf.PrimitivePoints, 0, -1), prim(gltf.PrimitiveLineStrip, 0, -1),
				prim(gltf.PrimitiveLineLoop, 0, -1), &gltf.Primitive{Attributes: gltf.PrimitiveAttributes{}})
			return b
		}, quadWant.Verts, quadWant.Tris, "skipped 1 point, 2 line, 1 position-less primitives"},
		{"no scene: root nodes", func() *gltfBuilder {
			b := quadDoc()
			b.doc.Scenes, b.doc.Scene = nil, nil
			b.node(gltf.Node{Children: []int{0}, Translation: [3]float64{0, 1, 0}})
			return b
		}, []geom.Vec3{{X: 0, Y: 1, Z: 0}, {X: 0, Y: 1, Z: 2}, {X: 2, Y: 1, Z: 0}, {X: 2, Y: 1, Z: 2}}, quadWant.Tris, ""},
		{"default scene 1", func() *gltfBuilder {
			b := quadDoc()
			b.doc.Scenes = append(b.doc.Scenes, &gltf.Scene{})
			b.doc.Scene = gltf.Index(1)
			return b
		}, nil, nil, ""},
		{"required material extension read", func() *gltfBuilder {
			b := quadDoc()
			b.doc.ExtensionsRequired = []string{"KHR_materials_variants", "KHR_texture_transform"}
			return b
		}, quadWant.Verts, quadWant.Tris, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := level.ReadGLTF(tc.build().glb(t), "t.glb", nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Verts) == 0 {
				got.Verts = nil
			}
			if !reflect.DeepEqual(got.Verts, tc.verts) || !reflect.DeepEqual(got.Tris, tc.tris) || got.Skipped != tc.skip {
				t.Errorf("got %v %v %q, want %v %v %q", got.Verts, got.Tris, got.Skipped, tc.verts, tc.tris, tc.skip)
			}
			if err := got.Validate(); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestReadGLTFErrors checks that bad input is refused with a message
// naming the file and the element.
func TestReadGLTFErrors(t *testing.T) {
	glb := func(f func(b *gltfBuilder)) []byte {
		b := quadDoc()
		f(b)
		return b.glb(t)
	}
	// json edits the .gltf text of the quad.
	json := func(old, new string) []byte {
		s := string(quadDoc().embedded(t))
		if !strings.Contains(s, old) {
			t.Fatalf("%q not in %s", old, s)
		}
		return []byte(strings.Replace(s, old, new, 1))
	}
	good := quadDoc().glb(t)
	header := func(version, length uint32) []byte {
		d := bytes.Clone(good)
		binary.LittleEndian.PutUint32(d[4:], version)
		binary.LittleEndian.PutUint32(d[8:], length)
		return d
	}
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"count past view", glb(func(b *gltfBuilder) { b.doc.Accessors[0].Count = 100 }),
			"t: mesh 0 primitive 0: accessor 0 (POSITION): 100 elements of 12 bytes (stride 12) at byte 0 run past the end of bufferView 0 (48 bytes)"},
		{"huge count", glb(func(b *gltfBuilder) { b.doc.Accessors[1].Count = 1 << 40 }), "accessor 1 (indices): count 1099511627776, want 0 to"},
		{"index out of range", glb(func(b *gltfBuilder) { b.doc.Accessors[0].Count = 3 }),
			"mesh 0 primitive 0: accessor 1 (indices): index 3 (element 5) is out of range: POSITION accessor 0 has 3 vertices"},
		{"not a multiple of 3", glb(func(b *gltfBuilder) { b.doc.Accessors[1].Count = 5 }), "mesh 0 primitive 0: 5 vertices is not a multiple of 3"},
		{"positions not VEC3", glb(func(b *gltfBuilder) { b.doc.Accessors[0].Type = gltf.AccessorVec4 }), "accessor 0 (POSITION): type VEC4, want VEC3"},
		{"uint positions", json(`"componentType":5126`, `"componentType":5125`), "accessor 0 (POSITION): componentType 5125 (UNSIGNED_INT) is not allowed here"},
		{"unknown component type", json(`"componentType":5126`, `"componentType":5124`), "componentType 5124 () is not allowed"},
		{"unknown mode", json(`"indices":1`, `"indices":1,"mode":9`), "mesh 0 primitive 0: mode 9 is not a glTF primitive mode (0-6)"},
		{"no mesh", json(`"mesh":0`, `"mesh":3`), "t: mesh 3 does not exist (1 meshes)"},
		{"no node", json(`"nodes":[0]`, `"nodes":[0,7]`), "node 7 does not exist (1 nodes)"},
		{"cycle", json(`"mesh":0`, `"mesh":0,"children":[0]`), "node 0 is reached twice (glTF nodes form trees)"},
		{"no scene", json(`"scene":0`, `"scene":2`), "scene 2 does not exist (1 scenes)"},
		{"not affine", json(`"mesh":0`, `"mesh":0,"matrix":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,2]`), "node 0: matrix is not affine"},
		{"overflow", json(`"mesh":0`, `"mesh":0,"scale":[1e300,1e300,1e300]`), "node 0 mesh 0 primitive 0: vertex 1 lands at (0, 0, 2e+300), not a finite float32"},
		{"no bufferView", glb(func(b *gltfBuilder) { b.doc.Accessors[0].BufferView = nil }), "accessor 0 (POSITION): has no bufferView"},
		{"bad stride", glb(func(b *gltfBuilder) { b.doc.BufferViews[0].ByteStride = 8 }), "bufferView 0: byteStride 8 is shorter than an element (12 bytes)"},
		{"view past buffer", glb(func(b *gltfBuilder) { b.doc.BufferViews[1].ByteLength = 1000 }), "bufferView 1: bytes 48+1000 run past buffer 0"},
		{"buffer past data", json(`"byteLength":60`, `"byteLength":1000`), "buffer 0: byteLength 1000 but it holds 60 bytes"},
		{"no buffer", glb(func(b *gltfBuilder) { b.doc.BufferViews[0].Buffer = 4 }), "bufferView 0: buffer 4 does not exist (1 buffers)"},
		{"data URI not base64", json(`data:application/octet-stream;base64,`, `data:application/octet-stream,`), "buffer 0: data URI is not base64"},
		{"external buffer without folder", json(`"uri":"data:application/octet-stream;base64,`, `"uri":"quad.bin","x":"`), `buffer 0: external file "quad.bin" but no folder to read it from`},
		{"http buffer", json(`"uri":"data:application/octet-stream;base64,`, `"uri":"https://example.com/a.bin","x":"`), `buffer 0: uri "https://example.com/a.bin" is not a relative file path`},
		{"escaping buffer", json(`"uri":"data:application/octet-stream;base64,`, `"uri":"../a.bin","x":"`), `buffer 0: uri "../a.bin" leads out of the glTF's folder`},
		{"sparse out of order", glb(func(b *gltfBuilder) {
			b.doc.Accessors[0].Sparse = &gltf.Sparse{Count: 2,
				Indices: gltf.SparseIndices{BufferView: b.view([]byte{2, 1}, 0), ComponentType: gltf.ComponentUbyte},
				Values:  gltf.SparseValues{BufferView: b.view(make([]byte, 24), 0)}}
			b.finish(0)
		}), "accessor 0 (POSITION): sparse index 1 (entry 1) is out of range or out of order"},
		{"draco", glb(func(b *gltfBuilder) { b.doc.ExtensionsRequired = []string{"KHR_draco_mesh_compression"} }),
			"t: requires extension KHR_draco_mesh_compression: Draco-compressed meshes are not read"},
		{"meshopt", glb(func(b *gltfBuilder) { b.doc.ExtensionsRequired = []string{"EXT_meshopt_compression"} }),
			"t: requires extension EXT_meshopt_compression: meshopt-compressed buffers are not read"},
		{"unknown extension", glb(func(b *gltfBuilder) { b.doc.ExtensionsRequired = []string{"EXT_frobnicate"} }), "requires extension EXT_frobnicate, which is not read"},
		{"glTF 1", json(`"version":"2.0"`, `"version":"1.0"`), `t: glTF version "1.0" is not read (want 2.x)`},
		{"other JSON", []byte(`{"navviz-scenario": 1}`), "t: not a glTF asset: no asset.version"},
		{"bad JSON", []byte(`{"asset": `), "t: not valid glTF JSON"},
		{"GLB version 1", header(1, uint32(len(good))), "t: GLB version 1 is not read (want 2)"},
		{"GLB length past end", header(2, uint32(len(good))+1), "GLB header says"},
		{"GLB cut", good[:10], "t: GLB header cut short: 10 bytes, want 12"},
		{"GLB chunk past end", good[:40], "t: GLB header says"},
		{"GLB no BIN", func() []byte {
			d := bytes.Clone(good)
			n := binary.LittleEndian.Uint32(d[12:])
			binary.LittleEndian.PutUint32(d[8:], 20+n)
			return d
		}(), "buffer 0 is the GLB BIN chunk, but the file has none"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := level.ReadGLTF(tc.data, "t", nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want it to contain %q", err, tc.want)
			}
			var pe *level.ParseError
			if !errors.As(err, &pe) || s != nil {
				t.Errorf("err %T, soup %v: want a *ParseError and no soup", err, s)
			}
		})
	}
}

// TestLoadGLTFFiles reads .gltf files with external buffers from disk and
// checks that Load and LoadFile choose the reader by content, whatever the
// name says.
func TestLoadGLTFFiles(t *testing.T) {
	dir := t.TempDir()
	b := quadDoc()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("bufs/quad data.bin", b.bin)
	b.doc.Buffers[0].URI = "bufs/quad%20data.bin"
	var js bytes.Buffer
	enc := gltf.NewEncoder(&js)
	enc.AsBinary = false
	if err := enc.Encode(b.doc); err != nil {
		t.Fatal(err)
	}
	external := write("quad.gltf", js.Bytes())
	glbAsOBJ := write("looks-like.obj", quadDoc().glb(t))
	short := write("short.gltf", bytes.Replace(js.Bytes(), []byte(fmt.Sprintf(`"byteLength":%d`, len(b.bin))), []byte(`"byteLength":80`), 1))
	for _, p := range []string{external, glbAsOBJ} {
		for name, load := range map[string]func(string) (*level.Soup, error){"Load": level.Load, "LoadFile": level.LoadFile, "LoadGLTF": level.LoadGLTF} {
			s, err := load(p)
			if err != nil {
				t.Fatalf("%s(%s): %v", name, p, err)
			}
			if !reflect.DeepEqual(s, quadWant) {
				t.Errorf("%s(%s) = %v", name, p, s)
			}
		}
	}
	if _, err := level.Load(short); err == nil || !strings.Contains(err.Error(), "short.gltf: mesh 0 primitive 0: accessor 0 (POSITION): bufferView 0: buffer 0: byteLength 80 but it holds 60 bytes") {
		t.Errorf("short buffer: %v", err)
	}
	if _, err := level.Load(filepath.Join(dir, "none.glb")); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "neither a built-in level") {
		t.Errorf("missing file: %v", err)
	}
	// OBJ still goes to the OBJ reader.
	obj := write("tri.obj", []byte("v 0 0 0\nv 0 0 1\nv 1 0 0\nf 1 2 3\n"))
	if s, err := level.Load(obj); err != nil || len(s.Tris) != 1 {
		t.Errorf("OBJ: %v %v", s, err)
	}
}
