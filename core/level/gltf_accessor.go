package level

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"

	"github.com/qmuntal/gltf"
)

// glTF accessors: component types, strides, sparse substitution and
// normalization, every read checked against its buffer view first.

// Component types (glTF's numbers) allowed for positions (float, and the
// byte and short types of KHR_mesh_quantization) and for indices.
var (
	gltfPositionTypes = []int{5126, 5120, 5121, 5122, 5123}
	gltfIndexTypes    = []int{5121, 5123, 5125}
)

// gltfComponentBytes is the size of each component type.
var gltfComponentBytes = map[int]int{5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4}

// gltfComponentNames names the component types in errors.
var gltfComponentNames = map[int]string{
	5120: "BYTE", 5121: "UNSIGNED_BYTE", 5122: "SHORT", 5123: "UNSIGNED_SHORT", 5125: "UNSIGNED_INT", 5126: "FLOAT",
}

// gltfView is count elements of n components of type ct, element i at
// data[off+i*stride:].
type gltfView struct {
	data         []byte
	off, stride  int
	ct, n, count int
	normalized   bool
	sparseIdx    []uint32  // sorted element numbers replaced by sparse values
	sparse       *gltfView // their values, one element per sparseIdx entry
}

// raw returns component c of element i as stored.
func (v *gltfView) raw(i, c int) float64 {
	p := v.data[v.off+i*v.stride+c*gltfComponentBytes[v.ct]:]
	switch v.ct {
	case 5120:
		return float64(int8(p[0]))
	case 5121:
		return float64(p[0])
	case 5122:
		return float64(int16(binary.LittleEndian.Uint16(p)))
	case 5123:
		return float64(binary.LittleEndian.Uint16(p))
	case 5125:
		return float64(binary.LittleEndian.Uint32(p))
	}
	return float64(math.Float32frombits(binary.LittleEndian.Uint32(p)))
}

// get returns component c of element i, sparse values applied and
// normalized integers mapped to [-1, 1] or [0, 1] as glTF says.
func (v *gltfView) get(i, c int) float64 {
	x := 0.0
	if k := sort.Search(len(v.sparseIdx), func(k int) bool { return v.sparseIdx[k] >= uint32(i) }); k < len(v.sparseIdx) && v.sparseIdx[k] == uint32(i) {
		x = v.sparse.raw(k, c)
	} else {
		x = v.raw(i, c)
	}
	if !v.normalized {
		return x
	}
	switch v.ct {
	case 5120:
		return max(x/127, -1)
	case 5121:
		return x / 255
	case 5122:
		return max(x/32767, -1)
	case 5123:
		return x / 65535
	}
	return x
}

// accessor checks accessor ai (of type typ, component types allowed, at
// most maxCount elements) against the bytes it reads and returns its view.
func (g *gltfReader) accessor(ai int, typ gltf.AccessorType, allowed []int, maxCount int) (*gltfView, error) {
	if ai < 0 || ai >= len(g.doc.Accessors) || g.doc.Accessors[ai] == nil {
		return nil, fmt.Errorf("does not exist (%d accessors)", len(g.doc.Accessors))
	}
	a := g.doc.Accessors[ai]
	if ai >= len(g.raw.Accessors) || (a.Sparse != nil) != (g.raw.Accessors[ai].Sparse != nil) {
		return nil, fmt.Errorf("is not as the JSON says") // both decode the same text: cannot happen
	}
	ct := g.raw.Accessors[ai].ComponentType
	if a.Type != typ {
		return nil, fmt.Errorf("type %v, want %v", a.Type, typ)
	}
	if !gltfAllowed(ct, allowed) {
		return nil, fmt.Errorf("componentType %d (%s) is not allowed here", ct, gltfComponentNames[ct])
	}
	if a.Count < 0 || a.Count > maxCount {
		return nil, fmt.Errorf("count %d, want 0 to %d", a.Count, maxCount)
	}
	v := &gltfView{ct: ct, n: typ.Components(), count: a.Count, normalized: a.Normalized && ct != 5126}
	// Without a bufferView every element not given by sparse is zero:
	// only morph targets use that, and it would let a few bytes of JSON
	// ask for millions of vertices.
	if a.BufferView == nil {
		return nil, fmt.Errorf("has no bufferView (not read for positions and indices)")
	}
	var err error
	if v.data, v.off, v.stride, err = g.bufferView(*a.BufferView, a.ByteOffset, v.n*gltfComponentBytes[ct], a.Count, true); err != nil {
		return nil, err
	}
	if sp := a.Sparse; sp != nil {
		ict := g.raw.Accessors[ai].Sparse.Indices.ComponentType
		if sp.Count < 1 || sp.Count > a.Count {
			return nil, fmt.Errorf("sparse count %d, want 1 to %d", sp.Count, a.Count)
		}
		if !gltfAllowed(ict, gltfIndexTypes) {
			return nil, fmt.Errorf("sparse indices componentType %d is not allowed", ict)
		}
		iv := &gltfView{ct: ict, n: 1, count: sp.Count}
		if iv.data, iv.off, iv.stride, err = g.bufferView(sp.Indices.BufferView, sp.Indices.ByteOffset, gltfComponentBytes[ict], sp.Count, false); err != nil {
			return nil, fmt.Errorf("sparse indices: %w", err)
		}
		vv := &gltfView{ct: ct, n: v.n, count: sp.Count}
		if vv.data, vv.off, vv.stride, err = g.bufferView(sp.Values.BufferView, sp.Values.ByteOffset, v.n*gltfComponentBytes[ct], sp.Count, false); err != nil {
			return nil, fmt.Errorf("sparse values: %w", err)
		}
		v.sparseIdx = make([]uint32, sp.Count)
		for k := range v.sparseIdx {
			e := iv.raw(k, 0)
			if e >= float64(a.Count) || (k > 0 && uint32(e) <= v.sparseIdx[k-1]) {
				return nil, fmt.Errorf("sparse index %v (entry %d) is out of range or out of order (count %d)", e, k, a.Count)
			}
			v.sparseIdx[k] = uint32(e)
		}
		v.sparse = vv
	}
	return v, nil
}

func gltfAllowed(ct int, allowed []int) bool {
	for _, a := range allowed {
		if ct == a {
			return true
		}
	}
	return false
}

// bufferView returns the bytes of buffer view bvi and the offset and
// stride of count elements of elem bytes at byteOffset in it, checked to
// lie inside it; strided says whether the view's byteStride applies.
func (g *gltfReader) bufferView(bvi, byteOffset, elem, count int, strided bool) (data []byte, off, stride int, err error) {
	if bvi < 0 || bvi >= len(g.doc.BufferViews) || g.doc.BufferViews[bvi] == nil {
		return nil, 0, 0, fmt.Errorf("bufferView %d does not exist (%d bufferViews)", bvi, len(g.doc.BufferViews))
	}
	bv := g.doc.BufferViews[bvi]
	buf, err := g.buffer(bv.Buffer)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("bufferView %d: %w", bvi, err)
	}
	if bv.ByteOffset < 0 || bv.ByteLength < 0 || int64(bv.ByteOffset)+int64(bv.ByteLength) > int64(len(buf)) {
		return nil, 0, 0, fmt.Errorf("bufferView %d: bytes %d+%d run past buffer %d (%d bytes)", bvi, bv.ByteOffset, bv.ByteLength, bv.Buffer, len(buf))
	}
	stride = elem
	if strided && bv.ByteStride != 0 {
		stride = bv.ByteStride
	}
	if stride < elem {
		return nil, 0, 0, fmt.Errorf("bufferView %d: byteStride %d is shorter than an element (%d bytes)", bvi, stride, elem)
	}
	if byteOffset < 0 {
		return nil, 0, 0, fmt.Errorf("byteOffset %d is negative", byteOffset)
	}
	if count > 0 {
		room := int64(bv.ByteLength) - int64(byteOffset) - int64(elem)
		if room < 0 || int64(count-1) > room/int64(stride) {
			return nil, 0, 0, fmt.Errorf("%d elements of %d bytes (stride %d) at byte %d run past the end of bufferView %d (%d bytes)",
				count, elem, stride, byteOffset, bvi, bv.ByteLength)
		}
	}
	return buf[bv.ByteOffset : bv.ByteOffset+bv.ByteLength], byteOffset, stride, nil
}
