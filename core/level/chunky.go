package level

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"navviz/core/geom"
)

// Chunky is a static bounding-box tree over the triangles of a Soup in the
// x/z plane (Recast's "chunky triangle mesh"): it answers which triangles
// overlap an x/z box, which is what a tile build asks for. It is built once
// and read-only afterwards, so one Chunky may be queried from many
// goroutines at once. It keeps the soup's Verts and Tris slices (a query
// tests a leaf's triangles on their vertices, so the tree holds 4 bytes a
// triangle, not a copy of their boxes): the soup's vertices and triangles
// must not change afterwards (as pipeline.NewSoupSource requires).
type Chunky struct {
	nodes   []chunkyNode
	tris    []int32 // triangle indices in leaf order
	maxLeaf int     // most triangles in one leaf

	// The soup's, shared: a triangle's x/z box is made from its vertices
	// (triBox) when a query reaches its leaf.
	verts    []geom.Vec3
	soupTris [][3]int32

	radixPasses int // 8-bit passes that sort any triangle index
}

// chunkyBox is an x/z bounding box in metres.
type chunkyBox struct{ minX, minZ, maxX, maxZ float32 }

func (b chunkyBox) overlaps(minX, minZ, maxX, maxZ float32) bool {
	return b.minX <= maxX && minX <= b.maxX && b.minZ <= maxZ && minZ <= b.maxZ
}

// chunkyNode is a tree node; nodes are stored in pre-order, so a node's
// first child is the next node. A leaf (count > 0) holds tris[first :
// first+count]; an interior node (count == 0) stores in next the index just
// past its subtree, where a query goes when the box misses it.
type chunkyNode struct {
	box   chunkyBox
	first int32 // leaf: first entry in tris
	count int32 // leaf: number of triangles; 0 for interior nodes
	next  int32 // interior: index of the node after this subtree
}

// NewChunky builds the tree over s's triangles with at most trisPerChunk
// triangles per leaf (Recast uses 256). A node whose triangles do not fit
// in a leaf is split at the median of the triangles' x/z box centres along
// its longer side (x when equal), ties broken by triangle index, so the tree
// depends only on s and trisPerChunk. It returns an error if s is nil or
// fails Validate, or trisPerChunk < 1.
func NewChunky(s *Soup, trisPerChunk int) (*Chunky, error) {
	if s == nil {
		return nil, errors.New("level: chunky mesh: nil soup")
	}
	if trisPerChunk < 1 {
		return nil, fmt.Errorf("level: chunky mesh: trisPerChunk %d, want >= 1", trisPerChunk)
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("level: chunky mesh: %w", err)
	}
	if len(s.Tris) > math.MaxInt32 {
		return nil, fmt.Errorf("level: chunky mesh: %d triangles, want at most %d", len(s.Tris), math.MaxInt32)
	}
	items := make([]chunkyItem, len(s.Tris))
	for i := range s.Tris {
		box := triBox(s.Verts, &s.Tris[i])
		// Twice the centre, in float64 so that it cannot overflow.
		items[i] = chunkyItem{box: box, cx: float64(box.minX) + float64(box.maxX), cz: float64(box.minZ) + float64(box.maxZ)}
	}
	c := &Chunky{
		tris:     make([]int32, 0, len(items)),
		verts:    s.Verts,
		soupTris: s.Tris,
	}
	if len(items) == 0 {
		return c, nil
	}
	for n := len(items) - 1; n > 0; n >>= 8 {
		c.radixPasses++
	}
	// The triangles sorted by x centre and by z centre, ties broken by
	// index: a total order, so the order is unique whatever the sort
	// algorithm, and so is the tree.
	b := chunkyBuilder{
		items: items,
		ordX:  make([]int32, len(items)),
		ordZ:  make([]int32, len(items)),
		tmp:   make([]int32, len(items)),
		left:  make([]bool, len(items)),
		leaf:  trisPerChunk,
	}
	for i := range items {
		b.ordX[i], b.ordZ[i] = int32(i), int32(i)
	}
	// Validate has excluded NaN, so < is a total order on the keys.
	slices.SortFunc(b.ordX, func(i, j int32) int {
		if a, b := items[i].cx, items[j].cx; a != b {
			return chunkySign(a < b)
		}
		return cmp.Compare(i, j)
	})
	slices.SortFunc(b.ordZ, func(i, j int32) int {
		if a, b := items[i].cz, items[j].cz; a != b {
			return chunkySign(a < b)
		}
		return cmp.Compare(i, j)
	})
	b.build(c, 0, len(items))
	return c, nil
}

// triBox returns the x/z box of triangle t of vertices verts.
func triBox(verts []geom.Vec3, t *[3]int32) chunkyBox {
	a, b, c := verts[t[0]], verts[t[1]], verts[t[2]]
	return chunkyBox{
		minX: min(a.X, b.X, c.X), minZ: min(a.Z, b.Z, c.Z),
		maxX: max(a.X, b.X, c.X), maxZ: max(a.Z, b.Z, c.Z),
	}
}

// chunkySign returns -1 if less, else +1.
func chunkySign(less bool) int {
	if less {
		return -1
	}
	return 1
}

// chunkyItem is a triangle's x/z box and twice its centre, during the build.
type chunkyItem struct {
	box    chunkyBox
	cx, cz float64
}

// chunkyBuilder holds the build state. ordX[lo:hi] and ordZ[lo:hi] hold the
// same triangles (those of the node being built), sorted by x and by z
// centre, so a median split needs no sorting: one side is a prefix of one
// list, and the other list is partitioned stably in linear time.
type chunkyBuilder struct {
	items      []chunkyItem
	ordX, ordZ []int32
	tmp        []int32
	left       []bool // by triangle: in the lower half of the current split
	leaf       int
}

// build appends the subtree over ordX[lo:hi] to c in pre-order. Median
// splits keep the depth near log2((hi-lo)/leaf), so recursion is shallow.
func (b *chunkyBuilder) build(c *Chunky, lo, hi int) {
	box := b.items[b.ordX[lo]].box
	for _, t := range b.ordX[lo+1 : hi] {
		it := &b.items[t]
		box.minX, box.minZ = min(box.minX, it.box.minX), min(box.minZ, it.box.minZ)
		box.maxX, box.maxZ = max(box.maxX, it.box.maxX), max(box.maxZ, it.box.maxZ)
	}
	self := len(c.nodes)
	c.nodes = append(c.nodes, chunkyNode{box: box})
	if hi-lo <= b.leaf {
		n := &c.nodes[self]
		n.first, n.count = int32(len(c.tris)), int32(hi-lo)
		c.tris = append(c.tris, b.ordX[lo:hi]...)
		c.maxLeaf = max(c.maxLeaf, hi-lo)
		return
	}
	mid := lo + (hi-lo)/2
	split, other := b.ordX, b.ordZ // split along the longer side, x on a tie
	if float64(box.maxX)-float64(box.minX) < float64(box.maxZ)-float64(box.minZ) {
		split, other = b.ordZ, b.ordX
	}
	for i, t := range split[lo:hi] {
		b.left[t] = lo+i < mid
	}
	n := lo
	for _, t := range other[lo:hi] {
		if b.left[t] {
			b.tmp[n] = t
			n++
		}
	}
	for _, t := range other[lo:hi] {
		if !b.left[t] {
			b.tmp[n] = t
			n++
		}
	}
	copy(other[lo:hi], b.tmp[lo:hi])
	b.build(c, lo, mid)
	b.build(c, mid, hi)
	c.nodes[self].next = int32(len(c.nodes))
}

// Query appends to dst the indices (into the soup's Tris) of the triangles
// whose x/z bounding box overlaps the box [minX, maxX] × [minZ, maxZ] in
// metres, boundaries touching included, in ascending order, and returns the
// extended slice. An empty box (min > max) or a NaN bound matches nothing.
// The triangles themselves are not clipped: a triangle whose box overlaps
// but whose surface misses the query box is still returned.
// Like append, Query may write into dst's spare capacity (it uses it as
// scratch for sorting); it allocates only when dst must grow. Query is safe
// to call from several goroutines at once, each with its own dst.
func (c *Chunky) Query(minX, minZ, maxX, maxZ float32, dst []int32) []int32 {
	if c == nil || !(minX <= maxX && minZ <= maxZ) { // empty or NaN
		return dst
	}
	start := len(dst)
	for i := 0; i < len(c.nodes); {
		n := &c.nodes[i]
		hit := n.box.overlaps(minX, minZ, maxX, maxZ)
		switch {
		case n.count > 0:
			if hit {
				end := n.first + n.count
				for _, t := range c.tris[n.first:end] {
					if triBox(c.verts, &c.soupTris[t]).overlaps(minX, minZ, maxX, maxZ) {
						dst = append(dst, t)
					}
				}
			}
			i++
		case hit:
			i++
		default:
			i = int(n.next)
		}
	}
	return chunkySortTail(dst, start, c.radixPasses)
}

// chunkySortTail sorts dst[start:] ascending. Long results are radix sorted
// (radixPasses passes of 8 bits, enough for every triangle index), using
// dst's spare capacity as scratch, so a caller that reuses dst allocates
// only while it grows.
func chunkySortTail(dst []int32, start, radixPasses int) []int32 {
	n := len(dst) - start
	if n <= 64 {
		slices.Sort(dst[start:])
		return dst
	}
	dst = slices.Grow(dst, n)
	src, tmp := dst[start:], dst[len(dst):len(dst)+n]
	for pass := range radixPasses {
		shift := 8 * uint(pass)
		var count [256]int
		for _, v := range src {
			count[uint32(v)>>shift&0xff]++
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, v := range src {
			b := uint32(v) >> shift & 0xff
			tmp[count[b]] = v
			count[b]++
		}
		src, tmp = tmp, src
	}
	if radixPasses%2 == 1 {
		copy(tmp, src) // the result is in the scratch half: move it home
	}
	return dst
}

// Len returns the number of triangles in the tree.
func (c *Chunky) Len() int {
	if c == nil {
		return 0
	}
	return len(c.tris)
}

// Nodes returns the number of tree nodes (leaves and interior).
func (c *Chunky) Nodes() int {
	if c == nil {
		return 0
	}
	return len(c.nodes)
}

// MaxLeafTris returns the largest number of triangles in one leaf (at most
// the trisPerChunk given to NewChunky).
func (c *Chunky) MaxLeafTris() int {
	if c == nil {
		return 0
	}
	return c.maxLeaf
}
