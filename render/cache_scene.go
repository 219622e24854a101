package render

import (
	"navviz/core/geom"
	"navviz/core/voxel"
	"navviz/tilecache"
)

// CacheState is what the tile cache overlays of CacheOverlayNames (but
// "tool-preview", which shows a GUI tool) are drawn from.
type CacheState struct {
	// Cache is the tile cache (nil: every overlay is empty).
	Cache *tilecache.Cache
	// LevelBounds clamps the run-time volumes' height ranges (the level's
	// box).
	LevelBounds geom.Box3
	// SelectedObstacle is drawn in the selection colours (0: none).
	SelectedObstacle tilecache.ObstacleID
	// SelectedOffMesh is the off-mesh link drawn in white (0: none).
	SelectedOffMesh tilecache.OffMeshLinkID
	// Swaps is what the "swaps" overlay shows.
	Swaps SwapView
}

// CacheStateOverlay returns the cache overlay called name (cache-polys,
// cache-layers, obstacles, volumes-rt, offmesh, queue or swaps) drawn from st; any other name,
// or a nil cache, gives an empty overlay of that name. navviz and the
// scenario runner draw the cache with it.
func CacheStateOverlay(name string, st *CacheState) *Overlay {
	c := st.Cache
	if c == nil {
		return &Overlay{Name: name}
	}
	switch name {
	case OverlayCachePolys:
		return CachePolysOverlay(c.Mesh())
	case OverlayCacheLayers:
		return CacheLayersOverlay(c.Mesh())
	case OverlayObstacles:
		obs := c.Obstacles()
		list := make([]voxel.Obstacle, len(obs))
		sel := -1
		for i, o := range obs {
			list[i] = o.Obstacle
			if o.ID == st.SelectedObstacle {
				sel = i
			}
		}
		return ObstaclesOverlay(list, c.ObstacleGrowthM(), sel)
	case OverlayVolumesRT:
		vs := c.Volumes()
		list := make([]voxel.ConvexVolume, len(vs))
		for i, v := range vs {
			list[i] = v.Volume
		}
		return RuntimeVolumesOverlay(list, st.LevelBounds)
	case OverlayQueue:
		g := c.Grid()
		return QueueOverlay(&g, c.Mesh(), c.Queue())
	case OverlaySwaps:
		g := c.Grid()
		return SwapsOverlay(&g, c.Mesh(), st.Swaps)
	case OverlayOffMesh:
		return OffMeshOverlay(c.OffMeshLinks(), uint32(st.SelectedOffMesh))
	}
	return &Overlay{Name: name}
}
