package tilecache

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/core/voxel"
)

// cityCyclePoints are the base points of the obstacles of the city cycle
// (CityCyclePoints).
var cityCyclePoints = [...][3]float32{
	{25, 0, 8}, {74.5, 0, 9.5}, {125, 0, 9.5}, {175, 0, 9.5},
	{25, 0, 58}, {58, 0, 67.5}, {119.5, 0, 58}, {175, 0, 58},
	{7, 0, 125}, {58, 0, 118.5}, {144, 0, 125}, {192.5, 0, 125},
	{7, 0, 175}, {58, 0, 175}, {125, 0, 193.5}, {192.5, 0, 167},
}

// CityCyclePoints returns the 16 obstacle base points of the city cycle of
// build3d-runtime.md ("Cost of a rebuild") on the generated city
// (level.City with the default seed), metres, row by row. They were chosen
// once and are fixed here: for each target (25 + 50i, 25 + 50j), i, j in
// 0..3, the point nearest the target on a 0.5 m lattice (ties: lowest z,
// then x) whose disc of radius 3 m, sampled every 0.25 m, lies on open
// street: every surface of the level there is the street at y = 0 and none
// other is below 12 m (no sidewalk, parked car, lamp post or building).
// TestCityCyclePoints checks that the disc of radius 2.5 m (more than the
// obstacle's 1 m plus the agent's 0.6 m) is open street in double
// arithmetic, and that every obstacle removes walkable spans.
func CityCyclePoints() []geom.Vec3 {
	out := make([]geom.Vec3, len(cityCyclePoints))
	for i, p := range cityCyclePoints {
		out[i] = geom.V3(p[0], p[1], p[2])
	}
	return out
}

// Cycle obstacle dimensions (build3d-runtime.md, "Cost of a rebuild", and
// the navmesh bench --points format): a cylinder of radius 1 m and height
// 2 m whose base is 0.5 m below the given point.
const (
	CycleRadiusM    = 1.0
	CycleHeightM    = 2.0
	CycleBaseBelowM = 0.5
)

// CycleObstacle returns the cycle's obstacle at base point p: a cylinder of
// radius CycleRadiusM and height CycleHeightM with its base at p.Y -
// CycleBaseBelowM.
func CycleObstacle(p geom.Vec3) voxel.Obstacle {
	return voxel.Cylinder(geom.V3(p.X, p.Y-CycleBaseBelowM, p.Z), CycleRadiusM, CycleHeightM)
}

// CycleStats are the counts of one RunCycle.
type CycleStats struct {
	// Updates is the number of UpdateAll calls (two per obstacle).
	Updates int
	// TilesRebuilt counts the tiles taken from the queue, and Built those
	// of them that ran step 5 (Rebuild == RebuildBuilt).
	TilesRebuilt, Built int
	// LayersBuilt sums TileUpdate.LayersBuilt: the layer builds step 5 ran
	// (one per whole tile on the general path), and LayersRepaired
	// TileUpdate.LayersRepaired: those of them that were repairs.
	LayersBuilt, LayersRepaired int
	// RemovedSpans sums TileUpdate.RemovedSpans over the updates after an
	// add.
	RemovedSpans int
}

// RunCycle runs the benchmark cycle of build3d-runtime.md ("Cost of a
// rebuild") with the given obstacles: each is added, one at a time in
// order, each add followed by UpdateAll; then each is removed, one at a
// time in the same order, each removal followed by UpdateAll (UpdateInto
// with one result, whose memory every update reuses). The cache must have
// an empty queue. Afterwards it holds the obstacles and volumes
// it held before (the ids have moved on) and its mesh the same tiles. On
// error the obstacles added so far are removed again and the error is
// returned.
func (c *Cache) RunCycle(obstacles []voxel.Obstacle) (CycleStats, error) {
	if err := c.check(); err != nil {
		return CycleStats{}, err
	}
	var st CycleStats
	if len(c.queue) != 0 {
		return st, fmt.Errorf("tilecache: RunCycle: %d tiles are queued, want none", len(c.queue))
	}
	for i := range obstacles {
		if err := obstacles[i].Validate(); err != nil {
			return st, fmt.Errorf("tilecache: RunCycle: obstacle %d: %w", i, err)
		}
	}
	ids := make([]ObstacleID, 0, len(obstacles))
	cleanup := func() {
		for _, id := range ids {
			_ = c.RemoveObstacle(id)
		}
	}
	var r UpdateResult // its memory reused by every update
	update := func(add bool) error {
		if err := c.UpdateInto(&r, c.QueueLen()); err != nil {
			return err
		}
		st.Updates++
		st.TilesRebuilt += len(r.Tiles)
		for _, u := range r.Tiles {
			if u.Rebuild == RebuildBuilt {
				st.Built++
			}
			st.LayersBuilt += u.LayersBuilt
			st.LayersRepaired += u.LayersRepaired
			if add {
				st.RemovedSpans += u.RemovedSpans
			}
		}
		return nil
	}
	for _, o := range obstacles {
		id, err := c.AddObstacle(o)
		if err != nil {
			cleanup()
			return st, err
		}
		ids = append(ids, id)
		if err := update(true); err != nil {
			cleanup()
			return st, err
		}
	}
	for len(ids) > 0 {
		if err := c.RemoveObstacle(ids[0]); err != nil {
			cleanup()
			return st, err
		}
		ids = ids[1:]
		if err := update(false); err != nil {
			cleanup()
			return st, err
		}
	}
	return st, nil
}

// OpenFloorMinDistM is how far apart OpenFloorPoints keeps its points,
// metres (more than a tile of 64 cells of 0.3 m: one obstacle per tile or
// two).
const OpenFloorMinDistM = 10

// OpenFloorPoints returns n obstacle base points on open floor of m, for a
// cycle on a level without chosen points (navmesh bench --auto-points,
// BenchmarkLevelCycle): the centres (mean of the vertices) of its largest
// polygons (x/z area; ties in the order of m.Tiles and the tile's
// polygons), each at least OpenFloorMinDistM from those taken before in
// x/z. A cylinder of the cycle there takes spans from one wide region, as
// the city's street points do. An error when fewer than n such polygons
// exist or n < 1.
func OpenFloorPoints(m *navmesh.Mesh, n int) ([]geom.Vec3, error) {
	if n < 1 {
		return nil, fmt.Errorf("tilecache: OpenFloorPoints: %d points, want 1 or more", n)
	}
	type cand struct {
		area float64
		c    geom.Vec3
	}
	var cands []cand
	for _, ref := range m.Tiles() {
		t, err := m.Tile(ref)
		if err != nil {
			return nil, fmt.Errorf("tilecache: OpenFloorPoints: %w", err)
		}
		for i := range t.Polys {
			p := &t.Polys[i]
			var sx, sy, sz, a float64
			for j := range int(p.VertCount) {
				ui, wi := p.EdgeVerts(j)
				u, w := t.Verts[ui], t.Verts[wi]
				sx, sy, sz = sx+float64(u.X), sy+float64(u.Y), sz+float64(u.Z)
				a += float64(float64(u.X)*float64(w.Z)) - float64(float64(w.X)*float64(u.Z))
			}
			k := float64(p.VertCount)
			cands = append(cands, cand{math.Abs(a) / 2, geom.V3(float32(sx/k), float32(sy/k), float32(sz/k))})
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return cmp.Compare(b.area, a.area) })
	var pts []geom.Vec3
	for _, c := range cands {
		if len(pts) == n {
			break
		}
		far := true
		for _, p := range pts {
			dx, dz := float64(c.c.X)-float64(p.X), float64(c.c.Z)-float64(p.Z)
			far = far && float64(dx*dx)+float64(dz*dz) >= OpenFloorMinDistM*OpenFloorMinDistM
		}
		if far {
			pts = append(pts, c.c)
		}
	}
	if len(pts) < n {
		return nil, fmt.Errorf("tilecache: OpenFloorPoints: the mesh has only %d polygons %d m apart, want %d", len(pts), OpenFloorMinDistM, n)
	}
	return pts, nil
}
