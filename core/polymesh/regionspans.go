package polymesh

import (
	"slices"
	"sync"

	"navviz/core/voxel"
)

// indexMinSpans is the most spans a column of a heightfield holds before
// the detail builder indexes the regions' spans (regionSpans) rather than
// scanning each column of a polygon's patch for its region's first span,
// which costs a tower of n floors n spans per column per floor. A variable
// so tests can compare both ways.
var indexMinSpans = 8

// regionSpans lists, for each region id, the first span of the region in
// each column of a compact heightfield that holds one, in column order.
type regionSpans struct {
	start []int32 // entries of id r: start[r] to start[r+1]
	cols  []int32 // column index (x + z*Width) of each entry
	spans []int32 // index in Spans of each entry
	last  []int32 // scratch: the last column entered for each id
	next  []int32 // scratch: the next entry of each id
}

// regionSpansPool keeps the indexes' memory from one detail build to the
// next (a tower tile's index holds about 8 bytes a span).
var regionSpansPool = sync.Pool{New: func() any { return new(regionSpans) }}

// release returns rs's memory to the pool (rs may be nil).
func (rs *regionSpans) release() {
	if rs != nil {
		regionSpansPool.Put(rs)
	}
}

// grown returns b with n elements (contents unspecified).
func grown(b []int32, n int) []int32 {
	if cap(b) < n {
		return make([]int32, n)
	}
	return b[:n]
}

// newRegionSpans indexes chf's spans by their region ids regions (in
// memory from regionSpansPool: release it after use), or returns nil when
// no column holds more than indexMinSpans spans.
func newRegionSpans(chf *voxel.CompactHeightfield, regions []uint16) *regionSpans {
	most := uint32(0)
	for _, c := range chf.Cells {
		most = max(most, c.Count)
	}
	if int(most) <= indexMinSpans {
		return nil
	}
	top := 0
	for _, r := range regions {
		top = max(top, int(r))
	}
	rs := regionSpansPool.Get().(*regionSpans)
	last := grown(rs.last, top+1) // the last column entered for each id
	rs.last = last
	for i := range last {
		last[i] = -1
	}
	// each calls f with the first span of each id in each column.
	each := func(f func(r uint16, ci, si int)) {
		for ci, c := range chf.Cells {
			for si := int(c.Index); si < int(c.Index+c.Count); si++ {
				if r := regions[si]; last[r] != int32(ci) {
					last[r] = int32(ci)
					f(r, ci, si)
				}
			}
		}
	}
	rs.start = grown(rs.start, top+2)
	clear(rs.start)
	each(func(r uint16, _, _ int) { rs.start[r+1]++ })
	for r := 1; r < len(rs.start); r++ {
		rs.start[r] += rs.start[r-1]
	}
	n := rs.start[top+1]
	rs.cols, rs.spans = grown(rs.cols, int(n)), grown(rs.spans, int(n))
	rs.next = append(rs.next[:0], rs.start[:top+1]...)
	next := rs.next
	for i := range last {
		last[i] = -1
	}
	each(func(r uint16, ci, si int) {
		rs.cols[next[r]], rs.spans[next[r]] = int32(ci), int32(si)
		next[r]++
	})
	return rs
}

// row returns the entries of id r in columns lo..hi (one grid row), as
// offsets [from, to) into cols and spans.
func (rs *regionSpans) row(r uint16, lo, hi int) (from, to int) {
	if int(r)+1 >= len(rs.start) {
		return 0, 0
	}
	a, b := int(rs.start[r]), int(rs.start[r+1])
	cols := rs.cols[a:b]
	from, _ = slices.BinarySearch(cols, int32(lo))
	to, _ = slices.BinarySearch(cols, int32(hi+1))
	return a + from, a + to
}
