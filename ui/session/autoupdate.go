package session

// MaxTilesPerFrame bounds AutoUpdate's tiles per frame.
const MaxTilesPerFrame = 256

// AutoUpdate is the Cache panel's Update controls: whether every frame
// rebuilds some of the queued tiles, and how many. Its setters keep the
// values in range, so that whatever a panel field holds, what the frame
// reads is valid. The zero AutoUpdate is off, one tile per frame.
type AutoUpdate struct {
	on bool
	// tiles is the tiles per frame less one, so that the zero value is
	// one tile.
	tiles int
}

// NewAutoUpdate returns the defaults: on, one tile per frame.
func NewAutoUpdate() AutoUpdate { return AutoUpdate{on: true} }

// On reports whether auto update runs.
func (u *AutoUpdate) On() bool { return u.on }

// SetOn switches auto update on or off.
func (u *AutoUpdate) SetOn(on bool) { u.on = on }

// TilesPerFrame returns how many queued tiles a frame rebuilds (1 to
// MaxTilesPerFrame).
func (u *AutoUpdate) TilesPerFrame() int { return u.tiles + 1 }

// SetTilesPerFrame sets the tiles per frame to n, clamped to 1 to
// MaxTilesPerFrame.
func (u *AutoUpdate) SetTilesPerFrame(n int) { u.tiles = min(max(n, 1), MaxTilesPerFrame) - 1 }
