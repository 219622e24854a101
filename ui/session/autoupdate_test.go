package session

import "testing"

// TestAutoUpdate: the defaults, and tiles per frame clamped into range.
func TestAutoUpdate(t *testing.T) {
	var zero AutoUpdate
	if zero.On() || zero.TilesPerFrame() != 1 {
		t.Errorf("zero: on %v, %d tiles", zero.On(), zero.TilesPerFrame())
	}
	u := NewAutoUpdate()
	if !u.On() || u.TilesPerFrame() != 1 {
		t.Errorf("defaults: on %v, %d tiles", u.On(), u.TilesPerFrame())
	}
	u.SetOn(false)
	if u.On() {
		t.Error("SetOn(false) left it on")
	}
	for _, c := range []struct{ set, want int }{{5, 5}, {0, 1}, {-3, 1}, {MaxTilesPerFrame + 1, MaxTilesPerFrame}, {MaxTilesPerFrame, MaxTilesPerFrame}} {
		u.SetTilesPerFrame(c.set)
		if got := u.TilesPerFrame(); got != c.want {
			t.Errorf("SetTilesPerFrame(%d): %d, want %d", c.set, got, c.want)
		}
	}
}
