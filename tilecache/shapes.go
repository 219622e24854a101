package tilecache

import (
	"fmt"
	"math"
	"slices"

	"navviz/core/pipeline"
	"navviz/core/voxel"
)

// maxID is the largest id; AddObstacle and AddVolume fail once it is used.
const maxID = math.MaxUint32

// Obstacle is an obstacle of a Cache with its id.
type Obstacle struct {
	ID       ObstacleID
	Obstacle voxel.Obstacle
}

// Volume is an area volume of a Cache with its id.
type Volume struct {
	ID     VolumeID
	Volume voxel.ConvexVolume
}

// AddObstacle adds obstacle o (validated; stored normalized, see
// voxel.Obstacle.Normalized) and queues every cached tile it may touch
// (QueueTiles). It returns the obstacle's id: the next obstacle id, which
// then grows by one. An invalid obstacle is an error naming the bad value
// (e.g. "tilecache: obstacle cylinder radius = NaN, want ...") and changes
// nothing.
func (c *Cache) AddObstacle(o voxel.Obstacle) (ObstacleID, error) {
	if err := c.check(); err != nil {
		return 0, err
	}
	if err := o.Validate(); err != nil {
		return 0, fmt.Errorf("tilecache: %w", err)
	}
	if c.nextObstacle == 0 {
		return 0, fmt.Errorf("tilecache: AddObstacle: all %d obstacle ids are used", uint64(maxID))
	}
	e := c.obstacleEntry(c.nextObstacle, o.Normalized())
	id := c.nextObstacle
	c.obstacles = append(c.obstacles, e)
	c.nextObstacle++ // wraps to 0 after maxID: no id left
	c.queueBox(e.minX, e.minZ, e.maxX, e.maxZ, 0)
	return id, nil
}

func (c *Cache) obstacleEntry(id ObstacleID, o voxel.Obstacle) obstacleEntry {
	e := obstacleEntry{id: id, o: o}
	e.minX, e.minZ, e.maxX, e.maxZ = o.GrownBoundsXZ(c.growM)
	return e
}

// RemoveObstacle removes the obstacle with id and queues the cached tiles it
// may have touched. An id that is not in force is an error and changes
// nothing.
func (c *Cache) RemoveObstacle(id ObstacleID) error {
	if err := c.check(); err != nil {
		return err
	}
	i := slices.IndexFunc(c.obstacles, func(e obstacleEntry) bool { return e.id == id })
	if i < 0 {
		return fmt.Errorf("tilecache: RemoveObstacle: no obstacle with id %d", id)
	}
	e := c.obstacles[i]
	c.obstacles = slices.Delete(c.obstacles, i, i+1)
	c.queueBox(e.minX, e.minZ, e.maxX, e.maxZ, 0)
	return nil
}

// AddVolume adds area volume v (validated, copied) after every volume in
// force: where volumes overlap the later one wins, and all of them apply
// after the pipeline's own NavSettings.Volumes. Area 0 makes spans not
// walkable without growing by the agent radius. It queues every cached tile
// the volume may touch and returns its id: the next volume id, which then
// grows by one. An invalid volume is an error and changes nothing.
func (c *Cache) AddVolume(v voxel.ConvexVolume) (VolumeID, error) {
	if err := c.check(); err != nil {
		return 0, err
	}
	if err := v.Validate(); err != nil {
		return 0, fmt.Errorf("tilecache: %w", err)
	}
	if c.nextVolume == 0 {
		return 0, fmt.Errorf("tilecache: AddVolume: all %d volume ids are used", uint64(maxID))
	}
	e := volumeEntryOf(c.nextVolume, v)
	id := c.nextVolume
	c.volumes = append(c.volumes, e)
	c.nextVolume++ // wraps to 0 after maxID: no id left
	c.queueBox(e.minX, e.minZ, e.maxX, e.maxZ, c.growM)
	return id, nil
}

func volumeEntryOf(id VolumeID, v voxel.ConvexVolume) volumeEntry {
	v.VertsXZ = slices.Clone(v.VertsXZ)
	e := volumeEntry{id: id, v: v}
	e.minX, e.minZ = float64(v.VertsXZ[0][0]), float64(v.VertsXZ[0][1])
	e.maxX, e.maxZ = e.minX, e.minZ
	for _, p := range v.VertsXZ[1:] {
		e.minX, e.maxX = min(e.minX, float64(p[0])), max(e.maxX, float64(p[0]))
		e.minZ, e.maxZ = min(e.minZ, float64(p[1])), max(e.maxZ, float64(p[1]))
	}
	return e
}

// RemoveVolume removes the volume with id and queues the cached tiles it may
// have touched. An id that is not in force is an error and changes nothing.
func (c *Cache) RemoveVolume(id VolumeID) error {
	if err := c.check(); err != nil {
		return err
	}
	i := slices.IndexFunc(c.volumes, func(e volumeEntry) bool { return e.id == id })
	if i < 0 {
		return fmt.Errorf("tilecache: RemoveVolume: no volume with id %d", id)
	}
	e := c.volumes[i]
	c.volumes = slices.Delete(c.volumes, i, i+1)
	c.queueBox(e.minX, e.minZ, e.maxX, e.maxZ, c.growM)
	return nil
}

// Obstacles returns the obstacles in force, in the order they were added.
func (c *Cache) Obstacles() []Obstacle {
	if c == nil {
		return nil
	}
	out := make([]Obstacle, len(c.obstacles))
	for i, e := range c.obstacles {
		out[i] = Obstacle{ID: e.id, Obstacle: e.o}
	}
	return out
}

// Volumes returns the volumes in force, in the order they were added
// (copies).
func (c *Cache) Volumes() []Volume {
	if c == nil {
		return nil
	}
	out := make([]Volume, len(c.volumes))
	for i, e := range c.volumes {
		v := e.v
		v.VertsXZ = slices.Clone(v.VertsXZ)
		out[i] = Volume{ID: e.id, Volume: v}
	}
	return out
}

// NextObstacleID returns the id the next AddObstacle will give (0 once
// every id is used).
func (c *Cache) NextObstacleID() ObstacleID {
	if c == nil {
		return 0
	}
	return c.nextObstacle
}

// NextVolumeID returns the id the next AddVolume will give (0 once every id
// is used).
func (c *Cache) NextVolumeID() VolumeID {
	if c == nil {
		return 0
	}
	return c.nextVolume
}

// Queue returns the queued tiles, front first, as (tx, tz) pairs.
func (c *Cache) Queue() [][2]int {
	if c == nil {
		return nil
	}
	out := make([][2]int, len(c.queue))
	for i, ti := range c.queue {
		t := c.tiles[ti]
		out[i] = [2]int{t.tx, t.tz}
	}
	return out
}

// QueueTile queues cached tile (tx, tz) at the back of the queue, unless it
// is queued already (then it keeps its place): a host retries a tile whose
// rebuild failed (UpdateResult.Failed) this way. A tile that is not cached
// is an error and changes nothing. Queueing a tile that turns out
// unchanged is harmless (RebuildUnchanged).
func (c *Cache) QueueTile(tx, tz int) error {
	if err := c.check(); err != nil {
		return err
	}
	if c.tileAt(tx, tz) == nil {
		return fmt.Errorf("tilecache: QueueTile: tile (%d, %d) is not a cached tile of the %d x %d tiles", tx, tz, c.grid.TilesX, c.grid.TilesZ)
	}
	c.enqueue(int32(tz*c.grid.TilesX + tx))
	return nil
}

// enqueue appends tile ti to the back of the queue unless it is queued or
// not cached: a tile with nothing walkable has no tile in the mesh and
// nothing to rebuild (an off-mesh link starting there stays unconnected,
// docs/tilecache.md §4a), and the queue holds cached tiles only.
func (c *Cache) enqueue(ti int32) {
	if c.tiles[ti] != nil && !c.queued[ti] {
		c.queued[ti] = true
		c.queue = append(c.queue, ti)
	}
}

// QueueLen returns the number of queued tiles.
func (c *Cache) QueueLen() int {
	if c == nil {
		return 0
	}
	return len(c.queue)
}

// TilesFor returns the cached tiles an operation on obstacle o would queue,
// in queue order (row by row), without queueing them; o must be valid.
func (c *Cache) TilesFor(o voxel.Obstacle) ([][2]int, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	if err := o.Validate(); err != nil {
		return nil, fmt.Errorf("tilecache: %w", err)
	}
	e := c.obstacleEntry(0, o.Normalized())
	return c.tilesIn(e.minX, e.minZ, e.maxX, e.maxZ, 0), nil
}

// TilesForVolume returns the cached tiles an operation on volume v would
// queue, in queue order, without queueing them; v must be valid.
func (c *Cache) TilesForVolume(v voxel.ConvexVolume) ([][2]int, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	if err := v.Validate(); err != nil {
		return nil, fmt.Errorf("tilecache: %w", err)
	}
	e := volumeEntryOf(0, v)
	return c.tilesIn(e.minX, e.minZ, e.maxX, e.maxZ, c.growM), nil
}

// queueBox appends to the queue, row by row, every cached tile not queued
// yet whose build grid widened by one cell and by widenM overlaps the x/z
// box [minX, maxX] x [minZ, maxZ] (boundaries touching count). Obstacles
// pass their footprint's box grown by the agent radius and widenM 0, which
// for a cylinder and a box is exactly the spec's rule (the build grid
// widened by the agent radius and one cell overlaps the shape's box) and
// for an oriented box a superset of it that also holds every column a
// turned, grown box can reach; volumes pass their polygon's box and the
// agent radius.
func (c *Cache) queueBox(minX, minZ, maxX, maxZ, widenM float64) {
	c.eachTileIn(minX, minZ, maxX, maxZ, widenM, c.enqueue)
}

// tilesIn lists the cached tiles whose build grid widened by one cell and
// widenM overlaps the box, row by row.
func (c *Cache) tilesIn(minX, minZ, maxX, maxZ, widenM float64) [][2]int {
	var out [][2]int
	c.eachTileIn(minX, minZ, maxX, maxZ, widenM, func(ti int32) {
		t := c.tiles[ti]
		out = append(out, [2]int{t.tx, t.tz})
	})
	return out
}

// eachTileIn calls fn with the index of every cached tile whose build grid
// widened by one cell and widenM overlaps the box, row by row. It looks at
// the tiles of the box's tile range only (tileRange), so its cost does not
// grow with the level; the overlap test itself is the exact one on the
// tile's build grid.
func (c *Cache) eachTileIn(minX, minZ, maxX, maxZ, widenM float64, fn func(ti int32)) {
	g := c.grid
	w := widenM + float64(g.CellSizeM)
	x0, x1 := tileRange(minX-w, maxX+w, float64(g.BoundsM.Min.X), g, g.TilesX)
	z0, z1 := tileRange(minZ-w, maxZ+w, float64(g.BoundsM.Min.Z), g, g.TilesZ)
	for tz := z0; tz <= z1; tz++ {
		for tx := x0; tx <= x1; tx++ {
			ti := int32(tz*g.TilesX + tx)
			t := c.tiles[ti]
			if t == nil {
				continue
			}
			b := &t.spans.Grid
			if float64(b.MaxM.X)+w >= minX && float64(b.OriginM.X)-w <= maxX &&
				float64(b.MaxM.Z)+w >= minZ && float64(b.OriginM.Z)-w <= maxZ {
				fn(ti)
			}
		}
	}
}

// tileRange returns the tiles [first, last] along one axis (origin: the
// level's lower bound, n tiles) whose build grid may meet [lo, hi]: the
// tiles the interval covers, widened by the border and one tile either way
// for rounding (the caller tests each exactly). first > last when none.
func tileRange(lo, hi, origin float64, g *pipeline.TileGrid, n int) (first, last int) {
	cs := float64(g.CellSizeM)
	size := float64(float64(g.TileSizeCells) * cs)
	pad := float64(float64(g.BorderCells) * cs)
	a := math.Floor((lo-pad-origin)/size) - 1
	b := math.Floor((hi+pad-origin)/size) + 1
	a, b = max(a, 0), min(b, float64(n-1))
	if !(a <= b) { // also NaN
		return 0, -1
	}
	return int(a), int(b)
}
