package level

import (
	"fmt"
	"math"

	"github.com/qmuntal/gltf"

	"navviz/core/geom"
)

// The scene graph, meshes and accessors of a glTF level. Transforms are
// composed in float64 with every product rounded before it is summed (no
// fused multiply-add, DESIGN.md), so the level's bytes do not depend on
// the machine.

// gltfMat is a 4x4 matrix in glTF's column-major order.
type gltfMat [16]float64

// gltfMul returns a·b.
func gltfMul(a, b *gltfMat) gltfMat {
	var c gltfMat
	for col := 0; col < 4; col++ {
		for row := 0; row < 4; row++ {
			c[col*4+row] = float64(a[row]*b[col*4]) + float64(a[4+row]*b[col*4+1]) +
				float64(a[8+row]*b[col*4+2]) + float64(a[12+row]*b[col*4+3])
		}
	}
	return c
}

// apply returns m·(x, y, z, 1) (m is affine).
func (m *gltfMat) apply(p [3]float64) [3]float64 {
	var q [3]float64
	for r := 0; r < 3; r++ {
		q[r] = float64(m[r]*p[0]) + float64(m[4+r]*p[1]) + float64(m[8+r]*p[2]) + m[12+r]
	}
	return q
}

// det3 is the determinant of m's linear part: negative when m mirrors.
func (m *gltfMat) det3() float64 {
	a := float64(m[5]*m[10]) - float64(m[9]*m[6])
	b := float64(m[1]*m[10]) - float64(m[9]*m[2])
	c := float64(m[1]*m[6]) - float64(m[5]*m[2])
	return float64(m[0]*a) - float64(m[4]*b) + float64(m[8]*c)
}

// gltfLocal returns node n's local transform: matrix · T · R · S (a
// node has one or the other; the unused one is the identity).
func gltfLocal(n *gltf.Node) (gltfMat, error) {
	m := gltfMat(n.Matrix)
	t, q, s := n.Translation, n.Rotation, n.Scale
	for _, v := range append(append(append(m[:], t[:]...), q[:]...), s[:]...) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return gltfMat{}, fmt.Errorf("transform value %v is not finite", v)
		}
	}
	if m[3] != 0 || m[7] != 0 || m[11] != 0 || m[15] != 1 {
		return gltfMat{}, fmt.Errorf("matrix is not affine (last row %v %v %v %v, want 0 0 0 1)", m[3], m[7], m[11], m[15])
	}
	x, y, z, w := q[0], q[1], q[2], q[3]
	xx, yy, zz := float64(x*x), float64(y*y), float64(z*z)
	xy, xz, yz := float64(x*y), float64(x*z), float64(y*z)
	wx, wy, wz := float64(w*x), float64(w*y), float64(w*z)
	r := [9]float64{ // column-major rotation
		1 - float64(2*(yy+zz)), 2 * (xy + wz), 2 * (xz - wy),
		2 * (xy - wz), 1 - float64(2*(xx+zz)), 2 * (yz + wx),
		2 * (xz + wy), 2 * (yz - wx), 1 - float64(2*(xx+yy)),
	}
	var trs gltfMat
	for col := 0; col < 3; col++ {
		for row := 0; row < 3; row++ {
			trs[col*4+row] = float64(r[col*3+row] * s[col])
		}
	}
	trs[12], trs[13], trs[14], trs[15] = t[0], t[1], t[2], 1
	return gltfMul(&m, &trs), nil
}

var gltfIdentity = gltfMat(gltf.DefaultMatrix)

// scene adds the triangle primitives of the default scene to g.soup,
// walking its node trees depth first in the order the file lists them.
func (g *gltfReader) scene() error {
	doc := &g.doc
	var roots []int
	switch {
	case doc.Scene != nil:
		si := *doc.Scene
		if si < 0 || si >= len(doc.Scenes) || doc.Scenes[si] == nil {
			return g.errorf(nil, "scene %d does not exist (%d scenes)", si, len(doc.Scenes))
		}
		roots = doc.Scenes[si].Nodes
	case len(doc.Scenes) > 0:
		if doc.Scenes[0] == nil {
			return g.errorf(nil, "scene 0 is null")
		}
		roots = doc.Scenes[0].Nodes
	default: // no scene: every node that is no node's child
		child := make([]bool, len(doc.Nodes))
		for _, n := range doc.Nodes {
			if n != nil {
				for _, c := range n.Children {
					if c >= 0 && c < len(child) {
						child[c] = true
					}
				}
			}
		}
		for i, c := range child {
			if !c {
				roots = append(roots, i)
			}
		}
	}
	type item struct {
		node   int
		parent gltfMat
	}
	var stack []item
	push := func(nodes []int, parent gltfMat) {
		for i := len(nodes) - 1; i >= 0; i-- {
			stack = append(stack, item{nodes[i], parent})
		}
	}
	push(roots, gltfIdentity)
	seen := make([]bool, len(doc.Nodes))
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ni := it.node
		if ni < 0 || ni >= len(doc.Nodes) || doc.Nodes[ni] == nil {
			return g.errorf(nil, "node %d does not exist (%d nodes)", ni, len(doc.Nodes))
		}
		if seen[ni] {
			return g.errorf(nil, "node %d is reached twice (glTF nodes form trees)", ni)
		}
		seen[ni] = true
		n := doc.Nodes[ni]
		local, err := gltfLocal(n)
		if err != nil {
			return g.errorf(err, "node %d: %v", ni, err)
		}
		m := gltfMul(&it.parent, &local)
		if n.Mesh != nil {
			if err := g.instance(ni, *n.Mesh, &m); err != nil {
				return err
			}
		}
		push(n.Children, m)
	}
	return nil
}

// Primitive kinds that are left out of the level.
const (
	gltfTriangles = iota
	gltfPoints
	gltfLines
	gltfNoPosition
)

// gltfPrim is one primitive of a mesh: for a triangle primitive, the
// positions its triangles use (dequantized, untransformed) and the
// triangles indexing them.
type gltfPrim struct {
	kind int
	pos  [][3]float64
	tris [][3]int32
}

// instance adds mesh mi placed by node ni's world transform m.
func (g *gltfReader) instance(ni, mi int, m *gltfMat) error {
	prims, err := g.mesh(mi)
	if err != nil {
		return err
	}
	flip := m.det3() < 0
	s := g.soup
	for pi, p := range prims {
		switch p.kind {
		case gltfPoints:
			g.skipped.points++
			continue
		case gltfLines:
			g.skipped.lines++
			continue
		case gltfNoPosition:
			g.skipped.noPosition++
			continue
		}
		if len(s.Verts)+len(p.pos) > MaxGLTFVertices || len(s.Tris)+len(p.tris) > MaxGLTFTriangles {
			return g.errorf(nil, "node %d mesh %d primitive %d: the level would have more than %d vertices or %d triangles",
				ni, mi, pi, MaxGLTFVertices, MaxGLTFTriangles)
		}
		base := int32(len(s.Verts))
		for k, v := range p.pos {
			w := m.apply(v)
			f := geom.Vec3{X: float32(w[0]), Y: float32(w[1]), Z: float32(w[2])}
			if !f.Finite() {
				return g.errorf(nil, "node %d mesh %d primitive %d: vertex %d lands at (%g, %g, %g), not a finite float32",
					ni, mi, pi, k, w[0], w[1], w[2])
			}
			s.Verts = append(s.Verts, f)
		}
		for _, t := range p.tris {
			if flip {
				t[1], t[2] = t[2], t[1]
			}
			s.Tris = append(s.Tris, [3]int32{base + t[0], base + t[1], base + t[2]})
		}
	}
	return nil
}

// mesh returns the primitives of mesh mi, reading them on first use.
func (g *gltfReader) mesh(mi int) ([]*gltfPrim, error) {
	if mi < 0 || mi >= len(g.doc.Meshes) || g.doc.Meshes[mi] == nil {
		return nil, g.errorf(nil, "mesh %d does not exist (%d meshes)", mi, len(g.doc.Meshes))
	}
	if g.done[mi] {
		return g.meshes[mi], nil
	}
	var prims []*gltfPrim
	for pi, p := range g.doc.Meshes[mi].Primitives {
		mode := 4 // TRIANGLES
		if raw := g.raw.Meshes; mi < len(raw) && pi < len(raw[mi].Primitives) && raw[mi].Primitives[pi].Mode != nil {
			mode = *raw[mi].Primitives[pi].Mode
		}
		prim, err := g.primitive(p, mode)
		if err != nil {
			return nil, g.errorf(err, "mesh %d primitive %d: %v", mi, pi, err)
		}
		g.cachedVerts += len(prim.pos)
		if g.cachedVerts > MaxGLTFVertices {
			return nil, g.errorf(nil, "mesh %d primitive %d: the level would have more than %d vertices", mi, pi, MaxGLTFVertices)
		}
		prims = append(prims, prim)
	}
	g.meshes[mi], g.done[mi] = prims, true
	return prims, nil
}

// primitive reads one primitive of mode (glTF's number, 4: TRIANGLES).
func (g *gltfReader) primitive(p *gltf.Primitive, mode int) (*gltfPrim, error) {
	switch {
	case p == nil:
		return nil, fmt.Errorf("is null")
	case mode == 0:
		return &gltfPrim{kind: gltfPoints}, nil
	case mode >= 1 && mode <= 3:
		return &gltfPrim{kind: gltfLines}, nil
	case mode < 0 || mode > 6:
		return nil, fmt.Errorf("mode %d is not a glTF primitive mode (0-6)", mode)
	}
	pa, ok := p.Attributes[gltf.POSITION]
	if !ok {
		return &gltfPrim{kind: gltfNoPosition}, nil
	}
	pos, err := g.accessor(pa, gltf.AccessorVec3, gltfPositionTypes, MaxGLTFVertices)
	if err != nil {
		return nil, fmt.Errorf("accessor %d (POSITION): %w", pa, err)
	}
	n := pos.count
	var idx []uint32
	if p.Indices != nil {
		ia := *p.Indices
		ix, err := g.accessor(ia, gltf.AccessorScalar, gltfIndexTypes, 3*MaxGLTFTriangles+2)
		if err != nil {
			return nil, fmt.Errorf("accessor %d (indices): %w", ia, err)
		}
		ix.normalized = false // indices are never normalized
		n = ix.count
		idx = make([]uint32, n)
		for i := range idx {
			v := ix.get(i, 0)
			if v >= float64(pos.count) {
				return nil, fmt.Errorf("accessor %d (indices): index %v (element %d) is out of range: POSITION accessor %d has %d vertices", ia, v, i, pa, pos.count)
			}
			idx[i] = uint32(v)
		}
	}
	at := func(k int) int32 {
		if idx == nil {
			return int32(k)
		}
		return int32(idx[k])
	}
	var tris [][3]int32
	switch mode {
	case 4: // TRIANGLES
		if n%3 != 0 {
			return nil, fmt.Errorf("%d vertices is not a multiple of 3 (mode TRIANGLES)", n)
		}
		tris = make([][3]int32, 0, n/3)
		for i := 0; i+2 < n; i += 3 {
			tris = append(tris, [3]int32{at(i), at(i + 1), at(i + 2)})
		}
	case 5: // TRIANGLE_STRIP: every other triangle reversed, keeping the winding
		for i := 0; i+2 < n; i++ {
			if i%2 == 0 {
				tris = append(tris, [3]int32{at(i), at(i + 1), at(i + 2)})
			} else {
				tris = append(tris, [3]int32{at(i), at(i + 2), at(i + 1)})
			}
		}
	case 6: // TRIANGLE_FAN, as the OBJ reader fans faces
		for i := 1; i+1 < n; i++ {
			tris = append(tris, [3]int32{at(0), at(i), at(i + 1)})
		}
	}
	if len(tris) > MaxGLTFTriangles {
		return nil, fmt.Errorf("%d triangles, more than %d", len(tris), MaxGLTFTriangles)
	}
	// Keep only the vertices the triangles use, in accessor order.
	remap := make([]int32, pos.count)
	for _, t := range tris {
		for _, k := range t {
			remap[k] = 1
		}
	}
	prim := &gltfPrim{kind: gltfTriangles, tris: tris}
	for k, used := range remap {
		if used != 0 {
			remap[k] = int32(len(prim.pos))
			prim.pos = append(prim.pos, [3]float64{pos.get(k, 0), pos.get(k, 1), pos.get(k, 2)})
		}
	}
	for i, t := range tris {
		tris[i] = [3]int32{remap[t[0]], remap[t[1]], remap[t[2]]}
	}
	return prim, nil
}
