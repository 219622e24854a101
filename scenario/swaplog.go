package scenario

import (
	"navviz/core/geom"
	"navviz/render"
	"navviz/tilecache"
)

// SwapLog is what the "swaps" overlay shows, kept as navviz keeps it: the
// tiles rebuilt since the last edit (a later rebuild of a position
// replaces the earlier entry), those of the latest update, and the boxes
// the rebuilt tiles had before (for removed layers).
type SwapLog struct {
	Tiles    []tilecache.TileUpdate
	Latest   []tilecache.TileUpdate
	oldBoxes map[render.TileLayer]geom.Box3
}

// Reset starts a new log (an edit: obstacles, volumes, a restore).
func (l *SwapLog) Reset() {
	if l == nil {
		return
	}
	*l = SwapLog{}
}

// BeforeUpdate notes the boxes of the tiles of the first n queued
// positions of c, before Update(n) swaps them.
// Nothing is noted for a nil l or c.
func (l *SwapLog) BeforeUpdate(c *tilecache.Cache, n int) {
	if l == nil || c == nil {
		return
	}
	if l.oldBoxes == nil {
		l.oldBoxes = map[render.TileLayer]geom.Box3{}
	}
	m := c.Mesh()
	q := c.Queue()
	for _, p := range q[:min(n, len(q))] {
		for _, ref := range m.TilesAt(int32(p[0]), int32(p[1])) {
			if t, err := m.Tile(ref); err == nil {
				l.oldBoxes[render.TileLayer{TX: p[0], TZ: p[1], Layer: t.Header.Layer}] = geom.Box3{Min: t.Header.BMin, Max: t.Header.BMax}
			}
		}
	}
}

// AfterUpdate adds the tiles an Update rebuilt.
func (l *SwapLog) AfterUpdate(res *tilecache.UpdateResult) {
	if l == nil || res == nil {
		return
	}
	l.Latest = res.Tiles
	for _, u := range res.Tiles {
		for i := range l.Tiles {
			if l.Tiles[i].TX == u.TX && l.Tiles[i].TZ == u.TZ {
				l.Tiles = append(l.Tiles[:i:i], l.Tiles[i+1:]...)
				break
			}
		}
		l.Tiles = append(l.Tiles, u)
	}
}

// View returns what render.SwapsOverlay draws.
func (l *SwapLog) View() render.SwapView {
	if l == nil {
		return render.SwapView{}
	}
	latest := make([][2]int, len(l.Latest))
	for i, u := range l.Latest {
		latest[i] = [2]int{u.TX, u.TZ}
	}
	return render.SwapView{Tiles: l.Tiles, Latest: latest, OldBoxes: l.oldBoxes}
}
