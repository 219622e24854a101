package region

import "math"

// LayerLinks are the links between the spans of one layer view: for span k
// and direction d (0..3: −x, +z, +x, −z) the view index of the span of the
// layer linked from k in that direction, or -1. Each link takes 2 bytes,
// its offset from k (0: no link). A view with a link whose offset does not
// fit (beyond ±32767: about 32,000 view spans between two neighbours, far
// beyond the tiles of a usual tile size) keeps all its links in 4 bytes
// instead. The tile cache keeps the views of the tiles it rebuilt last, so
// their size matters (docs/tilecache.md §2).
type LayerLinks struct {
	delta []int16 // offsets; nil when wide is used
	wide  []int32 // the links as they are, when an offset does not fit
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
	return l
}

// Len returns the number of links, 4 per span (0 for nil links).
func (l *LayerLinks) Len() int {
	if l == nil {
		return 0
	}
	return len(l.delta) + len(l.wide)
}

// To returns the view index of the span linked from span k in direction d,
// or -1. An inner-loop accessor: k must be a span of the view (0..Len()/4-1)
// and d in 0..3.
func (l *LayerLinks) To(k, d int) int32 {
	if l.wide != nil {
		return l.wide[4*k+d]
	}
	o := l.delta[4*k+d]
	if o == 0 {
		return -1
	}
	return int32(k) + int32(o)
}

// AppendTo appends every link, 4 per span (as NewLayerLinks takes them), to
// dst and returns it.
func (l *LayerLinks) AppendTo(dst []int32) []int32 {
	for key := range l.Len() {
		dst = append(dst, l.To(key/4, key%4))
	}
	return dst
}

// reset sizes l for n links (4 per span), in offsets, to be set in
// ascending key order.
func (l *LayerLinks) reset(n int) {
	l.delta = grow(l.delta, n)
	l.wide = nil
}

// set stores link key (4k+d) to span j (-1: none). Keys must come in
// ascending order after reset: the first link whose offset does not fit
// moves the links set so far to wide, which takes the rest.
func (l *LayerLinks) set(key int, j int32) {
	if l.wide != nil {
		l.wide[key] = j
		return
	}
	if j == -1 {
		l.delta[key] = 0
		return
	}
	o := int64(j) - int64(key/4)
	if o != 0 && o >= math.MinInt16 && o <= math.MaxInt16 {
		l.delta[key] = int16(o)
		return
	}
	l.wide = make([]int32, len(l.delta))
	for k := range key {
		l.wide[k] = int32(k/4) + int32(l.delta[k])
		if l.delta[k] == 0 {
			l.wide[k] = -1
		}
	}
	l.wide[key] = j
	l.delta = nil
}
