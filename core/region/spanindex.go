package region

import (
	"iter"
	"sort"
)

// SpanIndex maps the spans of a layer view to those of the compact
// heightfield it was split from: view span k is heightfield span At(k). A
// layer's spans come in long runs of consecutive heightfield spans (a tile
// of one layer is one run; city's tiles of two or three layers have tens to
// about a hundred runs for thousands of spans), so the index keeps the
// runs: 8 bytes a run instead of 4 bytes a span, and gathering a layer's
// areas is one copy a run (GatherAreas). Made by SplitLayers or
// NewSpanIndex, it never changes.
type SpanIndex struct {
	n    int
	runs []indexRun // by ascending k
}

// indexRun is a run of the index: view spans k up to the next run's k (or
// Len()) are heightfield spans i, i+1, ...
type indexRun struct{ k, i int32 }

// NewSpanIndex returns the index mapping view span k to index[k].
func NewSpanIndex(index []int32) SpanIndex {
	var s SpanIndex
	for _, i := range index {
		s.add(i)
	}
	return s
}

// add appends a span mapped to heightfield span i.
func (s *SpanIndex) add(i int32) {
	if r := len(s.runs) - 1; r < 0 || int64(s.runs[r].i)+int64(s.n)-int64(s.runs[r].k) != int64(i) {
		s.runs = append(s.runs, indexRun{int32(s.n), i})
	}
	s.n++
}

// reset empties s, keeping its memory.
func (s *SpanIndex) reset() { s.n, s.runs = 0, s.runs[:0] }

// Len returns the number of spans.
func (s SpanIndex) Len() int { return s.n }

// Runs returns the number of runs (the memory the index holds).
func (s SpanIndex) Runs() int { return len(s.runs) }

// At returns the heightfield span of view span k (0..Len()-1).
func (s SpanIndex) At(k int) int32 {
	r := sort.Search(len(s.runs), func(r int) bool { return int(s.runs[r].k) > k }) - 1
	return s.runs[r].i + int32(k-int(s.runs[r].k))
}

// run returns run r as its first view span, first heightfield span and
// length.
func (s SpanIndex) run(r int) (k, i, n int) {
	end := s.n
	if r+1 < len(s.runs) {
		end = int(s.runs[r+1].k)
	}
	return int(s.runs[r].k), int(s.runs[r].i), end - int(s.runs[r].k)
}

// All yields every view span k with its heightfield span, ascending k.
func (s SpanIndex) All() iter.Seq2[int, int32] {
	return func(yield func(int, int32) bool) {
		for r := range s.runs {
			k, i, n := s.run(r)
			for j := range n {
				if !yield(k+j, int32(i+j)) {
					return
				}
			}
		}
	}
}

// AppendTo appends At(k) for every k to dst and returns it.
func (s SpanIndex) AppendTo(dst []int32) []int32 {
	for _, i := range s.All() {
		dst = append(dst, i)
	}
	return dst
}

// inRange reports whether every heightfield span of the index is in
// 0..m-1.
func (s SpanIndex) inRange(m int) bool {
	for r := range s.runs {
		_, i, n := s.run(r)
		if i < 0 || i+n > m {
			return false
		}
	}
	return true
}
