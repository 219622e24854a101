package level_test

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"github.com/qmuntal/gltf"

	"navviz/core/geom"
	"navviz/core/level"
)

// gltfBuilder assembles glTF documents for the tests: one buffer, a
// bufferView per accessor, 4-byte aligned.
type gltfBuilder struct {
	doc *gltf.Document
	bin []byte
}

func newGLTFBuilder() *gltfBuilder {
	doc := gltf.NewDocument()
	doc.Asset.Generator = "navviz tests"
	doc.Scenes[0].Name = ""
	return &gltfBuilder{doc: doc}
}

// view appends data as a new bufferView and returns its index.
func (b *gltfBuilder) view(data []byte, stride int) int {
	for len(b.bin)%4 != 0 {
		b.bin = append(b.bin, 0)
	}
	b.doc.BufferViews = append(b.doc.BufferViews, &gltf.BufferView{ByteOffset: len(b.bin), ByteLength: len(data), ByteStride: stride})
	b.bin = append(b.bin, data...)
	return len(b.doc.BufferViews) - 1
}

// accessor adds an accessor over a new bufferView holding data.
func (b *gltfBuilder) accessor(ct gltf.ComponentType, typ gltf.AccessorType, count int, normalized bool, data []byte) int {
	b.doc.Accessors = append(b.doc.Accessors, &gltf.Accessor{
		BufferView: gltf.Index(b.view(data, 0)), ComponentType: ct, Type: typ, Count: count, Normalized: normalized,
	})
	return len(b.doc.Accessors) - 1
}

// positions adds a float VEC3 accessor.
func (b *gltfBuilder) positions(ps [][3]float32) int {
	data := make([]byte, 0, 12*len(ps))
	for _, p := range ps {
		for _, c := range p {
			data = binary.LittleEndian.AppendUint32(data, math.Float32bits(c))
		}
	}
	return b.accessor(gltf.ComponentFloat, gltf.AccessorVec3, len(ps), false, data)
}

// shortPositions adds a SHORT VEC3 accessor (KHR_mesh_quantization).
func (b *gltfBuilder) shortPositions(ps [][3]int16, normalized bool) int {
	var data []byte
	for _, p := range ps {
		for _, c := range p {
			data = binary.LittleEndian.AppendUint16(data, uint16(c))
		}
		data = append(data, 0, 0) // each element aligned to 4 bytes
	}
	a := b.accessor(gltf.ComponentShort, gltf.AccessorVec3, len(ps), normalized, data)
	b.doc.BufferViews[*b.doc.Accessors[a].BufferView].ByteStride = 8
	return a
}

// indices adds a SCALAR index accessor of component type ct.
func (b *gltfBuilder) indices(ct gltf.ComponentType, idx []int) int {
	var data []byte
	for _, k := range idx {
		switch ct {
		case gltf.ComponentUbyte:
			data = append(data, byte(k))
		case gltf.ComponentUshort:
			data = binary.LittleEndian.AppendUint16(data, uint16(k))
		default:
			data = binary.LittleEndian.AppendUint32(data, uint32(k))
		}
	}
	return b.accessor(ct, gltf.AccessorScalar, len(idx), false, data)
}

// prim returns a primitive over positions pos, indexed by idx (-1: none).
func prim(mode gltf.PrimitiveMode, pos, idx int) *gltf.Primitive {
	p := &gltf.Primitive{Attributes: gltf.PrimitiveAttributes{gltf.POSITION: pos}, Mode: mode}
	if idx >= 0 {
		p.Indices = gltf.Index(idx)
	}
	return p
}

func (b *gltfBuilder) mesh(prims ...*gltf.Primitive) int {
	b.doc.Meshes = append(b.doc.Meshes, &gltf.Mesh{Primitives: prims})
	return len(b.doc.Meshes) - 1
}

// node adds n (its zero transform fields read as the identity).
func (b *gltfBuilder) node(n gltf.Node) int {
	if n.Matrix == [16]float64{} {
		n.Matrix = gltf.DefaultMatrix
	}
	if n.Rotation == [4]float64{} {
		n.Rotation = gltf.DefaultRotation
	}
	if n.Scale == [3]float64{} {
		n.Scale = gltf.DefaultScale
	}
	b.doc.Nodes = append(b.doc.Nodes, &n)
	return len(b.doc.Nodes) - 1
}

// finish sets the buffer and the scene's root nodes.
func (b *gltfBuilder) finish(roots ...int) {
	b.doc.Buffers = []*gltf.Buffer{{ByteLength: len(b.bin), Data: b.bin}}
	b.doc.Scenes[0].Nodes = roots
}

// glb encodes the document as GLB.
func (b *gltfBuilder) glb(tb testing.TB) []byte {
	var out bytes.Buffer
	if err := gltf.NewEncoder(&out).Encode(b.doc); err != nil {
		tb.Fatal(err)
	}
	return out.Bytes()
}

// embedded encodes the document as .gltf JSON with a data-URI buffer.
func (b *gltfBuilder) embedded(tb testing.TB) []byte {
	b.doc.Buffers[0].EmbeddedResource()
	defer func() { b.doc.Buffers[0].URI = "" }()
	var out bytes.Buffer
	enc := gltf.NewEncoder(&out)
	enc.AsBinary = false
	if err := enc.Encode(b.doc); err != nil {
		tb.Fatal(err)
	}
	return out.Bytes()
}

// soupAdder builds the soup a glTF file should give: triangles in world
// coordinates, added in the reader's order.
type soupAdder struct{ s level.Soup }

// add appends the vertices pts placed by xf (exact arithmetic only) and
// the triangles tris over them.
func (a *soupAdder) add(pts [][3]float64, xf func([3]float64) [3]float64, tris [][3]int32) {
	base := int32(len(a.s.Verts))
	for _, p := range pts {
		w := xf(p)
		a.s.Verts = append(a.s.Verts, geom.Vec3{X: float32(w[0]), Y: float32(w[1]), Z: float32(w[2])})
	}
	for _, t := range tris {
		a.s.Tris = append(a.s.Tris, [3]int32{base + t[0], base + t[1], base + t[2]})
		a.s.Areas = append(a.s.Areas, level.AreaWalkable)
	}
}

func f32s(ps [][3]float64) [][3]float32 {
	out := make([][3]float32, len(ps))
	for i, p := range ps {
		out[i] = [3]float32{float32(p[0]), float32(p[1]), float32(p[2])}
	}
	return out
}

// boxTris returns the 12 triangles (36 corners, counter-clockwise seen
// from outside) of the box lo..hi, non-indexed.
func boxTris(lo, hi [3]float64) [][3]float64 {
	c := func(i int) [3]float64 {
		p := lo
		for k := 0; k < 3; k++ {
			if i>>k&1 == 1 {
				p[k] = hi[k]
			}
		}
		return p
	}
	quads := [][4]int{{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}}
	var out [][3]float64
	for _, q := range quads {
		out = append(out, c(q[0]), c(q[1]), c(q[2]), c(q[0]), c(q[2]), c(q[3]))
	}
	return out
}

func seq(n int) [][3]int32 {
	out := make([][3]int32, n/3)
	for i := range out {
		out[i] = [3]int32{int32(3 * i), int32(3*i + 1), int32(3*i + 2)}
	}
	return out
}

// exampleLevel builds the example glTF level (testdata/levels/
// courtyard.glb), a courtyard with crates, a ramp to a platform and three
// steps, using every kind of node transform and primitive the reader takes,
// and the soup it must read as, computed here with exact arithmetic (the
// transforms are axis permutations, power-of-two scales and small
// translations). The node tree, depth first as the reader walks it:
//
//	"courtyard": matrix, a quarter turn about y (x→-z) then +(2, 0, 1)
//	  "ground": TRS scale (2, 1, 2), translation (0, 0, -1); its mesh: a
//	            10×10 grid, indexed UNSIGNED_SHORT, and a line (skipped)
//	  "crates": rotation half a turn about y
//	    two nodes with translations, both holding one non-indexed box mesh
//	  "ramp": scale (-1, 1, 1), a mirror (the winding flips); its mesh: a
//	          ramp as a TRIANGLE_STRIP and a platform as a TRIANGLE_FAN
//	          indexed UNSIGNED_BYTE
//	  "steps": scale 1/4; its mesh: SHORT positions (KHR_mesh_quantization,
//	           required) indexed UNSIGNED_INT
func exampleLevel() (*gltfBuilder, *level.Soup) {
	b := newGLTFBuilder()
	want := &soupAdder{}
	root := func(p [3]float64) [3]float64 { return [3]float64{p[2] + 2, p[1], -p[0] + 1} }

	// Ground: a 10x10 grid of 1 m (local) cells, two triangles each, CCW from above.
	var grid [][3]float64
	for z := 0; z <= 10; z++ {
		for x := 0; x <= 10; x++ {
			grid = append(grid, [3]float64{float64(x) - 5, 0, float64(z) - 5})
		}
	}
	var gidx []int
	var gtris [][3]int32
	for z := 0; z < 10; z++ {
		for x := 0; x < 10; x++ {
			a, c := z*11+x, (z+1)*11+x
			for _, t := range [][3]int{{a, c, a + 1}, {a + 1, c, c + 1}} {
				gidx = append(gidx, t[:]...)
				gtris = append(gtris, [3]int32{int32(t[0]), int32(t[1]), int32(t[2])})
			}
		}
	}
	gpos := b.positions(f32s(grid))
	line := prim(gltf.PrimitiveLines, b.positions([][3]float32{{0, 0, 0}, {0, 5, 0}}), -1)
	ground := b.mesh(prim(gltf.PrimitiveTriangles, gpos, b.indices(gltf.ComponentUshort, gidx)), line)
	want.add(grid, func(p [3]float64) [3]float64 { return root([3]float64{2 * p[0], p[1], 2*p[2] - 1}) }, gtris)

	// Crates: one box mesh, two instances under a half-turn.
	box := boxTris([3]float64{-1, 0, -1}, [3]float64{1, 1.5, 1})
	crate := b.mesh(prim(gltf.PrimitiveTriangles, b.positions(f32s(box)), -1))
	var crateNodes []int
	for _, t := range [][3]float64{{4, 0, 3}, {-3, 0, 5}} {
		crateNodes = append(crateNodes, b.node(gltf.Node{Mesh: gltf.Index(crate), Translation: t}))
		want.add(box, func(p [3]float64) [3]float64 {
			return root([3]float64{-(p[0] + t[0]), p[1] + t[1], -(p[2] + t[2])})
		}, seq(len(box)))
	}

	// Ramp (strip) up to a platform (fan), mirrored in x. The strip's
	// corners alternate sides; the fan is an octagon-ish ring around its
	// centre, counter-clockwise from above before the mirror.
	strip := [][3]float64{{-6, 0, 0}, {-6, 0, 2}, {-3, 0.5, 0}, {-3, 0.5, 2}, {0, 1, 0}, {0, 1, 2}}
	var stripTris [][3]int32
	for i := int32(0); i+2 < int32(len(strip)); i++ {
		if i%2 == 0 {
			stripTris = append(stripTris, [3]int32{i, i + 1, i + 2})
		} else {
			stripTris = append(stripTris, [3]int32{i, i + 2, i + 1})
		}
	}
	fan := [][3]float64{{2, 1, 1}, {0, 1, 0}, {0, 1, 2}, {2, 1, 4}, {4, 1, 2}, {4, 1, 0}, {2, 1, -2}, {0, 1, 0}}
	fanIdx := []int{0, 1, 2, 3, 4, 5, 6, 7}
	var fanTris [][3]int32
	for i := int32(1); i+1 < int32(len(fan)); i++ {
		fanTris = append(fanTris, [3]int32{0, i, i + 1})
	}
	rampMesh := b.mesh(
		prim(gltf.PrimitiveTriangleStrip, b.positions(f32s(strip)), -1),
		prim(gltf.PrimitiveTriangleFan, b.positions(f32s(fan)), b.indices(gltf.ComponentUbyte, fanIdx)))
	mirror := func(p [3]float64) [3]float64 { return root([3]float64{-p[0], p[1], p[2]}) }
	flip := func(ts [][3]int32) [][3]int32 {
		out := make([][3]int32, len(ts))
		for i, t := range ts {
			out[i] = [3]int32{t[0], t[2], t[1]}
		}
		return out
	}
	want.add(strip, mirror, flip(stripTris))
	want.add(fan, mirror, flip(fanTris))

	// Steps: three quantized boxes, 1/4 m units, as one indexed primitive.
	var steps [][3]int16
	var stepsPts [][3]float64
	var stepsIdx []int
	var stepsTris [][3]int32
	for i := 0; i < 3; i++ {
		corners := boxTris([3]float64{float64(-16 + 8*i), 0, 16}, [3]float64{float64(-8 + 8*i), float64(1 + i), 24})
		for _, c := range corners {
			stepsIdx = append(stepsIdx, len(steps))
			steps = append(steps, [3]int16{int16(c[0]), int16(c[1]), int16(c[2])})
			stepsPts = append(stepsPts, c)
		}
	}
	stepsTris = seq(len(stepsIdx))
	stepsMesh := b.mesh(prim(gltf.PrimitiveTriangles, b.shortPositions(steps, false), b.indices(gltf.ComponentUint, stepsIdx)))
	want.add(stepsPts, func(p [3]float64) [3]float64 { return root([3]float64{p[0] / 4, p[1] / 4, p[2] / 4}) }, stepsTris)

	groundNode := b.node(gltf.Node{Name: "ground", Mesh: gltf.Index(ground), Scale: [3]float64{2, 1, 2}, Translation: [3]float64{0, 0, -1}})
	crates := b.node(gltf.Node{Name: "crates", Rotation: [4]float64{0, 1, 0, 0}, Children: crateNodes})
	ramp := b.node(gltf.Node{Name: "ramp", Mesh: gltf.Index(rampMesh), Scale: [3]float64{-1, 1, 1}})
	stepsNode := b.node(gltf.Node{Name: "steps", Mesh: gltf.Index(stepsMesh), Scale: [3]float64{0.25, 0.25, 0.25}})
	courtyard := b.node(gltf.Node{Name: "courtyard",
		Matrix:   [16]float64{0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 2, 0, 1, 1},
		Children: []int{groundNode, crates, ramp, stepsNode}})
	// The reader walks depth first from the root: ground, crates (node 0,
	// then node 1), ramp, steps — the order want was built in.
	b.finish(courtyard)
	b.doc.ExtensionsUsed = []string{"KHR_mesh_quantization"}
	b.doc.ExtensionsRequired = []string{"KHR_mesh_quantization"}
	want.s.Skipped = "skipped 1 line primitive"
	return b, &want.s
}
