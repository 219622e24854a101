package ui

import (
	"github.com/hajimehoshi/ebiten/v2"
)

// MaxBatchVertices is the largest number of vertices one DrawTriangles call
// receives: indices are uint16, so a batch holds at most 65535 vertices
// (indices 0..65534).
const MaxBatchVertices = 65535

// batch is one DrawTriangles call: Verts are addressed by Indices, and every
// index is below len(Verts) <= MaxBatchVertices.
type batch struct {
	Verts   []ebiten.Vertex
	Indices []uint16
}

// batcher accumulates screen-space triangles and quads into batches of at
// most limit vertices; a primitive never straddles two batches. The zero
// value is not ready: use newBatcher.
type batcher struct {
	limit   int
	batches []batch
}

// newBatcher returns a batcher whose batches hold at most limit vertices;
// limit is clamped to [4, MaxBatchVertices] so that a quad always fits.
func newBatcher(limit int) *batcher {
	limit = max(4, min(limit, MaxBatchVertices))
	return &batcher{limit: limit}
}

// reset empties the batcher, keeping the allocated slices for reuse.
func (b *batcher) reset() {
	for i := range b.batches {
		b.batches[i].Verts = b.batches[i].Verts[:0]
		b.batches[i].Indices = b.batches[i].Indices[:0]
	}
	b.batches = b.batches[:0]
}

// room returns the current batch with space for n more vertices, starting a
// new one when the current batch is full.
func (b *batcher) room(n int) *batch {
	if k := len(b.batches); k > 0 && len(b.batches[k-1].Verts)+n <= b.limit {
		return &b.batches[k-1]
	}
	if cap(b.batches) > len(b.batches) {
		b.batches = b.batches[:len(b.batches)+1]
	} else {
		b.batches = append(b.batches, batch{})
	}
	cur := &b.batches[len(b.batches)-1]
	cur.Verts = cur.Verts[:0]
	cur.Indices = cur.Indices[:0]
	return cur
}

// addTri appends one triangle.
func (b *batcher) addTri(v0, v1, v2 ebiten.Vertex) {
	cur := b.room(3)
	base := uint16(len(cur.Verts))
	cur.Verts = append(cur.Verts, v0, v1, v2)
	cur.Indices = append(cur.Indices, base, base+1, base+2)
}

// addQuad appends a quad given by its corners in order around the rim
// (v0-v1-v2-v3), as two triangles.
func (b *batcher) addQuad(v0, v1, v2, v3 ebiten.Vertex) {
	cur := b.room(4)
	base := uint16(len(cur.Verts))
	cur.Verts = append(cur.Verts, v0, v1, v2, v3)
	cur.Indices = append(cur.Indices, base, base+1, base+2, base, base+2, base+3)
}

// vertexCount returns the number of vertices over all batches.
func (b *batcher) vertexCount() int {
	n := 0
	for _, bt := range b.batches {
		n += len(bt.Verts)
	}
	return n
}
