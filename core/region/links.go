package region

import "math"

// LayerLinks are the links between the spans of one layer view: for span k
// and direction d (0..3: −x, +z, +x, −z) the view index of the span of the
// layer linked from k in that direction, or -1. A view of fewer than 32,768
// spans (every view of a usual tile size) keeps them in 2 bytes each, a
// larger one in 4. The tile cache keeps the views of the tiles it rebuilt
// last, so their size matters (docs/tilecache.md §2). Links are made by
// SplitLayers or NewLayerLinks and never change: whether they are all in
// range is known from then on.
type LayerLinks struct {
	narrow []int16 // the links, when every one fits (nil otherwise)
	wide   []int32 // the links, when one does not fit
	ok     bool    // every link is -1 or a span of the view (0..Len()/4-1)
}

// NewLayerLinks returns the links to (4 per span, to[4k+d] the span linked
// from k in direction d or -1), stored exactly as given: Validate reports a
// value out of range.
func NewLayerLinks(to []int32) LayerLinks {
	var l LayerLinks
	l.reset(len(to))
	for key, j := range to {
		l.set(key, j)
	}
	n := uint32(len(to) / 4)
	l.ok = len(to)%4 == 0
	for _, j := range to {
		l.ok = l.ok && uint32(j+1) <= n // j in -1..n-1
	}
	return l
}

// Len returns the number of links, 4 per span (0 for nil links).
func (l *LayerLinks) Len() int {
	if l == nil {
		return 0
	}
	return len(l.narrow) + len(l.wide)
}

// To returns the view index of the span linked from span k in direction d,
// or -1. An inner-loop accessor: k must be a span of the view
// (0..Len()/4-1) and d in 0..3. Inner loops call it through a pointer to
// the view's links: with a copy of the struct in each loop the region and
// contour repairs measured 1.33x and 1.17x slower (BenchmarkLayerStages).
func (l *LayerLinks) To(k, d int) int32 {
	if l.wide != nil {
		return l.wide[4*k+d]
	}
	return int32(l.narrow[4*k+d])
}

// Four returns the four links of span k (To for d = 0..3) with one bounds
// check; the same contract as To.
func (l *LayerLinks) Four(k int) [4]int32 {
	if l.wide != nil {
		w := l.wide[4*k : 4*k+4 : 4*k+4]
		return [4]int32{w[0], w[1], w[2], w[3]}
	}
	n := l.narrow[4*k : 4*k+4 : 4*k+4]
	return [4]int32{int32(n[0]), int32(n[1]), int32(n[2]), int32(n[3])}
}

// AppendTo appends every link, 4 per span (as NewLayerLinks takes them), to
// dst and returns it.
func (l *LayerLinks) AppendTo(dst []int32) []int32 {
	for key := range l.Len() {
		dst = append(dst, l.To(key/4, key%4))
	}
	return dst
}

// reset sizes l for n links (4 per span), to be set in ascending key order
// (by set; the caller then sets ok).
func (l *LayerLinks) reset(n int) {
	l.wide, l.ok = nil, false
	if n/4 > math.MaxInt16+1 {
		l.narrow = nil
		l.wide = make([]int32, n)
		return
	}
	l.narrow = grow(l.narrow, n)
}

// set stores link key (4k+d) to span j (-1: none); keys must come in
// ascending order after reset: the first link that does not fit 2 bytes
// (only a bad one, in a view that small) moves the links set so far to
// wide, which takes the rest.
func (l *LayerLinks) set(key int, j int32) {
	switch {
	case l.wide != nil:
		l.wide[key] = j
	case j >= -1 && j <= math.MaxInt16:
		l.narrow[key] = int16(j)
	default:
		l.wide = make([]int32, len(l.narrow))
		for k, i := range l.narrow[:key] {
			l.wide[k] = int32(i)
		}
		l.wide[key] = j
		l.narrow = nil
	}
}
