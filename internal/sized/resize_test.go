package sized

import "testing"

func TestResize(t *testing.T) {
	for _, tc := range []struct {
		name                string
		b                   []int32
		n, wantLen, wantCap int
		same                bool
	}{
		{"fits", make([]int32, 2, 10), 8, 8, 10, true},
		{"new exact", nil, 8, 8, 8, false},
		{"regrown with a quarter", make([]int32, 4), 8, 8, 10, false},
		{"shrinks in place", make([]int32, 8), 3, 3, 8, true},
	} {
		got := Resize(tc.b, tc.n)
		if len(got) != tc.wantLen || cap(got) != tc.wantCap {
			t.Errorf("%s: len %d cap %d, want %d %d", tc.name, len(got), cap(got), tc.wantLen, tc.wantCap)
		}
		if same := cap(tc.b) > 0 && &got[:1][0] == &tc.b[:1][0]; same != tc.same {
			t.Errorf("%s: reused %v, want %v", tc.name, same, tc.same)
		}
	}
}
